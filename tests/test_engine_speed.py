"""The shortcuts the engine takes for speed give the answers of the slow ways they replace."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from itertools import islice, permutations
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from sevens_rules.engine import (
    my_ship_sails,
    my_ship_sails_wire,
    sedmice,
    sedmice_checks,
    seven_up_points,
    seven_up_position,
    seven_up_rules,
    seven_up_wire,
    sevens,
    sevens_checks,
    sevens_table,
    tricks,
)
from sevens_rules.engine.cards import FULL_DECK, PIQUET_DECK, RANKS
from sevens_rules.engine.errors import (
    IllegalMoveError,
    InvalidRequestError,
    IssueAt,
    MatchOverError,
    NotYourTurnError,
    RulesError,
)
from sevens_rules.engine.game import Game
from sevens_rules.engine.match import DealtMatch
from sevens_rules.engine.models import listed, same_model, updated, updated_from
from sevens_rules.engine.registry import GAMES
from sevens_rules.engine.sedmice import Sedmice
from sevens_rules.engine.seven_up import SevenUpFamily
from sevens_rules.engine.sevens import Sevens
from sevens_rules.engine.sjuan import SjuanFamily
from sevens_rules.schema.common import Suit
from sevens_rules.schema.my_ship_sails import (
    MyShipSailsEvent,
    MyShipSailsEventType,
    MyShipSailsMoveType,
    MyShipSailsOptions,
)
from sevens_rules.schema.scalars import MAX_SEATS
from sevens_rules.schema.sedmice import (
    SedmiceDeal,
    SedmiceEvent,
    SedmiceEventType,
    SedmiceHitReason,
    SedmiceMove,
    SedmiceMoveType,
    SedmiceOptions,
)
from sevens_rules.schema.seven_up import (
    SevenUpDealOutcome,
    SevenUpEvent,
    SevenUpEventType,
    SevenUpMove,
    SevenUpMoveType,
    SevenUpPhase,
    SevenUpPointReason,
)
from sevens_rules.schema.sevens import (
    SevensDeal,
    SevensEvent,
    SevensEventType,
    SevensMove,
    SevensMoveType,
    SevensRow,
    SevensState,
)
from sevens_rules.schema.sjuan import (
    DominoFanTanOptions,
    FreeFanTanOptions,
    SjuanEvent,
    SjuanEventType,
    SjuanMove,
    SjuanMoveType,
    SjuanOptions,
)
from tests.playout import playout
from tests.seeds import seeding
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
            # the slow way: list the moves of the seat to act (only it may move) and look for this one
            expected = move.player in game.to_act(state) and DealtMatch.is_legal_in_deal(game, state, move)
            assert game.is_legal_in_deal(state, move) == expected, (state, move)
            legal += expected
            illegal += not expected
    assert legal > 50 and illegal > 1000


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


# ---- Seven-Up family ---------------------------------------------------------------------------------

SEVEN_UP_GAMES = ["seven-up", "four-handed-seven-up", "california-jack"]


def test_seven_up_move_and_event_tables_are_the_validated_models() -> None:
    for seat in range(MAX_SEATS):
        for card in FULL_DECK:
            play = SevenUpMove(type=SevenUpMoveType.play, player=seat, card=card)
            discard = SevenUpMove(type=SevenUpMoveType.discard, player=seat, cards=[card])
            played = SevenUpEvent(type=SevenUpEventType.played, player=seat, card=card)
            assert seven_up_wire.PLAYS[seat][card] == play
            assert seven_up_wire.DISCARDS[seat][card] == discard
            assert seven_up_wire.PLAYED[seat][FULL_DECK.index(card)] == played
    assert dict(seven_up_points.SUIT_OF) == {s.value: Suit(s.value) for s in Suit}


def _seven_up_probes(players: int) -> list[SevenUpMove]:
    """Moves to ask the legality check about, validated afresh (not the shared listed ones): every card
    played and discarded by every seat, and moves of the right kind with a field too many or a card too
    many, and each decision."""
    probes = []
    for seat in range(players):
        for card in FULL_DECK:
            probes.append(SevenUpMove(type=SevenUpMoveType.play, player=seat, card=card))
            probes.append(SevenUpMove(type=SevenUpMoveType.discard, player=seat, cards=[card]))
        for kind in ("stand", "beg", "give", "run"):
            probes.append(SevenUpMove(type=SevenUpMoveType(kind), player=seat))
        probes += [
            SevenUpMove(type=SevenUpMoveType.play, player=seat, card="AS", cards=["AS"]),
            SevenUpMove(type=SevenUpMoveType.play, player=seat, card="AS", deck=list(FULL_DECK)),
            SevenUpMove(type=SevenUpMoveType.play, player=seat),
            SevenUpMove(type=SevenUpMoveType.discard, player=seat, cards=["AS", "KS"]),
            SevenUpMove(type=SevenUpMoveType.discard, player=seat, cards=[]),
            SevenUpMove(type=SevenUpMoveType.discard, player=seat, cards=["AS"], card="AS"),
            SevenUpMove(type=SevenUpMoveType.discard, player=seat),
        ]
    return probes


@pytest.mark.parametrize("game_id", SEVEN_UP_GAMES)
def test_seven_up_legality_check_is_membership_in_the_move_list(game_id: str) -> None:
    game = GAMES[game_id]
    assert isinstance(game, SevenUpFamily)
    players = max(game.table_sizes())
    probes = _seven_up_probes(players)
    # the check must have said yes and no to every kind of move made inside a deal
    kinds = ("play",) if game_id == "california-jack" else ("play", "discard", "stand", "beg", "give", "run")
    wanted = {(kind, answer) for kind in kinds for answer in (True, False)}
    seen: set[tuple[str, bool]] = set()
    seed = 0
    while seed < 3 or (not wanted <= seen and seed < 30):
        for step, (state, move) in enumerate(playout(game, players, seed)):
            if step % 5 and move is not None and move.type is not SevenUpMoveType.discard:
                continue  # every discard state, every fifth of the rest
            candidates = [*probes, *(m for seat in range(players) for m in game.deal_moves(state, seat))]
            for probe in candidates:
                # the slow way: list the moves of the seat to act (only it may move) and look for this one
                legal = probe.player in game.to_act(state) and probe in game.deal_moves(state, probe.player)
                assert game.is_legal_in_deal(state, probe) == legal, (state, probe)
                seen.add((probe.type.value, legal))
        seed += 1
    assert wanted <= seen, wanted - seen


# ---- Sevens -----------------------------------------------------------------------------------------


def sevens_row_by_scanning(suit: str, cards: set[str]) -> SevensRow:
    """The Sevens row of ``suit`` read off the cards of that suit on the table: the unbroken run through
    the 7, and the other cards laid apart, ascending."""
    ranks = sorted(RANKS.index(c[0]) for c in cards if c[1] == suit)
    low = high = RANKS.index("7")
    while low - 1 in ranks:
        low -= 1
    while high + 1 in ranks:
        high += 1
    run = [RANKS[r] + suit for r in range(low, high + 1)]
    laid = [RANKS[r] + suit for r in ranks if not low <= r <= high]
    return SevensRow(suit=Suit(suit), run=run, laid=laid)


def sevens_ends_by_scanning(state: SevensState) -> set[str]:
    """The Sevens rule read off the runs: the card below each run's lowest card and the card above its
    highest, within Ace..King."""
    cards = set()
    for row in state.table:
        ranks = [RANKS.index(c[0]) for c in row.run]
        if min(ranks) > 0:
            cards.add(RANKS[min(ranks) - 1] + row.suit)
        if max(ranks) < len(RANKS) - 1:
            cards.add(RANKS[max(ranks) + 1] + row.suit)
    return cards


def sevens_transitions(seeds: range, count: int) -> list[tuple[SevensState, SevensMove]]:
    """``(state, move)`` pairs of random Sevens playouts, moves inside a deal only."""
    pairs = []
    for seed in seeds:
        for state, move in islice(playout(GAMES["sevens"], 4, seed), count):
            if move is not None and move.type != "next_deal":
                pairs.append((state, move))
    return pairs


def test_sevens_row_ends_and_moves_are_read_off_the_runs() -> None:
    game = GAMES["sevens"]
    assert isinstance(game, Sevens)
    for state, move in sevens_transitions(range(4), 300):
        ends = sevens_ends_by_scanning(state)
        assert game.playable(state) == ends
        seat = move.player
        plays = [c for c in state.hands[seat] if c in ends]
        expected = [SevensMove(type=SevensMoveType.play, player=seat, card=c) for c in plays]
        if state.passes[seat] < 3 or not plays:
            expected.append(SevensMove(type=SevensMoveType("pass"), player=seat))
        moves = game.legal_moves(state, seat)
        assert moves == expected
        # the shared moves are the validated ones, down to the fields they were given
        assert [m.model_fields_set for m in moves] == [m.model_fields_set for m in expected]


def test_sevens_legality_check_agrees_with_the_move_list() -> None:
    game = GAMES["sevens"]
    assert isinstance(game, Sevens)
    checked = 0
    for state, _ in sevens_transitions(range(4), 300):
        for seat in range(4):
            listed_moves = game.legal_moves(state, seat)
            candidates = [
                SevensMove(type=SevensMoveType.play, player=seat, card=c)
                for c in [*state.hands[seat], *game.playable(state), "7C"]
            ]
            candidates.append(SevensMove(type=SevensMoveType("pass"), player=seat))
            for move in candidates:
                assert game.is_legal(state, move) == (move in listed_moves), (move, state)
                checked += 1
    assert checked > 10_000


def test_sevens_rows_and_events_after_a_move_are_those_read_off_the_table() -> None:
    game = GAMES["sevens"]
    kinds = set()
    for state, move in sevens_transitions(range(6), 400):
        after, events = game.apply(state, move)
        on_table = {c for row in state.table for c in [*row.run, *row.laid]}
        card = move.card or ""
        if move.type == "play":
            on_table.add(card)
            suit_row = state.table["CDHS".index(card[1])]
            kinds.add("beside laid cards" if suit_row.laid else "run only")
        elif any(e.type == "bust" for e in events):
            on_table |= set(state.hands[move.player])
            kinds.add("bust")
        assert after.table == [sevens_row_by_scanning(s, on_table) for s in "CDHS"]
        assert [r.model_fields_set for r in after.table] == [{"suit", "run", "laid"}] * 4
        if move.type == "play":
            old_run = set(suit_row.run)
            new_run = after.table["CDHS".index(card[1])].run
            joined = [c for c in new_run if c not in old_run and c != card]
            expected = SevensEvent(
                type=SevensEventType.played, player=move.player, card=move.card, joined=joined or None
            )
        else:
            used = state.passes[move.player] + 1
            expected = SevensEvent(type=SevensEventType.passed, player=move.player, passes=used)
        assert events[0] == expected
        assert events[0].model_fields_set == expected.model_fields_set
    assert kinds == {"run only", "beside laid cards", "bust"}


# ---- Sedmice ----------------------------------------------------------------------------------------


def sedmice_transitions(players: int, options: SedmiceOptions, seeds: range) -> list[tuple[Any, Any]]:
    """``(state, move)`` pairs of random Sedmice playouts, moves inside a deal only."""
    game = GAMES["sedmice"]
    return [
        (state, move)
        for seed in seeds
        for state, move in islice(playout(game, players, seed, options), 400)
        if move is not None and move.type != "next_deal"
    ]


SEDMICE_TABLES = [
    (players, SedmiceOptions(extend_only_when_losing=losing))
    for players in (2, 4)
    for losing in (False, True)
]


@pytest.mark.parametrize(("players", "options"), SEDMICE_TABLES)
def test_sedmice_moves_are_the_rule_read_off_the_trick(players: int, options: SedmiceOptions) -> None:
    game = GAMES["sedmice"]
    kinds = set()
    for state, move in sedmice_transitions(players, options, range(3)):
        seat, hand = move.player, state.hands[move.player]
        if state.trick and len(state.trick[-1]) == players:
            led = state.trick[0][0][0]
            winner = sedmice.trick_winner(state.trick, state.leader, players)
            allowed = not options.extend_only_when_losing or winner % 2 != seat % 2
            extensions = [c for c in hand if c[0] in (led, "7")] if allowed else []
            expected = [SedmiceMove(type=SedmiceMoveType.extend, player=seat, card=c) for c in extensions]
            expected.append(SedmiceMove(type=SedmiceMoveType.end_trick, player=seat))
            kinds.add("extend" if extensions else "end only")
        else:
            expected = [SedmiceMove(type=SedmiceMoveType.play, player=seat, card=c) for c in hand]
            kinds.add("play")
        moves = game.legal_moves(state, seat)
        assert moves == expected
        # the shared moves are the validated ones, down to the fields they were given
        assert [m.model_fields_set for m in moves] == [m.model_fields_set for m in expected]
    assert kinds == {"play", "extend", "end only"}


@pytest.mark.parametrize(("players", "options"), SEDMICE_TABLES)
def test_sedmice_legality_check_agrees_with_the_move_list(players: int, options: SedmiceOptions) -> None:
    game = GAMES["sedmice"]
    assert isinstance(game, DealtMatch)
    checked = 0
    for state, move in sedmice_transitions(players, options, range(3)):
        seat = move.player
        candidates = [
            SedmiceMove(type=kind, player=seat, card=c)
            for kind in (SedmiceMoveType.play, SedmiceMoveType.extend, SedmiceMoveType.end_trick)
            for c in [None, *PIQUET_DECK]
        ]
        for candidate in candidates:
            # the check every game has unless it overrides it: the move is among the listed ones
            listing = DealtMatch.is_legal_in_deal(game, state, candidate)
            assert game.is_legal_in_deal(state, candidate) == listing, candidate
            checked += listing
    assert checked > 1000


@pytest.mark.parametrize(("players", "options"), SEDMICE_TABLES)
def test_sedmice_events_are_the_validated_events(players: int, options: SedmiceOptions) -> None:
    game = GAMES["sedmice"]
    kinds = set()
    for state, move in sedmice_transitions(players, options, range(3)):
        _, events = game.apply(state, move)
        expected = []
        if move.type == "extend":
            expected.append(
                SedmiceEvent(type=SedmiceEventType.extended, player=move.player, card=move.card, answers=True)
            )
        elif move.type == "play":
            card = move.card or ""
            answering = not state.trick or card[0] in (state.trick[0][0][0], "7")
            expected.append(
                SedmiceEvent(type=SedmiceEventType.played, player=move.player, card=card, answers=answering)
            )
        drawn = [e for e in events if e.type == "drew"]
        stock = list(state.stock)
        for event in drawn:
            assert event.card == stock.pop(0)
            kinds.add("drew")
        expected += [SedmiceEvent(type=SedmiceEventType.drew, player=e.player, card=e.card) for e in drawn]
        shared = [e for e in events if e.type in ("played", "extended", "drew")]
        assert shared == expected
        assert [e.model_fields_set for e in shared] == [e.model_fields_set for e in expected]
        kinds.add(move.type)
    assert kinds == {"play", "extend", "end_trick", "drew"}


# ---- My Ship Sails ----------------------------------------------------------------------------------


def test_my_ship_sails_one_suit_is_seven_cards_of_a_single_suit() -> None:
    rng = random.Random(5)
    hands = [
        hand
        for players in (4, 7)
        for state, _ in islice(playout(GAMES["my-ship-sails"], players, 1), 200)
        for hand in state.hands
    ]
    hands += [rng.sample(FULL_DECK, 7) for _ in range(500)]  # in any order, not only deck order
    hands += [rng.sample(FULL_DECK[13 * s : 13 * s + 13], 7) for s in range(4) for _ in range(20)]
    hands += [[*hand[:6], hand[-1][0] + suit] for hand in hands[-80:] for suit in "CDHS"]
    hands += [hand[:6] for hand in hands[-80:]]
    verdicts = [my_ship_sails.one_suit(hand) for hand in hands]
    assert verdicts == [len(hand) == 7 and len({c[1] for c in hand}) == 1 for hand in hands]
    assert 100 < sum(verdicts) < len(hands) - 1000


@pytest.mark.parametrize("players", [4, 7])
def test_my_ship_sails_events_are_the_validated_events(players: int) -> None:
    game = GAMES["my-ship-sails"]
    received = 0
    for state, move in islice(playout(game, players, 2), 600):
        if move is None or move.type == "next_deal":
            continue
        _, events = game.apply(state, move)
        expected = [MyShipSailsEvent(type=MyShipSailsEventType.chosen, player=move.player)]
        exchanged = [e for e in events if e.type == "exchanged"]
        if exchanged:
            passed = {seat: choice.card for seat, choice in enumerate(state.pending) if choice is not None}
            passed[move.player] = move.card
            expected += exchanged
            expected += [
                MyShipSailsEvent(
                    type=MyShipSailsEventType.received,
                    player=seat,
                    card=passed[(seat - 1) % players],
                    from_player=(seat - 1) % players,
                )
                for seat in range(players)
            ]
            received += players
        assert events == expected
        assert [e.model_fields_set for e in events] == [e.model_fields_set for e in expected]
    assert received > 100


# ---- Seven-Up family, second pass (records and events made without validating them again) ----------


def _as_validated(model: BaseModel) -> BaseModel:
    """``model`` validated afresh from its own set fields (nested models too), as the engine once made it."""
    fields = {name: _validated_value(getattr(model, name)) for name in model.model_fields_set}
    return type(model)(**fields)


def _validated_value(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return _as_validated(value)
    if isinstance(value, list):
        return [_validated_value(item) for item in value]
    return value


def _typed_fields(value: Any) -> Any:
    """Every value of a model tree with its exact type and its model's set fields: ``==`` alone would take
    the letter ``"S"`` for ``Suit.S``."""
    if isinstance(value, BaseModel):
        return (
            type(value),
            sorted(value.model_fields_set),
            {name: _typed_fields(getattr(value, name)) for name in type(value).model_fields},
        )
    if isinstance(value, list):
        return [_typed_fields(item) for item in value]
    return (type(value), value)


def _seven_up_transitions(game_id: str, seeds: range) -> Iterator[tuple[Any, Any, Any, list[Any]]]:
    """``(state, move, next state, events)`` of random matches of ``game_id`` at each table size."""
    game = GAMES[game_id]
    for players in game.table_sizes():
        for seed in seeds:
            states = playout(game, players, seed)
            for state, move in states:
                if move is not None:
                    after, events = game.apply(state, move)
                    yield state, move, after, events


@pytest.mark.parametrize("game_id", SEVEN_UP_GAMES)
def test_seven_up_unvalidated_records_and_events_are_the_validated_ones(game_id: str) -> None:
    kinds: set[str] = set()
    for _, _, after, events in _seven_up_transitions(game_id, range(6)):
        for event in events:
            assert _typed_fields(event) == _typed_fields(_as_validated(event)), event
            kinds.add(event.type.value)
        records = [*after.tricks, *after.deals]
        assert _typed_fields(records) == _typed_fields([_as_validated(r) for r in records])
    # every event made from a blank one was seen
    assert {"trick_won", "point", "deal_ended", "match_ended"} <= kinds


def test_california_jack_draw_event_tables_are_the_validated_events() -> None:
    for seat in range(MAX_SEATS):
        unseen = SevenUpEvent(type=SevenUpEventType.drew, player=seat)
        assert _typed_fields(seven_up_wire.DREW_UNSEEN[seat]) == _typed_fields(unseen)
        for card in FULL_DECK:
            drew = SevenUpEvent(type=SevenUpEventType.drew, player=seat, card=card)
            assert _typed_fields(seven_up_wire.DREW[seat][FULL_DECK.index(card)]) == _typed_fields(drew)
    for card in FULL_DECK:
        turned = SevenUpEvent(type=SevenUpEventType.trump_turned, card=card, suit=Suit(card[1]))
        assert _typed_fields(seven_up_wire.STOCK_TOP_TURNED[card]) == _typed_fields(turned)


def test_trick_helpers_read_ace_high_from_the_table_as_from_the_rank_order() -> None:
    # an equal rank order that is not the ACE_HIGH object itself takes the position-in-the-order way
    by_position = "".join(list(tricks.ACE_HIGH))
    assert by_position == tricks.ACE_HIGH and by_position is not tricks.ACE_HIGH
    rng = random.Random(5)
    for _ in range(2000):
        cards = rng.sample(FULL_DECK, rng.randint(1, 8))
        suit = rng.choice("CDHS")
        trump = rng.choice(["C", "D", "H", "S", None])
        assert [tricks.strength(c) for c in cards] == [tricks.strength(c, by_position) for c in cards]
        assert tricks.trick_winner_index(cards, trump) == tricks.trick_winner_index(cards, trump, by_position)
        assert tricks.highest(cards, suit) == tricks.highest(cards, suit, by_position)
        assert tricks.lowest(cards, suit) == tricks.lowest(cards, suit, by_position)
        assert tricks.card_points(cards) == sum(tricks.GAME_POINTS.get(c[0], 0) for c in cards)


def _honour_points_of_every_card(game: SevenUpFamily[Any, Any, Any], state: Any) -> list[Any]:
    """High, Low and Jack as first written: who played each card, all cards, then the highest and lowest
    trump among them."""
    n = len(state.hands)
    trump = state.trump
    points = []
    if trump is not None:
        played_by = {c: (t.leader + i) % n for t in state.tricks for i, c in enumerate(t.cards)}
        high = tricks.highest(played_by, trump)
        low = tricks.lowest(played_by, trump)
        if high is not None and low is not None:
            points.append((game._seat_point(SevenUpPointReason.high, played_by[high]), high))
            points.append((game._seat_point(SevenUpPointReason.low, played_by[low]), low))
        jack = "J" + trump
        for trick in state.tricks:
            if jack in trick.cards:
                points.append((game._seat_point(SevenUpPointReason.jack, trick.winner), jack))
                break
    return points


@pytest.mark.parametrize("game_id", ["seven-up", "four-handed-seven-up"])
def test_seven_up_honour_points_are_those_read_off_every_card(game_id: str) -> None:
    game = GAMES[game_id]
    assert isinstance(game, SevenUpFamily)
    scored = 0
    for state, _, after, _ in _seven_up_transitions(game_id, range(8)):
        for probe in (state, after):
            expected = _honour_points_of_every_card(game, probe)
            assert game.honour_points(probe) == expected
            scored += bool(expected)
    assert scored > 100


def test_seven_up_decision_move_tables_are_the_validated_moves() -> None:
    decisions = {"stand_or_beg": ("stand", "beg"), "give_or_run": ("give", "run")}
    for phase, kinds in decisions.items():
        for seat in range(MAX_SEATS):
            expected = [SevenUpMove(type=SevenUpMoveType(kind), player=seat) for kind in kinds]
            codes = (
                seven_up_rules.STAND_OR_BEG_CODES
                if phase == "stand_or_beg"
                else seven_up_rules.GIVE_OR_RUN_CODES
            )
            table = [seven_up_wire.WIRE_MOVES[seat][code] for code in codes]
            assert _typed_fields(table) == _typed_fields(expected)


@pytest.mark.parametrize("game_id", SEVEN_UP_GAMES)
def test_seven_up_next_deal_moves_are_the_validated_moves(game_id: str) -> None:
    game = GAMES[game_id]
    assert isinstance(game, SevenUpFamily)
    deck = list(reversed(FULL_DECK))
    for seat in range(MAX_SEATS):
        plain = SevenUpMove(type=SevenUpMoveType.next_deal, player=seat, deck=None)  # as first made
        assert _typed_fields(game.next_deal_move(seat)) == _typed_fields(plain)
        with_deck = SevenUpMove(type=SevenUpMoveType.next_deal, player=seat, deck=deck)
        assert _typed_fields(game.next_deal_move(seat, deck)) == _typed_fields(with_deck)


# ---- Shared engine code and the Sjuan family, second pass -------------------------------------------


def test_sort_cards_tables_give_the_order_built_per_call() -> None:
    from sevens_rules.engine.cards import sort_cards

    rng = random.Random(5)
    for deck in (FULL_DECK, PIQUET_DECK, list(FULL_DECK), tuple(reversed(FULL_DECK)), ("AS", "KC", "7H")):
        order = {c: i for i, c in enumerate(deck)}  # the slow way: the table built for every call
        for _ in range(50):
            cards = rng.sample(list(deck), rng.randint(0, len(deck)))
            assert sort_cards(cards, deck) == sorted(cards, key=order.__getitem__)
        with pytest.raises(KeyError):  # a card not in the deck is refused as before
            sort_cards(["XX", *deck[:1]], deck)


@pytest.mark.parametrize("game_id", list(GAMES))
def test_moves_of_the_seats_to_act_are_their_legal_moves(game_id: str) -> None:
    game = GAMES[game_id]
    checked = 0
    for players in game.table_sizes():
        for state, _ in islice(playout(game, players, players), 400):
            seats = game.to_act(state)
            # the slow way: legal_moves of each seat, which finds the seats to act again
            expected = [move for seat in seats for move in game.legal_moves(state, seat)]
            assert game.moves(state) == (seats, expected)
            for seat in range(players):
                assert game.moves(state, seat) == (seats, game.legal_moves(state, seat))
            checked += 1
    assert checked >= 100


@pytest.mark.parametrize("game_id", ["sjuan", "fan-tan", "free-fan-tan", "domino-fan-tan"])
def test_sjuan_playable_cards_of_a_card_or_two_are_those_of_the_whole_deck(game_id: str) -> None:
    game = GAMES[game_id]
    assert isinstance(game, SjuanFamily)
    rng = random.Random(7)
    playable_seen = 0
    for state in sjuan_playout_states(game_id)[::3]:
        playable = game.playable(state)  # the slow way: the whole deck, looked up in a set of the table
        for card in FULL_DECK:
            assert game.playable_cards(state, (card,)) == ([card] if card in playable else [])
            playable_seen += card in playable
        pair = rng.sample(FULL_DECK, 2)
        assert game.playable_cards(state, pair) == [c for c in pair if c in playable]
        hand = state.hands[state.turn]
        assert game.playable_cards(state, hand) == [c for c in hand if c in playable]
    assert playable_seen > 100


def deal_round_robin_card_by_card(
    deck: list[str], players: int, first: int, counts: list[int]
) -> list[list[str]]:
    """The slow way: one card at a time round the table from ``first``, skipping full seats."""
    hands: list[list[str]] = [[] for _ in range(players)]
    position, seat = 0, first
    while position < sum(counts):
        if len(hands[seat]) < counts[seat]:
            hands[seat].append(deck[position])
            position += 1
        seat = (seat + 1) % players
    return hands


def test_deal_round_robin_slices_are_the_cards_dealt_one_at_a_time() -> None:
    from sevens_rules.engine.cards import deal_round_robin

    rng = random.Random(11)
    for _ in range(3000):
        players = rng.randint(1, 8)
        first = rng.randrange(players)
        low = rng.randint(0, 52 // players)
        # counts the way every game deals them (falling by one once, going round from first) and others
        counts = [low + (rng.random() < 0.5) for _ in range(players)]
        if rng.random() < 0.5:
            extra = rng.randint(0, players)
            counts = [low + ((seat - first) % players < extra) for seat in range(players)]
        deck = rng.sample(FULL_DECK, 52)
        if sum(counts) <= 52:
            expected = deal_round_robin_card_by_card(deck, players, first, counts)
            assert deal_round_robin(deck, players, first, counts) == expected
            assert deal_round_robin(tuple(deck), players, first, counts) == expected
        else:
            with pytest.raises(IndexError):  # a deck too short is refused as before
                deal_round_robin(deck, players, first, counts)


def shuffled_word_by_word(deck: list[str], seed: str, game_id: str, deal_number: int) -> list[str]:
    """The slow way: the words of one block after another, each position drawn by uniform_below."""
    from sevens_rules.engine.dealing import shuffle_context, uniform_below, words

    stream = words(seed, shuffle_context(game_id, deal_number, "deal", ()))
    cards = list(deck)
    for i in range(len(cards) - 1, 0, -1):
        j = uniform_below(stream, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def test_shuffle_words_made_at_once_are_the_words_of_the_stream() -> None:
    from sevens_rules.engine.dealing import shuffled

    for number in range(300):
        seed = f"{number * 7919:064x}"
        for deck in (FULL_DECK, PIQUET_DECK, FULL_DECK[: number % 20]):
            expected = shuffled_word_by_word(list(deck), seed, "sjuan", number)
            assert shuffled(deck, seed, "sjuan", number) == expected


def test_fisher_yates_refuses_the_words_uniform_below_refuses() -> None:
    from sevens_rules.engine.dealing import fisher_yates, uniform_below

    # Words near 2^32 are refused for most bounds; real streams almost never hold one, so the test makes
    # streams where a third of the words are.
    rng = random.Random(13)
    refused = 0
    for _ in range(300):
        stream = [rng.choice([rng.getrandbits(32), 2**32 - 1 - rng.getrandbits(4)]) for _ in range(200)]
        cards = list(FULL_DECK[: rng.randint(0, 52)])
        slow = iter(stream)
        expected = list(cards)
        for i in range(len(expected) - 1, 0, -1):
            j = uniform_below(slow, i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        rest = list(slow)
        fast = iter(stream)
        assert fisher_yates(list(cards), fast) == expected
        assert list(fast) == rest  # the same words read, no more
        refused += len(stream) - len(rest) - max(len(cards) - 1, 0)
    assert refused > 500


@pytest.mark.parametrize("game_id", ["sjuan", "fan-tan", "free-fan-tan", "domino-fan-tan"])
def test_sjuan_next_deal_moves_are_the_validated_moves(game_id: str) -> None:
    game = GAMES[game_id]
    assert isinstance(game, SjuanFamily)
    next_deal = SjuanMoveType("next_deal")
    for seat in range(MAX_SEATS):
        assert game.next_deal_move(seat) == SjuanMove(type=next_deal, player=seat)
        deck = list(reversed(FULL_DECK))
        assert game.next_deal_move(seat, deck) == SjuanMove(type=next_deal, player=seat, deck=deck)


def outcome_of(call: Any) -> tuple[Any, ...]:
    """What a call answered: its result, or its error's type, detail, issues, argument and legal moves."""
    try:
        return ("answered", call())
    except RulesError as error:
        found = (type(error), error.detail, error.issues, getattr(error, "argument", None))
        return (*found, getattr(error, "legal_moves", None))


