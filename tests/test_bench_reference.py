"""The bench's reference workload: a fixed amount of work, and rates scaled to the CI machine's speed."""

from __future__ import annotations

import random

from bench.reference import (
    CI_REFERENCE_ROUNDS_PER_SECOND,
    at_reference_speed,
    reference_round,
    reference_run,
)


def test_a_round_deals_every_card_once_and_sums_its_counts() -> None:
    deck = list(range(52))
    total = reference_round(random.Random(5), deck)
    assert sorted(deck) == list(range(52))  # shuffled in place, nothing lost
    # the same sum written out from the dealt deck: hand ``seat`` is every fourth card from ``seat``, and a
    # card of rank r in it adds r + seat
    expected = sum((card % 13) + seat for seat in range(4) for card in deck[seat::4])
    assert total == expected


def test_the_workload_is_the_same_on_every_run() -> None:
    assert reference_run(0) == 0
    assert reference_run(50) == reference_run(50)
    assert reference_run(51) != reference_run(50)


def test_a_rate_scales_with_the_host_speed() -> None:
    assert at_reference_speed(90_000, CI_REFERENCE_ROUNDS_PER_SECOND) == 90_000
    # a host twice as fast as the CI machine measures twice the rate the CI machine would
    assert at_reference_speed(90_000, 2 * CI_REFERENCE_ROUNDS_PER_SECOND) == 45_000
