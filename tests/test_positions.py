"""The pieces every game's position shares (``engine/positions.py``)."""

from __future__ import annotations

import random

import pytest

from sevens_rules.engine.card_sets import bits_of


@pytest.mark.parametrize("size", [0, 1, 2, 6, 13, 26, 51, 52])
def test_bits_of_lists_the_codes_of_a_set_lowest_first(size: int) -> None:
    rng = random.Random(size)
    for _ in range(50):
        codes = sorted(rng.sample(range(52), size))
        assert bits_of(sum(1 << code for code in codes)) == codes


def test_bits_of_reads_the_cards_at_each_suits_edges() -> None:
    edges = [0, 12, 13, 25, 26, 38, 39, 51]
    assert bits_of(sum(1 << code for code in edges)) == edges
    for code in edges:
        assert bits_of(1 << code) == [code]
