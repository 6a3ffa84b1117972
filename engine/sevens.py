"""Sevens (RULINGS §2, text 001): four players, all 7s on the table, three passes a deal, busting.

The whole deck is dealt, 13 cards each, one at a time from the dealer's left. Every 7 then goes from its
holder's hand to the table, opening one row per suit; the player who held 7♦ moves first and play goes
left, skipping players who are out or bust. A legal card lies one rank outside the unbroken run through
its suit's 7 (the Ace below the 2, the King above the Queen, no Ace-King link). On a turn a player plays
a legal card or passes; every pass counts. With fewer than 3 passes used in the deal a player may pass
even holding a legal card; with 3 used a player holding a legal card must play, and a player holding
none passes a fourth time and is bust: their cards go to their places on the table. Players take places
1, 2, ... as they go out; when only one player is neither out nor bust, that player takes the next place
and the deal ends at once; bust players come last, the first to bust last of all. Places score 3, 2, 1,
0; after 5 deals the highest total wins, ties shared.

Decisions where the rulings and the text are silent:

- **Laid cards and the run.** The text lays a bust player's cards "in their places" (*nos lugares
  delas*) and lets the others play "only next to the ends of a row". A bust happens only when the player
  holds no card at either end of any run (holding one, they must play it), so no laid card is ever next
  to a run when laid: there is always a gap. The laid card creates no end (the card beside it on the far
  side is not playable); the play that fills the gap extends the run through it and through every laid
  card chained to it, and the row's ends then lie beyond them. Were a laid card ever next to the run, it
  would have no gap to fill and be part of the run at once; the state can express only that reading:
  each suit is shown as ``run`` (the unbroken run through the 7) and ``laid`` (cards lying apart), and a
  laid card next to the run is inconsistent.
- **The fourth pass.** ``passes`` counts the passes of the allowance (0-3); the fourth pass is the move
  ``pass`` itself, which is legal only with 3 passes used and no legal card. It is reported as a
  ``passed`` event with ``passes: 4`` followed by a ``bust`` event, and recorded by the seat's entry in
  ``bust`` (its ``passes`` stays 3).
- **The last player left** keeps the cards in hand: the deal is over, nothing more is played.
- **Events name joins**: a play that connects laid cards to a run lists them in ``joined``.
- **Option ``deals`` (default 5).** The rulings name no option for Sevens, but an options model without
  fields cannot become a GraphQL input type, so the match length (the text's 5 deals) is the option.
- The first dealer is seat 0 unless the new-match request names one; hands are kept in canonical order.
- A deal ends with phase ``deal_over``; the next dealer (left of the last) starts the next deal with a
  ``next_deal`` move, optionally naming the exact deck order. After the last deal the phase is
  ``match_over``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import permutations
from typing import Any

from sevens_rules.engine.cards import FULL_DECK, RANKS, SUITS, deal_round_robin
from sevens_rules.engine.errors import IssueAt
from sevens_rules.engine.game import (
    best_seats,
    conservation_issues,
    event_of,
    length_issues,
    seat_issues,
    unvalidated,
    updated,
    updated_from,
)
from sevens_rules.engine.match import (
    DEAL_OVER_PHASE,
    MATCH_OVER_PHASE,
    PLAY_PHASE,
    DealSetup,
    DealtMatch,
    RecordCheck,
)
from sevens_rules.schema.common import GameModels, Phase, Suit
from sevens_rules.schema.sevens import (
    SEVENS_PASSES,
    SEVENS_PLAYERS,
    SevensDeal,
    SevensEvent,
    SevensEventType,
    SevensMove,
    SevensMoveType,
    SevensOptions,
    SevensRow,
    SevensScore,
    SevensState,
    SevensView,
)

POINTS = (3, 2, 1, 0)
"""Points of a deal by place (index 0 is place 1)."""

_POINTS_BY_PLACES = {places: [POINTS[p - 1] for p in places] for places in permutations(range(1, 5))}
"""A deal record's points for each possible order of places (seat by seat)."""

CARDS_EACH = 13
"""Cards dealt to each of the four players."""

_RANK = {r: i for i, r in enumerate(RANKS)}
_SEVEN = _RANK["7"]
_KING = _RANK["K"]
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
_SUIT_ENUM = {s: Suit(s) for s in SUITS}
_DECK_CARD = {c: c for c in FULL_DECK}
"""Each card string of the deck by an equal string (see :func:`_run_ends` and :func:`_row_of`)."""
_HAND_ORDER = {c: i + (len(FULL_DECK) if c[0] == "7" else 0) for i, c in enumerate(FULL_DECK)}
"""A dealt hand's sort key: canonical order, the 7s after every other card."""

PLAY = SevensMoveType.play
PASS = SevensMoveType("pass")
NEXT_DEAL = SevensMoveType.next_deal


