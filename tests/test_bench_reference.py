"""The bench's reference workload: a fixed amount of work, and rates scaled to the CI machine's speed."""

from __future__ import annotations

import random

import pytest

from bench import inprocess, reference
from bench.inprocess import SLICE_SECONDS, PairedClock
from bench.reference import (
    CI_REFERENCE_ROUNDS_PER_SECOND,
    PAIRED_REFERENCE_ROUNDS,
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


class _Host:
    """A fake host whose clocks move only when told: ``reference_cost`` CPU (and wall) seconds per run of
    the reference workload, so that a test can make the host slow in one moment and fast in another."""

    def __init__(self) -> None:
        self.now = 0.0
        self.reference_cost = 0.02

    def perf_counter(self) -> float:
        return self.now

    def process_time(self) -> float:
        return self.now

    def reference_run(self, rounds: int) -> int:
        self.now += self.reference_cost * rounds / PAIRED_REFERENCE_ROUNDS
        return 0


def test_each_slice_is_read_at_the_host_speed_of_its_own_moment(monkeypatch: pytest.MonkeyPatch) -> None:
    host = _Host()
    for module in (inprocess, reference):  # the slices' clocks, and the reference runs' own
        monkeypatch.setattr(module, "time", host)
    monkeypatch.setattr(reference, "reference_run", host.reference_run)
    late = 1e-6  # each slice is closed by the first check after its time is up
    clock = PairedClock(2 * SLICE_SECONDS)  # its first reference run: 50,000 rounds a second
    host.now += SLICE_SECONDS + late  # the engine plays 100 moves in the first slice
    host.reference_cost = 0.04  # then the host runs at half the speed: the reference and the engine alike
    assert clock.going(100)
    host.now += SLICE_SECONDS + late  # 50 moves in the second slice
    assert not clock.going(150)
    rate = clock.result()
    # 150 moves in the playouts' own CPU time: the reference runs are left out of it
    assert rate.per_cpu_second == pytest.approx(150 / (2 * SLICE_SECONDS), rel=1e-4)
    # one engine speed, each slice read at its own moment's host speed: both scale to the same rate
    expected = (100 / SLICE_SECONDS) * CI_REFERENCE_ROUNDS_PER_SECOND / 50_000
    assert clock.scaled == pytest.approx([expected, expected], rel=1e-4)
    assert rate.at_reference_speed == pytest.approx(expected, rel=1e-4)
    assert clock.references == pytest.approx([50_000, 25_000])
