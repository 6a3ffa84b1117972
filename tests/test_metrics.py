"""The request metrics: the in-process tally against prometheus_client's own metric objects, the exact
exposition after a few requests, the requests in flight, and the multiprocess mode."""

from __future__ import annotations

import asyncio
import itertools
import math
import os
import random
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import pytest
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.multiprocess import MultiProcessCollector
from starlette.testclient import TestClient
from starlette.types import Message, Receive, Scope, Send

from sevens_rules.api import telemetry
from sevens_rules.api.app import create_app
from sevens_rules.api.limits import Settings
from sevens_rules.api.metrics import (
    LATENCY_BUCKETS,
    MULTIPROC_DIR_VARIABLE,
    RequestMetrics,
    SharedMetrics,
    TalliedMetrics,
    request_metrics,
)

MOVES_PATH = "/v1/games/sjuan/moves"
SUBPROCESS_TIMEOUT_SECONDS = 120  # a bound for a busy machine, not a speed requirement


def samples(registry: CollectorRegistry) -> list[tuple[str, dict[str, str], float]]:
    """Every sample but the ``_created`` times, in exposition order."""
    return [
        (s.name, s.labels, s.value)
        for family in registry.collect()
        for s in family.samples
        if not s.name.endswith("_created")
    ]


def test_the_tally_matches_the_library_metrics_on_random_latencies() -> None:
    rng = random.Random(7)
    on_bounds = [*LATENCY_BUCKETS, *(math.nextafter(b, math.inf) for b in LATENCY_BUCKETS)]
    on_bounds += [math.nextafter(b, 0.0) for b in LATENCY_BUCKETS]
    drawn = [rng.uniform(0, 0.002) for _ in range(800)] + [rng.expovariate(0.5) for _ in range(800)]
    values = [0.0, 1e-9, 50.0, *on_bounds, *on_bounds, *drawn]
    rng.shuffle(values)
    series = [
        (MOVES_PATH, 200, ""),
        (MOVES_PATH, 422, "state/invalid"),
        ("sjuanNew", 200, ""),
        ("sjuanNew", 200, "request/invalid"),  # shares its histogram with the line above
        ("unmatched", 404, "not-found"),
    ]
    tallied, library = CollectorRegistry(), CollectorRegistry()
    # SharedMetrics: the library's own objects
    metrics: list[RequestMetrics] = [TalliedMetrics(tallied), SharedMetrics(library)]
    for value in values:
        operation, status, code = rng.choice(series)
        for recorder in metrics:
            recorder.started()
            recorder.started()
            recorder.finished(operation, status, code, value)
    for recorder in metrics:
        recorder.finished(MOVES_PATH, 200, "", 0.0)
    # every bucket count, sum (the same float: the seconds added in the same order), count and in flight
    assert samples(tallied) == samples(library)
    assert tallied.get_sample_value("sevens_rules_requests_in_flight") == len(values) - 1
    field = {"operation": "sjuanNew", "status": "200"}
    answered = sum(
        tallied.get_sample_value("sevens_rules_requests_total", {**field, "code": c}) or 0
        for c in ("", "request/invalid")
    )
    assert tallied.get_sample_value("sevens_rules_request_duration_seconds_count", field) == answered > 0


def bucket_lines(operation: str, status: int, cumulative: list[int], total: str) -> str:
    """The bucket, count and sum lines of one histogram series."""
    bounds = ["0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5"]
    bounds += ["1.0", "2.5", "10.0", "+Inf"]
    labels = f'operation="{operation}",status="{status}"'
    lines = [
        f'sevens_rules_request_duration_seconds_bucket{{le="{le}",{labels}}} {n}.0'
        for le, n in zip(bounds, cumulative, strict=True)
    ]
    lines.append(f"sevens_rules_request_duration_seconds_count{{{labels}}} {cumulative[-1]}.0")
    lines.append(f"sevens_rules_request_duration_seconds_sum{{{labels}}} {total}")
    return "\n".join(lines)


