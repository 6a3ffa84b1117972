"""The bench: in-process playout speed of every game and HTTP throughput of the service against the
framework's ceiling. Run ``python -m bench`` from the repository root (see bench/README.md).

It prints two markdown tables. The numbers belong in notes, never in assertions: the command exits 0
whatever they are, and non-zero only when it could not measure (a server that did not start, an endpoint
that did not answer 200 with the expected body).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bench import servers
from bench.endpoints import (
    HTTP_GAME,
    HTTP_PLAYERS,
    SEAL_KEYS_VARIABLE,
    Endpoint,
    SealedSetup,
    bench_seal_keys,
    check_answer,
    plain_setup,
    sealed_setup,
)
from bench.inprocess import SLICE_SECONDS, EngineResult, bench_game, in_process_table, table_size
from bench.load import WRK_INSTALL, WrkResult, combine, run_wrk
from bench.redis_server import redis_server
from bench.sealed import bench_sealed, sealed_table
from bench.servers import ROOT, BenchError, Memory, Stack
from sevens_rules.engine.registry import GAMES


def log(message: str) -> None:
    """Progress on stderr, so stdout holds only the report."""
    print(message, file=sys.stderr, flush=True)


@dataclass(frozen=True)
class HttpResult:
    """One row: the service and the ceiling loaded alternately with the same body."""

    endpoint: Endpoint
    service: WrkResult
    ceiling: WrkResult

    @property
    def ratio(self) -> float:
        """The service's requests per second over the ceiling's."""
        return self.service.requests_per_second / self.ceiling.requests_per_second


@dataclass(frozen=True)
class HttpReport:
    """Everything the HTTP part measured."""

    results: list[HttpResult]
    sealed: SealedSetup
    stack: Stack
    service: servers.Server
    ceiling: servers.Server
    service_memory: Memory
    ceiling_memory: Memory


def bench_http(seconds: int, rounds: int, connections: int, threads: int, workdir: Path) -> HttpReport:
    """Start the service, check every endpoint once, start the ceiling on the stack the service's worker
    really runs on, then load each row in turn: ``rounds`` alternating runs of the ceiling and the
    service, ``seconds`` in all for each. The workers' memory is read after the last run."""
    plain = plain_setup()
    keys = {SEAL_KEYS_VARIABLE: bench_seal_keys()}
    embedded = {**keys, "RULES_MATCH_STORE": "embedded", "RULES_DATA_DIR": str(workdir / "data")}
    with contextlib.ExitStack() as running:
        # sealed apply with each match store: the embedded one on the main service, then a service
        # claiming in a redis-server of its own, and one without a store
        service = running.enter_context(servers.service(workdir, embedded))
        for e in plain.endpoints:
            check_answer(e.name, service.base_url + e.path, e.body, e.expect)
        sealed = sealed_setup(service.base_url, plain)
        endpoints = plain.endpoints + sealed.endpoints
        if not sealed.unavailable:
            redis = running.enter_context(redis_server(workdir))
            with_redis = running.enter_context(
                servers.service(workdir, {**keys, "RULES_MATCH_STORE": redis.url})
            )
            stateless = running.enter_context(servers.service(workdir, {**keys, "RULES_MATCH_STORE": "none"}))
            endpoints += sealed_setup(with_redis.base_url, plain, "Redis", moves_row=False).endpoints
            endpoints += sealed_setup(stateless.base_url, plain, "no", moves_row=False).endpoints
        for e in endpoints[len(plain.endpoints) :]:
            check_answer(e.name, (e.base_url or service.base_url) + e.path, e.body, e.expect)
        stack = servers.loaded_stack(service.pid)
        with servers.ceiling(workdir, stack) as ceiling:
            ceiling_url = f"{ceiling.base_url}/parse"
            for e in endpoints:
                check_answer(f"ceiling ({e.name} body)", ceiling_url, e.body, lambda d: d == {"ok": True})
            if servers.loaded_stack(ceiling.pid) != stack:
                raise BenchError(f"the ceiling runs on {servers.loaded_stack(ceiling.pid)}, not on {stack}")
            rounds = max(1, min(rounds, seconds))
            each = seconds // rounds
            results = []
            for e in endpoints:
                log(f"  {e.name}: {rounds} x (ceiling {each} s, service {each} s)")
                ceiling_runs, service_runs = [], []
                for _ in range(rounds):  # alternate, so drift in the machine's load hits both alike
                    ceiling_runs.append(run_wrk(ceiling_url, e.body, each, connections, threads, workdir))
                    url = (e.base_url or service.base_url) + e.path
                    service_runs.append(run_wrk(url, e.body, each, connections, threads, workdir))
                results.append(HttpResult(e, combine(service_runs), combine(ceiling_runs)))
            ceiling_memory = servers.memory(ceiling.pid)
        service_memory = servers.memory(service.pid)
    return HttpReport(results, sealed, stack, service, ceiling, service_memory, ceiling_memory)