@pytest.mark.parametrize("game_id", list(GAMES))
def test_apply_refuses_a_seat_off_the_table_as_when_it_checked_every_seat_first(game_id: str) -> None:
    game = GAMES[game_id]

    def apply_checking_the_seat_first(state: Any, move: Any) -> Any:
        # the slow way: the shared apply as it was, every move's seat checked against the table first
        seats = game.to_act(state)
        if not seats:
            raise MatchOverError("The match is over; no move is legal.", [])
        game.check_seat(state, move.player, "move", ("player",))
        if move.player not in seats:
            detail, why = game.not_to_act(state, move.player, seats)
            raise NotYourTurnError(
                detail,
                [m for seat in seats for m in game.legal_moves(state, seat)],
                [IssueAt(("player",), why)],
            )
        if not game.is_legal(state, move):
            raise IllegalMoveError(
                "This move is not legal now.",
                game.legal_moves(state, move.player),
                [IssueAt((), "not among the legal moves")],
            )
        return game.resolve(state, move)

    kinds = set()
    players = max(game.table_sizes())
    for state, move in islice(playout(game, players, 4), 0, 300, 3):
        if move is None:
            continue
        for seat in (-1, 0, players - 1, players, players + 3):
            other = move.model_copy(update={"player": seat})
            expected = outcome_of(lambda: apply_checking_the_seat_first(state, other))  # noqa: B023
            assert outcome_of(lambda: game.apply(state, other)) == expected  # noqa: B023
            kinds.add(expected[0])
    assert InvalidRequestError in kinds and "answered" in kinds


