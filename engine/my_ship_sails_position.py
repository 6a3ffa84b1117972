"""My Ship Sails' internal representation: a :class:`MyShipSailsPosition` of ints, tuples and card bitmasks
that the rules (:mod:`sevens_rules.engine.my_ship_sails`) run on, and the conversions to and from the wire
models.

A card is its index in :data:`~sevens_rules.engine.cards.FULL_DECK` (``suit * 13 + rank``), a set of cards
an int with each card's bit set (as in :mod:`~sevens_rules.engine.sjuan_position`), so a hand's cards in
canonical order are its bits from the lowest.

A step is simultaneous: every seat still to choose may move, so a move code names its seat. A choice is
``seat << 6 | choice`` where ``choice`` is the card passed (0-51) or :data:`DECLARE` (52); the next deal is
:data:`NEXT_DEAL`, whoever deals it. The choices made in a step are three sets: the seats that have chosen,
the seats that declared, and the cards chosen to pass (hands hold distinct cards, so a seat's passed card
is its hand's card among them, and an exchange moves each hand's one such card to the next hand).

A position is built from a wire state once (:func:`read_position`) and written back once
(:func:`write_state`, or :func:`write_move` for a move inside a deal, which writes only what it changed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

from ..schema.my_ship_sails import (
    MyShipSailsChoice,
    MyShipSailsChoiceType,
    MyShipSailsDeal,
    MyShipSailsOptions,
    MyShipSailsPhase,
    MyShipSailsState,
)
from ..schema.scalars import MAX_SEATS
from .card_sets import CARD_INDEX, SUIT_SIZE, bits_of, card_names, card_set
from .cards import FULL_DECK
from .models import constructed, updated_from
from .positions import ScoredMatch

HAND_SIZE = 7
"""Cards dealt to each player."""

DECLARE = len(FULL_DECK)
"""The ``choice`` part of a declaration (one past the last card)."""
SEAT_SHIFT = 6
"""A choice's code is ``seat << SEAT_SHIFT | choice``."""
CHOICE_MASK = (1 << SEAT_SHIFT) - 1
NEXT_DEAL = MAX_SEATS << SEAT_SHIFT
"""The code of ``next_deal`` (beyond every seat's choices)."""

STEP = MyShipSailsPhase.step
DEAL_OVER = MyShipSailsPhase.deal_over
MATCH_OVER = MyShipSailsPhase.match_over

