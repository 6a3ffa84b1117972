"""A fixed pure-Python workload that says how fast this host runs Python, so that rates measured on
different hosts (which differ up to fivefold) compare: ``python -m bench.reference`` prints its rate.

One *round* deals a shuffled 52-card deck into four hands, sorts each hand, counts cards per rank in a
dict and sums the counts by suit: the kinds of work a playout does (small lists, sorting, dict and
attribute-free integer arithmetic), with no library code of this project or of its dependencies, so that
an engine change never moves it. :func:`reference_rate` times it as the best of several short runs (the
least disturbed by other work on a shared machine) on the process's CPU clock; the in-process bench
instead times one :func:`reference_run` before each slice of its playouts and scales that slice by it
(``bench.inprocess.PairedClock``), since a shared host's speed changes within seconds.

:data:`CI_REFERENCE_ROUNDS_PER_SECOND` is the rate measured on the two-core CI machine the targets were
set on (bench/README.md); a rate measured here is read "at the reference speed" by scaling it with
:func:`at_reference_speed`.
"""

from __future__ import annotations

import random
import time

CI_REFERENCE_ROUNDS_PER_SECOND = 47_000
"""Rounds per CPU-second of :func:`reference_round` on the two-core CI machine (bench/README.md: its
measurement, with Python 3.11.7): the speed the in-process targets are read at."""

ROUNDS_PER_RUN = 2_000
"""Rounds in one timed run."""


def reference_round(rng: random.Random, deck: list[int]) -> int:
    """One round of the workload: shuffle ``deck``, deal four hands, sort them, count and sum."""
    rng.shuffle(deck)
    total = 0
    for seat in range(4):
        hand = sorted(deck[seat::4])
        by_rank: dict[int, int] = {}
        for card in hand:
            by_rank[card % 13] = by_rank.get(card % 13, 0) + 1
        total += sum(count * (rank + seat) for rank, count in by_rank.items())
    return total


def reference_run(rounds: int = ROUNDS_PER_RUN) -> int:
    """``rounds`` rounds from a fixed seed; their checksum (the same on every host)."""
    rng = random.Random(0)
    deck = list(range(52))
    checksum = 0
    for _ in range(rounds):
        checksum += reference_round(rng, deck)
    return checksum


def reference_rate(runs: int = 7) -> float:
    """Rounds per CPU-second of this process on this host: the fastest of ``runs`` timed runs.

    CPU time rather than wall time: on a crowded machine wall time counts the time other processes held
    the core, which says nothing about how fast the host runs Python (compare it with the playouts'
    moves per CPU-second)."""
    reference_run(ROUNDS_PER_RUN // 10)  # warm up
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        reference_run()
        best = min(best, time.process_time() - start)
    return ROUNDS_PER_RUN / best


PAIRED_REFERENCE_ROUNDS = 1_000
"""Rounds of the reference workload run right before each measurement read at its moment's speed (each
slice of the in-process playouts, each search of ``python -m bench bots --speed``)."""


def host_rate_now(rounds: int = PAIRED_REFERENCE_ROUNDS) -> float:
    """Rounds per CPU-second of this process from one run of ``rounds`` rounds: the host's speed at this
    moment (a shared host's changes within seconds), for a measurement taken right after it."""
    started = time.process_time()
    reference_run(rounds)
    return rounds / max(time.process_time() - started, 1e-9)


def at_reference_speed(rate: float, host_rounds_per_second: float) -> float:
    """``rate``, measured on a host that runs :func:`reference_round` ``host_rounds_per_second`` times a
    second, as the CI machine would measure it (rates of pure-Python work scale with the host's speed)."""
    return rate * CI_REFERENCE_ROUNDS_PER_SECOND / host_rounds_per_second


if __name__ == "__main__":
    print(f"{reference_rate():,.0f} reference rounds/s (CI machine: {CI_REFERENCE_ROUNDS_PER_SECOND:,})")
