"""Uniform draws of cards into piles when each card may only go to some of the piles: what the sampler
(:mod:`.sampler`) deals the hidden cards with, whatever the game.

The draws are exact, not by rejection: cards allowed into the same piles form a class, the ways to
complete the piles from each class on are counted (big integers, remembered by the places left), and a
class's split over its piles is drawn in proportion to the completions it leaves.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from functools import lru_cache


class ConstrainedDeal:
    """Uniform draws of ``cards`` into piles of the given ``sizes`` (filled exactly), each card only into
    the piles ``allowed`` lets it go to (None: any pile)."""

    def __init__(
        self,
        cards: Sequence[str],
        sizes: Sequence[int],
        allowed: Sequence[Callable[[str], bool] | None],
    ) -> None:
        self.cards = list(cards)
        self.pile_sizes = tuple(sizes)
        if len(self.cards) != sum(self.pile_sizes):
            raise ValueError("the piles do not hold as many cards as there are")
        # Piles under the same rule are counted and drawn as one (their sizes added): a uniform draw for
        # the merged pile, split uniformly among its piles, is uniform for the piles. Fewer piles make
        # far fewer splits to count.
        groups: dict[Callable[[str], bool] | None, list[int]] = {}
        for pile, rule in enumerate(allowed):
            groups.setdefault(rule, []).append(pile)
        self.groups = list(groups.values())
        rules = list(groups)
        self.sizes = tuple(sum(self.pile_sizes[p] for p in group) for group in self.groups)
        classes: dict[tuple[int, ...], list[str]] = {}
        for card in self.cards:
            mask = tuple(i for i, rule in enumerate(rules) if rule is None or rule(card))
            classes.setdefault(mask, []).append(card)
        # the largest class last: the last class fills what is left, in one way, so the splits counted
        # and drawn are those of the smaller classes (the order is fixed by the classes alone)
        self.classes = sorted(classes.items(), key=lambda item: (len(item[1]), item[0]))
        self._ways: dict[tuple[int, tuple[int, ...]], int] = {}
        self.total = self._count(0, self.sizes) * math.prod(
            _multinomial(size, [self.pile_sizes[p] for p in group])
            for group, size in zip(self.groups, self.sizes, strict=True)
        )
        """The number of consistent assignments."""
        self.sole_class = len(self.sizes) == 1  # one merged pile: every card may go anywhere

    def _count(self, index: int, caps: tuple[int, ...]) -> int:
        """Ways to place classes ``index``... into piles with ``caps`` free places (filled exactly)."""
        if index == len(self.classes):
            return 1 if not any(caps) else 0
        key = (index, caps)
        known = self._ways.get(key)
        if known is None:
            known = self._ways[key] = sum(weight for _, _, weight in self._splits_of(index, caps))
        return known

    def _splits_of(
        self, index: int, caps: tuple[int, ...]
    ) -> list[tuple[tuple[int, ...], tuple[int, ...], int]]:
        """Each split of class ``index`` over its piles that the later classes can complete, with the
        capacities it leaves and the number of whole assignments it begins."""
        mask, cards = self.classes[index]
        found = []
        for split in _splits(len(cards), [caps[i] for i in mask]):
            rest = list(caps)
            for pile_index, taken in zip(mask, split, strict=True):
                rest[pile_index] -= taken
            left = tuple(rest)
            ways = self._count(index + 1, left)
            if ways:
                found.append((split, left, _multinomial(len(cards), split) * ways))
        return found

    def assignment(self, rng: random.Random) -> list[list[str]]:
        """The cards of each pile, drawn uniformly among the consistent assignments."""
        if self.total == 0:
            raise ValueError("no assignment is consistent")
        merged: list[list[str]] = [[] for _ in self.sizes]
        if self.sole_class:
            merged[0] = list(self.cards)
        else:
            caps = self.sizes
            for index, (mask, cards) in enumerate(self.classes):
                options = self._splits_of(index, caps)
                split, rest, _ = options[weighted_index([weight for _, _, weight in options], rng)]
                shuffled = list(cards)
                rng.shuffle(shuffled)
                start = 0
                for group_index, taken in zip(mask, split, strict=True):
                    merged[group_index] += shuffled[start : start + taken]
                    start += taken
                caps = rest
        placed: list[list[str]] = [[] for _ in self.pile_sizes]
        for group, cards in zip(self.groups, merged, strict=True):
            rng.shuffle(cards)
            start = 0
            for pile in group:
                placed[pile] = cards[start : start + self.pile_sizes[pile]]
                start += self.pile_sizes[pile]
        return placed


def weighted_index(weights: Sequence[int], rng: random.Random) -> int:
    """An index drawn with probability proportional to its (integer) weight, exactly."""
    pick = rng.randrange(sum(weights))
    for index, weight in enumerate(weights):
        if pick < weight:
            return index
        pick -= weight
    raise AssertionError("unreachable: pick is below the sum of the weights")


def _splits(total: int, caps: Sequence[int]) -> list[tuple[int, ...]]:
    """Every way to write ``total`` as a sum of len(caps) counts, each at most its cap."""
    return list(_splits_cached(total, tuple(caps)))


@lru_cache(maxsize=65_536)
def _splits_cached(total: int, caps: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    if not caps:
        return ((),) if total == 0 else ()
    if sum(caps) < total:
        return ()
    first, rest = caps[0], caps[1:]
    result = []
    for taken in range(min(first, total), -1, -1):
        result += [(taken, *tail) for tail in _splits_cached(total - taken, rest)]
    return tuple(result)


def _multinomial(total: int, parts: Sequence[int]) -> int:
    """The ways to share ``total`` distinct cards among groups of the sizes ``parts`` (summing to it)."""
    ways, left = 1, total
    for part in parts:
        ways *= math.comb(left, part)
        left -= part
    return ways
