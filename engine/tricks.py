"""Shared helpers of trick-taking games: card strength, the following rule, the trick winner, card points.

Cards are the wire strings (``"TD"``). Strength is Ace high unless a game passes its own rank order
(``order``: rank letters from lowest to highest). A game of the All Fours kind uses :data:`ACE_HIGH`
and :data:`GAME_POINTS`; a later trick game may pass another order or point table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

ACE_HIGH = "23456789TJQKA"
"""Rank letters from lowest to highest, Ace high."""

_ACE_HIGH_STRENGTH = {r: i for i, r in enumerate(ACE_HIGH)}

CARD_STRENGTH: Mapping[str, int] = {r + suit: i for suit in "CDHS" for i, r in enumerate(ACE_HIGH)}
"""``CARD_STRENGTH[card]``: the strength of ``card`` within its suit, Ace high (:func:`strength` of the card),
read from one table: ``max(cards, key=CARD_STRENGTH.__getitem__)`` finds the strongest of cards of one suit
without a Python call per card."""

GAME_POINTS: Mapping[str, int] = {"A": 4, "K": 3, "Q": 2, "J": 1, "T": 10}
"""Card points of the All Fours family's "Game": A 4, K 3, Q 2, J 1, T 10, other ranks 0."""


_SUIT_CARDS: Mapping[str, frozenset[str]] = {
    suit: frozenset(rank + suit for rank in ACE_HIGH) for suit in "CDHS"
}
"""``_SUIT_CARDS[suit letter]``: every card of that suit (``card[1] == suit``)."""


def strength_table(order: str = ACE_HIGH) -> dict[str, int]:
    """Rank letter -> strength (0 lowest) for a rank order given lowest first."""
    return {r: i for i, r in enumerate(order)}


def strength(card: str, order: str = ACE_HIGH) -> int:
    """The strength of ``card`` within its suit (0 lowest)."""
    return _rank_strength(order)(card[0])


def _rank_strength(order: str) -> Callable[[str], int]:
    """The strength of a rank letter in ``order``: read from a table for Ace high (what every trick of the
    All Fours games asks), else its position in ``order``. The functions comparing several cards fetch
    it once rather than calling :func:`strength` per card."""
    if order is ACE_HIGH:
        return _ACE_HIGH_STRENGTH.__getitem__
    return order.index


def legal_follows(
    hand: Sequence[str], led: str | None, trump: str | None, may_trump_when_able_to_follow: bool = False
) -> list[str]:
    """The cards of ``hand`` that may be played to a trick whose led suit is ``led`` (None: leading).

    Whist rule: a player holding the led suit must play it, otherwise any card. With
    ``may_trump_when_able_to_follow`` (the All Fours rule) a player who can follow may trump instead.
    The result keeps the hand's order.
    """
    if led is None:
        return list(hand)
    # the cards of the led suit picked by a set's membership test in C: a comprehension costs a Python
    # step per card and a call of its own, and every play of a random playout asks this twice
    follows = list(filter(_SUIT_CARDS[led].__contains__, hand))
    if not follows:
        return list(hand)
    if may_trump_when_able_to_follow and trump is not None and trump != led:
        return [c for c in hand if c[1] == led or c[1] == trump]
    return follows


def trick_winner_index(cards: Sequence[str], trump: str | None, order: str = ACE_HIGH) -> int:
    """Index in ``cards`` (play order, leader first) of the winning card: highest trump, else highest
    card of the led suit. ``cards`` must not be empty."""
    # the strengths of Ace high read from their table (every trick of the All Fours games), without a call
    # per card
    strengths = _ACE_HIGH_STRENGTH if order is ACE_HIGH else strength_table(order)
    best = 0
    for i in range(1, len(cards)):
        c, b = cards[i], cards[best]
        if c[1] == b[1]:
            if strengths[c[0]] > strengths[b[0]]:
                best = i
        elif c[1] == trump:
            # a trump beats the best so far, which is not a trump (the suits differ)
            best = i
        # a card of another suit that is not trump never wins
    return best


def trick_winner(
    cards: Sequence[str], leader: int, players: int, trump: str | None, order: str = ACE_HIGH
) -> int:
    """The seat winning a complete trick led by ``leader`` (seats play clockwise from the leader)."""
    return (leader + trick_winner_index(cards, trump, order)) % players


def card_points(cards: Iterable[str], points: Mapping[str, int] = GAME_POINTS) -> int:
    """Sum of the card points of ``cards`` (ranks missing from ``points`` count 0)."""
    return sum([points.get(c[0], 0) for c in cards])


def highest(cards: Iterable[str], suit: str, order: str = ACE_HIGH) -> str | None:
    """The strongest card of ``suit`` among ``cards``; None when there is none."""
    # the cards of the suit picked, and the strongest of them found, in C (a suit's cards never tie); the
    # suit's first letter is a plain string even when ``suit`` is a ``Suit`` member, whose hash is Python code
    suited = list(filter(_SUIT_CARDS[suit[0]].__contains__, cards))
    return max(suited, key=_card_strength(order), default=None)


def lowest(cards: Iterable[str], suit: str, order: str = ACE_HIGH) -> str | None:
    """The weakest card of ``suit`` among ``cards``; None when there is none."""
    suited = list(filter(_SUIT_CARDS[suit[0]].__contains__, cards))
    return min(suited, key=_card_strength(order), default=None)


def _card_strength(order: str) -> Callable[[str], int]:
    """The strength of a card within its suit in ``order``: read from :data:`CARD_STRENGTH` for Ace high."""
    if order is ACE_HIGH:
        return CARD_STRENGTH.__getitem__
    rank_strength = order.index
    return lambda card: rank_strength(card[0])


def unique_best(values: Sequence[int]) -> int | None:
    """The index of the single largest value; None when it is shared (a tie) or ``values`` is empty."""
    if not values:
        return None
    # counted and found in C: a comprehension over the values is a Python call of its own
    top = max(values)
    return values.index(top) if values.count(top) == 1 else None
