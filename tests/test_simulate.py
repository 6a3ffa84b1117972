"""The bots' entry point (engine/simulate.py) against the service's engine API: the same matches, move for
move, and a clone that stays independent."""

from __future__ import annotations

import random

import pytest

from sevens_rules.engine.errors import InvalidRequestError
from sevens_rules.engine.registry import GAMES
from sevens_rules.engine.simulate import Simulation
from tests.seeds import seed_hex, seeding

LOCKSTEP_MOVES = 400
"""Moves compared per game: past the first deal of every game (and a whole Seven-Up match)."""


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_simulation_plays_the_public_api_s_match_move_for_move(game_id: str) -> None:
    game = GAMES[game_id]
    players = max(game.table_sizes())
    sim = Simulation.new(game_id, players, seed_hex(7))
    state, _ = game.new_match(players, game.models.options(), seeding(7), None, None)
    assert sim.state == state
    rng = random.Random(7)
    for _ in range(LOCKSTEP_MOVES):
        seats, moves = game.moves(state)
        assert sim.to_act() == seats
        assert sim.legal_moves() == moves
        assert [m for seat in seats for m in sim.legal_moves(seat)] == moves
        assert sim.finished() == (not seats)
        if not seats:
            break
        move = rng.choice(moves)
        state, events = game.apply(state, move)
        assert sim.apply(move) == events
        assert sim.state == state
        assert sim.result() == game.outcome(state)
    for seat in range(players):
        assert sim.view(seat) == game.view(state, seat)


def test_a_clone_is_independent_of_its_original() -> None:
    sim = Simulation.new("sjuan", 3, seed_hex(1))
    while len(sim.legal_moves()) < 2:  # a position with a choice
        sim.apply(sim.legal_moves()[0])
    before = sim.state
    branch = sim.clone()
    branch.apply(branch.legal_moves()[0])
    assert sim.state is before and branch.state != before
    sim.apply(sim.legal_moves()[-1])
    assert sim.state != branch.state


def test_a_finished_match_has_nobody_to_act_and_its_winners() -> None:
    sim = Simulation.new("seven-up", 2, seed_hex(3))
    rng = random.Random(3)
    while not sim.finished():
        sim.apply(rng.choice(sim.legal_moves()))
    outcome = sim.result()
    assert sim.to_act() == [] and sim.legal_moves() == []
    assert outcome.over and outcome.winners
    assert all(sim.result().seats[seat].place == 1 for seat in outcome.winners)


def test_a_simultaneous_step_lists_every_seat_still_to_choose() -> None:
    sim = Simulation.new("my-ship-sails", 4, seed_hex(2))
    assert sim.to_act() == [0, 1, 2, 3]
    sim.apply(sim.legal_moves(2)[0])
    assert sim.to_act() == [0, 1, 3]
    assert sim.legal_moves(2) == []


def test_a_new_simulation_refuses_what_the_service_refuses() -> None:
    with pytest.raises(KeyError):
        Simulation.new("chess", 2, seed_hex(0))
    with pytest.raises(InvalidRequestError):
        Simulation.new("sevens", 3, seed_hex(0))
