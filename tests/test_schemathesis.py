"""Schemathesis against the REST OpenAPI document and the GraphQL schema, in-process and bounded.

Every REST operation: no 5xx, the status code is documented, the content type is the documented one for
that status, the body conforms to the documented schema, schema-invalid requests are refused, and a problem
body carries the HTTP status it was sent with. Every GraphQL root field: no server error, and no problem
of status 500 hidden in the data (GraphQL returns problems as data). The same REST checks then run on the
answers to real states (seeded matches of every listed game), which fuzzing almost never reaches.

Bounded for CI: a fixed number of examples per operation, no deadline, no health checks, and
``derandomize=True`` so every run generates the same cases.
"""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette asks for httpx2, which its test client does not need yet
    from starlette.testclient import TestClient

from sevens_rules.api.app import create_app
from sevens_rules.api.limits import Settings
from sevens_rules.engine.registry import GAMES
from tests.sealed_helpers import keyring
from tests.seeds import seed_hex, seeding

APP = create_app(Settings(), keyring("fuzz=7"))  # sealed operations on, so fuzzing reaches the tokens
REST = schemathesis.openapi.from_asgi("/openapi.json", APP)
GRAPHQL = schemathesis.graphql.from_asgi("/graphql", APP)

REST_EXAMPLES = 20
GRAPHQL_EXAMPLES = 15
SEALED_EXAMPLES = 5
"""Fewer for the sealed twins: past the schema, a fuzzed token is refused at once."""


def _bounded(max_examples: int) -> settings:
    return settings(
        max_examples=max_examples,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
        print_blob=True,
    )


def no_stack_trace(ctx: Any, response: Any, case: Any) -> bool | None:
    """No body ever shows a stack trace."""
    assert "Traceback" not in response.text, f"stack trace in the response body: {response.text[:500]}"
    return None


def problem_carries_its_status(ctx: Any, response: Any, case: Any) -> bool | None:
    """A problem details body names the status it was sent with."""
    if response.headers.get("content-type", [""])[0] == "application/problem+json":
        body = response.json()
        assert body["status"] == response.status_code, body
        assert isinstance(body["code"], str) and body["code"], body
    return None


def _internal_problems(node: Any) -> list[Any]:
    if isinstance(node, dict):
        found = [node] if node.get("code") == "internal" or _is_server_status(node.get("status")) else []
        return found + [p for value in node.values() for p in _internal_problems(value)]
    if isinstance(node, list):
        return [p for value in node for p in _internal_problems(value)]
    return []


def _is_server_status(status: Any) -> bool:
    return isinstance(status, int) and not isinstance(status, bool) and status >= 500


def no_internal_problem_as_data(ctx: Any, response: Any, case: Any) -> bool | None:
    """GraphQL returns problems as data: none of them may be an internal (500) error."""
    body = response.json()
    if isinstance(body, dict):
        found = _internal_problems(body.get("data"))
        assert not found, f"internal error returned as data: {found}"
    return None


def negative_data_refused(ctx: Any, response: Any, case: Any) -> bool | None:
    """Schemathesis's ``negative_data_rejection``, with 413 among the refusals: a schema-violating body
    larger than the body limit is refused for its size before its content is read."""
    if response.status_code == 413:
        assert response.json()["code"] == "request/too-large", response.text
        return None
    return negative_data_rejection(ctx, response, case)


def graphql_not_a_server_error(ctx: Any, response: Any, case: Any) -> bool | None:
    """Schemathesis's ``not_a_server_error`` for GraphQL, with the service's own refusal of a costly
    document among the client errors: a 400 ``graphql/too-costly`` problem, whose ``errors`` point at
    ``/query`` with a JSON path (schemathesis reads any error with a ``path`` as a resolver's failure).
    Inline states of fuzzed size pass the token limit; the README says to send states as variables."""
    if response.status_code == 400 and response.json().get("code") == "graphql/too-costly":
        assert response.headers.get("content-type", [""])[0] == "application/problem+json", response.text
        return None
    return not_a_server_error(ctx, response, case)


REST_CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_refused,
    no_stack_trace,
    problem_carries_its_status,
]
GRAPHQL_CHECKS = [graphql_not_a_server_error, no_stack_trace, no_internal_problem_as_data]


@_bounded(REST_EXAMPLES)
@REST.exclude(path_regex="/sealed/").parametrize()
def test_rest(case: Any) -> None:
    case.call_and_validate(checks=REST_CHECKS)


@_bounded(SEALED_EXAMPLES)
@REST.include(path_regex="/sealed/").parametrize()
def test_rest_sealed(case: Any) -> None:
    case.call_and_validate(checks=REST_CHECKS)


@_bounded(GRAPHQL_EXAMPLES)
@GRAPHQL.exclude(name_regex="Sealed").parametrize()
def test_graphql(case: Any) -> None:
    case.call_and_validate(checks=GRAPHQL_CHECKS)


@_bounded(SEALED_EXAMPLES)
@GRAPHQL.include(name_regex="Sealed").parametrize()
def test_graphql_sealed(case: Any) -> None:
    case.call_and_validate(checks=GRAPHQL_CHECKS)