def verdict(result: HttpResult, results: list[HttpResult]) -> tuple[str, str]:
    """The target column and the met? column of one row."""
    if result.service.bad or result.ceiling.bad:
        return "—", f"invalid ({result.service.bad} + {result.ceiling.bad} failed requests)"
    e = result.endpoint
    if e.target is not None:
        return f"≥ {e.target:g}x", "yes" if result.ratio >= e.target else "no"
    if e.at_least_as_fast_as is not None:
        other = next((r for r in results if r.endpoint.name == e.at_least_as_fast_as), None)
        if other is None:
            return f"≥ {e.at_least_as_fast_as}", "—"
        rate, other_rate = result.service.requests_per_second, other.service.requests_per_second
        share = "" if e.share == 1 else f"{e.share:g} x "
        met = "yes" if rate >= e.share * other_rate else "no"
        return f"≥ {share}{e.at_least_as_fast_as}", f"{met} ({rate / other_rate:.2f} x)"
    return "—", "—"


def http_table(report: HttpReport, seconds: int, rounds: int, connections: int, threads: int) -> str:
    """The HTTP markdown table and its notes."""
    lines = [
        "| endpoint | req/s | ratio to ceiling | p50 ms | p99 ms | target | met? |",
        "| --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for r in report.results:
        target, met = verdict(r, report.results)
        s = r.service
        lines.append(
            f"| {r.endpoint.name} | {s.requests_per_second:,.0f} | {r.ratio:.2f} | {s.p50_ms:.2f} "
            f"| {s.p99_ms:.2f} | {target} | {met} |"
        )
    if report.sealed.unavailable:
        for name in ("sealed `moves`", "sealed `apply`"):
            lines.append(f"| {name} | not available: {report.sealed.unavailable} | | | | — | — |")
    for r in report.results:
        c = r.ceiling
        lines.append(
            f"| ceiling, {r.endpoint.name} body | {c.requests_per_second:,.0f} | 1.00 | {c.p50_ms:.2f} "
            f"| {c.p99_ms:.2f} | — | — |"
        )
    stack = report.stack
    lines += [
        "",
        f"Stack: {stack}, read from the workers' memory maps: "
        + (
            "the production stack."
            if stack.is_production
            else f"NOT the production stack (uvloop + httptools; `{servers.PRODUCTION_INSTALL}`)."
        ),
        f"Service: `{report.service.command}`; ceiling: `{report.ceiling.command}`.",
        f"Memory after the run: service worker {report.service_memory}; ceiling worker "
        f"{report.ceiling_memory}.",
        f"Mid-deal {HTTP_PLAYERS}-player {HTTP_GAME} state (body of REST `moves`: "
        f"{len(report.results[0].endpoint.body)} bytes); wrk -t{threads} -c{connections} --latency; each row "
        f"{rounds} run(s) of {seconds // rounds} s alternating with the ceiling (bench/ceiling.py: reads the "
        "body, orjson.loads, answers a constant) loaded with the same body; req/s and percentiles are the "
        "means of the runs.",
    ]
    if not report.sealed.unavailable:
        lines.append(
            "Sealed rows: a position reached by the same walk from a deal of the service's own seed, "
            f"{SEAL_KEYS_VARIABLE} as set for the bench; sealed `apply` is compared with plain REST "
            "`apply` by req/s, once per match store: the main service's embedded store (SQLite in the "
            "bench's directory), a second service's Redis (a redis-server of its own on loopback) and a "
            "third service without a store. wrk repeats one body, so after its first request each sealed "
            "`apply` with a store is a retry of a request the store accepted, answered from the worker's "
            "memory of accepted answers (a move of a match as played also applies, seals and claims)."
        )
    return "\n".join(lines)


# ---- report --------------------------------------------------------------------------------------


def git_revision() -> str:
    try:
        rev = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return rev + (" (uncommitted changes)" if dirty else "")


def header(args: argparse.Namespace) -> str:
    return (
        f"bench at {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, commit {git_revision()}; "
        f"Python {platform.python_version()}, {os.cpu_count()} cores, {platform.machine()}, "
        f"load average {os.getloadavg()[0]:.2f} at start; "
        f"installed uvicorn stack {servers.installed_stack()}; playouts {args.playout_seconds:g} s per game, "
        f"HTTP {args.duration} s per row"
    )


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=("inprocess", "sealed", "http"), help="run one part only")
    parser.add_argument("--quick", action="store_true", help="short runs (0.5 s playouts, 3 s per HTTP row)")
    parser.add_argument("--duration", type=int, help="seconds of wrk load per HTTP row (default 10)")
    parser.add_argument(
        "--playout-seconds", type=float, help="seconds of random playouts per game (default 1.5)"
    )
    parser.add_argument(
        "--rounds", type=int, default=2, help="alternating ceiling/service runs per row (default 2)"
    )
    parser.add_argument("--connections", type=int, default=16, help="wrk connections (default 16)")
    parser.add_argument("--threads", type=int, default=1, help="wrk threads (default 1)")
    args = parser.parse_args(argv)
    if args.duration is None:
        args.duration = 3 if args.quick else 10
    if args.playout_seconds is None:
        args.playout_seconds = 0.5 if args.quick else 1.5
    if args.duration < 1:
        parser.error("--duration must be at least 1 (wrk counts whole seconds)")
    if args.playout_seconds < 2 * SLICE_SECONDS:
        # the simulation playouts run for half of it, and need one slice at least to be read at all
        parser.error(f"--playout-seconds must be at least {2 * SLICE_SECONDS}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    print(header(args))
    if args.only in (None, "inprocess"):
        results: list[EngineResult] = []
        for game in GAMES.values():
            log(f"in process: {game.id}")
            results.append(bench_game(game, args.playout_seconds))
        print("\n## In process\n")
        print(in_process_table(results))
    if args.only in (None, "sealed"):
        sealed_results = []
        for game in GAMES.values():
            log(f"sealed: {game.id}")
            sealed_results.append(bench_sealed(game, table_size(game), max(0.2, args.playout_seconds / 3)))
        print("\n## Sealed (referee mode) against plain, in process\n")
        print(sealed_table(sealed_results))
    if args.only in (None, "http"):
        print("\n## HTTP\n")
        if shutil.which("wrk") is None:
            print(f"wrk is not installed: `{WRK_INSTALL}` (Debian package wrk). HTTP part skipped.")
        else:
            log("HTTP: starting the service and the ceiling")
            try:
                with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
                    http = bench_http(args.duration, args.rounds, args.connections, args.threads, Path(tmp))
            except BenchError as error:
                print(f"HTTP bench failed: {error}")
                return 1
            rounds = max(1, min(args.rounds, args.duration))
            print(http_table(http, args.duration, rounds, args.connections, args.threads))
    print(f"\nTook {time.perf_counter() - started:.1f} s.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
