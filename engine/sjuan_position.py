"""The Sjuan family's internal representation: a :class:`SjuanPosition` of ints and bitmasks that the rules
(:mod:`sevens_rules.engine.sjuan`) run on, and the conversions to and from the wire models.

A card is its index in :data:`~sevens_rules.engine.cards.FULL_DECK` (suit by suit, Clubs to Spades, each
from the Ace to the King: ``suit * 13 + rank``), a set of cards is an int with the card's bit set, so a
hand's cards in canonical order are its bits from the lowest. A move is a small int (:data:`PASS`,
:data:`DRAW`, :data:`NEXT_DEAL` or the card played), made by the seat to act.

A position is built from a wire state once (:func:`read_position`) and written back once
(:func:`write_state`); the engine keeps the position of the state it last read or wrote, so that a
caller chaining ``moves`` and ``apply`` on the state the engine just gave it does not convert it again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, NamedTuple, cast

from ..schema.common import Phase
from ..schema.sjuan import DominoFanTanState, SjuanDeal, SjuanFamilyState, SjuanOptions
from .card_sets import CARD_BIT, CARD_INDEX, RANK_ROW, SUIT_SIZE, card_codes, card_names
from .cards import FULL_DECK
from .models import constructed, updated_from
from .positions import ScoredMatch, deal_records

ACES = RANK_ROW[0]
KINGS = RANK_ROW[SUIT_SIZE - 1]
SEVENS = RANK_ROW[6]
SEVEN_OF_HEARTS = 1 << CARD_INDEX["7H"]

PASS = 52
"""The move code of a pass (a card's code is its index, below 52)."""
DRAW = 53
"""The move code of a draw from the stock."""
NEXT_DEAL = 54
"""The move code of ``next_deal`` (the seeded shuffle: a deck given over the wire is the wire's)."""


class DealResult(NamedTuple):
    """A finished deal as the rules record it (the wire's :class:`SjuanDeal`)."""

    number: int
    dealer: int
    winner: int | None
    cards_left: tuple[int, ...]
    chips: tuple[int, ...]
    penalties: tuple[int, ...]


class SjuanMatch(ScoredMatch[DealResult]):
    """What stays the same for a whole deal: the table size, the dealer, the finished deals and each
    seat's penalty total over them, the options and the seed. Never changed once made; shared by every
    position of the deal."""

    __slots__ = ()
    options: SjuanOptions


@dataclass(slots=True, eq=False)
class SjuanPosition:
    """One moment of a match of the Sjuan family: what a move changes, and the deal's
    :class:`SjuanMatch`. Never changed once made: a move makes a new one, so a copy is the same object.

    A slotted class rather than a named tuple: a step makes one position and reads a dozen fields, and a
    slotted instance's fields are read faster (bench/README.md has the measurements). The fields a move
    never changes sit in :class:`SjuanMatch`, so a move copies eight fields, not fifteen."""

    hands: tuple[int, ...]
    table: tuple[str, ...]
    """The cards on the table, in the order they were played, by name (the order is the wire's alone:
    the rules read :attr:`on_table`, and free fan tan the first card's rank)."""
    on_table: int
    """The set of the cards on the table."""
    stock: tuple[int, ...]
    """The face-down stock, top first (empty but in Domino fan tan)."""
    chips: tuple[int, ...]
    """Chips each seat paid in the current deal."""
    turn: int | None
    phase: Phase
    match: SjuanMatch
    playable: int | None = field(default=None, init=False, repr=False)
    """The playable cards once a rule has asked (a memo: free fan tan asks after every play whether the
    deal is blocked, then lists the next seat's moves)."""
    listed: list[int] | None = field(default=None, init=False, repr=False)
    """The move codes of the seat to act once asked (a memo: the wire API lists a state's moves, then
    checks a move against them on the same state)."""


def deal_result(deal: SjuanDeal) -> DealResult:
    """A wire deal record as the rules record it."""
    return DealResult(
        deal.number,
        deal.dealer,
        deal.winner,
        tuple(deal.cards_left),
        tuple(deal.chips),
        tuple(deal.penalties),
    )


def wire_deal(deal: DealResult) -> SjuanDeal:
    """The wire record of a finished deal (made without validation: every value is the engine's own)."""
    return constructed(
        SjuanDeal,
        number=deal.number,
        dealer=deal.dealer,
        winner=deal.winner,
        blocked=deal.winner is None,
        cards_left=list(deal.cards_left),
        chips=list(deal.chips),
        penalties=list(deal.penalties),
        pot=sum(deal.chips),
    )


def _penalties(deal: DealResult) -> tuple[int, ...]:
    return deal.penalties


def read_position(state: SjuanFamilyState, stock: Sequence[str]) -> SjuanPosition:
    """The position of a wire state (``stock``: its stock, empty for a game without one). Asked before the
    state is checked too (the checks test its sets of cards): each set of cards is the sum of its cards'
    bits, which is the set itself when the cards are distinct."""
    bit = CARD_BIT.__getitem__
    table = state.table
    match = SjuanMatch.posted(state, deal_result, _penalties)
    return SjuanPosition(
        tuple([sum(map(bit, hand)) for hand in state.hands]),
        tuple(table),
        sum(map(bit, table)),
        card_codes(stock) if stock else (),
        tuple(state.chips),
        state.turn,
        state.phase,
        match,
    )


def write_state(
    model: type[SjuanFamilyState],
    game_id: str,
    position: SjuanPosition,
    has_stock: bool,
    before: tuple[SjuanFamilyState, SjuanPosition] | None = None,
) -> SjuanFamilyState:
    """The wire state of ``position``. ``before``, a state and its position from which ``position`` was
    made, lends what did not change: its deals and entropy, and within the same deal the hands, table and
    stock that a move left as they were (a deal's table only grows, its stock only loses its top cards),
    so that a move writes only what it changed."""
    match = position.match
    if before is not None and match is before[1].match:  # a move inside a deal
        return write_move(position, *before, has_stock)
    deals, entropy, ended = deal_records(match, before, wire_deal)
    if ended is not None:  # the deal's last move
        return write_move(position, *ended, has_stock, deals)
    values: dict[str, Any] = {
        "game": game_id,
        **match.state_fields(),
        "entropy": entropy,
        "phase": position.phase,
        "turn": position.turn,
        "hands": [card_names(hand) for hand in position.hands],
        "table": list(position.table),
        "chips": list(position.chips),
        "deals": deals,
    }
    if has_stock:
        values["stock"] = [FULL_DECK[card] for card in position.stock]
    return constructed(model, **values)


def write_move(
    position: SjuanPosition,
    state: SjuanFamilyState,
    earlier: SjuanPosition,
    has_stock: bool,
    deals: list[SjuanDeal] | None = None,
) -> SjuanFamilyState:
    """:func:`write_state` of a position a move inside a deal made from ``earlier``, the position of
    ``state``: the state's fields with those the move changed written anew."""
    changes: dict[str, object] = {"turn": position.turn}
    after_hands, before_hands = position.hands, earlier.hands
    if after_hands is not before_hands:
        hands = changes["hands"] = list(state.hands)
        # a move changes its mover's hand only, as a rule: the other seats are compared in C, and looked at
        # one by one only if one of them changed
        mover = earlier.turn
        seats: Sequence[int] = range(len(hands))
        if mover is not None and (
            after_hands[:mover] == before_hands[:mover]
            and after_hands[mover + 1 :] == before_hands[mover + 1 :]
        ):
            seats = (mover,)
        for seat in seats:
            hand, held = after_hands[seat], before_hands[seat]
            if hand != held:
                gone = held ^ hand
                if not hand & gone and not gone & (gone - 1):  # one card left the hand (a play)
                    names = hands[seat] = list(hands[seat])
                    names.remove(FULL_DECK[gone.bit_length() - 1])
                else:
                    hands[seat] = card_names(hand)
    if position.table is not earlier.table:  # a move puts one card on the table at most
        changes["table"] = [*state.table, position.table[-1]]
    if position.chips is not earlier.chips:
        changes["chips"] = list(position.chips)
    if position.phase is not earlier.phase:
        changes["phase"] = position.phase
    if deals is not None:
        changes["deals"] = deals
    if has_stock and position.stock is not earlier.stock:  # a draw takes cards from the top
        stock = cast(DominoFanTanState, state).stock
        changes["stock"] = stock[len(stock) - len(position.stock) :]
    return updated_from(state, changes)


@cache
def hand_counts(players: int, dealer: int, hand_size: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The cards dealt to each seat and the chip each short hand pays: ``hand_size`` each (a game with a
    stock), else the whole deck one at a time from the dealer's left, the first seats taking one more
    when it does not come out even. Made once per table size and dealer."""
    if hand_size:
        counts = [hand_size] * players
    else:
        counts = [52 // players + (1 if i < 52 % players else 0) for i in range(players)]
        # counts are by position from the dealer's left; turn them into counts by seat
        counts = [counts[(seat - dealer - 1) % players] for seat in range(players)]
    largest = max(counts)
    return tuple(counts), tuple(1 if count < largest else 0 for count in counts)