_event = event_of(SevensEvent, SevensEventType)


def _row(suit: str, ranks: Iterable[int]) -> SevensRow:
    """The row of ``suit`` holding cards of ``ranks``: the run through the 7, the rest laid apart."""
    return _row_of(suit, frozenset(ranks))


@lru_cache(maxsize=4096)
def _row_of(suit: str, present: frozenset[int]) -> SevensRow:
    # A row is a function of its suit and ranks alone, and rows are frozen (the engine never changes a
    # list in place), so each is made once and shared: a bust recomputes all four rows, and a play beside
    # laid cards recomputes its row.
    low = high = _SEVEN
    while low - 1 in present:
        low -= 1
    while high + 1 in present:
        high += 1
    # (the deck's own card strings, which the cards of a dealt hand are: the row-end tables and the hands
    # then hold the same string objects, and looking them up compares them by identity)
    return SevensRow.model_construct(
        suit=_SUIT_ENUM[suit],
        run=[_DECK_CARD[RANKS[r] + suit] for r in range(low, high + 1)],
        laid=[_DECK_CARD[RANKS[r] + suit] for r in sorted(present) if r < low or r > high],
    )


def _row_ranks(row: SevensRow) -> list[int]:
    return [_RANK[c[0]] for c in row.run] + [_RANK[c[0]] for c in row.laid]


def _run_ends(first: str, last: str) -> tuple[str, ...]:
    """The cards that may be played on a run from ``first`` to ``last``: one rank below ``first`` and one
    above ``last``, within Ace..King, in the suit of ``first``."""
    suit = first[1]
    low = _RANK[first[0]]
    high = _RANK[last[0]]
    ends = []
    if low > 0:
        ends.append(RANKS[low - 1] + suit)
    if high < _KING:
        ends.append(RANKS[high + 1] + suit)
    # the deck's own card strings, which the cards of a dealt hand are: a membership test then matches
    # them by identity
    return tuple(_DECK_CARD[c] for c in ends)


# Every playout step and every request reads the row ends of rows, so they are looked up by the run's
# first and last card (every pair of cards, so that any run a state can hold has its entry), one dict in
# another: two lookups by card, without making a key.
_RUN_ENDS = {first: {last: _run_ends(first, last) for last in FULL_DECK} for first in FULL_DECK}


# The move list of every step needs the cards playable on the whole table. Rather than gathering the four
# rows' ends into a fresh set each time, the ends of two rows at once (clubs and diamonds, hearts and
# spades) are looked up by their runs' first and last cards, one dict in another, in sets made at import:
# every run through a 7 of each suit (7 x 7 of them, so 2,401 pairs of runs per pair of suits).
_RUNS_OF_SUIT = {
    suit: [
        (RANKS[low] + suit, RANKS[high] + suit)
        for low in range(_SEVEN + 1)
        for high in range(_SEVEN, _KING + 1)
    ]
    for suit in SUITS
}
"""The first and last card of every run through a 7, by suit."""


def _pair_ends(
    first_suit: str, second_suit: str
) -> dict[str, dict[str, dict[str, dict[str, frozenset[str]]]]]:
    """The cards playable on the rows of two suits by the first and last cards of their runs (nested dicts:
    first suit's first card, its last card, second suit's first card, its last card)."""
    pairs: dict[str, dict[str, dict[str, dict[str, frozenset[str]]]]] = {}
    for first, last in _RUNS_OF_SUIT[first_suit]:
        ends = _RUN_ENDS[first][last]
        for other_first, other_last in _RUNS_OF_SUIT[second_suit]:
            cards = frozenset((*ends, *_RUN_ENDS[other_first][other_last]))
            pairs.setdefault(first, {}).setdefault(last, {}).setdefault(other_first, {})[other_last] = cards
    return pairs


_CLUBS_DIAMONDS_ENDS = _pair_ends("C", "D")
"""The cards playable on the clubs and diamonds rows (see :func:`_pair_ends`)."""
_HEARTS_SPADES_ENDS = _pair_ends("H", "S")
"""The cards playable on the hearts and spades rows (see :func:`_pair_ends`)."""


def _ends(row: SevensRow) -> tuple[str, ...]:
    """The cards that may be played on ``row`` (as :func:`row_ends`, shared)."""
    run = row.run
    return _RUN_ENDS[run[0]][run[-1]]


# The rows of runs without laid cards, by (suit, lowest rank, highest rank): nearly every play turns one
# such row into another, and these rows are frozen, so the same instance serves every state holding it.
_RUN_ROWS = {
    (suit, low, high): _row(suit, range(low, high + 1))
    for suit in SUITS
    for low in range(_SEVEN + 1)
    for high in range(_SEVEN, _KING + 1)
}

