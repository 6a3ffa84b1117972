"""Hostile traffic: the attacks of a security review, repeated in-process (and, for slow connections,
against a real uvicorn server on a loopback port).

Bad bodies never reach a 500; every integer a state carries is bounded, so everything the service
answers it accepts back; work and output per request are bounded (list lengths, capped issue lists,
the body limit sized from the largest real states, one GraphQL operation per document); slow and
broken clients are cut off and logged quietly; bad configuration stops the service with one line.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import os
import socket
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import orjson
import pytest
import uvicorn
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette asks for httpx2, which its test client does not need yet
    from starlette.testclient import TestClient

from sevens_rules.__main__ import server_options
from sevens_rules.api import graphql as graphql_module
from sevens_rules.api.app import create_app
from sevens_rules.api.limits import Settings, SettingsError
from sevens_rules.api.problems import MOVE_CODES, TITLES
from sevens_rules.api.server import (
    HTTP_PROTOCOL,
    MAX_HEAD_BYTES,
    HeadTimeoutH11Protocol,
    HeadTimeoutHttpToolsProtocol,
)
from sevens_rules.engine.errors import TITLE_BY_CODE
from sevens_rules.engine.registry import GAMES
from sevens_rules.engine.simulate import PositionSimulation
from sevens_rules.schema.common import MAX_LISTED_ISSUES
from sevens_rules.schema.operations import field_prefix
from sevens_rules.schema.scalars import INT32_MAX
from sevens_rules.schema.seven_up import SEVEN_UP_MAX_DEALS
from tests.largest_states import (
    graphql_literal,
    largest_seven_up_state,
    largest_sjuan_state,
    longest_sevens_state,
)
from tests.sealed_helpers import documented
from tests.seeds import seed_hex
from tests.test_api_errors import (
    ROOT,
    Json,
    apply,
    assert_problem,
    graphql,
    graphql_errors,
    moves_of,
    new_state,
    no_trace,
    ok,
    post,
    post_raw,
)
from tests.threaded_server import served

DEFAULTS = Settings()
ANSWER_BUDGET = 64 * 1024
"""No answer to any request here may be larger than this (the issue's target)."""


def field(game: str, operation: str) -> str:
    """The GraphQL root field of a game's operation (``fan-tan`` + ``moves`` -> ``fanTanMoves``)."""
    return field_prefix(game) + operation.capitalize()


# ---- no 500 for any body shape ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "body", [b'"abc"', b"5", b"null", b"true", b"[]", b'[{"query": "{ games { id } }"}]']
)
def test_graphql_json_that_is_not_an_object_is_a_400(client: TestClient, body: bytes) -> None:
    response = post_raw(client, "/graphql", body)
    assert_problem(response, 400, "graphql/bad-request")


@pytest.mark.parametrize("name", [5, ["a"], {"a": 1}, True])
def test_graphql_operation_name_that_is_not_a_string_is_a_400(client: TestClient, name: Any) -> None:
    body = orjson.dumps({"query": "query A { games { id } }", "operationName": name})
    assert_problem(post_raw(client, "/graphql", body), 400, "graphql/bad-request")


# ---- every integer bounded: everything answered is accepted back -----------------------------------


def test_chips_at_the_integer_limit_are_inconsistent_not_an_overflow(client: TestClient) -> None:
    state = new_state(client, "fan-tan", 3)
    state["chips"][1] = INT32_MAX
    pass_move = {"type": "pass", "player": state["turn"]}
    for operation, body in (
        ("moves", {"state": state}),
        ("apply", {"state": state, "move": pass_move}),
        ("score", {"state": state}),
        ("view", {"state": state, "player": 0}),
    ):
        response = post(client, f"/v1/games/fan-tan/{operation}", body)
        problem = assert_problem(response, 422, "state/inconsistent", "/state/chips/1")
        assert "at most 2 " in problem["errors"][0]["message"]  # nothing played yet: a pass and a short hand
    query = (
        "query($s: FanTanStateInput!) { fanTanScore(state: $s) {"
        " ... on FanTanProblem { code errors { path } } } }"
    )
    result = graphql(client, query, {"s": state}).json()
    assert "errors" not in result, result  # a problem as data, not GraphQL's "Int cannot represent"
    assert result["data"]["fanTanScore"]["code"] == "state/inconsistent"
    assert {"path": "/state/chips/1"} in result["data"]["fanTanScore"]["errors"]


def test_a_deal_record_with_more_chips_than_plays_is_inconsistent(client: TestClient) -> None:
    state = new_state(client, "sjuan", 3)
    over = advance_to_deal_over(client, "sjuan", state)
    record = over["deals"][-1]
    played = 52 - sum(record["cards_left"])
    seat = record["winner"]
    record["chips"][seat] = played + 2
    record["penalties"][seat] = played + 2
    record["pot"] = sum(record["chips"])
    assert_problem(
        post(client, "/v1/games/sjuan/score", {"state": over}),
        422,
        "state/inconsistent",
        f"/state/deals/{len(over['deals']) - 1}/chips/{seat}",
    )


