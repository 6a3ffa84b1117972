"""Sedmice's tricks and hits (RULINGS §5; the game is :mod:`sevens_rules.engine.sedmice`): which card
answers a lead, who takes a trick, the points in cards and the hits of a deal. The rules and the
consistency checks (:mod:`sevens_rules.engine.sedmice_checks`) both count with these."""

from __future__ import annotations

from collections.abc import Sequence

from ..schema.sedmice import SedmiceDeal, SedmiceHitReason

HAND_SIZE = 4
"""Cards each player holds after every refill while the stock lasts."""
DEAL_POINTS = 80
"""Points in a deal: four aces and four tens, 10 each."""
SIDES = 2
"""Both table sizes have two sides."""

_POINT_RANKS = frozenset("AT")


def answers(card: str, led_rank: str) -> bool:
    """Whether ``card`` answers a lead of rank ``led_rank``: the same rank, or any 7 (sevens are wild)."""
    return card[0] == led_rank or card[0] == "7"


def points(cards: Sequence[str]) -> int:
    """Points in ``cards``: 10 for each ace and each ten."""
    return 10 * sum(1 for c in cards if c[0] in _POINT_RANKS)


def trick_winner(trick: Sequence[Sequence[str]], leader: int, players: int) -> int:
    """The seat that would take ``trick`` now: the last seat whose card answered the led card.

    Every round starts with the leader, so card ``i`` of a round was played by ``leader + i``. The led card
    answers itself, which leaves the trick to the leader when nobody else answered.
    """
    led_rank = trick[0][0][0]
    for round_ in reversed(trick):
        for i in range(len(round_) - 1, -1, -1):
            if answers(round_[i], led_rank):
                return (leader + i) % players
    return leader  # unreachable for a non-empty trick: the led card answers


def hits_of(
    deal_points: Sequence[int], tricks: Sequence[int], last_side: int
) -> tuple[int, int, SedmiceHitReason]:
    """The deal's hits: ``(side, hits, reason)``, the largest case that applies.

    3 for the side that took every trick, else 2 for the side with all 80 points, else 1 for the side
    with more points, and at a tie 1 for the side of the last trick's taker.
    """
    for side in range(SIDES):
        if tricks[1 - side] == 0:
            return side, 3, SedmiceHitReason.all_tricks
    for side in range(SIDES):
        if deal_points[side] == DEAL_POINTS:
            return side, 2, SedmiceHitReason.all_points
    if deal_points[0] != deal_points[1]:
        return (0 if deal_points[0] > deal_points[1] else 1), 1, SedmiceHitReason.more_points
    return last_side, 1, SedmiceHitReason.tie_last_trick


def hit_totals(deals: Sequence[SedmiceDeal]) -> list[int]:
    """Hits per side over ``deals``."""
    totals = [0, 0]
    for deal in deals:
        totals[0] += deal.hits[0]
        totals[1] += deal.hits[1]
    return totals