_RUN_WITH_END = {
    (row.run[0], row.run[-1], end): _RUN_ROWS[suit, min(low, _RANK[end[0]]), max(high, _RANK[end[0]])]
    for (suit, low, high), row in _RUN_ROWS.items()
    for end in _ends(row)
}
"""The row a run without laid cards becomes when a card is played at one of its ends, by the run's first
and last card and the card played: the usual play, looked up at once."""

# Moves and events made once per seat and card (both frozen, so shared by every list holding them).
_PLAY_MOVES = [
    {c: SevensMove(type=PLAY, player=seat, card=c) for c in FULL_DECK} for seat in range(SEVENS_PLAYERS)
]
_PASS_MOVES = [SevensMove(type=PASS, player=seat) for seat in range(SEVENS_PLAYERS)]
_PLAYED_EVENTS = [
    {c: SevensEvent(type=SevensEventType.played, player=seat, card=c, joined=None) for c in FULL_DECK}
    for seat in range(SEVENS_PLAYERS)
]
_PASSED_EVENTS = {
    (seat, used): SevensEvent(type=SevensEventType.passed, player=seat, passes=used)
    for seat in range(SEVENS_PLAYERS)
    for used in range(1, SEVENS_PASSES + 2)
}
"""The ``passed`` event by seat and passes used, this one included (1 to 3, and 4 for the bust)."""
_NEXT_DEAL_MOVES = [SevensMove(type=NEXT_DEAL, player=seat, deck=None) for seat in range(SEVENS_PLAYERS)]
"""Each seat's ``next_deal`` move without a deck, as :meth:`Sevens.next_deal_move` makes it."""
_DEAL_STARTED_EVENTS = [
    SevensEvent(type=SevensEventType.deal_started, player=seat) for seat in range(SEVENS_PLAYERS)
]
"""Each seat's ``deal_started`` event (as :func:`_event` makes it)."""
_DEAL_RECORD = SevensDeal(number=1, dealer=0, places=[1, 2, 3, 4], points=[3, 2, 1, 0])
"""A validated deal record, with every field set, copied with each finished deal's values."""
_DEAL_ENDED_EVENT = SevensEvent(type=SevensEventType.deal_ended, deal=_DEAL_RECORD)
"""A validated ``deal_ended`` event (as :func:`_event` makes it), copied with each finished deal's record."""
_BUST_EVENT = SevensEvent(type=SevensEventType.bust, player=0, cards=["AC"])
"""A validated ``bust`` event (as :func:`_event` makes it), copied with each bust's player and cards."""
_DEALT_TABLE = tuple(_RUN_ROWS[s, _SEVEN, _SEVEN] for s in SUITS)
"""The table of a fresh deal: the four 7s."""
_STATE_FIELDS = frozenset(SevensState.model_fields)
"""The fields of a state: a dealt state sets them all."""
_SEATS_LEFT_OF = [
    [(seat + k) % SEVENS_PLAYERS for k in range(1, SEVENS_PLAYERS + 1)] for seat in range(SEVENS_PLAYERS)
]
"""The seats in turn order after each seat, ending with the seat itself."""
_LEFT_OF = [seats[0] for seats in _SEATS_LEFT_OF]
"""The seat on the left of each seat: the next to act while nobody is out or bust (:func:`_turn_after`)."""


def row_ends(row: SevensRow) -> list[str]:
    """The cards that may be played on ``row``: one rank below its run and one above, within Ace..King."""
    return list(_ends(row))


def playable(state: SevensState) -> set[str]:
    """Every card that may be played on the table now (whoever holds it)."""
    return _playable_on(state.table)


def _playable_on(table: Sequence[SevensRow]) -> set[str]:
    """:func:`playable` of a state whose rows are ``table`` (read once by the caller)."""
    clubs_and_diamonds, hearts_and_spades = _playable_by_pairs(table)
    return {*clubs_and_diamonds, *hearts_and_spades}


def _playable_by_pairs(table: Sequence[SevensRow]) -> tuple[frozenset[str], frozenset[str]]:
    """The cards playable on the clubs and diamonds rows of ``table``, and those playable on its hearts and
    spades rows: together :func:`playable` (as :func:`_ends` of each row; shared sets, see
    :func:`_pair_ends`)."""
    clubs_row, diamonds_row, hearts_row, spades_row = table
    clubs, diamonds, hearts, spades = clubs_row.run, diamonds_row.run, hearts_row.run, spades_row.run
    return (
        _CLUBS_DIAMONDS_ENDS[clubs[0]][clubs[-1]][diamonds[0]][diamonds[-1]],
        _HEARTS_SPADES_ENDS[hearts[0]][hearts[-1]][spades[0]][spades[-1]],
    )


def _is_playable(state: SevensState, card: str) -> bool:
    """Whether ``card`` may be played on the table now: whether it is in :func:`playable`, read off the row
    of its suit alone (rows are in the order of ``SUITS``)."""
    return _is_playable_on(state.table, card)


