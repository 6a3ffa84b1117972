"""Cards, decks and the documented seeded shuffle.

A card on the wire is two characters, rank then suit (``7H``, ``TD``). Inside the engine a card is an
index ``suit * 13 + rank`` with suits ordered C, D, H, S and ranks A=0, 2=1, ..., K=12.

The shuffle is specified so that any client in any language can reproduce a deal:

1. Take the deck in canonical order: ``AC 2C ... KC AD ... KD AH ... KH AS ... KS`` (for a 32-card deck,
   the same order restricted to ranks 7 8 9 T J Q K A, i.e. ``7C 8C 9C TC JC QC KC AC 7D ...``).
2. Seed a SplitMix64 generator with ``(seed + deal_index * 0x9E3779B97F4A7C15) mod 2**64``, where
   ``deal_index`` is 0 for the first deal of the match, 1 for the second, and so on. Each call adds
   ``0x9E3779B97F4A7C15`` to the 64-bit state ``s`` and returns ``z`` computed as
   ``z = s; z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9; z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
   z = z ^ (z >> 31)`` (all mod 2**64).
3. Fisher-Yates from the end: for ``i`` from ``len-1`` down to 1, draw ``j`` uniformly in ``0..i`` and swap
   positions ``i`` and ``j``. A uniform ``j`` in ``0..i`` is ``x mod (i+1)`` for the first output ``x``
   below ``2**64 - (2**64 mod (i+1))`` (outputs at or above that bound are skipped).
4. The result is the deck top card first: dealing takes cards from the front.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

RANKS = "A23456789TJQK"
"""Rank letters, Ace low: index 0 is the Ace, index 12 the King."""
SUITS = "CDHS"
"""Suit letters in canonical order."""

FULL_DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
"""The 52 cards in canonical order."""

PIQUET_RANKS = "789TJQKA"
"""Ranks of the 32-card deck, in canonical order."""
PIQUET_DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in PIQUET_RANKS)
"""The 32 cards (7 to Ace of each suit) in canonical order."""

_MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def rank_of(card: str) -> int:
    """Rank index of a card, Ace low: ``A`` is 0, ``7`` is 6, ``K`` is 12."""
    return RANKS.index(card[0])


def suit_of(card: str) -> str:
    """Suit letter of a card."""
    return card[1]


def card(rank: int, suit: str) -> str:
    """The card of rank index ``rank`` (Ace low) in ``suit``."""
    return RANKS[rank] + suit


class SplitMix64:
    """The SplitMix64 generator, exactly as documented in this module."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + _GAMMA) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A uniform integer in ``0..bound-1`` by rejection sampling."""
        limit = (1 << 64) - ((1 << 64) % bound)
        while True:
            x = self.next()
            if x < limit:
                return x % bound


def shuffled(deck: Sequence[str], seed: int, deal_index: int = 0) -> list[str]:
    """The deck shuffled for deal ``deal_index`` of a match seeded with ``seed``; top card first."""
    rng = SplitMix64(seed + deal_index * _GAMMA)
    cards = list(deck)
    for i in range(len(cards) - 1, 0, -1):
        j = rng.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def sort_cards(cards: Iterable[str], deck: Sequence[str] = FULL_DECK) -> list[str]:
    """Cards in canonical deck order (by suit, then rank)."""
    order = {c: i for i, c in enumerate(deck)}
    return sorted(cards, key=order.__getitem__)


def deal_round_robin(deck: Sequence[str], players: int, first: int, counts: Sequence[int]) -> list[list[str]]:
    """Deal one card at a time clockwise from seat ``first`` until seat ``s`` holds ``counts[s]`` cards.

    Cards come from the front of ``deck``; returns the hands by seat.
    """
    hands: list[list[str]] = [[] for _ in range(players)]
    position = 0
    seat = first
    remaining = sum(counts)
    while remaining:
        if len(hands[seat]) < counts[seat]:
            hands[seat].append(deck[position])
            position += 1
            remaining -= 1
        seat = (seat + 1) % players
    return hands
