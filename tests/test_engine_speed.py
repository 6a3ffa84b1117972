"""The shortcuts the engine takes for speed give the answers of the slow ways they replace."""

from __future__ import annotations

import random
from itertools import islice
from typing import Any

import pytest
from pydantic import ValidationError

from sevens_rules.engine.cards import FULL_DECK, RANKS
from sevens_rules.engine.game import listed, updated
from sevens_rules.engine.match import DealtMatch
from sevens_rules.engine.registry import GAMES
from sevens_rules.engine.sjuan import SjuanFamily
from sevens_rules.schema.sjuan import (
    DominoFanTanOptions,
    FreeFanTanOptions,
    SjuanEvent,
    SjuanEventType,
    SjuanMove,
    SjuanMoveType,
)
from tests.playout import playout
from tests.sjuan_helpers import first_deal_history_issues, with_a_corrupted_deal


def states_of(game_id: str, seed: int, count: int) -> list[Any]:
    """The first ``count`` states of a random playout of ``game_id`` at its largest table."""
    game = GAMES[game_id]
    return [state for state, _ in islice(playout(game, max(game.table_sizes()), seed), count)]


@pytest.mark.parametrize("game_id", list(GAMES))
def test_updated_is_model_copy(game_id: str) -> None:
    state = states_of(game_id, 3, 5)[-1]
    fields = type(state).model_fields
    name = "dealer" if "dealer" in fields else next(iter(fields))
    value = getattr(state, name)
    copy = updated(state, **{name: value})
    expected = state.model_copy(update={name: value})
    assert copy == expected == state
    assert copy is not state
    assert copy.model_fields_set == expected.model_fields_set
    assert copy.model_dump_json() == state.model_dump_json()
    with pytest.raises(ValidationError):  # still frozen
        copy.dealer = 1


def test_updated_changes_only_the_named_fields_and_refuses_unknown_ones() -> None:
    state = states_of("sjuan", 1, 3)[-1]
    changed = updated(state, turn=(state.turn + 1) % 4, chips=[5, 5, 5, 5])
    assert changed.turn == (state.turn + 1) % 4 and changed.chips == [5, 5, 5, 5]
    assert state.chips != [5, 5, 5, 5]  # the original is untouched
    assert changed.model_dump(exclude={"turn", "chips"}) == state.model_dump(exclude={"turn", "chips"})
    with pytest.raises(TypeError, match="trun"):
        updated(state, trun=1)


def test_listed_moves_are_the_validated_moves_shared() -> None:
    play = SjuanMoveType("play")
    first = listed(SjuanMove, type=play, player=2, card="8H")
    assert first == SjuanMove(type=play, player=2, card="8H")
    assert listed(SjuanMove, type=play, player=2, card="8H") is first
    assert listed(SjuanMove, type=play, player=3, card="8H") != first
    with pytest.raises(ValidationError):  # made through validation, like any move
        listed(SjuanMove, type=play, player=2, card="8X")


def row_ends_by_scanning(table: list[str]) -> set[str]:
    """The Sjuan rule read off the table suit by suit: the 7 of a suit not yet started, else the card
    below and the card above its row."""
    cards = set()
    for suit in "CDHS":
        ranks = sorted(RANKS.index(c[0]) for c in table if c[1] == suit)
        if not ranks:
            cards.add("7" + suit)
            continue
        if ranks[0] > 0:
            cards.add(RANKS[ranks[0] - 1] + suit)
        if ranks[-1] < len(RANKS) - 1:
            cards.add(RANKS[ranks[-1] + 1] + suit)
    return cards


@pytest.mark.parametrize("game_id", ["sjuan", "fan-tan", "domino-fan-tan"])
def test_playable_cards_are_the_row_ends(game_id: str) -> None:
    game = GAMES[game_id]
    assert isinstance(game, SjuanFamily)
    checked = 0
    for seed in range(3):
        for state in states_of(game_id, seed, 200):
            if state.table:
                assert game.playable(state) == row_ends_by_scanning(state.table)
                checked += 1
    assert checked > 100