def advance_to_deal_over(client: TestClient, game: str, state: Json) -> Json:
    """Play the first listed move until the deal is over (within a bounded number of moves)."""
    for _ in range(1000):
        if state["phase"] == "deal_over":
            return state
        state = apply(client, game, state, moves_of(client, game, state)["moves"][0])
    raise AssertionError(f"{game}: the deal did not end in 1000 moves")


SHORT_DEALS: dict[str, Json] = {"my-ship-sails": {"options": {"max_exchanges": 2}}}
"""Arguments of ``new`` that make a deal end quickly when the first listed move is always played."""


def _integer_paths(node: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    if isinstance(node, bool):
        return
    if isinstance(node, int):
        yield path
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from _integer_paths(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _integer_paths(value, (*path, index))


def _one_per_field(paths: Iterator[tuple[str | int, ...]]) -> list[tuple[str | int, ...]]:
    """One path per schema field (list indexes ignored), so the probe stays small."""
    seen: dict[tuple[str, ...], tuple[str | int, ...]] = {}
    for path in paths:
        seen.setdefault(tuple(str(p) if isinstance(p, str) else "#" for p in path), path)
    return list(seen.values())


def _resolves(body: Json, pointer: str) -> bool:
    node: Any = body
    for part in pointer.split("/")[1:]:
        key = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and key in node:
            node = node[key]
        elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        else:
            return False
    return True


def _set(node: Any, path: tuple[str | int, ...], value: Any) -> None:
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value


@pytest.mark.parametrize("game", list(GAMES))
def test_every_counter_at_the_integer_limit_is_refused_or_answered_and_accepted_back(
    client: TestClient, game: str
) -> None:
    """Each integer of a state that has finished deals, at GraphQL's Int limit: never a 500, every issue
    path exists in the request, and a state ``apply`` answers is accepted back."""
    players = GAMES[game].table_sizes()[0]
    state = advance_to_deal_over(
        client, game, new_state(client, game, players, seed=seed_hex(5), **SHORT_DEALS.get(game, {}))
    )
    listed = moves_of(client, game, state)["moves"]
    state = apply(client, game, state, listed[0])  # the next deal in play, with a finished one behind
    move = moves_of(client, game, state)["moves"][0]
    for path in _one_per_field(_integer_paths(state)):
        if path[0] == "seed":
            continue
        changed = copy.deepcopy(state)
        _set(changed, path, INT32_MAX)
        for operation, body in (
            ("score", {"state": changed}),
            ("view", {"state": changed, "player": 0}),
            ("apply", {"state": changed, "move": move}),
        ):
            response = post(client, f"/v1/games/{game}/{operation}", body)
            answer = response.json()
            if response.status_code == 200 and operation == "apply":
                ok(post(client, f"/v1/games/{game}/moves", {"state": answer["state"]}))
            elif response.status_code != 200:
                unknown = [e["path"] for e in answer["errors"] if not _resolves(body, e["path"])]
                assert not unknown, (path, operation, answer)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    game=st.sampled_from(list(GAMES)),
    seed=st.integers(0, 10_000),
    choices=st.lists(st.integers(0, 50), max_size=60),
)
def test_every_state_the_service_answers_is_accepted_back(
    client: TestClient, game: str, seed: int, choices: list[int]
) -> None:
    """Random matches through REST: each state ``new`` or ``apply`` returns is posted back unchanged."""
    players = GAMES[game].table_sizes()[-1]
    state = new_state(client, game, players, seed=seed_hex(seed))
    for choice in choices:
        listed = moves_of(client, game, state)["moves"]  # posting it back: a 422 fails here
        if not listed:
            break
        state = apply(client, game, state, listed[choice % len(listed)])
    ok(post(client, f"/v1/games/{game}/score", {"state": state}))


# ---- bounded work and output per request ------------------------------------------------------------


def _seven_up_state(client: TestClient) -> Json:
    return new_state(client, "seven-up", 2)


def test_many_bad_deal_records_are_a_short_answer(client: TestClient) -> None:
    """The review's 205 KB state (1,000 deal records of 64 empty points), cut to fit the body limit."""
    state = _seven_up_state(client)
    record = {
        "number": 1,
        "dealer": 0,
        "outcome": "played",
        "trump": None,
        "points": [{}] * 64,
        "by_side": [0, 0],
    }
    state["deals"] = [record] * 200
    body = orjson.dumps({"state": state})
    assert len(body) < DEFAULTS.max_body_bytes
    response = post_raw(client, "/v1/games/seven-up/moves", body)
    problem = assert_problem(response, 422, "state/invalid", "/state/deals/0/points/0/reason")
    assert len(problem["errors"]) <= MAX_LISTED_ISSUES
    assert len(response.content) < 4096


def test_a_body_of_unknown_keys_lists_twenty_issues_and_counts_the_rest(client: TestClient) -> None:
    extra = {f"k{i}": 0 for i in range(5000)}
    response = post(client, "/v1/games/seven-up/moves", {"state": _seven_up_state(client), **extra})
    problem = assert_problem(response, 422, "request/invalid", "/k0")
    assert len(problem["errors"]) == MAX_LISTED_ISSUES
    assert problem["more_errors"] == 5000 - MAX_LISTED_ISSUES
    assert "(and 4999 more)" in problem["detail"]
    assert len(response.content) < 4096


def test_an_inconsistent_state_lists_twenty_issues_and_counts_the_rest(client: TestClient) -> None:
    state = new_state(client, "sjuan", 4)
    state["hands"][0] = ["AC"] * 52  # 51 duplicates and the cards they replaced
    problem = assert_problem(
        post(client, "/v1/games/sjuan/moves", {"state": state}), 422, "state/inconsistent"
    )
    assert len(problem["errors"]) == MAX_LISTED_ISSUES
    assert problem["more_errors"] > 0


def test_a_body_over_the_default_limit_is_a_413(client: TestClient) -> None:
    body = b'{"state": "' + b"x" * DEFAULTS.max_body_bytes + b'"}'
    assert_problem(post_raw(client, "/v1/games/sjuan/moves", body), 413, "request/too-large")


def _largest_states() -> list[tuple[str, Json]]:
    return [
        ("domino-fan-tan", largest_sjuan_state("domino-fan-tan", 2)),
        ("sjuan", largest_sjuan_state("sjuan", 3)),
        ("sjuan", largest_sjuan_state("sjuan", 8)),
        ("free-fan-tan", largest_sjuan_state("free-fan-tan", 3)),
        ("seven-up", largest_seven_up_state("seven-up", 3)),
        ("four-handed-seven-up", largest_seven_up_state("four-handed-seven-up", 4)),
        ("sevens", longest_sevens_state()),
    ]


@pytest.fixture(scope="module")
def largest_states() -> list[tuple[str, Json]]:
    """The largest state of each game whose matches grow long."""
    return _largest_states()


def test_the_largest_states_fit_the_default_limits_with_room_to_spare(
    client: TestClient, largest_states: list[tuple[str, Json]]
) -> None:
    for game, state in largest_states:
        body = orjson.dumps({"state": state})
        assert 2 * len(body) < DEFAULTS.max_body_bytes, (game, len(body))
        answer = ok(post_raw(client, f"/v1/games/{game}/moves", body))
        if answer["moves"]:
            response = post(client, f"/v1/games/{game}/apply", {"state": state, "move": answer["moves"][0]})
            assert len(ok(response)["state"]["deals"]) >= len(state["deals"])
            assert len(response.content) < ANSWER_BUDGET


def test_the_largest_states_are_answered_whole_in_graphql_at_the_default_limits(
    client: TestClient, largest_states: list[tuple[str, Json]]
) -> None:
    """Every field of ``moves``, ``score`` and ``view`` of the largest states, selected as the conformance
    suite selects them: within the value budget and the answer limit at their defaults."""
    from graphql import build_schema

    from conformance.graphql_documents import Documents

    sdl = client.get("/graphql/schema.graphql")
    assert sdl.status_code == 200
    documents = Documents(build_schema(sdl.text))
    for game, state in largest_states:
        for operation, arguments in (("moves", {}), ("score", {}), ("view", {"player": 0})):
            query, _ = documents.document(field(game, operation), ("state", *arguments))
            answer = graphql(client, query, {"state": state, **arguments})
            assert answer.status_code == 200, (game, operation, answer.text[:300])
            assert "errors" not in answer.json(), (game, operation, answer.text[:300])


INLINE_STATE_TOKENS = 20_000
"""The token limit README gives for documents that write the largest states inline."""


def test_the_largest_state_written_inline_in_graphql_is_accepted(
    client: TestClient, largest_states: list[tuple[str, Json]]
) -> None:
    from graphql.language.lexer import Lexer
    from graphql.language.source import Source
    from graphql.language.token_kind import TokenKind

    game, state = largest_states[0]  # the most deal records: the most tokens
    enums = frozenset({"phase", "outcome", "trump", "reason", "type", "suit"})
    query = f"{{ {field(game, 'moves')}(state: {graphql_literal(state, enums)}) {{ __typename }} }}"
    lexer, tokens = Lexer(Source(query)), 0
    while lexer.advance().kind is not TokenKind.EOF:
        tokens += 1
    assert tokens > DEFAULTS.graphql_max_tokens, tokens  # at the defaults states go in variables
    refused = graphql(client, query)
    assert refused.status_code == 400 and "RULES_GRAPHQL_MAX_TOKENS" in refused.json()["detail"]
    as_variable = (
        f"query($s: DominoFanTanStateInput!) {{ {field(game, 'moves')}(state: $s) {{ __typename }} }}"
    )
    assert graphql(client, as_variable, {"s": state}).json() == {
        "data": {field(game, "moves"): {"__typename": "DominoFanTanMovesResponse"}}
    }
    inline_allowed = Settings(
        graphql_max_tokens=INLINE_STATE_TOKENS
    )  # what README suggests for inline states
    assert 2 * tokens < inline_allowed.graphql_max_tokens, tokens
    with TestClient(create_app(inline_allowed), raise_server_exceptions=False) as fresh:
        result = graphql(fresh, query).json()
    assert result == {"data": {field(game, "moves"): {"__typename": "DominoFanTanMovesResponse"}}}


def test_the_seven_up_deal_cap_leaves_nobody_to_act(client: TestClient) -> None:
    state = advance_to_deal_over(client, "seven-up", largest_seven_up_state("seven-up", 3))
    assert len(state["deals"]) == state["deal_number"] == SEVEN_UP_MAX_DEALS
    # no deal follows the last the service keeps: nothing is listed, and what the dealer would have
    # dealt with is refused, to apply and to a bot alike, as in a finished match
    assert moves_of(client, "seven-up", state) == {"to_act": [], "moves": []}
    dealer = state["dealer"]
    response = post(
        client, "/v1/games/seven-up/apply", {"state": state, "move": {"type": "next_deal", "player": dealer}}
    )
    assert_problem(response, 409, "match/over")
    assert "100 deals" in response.json()["detail"]
    bot = post(client, "/v1/games/seven-up/bot", {"state": state, "player": dealer, "level": "rules"})
    assert_problem(bot, 409, "match/over")
    # and a playout on the rules' own representation (what the search plays) stops there too
    game = GAMES["seven-up"]
    simulation = PositionSimulation.of(game, game.models.state.model_validate_json(orjson.dumps(state)))
    assert simulation is not None and simulation.to_act() == [] and simulation.legal_moves() == []
    state["deal_number"] += 1
    assert_problem(
        post(client, "/v1/games/seven-up/moves", {"state": state}), 422, "state/invalid", "/state/deal_number"
    )


# ---- GraphQL cost -----------------------------------------------------------------------------------


def test_graphql_allows_one_operation_field_per_document(client: TestClient) -> None:
    state = new_state(client, "sjuan", 3)
    one = "query($s: SjuanStateInput!) { a: sjuanScore(state: $s) { __typename } games { id } }"
    assert "errors" not in graphql(client, one, {"s": state}).json()
    aliased = (
        "query($s: SjuanStateInput!) { a: sjuanScore(state: $s) { __typename }"
        " b: sjuanScore(state: $s) { __typename } }"
    )
    fragments = (
        "query($s: SjuanStateInput!) { ...A ...B }"
        " fragment A on Query { a: sjuanScore(state: $s) { __typename } }"
        " fragment B on Query { b: sjuanMoves(state: $s) { __typename } }"
    )
    introspection = "{ a: __schema { types { name } } b: __schema { types { name } } }"
    for query in (aliased, fragments, introspection):
        response = graphql(client, query, {"s": state})
        assert response.status_code == 400 and response.json()["code"] == "graphql/too-costly"
        assert "at most one operation field" in response.json()["detail"]


def test_fifteen_aliases_of_one_large_state_are_refused_before_any_work(client: TestClient) -> None:
    """The review's alias multiplication, at a size under the body limit: refused with a short answer."""
    state = new_state(client, "sjuan", 3)
    state["hands"] += [["AC"] * 52] * 5  # six seats out of range and many duplicates
    fields = " ".join(f"a{i}: sjuanMoves(state: $s) {{ __typename }}" for i in range(15))
    response = graphql(client, f"query($s: SjuanStateInput!) {{ {fields} }}", {"s": state})
    assert graphql_errors(response)
    assert len(response.content) < 4096


def test_a_field_repeated_many_times_is_refused_before_validation(client: TestClient) -> None:
    def repeated(count: int) -> str:
        return "{ games { " + " ".join(["id"] * count) + " } }"

    assert "errors" not in graphql(client, repeated(8)).json()
    assert any("selected 9 times" in m for m in graphql_errors(graphql(client, repeated(9))))
    refused = graphql(client, repeated(9))  # README: a validation error, not a setting's too-costly
    assert refused.status_code == 200 and refused.json()["data"] is None
    assert [e["extensions"]["code"] for e in refused.json()["errors"]] == ["GRAPHQL_VALIDATION_FAILED"]
    nested = (
        "{ games { ...A ...A } } fragment A on GameInfo { ...B ...B } "
        "fragment B on GameInfo { ...C ...C } fragment C on GameInfo { id id }"
    )
    assert any("selected 16 times" in m for m in graphql_errors(graphql(client, nested)))


def test_graphql_errors_are_few_and_short(client: TestClient) -> None:
    """graphql-core quotes the bad input in its messages: a list of 1,000 bad values stays a short answer."""
    query = "{ sjuanScore(state: {hands: [[" + " ".join(["1"] * 1000) + "]]}) { __typename } }"
    response = graphql(client, query)
    errors = response.json()["errors"]
    assert len(errors) == MAX_LISTED_ISSUES + 1 and errors[-1]["message"].endswith("more errors.")
    assert all(len(error["message"]) <= 304 for error in errors)
    assert len(response.content) < 16 * 1024


# ---- slow and broken clients ------------------------------------------------------------------------


def _asgi_call(app: Any, receive: Any) -> list[dict[str, Any]]:
    """Run one POST through the ASGI app with the given ``receive``; the messages it sent."""
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/v1/games/sjuan/moves",
        "raw_path": b"/v1/games/sjuan/moves",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"content-type", b"application/json"), (b"content-length", b"100")],
        "client": ("203.0.113.9", 4242),
        "server": ("127.0.0.1", 8000),
    }
    asyncio.run(app(scope, receive, send))
    return sent


