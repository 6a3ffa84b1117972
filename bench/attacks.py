"""``python -m bench.attacks [--seconds S]``: the GraphQL attack catalogue and bots searching at the
largest budget, against the service started as README says (one worker), four attacking clients per
attack, while a probe sends one REST ``sjuan/new`` every 100 ms; prints a table (see bench/README.md,
"Attacks")."""

from __future__ import annotations

import argparse
import http.client
import itertools
import re
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import orjson

from bench import servers
from bench.inprocess import mid_deal
from sevens_rules.api.bots import DEFAULT_MAX_BUDGET_MS
from sevens_rules.engine.registry import GAMES

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


Request = Callable[[int], tuple[str, bytes]]
"""An attack's ``n``-th request: its path and body."""


def _graphql(make: Callable[[int], str]) -> Request:
    return lambda n: ("/graphql", orjson.dumps({"query": make(n)}))


def _bot_searches() -> dict[str, Request]:
    """A search of a mid-deal four-seat Sjuan state at the service's default largest budget, over REST and
    over GraphQL (the state as a variable); and over REST every other request with a ``bot_seed`` of its
    own, so that a seeded and an unseeded search often think at once (each has its own turn)."""
    game = GAMES["sjuan"]
    state, _ = mid_deal(game, 4)
    seat = game.moves(state)[0][0]
    posted = state.model_dump(mode="json")
    budget = DEFAULT_MAX_BUDGET_MS
    rest = orjson.dumps({"state": posted, "player": seat, "level": "search", "budget_ms": budget})
    query = (
        "query($s: SjuanStateInput!, $p: Int!) { sjuanBot(state: $s, player: $p, level: search, "
        f"budget_ms: {budget}) {{ ... on SjuanBotResponse {{ move {{ card }} iterations }} }} }}"
    )
    graphql = orjson.dumps({"query": query, "variables": {"s": posted, "p": seat}})

    def seeded_or_not(n: int) -> tuple[str, bytes]:
        if not _seeded_request(n):
            return "/v1/games/sjuan/bot", rest
        seeded = {
            "state": posted,
            "player": seat,
            "level": "search",
            "budget_ms": budget,
            "bot_seed": f"a{n}",
        }
        return "/v1/games/sjuan/bot", orjson.dumps(seeded)

    return {
        "REST bot search": lambda n: ("/v1/games/sjuan/bot", rest),
        "REST bot search, half seeded": seeded_or_not,
        "GraphQL bot search": lambda n: ("/graphql", graphql),
    }


def _seeded_request(number: int) -> bool:
    """Whether request ``number`` of the half-seeded attack carries a ``bot_seed``: the even-numbered ones."""
    return number % 2 == 0


def _post(connection: http.client.HTTPConnection, path: str, body: bytes) -> tuple[int, bytes]:
    connection.request("POST", path, body, {"content-type": "application/json"})
    response = connection.getresponse()
    return response.status, response.read()


UNSEARCHED = re.compile(rb'"iterations":\s*0[,}]')
"""A bot answer that did not search (its budget ran out while it waited for its turn)."""


def _attacker(
    port: int,
    make: Request,
    stop: threading.Event,
    counter: itertools.count[int],
    answered: list[float],
    unsearched: list[int],
) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    while not stop.is_set():
        number = next(counter)
        path, body = make(number)
        start = time.monotonic()
        try:
            _, answer = _post(connection, path, body)
            answered.append(time.monotonic() - start)
            if UNSEARCHED.search(answer):
                unsearched.append(number)
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
            status, _ = _post(connection, "/v1/games/sjuan/new", body)
            if status != 200:
                failures.append(str(status))
        except (OSError, http.client.HTTPException) as error:
            failures.append(type(error).__name__)
        latencies.append(time.monotonic() - start)
        connection.close()
        next_at += PROBE_INTERVAL
        stop.wait(max(0.0, next_at - time.monotonic()))


def run(seconds: float, only: str | None = None) -> str:
    """The table of every attack (``only``: the attacks whose names contain it)."""
    rows = [
        "| attack | attack requests | attack answer p50 / max ms | probe p50 ms | probe p99 ms "
        "| probe max ms | failed probes | RSS MiB before / peak / after | bot answers not searched |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    attacks = {name: _graphql(make) for name, make in ATTACKS.items()} | _bot_searches()
    attacks = {name: make for name, make in attacks.items() if only is None or only in name}
    with tempfile.TemporaryDirectory() as workdir, servers.service(Path(workdir), {}) as server:
        port = int(server.base_url.rsplit(":", 1)[1])
        for name, make in attacks.items():
            before = servers.memory(server.pid)
            stop = threading.Event()
            counter = itertools.count()
            latencies: list[float] = []
            failures: list[str] = []
            answered: list[float] = []
            unsearched: list[int] = []
            threads = [
                threading.Thread(target=_attacker, args=(port, make, stop, counter, answered, unsearched))
                for _ in range(ATTACKERS)
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
            sent = next(counter)  # the numbers the attackers took, one per request
            ordered = sorted(latencies)
            p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
            answer = (
                f"{statistics.median(answered) * 1000:.1f} / {max(answered) * 1000:.1f}" if answered else "-"
            )
            rows.append(
                f"| {name} | {sent} | {answer} | {statistics.median(ordered) * 1000:.1f} | "
                f"{p99 * 1000:.1f} | {ordered[-1] * 1000:.1f} | {len(failures)} | "
                f"{before.rss_kib / 1024:.1f} / {max(peak, after.rss_kib) / 1024:.1f} / "
                f"{after.rss_kib / 1024:.1f} | {_unsearched(name, unsearched)} |"
            )
            print(rows[-1], file=sys.stderr, flush=True)
    return "\n".join(rows)


def _unsearched(attack: str, numbers: list[int]) -> str:
    """How many bot answers did not search: in the half-seeded attack, the seeded requests
    (:func:`_seeded_request`) and the others apart; "-" for an attack that asks no bot."""
    if "bot" not in attack:
        return "-"
    if "seeded" not in attack:
        return str(len(numbers))
    seeded = sum(1 for number in numbers if _seeded_request(number))
    return f"{seeded} seeded, {len(numbers) - seeded} not"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.attacks", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="per attack (default 30)")
    parser.add_argument("--only", help="the attacks whose names contain this text (e.g. 'bot')")
    args = parser.parse_args(argv)
    print(
        f"{ATTACKERS} attackers per attack, {args.seconds:g} s each, probe every {PROBE_INTERVAL * 1000:g} ms"
    )
    print(run(args.seconds, args.only))
    return 0


if __name__ == "__main__":
    sys.exit(main())