@pytest.mark.parametrize("game_id", ["sjuan", "fan-tan", "free-fan-tan", "domino-fan-tan"])
def test_sjuan_dealt_states_are_the_validated_states(game_id: str) -> None:
    game = GAMES[game_id]
    assert isinstance(game, SjuanFamily)
    option_sets = [game.models.options(), game.models.options.model_validate({"chips_count": False})]
    if game_id == "domino-fan-tan":
        option_sets.append(DominoFanTanOptions(hand_size=26, draw_until_playable=True))
    dealt = 0
    for options in option_sets:
        for players in game.table_sizes():
            for state, move in playout(game, players, players, options):
                if move is not None and move.type != "next_deal" and state.table:
                    continue
                # a fresh deal (the first, or one after a next_deal): the slow way validates its fields
                fields = {name: getattr(state, name) for name in state.model_fields_set}
                validated = type(state).model_validate(fields)
                assert state == validated and state.model_fields_set == validated.model_fields_set
                assert state.model_dump_json() == validated.model_dump_json()
                dealt += 1
    assert dealt > 50


@pytest.mark.parametrize("game_id", ["sjuan", "fan-tan", "free-fan-tan", "domino-fan-tan"])
def test_sjuan_deal_events_are_the_validated_events(game_id: str) -> None:
    game = GAMES[game_id]
    assert isinstance(game, SjuanFamily)
    short_hands = 0
    for players in game.table_sizes():
        for state, move in playout(game, players, players):
            if move is None or move.type != "next_deal":
                continue
            dealt, events = game.apply(state, move)
            # the slow way: each event made through validation
            expected = [SjuanEvent(type=SjuanEventType.deal_started, player=dealt.dealer)]
            expected += [
                SjuanEvent(type=SjuanEventType.chip_paid, player=seat, chips=paid, reason="short_hand")
                for seat, paid in enumerate(dealt.chips)
                if paid
            ]
            assert events == expected
            short_hands += len(expected) - 1
    assert short_hands > 10 or game_id == "domino-fan-tan"  # two hands of the same size