def _is_playable_on(table: Sequence[SevensRow], card: str) -> bool:
    """:func:`_is_playable` on a state whose rows are ``table`` (read once by the caller)."""
    return card in _ends(table[_SUIT_INDEX[card[1]]])


def _plays(state: SevensState, player: int) -> list[str]:
    """The cards of ``player``'s hand that may be played now, in hand order."""
    ends = playable(state)
    return [c for c in state.hands[player] if c in ends]


def _may_pass(state: SevensState, player: int, has_play: bool | None = None) -> bool:
    """Whether ``player`` may pass: while passes remain even with a legal card; with none left only
    without one (that pass is the fourth, the bust). ``has_play``: whether the player holds a legal card
    (:func:`_plays`), when already known; otherwise it is found only when the passes are used up."""
    return _may_pass_in(state.__dict__, player, has_play)


def _may_pass_in(fields: dict[str, Any], player: int, has_play: bool | None = None) -> bool:
    """:func:`_may_pass` in a state whose fields are ``fields`` (its ``__dict__``, read once by the caller:
    see the note in :class:`Sevens`)."""
    if fields["passes"][player] < SEVENS_PASSES:
        return True
    if has_play is None:
        ends = _playable_on(fields["table"])
        has_play = any(c in ends for c in fields["hands"][player])
    return not has_play


def _active(out: Sequence[int], bust: Sequence[int]) -> list[int]:
    """Seats neither out nor bust, in seat order."""
    return [seat for seat in range(SEVENS_PLAYERS) if seat not in out and seat not in bust]


@lru_cache(maxsize=1024)
def _turn_after(player: int, out: tuple[int, ...], bust: tuple[int, ...]) -> tuple[bool, int]:
    """After ``player``'s move, with these seats out and bust: ``(True, survivor)`` when one seat is left
    neither out nor bust (the deal ends), else ``(False, seat)`` for the next such seat on the left.

    A function of its arguments' values alone, remembered (bounded): every move asks it, and a deal
    reaches only a few dozen combinations."""
    active = _active(out, bust)
    if len(active) == 1:
        return True, active[0]
    return False, next(seat for seat in _SEATS_LEFT_OF[player] if seat in active)


def deal_places(out: Sequence[int], bust: Sequence[int], survivor: int) -> list[int]:
    """Places by seat: going-out order, then the last player left, then the bust players, first bust last."""
    places = [0] * SEVENS_PLAYERS
    order = [*out, survivor, *reversed(bust)]
    for place, seat in enumerate(order, start=1):
        places[seat] = place
    return places


def _totals(deals: Sequence[SevensDeal]) -> list[int]:
    totals = [0] * SEVENS_PLAYERS
    for deal in deals:
        for seat, points in enumerate(deal.points):
            totals[seat] += points
    return totals


def _moves_on_turn(fields: dict[str, Any], player: int) -> list[SevensMove]:
    """The legal moves of ``player`` in play, in a state whose fields are ``fields`` (its ``__dict__``, read
    once by the caller): a play of each card of :func:`_plays`, in hand order, then the pass if
    :func:`_may_pass` allows it."""
    moves_of_seat = _PLAY_MOVES[player]
    clubs_and_diamonds, hearts_and_spades = _playable_by_pairs(fields["table"])
    moves = [
        moves_of_seat[c]
        for c in fields["hands"][player]
        if c in clubs_and_diamonds or c in hearts_and_spades  # (in playable(state))
    ]
    if _may_pass_in(fields, player, bool(moves)):
        moves.append(_PASS_MOVES[player])
    return moves


def _is_legal_on_turn(
    fields: dict[str, Any],
    player: int,
    move_type: SevensMoveType,
    card: str | None,
    deck: list[str] | None,
) -> bool:
    """Whether the move of ``player``, whose turn it is in play, is legal (its type, card and deck, and the
    state's fields, as the caller read them): a card of the hand that is playable, or a pass that
    :func:`_may_pass` allows."""
    if deck is not None:
        return False
    if move_type == PLAY:
        return card is not None and card in fields["hands"][player] and _is_playable_on(fields["table"], card)
    return card is None and _may_pass_in(fields, player)


def _bust_event(player: int, cards: list[str]) -> SevensEvent:
    """The ``bust`` event of ``player`` laying ``cards`` (the event's own list): a copy of a validated one
    (validating the event afresh, as :func:`_event` does for an event holding a list, was most of a bust)."""
    return updated(_BUST_EVENT, player=player, cards=cards)


