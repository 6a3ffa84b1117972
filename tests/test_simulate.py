"""The bots' entry point (engine/simulate.py) against the service's engine API: the same matches, move for
move, and a clone that stays independent."""

from __future__ import annotations

import random

import pytest

from sevens_rules.engine.errors import InvalidRequestError
from sevens_rules.engine.registry import GAMES
from sevens_rules.engine.simulate import PositionSimulation, Simulation, position_rules
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


SJUAN_FAMILY = ["sjuan", "fan-tan", "free-fan-tan", "domino-fan-tan"]
SEVEN_UP_FAMILY = ["seven-up", "four-handed-seven-up", "california-jack"]
POSITION_GAMES = [*SJUAN_FAMILY, "sevens", "sedmice", *SEVEN_UP_FAMILY]
"""The games with an internal representation (positions) where one seat acts at a time."""
SIMULTANEOUS_POSITION_GAMES = ["my-ship-sails"]
"""The games with positions and simultaneous steps (tests/test_my_ship_sails_position.py plays them)."""


@pytest.mark.parametrize("game_id", POSITION_GAMES)
@pytest.mark.parametrize("seed", [3, 8])
def test_a_position_simulation_plays_the_public_api_s_whole_match_move_for_move(
    game_id: str, seed: int
) -> None:
    # the internal representation against the wire API, to the end of a whole match: the seats to act,
    # the legal moves (codes, as the wire moves they stand for), the outcome after every move, and the
    # wire state written from the position at every deal's end and at the end
    game = GAMES[game_id]
    players = min(game.table_sizes()) if seed == 3 else max(game.table_sizes())
    state, _ = game.new_match(players, game.models.options(), seeding(seed), None, None)
    sim = PositionSimulation.of(game, state)
    assert sim is not None
    branch = sim.clone()
    rng = random.Random(seed)
    applied = 0
    while True:
        seats, moves = game.moves(state)
        assert sim.to_act() == seats
        codes = sim.legal_moves()
        assert [sim.wire_move(seats[0], code) for code in codes] == moves
        assert sim.legal_moves(seats[0]) == codes if seats else sim.legal_moves(0) == []
        assert sim.finished() == (not seats)
        if not seats:
            break
        index = rng.randrange(len(moves))
        state, _ = game.apply(state, moves[index])
        sim.apply(codes[index])
        applied += 1
        assert sim.result() == game.outcome(state)
        if state.phase != "play":
            assert sim.state == state
    # a Seven-Up match may be won in two short deals (turned Jacks, a gift, four points a hand)
    assert sim.state == state and applied > (20 if game_id in SEVEN_UP_FAMILY else 100)
    assert branch.state == game.new_match(players, game.models.options(), seeding(seed), None, None)[0]


def test_only_the_games_listed_have_positions_today() -> None:
    for game_id, game in GAMES.items():
        listed = game_id in POSITION_GAMES or game_id in SIMULTANEOUS_POSITION_GAMES
        assert (position_rules(game) is not None) == listed