def test_a_body_that_does_not_arrive_in_time_is_a_408() -> None:
    app = create_app(Settings(body_timeout=0.05))
    messages: list[dict[str, Any]] = [{"type": "http.request", "body": b'{"state": ', "more_body": True}]

    async def receive() -> dict[str, Any]:
        if messages:
            return messages.pop()
        await asyncio.Event().wait()  # the rest of the body never comes
        raise AssertionError("unreachable")

    sent = _asgi_call(app, receive)
    assert sent[0]["status"] == 408
    assert documented("/v1/games/sjuan/moves", 408)
    assert (b"connection", b"close") in sent[0]["headers"]
    assert orjson.loads(sent[1]["body"])["code"] == "request/timeout"


def test_a_client_leaving_mid_body_is_one_quiet_log_line(caplog: pytest.LogCaptureFixture) -> None:
    messages: list[dict[str, Any]] = [
        {"type": "http.disconnect"},
        {"type": "http.request", "body": b'{"state": ', "more_body": True},
    ]

    async def receive() -> dict[str, Any]:
        return messages.pop()

    with caplog.at_level(logging.DEBUG):
        sent = _asgi_call(create_app(DEFAULTS), receive)
    assert sent == []  # nobody to answer
    records = [r for r in caplog.records if r.levelno >= logging.INFO]
    assert len(records) == 1, records  # the access line, and nothing else
    assert records[0].levelno == logging.INFO and records[0].exc_info is None
    fields = records[0].__dict__["fields"]
    assert (fields["status"], fields["code"]) == (499, "client/disconnected")