class Sevens(DealtMatch[SevensOptions, SevensState, SevensMove, SevensEvent, SevensView, SevensScore]):
    """Sevens with three passes a deal and busting, four players, a match of five deals."""

    id = "sevens"
    name = "Sevens"
    min_players = SEVENS_PLAYERS
    max_players = SEVENS_PLAYERS
    models = GameModels(SevensOptions, SevensState, SevensMove, SevensEvent, SevensView, SevensScore)

    # ---- dealing --------------------------------------------------------------------------------

    def deal(self, setup: DealSetup[SevensOptions, SevensState]) -> tuple[SevensState, list[SevensEvent]]:
        dealer, deal_number, deck = setup.dealer, setup.deal_number, setup.deck
        cards = list(deck) if deck is not None else setup.seeding.shuffled(FULL_DECK, self.id, deal_number)
        dealt = deal_round_robin(cards, SEVENS_PLAYERS, (dealer + 1) % SEVENS_PLAYERS, [CARDS_EACH] * 4)
        # every 7 goes to the table at once; the 7♦ holder moves first
        first = next(seat for seat, hand in enumerate(dealt) if "7D" in hand)
        hands = [sorted(hand, key=_HAND_ORDER.__getitem__) for hand in dealt]
        for hand in hands:
            while hand and hand[-1][0] == "7":  # (sorted last of all: the 7s, which go to the table)
                hand.pop()
        # Built without validation, as updated() updates states: every field comes from a checked request
        # or state or is computed here, and validating them again would run on every deal; the test suite
        # checks that validation accepts the state and gives the same one, with every field set.
        # (unvalidated() rather than model_construct, which looks for defaults and aliases field by field)
        values = {
            "game": "sevens",
            "options": setup.options,
            "dealer": dealer,
            "deal_number": deal_number,
            **setup.seeding.state_fields(),  # seed, commitment, entropy
            "phase": PLAY_PHASE,
            "turn": first,
            "hands": hands,
            "table": list(_DEALT_TABLE),
            "passes": [0] * SEVENS_PLAYERS,
            "out": [],
            "bust": [],
            "deals": setup.deals,
        }
        # (a set of its own, as model_construct gives: pydantic's model_copy adds to a copy's set in place)
        return unvalidated(SevensState, values, set(_STATE_FIELDS)), [_DEAL_STARTED_EVENTS[dealer]]

    def next_deal_move(self, player: int, deck: list[str] | None = None) -> SevensMove:
        if deck is None and 0 <= player < SEVENS_PLAYERS:
            return _NEXT_DEAL_MOVES[player]  # (the move listed between deals, and the move usually played)
        return SevensMove(type=NEXT_DEAL, player=player, deck=deck)

    # ---- turns and moves ------------------------------------------------------------------------

    def to_act(self, state: SevensState) -> list[int]:
        fields = state.__dict__  # (one read of the model: see the note below)
        phase = fields["phase"]
        if phase is PLAY_PHASE:
            turn = fields["turn"]
            return [turn] if turn is not None else []
        if phase is DEAL_OVER_PHASE:
            return [(fields["dealer"] + 1) % SEVENS_PLAYERS]
        return []

    # In play the seat to act is ``turn`` alone. The shared cycle asks to_act (a fresh list) again in
    # Game.moves, in DealtMatch.legal_moves, in Game.apply and in the legality check; these read ``turn``.
    #
    # Reading a field of a model costs several times a dict lookup (pydantic models answer attributes
    # through a __getattr__ hook, which leaves Python's fast attribute path): the methods below read a
    # state's or a move's ``__dict__`` once, look its fields up in it, and pass on what they read.

    def moves(self, state: SevensState, player: int | None = None) -> tuple[list[int], list[SevensMove]]:
        """As :meth:`Game.moves`: in play, the seat to act (``turn``) and its legal moves."""
        fields = state.__dict__
        turn = fields["turn"]
        if player is None and fields["phase"] is PLAY_PHASE and turn is not None:
            return [turn], _moves_on_turn(fields, turn)
        return super().moves(state, player)

    def legal_moves(self, state: SevensState, player: int) -> list[SevensMove]:
        """As the shared cycle's: in play, the moves of the seat whose turn it is, none for the others."""
        fields = state.__dict__
        if fields["phase"] is PLAY_PHASE:
            return _moves_on_turn(fields, player) if player == fields["turn"] else []
        return super().legal_moves(state, player)

    def apply(self, state: SevensState, move: SevensMove) -> tuple[SevensState, list[SevensEvent]]:
        """As :meth:`Game.apply`. A legal move by the seat whose turn it is goes straight to its
        resolution, as the shared checks would send it (to act: ``turn``; a seat at the table; legal
        inside the deal); any other move takes the shared way, which refuses it with the same error."""
        move_fields = move.__dict__
        player = move_fields["player"]
        move_type = move_fields["type"]
        card = move_fields["card"]
        fields = state.__dict__
        if (
            fields["phase"] is PLAY_PHASE
            and player == fields["turn"]
            and 0 <= player < len(fields["hands"])
            and move_type != NEXT_DEAL
            and _is_legal_on_turn(fields, player, move_type, card, move_fields["deck"])
        ):
            return self._resolve_on_turn(state, fields, player, move_type, card)
        return super().apply(state, move)

    def deal_moves(self, state: SevensState, player: int) -> list[SevensMove]:
        return _moves_on_turn(state.__dict__, player)

    def is_legal_in_deal(self, state: SevensState, move: SevensMove) -> bool:
        # (in play, to_act is [turn], or nobody when turn is None)
        move_fields = move.__dict__
        player = move_fields["player"]
        fields = state.__dict__
        if fields["phase"] is not PLAY_PHASE or player != fields["turn"]:
            return False
        return _is_legal_on_turn(
            fields, player, move_fields["type"], move_fields["card"], move_fields["deck"]
        )

    def resolve_in_deal(self, state: SevensState, move: SevensMove) -> tuple[SevensState, list[SevensEvent]]:
        move_fields = move.__dict__
        return self._resolve_on_turn(
            state, state.__dict__, move_fields["player"], move_fields["type"], move_fields["card"]
        )

    def _resolve_on_turn(
        self,
        state: SevensState,
        fields: dict[str, Any],
        player: int,
        move_type: SevensMoveType,
        card: str | None,
    ) -> tuple[SevensState, list[SevensEvent]]:
        """:meth:`resolve_in_deal` of a legal move of ``player`` (its type and card, and the state's fields,
        as the caller read them)."""
        if move_type == PASS:
            passes = list(fields["passes"])
            used = passes[player] + 1
            events = [_PASSED_EVENTS[player, used]]
            if used <= SEVENS_PASSES:
                passes[player] = used
                return self._continue(
                    state, fields, player, events, {"passes": passes}, fields["out"], fields["bust"]
                )
            return self._bust(state, fields, player, events)
        assert card is not None
        hands = list(fields["hands"])
        # the hand without the card: a hand holds each card once (its check refuses a card twice)
        hand = hands[player] = list(hands[player])
        hand.remove(card)
        index = _SUIT_INDEX[card[1]]
        table = list(fields["table"])
        old = table[index]
        old_fields = old.__dict__  # (one read of the row for its run and its laid cards)
        old_run = old_fields["run"]
        # the usual play: a card at an end of a run with no laid cards, which it cannot join
        new = None if old_fields["laid"] else _RUN_WITH_END.get((old_run[0], old_run[-1], card))
        if new is not None:
            events = [_PLAYED_EVENTS[player][card]]
        else:
            new = _row(card[1], [*_row_ranks(old), _RANK[card[0]]])
            joined = [c for c in new.run if c not in old_run and c != card]
            # the played event with its joined cards, if any: a copy of the validated event without
            # them (listed() cannot share an event holding a list, and would validate it afresh)
            played = _PLAYED_EVENTS[player][card]
            events = [updated(played, joined=joined) if joined else played]
        table[index] = new
        update: dict[str, object] = {"hands": hands, "table": table}
        out = fields["out"]
        if not hand:
            out = update["out"] = [*out, player]
            events.append(_event(SevensEventType.went_out, player=player, place=len(out)))
        return self._continue(state, fields, player, events, update, out, fields["bust"])

    def _bust(
        self, state: SevensState, fields: dict[str, Any], player: int, events: list[SevensEvent]
    ) -> tuple[SevensState, list[SevensEvent]]:
        """The fourth pass: the player's cards go to their places on the table (``fields``: the state's)."""
        hands = list(fields["hands"])
        cards = hands[player]
        hands[player] = []
        # a row of a suit the player holds none of stays as it is: the rows of a state are laid out as _row
        # lays them out (its check, _row_issues, refuses any other row)
        suits = {c[1] for c in cards}
        table = [
            _row(suit, [*_row_ranks(row), *(_RANK[c[0]] for c in cards if c[1] == suit)])
            if (suit := row.run[0][1]) in suits
            else row
            for row in fields["table"]
        ]
        events.append(_bust_event(player, list(cards)))
        bust = [*fields["bust"], player]
        update: dict[str, object] = {"hands": hands, "table": table, "bust": bust}
        return self._continue(state, fields, player, events, update, fields["out"], bust)

    def _continue(
        self,
        state: SevensState,
        fields: dict[str, Any],
        player: int,
        events: list[SevensEvent],
        update: dict[str, object],
        out: Sequence[int],
        bust: Sequence[int],
    ) -> tuple[SevensState, list[SevensEvent]]:
        """``state`` (whose fields are ``fields``) with ``update``, the turn given to the next active seat on
        the left, or the deal ended when one is left (``out`` and ``bust``: the seats out and bust after the
        move)."""
        if not out and not bust:
            # most moves of a deal: all four seats still play, the turn goes to the seat on the left
            update["turn"] = _LEFT_OF[player]
            return updated_from(state, fields, update), events
        ended, seat = _turn_after(player, tuple(out), tuple(bust))
        if ended:
            return self._end_deal(updated_from(state, fields, update), seat, events)
        update["turn"] = seat
        return updated_from(state, fields, update), events

    def _end_deal(
        self, state: SevensState, survivor: int, events: list[SevensEvent]
    ) -> tuple[SevensState, list[SevensEvent]]:
        places = deal_places(state.out, state.bust, survivor)
        deal_number = state.deal_number
        # the record and its event: copies of validated ones holding the values computed here (as updated()
        # copies states), since validating them again was most of the cost of ending a deal
        deal = updated(
            _DEAL_RECORD,
            number=deal_number,
            dealer=state.dealer,
            places=places,
            points=[POINTS[p - 1] for p in places],
        )
        deals = [*state.deals, deal]
        events.append(updated(_DEAL_ENDED_EVENT, deal=deal))
        phase = DEAL_OVER_PHASE
        if deal_number >= state.options.deals:
            phase = MATCH_OVER_PHASE
            events.append(_event(SevensEventType.match_ended, winners=best_seats(_totals(deals))))
        return updated(state, deals=deals, phase=phase, turn=None), events

    # ---- reading a state ------------------------------------------------------------------------

    def score(self, state: SevensState) -> SevensScore:
        return SevensScore(totals=self.seat_totals(state), deals=state.deals)

    def seat_totals(self, state: SevensState) -> list[int]:
        return _totals(state.deals)

    def seat_view(self, state: SevensState, player: int) -> dict[str, object]:
        return dict(
            turn=state.turn,
            hand=state.hands[player],
            table=state.table,
            passes=state.passes,
            out=state.out,
            bust=state.bust,
        )

    # ---- consistency ----------------------------------------------------------------------------

    def state_issues(self, state: SevensState) -> list[IssueAt]:
        n = len(state.hands)
        issues = length_issues(("table",), state.table, SEVENS_PLAYERS)
        issues += length_issues(("passes",), state.passes, n)
        issues += seat_issues(("dealer",), state.dealer, n)
        issues += seat_issues(("turn",), state.turn, n)
        for name, seats in (("out", state.out), ("bust", state.bust)):
            for i, seat in enumerate(seats):
                issues += seat_issues((name, i), seat, n)
        if issues:
            return issues
        for i, row in enumerate(state.table):
            if row.suit != SUITS[i]:
                issues.append(
                    IssueAt(("table", i, "suit"), f"must be {SUITS[i]} (rows in the order C, D, H, S)")
                )
        locations: list[tuple[tuple[str | int, ...], Sequence[str]]] = [
            (("hands", i), h) for i, h in enumerate(state.hands)
        ]
        for i, row in enumerate(state.table):
            locations += [(("table", i, "run"), row.run), (("table", i, "laid"), row.laid)]
        issues += conservation_issues(locations, FULL_DECK)
        if issues:
            return issues
        for i, row in enumerate(state.table):
            issues += _row_issues(("table", i), row)
        issues += self._seat_status_issues(state)
        issues += self.deal_history_issues(state)
        if issues:
            return issues
        if state.deal_number > state.options.deals:
            issues.append(IssueAt(("deal_number",), f"a match has {state.options.deals} deals"))
        active = _active(state.out, state.bust)
        if state.phase is Phase.play:
            if len(state.deals) != state.deal_number - 1:
                issues.append(IssueAt(("deals",), "a deal in play must follow exactly deal_number - 1 deals"))
            if len(active) < 2:
                issues.append(IssueAt(("out",), "the deal ends when only one player is neither out nor bust"))
            if state.turn is None:
                issues.append(IssueAt(("turn",), "a deal in play must have a seat to act"))
            elif state.turn not in active:
                issues.append(IssueAt(("turn",), "a player who is out or bust has no turn"))
        else:
            if state.turn is not None:
                issues.append(IssueAt(("turn",), "no seat is to act once the deal is over"))
            if len(state.deals) != state.deal_number:
                issues.append(IssueAt(("deals",), "a finished deal must be the last of deal_number deals"))
            elif len(active) != 1:
                issues.append(IssueAt(("out",), "a finished deal leaves one player neither out nor bust"))
            elif state.deals[-1].places != deal_places(state.out, state.bust, active[0]):
                path = ("deals", len(state.deals) - 1, "places")
                issues.append(IssueAt(path, "does not match the order of out and bust"))
            last = state.deal_number == state.options.deals
            if last != (state.phase is Phase.match_over):
                issues.append(IssueAt(("phase",), "the match is over exactly when the last deal has ended"))
        return issues

    def _seat_status_issues(self, state: SevensState) -> list[IssueAt]:
        issues = []
        for name, seats in (("out", state.out), ("bust", state.bust)):
            if len(set(seats)) != len(seats):
                issues.append(IssueAt((name,), "a seat appears twice"))
        for i, seat in enumerate(state.bust):
            if seat in state.out:
                issues.append(IssueAt(("bust", i), f"seat {seat} cannot be both out and bust"))
            if state.passes[seat] != SEVENS_PASSES:
                issues.append(IssueAt(("passes", seat), "a bust player has used all 3 passes"))
        gone = set(state.out) | set(state.bust)
        for seat, hand in enumerate(state.hands):
            if len(hand) > CARDS_EACH:
                issues.append(IssueAt(("hands", seat), f"a hand never holds more than {CARDS_EACH} cards"))
            if seat in gone and hand:
                issues.append(IssueAt(("hands", seat), "a player who is out or bust holds no cards"))
            if seat not in gone and not hand:
                issues.append(IssueAt(("hands", seat), "an empty hand means the player is out or bust"))
        if not state.bust and any(row.laid for row in state.table):
            issues.append(IssueAt(("table",), "cards lie apart from a run only after a bust"))
        return issues

    def deal_record_check(self, state: SevensState) -> RecordCheck:
        def check(index: int, clean: bool) -> list[IssueAt]:
            deal = state.deals[index]
            # the dealer moves one seat left each deal, up to the current deal's dealer
            dealer = (state.dealer - (state.deal_number - 1 - index)) % SEVENS_PLAYERS
            if deal.dealer == dealer and deal.points == _POINTS_BY_PLACES.get(tuple(deal.places)):
                return []  # the usual record, settled at once: it passes every check of the slow way
            return _deal_record_problems(("deals", index), deal, dealer, clean)

        return check