def next_cards_by_scanning(table: list[str], wrap: bool) -> set[str]:
    """The free fan tan rule read off the table suit by suit: every row starts at the first card's rank
    and grows upward, so the next card of a suit is one above its row's last card (its start card while
    the suit has none), none past the King without wrap, none once a wrapped row holds all 13."""
    start = RANKS.index(table[0][0])
    cards = set()
    for suit in "CDHS":
        steps = sorted((RANKS.index(c[0]) - start) % 13 for c in table if c[1] == suit)
        following = steps[-1] + 1 if steps else 0
        if following < 13 and (wrap or start + following < 13):
            cards.add(RANKS[(start + following) % 13] + suit)
    return cards


@pytest.mark.parametrize("wrap", [False, True])
def test_free_fan_tan_playable_cards_are_the_next_cards_up(wrap: bool) -> None:
    game = GAMES["free-fan-tan"]
    assert isinstance(game, SjuanFamily)
    options = FreeFanTanOptions(wrap=wrap)
    checked = 0
    for seed in range(4):
        for state, _ in islice(playout(game, 3, seed, options), 300):
            if state.table and state.phase == "play":
                assert game.playable(state) == next_cards_by_scanning(state.table, wrap)
                checked += 1
    assert checked > 100


def test_free_fan_tan_blocked_is_nobody_holding_a_playable_card() -> None:
    game = GAMES["free-fan-tan"]
    assert isinstance(game, SjuanFamily)
    outcomes = set()
    for seed in range(6):
        for state, _ in playout(game, 3, seed):
            slow = bool(state.table) and not any(c in game.playable(state) for h in state.hands for c in h)
            assert game.blocked(state) == slow
            outcomes.add(slow)
    assert outcomes == {False, True}


def sjuan_playout_states(game_id: str) -> list[Any]:
    """States in play from random playouts of ``game_id`` at every table size (and, for Domino fan tan,
    with a short hand and drawing until playable, so that the stock runs out)."""
    game = GAMES[game_id]
    option_sets = [game.models.options()]
    if game_id == "domino-fan-tan":
        option_sets.append(DominoFanTanOptions(hand_size=5, draw_until_playable=True))
    if game_id == "free-fan-tan":
        option_sets.append(FreeFanTanOptions(wrap=True))
    states = []
    for options in option_sets:
        for players in game.table_sizes():
            for state, _ in islice(playout(game, players, players, options), 150):
                if state.phase == "play":
                    states.append(state)
    return states


def candidate_moves(players: int) -> list[SjuanMove]:
    """Every move a seat could send inside a deal: each card played, pass and draw, and malformed ones (a
    card on a pass or a draw, a play without a card, a deck)."""
    play, pass_, draw = SjuanMoveType("play"), SjuanMoveType("pass"), SjuanMoveType("draw")
    moves = []
    for seat in range(players):
        moves += [SjuanMove(type=play, player=seat, card=c) for c in FULL_DECK]
        moves += [
            SjuanMove(type=pass_, player=seat),
            SjuanMove(type=draw, player=seat),
            SjuanMove(type=pass_, player=seat, card="7H"),
            SjuanMove(type=draw, player=seat, card="7H"),
            SjuanMove(type=play, player=seat),
            SjuanMove(type=play, player=seat, card="7H", deck=list(FULL_DECK)),
        ]
    return moves


@pytest.mark.parametrize("game_id", ["sjuan", "fan-tan", "free-fan-tan", "domino-fan-tan"])
def test_sjuan_legality_check_is_membership_in_the_listed_moves(game_id: str) -> None:
    game = GAMES[game_id]
    assert isinstance(game, SjuanFamily)
    legal = illegal = 0
    candidates: dict[int, list[SjuanMove]] = {}
    for state in sjuan_playout_states(game_id)[::5]:
        players = len(state.hands)
        for move in candidates.setdefault(players, candidate_moves(players)):
            # the slow way: list the moves and look for this one
            expected = DealtMatch.is_legal_in_deal(game, state, move)
            assert game.is_legal_in_deal(state, move) == expected, (state, move)
            legal += expected
            illegal += not expected
    assert legal > 100 and illegal > 1000


