"""Probes, /version, request ids, the JSON access log and the Prometheus metrics, in-process."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from prometheus_client import REGISTRY
from starlette.testclient import TestClient
from starlette.types import Receive, Scope, Send

import sevens_rules.api.probes
from sevens_rules import __version__
from sevens_rules.api.app import create_app
from sevens_rules.api.context import MAX_REQUEST_ID_LENGTH, RequestContext, current_request
from sevens_rules.api.limits import Settings
from sevens_rules.api.logs import JsonFormatter, log_config
from sevens_rules.api.telemetry import AccessMiddleware

ROOT = Path(__file__).resolve().parent.parent
MOVES_PATH = "/v1/games/sjuan/moves"


def counter(operation: str, status: int, code: str = "") -> float:
    """The requests counter of one series (0 before its first request)."""
    labels = {"operation": operation, "status": str(status), "code": code}
    return REGISTRY.get_sample_value("sevens_rules_requests_total", labels) or 0.0


def latency_count(operation: str, status: int) -> float:
    """How many latencies the histogram holds for one series."""
    labels = {"operation": operation, "status": str(status)}
    return REGISTRY.get_sample_value("sevens_rules_request_duration_seconds_count", labels) or 0.0


def access_records(caplog: pytest.LogCaptureFixture) -> list[dict[str, Any]]:
    """The fields of the access lines captured so far."""
    return [r.fields for r in caplog.records if r.name == "sevens_rules.access"]  # type: ignore[attr-defined]


def test_healthz_answers(client: TestClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_readyz_answers_after_the_self_check(client: TestClient) -> None:
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {"status": "ready"}


def test_readyz_is_a_503_problem_when_the_self_check_fails(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken() -> None:
        raise RuntimeError("the engine is broken")

    monkeypatch.setattr(sevens_rules.api.probes, "self_check", broken)
    response = client.get("/readyz", headers={"X-Request-ID": "probe-1"})
    assert response.status_code == 503
    assert response.headers["content-type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == "service/not-ready"
    assert "the engine is broken" in body["detail"]
    assert body["request_id"] == "probe-1"


def test_self_check_deals_and_lists_moves() -> None:
    sevens_rules.api.probes.self_check()  # raises when a fresh deal has no legal move or anything fails


def test_version_names_the_package_the_committed_contract_and_the_commit() -> None:
    app = create_app(Settings(commit="0123abc"))
    body = TestClient(app).get("/version").json()
    committed = (ROOT / "openapi" / "openapi.json").read_bytes() + (
        ROOT / "openapi" / "schema.graphql"
    ).read_bytes()
    assert body == {
        "version": __version__,
        "contract": "sha256:" + hashlib.sha256(committed).hexdigest(),
        "commit": "0123abc",
    }


def test_version_is_the_openapi_version(client: TestClient) -> None:
    assert client.get("/version").json()["version"] == client.get("/openapi.json").json()["info"]["version"]


def test_version_commit_is_null_when_unknown(client: TestClient) -> None:
    assert client.get("/version").json()["commit"] is None


def test_a_valid_request_id_is_echoed_and_put_in_the_problem(client: TestClient) -> None:
    response = client.post(MOVES_PATH, json={"state": {}}, headers={"X-Request-ID": "abc-DEF_1.2:3"})
    assert response.status_code == 422
    assert response.headers["x-request-id"] == "abc-DEF_1.2:3"
    assert response.json()["request_id"] == "abc-DEF_1.2:3"


@pytest.mark.parametrize(
    "sent",
    ["", "has space", 'quote"d', "x" * (MAX_REQUEST_ID_LENGTH + 1), "caf\u00e9"],
    ids=["empty", "space", "quote", "too-long", "non-ascii"],
)
def test_an_invalid_request_id_is_replaced(client: TestClient, sent: str) -> None:
    response = client.get("/nothing-here", headers={"X-Request-ID": sent.encode()})
    generated = response.headers["x-request-id"]
    assert generated != sent
    assert re.fullmatch("[0-9a-f]{32}", generated)
    assert response.json()["request_id"] == generated


def test_the_longest_valid_request_id_is_kept(client: TestClient) -> None:
    sent = "r" * MAX_REQUEST_ID_LENGTH
    assert client.get("/healthz", headers={"X-Request-ID": sent}).headers["x-request-id"] == sent


def test_generated_request_ids_differ(client: TestClient) -> None:
    ids = {client.get("/healthz").headers["x-request-id"] for _ in range(3)}
    assert len(ids) == 3


def test_a_graphql_problem_carries_the_request_id(client: TestClient) -> None:
    query = "{ sjuanNew(players: 9) { ... on SjuanProblem { code request_id } } }"
    response = client.post("/graphql", json={"query": query}, headers={"X-Request-ID": "gql-7"})
    assert response.headers["x-request-id"] == "gql-7"
    assert response.json()["data"]["sjuanNew"] == {"code": "request/invalid", "request_id": "gql-7"}


def test_a_413_carries_the_request_id() -> None:
    app = create_app(Settings(max_body_bytes=10))
    response = TestClient(app).post(
        MOVES_PATH, content=b'{"state": "far too long"}', headers={"X-Request-ID": "big-1"}
    )
    assert response.status_code == 413
    assert response.headers["x-request-id"] == "big-1"
    assert response.json()["request_id"] == "big-1"


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", MOVES_PATH, {"state": {}}),  # a problem
        ("POST", "/v1/games/sjuan/new", {"players": 3}),  # an operation's answer
        ("POST", "/graphql", {"query": "{ sjuanNew(players: 3) { __typename } }"}),
        ("GET", "/v1/games", None),
        ("GET", "/healthz", None),
        ("GET", "/metrics", None),
        ("GET", "/openapi.json", None),
        ("GET", "/nothing-here", None),  # 404
        ("GET", MOVES_PATH, None),  # 405
        ("GET", "/play", None),  # a page
        ("GET", "/play/play.js", None),  # a file a page loads
        ("GET", "/rules/sjuan.md", None),
    ],
)
def test_every_answer_says_nosniff_once(
    client: TestClient, method: str, path: str, body: dict[str, Any] | None
) -> None:
    response = client.request(method, path, json=body)
    assert response.headers.get_list("x-content-type-options") == ["nosniff"]


def test_a_413_says_nosniff() -> None:
    response = TestClient(create_app(Settings(max_body_bytes=10))).post(MOVES_PATH, content=b"[" * 11)
    assert response.status_code == 413
    assert response.headers.get_list("x-content-type-options") == ["nosniff"]


def test_a_request_cut_by_the_shutdown_is_answered_503_and_logged_without_an_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """uvicorn cancels the requests still running when RULES_GRACEFUL_SHUTDOWN_SECONDS are over: here
    one waiting for a body that never comes."""
    app = create_app(Settings())
    sent: list[dict[str, Any]] = []

    async def scenario() -> asyncio.Task[None]:
        waiting = asyncio.Event()

        async def receive() -> dict[str, Any]:
            waiting.set()
            await asyncio.Event().wait()  # the body never comes
            raise AssertionError("unreachable")

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        scope = {
            "type": "http",
            "method": "POST",
            "path": MOVES_PATH,
            "raw_path": MOVES_PATH.encode(),
            "query_string": b"",
            "headers": [(b"content-type", b"application/json"), (b"x-request-id", b"cut-1")],
            "http_version": "1.1",
            "scheme": "http",
            "server": ("127.0.0.1", 8000),
            "client": ("127.0.0.1", 5000),
            "root_path": "",
        }
        task = asyncio.create_task(app(scope, receive, send))  # type: ignore[arg-type]
        await waiting.wait()
        task.cancel(msg="Task cancelled, timeout graceful shutdown exceeded")
        await task  # ends as answered: no CancelledError for the server to log
        return task

    caplog.set_level(logging.DEBUG, logger="sevens_rules")
    task = asyncio.run(scenario())
    assert not task.cancelled()
    start, body = sent[0], sent[-1]
    assert start["type"] == "http.response.start" and start["status"] == 503
    assert (b"connection", b"close") in start["headers"]  # the server is closing it
    problem = json.loads(body["body"])
    assert problem["code"] == "service/shutting-down" and problem["request_id"] == "cut-1"
    (line,) = access_records(caplog)
    assert line["status"] == 503 and line["code"] == "service/shutting-down"
    assert not [r for r in caplog.records if r.name == "sevens_rules.error"]


def test_a_request_whose_answer_waits_behind_unread_ones_at_shutdown_is_logged_unanswered(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A pipelined request's answer waits while the client has not read the answers before it (the
    server's send waits); the shutdown's cancellation then finds it starting: nothing went out, so the
    access line says 503 service/shutting-down, not the status it was about to send."""

    async def answering(scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    async def scenario() -> None:
        waiting = asyncio.Event()

        async def receive() -> dict[str, Any]:
            raise AssertionError("no body is read")

        async def send(message: dict[str, Any]) -> None:
            waiting.set()
            await asyncio.Event().wait()  # the client reads nothing: the write never goes through

        scope = {"type": "http", "method": "GET", "path": "/version", "headers": [], "query_string": b""}
        task = asyncio.create_task(AccessMiddleware(answering)(scope, receive, send))  # type: ignore[arg-type]
        await waiting.wait()
        task.cancel(msg="Task cancelled, timeout graceful shutdown exceeded")
        with pytest.raises(asyncio.CancelledError):
            await task

    caplog.set_level(logging.INFO, logger="sevens_rules.access")
    asyncio.run(scenario())
    (line,) = access_records(caplog)
    assert line["status"] == 503 and line["code"] == "service/shutting-down"


def test_one_access_line_per_request(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="sevens_rules.access")
    client.post(MOVES_PATH, json={"state": {}}, headers={"X-Request-ID": "log-1"})
    client.post(
        "/graphql",
        json={"query": "{ sjuanNew(players: 3) { __typename } }"},
        headers={"X-Request-ID": "log-2"},
    )
    lines = access_records(caplog)
    assert len(lines) == 2
    rest, graphql = lines
    assert rest["method"] == "POST"
    assert rest["route"] == MOVES_PATH
    assert rest["operation"] == MOVES_PATH
    assert rest["status"] == 422
    assert rest["code"] == "state/invalid"
    assert rest["request_id"] == "log-1"
    assert isinstance(rest["duration_ms"], float) and rest["duration_ms"] >= 0
    assert (graphql["route"], graphql["operation"], graphql["status"], graphql["code"]) == (
        "/graphql",
        "sjuanNew",
        200,
        None,
    )
    assert graphql["request_id"] == "log-2"


def test_probes_are_logged_at_debug_only(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="sevens_rules.access")
    client.get("/healthz")
    client.get("/readyz")
    client.get("/metrics")
    assert access_records(caplog) == []


def test_the_access_line_is_one_json_object() -> None:
    record = logging.LogRecord("sevens_rules.access", logging.INFO, __file__, 1, "request", None, None)
    record.fields = {"method": "GET", "route": "/healthz", "status": 200, "request_id": "a\nb"}
    line = JsonFormatter().format(record)
    assert "\n" not in line
    entry = json.loads(line)
    assert entry["level"] == "info"
    assert entry["logger"] == "sevens_rules.access"
    assert entry["message"] == "request"
    assert entry["time"].endswith("+00:00")
    assert (entry["method"], entry["route"], entry["status"], entry["request_id"]) == (
        "GET",
        "/healthz",
        200,
        "a\nb",
    )


def test_a_line_logged_while_answering_carries_the_request_id() -> None:
    record = logging.LogRecord("sevens_rules", logging.ERROR, __file__, 1, "unexpected error", None, None)
    token = current_request.set(RequestContext("req-9"))
    try:
        inside = json.loads(JsonFormatter().format(record))
    finally:
        current_request.reset(token)
    assert inside["request_id"] == "req-9"
    assert "request_id" not in json.loads(JsonFormatter().format(record))


def test_logging_is_quiet_by_default_and_configurable() -> None:
    assert Settings().log_level == "warning"  # no access lines (info) unless asked
    config = log_config("info")
    assert config["root"]["level"] == "INFO"
    assert config["formatters"]["json"]["()"].endswith("JsonFormatter")
    assert config["loggers"]["uvicorn.access"]["propagate"] is False  # uvicorn's plain-text line is off


LOGGED_AS_UVICORN = """
import logging, logging.config, sys
from sevens_rules.api.logs import log_config
logging.config.dictConfig(log_config(sys.argv[1]))
uvicorn = logging.getLogger("uvicorn.error")
uvicorn.warning("Invalid HTTP request received.")  # as uvicorn's protocols log bytes that are not HTTP
uvicorn.warning("something else")
"""


@pytest.mark.parametrize("level", ["warning", "info"])
def test_bytes_that_are_not_http_are_no_warning(level: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", LOGGED_AS_UVICORN, level],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    lines = [(entry["level"], entry["message"]) for entry in map(json.loads, done.stderr.splitlines())]
    kept = [("warning", "something else")]
    assert lines == (kept if level == "warning" else [("info", "Invalid HTTP request received."), *kept])


def test_metrics_count_requests_by_operation_status_and_code(client: TestClient) -> None:
    before = {
        "moves-422": counter(MOVES_PATH, 422, "state/invalid"),
        "new-200": counter("/v1/games/sjuan/new", 200),
        "gql-field": counter("sjuanNew", 200),
        "gql-problem": counter("sjuanNew", 200, "request/invalid"),
        "unmatched": counter("unmatched", 404, "not-found"),
        "latency": latency_count(MOVES_PATH, 422),
    }
    for _ in range(3):
        client.post(MOVES_PATH, json={"state": {}})
    client.post("/v1/games/sjuan/new", json={"players": 3})
    client.post("/graphql", json={"query": "{ sjuanNew(players: 3) { __typename } }"})
    client.post("/graphql", json={"query": "{ sjuanNew(players: 1) { __typename } }"})
    client.get("/no/such/path")
    assert counter(MOVES_PATH, 422, "state/invalid") == before["moves-422"] + 3
    assert counter("/v1/games/sjuan/new", 200) == before["new-200"] + 1
    assert counter("sjuanNew", 200) == before["gql-field"] + 1
    assert counter("sjuanNew", 200, "request/invalid") == before["gql-problem"] + 1
    assert counter("unmatched", 404, "not-found") == before["unmatched"] + 1
    assert latency_count(MOVES_PATH, 422) == before["latency"] + 3
    assert REGISTRY.get_sample_value("sevens_rules_requests_in_flight") == 0


def test_cors_preflights_are_counted_as_preflights(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    # preflights with and without CORS, and a plain OPTIONS that asks for no method, which is no preflight
    path = "/v1/games/sjuan/new"
    asks = {"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"}
    series = [("preflight", 200, ""), ("preflight", 400, ""), ("preflight", 405, "method/not-allowed")]
    series += [(path, 405, "method/not-allowed"), ("unmatched", 404, "not-found")]
    before = {key: counter(*key) for key in series}
    with TestClient(create_app(Settings(cors_origins=("https://example.com",)))) as cors_client:
        allowed = cors_client.options(path, headers={"Origin": "https://example.com", **asks})
        refused = cors_client.options(path, headers={"Origin": "https://elsewhere.example", **asks})
        unrouted = cors_client.options("/no/such/path", headers={"Origin": "https://example.com", **asks})
    assert (allowed.status_code, refused.status_code, unrouted.status_code) == (200, 400, 200)
    assert allowed.headers["access-control-allow-origin"] == "https://example.com"
    with caplog.at_level(logging.INFO, logger="sevens_rules.access"):
        without_cors = client.options(path, headers={"Origin": "https://example.com", **asks})
        plain = client.options(path)
    assert (without_cors.status_code, plain.status_code) == (405, 405)
    after = {key: counter(*key) for key in series}
    assert {key: after[key] - before[key] for key in series} == {
        ("preflight", 200, ""): 2,
        ("preflight", 400, ""): 1,
        ("preflight", 405, "method/not-allowed"): 1,
        (path, 405, "method/not-allowed"): 1,
        ("unmatched", 404, "not-found"): 0,
    }
    logged = [(r["method"], r["operation"], r["status"]) for r in access_records(caplog)]
    assert logged == [("OPTIONS", "preflight", 405), ("OPTIONS", path, 405)]


def test_metrics_endpoint_exposes_the_series(client: TestClient) -> None:
    client.post(MOVES_PATH, json={"state": {}})
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    text = response.text
    assert (
        'sevens_rules_requests_total{code="state/invalid",operation="/v1/games/sjuan/moves",status="422"}'
        in text
    )
    assert "sevens_rules_request_duration_seconds_bucket" in text
    assert "sevens_rules_requests_in_flight" in text


def test_a_graphql_document_refused_before_running_is_labelled_graphql(client: TestClient) -> None:
    before = counter("graphql", 400, "graphql/too-costly")
    # two operation fields: refused by the cost limit (one per document), so no field ran
    query = "{ a: sjuanNew(players: 3) { __typename } b: fanTanNew(players: 3) { __typename } }"
    assert client.post("/graphql", json={"query": query}).status_code == 400
    assert counter("graphql", 400, "graphql/too-costly") == before + 1


def test_the_games_query_is_labelled_games(client: TestClient) -> None:
    before = counter("games", 200)
    client.post("/graphql", json={"query": "{ games { id } }"})
    assert counter("games", 200) == before + 1


def test_an_invalid_graphql_document_is_counted_with_a_code(client: TestClient) -> None:
    before = counter("graphql", 200, "graphql/error")
    client.post("/graphql", json={"query": "{ noSuchField }"})
    assert counter("graphql", 200, "graphql/error") == before + 1


def test_an_unexpected_error_is_a_500_problem_with_the_request_id(caplog: pytest.LogCaptureFixture) -> None:
    async def broken_app(scope: Scope, receive: Receive, send: Send) -> None:
        raise RuntimeError("a bug")

    client = TestClient(AccessMiddleware(broken_app), raise_server_exceptions=False)
    response = client.get("/anything", headers={"X-Request-ID": "boom-1"})
    assert response.status_code == 500
    assert response.headers["x-request-id"] == "boom-1"
    assert response.json()["code"] == "internal"
    assert response.json()["request_id"] == "boom-1"
    errors = [r for r in caplog.records if r.name == "sevens_rules.error"]
    assert errors and errors[0].exc_info is not None
    assert errors[0].fields == {"request_id": "boom-1"}  # type: ignore[attr-defined]