REQUESTS_HELP = (
    "HTTP requests answered, by operation (REST path template or GraphQL root field), status and problem "
    "code (empty when none)."
)
LATENCY_HELP = "Time from the request reaching the app to the end of its response, by operation and status."
IN_FLIGHT_HELP = "HTTP requests being answered now (summed over live workers)."
MOVES_422 = f'operation="{MOVES_PATH}",status="422"'
NEW_200 = 'operation="/v1/games/sjuan/new",status="200"'
FIELD_200 = 'operation="sjuanNew",status="200"'
EXPECTED = f"""\
# HELP sevens_rules_requests_total {REQUESTS_HELP}
# TYPE sevens_rules_requests_total counter
sevens_rules_requests_total{{code="state/invalid",{MOVES_422}}} 2.0
sevens_rules_requests_total{{code="",{NEW_200}}} 1.0
sevens_rules_requests_total{{code="",{FIELD_200}}} 1.0
sevens_rules_requests_total{{code="request/invalid",{FIELD_200}}} 1.0
# HELP sevens_rules_requests_created {REQUESTS_HELP}
# TYPE sevens_rules_requests_created gauge
sevens_rules_requests_created{{code="state/invalid",{MOVES_422}}} 1000.0
sevens_rules_requests_created{{code="",{NEW_200}}} 1002.0
sevens_rules_requests_created{{code="",{FIELD_200}}} 1004.0
sevens_rules_requests_created{{code="request/invalid",{FIELD_200}}} 1006.0
# HELP sevens_rules_request_duration_seconds {LATENCY_HELP}
# TYPE sevens_rules_request_duration_seconds histogram
{bucket_lines(MOVES_PATH, 422, [0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2], "12.001")}
{bucket_lines("/v1/games/sjuan/new", 200, [1] * 14, "0.0002")}
{bucket_lines("sjuanNew", 200, [1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2], "0.2505")}
# HELP sevens_rules_request_duration_seconds_created {LATENCY_HELP}
# TYPE sevens_rules_request_duration_seconds_created gauge
sevens_rules_request_duration_seconds_created{{{MOVES_422}}} 1001.0
sevens_rules_request_duration_seconds_created{{{NEW_200}}} 1003.0
sevens_rules_request_duration_seconds_created{{{FIELD_200}}} 1005.0
# HELP sevens_rules_requests_in_flight {IN_FLIGHT_HELP}
# TYPE sevens_rules_requests_in_flight gauge
sevens_rules_requests_in_flight 0.0
"""


def test_requests_through_the_app_give_these_exposition_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    registry = CollectorRegistry()
    wall = itertools.count(1000)
    monkeypatch.setattr(telemetry, "METRICS", TalliedMetrics(registry, clock=lambda: float(next(wall))))
    # the middleware's clock: each request starts at 0 and ends at its latency (on bounds: 0.001, 0.25)
    latencies = [0.001, 0.0002, 12.0, 0.25, 0.0005]
    ticks = iter([tick for latency in latencies for tick in (0.0, latency)])
    monkeypatch.setattr(telemetry, "time", types.SimpleNamespace(perf_counter=lambda: next(ticks)))
    client = TestClient(create_app(Settings()))
    assert client.post(MOVES_PATH, json={"state": {}}).status_code == 422
    assert client.post("/v1/games/sjuan/new", json={"players": 3}).status_code == 200
    assert client.post(MOVES_PATH, json={"state": {}}).status_code == 422
    for players in (3, 1):  # a field, then the same field answering a problem
        query = f"{{ sjuanNew(players: {players}) {{ __typename }} }}"
        assert client.post("/graphql", json={"query": query}).status_code == 200
    assert generate_latest(registry).decode() == EXPECTED


def test_the_in_flight_gauge_counts_requests_being_answered(monkeypatch: pytest.MonkeyPatch) -> None:
    registry = CollectorRegistry()
    monkeypatch.setattr(telemetry, "METRICS", TalliedMetrics(registry))

    def in_flight() -> float | None:
        return registry.get_sample_value("sevens_rules_requests_in_flight")

    async def scenario() -> None:
        inside, go = asyncio.Event(), asyncio.Event()

        async def app(scope: Scope, receive: Receive, send: Send) -> None:
            inside.set()
            await go.wait()
            if scope["path"] == "/fails":
                raise RuntimeError("a bug")  # answered 500 by the middleware, and no longer in flight
            await send({"type": "http.response.start", "status": 204, "headers": []})
            await send({"type": "http.response.body", "body": b""})

        async def sent(message: Message) -> None:
            pass

        async def receive() -> Message:
            return {"type": "http.request", "body": b"", "more_body": False}

        middleware = telemetry.AccessMiddleware(app)
        requests = []
        for path in ("/waits", "/fails"):
            scope: Scope = {"type": "http", "method": "GET", "path": path, "headers": []}
            requests.append(asyncio.create_task(middleware(scope, receive, sent)))
            await inside.wait()
            inside.clear()
            assert in_flight() == len(requests)
        go.set()
        await asyncio.gather(*requests)

    assert in_flight() == 0
    asyncio.run(scenario())
    assert in_flight() == 0
    answered = {"operation": "unmatched", "status": "204", "code": ""}
    failed = {"operation": "unmatched", "status": "500", "code": "internal"}
    assert registry.get_sample_value("sevens_rules_requests_total", answered) == 1
    assert registry.get_sample_value("sevens_rules_requests_total", failed) == 1