@pytest.mark.parametrize("game_id", ["sjuan", "fan-tan", "free-fan-tan", "domino-fan-tan"])
def test_sjuan_play_leaves_the_hand_without_the_card(game_id: str) -> None:
    game = GAMES[game_id]
    assert isinstance(game, SjuanFamily)
    plays = 0
    for state in sjuan_playout_states(game_id):
        for move in game.deal_moves(state, state.turn):
            if move.type != "play":
                continue
            after, _ = game.apply(state, move)
            # the slow way: the hand filtered, every other card kept in order; the state before untouched
            assert after.hands[move.player] == [c for c in state.hands[move.player] if c != move.card]
            assert after.hands[move.player] is not state.hands[move.player]
            assert move.card in state.hands[move.player]
            assert [h for i, h in enumerate(after.hands) if i != move.player] == [
                h for i, h in enumerate(state.hands) if i != move.player
            ]
            plays += 1
    assert plays > 100


def sevens_rows_to_check(rng: random.Random) -> list[SevensRow]:
    """Rows from random playouts as they are, and each changed a little: a card dropped, added (of the
    suit or not), moved between run and laid, two cards swapped, a card's suit changed."""
    rows = [row for state, _ in sevens_transitions(range(4), 300) for row in state.table]
    changed = []
    for row in rng.sample(rows, 600):
        run, laid = list(row.run), list(row.laid)
        suit = str(row.suit)
        match rng.randrange(6):
            case 0 if len(run) > 1:
                run.pop(rng.choice([0, -1, rng.randrange(len(run))]))
            case 1:
                card = rng.choice(RANKS) + rng.choice([suit, suit, "CDHS"[rng.randrange(4)]])
                (run if rng.random() < 0.5 else laid).insert(rng.randrange(len(run) + 1), card)
            case 2 if len(run) > 1:
                laid.insert(0, run.pop(rng.choice([0, -1])))
            case 3 if laid:
                run.append(laid.pop(0))
            case 4:
                cards = run + laid
                i, j = rng.randrange(len(cards)), rng.randrange(len(cards))
                cards[i], cards[j] = cards[j], cards[i]
                run, laid = cards[: len(run)], cards[len(run) :]
            case _:
                cards = run + laid
                i = rng.randrange(len(cards))
                cards[i] = cards[i][0] + rng.choice("CDHS".replace(suit, ""))
                run, laid = cards[: len(run)], cards[len(run) :]
        if run:
            changed.append(SevensRow.model_construct(suit=row.suit, run=run, laid=laid))
    return rows + changed


def test_sevens_row_check_answers_as_the_check_by_check_way() -> None:
    rows = sevens_rows_to_check(random.Random(11))
    verdicts = []
    for row in rows:
        issues = sevens_checks._row_issues(("table", 2), row)
        assert issues == sevens_checks._row_problems(("table", 2), row), row
        verdicts.append(bool(issues))
    assert 300 < sum(verdicts) < len(rows) - 1000


def test_sevens_deal_record_check_answers_as_the_check_by_check_way() -> None:
    game = GAMES["sevens"]
    assert isinstance(game, Sevens)
    rng = random.Random(12)
    finished = [state for seed in range(3) for state, _ in playout(game, 4, seed) if state.deals]
    outcomes = []
    for state in finished[::2]:
        deals = list(state.deals)
        index = rng.randrange(len(deals))
        deal = deals[index]
        places, points, dealer = list(deal.places), list(deal.points), deal.dealer
        match rng.randrange(6):
            case 0:
                rng.shuffle(places)
            case 1:
                points[rng.randrange(4)] += rng.choice([-1, 1])
            case 2:
                dealer = rng.randrange(5)
            case 3:
                places[rng.randrange(4)] = rng.randrange(1, 5)
            case 4:
                (places if rng.random() < 0.5 else points).pop()
            case _:
                pass
        deals[index] = SevensDeal.model_construct(
            number=deal.number, dealer=dealer, places=places, points=points
        )
        changed = updated(state, deals=deals)
        check = game.deal_record_check(changed)
        expected_dealer = (state.dealer - (state.deal_number - 1 - index)) % 4
        for clean in (True, False):
            issues = check(index, clean)
            slow = sevens_checks._deal_record_problems(("deals", index), deals[index], expected_dealer, clean)
            assert issues == slow
            outcomes.append(bool(issues))
    assert 100 < sum(outcomes) < len(outcomes) - 100


def sedmice_record_issues_by_hand(deal: Any, path: tuple[Any, ...], players: int) -> list[tuple[Any, str]]:
    """The checks of one Sedmice deal record's own numbers, as (path, message), written out plainly: one
    entry per side, a seat at the table, 80 points in tens, no points without a trick, no more tricks than
    32 cards make, the last trick's side took a trick, then the hits of the largest case that applies."""
    found = [
        ((*path, name), f"must have one entry per seat (2), not {len(getattr(deal, name))}")
        for name in ("points", "tricks", "hits")
        if len(getattr(deal, name)) != 2
    ]
    if not 0 <= deal.last_trick < players:
        found.append(
            ((*path, "last_trick"), f"seat {deal.last_trick} does not exist at a table of {players}")
        )
    if found:
        return found
    points, tricks = deal.points, deal.tricks
    if sum(points) != 80 or points[0] % 10 or points[1] % 10:
        return [((*path, "points"), "the sides share 80 points in tens")]
    if (tricks[0] == 0 and points[0]) or (tricks[1] == 0 and points[1]):
        return [((*path, "points"), "a side without a trick has no points")]
    if tricks[0] + tricks[1] > 32 // players:
        return [((*path, "tricks"), f"every trick takes a card from each seat: {32 // players} at most")]
    if tricks[0] + tricks[1] < 32 // (4 * players):  # four rounds at most: a hand holds four cards
        least = 32 // (4 * players)
        return [((*path, "tricks"), f"a trick takes at most 4 cards from each seat: {least} tricks at least")]
    if tricks[deal.last_trick % 2] == 0:
        return [((*path, "last_trick"), "the last trick's taker's side took no trick")]
    if 0 in tricks:
        side, hits, reason = 1 - tricks.index(0), 3, "all_tricks"
    elif 80 in points:
        side, hits, reason = points.index(80), 2, "all_points"
    elif points[0] != points[1]:
        side, hits, reason = (0 if points[0] > points[1] else 1), 1, "more_points"
    else:
        side, hits, reason = deal.last_trick % 2, 1, "tie_last_trick"
    side_hits = [hits, 0] if side == 0 else [0, hits]
    if (deal.side, deal.hits, deal.reason) != (side, side_hits, reason):
        return [((*path, "hits"), f"must be {side_hits} to side {side} ({reason})")]
    return []


def test_sedmice_deal_record_check_answers_as_the_rules_written_out() -> None:
    game = GAMES["sedmice"]
    assert isinstance(game, Sedmice)
    rng = random.Random(13)
    with_records = [
        state
        for players in (2, 4)
        for seed in range(3)
        for state, _ in playout(game, players, seed)
        if state.deals
    ]
    outcomes = []
    for state in with_records[::7]:
        deals = list(state.deals)
        index = rng.randrange(len(deals))
        fields = deals[index].model_dump()
        name = rng.choice(["points", "tricks", "hits", "last_trick", "side", "reason", None])
        if name in ("points", "tricks", "hits"):
            values = fields[name]
            match rng.randrange(3):
                case 0:
                    values.reverse()
                case 1:
                    values[rng.randrange(2)] += rng.choice([-10, -1, 1, 10])
                case _:
                    values.append(0) if rng.random() < 0.5 else values.pop()
        elif name == "last_trick":
            fields[name] = rng.randrange(5)
        elif name == "side":
            fields[name] = 1 - fields[name]
        elif name == "reason":
            fields[name] = rng.choice(list(SedmiceHitReason))
        deals[index] = SedmiceDeal.model_construct(**fields)
        changed = updated(state, deals=deals)
        expected = sedmice_record_issues_by_hand(deals[index], ("deals", index), len(state.hands))
        # worked out afresh, then remembered: the same answer either way
        for forget in (True, False):
            if forget:
                sedmice_checks._record_issues.cache_clear()
            check = game.deal_record_check(changed)
            found = [issue for i in range(index + 1) for issue in check(i, True)]
            assert [(i.path, i.message) for i in found] == expected
        outcomes.append(bool(expected))
    assert len(outcomes) > 100 and 20 < sum(outcomes) < len(outcomes) - 20


def test_sevens_turn_after_a_move_is_the_next_active_seat_on_the_left() -> None:
    seats = range(4)
    orders = [list(p) for k in range(4) for p in permutations(seats, k)]
    for out in orders:
        for bust in orders:
            active = [seat for seat in seats if seat not in out and seat not in bust]
            if set(out) & set(bust) or not active:
                continue  # (no state of play has these)
            for player in seats:
                if len(active) == 1:
                    expected = (True, active[0])
                else:
                    expected = (
                        False,
                        next(s for s in [*range(player + 1, 4), *range(player + 1)] if s in active),
                    )
                assert sevens._turn_after(player, tuple(out), tuple(bust)) == expected


@pytest.mark.parametrize(("players", "options"), SEDMICE_TABLES)
def test_sedmice_trick_taken_events_are_the_validated_events(players: int, options: SedmiceOptions) -> None:
    game = GAMES["sedmice"]
    taken = 0
    for state, move in sedmice_transitions(players, options, range(3)):
        _, events = game.apply(state, move)
        for event in events:
            if event.type != "trick_taken":
                continue
            trick = (
                state.trick
                if move.type == "end_trick"
                else [*state.trick[:-1], [*state.trick[-1], move.card]]
            )
            cards = [c for round_ in trick for c in round_]
            taker = sedmice.trick_winner(trick, state.leader, players)
            expected = SedmiceEvent(
                type=SedmiceEventType.trick_taken,
                player=taker,
                side=taker % 2,
                cards=cards,
                rounds=len(trick),
                points=10 * sum(c[0] in "AT" for c in cards),
            )
            assert event == expected
            assert event.model_fields_set == expected.model_fields_set
            taken += 1
    assert taken > 50


def test_my_ship_sails_a_one_suit_hand_may_declare_and_a_moveless_next_deal_is_refused() -> None:
    """A seat dealt one suit may declare (``declare``, no card); a ``next_deal`` move, also without a card,
    is refused in a step, as is a pass naming no card and a declaration by a seat of several suits."""
    game: Any = GAMES["my-ship-sails"]
    clubs = [c for c in FULL_DECK if c[1] == "C"][:7]
    rest = [c for c in FULL_DECK if c not in clubs]
    deck = [clubs.pop(0) if i % 4 == 0 and clubs else rest.pop(0) for i in range(len(FULL_DECK))]
    state = game.new(4, MyShipSailsOptions(), seeding(1), deck, 0)
    assert my_ship_sails.one_suit(state.hands[1])
    assert not any(my_ship_sails.one_suit(state.hands[seat]) for seat in (0, 2, 3))
    move_model = game.models.move
    for seat in range(4):
        for kind in move_model.model_fields["type"].annotation:
            move = move_model(type=kind, player=seat)
            if seat == 1 and kind == "declare":
                after, events = game.apply(state, move)
                assert after.pending[1] is not None and [e.type for e in events] == ["chosen"]
            else:
                with pytest.raises(IllegalMoveError):
                    game.apply(state, move)


