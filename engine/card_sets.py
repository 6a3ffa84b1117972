"""Sets of cards as ints: the representation every game's position is built on.

A card is its index in :data:`~sevens_rules.engine.cards.FULL_DECK` (suit by suit, Clubs to Spades, each
from the Ace to the King: ``suit * 13 + rank``, rank 0 the Ace), its *code*; a set of cards is an int with
each card's bit set, so a set's cards in canonical order are its bits from the lowest. Sedmice's 32-card
sets use the codes of the same cards in the full deck's order.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import FULL_DECK

SUIT_SIZE = 13
"""Cards per suit of the 52-card deck (a suit's codes are ``suit * SUIT_SIZE`` and the twelve after)."""
CARD_INDEX = {card: index for index, card in enumerate(FULL_DECK)}
"""Each card's code (the bit it is in a set of cards)."""
CARD_BIT = {card: 1 << index for index, card in enumerate(FULL_DECK)}
"""Each card's bit: the set of that card alone."""
ALL_CARDS = (1 << len(FULL_DECK)) - 1
"""The set of every card."""
SUITS = tuple(((1 << SUIT_SIZE) - 1) << (suit * SUIT_SIZE) for suit in range(4))
"""Each suit's cards, Clubs to Spades."""
RANK_ROW = tuple(sum(1 << (suit * SUIT_SIZE + rank) for suit in range(4)) for rank in range(SUIT_SIZE))
"""``RANK_ROW[rank]``: the four cards of a rank (0 the Aces, 12 the Kings)."""

_PART_BITS = 13
"""A set of cards is read in parts of this many bits: a suit of the 52-card deck (Sedmice's 32-card sets
fit in its first three parts)."""
_PART = (1 << _PART_BITS) - 1
_CODES_OF_PART = tuple(
    tuple(
        tuple(part * _PART_BITS + bit for bit in range(_PART_BITS) if value >> bit & 1)
        for value in range(_PART + 1)
    )
    for part in range(4)
)
"""For each of the four parts, the codes of every value of its bits, lowest first."""


def bits_of(cards: int) -> list[int]:
    """The codes of a set of cards (codes below 52), lowest first (canonical order)."""
    if not cards & (cards - 1):  # none or one card (common, and cheaper than four lookups)
        return [cards.bit_length() - 1] if cards else []
    first, second, third, fourth = _CODES_OF_PART
    return [
        *first[cards & _PART],
        *second[cards >> _PART_BITS & _PART],
        *third[cards >> 2 * _PART_BITS & _PART],
        *fourth[cards >> 3 * _PART_BITS],
    ]


def card_set(cards: Sequence[str]) -> int:
    """The set of ``cards``, distinct cards (as every list of a checked state or deck holds): their bits
    added up without a Python loop."""
    return sum(map(CARD_BIT.__getitem__, cards))


def card_codes(cards: Sequence[str]) -> tuple[int, ...]:
    """``cards`` as their codes, in their order."""
    return tuple(map(CARD_INDEX.__getitem__, cards))


_SUIT_CARDS: list[dict[int, tuple[str, ...]]] = [{} for _ in range(4)]
"""Per suit, the card names of each 13-bit set of that suit's ranks met so far."""


def card_names(cards: int) -> list[str]:
    """A set of cards as the wire lists it: card names in canonical order. Each suit's part is read from
    a table filled as its sets are met (at most 8,192 per suit), not bit by bit."""
    names: list[str] = []
    for suit, known in enumerate(_SUIT_CARDS):
        part = (cards >> (suit * SUIT_SIZE)) & 0x1FFF
        if part:
            found = known.get(part)
            if found is None:
                found = known[part] = tuple(FULL_DECK[suit * SUIT_SIZE + rank] for rank in bits_of(part))
            names += found
    return names