class _QuickH11(HeadTimeoutH11Protocol):
    header_timeout = 0.2


class _QuickHttpTools(HeadTimeoutHttpToolsProtocol):
    header_timeout = 0.2


@pytest.fixture(params=[_QuickHttpTools, _QuickH11], ids=["httptools", "h11"])
def server(request: pytest.FixtureRequest) -> Iterator[tuple[uvicorn.Server, int]]:
    """A real uvicorn server on a free loopback port, with the service's options and short timeouts, on
    each HTTP protocol the service may run."""
    app = create_app(Settings(body_timeout=0.2))
    with served(app, http=request.param, log_level="warning") as (instance, port):
        yield instance, port


def _connect(port: int) -> socket.socket:
    connection = socket.create_connection(("127.0.0.1", port), timeout=5)
    return connection


def _read_all(connection: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (a socket timeout fails the test)."""
    chunks = []
    while chunk := connection.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


@pytest.mark.parametrize(
    "sent", [b"", b"POST /v1/games/sjuan/moves HTTP/1.1\r\nHost: x\r\n"], ids=["idle", "half-head"]
)
def test_a_request_head_that_does_not_arrive_in_time_closes_the_connection(
    server: tuple[uvicorn.Server, int], sent: bytes
) -> None:
    with _connect(server[1]) as connection:
        connection.sendall(sent)
        assert _read_all(connection) == b""


def test_a_slow_head_after_a_kept_alive_request_closes_the_connection(
    server: tuple[uvicorn.Server, int],
) -> None:
    with _connect(server[1]) as connection:
        connection.sendall(b"GET /v1/games HTTP/1.1\r\nHost: x\r\n\r\n")
        first = connection.recv(65536)
        assert first.startswith(b"HTTP/1.1 200")
        connection.sendall(b"GET /v1/games HTTP/1.1\r\n")  # and never the rest
        assert b"HTTP/1.1" not in _read_all(connection)[len(first) :]


def test_a_half_sent_body_gets_a_408_and_the_server_still_stops(server: tuple[uvicorn.Server, int]) -> None:
    with _connect(server[1]) as connection:
        head = b"POST /v1/games/sjuan/moves HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        connection.sendall(head + b"Content-Length: 100\r\n\r\n" + b'{"state": ')
        answer = _read_all(connection)
    assert answer.startswith(b"HTTP/1.1 408")
    assert b'"code":"request/timeout"' in answer


def test_stuck_connections_do_not_keep_the_server_alive_after_shutdown(
    server: tuple[uvicorn.Server, int],
) -> None:
    instance, port = server
    stuck = [_connect(port) for _ in range(3)]
    for connection in stuck:
        connection.sendall(b"POST /v1/games/sjuan/moves HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{")
    instance.should_exit = True  # the fixture then checks that the server thread ends
    for connection in stuck:
        connection.close()


def test_a_request_head_larger_than_the_limit_is_refused(server: tuple[uvicorn.Server, int]) -> None:
    with _connect(server[1]) as connection:
        connection.sendall(b"GET /v1/games HTTP/1.1\r\nHost: x\r\n")
        connection.sendall(b"X-Padding: " + b"a" * (MAX_HEAD_BYTES + 1024))  # and never the end of the head
        answer = _read_all(connection)
    assert answer.startswith((b"HTTP/1.1 431", b"HTTP/1.1 400"))
    if answer.startswith(b"HTTP/1.1 431"):  # ours (h11 refuses an oversized head itself, with a 400)
        assert b'"code":"request/head-too-large"' in answer
        assert answer.lower().count(b"x-content-type-options: nosniff") == 1


def test_the_console_script_uses_the_timeouts() -> None:
    options = server_options(Settings(host="0.0.0.0", port=8080))
    assert options["host"] == "0.0.0.0" and options["port"] == 8080
    assert options["http"] is HTTP_PROTOCOL is HeadTimeoutHttpToolsProtocol
    assert options["timeout_keep_alive"] > 0 and options["timeout_graceful_shutdown"] > 0
    assert options["h11_max_incomplete_event_size"] > 0


# ---- internal errors are logged on both surfaces ----------------------------------------------------


def test_an_internal_error_is_logged_on_graphql_as_on_rest(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    state = new_state(client, "sjuan", 3)

    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(GAMES["sjuan"], "moves", broken)
    with caplog.at_level(logging.ERROR, logger="sevens_rules"):
        rest = client.post("/v1/games/sjuan/moves", json={"state": state})
        query = (
            "query($s: SjuanStateInput!) { sjuanMoves(state: $s) { ... on SjuanProblem { code status } } }"
        )
        data = graphql(client, query, {"s": state}).json()["data"]["sjuanMoves"]
    assert rest.status_code == 500 and rest.json()["code"] == "internal"
    assert "a bug" not in rest.text
    assert data == {"code": "internal", "status": 500}
    logged = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert [r.getMessage() for r in logged] == [
        "unexpected error in /v1/games/sjuan/moves",
        "unexpected error in sjuanMoves",
    ]
    assert all(r.exc_info is not None for r in logged)


def test_an_internal_error_before_the_runner_is_logged_and_answered_as_a_problem(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A GraphQL field's arguments are written as the JSON REST would read: a bug there is logged with its
    traceback and answered as the `internal` problem, not as an unlogged field error."""
    state = new_state(client, "sjuan", 3)

    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(graphql_module, "orjson", SimpleNamespace(dumps=broken))
    with caplog.at_level(logging.ERROR, logger="sevens_rules"):
        query = (
            "query($s: SjuanStateInput!) { sjuanMoves(state: $s) { ... on SjuanProblem { code status } } }"
        )
        body = graphql(client, query, {"s": state}).json()
    assert body == {"data": {"sjuanMoves": {"code": "internal", "status": 500}}}
    logged = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert [r.getMessage() for r in logged] == ["unexpected error in sjuanMoves"]
    assert logged[0].exc_info is not None


# ---- configuration ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("RULES_MAX_BODY_BYTES", "1MB"),
        ("RULES_MAX_BODY_BYTES", "-5"),
        ("RULES_MAX_BODY_BYTES", "0"),
        ("RULES_GRAPHQL_MAX_DEPTH", "deep"),
        ("RULES_GRAPHQL_MAX_ALIASES", "1e3"),
        ("RULES_GRAPHQL_MAX_TOKENS", "10"),
        ("PORT", "http"),
        ("PORT", "70000"),
        ("RULES_CORS_ORIGINS", "example.com"),
        ("RULES_CORS_ORIGINS", "https://a.example/path"),
        ("RULES_CORS_ORIGINS", "https://a.example?x"),
        ("RULES_CORS_ORIGINS", "https://a.example#"),
        ("RULES_CORS_ORIGINS", "https://user:pw@a.example"),
        ("RULES_CORS_ORIGINS", "https://a.example:99999"),
        ("RULES_CORS_ORIGINS", "https://a.example:0"),
        ("RULES_CORS_ORIGINS", "https://a.example:443"),  # a browser leaves the default port out
        ("RULES_CORS_ORIGINS", "http://a.example:00080"),
    ],
)
def test_a_bad_variable_is_refused_naming_it(variable: str, value: str) -> None:
    with pytest.raises(SettingsError) as error:
        Settings.from_env({variable: value})
    message = str(error.value)
    assert message.startswith(f"{variable}={value!r} is not accepted: it must be ")
    assert "\n" not in message