SUIT_OF = tuple(card // SUIT_SIZE for card in range(len(FULL_DECK)))
"""Each card's suit (0-3, clubs to spades)."""
SUIT_CARDS = tuple(((1 << SUIT_SIZE) - 1) << (suit * SUIT_SIZE) for suit in range(4))
"""The cards of each suit."""

_CHOICE_PASS = MyShipSailsChoiceType("pass")
_CHOICE_DECLARE = MyShipSailsChoiceType.declare
PASS_CHOICES = tuple(MyShipSailsChoice(type=_CHOICE_PASS, card=card) for card in FULL_DECK)
"""``PASS_CHOICES[card]``: the wire choice of passing ``card`` (frozen, shared)."""
DECLARE_CHOICE = MyShipSailsChoice(type=_CHOICE_DECLARE)
"""The wire choice of declaring."""


def one_suit(hand: int) -> bool:
    """Whether ``hand``, a set of seven cards, is of one suit: its lowest and highest cards are."""
    return SUIT_OF[(hand & -hand).bit_length() - 1] == SUIT_OF[hand.bit_length() - 1]


def longest_suit(hand: int) -> int:
    """The most cards ``hand`` holds of one suit."""
    return max((hand & suit).bit_count() for suit in SUIT_CARDS)


class DealResult(NamedTuple):
    """A finished deal as the rules record it (the wire's :class:`MyShipSailsDeal`)."""

    number: int
    dealer: int
    exchanges: int
    winners: tuple[int, ...]


class MyShipSailsMatch(ScoredMatch[DealResult]):
    """What stays the same for a whole deal: the table size, the dealer, the finished deals and each seat's
    wins over them (:class:`~sevens_rules.engine.positions.ScoredMatch`), the cards not dealt, the options
    and the seed. Never changed once made (the cards not dealt are set as the deal is dealt or read);
    shared by every position of the deal."""

    __slots__ = ("all_chosen", "unused")
    options: MyShipSailsOptions

    def __init__(self, *constants: Any) -> None:
        """``constants`` as :class:`~sevens_rules.engine.positions.ScoredMatch` takes them."""
        super().__init__(*constants)
        self.all_chosen = (1 << self.players) - 1
        """The set of seats (a bit each) once every seat has chosen."""
        self.unused: Sequence[str] = ()
        """The cards not dealt, as the wire lists them (a posted state's own list: never changed)."""

    def keep_in(self, recorded: MyShipSailsMatch) -> None:
        recorded.unused = self.unused


def _no_codes() -> list[list[int] | None]:
    return [None] * MAX_SEATS


@dataclass(slots=True, eq=False)
class MyShipSailsPosition:
    """One moment of a match of My Ship Sails: what a move changes, and the deal's
    :class:`MyShipSailsMatch`. Never changed once made: a move makes a new one."""

    turn: ClassVar[None] = None
    """No single seat's turn: every seat still to choose in a step may move (the wire side's protocol)."""

    hands: tuple[int, ...]
    """Each seat's seven cards (a set of cards)."""
    chosen: int
    """The seats that have chosen in the step (a bit each)."""
    declared: int
    """The seats that chose to declare in the step (a bit each)."""
    passed: int
    """The cards chosen to pass in the step (a set of cards, one of each hand that chose to pass)."""
    exchanges: int
    """Exchanges completed in the deal."""
    phase: MyShipSailsPhase
    match: MyShipSailsMatch
    hands_canonical: bool = True
    """Whether the wire hands are known to list their cards in canonical order: the engine writes a
    hand so when it deals or exchanges; a posted hand need not be, and keeps its order until the next
    exchange (the wire lists a seat's passes in its hand's order)."""
    codes: list[list[int] | None] = field(default_factory=_no_codes, repr=False)
    """Each seat's move codes with these hands once asked (a memo shared by the positions of a step,
    whose hands are the same: every choice lists again the moves of the seats still to choose)."""
    wire_lists: list[list[Any] | None] | None = field(default=None, repr=False)
    """Each seat's wire moves with these hands once asked (a memo shared by the positions of a step from
    the first that the wire API asked, as :attr:`codes` is; None until then: playouts never ask)."""
    listed: list[int] | None = field(default=None, init=False, repr=False)
    """The move codes of every seat to act once asked (a memo: the wire API lists a state's moves,
    then checks a move against them on the same state)."""


def deal_result(deal: MyShipSailsDeal) -> DealResult:
    """A wire deal record as the rules record it."""
    return DealResult(deal.number, deal.dealer, deal.exchanges, tuple(deal.winners))


def wire_deal(deal: DealResult) -> MyShipSailsDeal:
    """The wire record of a finished deal (made without validation: every value is the engine's own)."""
    return constructed(
        MyShipSailsDeal,
        number=deal.number,
        dealer=deal.dealer,
        exchanges=deal.exchanges,
        winners=list(deal.winners),
    )


def wins(winners: Sequence[int]) -> list[int]:
    """Each seat's gain from a deal that ``winners`` won: one win each (as long as the largest table: a
    match takes its own seats)."""
    return [int(seat in winners) for seat in range(MAX_SEATS)]


def deal_wins(deal: DealResult) -> list[int]:
    """:func:`wins` of a finished deal."""
    return wins(deal.winners)


def wire_choice(position: MyShipSailsPosition, seat: int) -> MyShipSailsChoice | None:
    """The choice of ``seat`` in the step of ``position`` as the wire shows it (None: not chosen yet)."""
    if not position.chosen >> seat & 1:
        return None
    if position.declared >> seat & 1:
        return DECLARE_CHOICE
    return PASS_CHOICES[(position.hands[seat] & position.passed).bit_length() - 1]


def read_position(state: MyShipSailsState) -> MyShipSailsPosition:
    """The position of a (checked) wire state."""
    chosen = declared = passed = 0
    for seat, choice in enumerate(state.pending):
        if choice is not None:
            chosen |= 1 << seat
            if choice.card is None:
                declared |= 1 << seat
            else:
                passed |= 1 << CARD_INDEX[choice.card]
    match = MyShipSailsMatch.posted(state, deal_result, deal_wins)
    match.unused = state.unused
    hands = tuple(map(card_set, state.hands))
    return MyShipSailsPosition(hands, chosen, declared, passed, state.exchanges, state.phase, match, False)


def write_state(
    position: MyShipSailsPosition, deals: list[MyShipSailsDeal] | None = None
) -> MyShipSailsState:
    """The wire state of ``position``, whole (``deals``: the wire records of its match's finished deals,
    when the caller holds them; else made from the position's)."""
    match = position.match
    values: dict[str, Any] = {
        "game": "my-ship-sails",
        **match.state_fields(),
        "entropy": list(match.entropy),
        "phase": position.phase,
        "hands": [hand_names(hand) for hand in position.hands],
        "unused": list(match.unused),
        "pending": [wire_choice(position, seat) for seat in range(match.players)],
        "exchanges": position.exchanges,
        "deals": [wire_deal(deal) for deal in match.deals] if deals is None else deals,
    }
    return constructed(MyShipSailsState, **values)


def write_move(
    position: MyShipSailsPosition, state: MyShipSailsState, earlier: MyShipSailsPosition, move: int
) -> MyShipSailsState:
    """The wire state of ``position``, which the choice ``move`` made from ``earlier``, the position of
    ``state``: the state's fields with those the move changed written anew (the choice recorded; or the
    step resolved: the hands and the count after an exchange, the records and the phase at the deal's
    end)."""
    if position.chosen:  # the step goes on: the choice recorded
        pending = list(state.pending)
        choice = move & CHOICE_MASK
        pending[move >> SEAT_SHIFT] = DECLARE_CHOICE if choice == DECLARE else PASS_CHOICES[choice]
        return updated_from(state, {"pending": pending})
    changes: dict[str, object] = {}
    if position.exchanges != earlier.exchanges:
        changes["hands"] = [hand_names(hand) for hand in position.hands]
        changes["exchanges"] = position.exchanges
    match = position.match
    if match is not earlier.match:  # the deal's end
        changes["deals"] = [*state.deals, wire_deal(match.deals[-1])]
        changes["phase"] = position.phase
    changes["pending"] = [None] * len(position.hands)
    return updated_from(state, changes)


_SUIT_NAMES: list[dict[int, tuple[str, ...]]] = [{} for _ in SUIT_CARDS]
"""Per suit, the card names of each 13-bit set of that suit's cards met so far."""


def hand_names(hand: int) -> list[str]:
    """A hand as the wire lists it: card names in canonical order (what
    :func:`~sevens_rules.engine.card_sets.card_names` answers, with the four suits written out: every
    exchange writes every hand)."""
    clubs, diamonds, hearts, spades = _SUIT_NAMES
    names: list[str] = []
    part = hand & 0x1FFF
    if part:
        names += clubs.get(part) or _suit_names(0, part)
    part = hand >> SUIT_SIZE & 0x1FFF
    if part:
        names += diamonds.get(part) or _suit_names(1, part)
    part = hand >> 2 * SUIT_SIZE & 0x1FFF
    if part:
        names += hearts.get(part) or _suit_names(2, part)
    part = hand >> 3 * SUIT_SIZE
    if part:
        names += spades.get(part) or _suit_names(3, part)
    return names


def _suit_names(suit: int, part: int) -> tuple[str, ...]:
    """The names of the cards of ``suit`` whose ranks are the bits of ``part``, remembered."""
    found = _SUIT_NAMES[suit][part] = tuple(FULL_DECK[suit * SUIT_SIZE + rank] for rank in bits_of(part))
    return found


_SUIT_CODES: list[list[dict[int, tuple[int, ...]]]] = [[{} for _ in SUIT_CARDS] for _ in range(MAX_SEATS)]
"""Per seat and suit, the pass codes of each 13-bit set of that suit's cards met so far."""


def seat_codes(hand: int, seat: int) -> list[int]:
    """The move codes of ``seat`` choosing with ``hand``: pass each card, lowest first, then declare when
    the hand is one suit. Each suit's codes are read from a table filled as its sets are met, not bit by
    bit (the four suits written out: a loop over them cost a third more)."""
    clubs, diamonds, hearts, spades = _SUIT_CODES[seat]
    codes: list[int] = []
    part = hand & 0x1FFF
    if part:
        codes += clubs.get(part) or _suit_codes(seat, 0, part)
    part = hand >> SUIT_SIZE & 0x1FFF
    if part:
        codes += diamonds.get(part) or _suit_codes(seat, 1, part)
    part = hand >> 2 * SUIT_SIZE & 0x1FFF
    if part:
        codes += hearts.get(part) or _suit_codes(seat, 2, part)
    part = hand >> 3 * SUIT_SIZE
    if part:
        codes += spades.get(part) or _suit_codes(seat, 3, part)
    if SUIT_OF[(hand & -hand).bit_length() - 1] == SUIT_OF[hand.bit_length() - 1]:  # (one_suit, inline)
        codes.append(seat << SEAT_SHIFT | DECLARE)
    return codes


def _suit_codes(seat: int, suit: int, part: int) -> tuple[int, ...]:
    """The pass codes of ``seat`` for the cards of ``suit`` whose ranks are the bits of ``part``,
    remembered."""
    base = seat << SEAT_SHIFT | suit * SUIT_SIZE
    found = _SUIT_CODES[seat][suit][part] = tuple(base + rank for rank in bits_of(part))
    return found


def deal_cards(cards: Sequence[str], players: int, dealer: int) -> tuple[tuple[int, ...], list[str]]:
    """Seven cards each, one at a time clockwise from the dealer's left, from ``cards`` (top first): the
    hands, and the cards not dealt in canonical order."""
    dealt = HAND_SIZE * players
    first = dealer + 1
    # the seat p places after the first takes every ``players``-th card from the p-th
    hands = [0] * players
    for place in range(players):
        hands[(first + place) % players] = card_set(cards[place:dealt:players])
    return tuple(hands), card_names(card_set(cards[dealt:]))  # (unused: not one hand, any number of cards)
