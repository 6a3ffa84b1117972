"""Cards, decks and dealing them out.

A card on the wire is two characters, rank then suit (``7H``, ``TD``). Inside the engine a card is an
index ``suit * 13 + rank`` with suits ordered C, D, H, S and ranks A=0, 2=1, ..., K=12.

The canonical order of a deck is the order the seeded shuffle (``engine/dealing.py``) starts from:
``AC 2C ... KC AD ... KD AH ... KH AS ... KS``; for the 32-card deck the same order restricted to ranks
7 8 9 T J Q K A, i.e. ``7C 8C 9C TC JC QC KC AC 7D ...``.
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


def rank_of(card: str) -> int:
    """Rank index of a card, Ace low: ``A`` is 0, ``7`` is 6, ``K`` is 12."""
    return RANKS.index(card[0])


def suit_of(card: str) -> str:
    """Suit letter of a card."""
    return card[1]


def card(rank: int, suit: str) -> str:
    """The card of rank index ``rank`` (Ace low) in ``suit``."""
    return RANKS[rank] + suit


def sort_cards(cards: Iterable[str], deck: Sequence[str] = FULL_DECK) -> list[str]:
    """Cards in canonical deck order (by suit, then rank)."""
    order = _DECK_ORDERS.get(deck) if isinstance(deck, tuple) else None
    if order is None:
        order = {c: i for i, c in enumerate(deck)}
    return sorted(cards, key=order.__getitem__)


_DECK_ORDERS: dict[tuple[str, ...], dict[str, int]] = {
    deck: {c: i for i, c in enumerate(deck)} for deck in (FULL_DECK, PIQUET_DECK)
}
"""Each standard deck's position of every card, built once (every deal sorts every hand): any other deck
(a list, a shorter tuple) gets its table built per call as before."""


def deal_round_robin(deck: Sequence[str], players: int, first: int, counts: Sequence[int]) -> list[list[str]]:
    """Deal one card at a time clockwise from seat ``first`` until seat ``s`` holds ``counts[s]`` cards.

    Cards come from the front of ``deck``; returns the hands by seat.
    """
    hands: list[list[str]] = [[] for _ in range(players)]
    by_position = [counts[(first + p) % players] for p in range(players)]
    falls_once = (
        by_position == sorted(by_position, reverse=True) and by_position[0] - by_position[-1] <= 1
        if players
        else False
    )
    if falls_once and len(deck) >= sum(counts):
        # Every deal of the registry: going round from ``first``, the counts fall by one card at most, and
        # once. Then no seat is full while a seat before it still takes a card: each round gives a card to
        # every seat in turn, but the last, which stops at the first seat with one card fewer. The seat at
        # position p takes every ``players``-th card from the p-th, which a slice reads without a loop.
        for position, count in enumerate(by_position):
            hands[(first + position) % players] = list(deck[position : position + players * count : players])
        return hands
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