def test_a_number_too_long_for_int_is_refused_in_one_short_line() -> None:
    with pytest.raises(SettingsError) as error:
        Settings.from_env({"RULES_MAX_BODY_BYTES": "9" * 5000})
    message = str(error.value)
    assert message.startswith("RULES_MAX_BODY_BYTES='9999") and "(5000 characters)" in message
    assert len(message) < 200 and "\n" not in message


@pytest.mark.parametrize(
    "url",
    [
        "redis://:s3cret@cache:99999/0",  # a port out of range
        "redis://:s3cret@cache:abc/0",
        "redis://:s3cret@[::1",
        "rediss://:s3cret pw@cache:6380/db",  # a database that is not a number
        "redis://:s3cret@/0",  # no host
        "redis://:s3cret#Pass@cache:6379/0",  # a password the parser reads as the port
        "redis://default:s3cret/Pass@cache:6379/0",  # a slash in the password
        "redis://cache:bad/0?password=s3cret",
        "redis://:s3cret@cache:6379/0?db=x",  # query parameters the client refuses
        "redis://:s3cret@cache:6379/0?socket_timeout=abc",
        "redis://:s3cret@cache:0/0",
    ],
)
def test_a_match_store_url_redis_cannot_use_is_refused_without_its_password(url: str) -> None:
    with pytest.raises(SettingsError) as error:
        Settings.from_env({"RULES_MATCH_STORE": url})
    message = str(error.value)
    assert message.startswith("RULES_MATCH_STORE='redis") and "is not accepted: " in message
    assert "s3cret" not in message and "\n" not in message


