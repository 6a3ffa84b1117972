"""My Ship Sails on its internal representation (engine/my_ship_sails_position.py) against the wire API:
the same seats to act, moves, states and outcomes move for move, and the bots' heuristic and progress on
positions as on wire states."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from sevens_rules.engine.bots import position as bots_position
from sevens_rules.engine.bots.rules import position_chooser, rules_chooser
from sevens_rules.engine.bots.sampler import Sampler
from sevens_rules.engine.bots.search import playout
from sevens_rules.engine.card_sets import card_set
from sevens_rules.engine.cards import FULL_DECK
from sevens_rules.engine.my_ship_sails_position import (
    DECLARE,
    NEXT_DEAL,
    SEAT_SHIFT,
    longest_suit,
    one_suit,
    read_position,
    write_state,
)
from sevens_rules.engine.registry import GAMES
from sevens_rules.engine.simulate import PositionSimulation, position_rules
from sevens_rules.schema.my_ship_sails import MyShipSailsOptions, MyShipSailsState
from tests.seeds import seeding

GAME: Any = GAMES["my-ship-sails"]
TABLES = [
    (4, MyShipSailsOptions(max_exchanges=3)),
    (5, MyShipSailsOptions(auto_declare=True, max_exchanges=8)),
    (7, MyShipSailsOptions(max_exchanges=1)),
    (6, MyShipSailsOptions(auto_declare=True, max_exchanges=1000)),
]


def suited_deck(rng: random.Random, players: int, dealer: int) -> list[str]:
    """A deck that deals the seat left of the dealer seven clubs and the next six diamonds (declarations
    and automatic ones happen early)."""
    clubs = [c for c in FULL_DECK if c[1] == "C"][:7]
    diamonds = [c for c in FULL_DECK if c[1] == "D"][:6]
    rest = [c for c in FULL_DECK if c not in clubs and c not in diamonds]
    rng.shuffle(rest)
    hands = [clubs, [*diamonds, rest.pop()], *([rest.pop() for _ in range(7)] for _ in range(players - 2))]
    return [hands[seat][round_] for round_ in range(7) for seat in range(players)] + rest


@pytest.mark.parametrize(("players", "options"), TABLES)
@pytest.mark.parametrize("seed", [1, 2])
def test_a_position_simulation_plays_the_wire_api_s_whole_match_move_for_move(
    players: int, options: MyShipSailsOptions, seed: int
) -> None:
    # every seat to act, every seat's codes as the wire moves they stand for, the outcome and the wire
    # state written from the position, after every move of a whole match (declarations preferred, so
    # that deals end by declaring too)
    rng = random.Random(seed)
    deck = suited_deck(rng, players, 0) if seed == 1 else None
    state, _ = GAME.new_match(players, options, seeding(seed), deck, 0)
    sim = PositionSimulation.of(GAME, state)
    assert sim is not None
    first = sim.clone()
    applied = 0
    while True:
        seats, moves = GAME.moves(state)
        assert sim.to_act() == seats
        codes = sim.legal_moves()
        assert [
            sim.wire_move(code >> SEAT_SHIFT if code != NEXT_DEAL else seats[0], code) for code in codes
        ] == (moves)
        assert [code for seat in seats for code in sim.legal_moves(seat)] == codes
        assert sim.finished() == (not seats)
        if not seats:
            break
        declarations = [index for index, code in enumerate(codes) if code & 63 == DECLARE]
        index = rng.choice(declarations) if declarations and rng.random() < 0.5 else rng.randrange(len(codes))
        state, _ = GAME.apply(state, moves[index])
        sim.apply(codes[index])
        applied += 1
        assert sim.result() == GAME.outcome(state)
        assert sim.state == state
        assert GAME.move_code(moves[index]) == codes[index]
    assert applied > 20 and state.phase == "match_over"
    assert first.state == GAME.new_match(players, options, seeding(seed), deck, 0)[0]


def test_a_posted_state_reads_and_writes_back_as_it_was() -> None:
    # a state read into its position and written back whole, including pending choices of both kinds,
    # finished deals and a posted hand and unused cards out of canonical order
    rng = random.Random(3)
    state, _ = GAME.new_match(5, MyShipSailsOptions(max_exchanges=2), seeding(3), suited_deck(rng, 5, 0), 0)
    while state.phase == "step":  # seat 1 (dealt seven clubs) declares, the others pass: one deal over
        seat = GAME.to_act(state)[0]
        state, _ = GAME.apply(state, GAME.moves(state, seat)[1][-1])
    assert state.deals[0].winners == [1]
    deal = GAME.next_deal_move(1, suited_deck(rng, 5, 1))
    state, _ = GAME.apply(state, deal)
    for seat, move in ((2, "declare"), (0, "pass")):
        listed = [m for m in GAME.moves(state, seat)[1] if m.type == move]
        state, _ = GAME.apply(state, listed[0])
    assert [choice is not None for choice in state.pending] == [True, False, True, False, False]
    assert state.pending[2].type == "declare" and state.pending[0].type == "pass"
    assert write_state(read_position(state)) == state
    data = json.loads(state.model_dump_json())
    rng.shuffle(data["hands"][3])
    rng.shuffle(data["unused"])
    posted = MyShipSailsState.model_validate_json(json.dumps(data))
    GAME.check(posted)
    position = read_position(posted)
    assert [m.card for m in GAME.moves(posted, 3)[1]] == posted.hands[3]  # passes in the hand's order
    assert write_state(position).unused == posted.unused


def test_one_suit_and_longest_suit_on_card_sets_are_the_rule() -> None:
    rng = random.Random(4)
    hands = [rng.sample(FULL_DECK, 7) for _ in range(2000)]
    hands += [rng.sample(FULL_DECK[13 * s : 13 * s + 13], 7) for s in range(4) for _ in range(25)]
    for hand in hands:
        suits = [c[1] for c in hand]
        assert one_suit(card_set(hand)) == (len(set(suits)) == 1)
        assert longest_suit(card_set(hand)) == max(suits.count(s) for s in "CDHS")


def test_the_heuristic_on_positions_chooses_the_move_it_chooses_on_wire_states() -> None:
    # a search plays its playouts on positions: the heuristic there must pick the same move for every seat
    wire, on_positions = rules_chooser(GAME), position_chooser(GAME)
    rules = position_rules(GAME)
    assert rules is not None
    compared = declared = 0
    for players, options in TABLES:
        rng = random.Random(players)
        state, _ = GAME.new_match(players, options, seeding(players), suited_deck(rng, players, 0), 0)
        for _ in range(150):
            seats, moves = GAME.moves(state)
            if not seats:
                break
            placed = rules.position(state)
            for seat in seats:
                seat_moves = GAME.moves(state, seat)[1]
                if len(seat_moves) < 2:
                    continue
                chosen = on_positions(placed, seat, rules.position_moves(placed, seat))
                assert rules.wire_move(seat, chosen) == wire(state, seat, seat_moves)
                compared += 1
                declared += chosen & 63 == DECLARE
            state, _ = GAME.apply(state, rng.choice(moves))
    assert compared > 500 and declared > 0


def test_a_playout_on_positions_judges_progress_as_on_wire_states() -> None:
    # the search's playout runs on positions; a playout cut short is judged by each seat's longest suit
    rng = random.Random(5)
    state, _ = GAME.new_match(4, MyShipSailsOptions(), seeding(5), None, 0)
    GAME.check(state)
    sampler = Sampler(GAME, state, 1)
    before = bots_position.totals(GAME, state)
    for _ in range(5):
        world = sampler.draw(rng, fresh_seed=False)
        moves = GAME.moves(world, 1)[1]
        start = bots_position.play_out_from(GAME, world, moves[0])
        assert not isinstance(start, MyShipSailsState)
        end, _ = playout(GAME, start, rng)
        wire_end = position_rules(GAME).state_of(end)  # type: ignore[union-attr]
        assert bots_position.progress(GAME, end) == bots_position.progress(GAME, wire_end)
        assert bots_position.margins(GAME, before, end) == bots_position.margins(GAME, before, wire_end)