def _deal_record_problems(
    path: tuple[str | int, ...], deal: SevensDeal, dealer: int, clean: bool
) -> list[IssueAt]:
    """What exactly is wrong with a finished deal's record, check by check (``dealer``: the seat that dealt
    it; ``clean``: no issue was found before it)."""
    n = SEVENS_PLAYERS
    issues = seat_issues((*path, "dealer"), deal.dealer, n)
    issues += length_issues((*path, "places"), deal.places, n)
    issues += length_issues((*path, "points"), deal.points, n)
    if issues or not clean:
        return issues
    if deal.dealer != dealer:
        issues.append(IssueAt((*path, "dealer"), "the dealer moves one seat left each deal"))
    if sorted(deal.places) != [1, 2, 3, 4]:
        issues.append(IssueAt((*path, "places"), "must give places 1 to 4, one each"))
    elif deal.points != [POINTS[p - 1] for p in deal.places]:
        issues.append(IssueAt((*path, "points"), "must be 3, 2, 1, 0 for places 1 to 4"))
    return issues


def _laid_out(row: SevensRow) -> SevensRow:
    """The row holding the cards of ``row`` as play lays them out (:func:`_row`): the unbroken run through
    the 7, the other cards apart, ascending, all in the row's suit."""
    suit = str(row.suit)
    if not row.laid:
        run_row = _RUN_ROWS.get((suit, _RANK[row.run[0][0]], _RANK[row.run[-1][0]]))
        if run_row is not None:
            return run_row
    return _row(suit, _row_ranks(row))


