"""Sevens' internal representation: a :class:`SevensPosition` of ints, tuples and card bitmasks that the
rules (:mod:`sevens_rules.engine.sevens`) run on, and the conversions to and from the wire models.

Cards and sets of cards are those of the Sjuan family's positions
(:mod:`~sevens_rules.engine.sjuan_position`): a card is its index in
:data:`~sevens_rules.engine.cards.FULL_DECK` (``suit * 13 + rank``), a set of cards an int with each
card's bit set, so a hand's cards in canonical order are its bits from the lowest. A move is a small int
(the card played, :data:`PASS` or :data:`NEXT_DEAL`), made by the seat to act.

The table is two sets: ``table``, every card on it, and ``runs``, the cards of the unbroken runs through
the four 7s. The cards a bust player laid apart from a run are ``table & ~runs``; a wire row is a function
of the cards of its suit on the table (:func:`wire_row`).

A position is built from a wire state once (:func:`read_position`) and written back once
(:func:`write_state`, or :func:`write_move` for a move inside a deal, which writes only what it changed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..schema.common import Phase
from ..schema.sevens import SEVENS_PLAYERS, SevensDeal, SevensOptions, SevensRow, SevensState
from .card_sets import CARD_BIT, CARD_INDEX, SUIT_SIZE, card_names
from .cards import FULL_DECK, SUITS
from .models import constructed, updated_from
from .positions import ScoredMatch, deal_records
from .sevens_table import _row_of
from .sjuan_position import ACES, KINGS, NEXT_DEAL, PASS, SEVENS

__all__ = ["NEXT_DEAL", "PASS", "SEVENS"]  # (the move codes and the 7s, shared with the Sjuan family)


NOT_ACES = ((1 << len(FULL_DECK)) - 1) & ~ACES
NOT_KINGS = ((1 << len(FULL_DECK)) - 1) & ~KINGS
SEVEN_OF_DIAMONDS = 1 << CARD_INDEX["7D"]


class DealResult(NamedTuple):
    """A finished deal as the rules record it (the wire's :class:`SevensDeal`)."""

    number: int
    dealer: int
    places: tuple[int, ...]
    points: tuple[int, ...]


class SevensMatch(ScoredMatch[DealResult]):
    """What stays the same for a whole deal: the dealer, the finished deals and each seat's points over
    them, the options and the seed. Never changed once made; shared by every position of the deal."""

    __slots__ = ("in_order", "posted_hands")
    options: SevensOptions

    def __init__(self, *constants: Any, posted_hands: Sequence[Sequence[str]] | None = None) -> None:
        """``constants`` as :class:`ScoredMatch` takes them."""
        super().__init__(*constants)
        self.posted_hands = posted_hands
        """The wire hands of the state this deal's positions were read from (None: dealt by the engine).
        Every hand the engine deals is in canonical order, a posted one need not be, and a hand keeps its
        order through the deal (a play removes one card): the wire lists a seat's plays in its order."""
        self.in_order: list[bool | None] = [None] * SEVENS_PLAYERS
        """Whether each seat's posted hand is in canonical order, once asked (:func:`hand_in_order`)."""

    def keep_in(self, recorded: SevensMatch) -> None:
        recorded.posted_hands = self.posted_hands
        recorded.in_order = self.in_order


@dataclass(slots=True, eq=False)
class SevensPosition:
    """One moment of a match of Sevens: what a move changes, and the deal's :class:`SevensMatch`. Never
    changed once made: a move makes a new one."""

    hands: tuple[int, ...]
    table: int
    """Every card on the table (the runs and the cards laid apart from them)."""
    runs: int
    """The cards of the unbroken runs through the 7s (a subset of ``table``)."""
    passes: tuple[int, ...]
    """Passes each seat used in the deal (0-3; the fourth is the bust)."""
    out: tuple[int, ...]
    """Seats that emptied their hands, in order."""
    bust: tuple[int, ...]
    """Seats that went bust, in order."""
    turn: int | None
    phase: Phase
    match: SevensMatch
    listed: list[int] | None = field(default=None, init=False, repr=False)
    """The move codes of the seat to act once asked (a memo: the wire API lists a state's moves, then
    checks a move against them on the same state)."""


def joined_runs(runs: int, laid: int) -> int:
    """``runs`` grown through the ``laid`` cards next to them, rank by rank, until no laid card touches a
    run: the runs once a gap is filled (a card's neighbours are one bit up and one bit down, not across a
    suit's end)."""
    while True:
        grown = ((runs & NOT_KINGS) << 1 | (runs & NOT_ACES) >> 1) & laid
        if not grown:
            return runs
        runs |= grown
        laid ^= grown


def run_ends(runs: int) -> int:
    """The cards one rank outside the runs (and the runs' own inner cards, which no hand holds): a hand's
    playable cards are the hand and this."""
    return (runs & NOT_KINGS) << 1 | (runs & NOT_ACES) >> 1


def deal_result(deal: SevensDeal) -> DealResult:
    """A wire deal record as the rules record it."""
    return DealResult(deal.number, deal.dealer, tuple(deal.places), tuple(deal.points))


def wire_deal(deal: DealResult) -> SevensDeal:
    """The wire record of a finished deal (made without validation: every value is the engine's own)."""
    return constructed(
        SevensDeal, number=deal.number, dealer=deal.dealer, places=list(deal.places), points=list(deal.points)
    )


def hand_in_order(match: SevensMatch, seat: int) -> bool:
    """Whether the wire hand of ``seat`` lists its cards in canonical order throughout the deal of
    ``match``: always for a deal the engine dealt, else as the posted hand does (asked once)."""
    hands = match.posted_hands
    if hands is None:
        return True
    known = match.in_order[seat]
    if known is None:
        codes = list(map(CARD_INDEX.__getitem__, hands[seat]))
        known = match.in_order[seat] = codes == sorted(codes)
    return known


def _points(deal: DealResult) -> tuple[int, ...]:
    return deal.points


def read_position(state: SevensState) -> SevensPosition:
    """The position of a wire state. Asked before the state is checked too (the checks test its sets of
    cards): each set of cards is the sum of its cards' bits, which is the set itself when the cards are
    distinct."""
    bit = CARD_BIT.__getitem__
    runs = laid = 0
    for row in state.table:
        runs += sum(map(bit, row.run))
        if row.laid:
            laid += sum(map(bit, row.laid))
    match = SevensMatch.posted(state, deal_result, _points)
    match.posted_hands = state.hands
    return SevensPosition(
        tuple([sum(map(bit, hand)) for hand in state.hands]),
        runs | laid,
        runs,
        tuple(state.passes),
        tuple(state.out),
        tuple(state.bust),
        state.turn,
        state.phase,
        match,
    )


_ROWS: list[dict[int, SevensRow]] = [{} for _ in SUITS]
"""Per suit, the wire row of each 13-bit set of that suit's cards on the table met so far."""


def wire_row(suit: int, table: int) -> SevensRow:
    """The wire row of suit ``suit`` (0-3, clubs to spades) of a table holding the cards ``table``: the
    run through the 7 and the cards laid apart (rows are frozen and shared, made once per set of cards)."""
    part = (table >> (suit * SUIT_SIZE)) & 0x1FFF
    row = _ROWS[suit].get(part)
    if row is None:
        ranks = frozenset(rank for rank in range(SUIT_SIZE) if part >> rank & 1)
        row = _ROWS[suit][part] = _row_of(SUITS[suit], ranks)
    return row


def write_state(
    position: SevensPosition, before: tuple[SevensState, SevensPosition] | None = None
) -> SevensState:
    """The wire state of ``position``. ``before``, a state and its position from which ``position`` was
    made, lends what did not change: its deals and entropy, and within the same deal everything the move
    left as it was (:func:`write_move`)."""
    match = position.match
    if before is not None and match is before[1].match:  # a move inside a deal
        return write_move(position, *before)
    deals, entropy, ended = deal_records(match, before, wire_deal)
    if ended is not None:  # the deal's last move
        return write_move(position, *ended, deals)
    table = position.table
    values: dict[str, Any] = {
        "game": "sevens",
        **match.state_fields(),
        "entropy": entropy,
        "phase": position.phase,
        "turn": position.turn,
        "hands": [card_names(hand) for hand in position.hands],
        "table": [wire_row(suit, table) for suit in range(len(SUITS))],
        "passes": list(position.passes),
        "out": list(position.out),
        "bust": list(position.bust),
        "deals": deals,
    }
    return constructed(SevensState, **values)


def write_move(
    position: SevensPosition,
    state: SevensState,
    earlier: SevensPosition,
    deals: list[SevensDeal] | None = None,
) -> SevensState:
    """:func:`write_state` of a position a move inside a deal made from ``earlier``, the position of
    ``state``: the state's fields with those the move changed written anew (``deals``: the records, when
    the move ended the deal)."""
    mover: int = earlier.turn  # type: ignore[assignment]  # (a move inside a deal has a mover)
    hand, held = position.hands[mover], earlier.hands[mover]
    if hand == held:  # a pass of the three (it never ends a deal): its count and the turn
        return updated_from(state, {"passes": list(position.passes), "turn": position.turn})
    hands = list(state.hands)
    table = position.table
    rows = list(state.table)
    changes: dict[str, object] = {"hands": hands, "table": rows, "turn": position.turn}
    if position.bust is earlier.bust:  # a play: one card from the hand to its suit's row
        card = (held ^ hand).bit_length() - 1
        names = hands[mover] = list(hands[mover])  # the rest in the hand's own order
        names.remove(FULL_DECK[card])
        suit = card // SUIT_SIZE
        rows[suit] = wire_row(suit, table)
        if position.out is not earlier.out:
            changes["out"] = list(position.out)
    else:  # the bust: the hand to the rows of its suits
        hands[mover] = []
        laid = table ^ earlier.table
        for suit in range(len(SUITS)):
            if laid >> (suit * SUIT_SIZE) & 0x1FFF:
                rows[suit] = wire_row(suit, table)
        changes["bust"] = list(position.bust)
    if deals is not None:  # the move ended the deal
        changes["deals"] = deals
        changes["phase"] = position.phase
    return updated_from(state, changes)