@pytest.mark.parametrize("players", [4, 7])
def test_my_ship_sails_seat_moves_and_exchanged_events_are_the_rule_written_out(players: int) -> None:
    """The remembered moves of a seat (pass each card in hand order, then declare with seven cards of one
    suit), worked out afresh and remembered, and the copied ``exchanged`` events, against validated ones."""
    game: Any = GAMES["my-ship-sails"]
    move_model = game.models.move
    exchanges = 0
    for seed in range(2):
        for state, move in islice(playout(game, players, seed, MyShipSailsOptions(max_exchanges=40)), 400):
            if move is None or state.phase != "step":
                continue
            for seat, hand in enumerate(state.hands):
                expected = [move_model(type=MyShipSailsMoveType("pass"), player=seat, card=c) for c in hand]
                if len({c[1] for c in hand}) == 1:
                    expected.append(move_model(type=MyShipSailsMoveType.declare, player=seat))
                for forget in (True, False):
                    if forget:
                        my_ship_sails_wire.seat_moves.cache_clear()
                    moves = list(my_ship_sails_wire.seat_moves(tuple(hand), seat))
                    assert moves == expected
                    assert [m.model_fields_set for m in moves] == [m.model_fields_set for m in expected]
            _, events = game.apply(state, move)
            for event in events:
                if event.type == "exchanged":
                    validated = MyShipSailsEvent(
                        type=MyShipSailsEventType.exchanged, exchange=state.exchanges + 1
                    )
                    assert event == validated
                    assert event.model_fields_set == validated.model_fields_set
                    exchanges += 1
    assert exchanges > 50
    one_suit = tuple(c for c in FULL_DECK if c[1] == "H")[:7]
    assert my_ship_sails_wire.seat_moves(one_suit, 2)[-1] == move_model(
        type=MyShipSailsMoveType.declare, player=2
    )


@pytest.mark.parametrize(("players", "options"), SEDMICE_TABLES)
def test_sedmice_deal_ended_events_are_the_validated_events(players: int, options: SedmiceOptions) -> None:
    game = GAMES["sedmice"]
    ended = 0
    for seed in range(3):
        for state, move in playout(game, players, seed, options):
            if move is None:
                continue
            after, events = game.apply(state, move)
            for event in events:
                if event.type == "deal_ended":
                    deal = after.deals[-1]
                    expected = SedmiceEvent(
                        type=SedmiceEventType.deal_ended, player=deal.last_trick, side=deal.side, deal=deal
                    )
                    assert event == expected
                    assert event.model_fields_set == expected.model_fields_set
                    ended += 1
    assert ended > 10


# ---- Shared code, second pass ------------------------------------------------------------------------


def test_updated_marks_a_field_set_as_model_copy_does() -> None:
    # An event made with some fields left at their defaults: updating one of those marks it set (a new
    # set), updating a set one shares the names (the same set, as the names are the same).
    from sevens_rules.schema.sevens import SevensEvent, SevensEventType

    played = SevensEvent(type=SevensEventType.played, player=1, card="8H")
    joined = updated(played, joined=["9H"])
    assert joined.model_fields_set == played.model_copy(update={"joined": ["9H"]}).model_fields_set
    assert "joined" in joined.model_fields_set and "joined" not in played.model_fields_set
    moved = updated(played, player=2)
    assert moved.model_fields_set == played.model_copy(update={"player": 2}).model_fields_set
    assert moved.player == 2 and played.player == 1


def test_a_next_deal_move_is_legal_whether_or_not_it_is_the_listed_instance() -> None:
    # is_legal compares the listed next_deal move by identity first, then by value.
    tested = []
    for game_id in GAMES:
        game = GAMES[game_id]
        states = islice(playout(game, min(game.table_sizes()), 3), 2000)
        state = next((s for s, _ in states if s.phase == "deal_over"), None)
        if state is None:  # My Ship Sails is one deal
            continue
        listed = game.moves(state)[1][0]
        assert game.is_legal(state, listed)
        equal = type(listed).model_validate(listed.model_dump())
        assert equal is not listed and game.is_legal(state, equal)
        assert game.apply(state, equal)[0] == game.apply(state, listed)[0]
        tested.append(game_id)
    assert len(tested) == len(GAMES) - 1


# ---- Sevens, Sedmice, My Ship Sails, second pass ----------------------------------------------------


def test_sevens_position_table_is_the_cards_of_the_rows() -> None:
    """A state's position holds the cards on the table and, apart, the cards of the runs through the 7s;
    the cards one rank outside the runs, not on the table, are the playable cards read off the rows."""
    from sevens_rules.engine.card_sets import card_names, card_set
    from sevens_rules.engine.sevens_position import run_ends

    game = GAMES["sevens"]
    assert isinstance(game, Sevens)
    laid = 0
    for state, _ in sevens_transitions(range(6), 400):
        position = game.position(state)
        assert position.runs == card_set([c for row in state.table for c in row.run])
        assert position.table == card_set([c for row in state.table for c in [*row.run, *row.laid]])
        assert set(card_names(run_ends(position.runs) & ~position.table)) == sevens_ends_by_scanning(state)
        laid += position.table != position.runs
    assert laid > 50


def test_sevens_pass_is_listed_while_passes_remain_or_without_a_play() -> None:
    from sevens_rules.engine.sevens_position import PASS

    game = GAMES["sevens"]
    assert isinstance(game, Sevens)
    seen = set()
    for state, move in sevens_transitions(range(6), 400):
        seat = move.player
        plays = [c for c in state.hands[seat] if c in sevens_ends_by_scanning(state)]
        expected = state.passes[seat] < 3 or not plays
        codes = game.position_moves(game.position(state), seat)
        assert (PASS in codes) == expected
        seen.add((state.passes[seat] == 3, bool(plays)))
    assert seen == {(False, False), (False, True), (True, False), (True, True)}


def test_sevens_turn_while_nobody_is_out_or_bust_is_the_seat_on_the_left() -> None:
    for player in range(4):
        assert sevens._turn_after(player, (), ()) == (False, sevens._LEFT_OF[player])


def test_sevens_hand_after_a_play_is_the_hand_without_the_card() -> None:
    game = GAMES["sevens"]
    plays = 0
    for state, move in sevens_transitions(range(4), 400):
        if move.type == "play":
            after, _ = game.apply(state, move)
            assert after.hands[move.player] == [c for c in state.hands[move.player] if c != move.card]
            assert after.hands[: move.player] + after.hands[move.player + 1 :] == (
                state.hands[: move.player] + state.hands[move.player + 1 :]
            )
            plays += 1
    assert plays > 500


def test_sevens_next_deal_moves_are_the_validated_moves() -> None:
    game = Sevens()
    for seat in range(4):
        move = game.next_deal_move(seat)
        expected = SevensMove(type=SevensMoveType.next_deal, player=seat, deck=None)
        assert move == expected
        assert move.model_fields_set == expected.model_fields_set
    deck = list(reversed(FULL_DECK))
    assert game.next_deal_move(1, deck) == SevensMove(type=SevensMoveType.next_deal, player=1, deck=deck)


def test_sevens_dealt_states_are_the_validated_states() -> None:
    """A deal's state, built without validation, is what validating its fields gives, and its hands are
    the dealt cards but the 7s, in canonical order."""
    game = Sevens()
    rng = random.Random(31)
    dealt = 0
    for seed in range(6):
        for state, move in playout(game, 4, seed):
            if move is not None and move.type != "next_deal":
                continue
            deck = rng.sample(FULL_DECK, len(FULL_DECK)) if seed % 2 else None
            if move is None:  # (the first deal of the match, from the seeded shuffle or a deck)
                fresh, _ = game.new_match(4, state.options, seeding(seed), deck, seed % 4)
            else:
                fresh, _ = game.apply(state, game.next_deal_move(move.player, deck))
            validated = SevensState.model_validate(dict(fresh))
            assert fresh == validated
            assert fresh.model_fields_set == validated.model_fields_set
            # exact types too (== alone takes "play" for Phase.play)
            assert _typed_fields(fresh) == _typed_fields(validated)
            order = {c: i for i, c in enumerate(FULL_DECK)}
            for hand in fresh.hands:
                assert hand == sorted((c for c in hand if c[0] != "7"), key=order.__getitem__)
            if deck is not None:  # one card at a time from the dealer's left, 13 each
                first = (fresh.dealer + 1) % 4
                for position in range(4):
                    cards = [c for c in deck[position::4] if c[0] != "7"]
                    assert fresh.hands[(first + position) % 4] == sorted(cards, key=order.__getitem__)
            dealt += 1
    assert dealt > 20


def test_sevens_bust_table_is_every_row_laid_out_afresh() -> None:
    game = GAMES["sevens"]
    busts = 0
    for state, move in sevens_transitions(range(8), 400):
        if move.type == "pass" and state.passes[move.player] == 3:
            after, _ = game.apply(state, move)
            cards = state.hands[move.player]
            expected = [
                sevens_table._row(
                    row.suit,
                    [*sevens_table._row_ranks(row), *(RANKS.index(c[0]) for c in cards if c[1] == row.suit)],
                )
                for row in state.table
            ]
            assert after.table == expected
            busts += 1
    assert busts > 10


# ---- Seven-Up family, second pass (continued): tables of events and points, one state copy per deal ----

from sevens_rules.schema.seven_up import (  # noqa: E402 -- this section's own imports, kept with it
    CaliforniaJackOptions,
    SevenUpDeal,
    SevenUpPoint,
    SevenUpTrick,
)


def test_seven_up_seat_card_and_point_tables_are_the_listed_models() -> None:
    kinds = SevenUpEventType
    for kind, events in seven_up_wire._SEAT_EVENTS.items():
        for seat in range(MAX_SEATS):
            assert _typed_fields(events[seat]) == _typed_fields(listed(SevenUpEvent, type=kind, player=seat))
    assert set(seven_up_wire._SEAT_EVENTS) == {
        "deal_started",
        "stood",
        "begged",
        "gave",
        "ran",
        "thrown_in",
    }
    for seat in range(MAX_SEATS):
        discarded = listed(SevenUpEvent, type=kinds.discarded, player=seat, count=1)
        assert _typed_fields(seven_up_wire.DISCARDED_ONE[seat]) == _typed_fields(discarded)
        for card in FULL_DECK:
            turned = listed(SevenUpEvent, type=kinds.trump_turned, player=seat, card=card, suit=Suit(card[1]))
            assert _typed_fields(seven_up_wire.TURNED[seat][card]) == _typed_fields(turned)
            aside = listed(SevenUpEvent, type=kinds.set_aside, player=seat, card=card)
            assert _typed_fields(seven_up_wire.SET_ASIDE[seat][card]) == _typed_fields(aside)
    for (reason, point_seat, side), point in seven_up_position.POINTS.items():
        expected = listed(SevenUpPoint, reason=reason, seat=point_seat, side=side)
        assert _typed_fields(seven_up_position.WIRE_POINTS[point]) == _typed_fields(expected)
    assert len(seven_up_position.WIRE_POINTS) == len(SevenUpPointReason) * (MAX_SEATS + 1) * MAX_SEATS
    for card in FULL_DECK:
        assert seven_up_position.CARD_POINTS[FULL_DECK.index(card)] == tricks.card_points([card])