def _row_issues(path: tuple[str | int, ...], row: SevensRow) -> list[IssueAt]:
    """Issues unless the run is unbroken through the 7, ascending, and the laid cards lie apart from it."""
    # A row laid out as play lays it out passes every check of _row_problems, and every posted state goes
    # through here: settle that common case with two list comparisons.
    laid_out = _laid_out(row)
    if row.run == laid_out.run and row.laid == laid_out.laid:
        return []
    return _row_problems(path, row)


def _row_problems(path: tuple[str | int, ...], row: SevensRow) -> list[IssueAt]:
    """What exactly is wrong with a row (:func:`_row_issues`), check by check."""
    suit = str(row.suit)
    issues = []
    for name, cards in (("run", row.run), ("laid", row.laid)):
        for i, c in enumerate(cards):
            if c[1] != suit:
                issues.append(IssueAt((*path, name, i), f"card {c} is not of suit {suit}"))
    if issues:
        return issues
    run = [_RANK[c[0]] for c in row.run]
    if run != list(range(run[0], run[0] + len(run))) or not run[0] <= _SEVEN <= run[-1]:
        issues.append(IssueAt((*path, "run"), "must be an unbroken run through the 7, ascending"))
        return issues
    laid = [_RANK[c[0]] for c in row.laid]
    if laid != sorted(laid):
        issues.append(IssueAt((*path, "laid"), "must be ascending"))
    if run[0] - 1 in laid or run[-1] + 1 in laid:
        issues.append(IssueAt((*path, "laid"), "a laid card next to the run is part of the run"))
    return issues
