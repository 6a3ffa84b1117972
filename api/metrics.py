"""The request metrics behind ``/metrics``: requests by operation, status and code, their latency, and the
requests in flight, recorded with two calls per request.

With one process (production's default, and the bench), :class:`TalliedMetrics` counts in plain Python
objects and hands ``prometheus_client`` the totals only when scraped, as a custom collector. Recording
through the library's own ``Counter``, ``Histogram`` and ``Gauge`` costs every request a lock per
value, a label check per call and a Python loop over the buckets; a tally is a dictionary look-up,
three additions and a ``bisect``. The exposition is the one those metric objects
produced: the same families, help, types, labels, bucket bounds, values and sample order.

With several worker processes (``PROMETHEUS_MULTIPROC_DIR`` set), a tally in one worker's memory would
be invisible to the worker that answers a scrape, so :class:`SharedMetrics` records through the
library's metric objects, whose values go to the shared files that every worker's ``/metrics`` sums.

:func:`request_metrics` picks one of the two once, from the environment; the middleware calls
``started()`` and ``finished()`` on either.
"""

from __future__ import annotations

import os
import time
from bisect import bisect_left
from collections.abc import Callable, Iterator
from typing import Protocol

import prometheus_client.metrics
from prometheus_client import REGISTRY, CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.utils import floatToGoString

MULTIPROC_DIR_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"

# The operations answer in tens of microseconds in-process; the library's default buckets start at 5 ms.
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0)
"""The latency histogram's upper bounds in seconds (inclusive), before the implicit ``+Inf``."""

REQUESTS_NAME = "sevens_rules_requests"
REQUESTS_HELP = (
    "HTTP requests answered, by operation (REST path template or GraphQL root field), status and problem "
    "code (empty when none)."
)
REQUESTS_LABELS = ("operation", "status", "code")
LATENCY_NAME = "sevens_rules_request_duration_seconds"
LATENCY_HELP = "Time from the request reaching the app to the end of its response, by operation and status."
LATENCY_LABELS = ("operation", "status")
IN_FLIGHT_NAME = "sevens_rules_requests_in_flight"
IN_FLIGHT_HELP = "HTTP requests being answered now (summed over live workers)."

_FIRST_BOUND = LATENCY_BUCKETS[0]
# the ``le`` label of each bucket, as prometheus_client's Histogram writes it
_BUCKET_BOUNDS = (*(floatToGoString(bound) for bound in LATENCY_BUCKETS), "+Inf")  # type: ignore[no-untyped-call]


class RequestMetrics(Protocol):
    """What the access middleware records: a request started, and a request answered."""

    @property
    def multiprocess(self) -> bool:
        """Whether the values are in ``prometheus_client``'s multiprocess files (read them with its
        ``MultiProcessCollector``) rather than in this process's registry."""
        ...

    def started(self) -> None:
        """A request is being answered: one more in flight."""
        ...

    def finished(self, operation: str, status: int, code: str, elapsed: float) -> None:
        """A request was answered (``elapsed`` seconds after it started): one fewer in flight, and one
        more of (``operation``, ``status``, ``code``) with that latency."""
        ...


class _Latency:
    """The histogram of one (operation, status): count per bucket (not cumulative; ``+Inf`` last) and the
    sum of the seconds."""

    __slots__ = ("buckets", "created", "sum")

    def __init__(self, created: float) -> None:
        self.buckets = [0] * len(_BUCKET_BOUNDS)
        self.sum = 0.0
        self.created = created


class _Series:
    """The requests of one (operation, status, code), and the histogram of its (operation, status)."""

    __slots__ = ("count", "created", "latency")

    def __init__(self, created: float, latency: _Latency) -> None:
        self.count = 0
        self.created = created
        self.latency = latency