def _hand_points_trick_by_trick(game: SevenUpFamily[Any, Any, Any], state: Any) -> list[Any]:
    """The end-of-hand points as first written: Game summed with card_points trick by trick, by side."""
    n = len(state.hands)
    points = game.honour_points(state)
    if game.game_point(state.options):
        won = [0] * game.side_count(n)
        for trick in state.tricks:
            won[game.side_of(trick.winner)] += tricks.card_points(trick.cards)
        side = tricks.unique_best(won)
        if side is not None:
            game_point = seven_up_position.POINTS[SevenUpPointReason.game, game.game_point_seat(side), side]
            points.append((seven_up_position.WIRE_POINTS[game_point], None))
    return points


@pytest.mark.parametrize("game_id", SEVEN_UP_GAMES)
def test_seven_up_hand_points_are_those_summed_trick_by_trick(game_id: str) -> None:
    game = GAMES[game_id]
    assert isinstance(game, SevenUpFamily)
    # California Jack scores Game only when asked to
    options = CaliforniaJackOptions(game_point=True) if game_id == "california-jack" else None
    games = 0
    for players in game.table_sizes():
        for seed in range(6):
            for state, _ in playout(game, players, seed, options):
                if state.tricks:
                    expected = _hand_points_trick_by_trick(game, state)
                    assert game.hand_points(state) == expected
                    games += any(point.reason == "game" for point, _ in expected)
    assert games > 20


def _blank_of(model: BaseModel) -> BaseModel:
    """The blank model the engine once updated into ``model``: its type, with the fields validation needs."""
    if isinstance(model, SevenUpEvent):
        return SevenUpEvent(type=model.type)
    if isinstance(model, SevenUpTrick):
        return SevenUpTrick(leader=0, cards=[], trump=None, winner=0)
    return SevenUpDeal(
        number=1, dealer=0, outcome=SevenUpDealOutcome.played, trump=None, points=[], by_side=[]
    )


@pytest.mark.parametrize("game_id", SEVEN_UP_GAMES)
def test_seven_up_made_records_and_events_are_the_updated_blanks(game_id: str) -> None:
    made = 0
    for _, _, after, events in _seven_up_transitions(game_id, range(6)):
        models = [e for e in events if e.type in ("trick_won", "point", "deal_ended", "match_ended")]
        models += after.tricks + after.deals + [e.deal for e in events if e.deal is not None]
        for model in models:
            fields = {name: getattr(model, name) for name in model.model_fields_set if name != "type"}
            expected = updated(_blank_of(model), **fields)
            assert _typed_fields(model) == _typed_fields(expected)
            assert list(model.__dict__) == list(expected.__dict__)  # the same field order
            assert model.__pydantic_extra__ is None and model.__pydantic_private__ is None
            made += 1
    assert made > 100


# ---- Sjuan family, second pass ----------------------------------------------------------------------


def playable_on_by_scanning(table: tuple[str, ...]) -> frozenset[str]:
    """The slow way of ``_playable_on``: every card of the deck not on the table that is a 7 or has
    a card next in rank in its suit on the table, looked up in a set of the whole table."""
    from sevens_rules.engine.sjuan_checks import _ABOVE, _BELOW

    on_table = set(table)
    return frozenset(
        c
        for c in FULL_DECK
        if c not in on_table and (c[0] == "7" or any(n in on_table for n in (_BELOW[c], _ABOVE[c]) if n))
    )


def _position_with_table(table: Sequence[str]) -> Any:
    """A position of a deal of four whose table holds ``table`` (hands and the rest are arbitrary: the
    playable cards read the table only)."""
    from sevens_rules.engine.card_sets import card_set
    from sevens_rules.engine.match import PLAY_PHASE
    from sevens_rules.engine.sjuan_position import SjuanMatch, SjuanPosition

    match = SjuanMatch(4, (), (0,) * 4, 0, 1, SjuanOptions(), seeding(0).seed, (), "")
    return SjuanPosition((0,) * 4, tuple(table), card_set(table), (), (0,) * 4, 0, PLAY_PHASE, match)


def test_sjuan_playable_cards_of_a_table_are_the_definition() -> None:
    # the playable set is computed with shifts of the table's bits: the slow way scans the whole deck
    from sevens_rules.engine.card_sets import card_names

    game = GAMES["fan-tan"]
    assert isinstance(game, SjuanFamily)
    rng = random.Random(11)
    tables = [
        tuple(state.table) for game_id in ("sjuan", "fan-tan") for state in sjuan_playout_states(game_id)
    ]
    # tables no play could make too (cards anywhere, in any order): the answer is still the definition
    tables += [tuple(rng.sample(FULL_DECK, rng.randint(1, 52))) for _ in range(500)]
    for table in tables:
        if table:
            playable = set(card_names(game.playable_set(_position_with_table(table))))
            assert playable == playable_on_by_scanning(table), table


@pytest.mark.parametrize("wrap", [False, True])
def test_free_fan_tan_next_cards_up_are_the_rows_scanned(wrap: bool) -> None:
    from sevens_rules.engine.sjuan import FreeFanTan

    game = GAMES["free-fan-tan"]
    assert isinstance(game, FreeFanTan)
    checked = 0
    for seed in range(3):
        for state, _ in islice(playout(game, 4, seed, FreeFanTanOptions(wrap=wrap)), 400):
            if state.table:
                assert game.playable(state) == next_cards_by_scanning(state.table, wrap)
                checked += 1
    assert checked > 100


@pytest.mark.parametrize(
    "options", [DominoFanTanOptions(), DominoFanTanOptions(hand_size=5, draw_until_playable=True)]
)
def test_domino_fan_tan_draws_are_the_two_step_update(options: DominoFanTanOptions) -> None:
    # the slow way: the draw applied to hands and stock first, then the turn set from that state
    from sevens_rules.engine.sjuan import DominoFanTan

    game = GAMES["domino-fan-tan"]
    assert isinstance(game, DominoFanTan)
    draws = kept = 0
    for seed in range(3):
        for state, move in playout(game, 2, seed, options):
            if move is None or move.type != "draw":
                continue
            drawn, player = state.stock[0], move.player
            hands = list(state.hands)
            hands[player] = sorted([*hands[player], drawn], key=FULL_DECK.index)
            drawn_state = updated(state, hands=hands, stock=state.stock[1:])
            keeps = bool(game.playable_cards(drawn_state, (drawn,))) or (
                options.draw_until_playable and len(state.stock) > 1
            )
            expected = updated(drawn_state, turn=player if keeps else (player + 1) % 2)
            after, events = game.apply(state, move)
            assert after == expected
            assert after.model_fields_set == expected.model_fields_set
            assert events == [SjuanEvent(type=SjuanEventType.drew, player=player, card=drawn)]
            draws += 1
            kept += keeps
    assert draws > 20 and 0 < kept < draws


@pytest.mark.parametrize("game_id", ["sjuan", "fan-tan", "free-fan-tan", "domino-fan-tan"])
def test_sjuan_deal_ended_events_are_the_validated_events(game_id: str) -> None:
    from sevens_rules.schema.sjuan import SjuanDeal

    game = GAMES[game_id]
    ended = blocked = 0
    for seed in range(2):
        for state, move in playout(game, max(game.table_sizes()), seed):
            if move is None or move.type != "play":
                continue
            after, events = game.apply(state, move)
            for event in events:
                if event.type == "deal_ended":
                    # the slow way: the record and the event validated from their fields
                    deal = SjuanDeal(**{name: getattr(event.deal, name) for name in SjuanDeal.model_fields})
                    expected = SjuanEvent(type=SjuanEventType.deal_ended, player=deal.winner, deal=deal)
                    assert event == expected and event.deal == deal and after.deals[-1] is event.deal
                    assert event.model_fields_set == expected.model_fields_set
                    assert event.deal.model_fields_set == deal.model_fields_set
                    assert event.model_dump_json() == expected.model_dump_json()
                    ended += 1
                    blocked += deal.blocked
    assert ended > 10
    assert game_id != "free-fan-tan" or blocked > 0


def test_sjuan_totals_are_the_penalties_added_seat_by_seat() -> None:
    game = GAMES["fan-tan"]
    final = next(state for state, move in playout(game, 5, 2) if move is None)

    def _totals(deals: list[Any], players: int) -> list[int]:
        assert len(final.hands) == players
        return list(game.read(updated(final, deals=deals)).match.totals)  # type: ignore[attr-defined]

    def totals_seat_by_seat(deals: list[Any], players: int) -> list[int]:
        totals = [0] * players
        for deal in deals:
            for seat, penalty in enumerate(deal.penalties):
                totals[seat] += penalty
        return totals

    assert len(final.deals) > 3
    for count in range(len(final.deals) + 1):
        assert _totals(final.deals[:count], 5) == totals_seat_by_seat(final.deals[:count], 5)
    # a record naming fewer seats (a state not yet checked) adds as many seats as it names
    short = updated(final.deals[0], penalties=[3, 4])
    assert _totals([*final.deals, short], 5) == totals_seat_by_seat([*final.deals, short], 5)
    # and one naming more adds to the seats at the table
    assert _totals([updated(final.deals[0], penalties=[1] * 6)], 5) == [1] * 5


# ---- Sevens, Sedmice, My Ship Sails, third pass -----------------------------------------------------


def test_sevens_deal_events_and_records_are_the_validated_ones() -> None:
    """The ``deal_started`` events, deal records and ``deal_ended`` events, copied from validated ones, are
    what validating their fields gives, with the same fields set."""
    game = GAMES["sevens"]
    started = ended = 0
    for seed in range(4):
        for state, move in playout(game, 4, seed):
            if move is None:
                continue
            _, events = game.apply(state, move)
            for event in events:
                if event.type == "deal_started":
                    expected = SevensEvent(type=SevensEventType.deal_started, player=event.player)
                    started += 1
                elif event.type == "deal_ended":
                    deal = SevensDeal(**{name: getattr(event.deal, name) for name in SevensDeal.model_fields})
                    assert _typed_fields(event.deal) == _typed_fields(deal)
                    expected = SevensEvent(type=SevensEventType.deal_ended, deal=deal)
                    ended += 1
                else:
                    continue
                assert event == expected
                assert _typed_fields(event) == _typed_fields(expected)
                assert event.model_dump_json() == expected.model_dump_json()
    assert started >= 16 and ended >= 20


@pytest.mark.parametrize(("game_id", "players"), [("sedmice", 2), ("sedmice", 4), ("my-ship-sails", 4)])
def test_sedmice_and_my_ship_sails_legality_and_apply_agree_with_the_move_lists(
    game_id: str, players: int
) -> None:
    """A move is legal exactly when it is among the listed moves (moves of other seats and cards not held
    included), and applying a listed move gives what the shared way (check, then resolve) gives."""
    game = GAMES[game_id]
    checked = 0
    for seed in range(3):
        for state, move in islice(playout(game, players, seed), 400):
            if move is None or move.type == "next_deal":
                continue
            seats, listed_moves = game.moves(state)
            candidates = {*listed_moves}
            cards = [card for hand in state.hands for card in hand[:2]]  # (held by one seat each)
            for seat in range(players):
                for card in cards:
                    for move_type in type(move.type):
                        if move_type in ("play", "extend", "pass"):
                            candidates.add(type(move)(type=move_type, player=seat, card=card))
            for candidate in candidates:
                legal = candidate.player in seats and candidate in listed_moves
                assert (candidate.player in seats and game.is_legal(state, candidate)) == legal
                checked += 1
            assert game.apply(state, move) == game.resolve(state, move)
    assert checked > 2000


