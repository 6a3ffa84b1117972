"""Sedmice's internal representation: a :class:`SedmicePosition` of ints and card bitmasks that the rules
(:mod:`sevens_rules.engine.sedmice`) run on, and the conversions to and from the wire state.

A card is its index in :data:`~sevens_rules.engine.cards.PIQUET_DECK` (suit by suit, Clubs to Spades,
each from the 7 to the Ace: ``suit * 8 + rank``, rank 0 the 7 and 7 the Ace), a set of cards is an int
with the card's bit set (32 bits), so a hand's cards in canonical order are its bits from the lowest.
The piles the rules only move cards out of or into (the stock, drawn from the top; the taken piles,
counted once at the deal's end) keep the cards' names, in their order: they cross the wire boundary
as they are, where converting them was most of the cost of reading a posted state.

A move is a small int, made by the seat to act: the card played (:data:`PLAY` plus the card, which is the
card itself), the card extended with (:data:`EXTEND` plus the card), :data:`END_TRICK` or
:data:`NEXT_DEAL`. Play and extension have codes of their own so that a code names its wire move alone.

A position is built from a wire state once (:func:`read_position`) and written back once
(:func:`write_state`, or :mod:`~sevens_rules.engine.sedmice_wire`'s writes of one move).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..schema.common import Phase
from ..schema.sedmice import SedmiceDeal, SedmiceHitReason, SedmiceOptions, SedmiceState
from .card_sets import bits_of
from .cards import PIQUET_DECK
from .match import PLAY_PHASE
from .models import constructed
from .positions import RecordedMatch

SUIT_SIZE = 8
"""Cards of a suit in the 32-card deck, 7 to Ace."""
CARD_INDEX = {card: index for index, card in enumerate(PIQUET_DECK)}
"""Each card's index (the bit it is in a set of cards)."""
CARD_BIT = {card: 1 << index for index, card in enumerate(PIQUET_DECK)}
"""Each card's bit."""
RANK_ROW = tuple(sum(1 << (suit * SUIT_SIZE + rank) for suit in range(4)) for rank in range(SUIT_SIZE))
"""``RANK_ROW[rank]``: the four cards of a rank (0 the 7s, 3 the tens, 7 the Aces)."""
SEVENS = RANK_ROW[0]
POINT_CARDS = RANK_ROW[3] | RANK_ROW[7]
"""The tens and the Aces, 10 points each."""
ANSWERING = tuple(RANK_ROW[card % SUIT_SIZE] | SEVENS for card in range(len(PIQUET_DECK)))
"""``ANSWERING[card]``: the cards that answer ``card`` led (its rank and every 7; a led 7: the 7s)."""

PLAY = 0
"""The move code of playing card ``c`` is ``PLAY + c``: the card's own index."""
EXTEND = 32
"""The move code of extending with card ``c`` is ``EXTEND + c``."""
END_TRICK = 64
NEXT_DEAL = 65
"""The move code of ``next_deal`` (the seeded shuffle: a deck given over the wire is the wire's)."""


class DealResult(NamedTuple):
    """A finished deal as the rules record it (the wire's :class:`SedmiceDeal`); per-side values by side."""

    number: int
    dealer: int
    points: tuple[int, int]
    tricks: tuple[int, int]
    last_trick: int
    hits: tuple[int, int]
    side: int
    reason: SedmiceHitReason


class SedmiceMatch(RecordedMatch[DealResult]):
    """What stays the same for a whole deal: the table size, the dealer, the finished deals (the hits
    their records hold are added up once) and their hits, the options and the seed. Never changed once
    made; shared by every position of the deal."""

    __slots__ = ("hits", "losing_only", "target")
    options: SedmiceOptions

    def __init__(
        self,
        players: int,
        dealer: int,
        deal_number: int,
        recorded: Sequence[SedmiceDeal],
        finished: tuple[DealResult, ...],
        hits: tuple[int, int],
        options: SedmiceOptions,
        seed: str,
        entropy: Sequence[str],
        commitment: str,
    ) -> None:
        super().__init__(players, recorded, finished, dealer, deal_number, options, seed, entropy, commitment)
        self.hits = hits
        """Each side's hits over every finished deal."""
        self.losing_only = options.extend_only_when_losing
        """The option ``extend_only_when_losing`` (read at every decision after a full round)."""
        self.target = options.target_hits


@dataclass(slots=True, eq=False)
class SedmicePosition:
    """One moment of a Sedmice match: what a move changes, and the deal's :class:`SedmiceMatch`. Never
    changed once made: a move makes a new one.

    The trick on the table is :attr:`played`, its cards in play order: every round but the last is full
    (one card per seat, the leader's first), so card ``k`` was played by ``leader + k`` (mod the table
    size) in round ``k // players``."""

    hands: tuple[int, ...]
    stock: Sequence[str]
    """The face-down stock, top card first (card names)."""
    played: tuple[int, ...]
    """The trick on the table: its cards in play order (empty between tricks)."""
    answering: int
    """The cards that answer the trick's led card (0 without a trick)."""
    winner: int
    """The seat that would take the trick now: the last whose card answered (the leader without a
    trick)."""
    leader: int
    """The leader of the trick on the table or of the next one; after a deal, its last taker."""
    turn: int | None
    taken: tuple[Sequence[str], Sequence[str]]
    """Each side's taken cards this deal, in the order they were taken (card names)."""
    tricks: tuple[int, int]
    """Each side's tricks this deal."""
    phase: Phase
    match: SedmiceMatch


