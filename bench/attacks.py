"""``python -m bench.attacks [--seconds S]``: the GraphQL attack catalogue against the service started as
README says (one worker), four attacking clients per attack, while a probe sends one REST ``sjuan/new``
every 100 ms; prints a table (see bench/README.md, "Attacks")."""

from __future__ import annotations

import argparse
import http.client
import itertools
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import orjson

from bench import servers

ATTACKERS = 4
PROBE_INTERVAL = 0.1


def _unique(n: int) -> str:
    return f"# {n}\n"


ATTACKS: dict[str, Callable[[int], str]] = {
    "aliased introspection": lambda n: (
        _unique(n)
        + "{ "
        + " ".join(
            f"a{i}: __schema {{ types {{ name fields {{ name type {{ name }} }} }} }}" for i in range(15)
        )
        + " }"
    ),
    "unique introspection": lambda n: (
        "{ __schema { types { name fields { name description type { name kind } } } } "
        f"a{n}: __typename }}"
    ),
    "many @skip": lambda n: _unique(n) + "{ games " + "@skip(if: false) " * 2850 + "{ id } }",
    "unknown fields": lambda n: "{ " + " ".join(f"f{n}_{i}" for i in range(6000)) + " }",
    "deep": lambda n: _unique(n) + "{ games " + "{ options " * 40 + "{ name }" + " }" * 41,
    "wide": lambda n: _unique(n) + "{ games { " + " ".join(f"u{i}" for i in range(400)) + " } }",
    "aliased": lambda n: (
        _unique(n)
        + "{ "
        + " ".join(
            f"a{i}: games {{ id name options {{ name description default choices }} }}" for i in range(15)
        )
        + " }"
    ),
    "fragment-heavy": lambda n: (
        _unique(n)
        + "{ games { ...F0 } } "
        + " ".join(f"fragment F{i} on GameInfo {{ ...F{i + 1} ...F{i + 1} }}" for i in range(30))
        + " fragment F30 on GameInfo { id }"
    ),
}


def _post(connection: http.client.HTTPConnection, path: str, body: bytes) -> int:
    connection.request("POST", path, body, {"content-type": "application/json"})
    response = connection.getresponse()
    response.read()
    return response.status


def _attacker(
    port: int, make: Callable[[int], str], stop: threading.Event, counter: itertools.count[int]
) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    while not stop.is_set():
        n = next(counter)
        try:
            _post(connection, "/graphql", orjson.dumps({"query": make(n)}))
        except (OSError, http.client.HTTPException):
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)


def _probe(port: int, stop: threading.Event, latencies: list[float], failures: list[str]) -> None:
    body = orjson.dumps({"players": 3})
    next_at = time.monotonic()
    while not stop.is_set():
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
        start = time.monotonic()
        try:
            status = _post(connection, "/v1/games/sjuan/new", body)
            if status != 200:
                failures.append(str(status))
        except (OSError, http.client.HTTPException) as error:
            failures.append(type(error).__name__)
        latencies.append(time.monotonic() - start)
        connection.close()
        next_at += PROBE_INTERVAL
        stop.wait(max(0.0, next_at - time.monotonic()))


def run(seconds: float) -> str:
    rows = [
        "| attack | attack requests | probe p50 ms | probe p99 ms | probe max ms | failed probes "
        "| RSS MiB before / peak / after |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    with tempfile.TemporaryDirectory() as workdir, servers.service(Path(workdir), {}) as server:
        port = int(server.base_url.rsplit(":", 1)[1])
        for name, make in ATTACKS.items():
            before = servers.memory(server.pid)
            stop = threading.Event()
            counter = itertools.count()
            latencies: list[float] = []
            failures: list[str] = []
            threads = [
                threading.Thread(target=_attacker, args=(port, make, stop, counter)) for _ in range(ATTACKERS)
            ]
            threads.append(threading.Thread(target=_probe, args=(port, stop, latencies, failures)))
            for thread in threads:
                thread.start()
            peak = before.rss_kib
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                peak = max(peak, servers.memory(server.pid).rss_kib)
                stop.wait(0.2)
            stop.set()
            for thread in threads:
                thread.join()
            after = servers.memory(server.pid)
            attacks = next(counter)  # the numbers the attackers took, one per request
            ordered = sorted(latencies)
            p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
            rows.append(
                f"| {name} | {attacks} | {statistics.median(ordered) * 1000:.1f} | {p99 * 1000:.1f} | "
                f"{ordered[-1] * 1000:.1f} | {len(failures)} | {before.rss_kib / 1024:.1f} / "
                f"{max(peak, after.rss_kib) / 1024:.1f} / {after.rss_kib / 1024:.1f} |"
            )
            print(rows[-1], file=sys.stderr, flush=True)
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.attacks", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="per attack (default 30)")
    args = parser.parse_args(argv)
    print(
        f"{ATTACKERS} attackers per attack, {args.seconds:g} s each, probe every {PROBE_INTERVAL * 1000:g} ms"
    )
    print(run(args.seconds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
