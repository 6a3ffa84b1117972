"""Match equity: the chance that a side wins a match played to a target from the totals at a deal's end.

The search scores a playout by what it did to the match. In most games a deal's margin says that well
enough; in Seven-Up, two sides race to 7 points a few points a deal, and a point is worth more when it
brings a side to the target or keeps the other from it: at 6 to 5 the next deal decides the match, at
0 to 0 it is a seventh of the way. There a playout that ends its deal is scored by the equity of the
totals it reached: each side's chance to win the match from them, as if every later deal scored as the
deals between two ``rules`` bots do (:data:`DEAL_POINTS`). Backgammon players call such a table a match
equity table.

``python -m bench bots --unit match`` measured it against the margin on the same seeds (bench/README.md,
"Match equity"): better in two-seat Seven-Up, likely better in Four-handed Seven-Up; in California Jack
(to 10) it measured worse on the seeds run, so that table keeps the margin and is not listed here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from ..match import MATCH_OVER
from ..seven_up_points import SevenUpPoints
from ..simulate import position_rules
from .position import AnyGame

DEAL_POINTS: Mapping[tuple[str, int], Mapping[tuple[int, int], int]] = {
    ("seven-up", 2): {
        (0, 1): 408, (0, 2): 191, (0, 3): 619, (0, 4): 170, (1, 0): 138, (1, 1): 295, (1, 2): 1094,
        (1, 3): 526, (1, 4): 4, (2, 0): 89, (2, 1): 917, (2, 2): 866, (2, 3): 55, (3, 0): 197,
        (3, 1): 859, (3, 2): 170, (4, 0): 139, (4, 1): 156, (5, 0): 3,
    },
    ("four-handed-seven-up", 4): {
        (0, 1): 374, (0, 2): 193, (0, 3): 408, (0, 4): 288, (0, 5): 16, (1, 0): 147, (1, 1): 239,
        (1, 2): 743, (1, 3): 726, (1, 4): 61, (2, 0): 73, (2, 1): 577, (2, 2): 903, (2, 3): 125,
        (3, 0): 194, (3, 1): 733, (3, 2): 210, (4, 0): 216, (4, 1): 200, (5, 0): 6,
    },
}  # fmt: skip
"""Per table of two sides: how many deals between two ``rules`` bots scored (the dealer's side's points,
the other side's points), deals that scored nothing left out (``python -m bench.deal_points``, 2,000
matches each, seeds from 100,000)."""


DealChances = tuple[tuple[int, int, float], ...]
"""What a deal scores and how likely: (the dealer's side's points, the other side's points, chance), the
deals that score nothing left out (they change neither the totals nor, for the equity, the dealer)."""


def deal_chances(counted: Mapping[tuple[int, int], int]) -> DealChances:
    """The :data:`DealChances` of deals counted as :data:`DEAL_POINTS` counts them."""
    total = sum(counted.values())
    return tuple((dealers, others, count / total) for (dealers, others), count in sorted(counted.items()))


CHANCES: Mapping[tuple[str, int], DealChances] = {
    key: deal_chances(deals) for key, deals in DEAL_POINTS.items()
}
""":data:`DEAL_POINTS` as :data:`DealChances`."""


@cache
def match_equity(chances: DealChances, target: int, ours: int, theirs: int, dealing: bool) -> float:
    """The chance that a side with ``ours`` points wins against a side with ``theirs`` a match to
    ``target`` whose deals score as ``chances`` says, when the next deal is dealt by a seat of that side
    (``dealing``) or of the other. The sides deal in turn; a deal that takes both sides to the target
    counts half (its points are counted in an order the chances do not keep)."""
    if ours >= target or theirs >= target:
        return 0.5 if ours >= target and theirs >= target else float(ours >= target)
    equity = 0.0
    for dealers, others, chance in chances:
        gained, lost = (dealers, others) if dealing else (others, dealers)
        equity += chance * match_equity(chances, target, ours + gained, theirs + lost, not dealing)
    return equity


def has_equity(game: AnyGame, players: int) -> bool:
    """Whether the search scores ``game`` at ``players`` seats by match equity (:func:`equity_rewards`)."""
    return (game.id, players) in DEAL_POINTS


def equity_rewards(game: AnyGame, before: Sequence[int], state: Any) -> list[float]:
    """Each seat's reward for a playout of ``game`` (a table of :data:`DEAL_POINTS`) that went from totals
    ``before`` to ``state``, a position: its side's win (1) or loss (0) when the playout ended the match,
    else its side's :func:`match_equity` from the totals reached (a deal cut short counts as ended).
    Partners sit opposite: the other side's seat is the next one."""
    rules = position_rules(game)
    assert rules is not None and isinstance(game, SevenUpPoints)  # (the games of DEAL_POINTS)
    players = len(before)
    if state.phase == MATCH_OVER:
        winners = rules.position_outcome(state).winners
        return [float(seat in winners) for seat in range(players)]
    totals = rules.position_totals(state)
    chances, target = CHANCES[game.id, players], game.target
    dealer = (state.match.dealer + 1) % players  # the next deal's (a throw-in's dealer deals again)
    return [
        match_equity(chances, target, totals[seat], totals[(seat + 1) % players], (dealer - seat) % 2 == 0)
        for seat in range(players)
    ]