# ---- Sjuan family, third pass -----------------------------------------------------------------------


def test_free_fan_tan_blocked_after_a_play_is_nobody_holding_a_playable_card() -> None:
    # a play asks blocked_with of the state it made, with the table and hands it made it from: the slow
    # way asks the state after the play itself which cards are playable and whether anybody holds one
    game = GAMES["free-fan-tan"]
    assert isinstance(game, SjuanFamily)
    outcomes = set()
    for seed in range(4):
        for state, move in playout(game, 3, seed):
            if move is None or move.type != "play":
                continue
            after = updated(state, hands=list(state.hands), table=[*state.table, move.card])
            after.hands[move.player] = [c for c in after.hands[move.player] if c != move.card]
            playable = game.playable(after)
            slow = not any(c in playable for hand in after.hands for c in hand)
            assert game.blocked(after) == slow
            outcomes.add(slow)
    assert outcomes == {False, True}


# ---- Seven-Up family, third pass ---------------------------------------------------------------------


def _legal_follows_card_by_card(
    hand: list[str], led: str | None, trump: str | None, may_trump_when_able_to_follow: bool
) -> list[str]:
    """The following rule as first written: a comprehension comparing each card's suit letter."""
    if led is None:
        return list(hand)
    follows = [c for c in hand if c[1] == led]
    if not follows:
        return list(hand)
    if may_trump_when_able_to_follow and trump is not None and trump != led:
        return [c for c in hand if c[1] == led or c[1] == trump]
    return follows


def test_legal_follows_by_suit_table_is_the_suit_compared_card_by_card() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        hand = rng.sample(FULL_DECK, rng.randint(0, 13))
        led = rng.choice(["C", "D", "H", "S", None])
        trump = rng.choice([Suit.C, Suit.D, Suit.H, Suit.S, None])
        may_trump = rng.random() < 0.5
        expected = _legal_follows_card_by_card(hand, led, trump, may_trump)
        assert tricks.legal_follows(hand, led, trump, may_trump) == expected


@pytest.mark.parametrize("game_id", SEVEN_UP_GAMES)
def test_seven_up_play_choices_are_the_following_rule_card_by_card(game_id: str) -> None:
    game = GAMES[game_id]
    assert isinstance(game, SevenUpFamily)
    plays = 0
    for state, _, _, _ in _seven_up_transitions(game_id, range(4)):
        if state.phase is not SevenUpPhase.play:
            continue
        seat = game.to_act(state)[0]
        led = state.trick[0][1] if state.trick else None
        expected = _legal_follows_card_by_card(
            state.hands[seat], led, state.trump, state.options.may_trump_when_able_to_follow
        )
        assert [move.card for move in game.legal_moves(state, seat)] == expected
        plays += 1
    assert plays > 100


# ---- Sjuan family, fourth pass ----------------------------------------------------------------------


@pytest.mark.parametrize(("wrap", "players"), [(False, 3), (False, 4), (True, 4)])
def test_free_fan_tan_blocked_is_no_next_card_held_as_the_hands_say(wrap: bool, players: int) -> None:
    # blocked_with answers "no next card at all" (every card off the table is in a hand): the slow way
    # looks for each playable card in every hand, before and after every play
    game = GAMES["free-fan-tan"]
    assert isinstance(game, SjuanFamily)
    outcomes = set()
    for seed in range(4):
        for state, move in playout(game, players, seed, FreeFanTanOptions(wrap=wrap)):
            states = [state]
            if move is not None and move.type == "play":
                states.append(game.apply(state, move)[0])
            for checked in states:
                playable = game.playable(checked)
                slow = bool(checked.table) and not any(c in playable for hand in checked.hands for c in hand)
                assert game.blocked(checked) == slow
                outcomes.add(slow)
    assert outcomes == ({False} if wrap else {False, True})


SJUAN_GAMES = ["sjuan", "fan-tan", "free-fan-tan", "domino-fan-tan"]


@pytest.mark.parametrize("game_id", SJUAN_GAMES)
def test_sjuan_seats_to_act_read_off_the_turn_are_those_of_the_phase(game_id: str) -> None:
    # to_act answers from the turn first (a turn is set exactly while the phase is 'play'), and a move is
    # resolved as a play exactly when it names a card: the slow way reads the phase and the move's type
    game = GAMES[game_id]
    phases = set()
    for seed in range(3):
        for state, _ in playout(game, 2 if game_id == "domino-fan-tan" else 4, seed):
            if state.phase == "play":
                expected = [state.turn]
            elif state.phase == "deal_over":
                expected = [(state.dealer + 1) % len(state.hands)]
            else:
                expected = []
            assert game.to_act(state) == expected
            phases.add(str(state.phase))
            for listed_move in game.moves(state)[1]:
                assert (listed_move.card is None) == (listed_move.type != "play")
    assert phases == {"play", "deal_over", "match_over"}


def test_sjuan_only_free_fan_tan_has_a_blocked_test() -> None:
    # only free fan tan's deals may end blocked: it alone has a blocked test of its own
    for game_id in SJUAN_GAMES:
        game = GAMES[game_id]
        assert isinstance(game, SjuanFamily)
        own_test = type(game).is_blocked is not SjuanFamily.is_blocked
        assert own_test == (game_id == "free-fan-tan")


@pytest.mark.parametrize("game_id", SJUAN_GAMES)
def test_sjuan_dealt_states_are_those_model_construct_and_validation_make(game_id: str) -> None:
    # deals build their state with constructed(): the slow ways are model_construct of the same fields
    # and validation of the state's JSON, with the same fields set, in the same order
    game = GAMES[game_id]
    dealt = 0
    for seed in range(2):
        for state, move in playout(game, 2 if game_id == "domino-fan-tan" else 3, seed):
            if move is not None and move.type != "next_deal" and dealt:
                continue
            made = game.apply(state, move)[0] if move is not None and move.type == "next_deal" else state
            if made.table or made.phase != "play":
                continue
            model = type(made)
            fields = {name: getattr(made, name) for name in model.model_fields}
            for expected in (
                model.model_construct(**fields),
                model.model_validate_json(made.model_dump_json()),
            ):
                assert made == expected and made.model_fields_set == expected.model_fields_set
                assert list(made.__dict__) == list(expected.__dict__)
                # (a set of its own, which model_copy updates)
                assert type(made.model_fields_set) is type(expected.model_fields_set)
            assert made.model_copy(update={"turn": None}).turn is None
            dealt += 1
    assert dealt > 5


# ---- Shared helpers, fourth pass ------------------------------------------------------------------------

from sevens_rules.engine.models import constructed  # noqa: E402 -- this section's own imports, kept with it
from sevens_rules.schema.common import SeatOutcome  # noqa: E402


def test_constructed_models_are_those_model_construct_makes_and_copy_like_them() -> None:
    made = constructed(SeatOutcome, seat=2, total=-3, place=1)
    slow = SeatOutcome.model_construct(seat=2, total=-3, place=1)
    assert made == slow == SeatOutcome(seat=2, total=-3, place=1)
    assert made.model_fields_set == slow.model_fields_set == {"seat", "total", "place"}
    # model_copy(update=...) adds to the copy's set of fields: each model has a mutable set of its own
    copied = made.model_copy(update={"total": 4})
    assert copied.total == 4 and made.total == -3
    assert made.model_fields_set == {"seat", "total", "place"}
    assert constructed(SeatOutcome, seat=0, total=0, place=1).model_fields_set is not made.model_fields_set


def test_constructed_refuses_values_that_miss_or_add_a_field() -> None:
    with pytest.raises(TypeError):
        constructed(SeatOutcome, seat=2, total=-3)
    with pytest.raises(TypeError):
        constructed(SeatOutcome, seat=2, total=-3, place=1, extra=0)


# ---- Sevens, Sedmice, My Ship Sails, fourth pass ----------------------------------------------------


def test_sevens_wire_rows_of_card_sets_are_the_rows_read_off_the_table() -> None:
    """The wire row written for a suit's cards on the table (a position's bits) is the row read off those
    cards: runs alone from the 7 alone to the whole suit, and runs with cards laid apart."""
    from sevens_rules.engine.card_sets import card_set
    from sevens_rules.engine.sevens_position import wire_row

    rng = random.Random(12)
    for suit_index, suit in enumerate("CDHS"):
        seven = RANKS.index("7")
        tables = [set(range(low, high + 1)) for low in range(seven + 1) for high in range(seven, len(RANKS))]
        tables += [{seven, *rng.sample(range(len(RANKS)), rng.randint(0, 12))} for _ in range(300)]
        for ranks in tables:
            cards = {RANKS[r] + suit for r in ranks}
            row = wire_row(suit_index, card_set(sorted(cards)))
            expected = sevens_row_by_scanning(suit, cards)
            assert row == expected and row.model_fields_set == {"suit", "run", "laid"}, cards


def test_sevens_states_after_a_move_are_the_updated_states() -> None:
    """A state after a move in a deal, made from the state's fields with the changes at once, is what
    updated() makes of the state with the same changes: same fields, same types, same set fields."""
    game = GAMES["sevens"]
    checked = 0
    for state, move in sevens_transitions(range(6), 400):
        after, _ = game.apply(state, move)
        changes = {name: getattr(after, name) for name in SevensState.model_fields}
        expected = updated(state, **changes)
        assert after == expected
        assert after.model_fields_set == expected.model_fields_set == set(SevensState.model_fields)
        assert _typed_fields(after) == _typed_fields(expected)
        checked += 1
    # a state that does not set every field (made with model_construct) takes updated()'s way
    state = sevens_transitions(range(1), 1)[0][0]
    partial = SevensState.model_construct(_fields_set={"game"}, **dict(state))
    made = updated_from(partial, {"turn": 2})
    assert made.model_fields_set == {"game", "turn"} and made.turn == 2
    assert checked > 1000


def test_sevens_bust_events_are_the_validated_events() -> None:
    """The ``bust`` event, a copy of a validated one, is what validating its fields gives (as _event made
    it), with the same fields set."""
    game = GAMES["sevens"]
    busts = 0
    for state, move in sevens_transitions(range(10), 400):
        if move.type == "pass" and state.passes[move.player] == 3:
            _, events = game.apply(state, move)
            event = next(e for e in events if e.type == "bust")
            expected = SevensEvent(
                type=SevensEventType.bust, player=move.player, cards=state.hands[move.player]
            )
            assert event == expected
            assert _typed_fields(event) == _typed_fields(expected)
            assert event.model_dump_json() == expected.model_dump_json()
            assert event.cards is not state.hands[move.player]
            busts += 1
    assert busts > 10