def test_the_mode_follows_the_multiprocess_variable(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(MULTIPROC_DIR_VARIABLE, str(tmp_path))
    assert isinstance(request_metrics(None), SharedMetrics)
    monkeypatch.delenv(MULTIPROC_DIR_VARIABLE)
    assert isinstance(request_metrics(None), TalliedMetrics)


WORKER = textwrap.dedent(
    """
    import asyncio, sys
    from prometheus_client import generate_latest
    from sevens_rules.api import telemetry

    metrics = telemetry.METRICS
    assert metrics.multiprocess, metrics
    if sys.argv[1] == "first":  # a live worker with one request still being answered, until it is killed
        metrics.started()
        metrics.started()
        metrics.finished("/version", 200, "", 0.001)
        print("ready", flush=True)
        sys.stdin.read()
    elif sys.argv[1] == "scrape":  # a worker that answers a scrape and nothing else
        sys.stdout.write(generate_latest(telemetry.metrics_registry()).decode())
    else:  # a worker that answers a scrape with one request in flight, then shuts down
        metrics.started()
        metrics.finished("/version", 200, "", 0.5)
        metrics.started()
        metrics.finished("unmatched", 404, "not-found", 20.0)
        metrics.started()
        sys.stdout.write(generate_latest(telemetry.metrics_registry()).decode())

        async def shut_down() -> None:
            async with telemetry.lifespan(None):
                pass

        asyncio.run(shut_down())
    """
)


def test_several_workers_are_summed_in_multiprocess_mode(tmp_path: Path) -> None:
    # the two-worker server of test_server.py checks the counter end to end; this checks every family and
    # the shutdown, with two bare processes
    env = {**os.environ, MULTIPROC_DIR_VARIABLE: str(tmp_path)}

    def worker(role: str) -> str:
        done = subprocess.run(
            [sys.executable, "-c", WORKER, role],
            env=env,
            capture_output=True,
            text=True,
            timeout=SUBPROCESS_TIMEOUT_SECONDS,
            check=True,
        )
        return done.stdout

    first = subprocess.Popen(
        [sys.executable, "-c", WORKER, "first"],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert first.stdout is not None and first.stdout.readline() == "ready\n"
        scraped = worker("second")
    finally:
        first.kill()  # as the kernel kills a worker out of memory: no shutdown
        first.wait(timeout=SUBPROCESS_TIMEOUT_SECONDS)
    version = 'operation="/version",status="200"'
    for line in [
        f'sevens_rules_requests_total{{code="",{version}}} 2.0',
        'sevens_rules_requests_total{code="not-found",operation="unmatched",status="404"} 1.0',
        f'sevens_rules_request_duration_seconds_bucket{{le="0.0005",{version}}} 0.0',
        f'sevens_rules_request_duration_seconds_bucket{{le="0.001",{version}}} 1.0',
        f'sevens_rules_request_duration_seconds_bucket{{le="0.25",{version}}} 1.0',
        f'sevens_rules_request_duration_seconds_bucket{{le="0.5",{version}}} 2.0',
        f'sevens_rules_request_duration_seconds_bucket{{le="+Inf",{version}}} 2.0',
        f"sevens_rules_request_duration_seconds_sum{{{version}}} 0.501",
        'sevens_rules_request_duration_seconds_bucket{le="10.0",operation="unmatched",status="404"} 0.0',
        'sevens_rules_request_duration_seconds_bucket{le="+Inf",operation="unmatched",status="404"} 1.0',
        "sevens_rules_requests_in_flight 2.0",  # one in each worker
    ]:
        assert line in scraped.splitlines(), line
    after = CollectorRegistry()
    MultiProcessCollector(after, path=str(tmp_path))  # type: ignore[no-untyped-call]
    # the second worker's shutdown took its request in flight out of the live sum
    assert after.get_sample_value("sevens_rules_requests_in_flight") == 1  # (the killed worker's file)
    # while what it answered still counts
    labels = {"operation": "/version", "status": "200", "code": ""}
    assert after.get_sample_value("sevens_rules_requests_total", labels) == 2
    # a scrape drops the killed worker's request in flight, and keeps what it answered
    last = worker("scrape").splitlines()
    assert "sevens_rules_requests_in_flight 0.0" in last
    assert f'sevens_rules_requests_total{{code="",{version}}} 2.0' in last


def test_the_first_answer_of_a_document_with_problem_examples_is_not_charged_with_them() -> None:
    """``/version`` hashes the OpenAPI document, built on the first probe with its problem examples, and
    ``/openapi.json`` of a keyed service seals example matches: neither request counts those problems."""
    from starlette.testclient import TestClient

    from sevens_rules.api.app import create_app
    from sevens_rules.api.limits import Settings
    from tests.sealed_helpers import keyring

    with TestClient(create_app(Settings(match_store="none"), keyring("k1=1"))) as client:
        assert client.get("/version").status_code == 200
        assert client.get("/openapi.json").status_code == 200
        exposition = client.get("/metrics").text
    for route in ("/version", "/openapi.json"):
        # the answered requests (status 200): the registry is the process's, and other tests' clients
        # that left mid-answer are counted there too (status 499, code client/disconnected)
        lines = [
            line
            for line in exposition.splitlines()
            if f'operation="{route}"' in line and "_total{" in line and 'status="200"' in line
        ]
        assert lines and all('code=""' in line for line in lines), lines
