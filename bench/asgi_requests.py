"""A fixed number of HTTP requests answered by the whole ASGI app in process, for counting instructions.

``python -m bench.asgi_requests ROW N`` builds the app as the service does (every middleware), then
answers ``N`` requests of one bench row (``moves``, ``apply``, ``graphql-moves``, ``graphql-apply``,
``sealed-moves``, ``sealed-apply``, or ``ceiling`` with the REST ``moves`` body) on a uvloop event loop,
with no server and no socket. Counted twice under valgrind (``N`` and 0), the difference over ``N`` is
the app's own instructions per request (bench/README.md, "Counting instructions instead of seconds").
Every answer is checked to be a 200.
"""

from __future__ import annotations

import asyncio
import base64
import os
import random
import sys
import tempfile
from typing import Any

import orjson
import uvloop

from bench.endpoints import HTTP_GAME, HTTP_PLAYERS, SEAL_KEYS_VARIABLE, plain_setup
from bench.inprocess import MOVES_SEED
from bench.servers import BenchError

ROWS = ("moves", "apply", "graphql-moves", "graphql-apply", "sealed-moves", "sealed-apply", "ceiling")
BENCH_KEY = base64.urlsafe_b64encode(bytes(32)).decode().rstrip("=")
"""A fixed server key (32 zero bytes): instruction counts should not depend on a random key."""


async def call(app: Any, path: str, body: bytes) -> tuple[int, bytes]:
    """One POST through the ASGI app: the status and the response body."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"bench"), (b"content-type", b"application/json")],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 8000),
    }
    sent = False
    status = 0
    chunks: list[bytes] = []

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.Event().wait()  # a real server's receive waits for a disconnect
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        else:
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    return status, b"".join(chunks)


async def row_request(app: Any, row: str) -> tuple[str, bytes]:
    """The path and body of ``row``, reached in process (sealed rows: the bench's walk, seat by seat)."""
    plain = plain_setup()
    by_name = {e.name: e for e in plain.endpoints}
    named = {
        "moves": "REST `moves`",
        "ceiling": "REST `moves`",
        "apply": "REST `apply`",
        "graphql-moves": "GraphQL `sjuanMoves`",
        "graphql-apply": "GraphQL `sjuanApply`",
    }
    if row in named:
        endpoint = by_name[named[row]]
        return ("/parse" if row == "ceiling" else endpoint.path), endpoint.body
    prefix = f"/v1/games/{HTTP_GAME}/sealed"

    async def post(path: str, data: Any) -> Any:
        status, answer = await call(app, path, orjson.dumps(data))
        if status != 200:
            raise BenchError(f"{path} answered {status}: {answer[:500]!r}")
        return orjson.loads(answer)

    table = await post(f"{prefix}/new", {"players": HTTP_PLAYERS})
    created = await post(f"{prefix}/fill", {"token": table["token"], "host_key": table["host_key"]})
    token, keys = created["token"], created["seat_keys"]

    async def seat_moves(seat: int) -> list[Any]:
        answer = await post(f"{prefix}/moves", {"token": token, "seat": seat, "seat_key": keys[seat]})
        moves: list[Any] = answer["moves"]
        return moves

    rng = random.Random(MOVES_SEED)
    for _ in plain.path:
        options = [m for seat in range(HTTP_PLAYERS) for m in await seat_moves(seat)]
        move = rng.choice(options)
        seat = move["player"]
        answer = await post(
            f"{prefix}/apply", {"token": token, "seat": seat, "seat_key": keys[seat], "move": move}
        )
        token = answer["token"]
    for seat in range(HTTP_PLAYERS):
        moves = await seat_moves(seat)
        if moves:
            break
    asked = {"token": token, "seat": seat, "seat_key": keys[seat]}
    if row == "sealed-moves":
        return f"{prefix}/moves", orjson.dumps(asked)
    return f"{prefix}/apply", orjson.dumps({**asked, "move": moves[0]})


async def main(row: str, count: int) -> None:
    """Answer ``count`` requests of ``row``."""
    app: Any
    if row == "ceiling":
        from bench.ceiling import app
    else:
        from sevens_rules.api import sealed
        from sevens_rules.api.app import app
        from sevens_rules.engine.dealing import SEED_BYTES

        # the same deal and match id every run, so that two counts differ only by the requests
        sealed.draw_seed = lambda: "00" * SEED_BYTES
        setattr(sealed, "new_match_id", lambda: bytes(16))  # noqa: B010 (imported into sealed)
    path, body = await row_request(app, row)
    for _ in range(count):
        status, answer = await call(app, path, body)
        if status != 200:
            raise BenchError(f"{row} answered {status}: {answer[:500]!r}")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ROWS or not sys.argv[2].isdigit():
        raise SystemExit(f"usage: python -m bench.asgi_requests {{{'|'.join(ROWS)}}} N")
    os.environ[SEAL_KEYS_VARIABLE] = f"bench:{BENCH_KEY}"
    # a fresh embedded match store: every run deals the same match id, which a store remembers
    os.environ["RULES_DATA_DIR"] = tempfile.mkdtemp(prefix="sevens-rules-bench-")
    uvloop.run(main(sys.argv[1], int(sys.argv[2])))