def test_my_ship_sails_states_after_a_choice_are_the_updated_states() -> None:
    """A state after a choice (one that leaves the step open, or the last, with its exchange), made from the
    state's fields with the changes at once, is what updated() makes of the state: same fields, same types,
    same set fields."""
    game = GAMES["my-ship-sails"]
    state_model = game.models.state
    checked = 0
    for seed in range(3):
        for state, move in islice(playout(game, 4, seed), 400):
            if move is None or move.type == "next_deal":
                continue
            after, _ = game.apply(state, move)
            expected = updated(state, **{name: getattr(after, name) for name in state_model.model_fields})
            assert after == expected
            assert after.model_fields_set == expected.model_fields_set == set(state_model.model_fields)
            assert _typed_fields(after) == _typed_fields(expected)
            checked += 1
    state = next(s for s, m in playout(game, 4, 0) if m is not None and m.type != "next_deal")
    partial: Any = state_model.model_construct(_fields_set={"game"}, **dict(state))
    made = updated_from(partial, {"pending": [None] * 4})
    assert made.model_fields_set == {"game", "pending"}
    assert checked > 1000


# ---- Seven-Up family, fourth pass --------------------------------------------------------------------


def test_seven_up_points_counted_by_side_are_those_counted_point_by_point() -> None:
    game = GAMES["four-handed-seven-up"]
    assert isinstance(game, SevenUpFamily)
    rng = random.Random(11)
    for _ in range(2000):
        totals = [rng.randint(0, 6) for _ in range(2)]
        sides = [rng.randint(0, 1) for _ in range(rng.randint(0, 4))]
        points = [seven_up_position.POINTS[SevenUpPointReason.high, side, side] for side in sides]
        running = list(totals)
        expected = (len(points), False)
        for i, point in enumerate(points):
            running[point.side] += 1
            if running[point.side] >= game.target:
                expected = (i + 1, True)
                break
        assert game.counted(totals, points) == expected


# ---- Seven-Up family, fourth pass, second round -----------------------------------------------------


@pytest.mark.parametrize("game_id", SEVEN_UP_GAMES)
def test_seven_up_point_and_side_tables_are_what_the_rule_methods_give(game_id: str) -> None:
    game = GAMES[game_id]
    assert isinstance(game, SevenUpFamily)
    reasons = SevenUpPointReason
    assert set(game._points_by_seat) == {reason.value for reason in reasons}
    for reason in reasons:
        for seat in range(MAX_SEATS):
            expected = seven_up_position.POINTS[reason, seat, game.side_of(seat)]
            assert game._points_by_seat[reason.value][seat] is expected
            assert game._seat_point(reason, seat) is seven_up_position.WIRE_POINTS[expected]
    for side in range(MAX_SEATS):
        expected = seven_up_position.POINTS[reasons.game, game.game_point_seat(side), side]
        assert game._game_point_of_side[side] is expected
    assert game._seat_sides == tuple(game.side_of(seat) for seat in range(MAX_SEATS))
    assert game._side_counts == tuple(game.side_count(players) for players in range(MAX_SEATS + 1))


def _highest_card_by_card(cards: list[str], suit: str, lowest: bool = False) -> str | None:
    """highest (or lowest) as first written: the cards of the suit compared one at a time by strength."""
    best: str | None = None
    for c in cards:
        if c[1] != suit:
            continue
        stronger = best is None or tricks.strength(c) > tricks.strength(best)
        weaker = best is None or tricks.strength(c) < tricks.strength(best)
        if weaker if lowest else stronger:
            best = c
    return best


def test_highest_lowest_and_unique_best_in_c_are_the_answers_found_one_by_one() -> None:
    rng = random.Random(12)
    for card in FULL_DECK:
        assert tricks.CARD_STRENGTH[card] == tricks.strength(card)
    for _ in range(3000):
        cards = rng.sample(FULL_DECK, rng.randint(0, 12))
        suit = rng.choice([*"CDHS", *Suit])  # the engine passes Suit members, which hash in Python
        assert tricks.highest(cards, suit) == _highest_card_by_card(cards, suit)
        assert tricks.lowest(cards, suit) == _highest_card_by_card(cards, suit, lowest=True)
        values = [rng.randint(0, 5) for _ in range(rng.randint(0, 4))]
        winners = [i for i, v in enumerate(values) if values and v == max(values)]
        assert tricks.unique_best(values) == (winners[0] if len(winners) == 1 else None)


def _honours_read_off_the_records(game: SevenUpFamily[Any, Any, Any], state: Any) -> list[Any]:
    """High, Low and Jack of a played deal read off its trick records, each point looked up in POINTS by
    its reason, seat and the seat's side (what the tables of points by seat stand for)."""
    reasons = SevenUpPointReason
    n = len(state.hands)
    trump = state.trump
    points: list[Any] = []

    def point(reason: Any, seat: int, card: str) -> None:
        points.append(
            (seven_up_position.WIRE_POINTS[seven_up_position.POINTS[reason, seat, game.side_of(seat)]], card)
        )

    if game.id == "california-jack":
        for reason, rank in ((reasons.high, "A"), (reasons.low, "2"), (reasons.jack, "J")):
            holding = [t for t in state.tricks if rank + trump in t.cards]
            if holding:
                point(reason, holding[0].winner, rank + trump)
        return points
    played_by = {c: (t.leader + i) % n for t in state.tricks for i, c in enumerate(t.cards) if c[1] == trump}
    if played_by:
        high = _highest_card_by_card(list(played_by), trump)
        low = _highest_card_by_card(list(played_by), trump, lowest=True)
        assert high is not None and low is not None
        point(reasons.high, played_by[high], high)
        point(reasons.low, played_by[low], low)
    for trick in state.tricks:
        if "J" + trump in trick.cards:
            point(reasons.jack, trick.winner, "J" + trump)
    return points


@pytest.mark.parametrize("game_id", SEVEN_UP_GAMES)
def test_seven_up_honours_from_the_tables_are_the_points_looked_up_by_reason(game_id: str) -> None:
    game = GAMES[game_id]
    assert isinstance(game, SevenUpFamily)
    scored = 0
    for _, _, after, _ in _seven_up_transitions(game_id, range(8)):
        if after.tricks and after.trump is not None:
            expected = _honours_read_off_the_records(game, after)
            assert game.honour_points(after) == expected
            scored += len(expected)
    assert scored > 100


@pytest.mark.parametrize("game_id", SEVEN_UP_GAMES)
def test_seven_up_play_choices_leave_the_trump_option_unread_only_where_it_changes_nothing(
    game_id: str,
) -> None:
    # with may_trump_when_able_to_follow set, a trump led is followed as if it were not (the option is read
    # only when a suit other than trump is led)
    game = GAMES[game_id]
    assert isinstance(game, SevenUpFamily)
    options = game.models.options.model_validate({"may_trump_when_able_to_follow": True})
    trump_led = 0
    for players in game.table_sizes():
        for seed in range(8):
            for state, _ in playout(game, players, seed, options):
                if state.phase is not SevenUpPhase.play:
                    continue
                seat = game.to_act(state)[0]
                led = state.trick[0][1] if state.trick else None
                expected = _legal_follows_card_by_card(state.hands[seat], led, state.trump, True)
                assert [move.card for move in game.legal_moves(state, seat)] == expected
                trump_led += led == state.trump
    assert trump_led > 30


# ---- Shared engine path, fourth pass ----------------------------------------------------------------


def _outcome_of(apply: Any, game: Any, state: Any, move: Any) -> Any:
    """What an apply function makes of ``move``: the new state and events with their exact types and set
    fields, or the error raised with everything a client sees of it."""
    try:
        after, events = apply(game, state, move)
    except RulesError as error:
        return (
            type(error),
            error.detail,
            error.issues,
            getattr(error, "argument", None),
            getattr(error, "legal_moves", None),
        )
    return _typed_fields(after), [_typed_fields(event) for event in events]


def _moves_to_try(game: Any, states: list[Any], index: int) -> list[Any]:
    """The move played at ``states[index]`` with moves that are illegal there (moves of the states before
    and after it, and a next_deal), to apply both ways."""
    move = states[index][1]
    tried = [move] if move is not None else []
    for other, _ in (states[index - 1], states[(index + 1) % len(states)]):
        tried += game.moves(other)[1][:2]
    tried.append(game.next_deal_move(0))
    tried.append(game.next_deal_move(0, list(game.deck)))
    return tried


@pytest.mark.parametrize("game_id", list(GAMES))
def test_dealt_match_apply_is_game_apply(game_id: str) -> None:
    """DealtMatch.apply (a legal move inside a deal straight to resolve_in_deal) gives what Game.apply (to
    act, is_legal, resolve) gives for legal and illegal moves alike: the same states and events, or the
    same error with the same message, issues and legal moves."""
    game = GAMES[game_id]
    checked = 0
    for players in game.table_sizes():
        states = list(islice(playout(game, players, 11), 300))
        for index in range(0, len(states), 2):
            state = states[index][0]
            for move in _moves_to_try(game, states, index):
                fast = _outcome_of(DealtMatch.apply, game, state, move)
                assert fast == _outcome_of(Game.apply, game, state, move)
                checked += 1
    assert checked > 200


def test_updated_from_is_updated() -> None:
    """updated_from (the changes as a dict) makes what updated() made as
    first written (model_copy's update without validation): same fields, same types, same set fields;
    it refuses an unknown name with updated()'s error."""
    for game_id in ("sevens", "my-ship-sails", "sjuan"):
        game = GAMES[game_id]
        for state, _ in islice(playout(game, min(game.table_sizes()), 3), 60):
            changes = {"phase": state.phase, "hands": [list(h) for h in reversed(state.hands)]}
            made = updated_from(state, changes)
            expected = state.model_copy(update=changes)
            assert _typed_fields(made) == _typed_fields(expected)
            assert made.model_fields_set == expected.model_fields_set
            assert made.hands is changes["hands"] and state.hands is not made.hands
            with pytest.raises(TypeError, match=f"{type(state).__name__} has no field turns"):
                updated_from(state, {"turns": 1, "phase": state.phase})
    # a model that leaves fields unset: a changed field is marked set, in a new set
    played = SevensEvent(type=SevensEventType.played, player=1, card="8H")
    joined = updated_from(played, {"joined": ["9H"]})
    assert joined.model_fields_set == played.model_copy(update={"joined": ["9H"]}).model_fields_set
    assert "joined" not in played.model_fields_set
    with pytest.raises(TypeError, match="SevensEvent has no field jointed, plyer"):
        updated_from(played, {"jointed": [], "plyer": 2})
    with pytest.raises(TypeError, match="SevensEvent has no field plyer"):
        updated(played, plyer=2)


# ---- moves compared as the legality checks compare them ---------------------------------------------


@pytest.mark.parametrize("game_id", list(GAMES))
def test_same_model_is_model_equality_for_moves_posted_again(game_id: str) -> None:
    # a posted move is a new object parsed from JSON: compared with each listed move as == compares them
    game = GAMES[game_id]
    posted_again = game.models.move.model_validate_json
    rng = random.Random(game_id)
    checked = 0
    for state in states_of(game_id, 7, 40):
        _, moves = game.moves(state)
        listed_moves = list(moves)
        for move in rng.sample(listed_moves, min(6, len(listed_moves))):
            posted = posted_again(move.model_dump_json())
            for candidate in listed_moves:
                assert same_model(candidate, posted) == (candidate == posted), (candidate, posted)
                checked += 1
            assert same_model(move, posted)
    assert checked > 40