def test_a_metrics_directory_that_cannot_be_written_stops_the_script_with_one_line(tmp_path: Path) -> None:
    taken = tmp_path / "a-file"
    taken.write_text("")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PROMETHEUS_MULTIPROC_DIR": str(taken / "metrics")}
    env.pop("RULES_SEAL_KEYS", None)
    result = subprocess.run(
        [sys.executable, "-m", "sevens_rules"], env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(
        f"sevens-rules: PROMETHEUS_MULTIPROC_DIR={str(taken / 'metrics')!r} is not accepted"
    )


def test_good_variables_are_read() -> None:
    env = {
        "RULES_MAX_BODY_BYTES": "2048",
        "RULES_CORS_ORIGINS": "https://a.example, http://localhost:3000, http://[::1]:8080, http://127.0.0.1",
        "RULES_GRAPHQL_MAX_TOKENS": " 5000 ",
        "PORT": "9000",
        "HOST": "0.0.0.0",
        "RULES_GRAPHQL_MAX_DEPTH": "",  # empty: the default
    }
    read = Settings.from_env(env)
    assert read.max_body_bytes == 2048 and read.graphql_max_tokens == 5000 and read.port == 9000
    assert read.cors_origins == (
        "https://a.example",
        "http://localhost:3000",
        "http://[::1]:8080",
        "http://127.0.0.1",
    )
    assert read.host == "0.0.0.0"
    assert read.graphql_max_depth == DEFAULTS.graphql_max_depth
    assert Settings.from_env({"RULES_CORS_ORIGINS": "*"}).cors_origins == ("*",)


@pytest.mark.parametrize(
    ("command", "status"), [(["-m", "sevens_rules"], 2), (["-c", "import sevens_rules.api.app"], 1)]
)
def test_a_bad_variable_stops_the_service_with_one_line(command: list[str], status: int) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RULES_MAX_BODY_BYTES": "1MB"}
    result = subprocess.run([sys.executable, *command], env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == status
    assert result.stderr.strip().splitlines() == [
        "sevens-rules: RULES_MAX_BODY_BYTES='1MB' is not accepted: "
        "it must be a whole number from 1024 to 67108864"
    ]


# ---- the smaller points -----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [b"1e-400", b"0.0", b"7.0", b"1e3"])
def test_a_float_seed_is_refused(client: TestClient, seed: bytes) -> None:
    response = post_raw(client, "/v1/games/sjuan/new", b'{"players": 3, "seed": ' + seed + b"}")
    assert_problem(response, 422, "request/invalid", "/seed")


@pytest.mark.parametrize("game", list(GAMES))
def test_an_emptied_hand_is_named(client: TestClient, game: str) -> None:
    state = new_state(client, game, GAMES[game].table_sizes()[0])
    state["hands"][1] = []
    assert_problem(
        post(client, f"/v1/games/{game}/moves", {"state": state}), 422, "state/inconsistent", "/state/hands/1"
    )


@pytest.mark.parametrize("seat", [3, 7, 8, 100, 2**40, -1])
def test_any_seat_out_of_range_gets_a_seat_message(client: TestClient, seat: int) -> None:
    state = new_state(client, "sjuan", 3)
    problem = assert_problem(
        post(client, "/v1/games/sjuan/view", {"state": state, "player": seat}),
        422,
        "request/invalid",
        "/player",
    )
    assert problem["errors"][0]["message"].startswith("must be a seat between 0 and ")


@pytest.mark.parametrize("content_type", [None, "text/plain", "multipart/form-data"])
def test_graphql_takes_json_bodies_only(client: TestClient, content_type: str | None) -> None:
    response = post_raw(client, "/graphql", b'{"query": "{ games { id } }"}', content_type)
    assert_problem(response, 415, "request/unsupported-media-type")


def test_each_code_has_one_title_and_legal_moves_exactly_on_move_problems(client: TestClient) -> None:
    state = new_state(client, "sjuan", 3)
    turn = state["turn"]
    requests: list[tuple[str, Any]] = [
        ("/v1/games/sjuan/new", {"players": 99}),  # schema: request/invalid
        ("/v1/games/sedmice/new", {"players": 3}),  # engine: request/invalid
        ("/v1/games/sjuan/view", {"state": state, "player": 5}),  # engine: request/invalid
        ("/v1/games/sjuan/moves", {"state": {**state, "hands": state["hands"][:2]}}),
        ("/v1/games/sjuan/moves", {"state": {**state, "turn": "x"}}),
        ("/v1/games/sjuan/apply", {"state": state, "move": {"type": "fly", "player": 0}}),
        ("/v1/games/sjuan/apply", {"state": state, "move": {"type": "pass", "player": (turn + 1) % 3}}),
        ("/v1/games/sjuan/apply", {"state": state, "move": {"type": "play", "player": turn, "card": "KS"}}),
        ("/v1/games/nope/new", {}),
    ]
    titles: dict[str, set[str]] = {}
    for path, body in requests:
        problem = no_trace(client.post(path, json=body)).json()
        titles.setdefault(problem["code"], set()).add(problem["title"])
        assert ("legal_moves" in problem) == (problem["code"] in MOVE_CODES), problem
        assert problem["title"] == (TITLES.get(problem["code"]) or TITLE_BY_CODE[problem["code"]])
    assert all(len(found) == 1 for found in titles.values()), titles
    assert {"request/invalid", "state/invalid", "move/invalid", "move/not-your-turn"} <= set(titles)


def test_answers_that_read_only_the_schema_are_kept_and_others_are_not() -> None:
    from graphql import get_introspection_query

    from sevens_rules.api.graphql_http import GraphQLEndpoint

    app = create_app(DEFAULTS)
    posts = [
        r
        for r in app.routes
        if getattr(r, "path", None) == "/graphql" and "POST" in getattr(r, "methods", ())
    ]
    endpoint = getattr(posts[0], "endpoint", None)
    assert isinstance(endpoint, GraphQLEndpoint)
    introspection = get_introspection_query()
    with TestClient(app) as client:
        first = client.post("/graphql", json={"query": introspection})
        assert first.status_code == 200 and first.json()["data"]["__schema"]["queryType"]["name"] == "Query"
        assert len(endpoint.kept_for_good) == 1  # the standard query, by its printed document
        assert client.post("/graphql", json={"query": introspection}).content == first.content
        kept = len(endpoint.documents.cache)
        for query in ("{ games { id } }", "{ sjuanSeed { __typename } }"):
            client.post("/graphql", json={"query": query})
        typed = "query($n: String!) { __type(name: $n) { name } }"
        client.post("/graphql", json={"query": typed, "variables": {"n": "Query"}})
        # documents only (the valid ones), no answers: the answers depend on more than the schema
        assert len(endpoint.documents.cache) <= kept + 3 and len(endpoint.kept_for_good) == 1
        assert all(not isinstance(key, tuple) for key in list(endpoint.documents.cache._entries)[kept:])
