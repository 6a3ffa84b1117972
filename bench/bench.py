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
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

from sevens_rules.engine.dealing import Seeding
from sevens_rules.engine.game import Game
from sevens_rules.engine.registry import GAMES

AnyGame = Game[Any, Any, Any, Any, Any, Any]

ROOT = Path(__file__).resolve().parents[1]
"""The repository root: the servers are started from here."""

MATCH_SEED = 2024
"""Deal seed of every mid-deal state."""
MOVES_SEED = 20
"""Seed of the RNG that picks the moves leading to a mid-deal state."""
MID_DEAL_MOVES = 20
"""Random legal moves from the first deal to the mid-deal state."""
HTTP_GAME = "sjuan"
HTTP_PLAYERS = 4
IN_PROCESS_TARGET = 20_000
"""Moves per second every game should reach in process."""

GRAPHQL_MOVES = (
    "query($s: SjuanStateInput!){ sjuanMoves(state: $s) { __typename "
    "... on SjuanMovesResponse { to_act moves { type player card } } } }"
)
GRAPHQL_APPLY = (
    "query($s: SjuanStateInput!, $m: SjuanMoveInput!){ sjuanApply(state: $s, move: $m) { __typename "
    "... on SjuanApplyResponse { state { phase turn hands table chips } events { __typename } } } }"
)

WRK_INSTALL = "apt-get install -y wrk"


class BenchError(Exception):
    """The bench could not measure something (not a slow result: that is only reported)."""


def log(message: str) -> None:
    """Progress on stderr, so stdout holds only the report."""
    print(message, file=sys.stderr, flush=True)


# ---- in process ----------------------------------------------------------------------------------


def table_size(game: AnyGame) -> int:
    """The table size a game is benched at: four when allowed, else the largest allowed."""
    sizes = game.table_sizes()
    return 4 if 4 in sizes else max(sizes)


def mid_deal(game: AnyGame, players: int) -> Any:
    """A state ``MID_DEAL_MOVES`` random legal moves into a seeded match, never one without moves."""
    return mid_deal_path(game, players)[0]


def mid_deal_path(game: AnyGame, players: int) -> tuple[Any, list[list[Any]]]:
    """The state of :func:`mid_deal` and the events of the first deal and of every move that led to it."""
    rng = random.Random(MOVES_SEED)
    state, first = game.new_match(players, game.models.options(), Seeding(f"{MATCH_SEED:064x}"), None, None)
    events = [first]
    for _ in range(MID_DEAL_MOVES):
        _, moves = game.moves(state)
        following, caused = game.apply(state, rng.choice(moves))
        if not game.moves(following)[1]:
            break
        state = following
        events.append(caused)
    return state, events


def playout_rate(game: AnyGame, players: int, seconds: float) -> tuple[float, int, int]:
    """Random seeded playouts (list moves, pick one, apply) for about ``seconds``.

    Returns moves per second, moves applied and matches finished. The clock includes dealing each match.
    """
    options = game.models.options()
    moves_of, apply = game.moves, game.apply
    applied = finished = seed = 0
    start = now = time.perf_counter()
    deadline = start + seconds
    while now < deadline:
        rng = random.Random(seed)
        state = game.new(players, options, Seeding(f"{seed:064x}"), None, None)  # seed n: n in 64 hex digits
        seed += 1
        while True:
            _, moves = moves_of(state)
            if not moves:
                finished += 1
                break
            state, _ = apply(state, rng.choice(moves))
            applied += 1
            now = time.perf_counter()
            if now >= deadline:
                break
    elapsed = time.perf_counter() - start
    return applied / elapsed, applied, finished


def median_us(call: Callable[[], object], seconds: float, min_calls: int = 200) -> float:
    """Median wall time of one ``call`` in microseconds, over about ``seconds`` of calls."""
    for _ in range(20):
        call()
    samples: list[int] = []
    clock = time.perf_counter_ns
    deadline = clock() + int(seconds * 1e9)
    while len(samples) < min_calls or (clock() < deadline and len(samples) < 1_000_000):
        t0 = clock()
        call()
        samples.append(clock() - t0)
    return statistics.median(samples) / 1000


@dataclass(frozen=True)
class EngineResult:
    game: str
    players: int
    moves_per_second: float
    applied: int
    finished: int
    moves_us: float
    apply_us: float