def card_set(cards: Sequence[str]) -> int:
    """The set of ``cards`` (distinct cards, as every list of a checked state holds)."""
    return sum(map(CARD_BIT.__getitem__, cards))


_SUIT_NAMES = tuple(
    tuple(tuple(PIQUET_DECK[suit * SUIT_SIZE + rank] for rank in bits_of(part)) for part in range(256))
    for suit in range(4)
)
"""``_SUIT_NAMES[suit][part]``: the card names of the set ``part`` of that suit's 8 ranks."""


def card_names(cards: int) -> list[str]:
    """A set of cards as the wire lists a hand: card names in canonical order, read suit by suit from a
    table made once (1,024 entries)."""
    names: list[str] = []
    for suit in range(4):
        part = (cards >> (suit * SUIT_SIZE)) & 0xFF
        if part:
            names += _SUIT_NAMES[suit][part]
    return names


def points_of(cards: Sequence[int]) -> int:
    """Points in ``cards`` (codes): 10 for each ten and each Ace."""
    return 10 * len(_POINT_CODES.intersection(cards))


def points_in(names: Sequence[str]) -> int:
    """Points in the cards named ``names``: 10 for each ten and each Ace."""
    return 10 * len(_POINT_NAMES.intersection(names))


_POINT_CODES = frozenset(bits_of(POINT_CARDS))
_POINT_NAMES = frozenset(PIQUET_DECK[card] for card in _POINT_CODES)


def wire_deal(deal: DealResult) -> SedmiceDeal:
    """The wire record of a finished deal (made without validation: every value is the engine's own)."""
    return constructed(
        SedmiceDeal,
        number=deal.number,
        dealer=deal.dealer,
        points=list(deal.points),
        tricks=list(deal.tricks),
        last_trick=deal.last_trick,
        hits=list(deal.hits),
        side=deal.side,
        reason=deal.reason,
    )


def trick_state(played: Sequence[int], leader: int, players: int) -> tuple[int, int]:
    """The cards answering the led card of a trick's cards ``played`` (in play order) and the seat that
    would take it: the last whose card answered (the led card answers itself)."""
    if not played:
        return 0, leader
    answering = ANSWERING[played[0]]
    winner = leader
    for index, card in enumerate(played):
        if answering >> card & 1:
            winner = (leader + index) % players
    return answering, winner


def read_position(state: SedmiceState) -> SedmicePosition:
    """The position of a checked wire state."""
    bit = CARD_BIT.__getitem__
    hands = state.hands
    players = len(hands)
    recorded = state.deals
    first = second = 0
    for deal in recorded:
        hits = deal.hits
        first += hits[0]
        second += hits[1]
    match = SedmiceMatch(
        players,
        state.dealer,
        state.deal_number,
        recorded,
        (),
        (first, second),
        state.options,
        state.seed,
        state.entropy,
        state.commitment,
    )
    leader = state.leader
    trick = state.trick
    if trick:
        played = tuple(CARD_INDEX[card] for round_ in trick for card in round_)
        answering, winner = trick_state(played, leader, players)
    else:  # between tricks
        played, answering, winner = (), 0, leader
    phase = state.phase
    taken = state.taken
    tricks = state.tricks
    return SedmicePosition(
        tuple([sum(map(bit, hand)) for hand in hands]),
        state.stock,
        played,
        answering,
        winner,
        leader,
        (leader + len(played)) % players if phase is PLAY_PHASE else None,
        (taken[0], taken[1]),
        (tricks[0], tricks[1]),
        phase,
        match,
    )


def rounds_of(played: Sequence[int], players: int) -> list[list[str]]:
    """The wire trick of a trick's cards ``played``: rounds of ``players`` cards, the last maybe short."""
    return [
        [PIQUET_DECK[card] for card in played[start : start + players]]
        for start in range(0, len(played), players)
    ]


def write_state(position: SedmicePosition) -> SedmiceState:
    """The wire state of ``position``, every field written anew."""
    match = position.match
    deals = [*match.recorded, *map(wire_deal, match.finished)]
    taken = position.taken
    values: dict[str, Any] = {
        "game": "sedmice",
        **match.state_fields(),
        "entropy": list(match.entropy),
        "phase": position.phase,
        "leader": position.leader,
        "hands": [card_names(hand) for hand in position.hands],
        "stock": list(position.stock),
        "trick": rounds_of(position.played, match.players),
        "taken": [list(taken[0]), list(taken[1])],
        "tricks": list(position.tricks),
        "deals": deals,
    }
    return constructed(SedmiceState, **values)