# ---- real states ---------------------------------------------------------------------------------------
# Generated states are almost never consistent, so fuzzing mostly meets 422s. Here the same checks run on
# the responses to real states: seeded random matches of every listed game at its smallest and largest
# table, sampled along the way and at the end, through every operation.

with TestClient(APP) as _client:
    LISTED = _client.get("/v1/games").json()["games"]

TABLES = [
    pytest.param(game["id"], players, id=f"{game['id']}-{players}p")
    for game in LISTED
    for players in sorted({game["min_players"], game["max_players"]})
]
MAX_STEPS = 3000
SAMPLES = 40
REAL_CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    no_stack_trace,
    problem_carries_its_status,
]


def _call(game_id: str, operation: str, body: dict[str, Any]) -> Any:
    """POST a request built from real data; schemathesis validates the answer against the document."""
    case = REST[f"/v1/games/{game_id}/{operation}"]["POST"].Case(body=body, media_type="application/json")
    return case.call_and_validate(checks=REAL_CHECKS)


def _json(model: Any) -> Any:
    return model.model_dump(mode="json")


@pytest.mark.parametrize(("game_id", "players"), TABLES)
def test_real_states_conform(game_id: str, players: int) -> None:
    game = GAMES[game_id]
    rng = random.Random(f"{game_id}/{players}")
    seed = rng.randrange(2**31)
    fresh = _call(game_id, "seed", {})
    assert fresh.status_code == 200, fresh.text
    first = _call(game_id, "new", {"players": players, "seed": seed_hex(seed), "entropy": ["seat 0"]})
    assert first.status_code == 200, first.text
    state = game.new(players, game.models.options(), seeding(seed, ["seat 0"]), None, None)
    assert first.json()["state"] == _json(state)
    verified = _call(
        game_id,
        "verify",
        {"players": players, "seed": state.seed, "commitment": state.commitment, "entropy": ["seat 0"]},
    )
    assert verified.status_code == 200, verified.text
    assert verified.json()["commitment_matches"] and verified.json()["hands"] == state.hands
    path: list[tuple[Any, Any]] = []
    for _ in range(MAX_STEPS):
        _, listed = game.moves(state)
        move = rng.choice(listed) if listed else None
        path.append((state, move))
        if move is None:
            break
        state, _ = game.apply(state, move)
    stride = max(1, len(path) // SAMPLES)
    sampled = [i for i in range(len(path)) if i < 2 or i % stride == 0 or i >= len(path) - 3]
    for index in sampled:
        state, move = path[index]
        body = {"state": _json(state)}
        to_act, listed = game.moves(state)
        answer = _call(game_id, "moves", body)
        assert answer.status_code == 200, answer.text
        assert answer.json() == {"to_act": to_act, "moves": [_json(m) for m in listed]}
        assert _call(game_id, "score", body).status_code == 200
        for seat in to_act or [0]:
            assert _call(game_id, "view", {**body, "player": seat}).status_code == 200
        if move is not None:
            applied = _call(game_id, "apply", {**body, "move": _json(move)})
            assert applied.status_code == 200, applied.text
            assert applied.json()["state"] == _json(game.apply(state, move)[0])
            others = [seat for seat in range(players) if seat not in to_act]
            if others:
                wrong = {**_json(move), "player": others[0]}
                refused = _call(game_id, "apply", {**body, "move": wrong})
                assert refused.status_code in (409, 422), refused.text
        elif path[index - 1][1] is not None:
            over = _call(game_id, "apply", {**body, "move": _json(path[index - 1][1])})
            assert over.status_code == 409, over.text
            assert over.json()["code"] == "match/over"


@pytest.mark.parametrize("game_id", list(GAMES))
def test_sealed_answers_conform(game_id: str) -> None:
    """A sealed match of every game through every sealed operation and a refused move, checked against
    the document."""
    game = GAMES[game_id]
    table = _call(f"{game_id}/sealed", "new", {"players": game.table_sizes()[0]}).json()
    joined = _call(
        f"{game_id}/sealed", "join", {"token": table["token"], "seat": 0, "entropy": "mine"}
    ).json()
    fill = {"token": joined["token"], "host_key": table["host_key"]}
    match = _call(f"{game_id}/sealed", "fill", fill).json()
    token, keys = match["token"], [joined["seat_key"], *match["seat_keys"][1:]]
    for _ in range(3):
        seat_body = {"token": token, "seat": 0, "seat_key": keys[0]}
        moves = _call(f"{game_id}/sealed", "moves", seat_body).json()
        assert _call(f"{game_id}/sealed", "view", seat_body).status_code == 200
        assert _call(f"{game_id}/sealed", "score", {"token": token}).status_code == 200
        seat = moves["to_act"][0]
        body = {"token": token, "seat": seat, "seat_key": keys[seat]}
        move = _call(f"{game_id}/sealed", "moves", body).json()["moves"][0]
        refused = _call(f"{game_id}/sealed", "apply", {**body, "seat_key": keys[seat - 1], "move": move})
        assert refused.status_code == 403
        applied = _call(f"{game_id}/sealed", "apply", {**body, "move": move})
        assert applied.status_code == 200, applied.text
        token = applied.json()["token"]