@pytest.mark.parametrize("game_id", ["sjuan", "fan-tan", "free-fan-tan", "domino-fan-tan"])
def test_sjuan_move_lists_are_the_validated_moves_of_the_playable_cards(game_id: str) -> None:
    game = GAMES[game_id]
    assert isinstance(game, SjuanFamily)
    for state in sjuan_playout_states(game_id):
        player = state.turn
        playable = game.playable(state)
        expected = [
            SjuanMove(type=SjuanMoveType("play"), player=player, card=c)
            for c in state.hands[player]
            if c in playable
        ]
        if not expected:
            kind = "draw" if getattr(state, "stock", None) else "pass"
            expected = [SjuanMove(type=SjuanMoveType(kind), player=player)]
        assert game.deal_moves(state, player) == expected


@pytest.mark.parametrize("game_id", ["sjuan", "fan-tan", "free-fan-tan", "domino-fan-tan"])
def test_sjuan_move_events_are_the_validated_events(game_id: str) -> None:
    game = GAMES[game_id]
    assert isinstance(game, SjuanFamily)
    kinds = set()
    for state in sjuan_playout_states(game_id):
        for move in game.deal_moves(state, state.turn):
            _, events = game.apply(state, move)
            kind = str(move.type)
            if kind == "play":
                expected = SjuanEvent(type=SjuanEventType.played, player=move.player, card=move.card)
            elif kind == "draw":
                expected = SjuanEvent(type=SjuanEventType.drew, player=move.player, card=state.stock[0])
            else:
                expected = SjuanEvent(type=SjuanEventType.passed, player=move.player, chips=1, reason="pass")
            assert events[0] == expected
            kinds.add(kind)
    assert kinds == ({"play", "pass", "draw"} if game_id == "domino-fan-tan" else {"play", "pass"})


RECORD_ISSUES = (
    "must have one entry per seat",
    "does not exist at a table",
    "must be at most",
    "must be cards left (+ chips when chips_count)",
    "must be the sum of the chips paid",
    "a deal has a winner exactly when it is not blocked",
    "the winner must have emptied their hand",
    "only the winner's hand is empty when a deal ends",
    "at least one card was played in every deal",
    "the deal passes to the left after every deal",
    "the match ended at an earlier deal",
)
"""The record check's issues (or the start of their message), each of which the test below must meet."""


@pytest.mark.parametrize(
    ("game_id", "players", "chips_count"),
    [("sjuan", 3, True), ("fan-tan", 5, False), ("free-fan-tan", 4, True), ("domino-fan-tan", 2, True)],
)
def test_sjuan_record_check_finds_what_the_first_version_found(
    game_id: str, players: int, chips_count: bool
) -> None:
    game = GAMES[game_id]
    assert isinstance(game, SjuanFamily)
    options = game.models.options.model_validate({"chips_count": chips_count})
    rng = random.Random(players)
    found: set[str] = set()
    for seed in range(2):
        match = [state for state, _ in playout(game, players, seed, options) if state.deals]
        for state in match[:: max(1, len(match) // 40)]:
            assert game.deal_history_issues(state) == first_deal_history_issues(game, state) == []
            for _ in range(25):
                corrupted = with_a_corrupted_deal(state, rng)
                if corrupted is not None:
                    expected = first_deal_history_issues(game, corrupted)
                    assert game.deal_history_issues(corrupted) == expected
                    found.update(issue.message for issue in expected)
    assert [kind for kind in RECORD_ISSUES if not any(kind in message for message in found)] == []
