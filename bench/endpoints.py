"""What the HTTP part loads: REST and GraphQL ``moves``/``apply`` on a mid-deal Sjuan state, and sealed
(referee mode) ``moves``/``apply`` on the same position when the service has sealed routes."""

from __future__ import annotations

import base64
import os
import random
import secrets
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson

from bench.inprocess import MOVES_SEED, mid_deal
from bench.servers import BenchError
from sevens_rules.engine.registry import GAMES

HTTP_GAME = "sjuan"
HTTP_PLAYERS = 4

GRAPHQL_MOVES = (
    "query($s: SjuanStateInput!){ sjuanMoves(state: $s) { __typename "
    "... on SjuanMovesResponse { to_act moves { type player card } } } }"
)
GRAPHQL_APPLY = (
    "query($s: SjuanStateInput!, $m: SjuanMoveInput!){ sjuanApply(state: $s, move: $m) { __typename "
    "... on SjuanApplyResponse { state { phase turn hands table chips } events { __typename } } } }"
)

SEAL_KEYS_VARIABLE = "RULES_SEAL_KEYS"
"""The service's referee-mode keys; the bench passes its own value of it on, or makes one up."""


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
    target: float | None = None
    """Least ratio to the ceiling the issue asks for (None: no ratio target)."""
    at_least_as_fast_as: str | None = None
    """The name of a row whose requests per second this one should reach."""
    share: float = 1.0
    """The share of that row's requests per second this one should reach (the issue asks 0.8 of plain
    ``apply`` for sealed ``apply`` with a match store)."""
    base_url: str | None = None
    """The service this row loads (None: the bench's main service)."""


@dataclass(frozen=True)
class PlainSetup:
    """The mid-deal state the plain rows post, and how it was reached."""

    model: Any
    """The state."""
    path: list[Any]
    """The moves from the first deal to the state, as JSON data."""
    endpoints: list[Endpoint]


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


def post_json(url: str, data: Any) -> tuple[int, Any]:
    """One POST of ``data`` as JSON; the status and the parsed answer (None when it is not JSON)."""
    status, answer = post(url, orjson.dumps(data))
    try:
        return status, orjson.loads(answer)
    except orjson.JSONDecodeError:
        return status, None


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


def plain_setup() -> PlainSetup:
    """REST and GraphQL ``moves``/``apply`` on the mid-deal four-player Sjuan state."""
    game = GAMES[HTTP_GAME]
    state, path = mid_deal(game, HTTP_PLAYERS)
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

    endpoints = [
        Endpoint(
            "REST `moves`",
            f"/v1/games/{HTTP_GAME}/moves",
            orjson.dumps({"state": state_json}),
            lambda d: d.get("to_act") == to_act and d.get("moves") == moves_json,
            0.55,
        ),
        Endpoint(
            "REST `apply`",
            f"/v1/games/{HTTP_GAME}/apply",
            orjson.dumps({"state": state_json, "move": move_json}),
            lambda d: d.get("state") == after_json,
            0.45,
        ),
        Endpoint(
            "GraphQL `sjuanMoves`",
            "/graphql",
            orjson.dumps({"query": GRAPHQL_MOVES, "variables": {"s": state_json}}),
            graphql_moves_ok,
            0.15,
        ),
        Endpoint(
            "GraphQL `sjuanApply`",
            "/graphql",
            orjson.dumps({"query": GRAPHQL_APPLY, "variables": {"s": state_json, "m": move_json}}),
            graphql_apply_ok,
        ),
    ]
    return PlainSetup(state, [dumped(m) for m in path], endpoints)


def bench_seal_keys() -> str:
    """The ``RULES_SEAL_KEYS`` the service is started with: the bench's own environment's, else one
    fresh key (id ``bench``, 32 random bytes, base64url)."""
    fresh = base64.urlsafe_b64encode(secrets.token_bytes(32)).decode().rstrip("=")
    return os.environ.get(SEAL_KEYS_VARIABLE) or f"bench:{fresh}"


@dataclass(frozen=True)
class SealedSetup:
    """The sealed rows, or why there are none."""

    endpoints: list[Endpoint]
    unavailable: str | None
    """Why the sealed rows could not be measured (None: they were)."""


def sealed_setup(
    base_url: str, plain: PlainSetup, store: str = "embedded", moves_row: bool = True
) -> SealedSetup:
    """Sealed ``moves`` and ``apply`` after the plain rows' random walk: sealed ``new`` (the service draws
    the seed: a client never chooses it) and the host's ``fill`` of every seat, then the same choices,
    asked seat by seat with seat keys. ``store`` names the service's match store in the ``apply`` row.

    A service without sealed routes (404) makes the rows "not available"; one that has them but answers
    anything unexpected is an error, as for every other row.
    """
    prefix = f"{base_url}/v1/games/{HTTP_GAME}/sealed"
    status, table = post_json(f"{prefix}/new", {"players": HTTP_PLAYERS})
    if status == 404:
        return SealedSetup([], "the service has no sealed routes (404 at sealed/new)")
    if status != 200 or not isinstance(table, dict):
        raise BenchError(f"sealed new answered {status}: {table!r:.1000}")
    status, answer = post_json(
        f"{prefix}/fill", {"token": table.get("token"), "host_key": table.get("host_key")}
    )
    if status != 200 or not isinstance(answer, dict):
        raise BenchError(f"sealed fill answered {status}: {answer!r:.1000}")
    keys = answer.get("seat_keys")
    if not isinstance(keys, list) or len(keys) != HTTP_PLAYERS:
        raise BenchError(f"sealed new answered no seat_keys list: {answer!r:.1000}")
    token = answer.get("token")

    def seat_moves(seat: int) -> list[Any]:
        status, answer = post_json(f"{prefix}/moves", {"token": token, "seat": seat, "seat_key": keys[seat]})
        if status != 200 or not isinstance(answer, dict) or not isinstance(answer.get("moves"), list):
            raise BenchError(f"sealed moves for seat {seat} answered {status}: {answer!r:.1000}")
        moves: list[Any] = answer["moves"]
        return moves

    rng = random.Random(MOVES_SEED)  # the walk of bench.inprocess.mid_deal: same choices, same order
    for _ in plain.path:
        move = rng.choice([m for seat in range(HTTP_PLAYERS) for m in seat_moves(seat)])
        seat = move["player"]
        status, answer = post_json(
            f"{prefix}/apply", {"token": token, "seat": seat, "seat_key": keys[seat], "move": move}
        )
        if status != 200 or not isinstance(answer, dict) or not isinstance(answer.get("token"), str):
            raise BenchError(f"sealed apply answered {status}: {answer!r:.1000}")
        token = answer["token"]

    seat, moves = next((s, m) for s in range(HTTP_PLAYERS) if (m := seat_moves(s)))
    asked = {"token": token, "seat": seat, "seat_key": keys[seat]}
    endpoints = [
        Endpoint(
            "sealed `moves`",
            f"/v1/games/{HTTP_GAME}/sealed/moves",
            orjson.dumps(asked),
            lambda d: d.get("moves") == moves,
            base_url=base_url,
        )
    ][: 1 if moves_row else 0]
    endpoints.append(
        Endpoint(
            f"sealed `apply`, {store} store",
            f"/v1/games/{HTTP_GAME}/sealed/apply",
            orjson.dumps({**asked, "move": moves[0]}),
            lambda d: isinstance(d.get("token"), str) and d["token"] != token,
            at_least_as_fast_as="REST `apply`",
            share=0.8 if store != "no" else 1.0,
            base_url=base_url,
        )
    )
    return SealedSetup(endpoints, None)