def bench_game(game: AnyGame, seconds: float) -> EngineResult:
    """Playout rate and the medians of one ``moves`` and one ``apply`` on a mid-deal state."""
    players = table_size(game)
    state = mid_deal(game, players)
    move = game.moves(state)[1][0]
    rate, applied, finished = playout_rate(game, players, seconds)
    timing = max(0.1, seconds / 6)
    moves_us = median_us(lambda: game.moves(state), timing)
    apply_us = median_us(lambda: game.apply(state, move), timing)
    return EngineResult(game.id, players, rate, applied, finished, moves_us, apply_us)


def in_process_table(results: list[EngineResult]) -> str:
    lines = [
        "| game | players | moves/s | median moves µs | median apply µs |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for r in results:
        lines.append(
            f"| {r.game} | {r.players} | {r.moves_per_second:,.0f} | {r.moves_us:.1f} | {r.apply_us:.1f} |"
        )
    below = [r.game for r in results if r.moves_per_second < IN_PROCESS_TARGET]
    lines.append("")
    lines.append(
        f"Target ≥ {IN_PROCESS_TARGET:,} moves/s in process: met by {len(results) - len(below)} of "
        f"{len(results)} games" + (f" (not: {', '.join(below)})." if below else ".")
    )
    total_moves = sum(r.applied for r in results)
    total_matches = sum(r.finished for r in results)
    lines.append(
        f"Playouts: {total_moves:,} moves, {total_matches:,} finished matches; mid-deal state = seed "
        f"{MATCH_SEED}, {MID_DEAL_MOVES} random moves (RNG seed {MOVES_SEED}); apply timed with its first "
        "legal move."
    )
    return "\n".join(lines)


# ---- HTTP ----------------------------------------------------------------------------------------


def dumped(model: Any) -> Any:
    """A wire model as plain JSON data, exactly as the service writes it."""
    return orjson.loads(model.__pydantic_serializer__.to_json(model))


@dataclass(frozen=True)
class Endpoint:
    """One thing to load: a path of the service, its body and how to tell a right answer."""

    name: str
    path: str
    body: bytes
    expect: Callable[[Any], bool]
    """Whether the parsed 200 response body is the expected one."""
    target: float | None
    """Least ratio to the ceiling the issue asks for (None: measured, no target)."""


def sjuan_endpoints() -> list[Endpoint]:
    """REST and GraphQL ``moves``/``apply`` on the mid-deal four-player Sjuan state."""
    game = GAMES[HTTP_GAME]
    state = mid_deal(game, HTTP_PLAYERS)
    to_act, moves = game.moves(state)
    move = moves[0]
    after, _ = game.apply(state, move)
    state_json, move_json, after_json = dumped(state), dumped(move), dumped(after)
    moves_json = [dumped(m) for m in moves]
    short_moves = [{"type": m["type"], "player": m["player"], "card": m["card"]} for m in moves_json]
    after_short = {k: after_json[k] for k in ("phase", "turn", "hands", "table", "chips")}

    def gql(data: Any, field: str, typename: str) -> Any:
        result = data.get("data", {}) if isinstance(data, dict) and not data.get("errors") else {}
        value = (result or {}).get(field)
        return value if isinstance(value, dict) and value.get("__typename") == typename else None

    def graphql_moves_ok(data: Any) -> bool:
        value = gql(data, "sjuanMoves", "SjuanMovesResponse")
        return value is not None and value["to_act"] == to_act and value["moves"] == short_moves

    def graphql_apply_ok(data: Any) -> bool:
        value = gql(data, "sjuanApply", "SjuanApplyResponse")
        return value is not None and value["state"] == after_short

    return [
        Endpoint(
            "REST `moves`",
            f"/v1/games/{HTTP_GAME}/moves",
            orjson.dumps({"state": state_json}),
            lambda d: d.get("to_act") == to_act and d.get("moves") == moves_json,
            0.5,
        ),
        Endpoint(
            "REST `apply`",
            f"/v1/games/{HTTP_GAME}/apply",
            orjson.dumps({"state": state_json, "move": move_json}),
            lambda d: d.get("state") == after_json,
            0.4,
        ),
        Endpoint(
            "GraphQL `sjuanMoves`",
            "/graphql",
            orjson.dumps({"query": GRAPHQL_MOVES, "variables": {"s": state_json}}),
            graphql_moves_ok,
            0.1,
        ),
        Endpoint(
            "GraphQL `sjuanApply`",
            "/graphql",
            orjson.dumps({"query": GRAPHQL_APPLY, "variables": {"s": state_json, "m": move_json}}),
            graphql_apply_ok,
            None,
        ),
    ]


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_listening(proc: subprocess.Popen[bytes], port: int, log_path: Path, tries: int = 300) -> None:
    """Poll until the server accepts a connection; fail when it exits or after ``tries`` polls."""
    for _ in range(tries):
        if proc.poll() is not None:
            raise BenchError(f"the server exited with {proc.returncode}:\n{log_path.read_text()[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise BenchError(f"the server did not listen on port {port}:\n{log_path.read_text()[-2000:]}")


@contextlib.contextmanager
def uvicorn_server(app: str, workdir: Path) -> Iterator[str]:
    """Start ``uvicorn APP`` with one worker on a free loopback port; yield its base URL; stop it."""
    port = free_port()
    log_path = workdir / f"{app.replace(':', '_')}.log"
    command = [
        sys.executable, "-m", "uvicorn", app,
        "--host", "127.0.0.1", "--port", str(port),
        "--workers", "1", "--no-access-log", "--log-level", "warning",
    ]  # fmt: skip
    with log_path.open("wb") as out:
        proc = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_listening(proc, port, log_path)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def post(url: str, body: bytes) -> tuple[int, bytes]:
    """One POST with a JSON body; the status and the response body."""
    request = urllib.request.Request(
        url, data=body, method="POST", headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status: int = response.status
            return status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def check_answer(name: str, url: str, body: bytes, expect: Callable[[Any], bool]) -> None:
    """Refuse to load an endpoint that does not answer 200 with the expected body."""
    status, answer = post(url, body)
    if status != 200:
        raise BenchError(f"{name} at {url} answered {status}: {answer[:1000]!r}")
    try:
        data = orjson.loads(answer)
    except orjson.JSONDecodeError as error:
        raise BenchError(f"{name} at {url} answered no JSON: {answer[:1000]!r}") from error
    if not expect(data):
        raise BenchError(f"{name} at {url} answered an unexpected body: {answer[:1000]!r}")


@dataclass(frozen=True)
class WrkResult:
    requests_per_second: float
    requests: int
    bad: int
    """Non-2xx responses plus socket errors: a run with any is not a valid measurement."""


def lua_long_string(text: str) -> str:
    """``text`` as a Lua long-bracket string literal."""
    level = 0
    while f"]{'=' * level}]" in text:
        level += 1
    eq = "=" * level
    return f"[{eq}[{text}]{eq}]"


def run_wrk(url: str, body: bytes, seconds: int, connections: int, threads: int, workdir: Path) -> WrkResult:
    """Load ``url`` with POSTs of ``body`` for ``seconds``; parse wrk's summary."""
    script = workdir / "post.lua"
    script.write_text(
        'wrk.method = "POST"\n'
        'wrk.headers["Content-Type"] = "application/json"\n'
        f"wrk.body = {lua_long_string(body.decode())}\n"
    )
    command = [
        "wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s",
        "-s", str(script), url,
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60, check=False)
    out = done.stdout
    rate = re.search(r"Requests/sec:\s+([\d.]+)", out)
    total = re.search(r"(\d+) requests in", out)
    if done.returncode != 0 or rate is None or total is None:
        raise BenchError(f"wrk failed ({done.returncode}):\n{out}\n{done.stderr}")
    bad = 0
    non_2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    if non_2xx:
        bad += int(non_2xx.group(1))
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    if errors:
        bad += sum(int(n) for n in errors.groups())
    return WrkResult(float(rate.group(1)), int(total.group(1)), bad)


@dataclass(frozen=True)
class HttpResult:
    endpoint: Endpoint
    service: WrkResult
    ceiling: WrkResult

    @property
    def ratio(self) -> float:
        return self.service.requests_per_second / self.ceiling.requests_per_second


def bench_http(seconds: int, rounds: int, connections: int, threads: int, workdir: Path) -> list[HttpResult]:
    """Start the service and the ceiling, check every endpoint once, then load each in turn: ``rounds``
    alternating runs of the ceiling and the service, ``seconds`` in all for each."""
    endpoints = sjuan_endpoints()
    results = []
    with (
        uvicorn_server("bench.ceiling:app", workdir) as ceiling_base,
        uvicorn_server("sevens_rules.api.app:app", workdir) as service_base,
    ):
        ceiling_url = f"{ceiling_base}/parse"
        for e in endpoints:
            check_answer(f"ceiling ({e.name} body)", ceiling_url, e.body, lambda d: d == {"ok": True})
            check_answer(e.name, service_base + e.path, e.body, e.expect)
        rounds = max(1, min(rounds, seconds))
        each = seconds // rounds
        for e in endpoints:
            log(f"  {e.name}: {rounds} x (ceiling {each} s, service {each} s)")
            ceiling_runs, service_runs = [], []
            for _ in range(rounds):  # alternate, so drift in the machine's load hits both alike
                ceiling_runs.append(run_wrk(ceiling_url, e.body, each, connections, threads, workdir))
                service_runs.append(
                    run_wrk(service_base + e.path, e.body, each, connections, threads, workdir)
                )
            results.append(HttpResult(e, combine(service_runs), combine(ceiling_runs)))
    return results


def combine(runs: list[WrkResult]) -> WrkResult:
    """Runs of equal length as one: mean rate, summed counts."""
    return WrkResult(
        statistics.fmean(r.requests_per_second for r in runs),
        sum(r.requests for r in runs),
        sum(r.bad for r in runs),
    )


def http_table(results: list[HttpResult], seconds: int, rounds: int, connections: int, threads: int) -> str:
    lines = [
        "| endpoint | req/s | ratio to ceiling | target | met? |",
        "| --- | ---: | ---: | ---: | --- |",
    ]
    for r in results:
        target = "—" if r.endpoint.target is None else f"≥ {r.endpoint.target:g}x"
        if r.service.bad or r.ceiling.bad:
            met = f"invalid ({r.service.bad} + {r.ceiling.bad} failed requests)"
        elif r.endpoint.target is None:
            met = "—"
        else:
            met = "yes" if r.ratio >= r.endpoint.target else "no"
        lines.append(
            f"| {r.endpoint.name} | {r.service.requests_per_second:,.0f} | {r.ratio:.2f} | {target} | {met} |"
        )
    for r in results:
        lines.append(
            f"| ceiling, {r.endpoint.name} body | {r.ceiling.requests_per_second:,.0f} | 1.00 | — | — |"
        )
    lines.append("")
    lines.append(
        f"Mid-deal {HTTP_PLAYERS}-player {HTTP_GAME} state (body of REST `moves`: "
        f"{len(results[0].endpoint.body)} bytes); wrk -t{threads} -c{connections}; each row {rounds} run(s) "
        f"of {seconds // rounds} s alternating with the ceiling, bench/ceiling.py (reads the body, "
        "orjson.loads, answers a constant), loaded with the same body."
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
            cwd=ROOT, capture_output=True, text=True, check=True,
        ).stdout.strip()  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return rev + (" (uncommitted changes)" if dirty else "")


def server_stack() -> str:
    """Which uvicorn event loop and HTTP parser are available (uvicorn picks the fastest installed)."""
    import importlib.util

    loop = "uvloop" if importlib.util.find_spec("uvloop") else "asyncio"
    http = "httptools" if importlib.util.find_spec("httptools") else "h11"
    return f"{loop} + {http}"


def header(args: argparse.Namespace) -> str:
    return (
        f"bench at {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, commit {git_revision()}; "
        f"Python {platform.python_version()}, {os.cpu_count()} cores, {platform.machine()}, "
        f"load average {os.getloadavg()[0]:.2f} at start; "
        f"uvicorn on {server_stack()}; playouts {args.playout_seconds:g} s per game, "
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
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    print(header(args))
    if args.only in (None, "inprocess"):
        results = []
        for game in GAMES.values():
            log(f"in process: {game.id}")
            results.append(bench_game(game, args.playout_seconds))
        print("\n## In process\n")
        print(in_process_table(results))
    if args.only in (None, "sealed"):
        from bench.sealed import bench_sealed, sealed_table

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
            log("HTTP: starting uvicorn (service and ceiling)")
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
