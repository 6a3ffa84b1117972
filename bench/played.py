"""Sealed ``apply`` as matches are played, in process: every move claims a new version in the match store.

The HTTP rows repeat one body, so after its first request each sealed ``apply`` there is a retry, which a
worker answers from its memory of accepted answers. A match as played is the other case: every ``apply``
opens the token the last answer gave, applies, seals and makes a first claim. Here ``MATCHES`` Sjuan
matches of four seats are dealt, and their first ``MOVES`` moves (the same seeded choices for every
store) are played at once in one worker, each match waiting for its last answer's token, as many seats
of many tables do; the claims of one turn of the event loop are settled together
(:class:`sevens_rules.api.match_store.ClaimBatches`). The baseline is plain ``apply`` of the same states
and moves, posted in full. Each rate counts the parsing of the request and the writing of the answer,
as the REST endpoint runs them, without HTTP.

``python -m bench.played`` prints the table (bench/README.md, "Match stores").
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.redis_server import REDIS_SERVER, redis_server
from sevens_rules.api.match_store import EmbeddedStore, MatchStore
from sevens_rules.api.operations import all_operations
from sevens_rules.api.problems import dump
from sevens_rules.api.redis_store import RedisStore
from sevens_rules.api.sealed import sealed_models, sealed_runs
from sevens_rules.api.sealing import Keyring, open_token
from sevens_rules.engine.registry import GAMES

GAME = "sjuan"
PLAYERS = 4
MATCHES = 16
MOVES = 40
ROUNDS = 3
"""Each store is timed this many times, alternating with the others; the table shows the best round."""
BENCH_KEYS = "bench:" + "A" * 43
"""A fixed server key (32 zero bytes, URL-safe base64 without padding)."""


class Played:
    """The matches of one store, dealt, with their seat keys and the moves to play."""

    def __init__(self, ring: Keyring, store: MatchStore | None) -> None:
        self.game = GAMES[GAME]
        self.runs = sealed_runs(self.game, ring, store=store)
        self.request = sealed_models(GAME).apply_request
        self.matches = [self._dealt() for _ in range(MATCHES)]

    def _dealt(self) -> dict[str, Any]:
        models = sealed_models(GAME)
        table = _answered(self.runs["new"](models.new_request.model_validate({"players": PLAYERS})))
        filled = _answered(
            self.runs["fill"](
                models.fill_request.model_validate({"token": table.token, "host_key": table.host_key})
            )
        )
        return {"token": filled.token, "seat_keys": filled.seat_keys}


def _answered(answer: Any) -> Any:
    return asyncio.run(answer) if asyncio.iscoroutine(answer) else answer


def _scripts(ring: Keyring, matches: list[dict[str, Any]]) -> list[list[tuple[int, bytes, bytes]]]:
    """For each match: its moves as (seat, move JSON, the plain apply body of the state it is played on),
    chosen by a seeded random player, the same for every store (the deal is the match's own)."""
    game = GAMES[GAME]
    scripts = []
    for index, match in enumerate(matches):
        rng = random.Random(index)
        state = game.models.state.model_validate_json(open_token(ring, GAME, match["token"]).state_json)
        moves = []
        for _ in range(MOVES):
            seats = game.to_act(state)
            if not seats:
                break
            move = rng.choice(game.legal_moves(state, seats[0]))
            plain = b'{"state": ' + dump(state) + b', "move": ' + dump(move) + b"}"
            moves.append((seats[0], dump(move), plain))
            state, _ = game.apply(state, move)
        scripts.append(moves)
    return scripts


async def _play_sealed(played: Played, match: dict[str, Any], script: list[tuple[int, bytes, bytes]]) -> int:
    token = match["token"]
    apply = played.runs["apply"]
    parse = played.request.model_validate_json
    for seat, move, _ in script:
        key = match["seat_keys"][seat]
        body = b'{"token": "%s", "seat": %d, "seat_key": "%s", "move": %s}' % (
            token.encode(),
            seat,
            key.encode(),
            move,
        )
        answer = apply(parse(body))
        if asyncio.iscoroutine(answer):
            answer = await answer
        dump(answer)
        token = answer.token
    return len(script)


def _sealed_rate(played: Played, scripts: list[list[tuple[int, bytes, bytes]]]) -> float:
    async def everyone() -> int:
        plays = (_play_sealed(played, m, s) for m, s in zip(played.matches, scripts, strict=True))
        return sum(await asyncio.gather(*plays))

    started = time.perf_counter()
    applied = asyncio.run(everyone())
    return applied / (time.perf_counter() - started)


def _plain_rate(ring: Keyring, scripts: list[list[tuple[int, bytes, bytes]]]) -> float:
    op = next(
        op for op in all_operations(ring) if op.game.id == GAME and op.name == "apply" and not op.sealed
    )
    bodies = [body for script in scripts for _, _, body in script]
    started = time.perf_counter()
    for body in bodies:
        dump(op.run(op.request.model_validate_json(body)))
    return len(bodies) / (time.perf_counter() - started)


def played_table(stores: dict[str, Callable[[], MatchStore | None]], ring: Keyring) -> str:
    """The table: applies per second for each store and for plain ``apply``, the best of the rounds."""
    best: dict[str, float] = {}
    for _ in range(ROUNDS):
        for name, make in stores.items():
            played = Played(ring, make())
            scripts = _scripts(ring, played.matches)
            best[name] = max(best.get(name, 0.0), _sealed_rate(played, scripts))
            if name == "no store":
                best["plain"] = max(best.get("plain", 0.0), _plain_rate(ring, scripts))
    plain = best["plain"]
    lines = [
        "| apply | applies per second | against plain `apply` |",
        "| --- | ---: | ---: |",
        f"| plain (state posted) | {plain:,.0f} | 1.00 |",
    ]
    for name in stores:
        lines.append(f"| sealed, {name} | {best[name]:,.0f} | {best[name] / plain:.2f} |")
    lines.append(
        f"\n{MATCHES} {GAME} matches of {PLAYERS} seats played at once in one worker, their first "
        f"{MOVES} moves each; best of {ROUNDS} rounds."
    )
    return "\n".join(lines)


def main() -> int:
    ring = Keyring.parse(BENCH_KEYS)
    assert ring is not None
    with tempfile.TemporaryDirectory(prefix="bench-played-") as tmp:
        stores: dict[str, Callable[[], MatchStore | None]] = {
            "no store": lambda: None,
            "embedded store": lambda: EmbeddedStore(Path(tempfile.mkdtemp(dir=tmp))),
        }
        if not Path(REDIS_SERVER).exists():
            print(f"{REDIS_SERVER} is not installed: the Redis row is left out.")
            print(played_table(stores, ring))
            return 0
        with redis_server(Path(tmp)) as redis:
            stores["Redis store"] = lambda: RedisStore(redis.url)
            print(played_table(stores, ring))
    return 0


if __name__ == "__main__":
    sys.exit(main())