class TalliedMetrics:
    """The request metrics of a single process, tallied in plain Python and exposed by :meth:`collect`
    (a ``prometheus_client`` custom collector) exactly as the library's metric objects would be.

    No locks: uvicorn runs the app, and so every ``started``, ``finished`` and ``/metrics`` scrape, on one
    event-loop thread, and none of them awaits, so a scrape sees every finished request whole. A reader on
    another thread (a test's ``get_sample_value``) sees each number before or after an update, never a
    lost one, as only the loop's thread writes; it may see a request counted but not yet in its
    histogram, as it could with the library's one lock per value.
    """

    __slots__ = ("_clock", "_latencies", "_series", "in_flight")
    multiprocess = False

    def __init__(
        self, registry: CollectorRegistry | None = REGISTRY, clock: Callable[[], float] = time.time
    ) -> None:
        """Register with ``registry`` (none with ``None``); ``clock`` stamps each series' ``_created``."""
        self.in_flight = 0
        """Requests started and not yet finished."""
        self._series: dict[tuple[str, int, str], _Series] = {}
        # the histogram is by (operation, status), one per several codes: its sum must add the seconds in
        # the order they came, as the library does, for the same float
        self._latencies: dict[tuple[str, int], _Latency] = {}
        self._clock = clock
        if registry is not None:
            registry.register(self)

    def started(self) -> None:
        """A request is being answered: one more in flight."""
        self.in_flight += 1

    def finished(self, operation: str, status: int, code: str, elapsed: float) -> None:
        """A request was answered: one fewer in flight, one more request of its series, its latency in
        the histogram."""
        self.in_flight -= 1
        try:  # only a series' first request misses
            series = self._series[operation, status, code]
        except KeyError:
            series = self._new_series(operation, status, code)
        series.count += 1
        latency = series.latency
        latency.sum += elapsed
        # the first bound >= elapsed: a value on a bound is in that bound's bucket (``le``), as in the
        # library's Histogram, and beyond the last bound in +Inf's. Most requests take less than the first
        # bound, told by one comparison without a call
        latency.buckets[0 if elapsed <= _FIRST_BOUND else bisect_left(LATENCY_BUCKETS, elapsed)] += 1

    def _new_series(self, operation: str, status: int, code: str) -> _Series:
        # stamped in the order the library's labels() calls stamped them: the counter's child, then the
        # histogram's when its (operation, status) is new
        created = self._clock()
        latency = self._latencies.get((operation, status))
        if latency is None:
            latency = self._latencies[operation, status] = _Latency(self._clock())
        series = self._series[operation, status, code] = _Series(created, latency)
        return series

    def describe(self) -> list[Metric]:
        """The three families without samples: the names the registry reserves for this collector."""
        return [
            CounterMetricFamily(REQUESTS_NAME, REQUESTS_HELP, labels=REQUESTS_LABELS),
            HistogramMetricFamily(LATENCY_NAME, LATENCY_HELP, labels=LATENCY_LABELS),
            GaugeMetricFamily(IN_FLIGHT_NAME, IN_FLIGHT_HELP),
        ]

    def collect(self) -> Iterator[Metric]:
        """The three families with the current values (series in the order they were first seen, buckets
        cumulative), as ``Counter``, ``Histogram`` and ``Gauge`` would yield them."""
        # the library's switch (PROMETHEUS_DISABLE_CREATED_SERIES, disable_created_metrics())
        with_created: bool = prometheus_client.metrics._use_created
        requests = CounterMetricFamily(REQUESTS_NAME, REQUESTS_HELP, labels=REQUESTS_LABELS)
        # list(): a copy taken in one step, should another thread add a series meanwhile
        for (operation, status, code), series in list(self._series.items()):
            requests.add_metric(
                (operation, str(status), code), series.count, series.created if with_created else None
            )
        yield requests
        latency = HistogramMetricFamily(LATENCY_NAME, LATENCY_HELP, labels=LATENCY_LABELS)
        for (operation, status), tally in list(self._latencies.items()):
            labels = (operation, str(status))
            cumulative = []
            total = 0
            for bound, count in zip(_BUCKET_BOUNDS, tally.buckets, strict=True):
                total += count
                cumulative.append((bound, total))
            latency.add_metric(labels, cumulative, tally.sum)
            if with_created:  # HistogramMetricFamily takes no created time: the sample the library adds
                named = dict(zip(LATENCY_LABELS, labels, strict=True))
                latency.add_sample(LATENCY_NAME + "_created", named, tally.created)
        yield latency
        yield GaugeMetricFamily(IN_FLIGHT_NAME, IN_FLIGHT_HELP, value=self.in_flight)


class SharedMetrics:
    """The request metrics of one of several worker processes: ``prometheus_client``'s own ``Counter``,
    ``Histogram`` and live-sum ``Gauge``, whose values (in multiprocess mode) go to the shared files."""

    __slots__ = ("_children", "_in_flight", "_latency", "_requests")
    multiprocess = True

    def __init__(self, registry: CollectorRegistry | None = REGISTRY) -> None:
        """Make the three metric objects, registered with ``registry`` (none with ``None``)."""
        self._requests = Counter(REQUESTS_NAME, REQUESTS_HELP, REQUESTS_LABELS, registry=registry)
        self._latency = Histogram(
            LATENCY_NAME, LATENCY_HELP, LATENCY_LABELS, registry=registry, buckets=LATENCY_BUCKETS
        )
        self._in_flight = Gauge(
            IN_FLIGHT_NAME, IN_FLIGHT_HELP, registry=registry, multiprocess_mode="livesum"
        )
        # label children by (operation, status, code): labels() takes a lock and builds keys every time
        self._children: dict[tuple[str, int, str], tuple[Counter, Histogram]] = {}

    def started(self) -> None:
        """A request is being answered: one more in flight."""
        self._in_flight.inc()

    def finished(self, operation: str, status: int, code: str, elapsed: float) -> None:
        """A request was answered: one fewer in flight, one more request of its series, its latency in
        the histogram."""
        self._in_flight.dec()
        key = (operation, status, code)
        children = self._children.get(key)
        if children is None:
            children = (
                self._requests.labels(operation, str(status), code),
                self._latency.labels(operation, str(status)),
            )
            self._children[key] = children
        children[0].inc()
        children[1].observe(elapsed)


def request_metrics(registry: CollectorRegistry | None = REGISTRY) -> RequestMetrics:
    """:class:`SharedMetrics` when ``PROMETHEUS_MULTIPROC_DIR`` is set (several workers), otherwise
    :class:`TalliedMetrics`; registered with ``registry``.

    Read once: the variable must be set before ``prometheus_client`` is imported anyway (the library
    picks its file-backed values then), which the console script does.
    """
    if os.environ.get(MULTIPROC_DIR_VARIABLE):
        return SharedMetrics(registry)
    return TalliedMetrics(registry)
