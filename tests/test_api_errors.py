"""The bad-input catalogue over HTTP: every way a request can be wrong gets the documented status, an
``application/problem+json`` body with a stable ``code`` and, where there is an offending field, its JSON
Pointer in ``errors[]`` -- never a 500 and never a stack trace. Also the GraphQL limits, errors as data,
determinism, the REST/GraphQL state round trip and CORS.

States are real: they come from ``/v1/games/{game}/new``, ``/moves`` and ``/apply``.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette asks for httpx2, which its test client does not need yet
    from starlette.testclient import TestClient

from sevens_rules.api.app import create_app
from sevens_rules.api.limits import Settings
from sevens_rules.schema.common import json_pointer
from tests.seeds import seed_hex

PROBLEM = "application/problem+json"
JSON = {"content-type": "application/json"}
OPERATIONS = ("new", "moves", "apply", "score", "view", "seed", "verify", "sample", "bot")
SEALED_OPERATIONS = ("new", "moves", "apply", "view", "score", "sample", "bot")
RANKS = "A23456789TJQK"
DECK = [rank + suit for suit in "CDHS" for rank in RANKS]
ROOT = Path(__file__).resolve().parent.parent

Json = dict[str, Any]


# ---- helpers ------------------------------------------------------------------------------------------


def no_trace(response: httpx.Response) -> httpx.Response:
    """Every response, good or bad, is free of stack traces."""
    assert "Traceback" not in response.text, response.text
    assert response.status_code < 500, response.text
    return response


REQUEST_ID = {"X-Request-ID": "api-errors"}
"""Sent with every request: a problem carries its request's id, so the same request means the same id."""


def post(client: TestClient, path: str, body: Any) -> httpx.Response:
    """POST a JSON body."""
    return no_trace(client.post(path, json=body, headers=REQUEST_ID))


def post_raw(
    client: TestClient, path: str, content: bytes, content_type: str | None = "application/json"
) -> httpx.Response:
    """POST raw bytes with a chosen content type (or none)."""
    headers = {"content-type": content_type} if content_type is not None else {}
    return no_trace(client.post(path, content=content, headers=headers))


def ok(response: httpx.Response) -> Json:
    """The JSON body of a 200 response."""
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/json"
    body: Json = response.json()
    return body


def assert_problem(response: httpx.Response, status: int, code: str, path: str | None = None) -> Json:
    """The response is a problem with this status and code, and names ``path`` in ``errors[]`` when given."""
    no_trace(response)
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == PROBLEM, response.headers
    body: Json = response.json()
    assert body["status"] == status
    assert body["code"] == code, body
    assert isinstance(body["title"], str) and body["title"]
    assert isinstance(body["detail"], str) and body["detail"]
    assert isinstance(body["errors"], list)
    for issue in body["errors"]:
        assert set(issue) == {"path", "message"}, issue
        assert issue["path"] == "" or issue["path"].startswith("/"), issue
    if path is not None:
        assert path in paths_of(body), body["errors"]
    return body


def paths_of(problem: Json) -> list[str]:
    """The JSON Pointers a problem names."""
    return [issue["path"] for issue in problem["errors"]]


def new_state(client: TestClient, game: str = "sjuan", players: int = 4, **extra: Any) -> Json:
    """A fresh state from ``new``."""
    state: Json = ok(post(client, f"/v1/games/{game}/new", {"players": players, **extra}))["state"]
    return state


def moves_of(client: TestClient, game: str, state: Json, player: int | None = None) -> Json:
    """The ``moves`` answer for a state."""
    body: Json = {"state": state} if player is None else {"state": state, "player": player}
    return ok(post(client, f"/v1/games/{game}/moves", body))


def apply(client: TestClient, game: str, state: Json, move: Json) -> Json:
    """The state after a legal move."""
    result: Json = ok(post(client, f"/v1/games/{game}/apply", {"state": state, "move": move}))["state"]
    return result


def advance(client: TestClient, game: str, state: Json, steps: int) -> Json:
    """The state after ``steps`` moves, always taking the last listed move."""
    for _ in range(steps):
        listed = moves_of(client, game, state)["moves"]
        if not listed:
            break
        state = apply(client, game, state, listed[-1])
    return state


def games_listing(client: TestClient) -> list[Json]:
    """``GET /v1/games``."""
    games: list[Json] = ok(no_trace(client.get("/v1/games")))["games"]
    assert games
    return games


def graphql(client: TestClient, query: str, variables: Json | None = None) -> httpx.Response:
    """POST a GraphQL request."""
    body: Json = {"query": query}
    if variables is not None:
        body["variables"] = variables
    return no_trace(client.post("/graphql", json=body))


def graphql_errors(response: httpx.Response) -> list[str]:
    """The messages of a GraphQL error response (a client error: never a 5xx): a problem (a document over
    a limit) or GraphQL errors, each with a machine-readable code."""
    assert response.status_code < 500, response.text
    body = response.json()
    assert body.get("errors"), body
    if "code" in body:
        assert body["code"].startswith("graphql/"), body
    else:
        codes = {error["extensions"]["code"] for error in body["errors"]}
        assert codes <= {"GRAPHQL_PARSE_FAILED", "GRAPHQL_VALIDATION_FAILED", "BAD_USER_INPUT"}, body
    return [error["message"] for error in body["errors"]]


def to_floats(value: Any) -> Any:
    """Every integer of a JSON value as an integral float (booleans and seeds, which take no floats, left
    alone)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return float(value)
    if isinstance(value, list):
        return [to_floats(v) for v in value]
    if isinstance(value, dict):
        return {k: v if k == "seed" else to_floats(v) for k, v in value.items()}
    return value


# ---- fixtures -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def game_ids(client: TestClient) -> list[str]:
    """Every game id, as the service lists them."""
    return [game["id"] for game in games_listing(client)]


def _heavy_deck() -> list[str]:
    """A deck that, dealt three ways, gives the seat dealt second all hearts, three 7s and the 6C, so the
    others pass most of the deal and a Sjuan match reaches its 100-point end in a few deals."""
    special = [rank + "H" for rank in RANKS] + ["7C", "7D", "7S", "6C"]
    rest = iter(card for card in DECK if card not in special)
    deck: list[str | None] = [None] * 52
    for index, card in zip(range(1, 52, 3), special, strict=True):
        deck[index] = card
    return [card if card is not None else next(rest) for card in deck]


@pytest.fixture(scope="module")
def played(client: TestClient) -> dict[str, Json]:
    """A Sjuan match played to its end through ``new``/``moves``/``apply``: the first state of each phase
    (``play``, ``deal_over``, ``match_over``) and of each phase and deal (``play:2``)."""
    game, deck = "sjuan", _heavy_deck()
    state = new_state(client, game, 3, deck=deck)
    seen: dict[str, Json] = {}
    for _ in range(5000):
        seen.setdefault(state["phase"], state)
        seen.setdefault(f"{state['phase']}:{state['deal_number']}", state)
        listed = moves_of(client, game, state)["moves"]
        if not listed:
            assert state["phase"] == "match_over"
            seen["match_over"] = state
            return seen
        move = next((m for m in listed if (m.get("card") or " ?")[1] == "H"), listed[0])
        if move["type"] == "next_deal":
            move = {**move, "deck": deck}
        state = apply(client, game, state, move)
    raise AssertionError("the Sjuan match did not end")


@pytest.fixture(scope="module")
def finished(played: dict[str, Json]) -> tuple[str, Json]:
    """The last state of a Sjuan match."""
    return "sjuan", played["match_over"]


@pytest.fixture(scope="module")
def cors_client() -> Iterator[TestClient]:
    """A client of an app that allows one CORS origin."""
    app = create_app(Settings(cors_origins=("https://example.com",)))
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


# ---- the body: JSON, media type, size -----------------------------------------------------------------


@pytest.mark.parametrize("operation", OPERATIONS)
@pytest.mark.parametrize(
    "content",
    [b'{"state":', b"{'players': 4}", b"", b"\xff\xfe", b"[" * 30_000 + b"]" * 30_000, b'{"players": 4,}'],
    ids=["truncated", "single-quotes", "empty", "not-utf8", "nested-too-deep", "trailing-comma"],
)
def test_broken_json_is_400(client: TestClient, operation: str, content: bytes) -> None:
    assert_problem(post_raw(client, f"/v1/games/sjuan/{operation}", content), 400, "request/malformed-json")


def test_broken_json_is_400_for_every_game(client: TestClient, game_ids: list[str]) -> None:
    for game in game_ids:
        for operation in OPERATIONS:
            assert_problem(
                post_raw(client, f"/v1/games/{game}/{operation}", b"{"), 400, "request/malformed-json"
            )


@pytest.mark.parametrize(
    "content_type",
    [None, "text/plain", "text/json", "application/x-www-form-urlencoded", "multipart/form-data"],
)
def test_wrong_content_type_is_415(client: TestClient, content_type: str | None) -> None:
    response = post_raw(client, "/v1/games/fan-tan/new", b'{"players": 4}', content_type)
    assert_problem(response, 415, "request/unsupported-media-type")


@pytest.mark.parametrize(
    "content_type", ["application/json; charset=utf-8", "APPLICATION/JSON", "application/vnd.x+json"]
)
def test_json_content_types_are_accepted(client: TestClient, content_type: str) -> None:
    ok(post_raw(client, "/v1/games/fan-tan/new", b'{"players": 4}', content_type))


def test_four_mebibyte_body_is_413(client: TestClient) -> None:
    body = b'{"players": 4, "pad": "' + b"x" * (4 << 20) + b'"}'
    assert_problem(post_raw(client, "/v1/games/sjuan/new", body), 413, "request/too-large")


def test_streamed_body_without_length_is_413(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(4):
            yield b" " * (1 << 20)

    response = no_trace(client.post("/v1/games/sjuan/moves", content=chunks(), headers=JSON))
    assert_problem(response, 413, "request/too-large")


def test_four_mebibyte_graphql_body_is_413(client: TestClient) -> None:
    body = b'{"query": "{ games { id } }", "pad": "' + b"x" * (4 << 20) + b'"}'
    assert_problem(post_raw(client, "/graphql", body), 413, "request/too-large")


@pytest.mark.parametrize("content", [b"[]", b'"x"', b"null", b"4"])
def test_body_that_is_not_an_object_is_422(client: TestClient, content: bytes) -> None:
    assert_problem(post_raw(client, "/v1/games/sjuan/new", content), 422, "request/invalid", "")


# ---- routing: unknown game or operation, wrong method ------------------------------------------------


@pytest.mark.parametrize("operation", OPERATIONS)
def test_unknown_game_is_404(client: TestClient, operation: str) -> None:
    body = assert_problem(post(client, f"/v1/games/no-such-game/{operation}", {}), 404, "game/unknown")
    assert "no-such-game" in body["detail"]


def test_unknown_operation_is_404(client: TestClient, game_ids: list[str]) -> None:
    for game in game_ids:
        body = assert_problem(post(client, f"/v1/games/{game}/shuffle", {}), 404, "operation/unknown")
        assert "shuffle" in body["detail"]


@pytest.mark.parametrize("operation", sorted(set(OPERATIONS) - set(SEALED_OPERATIONS)))
def test_plain_only_operation_under_sealed_is_404(client: TestClient, operation: str) -> None:
    # seed and verify exist as plain operations only: a POST to their sealed path names no operation
    body = assert_problem(post(client, f"/v1/games/sjuan/sealed/{operation}", {}), 404, "operation/unknown")
    assert f"'{operation}'" in body["detail"]
    assert "apply" in body["detail"]


def test_get_on_a_sealed_operation_is_405(client: TestClient) -> None:
    response = no_trace(client.get("/v1/games/sjuan/sealed/apply"))
    assert_problem(response, 405, "method/not-allowed")
    assert response.headers["allow"] == "POST"


def test_unknown_path_is_404(client: TestClient) -> None:
    assert_problem(no_trace(client.get("/v2/games")), 404, "not-found")
    assert_problem(no_trace(client.get("/v1/games/sjuan")), 404, "not-found")


@pytest.mark.parametrize("path", ["/v1/games/sjuan/new/", "/v1/games/", "/graphql/", "/healthz/", "/docs/"])
def test_a_path_with_a_slash_too_many_is_404_not_a_redirect(client: TestClient, path: str) -> None:
    """No redirect to the path without it: Starlette's would be built from the request's Host header."""
    method = "POST" if path.startswith(("/v1/games/sjuan", "/graphql")) else "GET"
    response = client.request(
        method, path, json={"players": 3}, headers={"host": "evil.example"}, follow_redirects=False
    )
    assert_problem(no_trace(response), 404, "not-found")
    assert "location" not in response.headers


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH"])
def test_other_methods_on_a_post_path_are_405(client: TestClient, method: str) -> None:
    response = no_trace(client.request(method, "/v1/games/sjuan/moves", json={}))
    assert_problem(response, 405, "method/not-allowed")
    assert response.headers["allow"] == "POST"


def test_post_on_the_games_list_is_405(client: TestClient) -> None:
    response = post(client, "/v1/games", {})
    assert_problem(response, 405, "method/not-allowed")
    assert "GET" in response.headers["allow"]
    response = no_trace(client.put("/graphql", json={}))  # GET /graphql is the console (api/docs.py)
    assert_problem(response, 405, "method/not-allowed")
    assert "POST" in response.headers["allow"]


def test_get_on_a_post_path_is_405(client: TestClient, game_ids: list[str]) -> None:
    for game in game_ids:
        for operation in OPERATIONS:
            response = no_trace(client.get(f"/v1/games/{game}/{operation}"))
            assert_problem(response, 405, "method/not-allowed")
            assert response.headers["allow"] == "POST"


# ---- schema violations: missing, mistyped, out of range, unknown fields ------------------------------


def test_missing_fields_are_422(client: TestClient) -> None:
    state = new_state(client)
    assert_problem(post(client, "/v1/games/sjuan/new", {}), 422, "request/invalid", "/players")
    assert_problem(post(client, "/v1/games/sjuan/moves", {}), 422, "state/invalid", "/state")
    assert_problem(post(client, "/v1/games/sjuan/apply", {"state": state}), 422, "move/invalid", "/move")
    assert_problem(post(client, "/v1/games/sjuan/view", {"state": state}), 422, "request/invalid", "/player")
    for field in ("hands", "turn", "seed", "options", "deals", "game"):
        partial = {k: v for k, v in state.items() if k != field}
        response = post(client, "/v1/games/sjuan/moves", {"state": partial})
        assert_problem(response, 422, "state/invalid", f"/state/{field}")
    move = {"type": "play", "card": "7H"}
    response = post(client, "/v1/games/sjuan/apply", {"state": state, "move": move})
    assert_problem(response, 422, "move/invalid", "/move/player")


@pytest.mark.parametrize(
    ("field", "value", "path"),
    [
        ("hands", "x", "/state/hands"),
        ("hands", [["7H", 7]], "/state/hands/0/1"),
        ("hands", [["7X"]], "/state/hands/0/0"),
        ("table", {"0": "7H"}, "/state/table"),
        ("turn", "3", "/state/turn"),
        ("dealer", True, "/state/dealer"),
        ("dealer", 1.5, "/state/dealer"),
        ("seed", -1, "/state/seed"),
        ("seed", 2**31, "/state/seed"),
        ("seed", "F" * 64, "/state/seed"),
        ("commitment", "0" * 63, "/state/commitment"),
        ("entropy", ["tab\there"], "/state/entropy/0"),
        ("entropy", [""], "/state/entropy/0"),
        ("entropy", ["x" * 257], "/state/entropy/0"),
        ("entropy", ["x"] * 9, "/state/entropy"),
        ("deal_number", 0, "/state/deal_number"),
        ("phase", "lunch", "/state/phase"),
        ("chips", [0, 0, 0, -1], "/state/chips/3"),
        ("options", {"chips_count": "yes"}, "/state/options/chips_count"),
        ("options", {"chips_count": True, "speed": 2}, "/state/options/speed"),
        ("game", "fan-tan", "/state/game"),
        ("surprise", 1, "/state/surprise"),
    ],
)
def test_mistyped_state_fields_are_422(client: TestClient, field: str, value: Any, path: str) -> None:
    state = {**new_state(client), field: value}
    assert_problem(post(client, "/v1/games/sjuan/moves", {"state": state}), 422, "state/invalid", path)


@pytest.mark.parametrize(
    ("move", "path"),
    [
        ({"type": "fly", "player": 0}, "/move/type"),
        ({"type": "play", "player": 0, "card": "1H"}, "/move/card"),
        ({"type": "play", "player": 0, "card": "7h"}, "/move/card"),
        ({"type": "play", "player": "0", "card": "7H"}, "/move/player"),
        ({"type": "play", "player": 8, "card": "7H"}, "/move/player"),
        ({"type": "play", "player": 0, "card": "7H", "trump": "H"}, "/move/trump"),
        ({"type": "next_deal", "player": 0, "deck": "7H"}, "/move/deck"),
        ("play 7H", "/move"),
    ],
)
def test_mistyped_moves_are_422(client: TestClient, move: Any, path: str) -> None:
    body = {"state": new_state(client), "move": move}
    assert_problem(post(client, "/v1/games/sjuan/apply", body), 422, "move/invalid", path)


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"players": 99}, "/players"),
        ({"players": 2}, "/players"),
        ({"players": -4}, "/players"),
        ({"players": 2**40}, "/players"),
        ({"players": 10**30}, "/players"),
        ({"players": 4, "seed": -1}, "/seed"),
        ({"players": 4, "seed": 2**31}, "/seed"),
        ({"players": 4, "seed": 2**63}, "/seed"),
        ({"players": 4, "dealer": 8}, "/dealer"),
        ({"players": 4, "dealer": -1}, "/dealer"),
    ],
)
def test_out_of_range_integers_are_422(client: TestClient, body: Json, path: str) -> None:
    assert_problem(post(client, "/v1/games/sjuan/new", body), 422, "request/invalid", path)


def test_out_of_range_player_is_422(client: TestClient) -> None:
    state = new_state(client)
    for player in (2**40, 2**31, -1, 8):
        response = post(client, "/v1/games/sjuan/moves", {"state": state, "player": player})
        assert_problem(response, 422, "request/invalid", "/player")
        response = post(client, "/v1/games/sjuan/view", {"state": state, "player": player})
        assert_problem(response, 422, "request/invalid", "/player")


def test_a_seed_is_exactly_64_lowercase_hex_digits(client: TestClient) -> None:
    for seed in ("0" * 64, "f" * 64, "0123456789abcdef" * 4):
        assert new_state(client, seed=seed)["seed"] == seed
    bad_seeds = ["0" * 63, "0" * 65, "A" * 64, "0x" + "0" * 62, " " + "0" * 63, "", 42, 2**255, ["0" * 64]]
    for bad in bad_seeds:
        body = {"players": 4, "seed": bad}
        problem = assert_problem(post(client, "/v1/games/sjuan/new", body), 422, "request/invalid", "/seed")
        assert "64 lowercase hexadecimal digits" in problem["errors"][0]["message"], problem


def test_out_of_range_players_for_every_game(client: TestClient) -> None:
    for game in games_listing(client):
        for players in (game["min_players"] - 1, game["max_players"] + 1):
            response = post(client, f"/v1/games/{game['id']}/new", {"players": players})
            assert_problem(response, 422, "request/invalid", "/players")
        ok(post(client, f"/v1/games/{game['id']}/new", {"players": game["min_players"]}))
        ok(post(client, f"/v1/games/{game['id']}/new", {"players": game["max_players"]}))


def test_unknown_options_are_422_for_every_game(client: TestClient) -> None:
    for game in games_listing(client):
        body = {"players": game["min_players"], "options": {"no_such_option": True}}
        response = post(client, f"/v1/games/{game['id']}/new", body)
        problem = assert_problem(response, 422, "request/invalid", "/options/no_such_option")
        assert "Extra inputs are not permitted" in str(problem["errors"])


def test_unknown_top_level_field_is_422(client: TestClient) -> None:
    response = post(client, "/v1/games/fan-tan/new", {"players": 4, "speed": "fast"})
    assert_problem(response, 422, "request/invalid", "/speed")
    state = new_state(client, "fan-tan")
    response = post(client, "/v1/games/fan-tan/score", {"state": state, "player": 0})
    assert_problem(response, 422, "request/invalid", "/player")


def test_wrongly_typed_option_is_422(client: TestClient) -> None:
    for value in (1, "true", None, [True]):
        body = {"players": 4, "options": {"chips_count": value}}
        response = post(client, "/v1/games/sjuan/new", body)
        assert_problem(response, 422, "request/invalid", "/options/chips_count")


# ---- integers on the wire: integral floats yes, booleans and strings no -------------------------------


def test_integral_floats_are_accepted_for_ints(client: TestClient) -> None:
    as_int = post(client, "/v1/games/sjuan/new", {"players": 4, "seed": seed_hex(7), "dealer": 1})
    as_float = post(client, "/v1/games/sjuan/new", {"players": 4.0, "seed": seed_hex(7), "dealer": 1.0})
    assert as_float.status_code == 200, as_float.text
    assert as_float.content == as_int.content


def test_integral_floats_are_accepted_throughout_a_state(
    client: TestClient, finished: tuple[str, Json]
) -> None:
    state = advance(client, "fan-tan", new_state(client, "fan-tan", 5, seed=seed_hex(3)), 7)
    floated = to_floats(state)
    assert json.dumps(floated).count(".0") == 3 + len(state["hands"])  # dealer, deal_number, turn, chips
    with_ints = post(client, "/v1/games/fan-tan/moves", {"state": state, "player": 2})
    with_floats = post(client, "/v1/games/fan-tan/moves", {"state": floated, "player": 2.0})
    assert with_floats.status_code == 200, with_floats.text
    assert with_floats.content == with_ints.content
    game, over = finished  # every finished deal adds counts, seats and penalties
    with_ints = post(client, f"/v1/games/{game}/score", {"state": over})
    with_floats = post(client, f"/v1/games/{game}/score", {"state": to_floats(over)})
    assert with_floats.status_code == 200, with_floats.text
    assert with_floats.content == with_ints.content


@pytest.mark.parametrize("value", [True, False, "4", "four", 4.5, None, [4], {"n": 4}, 1e400, float("nan")])
def test_non_integers_are_rejected_for_ints(client: TestClient, value: Any) -> None:
    if isinstance(value, float) and value != value:
        response = post_raw(client, "/v1/games/sjuan/new", b'{"players": NaN}')
    elif value == 1e400:
        response = post_raw(client, "/v1/games/sjuan/new", b'{"players": 1e400}')
    else:
        response = post(client, "/v1/games/sjuan/new", {"players": value})
    assert_problem(response, 422, "request/invalid", "/players")


# ---- consistency: a card twice, 53 cards, seats that do not exist ----------------------------------


def test_a_card_twice_is_inconsistent(client: TestClient) -> None:
    state = new_state(client)
    last = len(state["hands"]) - 1
    card, replaced = state["hands"][0][0], state["hands"][last][0]
    bad = copy.deepcopy(state)
    bad["hands"][last][0] = card
    problem = assert_problem(
        post(client, "/v1/games/sjuan/moves", {"state": bad}),
        422,
        "state/inconsistent",
        f"/state/hands/{last}/0",
    )
    messages = " ".join(issue["message"] for issue in problem["errors"])
    assert card in messages and replaced in messages  # the duplicate, and the card now missing
    assert "legal_moves" not in problem  # only move problems carry it


def test_a_card_on_the_table_and_in_a_hand_is_inconsistent(client: TestClient) -> None:
    state = advance(client, "sjuan", new_state(client), 1)
    assert state["table"] == ["7H"]
    bad = copy.deepcopy(state)
    bad["hands"][0] = sorted([*bad["hands"][0], "7H"])
    problem = assert_problem(post(client, "/v1/games/sjuan/score", {"state": bad}), 422, "state/inconsistent")
    where = {"/state/table/0", *(f"/state/hands/0/{i}" for i, c in enumerate(bad["hands"][0]) if c == "7H")}
    assert where & set(paths_of(problem)), problem["errors"]


def test_fifty_three_cards_are_refused(client: TestClient) -> None:
    state = new_state(client, "fan-tan")
    extra = state["hands"][1][-1]
    bad = copy.deepcopy(state)
    bad["hands"][0].append(extra)
    assert sum(len(h) for h in bad["hands"]) == 53
    problem = assert_problem(
        post(client, "/v1/games/fan-tan/moves", {"state": bad}), 422, "state/inconsistent"
    )
    where = {f"/state/hands/0/{len(bad['hands'][0]) - 1}", f"/state/hands/1/{len(bad['hands'][1]) - 1}"}
    assert where & set(paths_of(problem)), problem["errors"]
    # one hand of 53 cards breaks the schema before any rule runs
    bad = copy.deepcopy(state)
    bad["hands"][0] = [*DECK, "7H"]
    assert_problem(
        post(client, "/v1/games/fan-tan/moves", {"state": bad}), 422, "state/invalid", "/state/hands/0"
    )


def test_deck_of_fifty_three_or_with_a_duplicate_is_refused(client: TestClient) -> None:
    response = post(client, "/v1/games/sjuan/new", {"players": 4, "deck": [*DECK, "7H"]})
    assert_problem(response, 422, "request/invalid", "/deck")
    deck = [*DECK[:-1], DECK[0]]
    response = post(client, "/v1/games/sjuan/new", {"players": 4, "deck": deck})
    assert_problem(response, 422, "request/invalid", "/deck/51")
    response = post(client, "/v1/games/sjuan/new", {"players": 4, "deck": DECK[:51]})
    assert_problem(response, 422, "request/invalid", "/deck")


@pytest.mark.parametrize(
    ("field", "value", "path"),
    [
        ("turn", 7, "/state/turn"),
        ("dealer", 5, "/state/dealer"),
        ("chips", [0, 0, 0], "/state/chips"),
        ("hands", "two", "/state/hands"),
    ],
)
def test_inconsistent_counts_and_seats(client: TestClient, field: str, value: Any, path: str) -> None:
    state = new_state(client)
    if value == "two":
        value = state["hands"][:2]
    bad = {**state, field: value}
    assert_problem(post(client, "/v1/games/sjuan/moves", {"state": bad}), 422, "state/inconsistent", path)


def test_seat_not_at_the_table_is_422(client: TestClient) -> None:
    state = new_state(client, "sjuan", 4)
    for path in ("/v1/games/sjuan/moves", "/v1/games/sjuan/view"):
        response = post(client, path, {"state": state, "player": 5})
        assert_problem(response, 422, "request/invalid", "/player")
    response = post(client, "/v1/games/sjuan/new", {"players": 4, "dealer": 5})
    assert_problem(response, 422, "request/invalid", "/dealer")
    move = {"type": "pass", "player": 6}
    assert_problem(
        post(client, "/v1/games/sjuan/apply", {"state": state, "move": move}), 422, "request/invalid"
    )


def test_seat_not_at_the_table_names_move_player(client: TestClient) -> None:
    state = new_state(client, "sjuan", 4)
    move = {"type": "pass", "player": 6}
    response = post(client, "/v1/games/sjuan/apply", {"state": state, "move": move})
    assert_problem(response, 422, "request/invalid", "/move/player")


# ---- moves that are well formed but not legal now -----------------------------------------------------


@pytest.mark.parametrize("game", ["sjuan", "fan-tan"])
def test_move_for_the_wrong_seat_is_409(client: TestClient, game: str) -> None:
    state = advance(client, game, new_state(client, game, 5, seed=seed_hex(11)), 3)
    answer = moves_of(client, game, state)
    other = next(seat for seat in range(5) if seat not in answer["to_act"])
    card = state["hands"][other][0]
    move = {"type": "play", "player": other, "card": card}
    problem = assert_problem(
        post(client, f"/v1/games/{game}/apply", {"state": state, "move": move}),
        409,
        "move/not-your-turn",
        "/move/player",
    )
    assert problem["legal_moves"] == answer["moves"]
    assert problem["legal_moves"]


@pytest.mark.parametrize("game", ["sjuan", "fan-tan"])
def test_illegal_card_is_409(client: TestClient, game: str) -> None:
    state = new_state(client, game, 4, seed=seed_hex(5))
    answer = moves_of(client, game, state)
    (seat,) = answer["to_act"]
    legal_cards = {m.get("card") for m in answer["moves"]}
    own = next(c for c in state["hands"][seat] if c not in legal_cards)
    someone_elses = state["hands"][(seat + 1) % 4][0]
    for card in (own, someone_elses):
        move = {"type": "play", "player": seat, "card": card}
        problem = assert_problem(
            post(client, f"/v1/games/{game}/apply", {"state": state, "move": move}), 409, "move/illegal"
        )
        assert problem["legal_moves"] == answer["moves"]
    if all(m["type"] == "play" for m in answer["moves"]):
        move = {"type": "pass", "player": seat}
        problem = assert_problem(
            post(client, f"/v1/games/{game}/apply", {"state": state, "move": move}), 409, "move/illegal"
        )
        assert problem["legal_moves"] == answer["moves"]


def test_move_after_the_match_is_over_is_409(client: TestClient, finished: tuple[str, Json]) -> None:
    game, state = finished
    assert moves_of(client, game, state) == {"to_act": [], "moves": []}
    score = ok(post(client, f"/v1/games/{game}/score", {"state": state}))
    assert score["outcome"]["over"] is True and score["outcome"]["winners"]
    for move in ({"type": "pass", "player": 0}, {"type": "next_deal", "player": 1}):
        problem = assert_problem(
            post(client, f"/v1/games/{game}/apply", {"state": state, "move": move}), 409, "match/over"
        )
        assert problem["legal_moves"] == []


def test_next_deal_with_a_bad_deck(client: TestClient, played: dict[str, Json]) -> None:
    state = played["deal_over"]
    answer = moves_of(client, "sjuan", state)
    (next_deal,) = answer["moves"]
    assert next_deal["type"] == "next_deal"
    cases: list[tuple[Any, int, str, str]] = [
        ([*DECK[:-1], DECK[0]], 422, "request/invalid", "/move/deck/51"),
        (DECK[:10], 422, "move/invalid", "/move/deck"),
        ([*DECK, "7H"], 422, "move/invalid", "/move/deck"),
        (["7H", "XX"], 422, "move/invalid", "/move/deck/1"),
    ]
    for deck, status, code, path in cases:
        move = {**next_deal, "deck": deck}
        response = post(client, "/v1/games/sjuan/apply", {"state": state, "move": move})
        assert_problem(response, status, code, path)
    ok(post(client, "/v1/games/sjuan/apply", {"state": state, "move": {**next_deal, "deck": DECK}}))
    move = {**next_deal, "card": "7H"}
    problem = assert_problem(
        post(client, "/v1/games/sjuan/apply", {"state": state, "move": move}), 409, "move/illegal"
    )
    assert problem["legal_moves"] == answer["moves"]
    move = {**next_deal, "player": (next_deal["player"] + 1) % 3}
    response = post(client, "/v1/games/sjuan/apply", {"state": state, "move": move})
    problem = assert_problem(response, 409, "move/not-your-turn", "/move/player")
    assert problem["legal_moves"] == answer["moves"]


def test_impossible_finished_deal_is_inconsistent(client: TestClient, played: dict[str, Json]) -> None:
    state = copy.deepcopy(played["play:2"])
    assert len(state["deals"]) == 1
    deal = state["deals"][0]
    deal.update(cards_left=[0, 60, 0], chips=[0, 0, 0], penalties=[0, 60, 0], pot=0, winner=0, blocked=False)
    problem = assert_problem(
        post(client, "/v1/games/sjuan/moves", {"state": state}), 422, "state/inconsistent"
    )
    assert any(path.startswith("/state/deals/0") for path in paths_of(problem)), problem["errors"]


def test_finished_match_with_its_phase_reset_is_inconsistent(
    client: TestClient, finished: tuple[str, Json]
) -> None:
    game, state = finished
    bad = {**state, "phase": "deal_over"}
    assert_problem(
        post(client, f"/v1/games/{game}/moves", {"state": bad}), 422, "state/inconsistent", "/state/phase"
    )


# ---- determinism --------------------------------------------------------------------------------------


def _requests(client: TestClient) -> list[tuple[str, Json]]:
    """A fixed series of requests covering every operation, successes and problems."""
    state = new_state(client, "sjuan", 5, seed=seed_hex(99))
    later = advance(client, "sjuan", state, 6)
    listed = moves_of(client, "sjuan", later)["moves"]
    bad = copy.deepcopy(later)
    bad["hands"][1][0] = bad["hands"][0][0]
    return [
        ("/v1/games/sjuan/new", {"players": 5, "seed": seed_hex(99)}),
        (
            "/v1/games/fan-tan/new",
            {"players": 8, "seed": "f" * 64, "entropy": ["a", "b"], "options": {"chips_count": False}},
        ),
        ("/v1/games/sjuan/moves", {"state": later}),
        ("/v1/games/sjuan/apply", {"state": later, "move": listed[0]}),
        ("/v1/games/sjuan/score", {"state": later}),
        ("/v1/games/sjuan/view", {"state": later, "player": 2}),
        ("/v1/games/sjuan/apply", {"state": later, "move": {"type": "pass", "player": 4}}),
        ("/v1/games/sjuan/moves", {"state": bad}),
        ("/v1/games/sjuan/new", {"players": 99, "seed": -1, "colour": "red"}),
    ]


def test_same_request_twice_gives_identical_bytes(client: TestClient) -> None:
    for path, body in _requests(client):
        first, second = post(client, path, body), post(client, path, body)
        assert first.status_code == second.status_code
        assert first.headers["content-type"] == second.headers["content-type"]
        assert first.content == second.content, path


def test_every_game_new_is_deterministic(client: TestClient) -> None:
    for game in games_listing(client):
        body = {"players": game["max_players"], "seed": seed_hex(12345)}
        first = post(client, f"/v1/games/{game['id']}/new", body)
        assert first.status_code == 200, first.text
        assert post(client, f"/v1/games/{game['id']}/new", body).content == first.content


def test_another_app_instance_gives_identical_bytes(client: TestClient) -> None:
    requests = _requests(client)
    with TestClient(create_app(Settings()), raise_server_exceptions=False) as other:
        for path, body in requests:
            assert post(other, path, body).content == post(client, path, body).content, path


_DIGEST_SCRIPT = """
import hashlib, json, sys, warnings
warnings.simplefilter("ignore")
from starlette.testclient import TestClient
from sevens_rules.api.app import create_app
from sevens_rules.api.limits import Settings
client = TestClient(create_app(Settings()), raise_server_exceptions=False)
digest = hashlib.sha256()
for path, body in json.load(sys.stdin):
    response = client.post(path, json=body, headers={"X-Request-ID": "api-errors"})
    digest.update(str(response.status_code).encode() + response.content)
print(digest.hexdigest())
"""


def test_other_processes_give_identical_bytes(client: TestClient) -> None:
    """Identical processes (with different string-hash seeds) answer with the same bytes."""
    requests = _requests(client)
    digest = hashlib.sha256()
    for path, body in requests:
        response = post(client, path, body)
        digest.update(str(response.status_code).encode() + response.content)
    for hash_seed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
        result = subprocess.run(
            [sys.executable, "-c", _DIGEST_SCRIPT],
            input=json.dumps(requests),
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=env,
            timeout=120,
            check=True,
        )
        assert result.stdout.strip() == digest.hexdigest(), result.stderr


# ---- GraphQL ------------------------------------------------------------------------------------------

MOVES_QUERY = """
query Moves($state: SjuanStateInput!, $player: Int) {
  sjuanMoves(state: $state, player: $player) {
    __typename
    ... on SjuanMovesResponse { to_act moves { player type card deck } }
    ... on SjuanProblem {
      type title status code detail errors { path message } legal_moves { player type card }
    }
  }
}
"""


def test_rest_state_is_a_graphql_variable_and_moves_match(client: TestClient) -> None:
    state = new_state(client, "sjuan", 4, seed=seed_hex(21))
    seen = 0
    for _ in range(12):
        rest = moves_of(client, "sjuan", state)
        for player in (None, rest["to_act"][0] if rest["to_act"] else 0):
            variables: Json = {"state": state, "player": player}
            response = graphql(client, MOVES_QUERY, variables)
            assert response.status_code == 200, response.text
            body = response.json()
            assert "errors" not in body, body
            result = body["data"]["sjuanMoves"]
            assert result.pop("__typename") == "SjuanMovesResponse"
            expected = rest if player is None else moves_of(client, "sjuan", state, player)
            assert result == expected
            seen += 1
        if not rest["moves"]:
            break
        state = apply(client, "sjuan", state, rest["moves"][0])
    assert seen >= 12


TYPE_QUERY = """
query Type($name: String!) {
  __type(name: $name) {
    fields { name type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } }
  }
}
"""


def type_prefix(game_id: str) -> str:
    """``fan-tan`` -> ``FanTan``: the prefix of a game's GraphQL type names."""
    return "".join(part.capitalize() for part in game_id.split("-"))


def selection(client: TestClient, type_name: str) -> str:
    """Every field of an output object type, recursively, as a GraphQL selection set body."""
    response = graphql(client, TYPE_QUERY, {"name": type_name})
    fields = response.json()["data"]["__type"]["fields"]
    parts = []
    for field in fields:
        kind_of = field["type"]
        while kind_of["kind"] in ("NON_NULL", "LIST"):
            kind_of = kind_of["ofType"]
        if kind_of["kind"] == "OBJECT":
            parts.append(f"{field['name']} {{ {selection(client, kind_of['name'])} }}")
        else:
            assert kind_of["kind"] in ("SCALAR", "ENUM"), (type_name, field)
            parts.append(field["name"])
    return " ".join(parts)


def test_graphql_moves_match_rest_for_every_game(client: TestClient) -> None:
    """For every listed game, a REST state is a valid GraphQL variable (enum values and field names
    unchanged) and GraphQL's legal moves are REST's, byte for byte once decoded."""
    for game in games_listing(client):
        game_id, prefix = game["id"], type_prefix(game["id"])
        field = prefix[0].lower() + prefix[1:] + "Moves"
        query = f"""
        query Moves($state: {prefix}StateInput!) {{
          {field}(state: $state) {{
            __typename
            ... on {prefix}MovesResponse {{ {selection(client, prefix + "MovesResponse")} }}
            ... on {prefix}Problem {{ code errors {{ path message }} }}
          }}
        }}
        """
        state = new_state(client, game_id, game["min_players"], seed=seed_hex(8))
        for _ in range(4):
            rest = moves_of(client, game_id, state)
            body = graphql(client, query, {"state": state}).json()
            assert "errors" not in body, (game_id, body)
            result = body["data"][field]
            assert result.pop("__typename") == f"{prefix}MovesResponse", (game_id, result)
            assert result == rest, game_id
            if not rest["moves"]:
                break
            state = apply(client, game_id, state, rest["moves"][-1])


def test_graphql_inconsistent_state_is_a_problem_as_data(client: TestClient) -> None:
    state = new_state(client, "sjuan", 4)
    bad = copy.deepcopy(state)
    bad["hands"][3][0] = bad["hands"][0][0]
    response = graphql(client, MOVES_QUERY, {"state": bad})
    assert response.status_code == 200
    body = response.json()
    assert "errors" not in body, body
    result = body["data"]["sjuanMoves"]
    assert result["__typename"].endswith("Problem")
    assert result["code"] == "state/inconsistent"
    assert result["status"] == 422
    assert "/state/hands/3/0" in [issue["path"] for issue in result["errors"]]
    rest = post(client, "/v1/games/sjuan/moves", {"state": bad}).json()
    assert result["errors"] == rest["errors"] and result["detail"] == rest["detail"]


def test_graphql_schema_violation_in_a_variable_is_a_problem_as_data(client: TestClient) -> None:
    state = {**new_state(client, "sjuan", 4), "seed": "not hex"}
    result = graphql(client, MOVES_QUERY, {"state": state}).json()["data"]["sjuanMoves"]
    assert result["__typename"] == "SjuanProblem"
    assert result["code"] == "state/invalid"
    assert [issue["path"] for issue in result["errors"]] == ["/state/seed"]


def test_graphql_illegal_move_is_a_problem_with_legal_moves(client: TestClient) -> None:
    state = new_state(client, "sjuan", 4)
    answer = moves_of(client, "sjuan", state)
    other = (answer["to_act"][0] + 1) % 4
    query = """
    query Apply($state: SjuanStateInput!, $move: SjuanMoveInput!) {
      sjuanApply(state: $state, move: $move) {
        __typename
        ... on SjuanProblem { code status errors { path } legal_moves { player type card deck } }
      }
    }
    """
    move = {"type": "pass", "player": other}
    result = graphql(client, query, {"state": state, "move": move}).json()["data"]["sjuanApply"]
    assert result["__typename"] == "SjuanProblem"
    assert result["code"] == "move/not-your-turn" and result["status"] == 409
    assert result["legal_moves"] == answer["moves"]


def over_limit(response: httpx.Response, setting: str) -> None:
    """A 400 problem ``graphql/too-costly`` naming the limit's setting, at ``/query``."""
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["code"] == "graphql/too-costly" and setting in body["detail"], body
    assert [error["path"] for error in body["errors"]] == ["/query"]


def test_graphql_depth_limit_gives_an_error_not_a_500() -> None:
    query = "{ sjuanNew(players: 4) { ... on SjuanNewResponse { state { deals { cards_left } } } } }"
    with TestClient(create_app(Settings(graphql_max_depth=2)), raise_server_exceptions=False) as shallow:
        over_limit(graphql(shallow, query), "RULES_GRAPHQL_MAX_DEPTH")


def test_graphql_deep_queries_never_give_a_500(client: TestClient) -> None:
    inner = "name"
    for _ in range(40):
        inner = f"ofType {{ {inner} }}"
    introspection = f'{{ __type(name: "Query") {{ fields {{ type {{ {inner} }} }} }} }}'
    response = graphql(client, introspection)
    assert response.status_code == 200
    nonsense = "{ games " + "{ games " * 30 + "{ id }" + " }" * 31
    assert graphql_errors(graphql(client, nonsense))
    # the deepest real selection is well inside the default limit
    query = """
    { sjuanNew(players: 4) {
        ... on SjuanNewResponse { state { options { chips_count } deals { cards_left } } }
        ... on SjuanProblem { errors { path } legal_moves { card } } } }
    """
    body = graphql(client, query).json()
    assert "errors" not in body, body


def test_graphql_alias_limit(client: TestClient) -> None:
    def aliased(count: int) -> str:
        return "{ " + " ".join(f"a{i}: games {{ id }}" for i in range(count)) + " }"

    body = graphql(client, aliased(15)).json()
    assert "errors" not in body and len(body["data"]) == 15
    over_limit(graphql(client, aliased(16)), "RULES_GRAPHQL_MAX_ALIASES")


def test_graphql_token_limit() -> None:
    huge = "{ games { " + " ".join(["id"] * 600) + " } }"
    with TestClient(create_app(Settings(graphql_max_tokens=500)), raise_server_exceptions=False) as small:
        over_limit(graphql(small, huge), "RULES_GRAPHQL_MAX_TOKENS")
        assert "500 tokens" in graphql(small, huge).json()["detail"]


@pytest.mark.parametrize(
    "variables",
    [
        {"players": "four"},
        {"players": 2**40},
        {"players": None},
        {},
        {"players": 4.5},
        {"players": [4]},
    ],
)
def test_graphql_invalid_variables_give_an_error_not_a_500(client: TestClient, variables: Json) -> None:
    query = "query New($players: Int!) { sjuanNew(players: $players) { __typename } }"
    messages = graphql_errors(graphql(client, query, variables))
    assert any("$players" in m for m in messages), messages


def test_graphql_invalid_state_variable_gives_an_error_not_a_500(client: TestClient) -> None:
    state = {**new_state(client), "turn": "three", "nonsense": 1}
    messages = graphql_errors(graphql(client, MOVES_QUERY, {"state": state}))
    assert any("$state" in m for m in messages), messages


@pytest.mark.parametrize(
    ("change", "pointer"),
    [
        ({"dealer": "x"}, "/variables/state/dealer"),
        ({"hands": [[1]]}, "/variables/state/hands/0/0"),
        ({"chips": None}, "/variables/state/chips"),
        ({"surplus": 1}, "/variables/state/surplus"),
        ({"options": {"chips_count": True, "surplus": 1}}, "/variables/state/options/surplus"),
    ],
)
def test_graphql_a_variable_of_the_wrong_type_names_its_code_and_place(
    client: TestClient, change: Json, pointer: str
) -> None:
    state = {**new_state(client), **change}
    body = graphql(client, MOVES_QUERY, {"state": state}).json()
    assert body["data"] is None
    assert [error["extensions"] for error in body["errors"]] == [
        {"code": "BAD_USER_INPUT", "pointer": pointer}
    ]


@pytest.mark.parametrize(
    ("key", "named"),
    [("phase", True), ("k" * 100, True), ("a/b~c", True), ("k" * 129, False), ("it's", False)],
)
def test_graphql_points_at_a_missing_or_unknown_field_as_rest_does(
    client: TestClient, key: str, named: bool
) -> None:
    """A field missing from a state, or one its type does not have, is the value at fault on both
    surfaces (REST names a key of up to 128 characters; GraphQL one without a quote, since its message
    quotes the key)."""
    state = new_state(client)
    if key in state:
        del state[key]
    else:
        state[key] = 1
    rest = client.post("/v1/games/sjuan/moves", json={"state": state}).json()
    body = graphql(client, MOVES_QUERY, {"state": state}).json()
    [error] = body["errors"]
    assert error["extensions"]["code"] == "BAD_USER_INPUT"
    if named:
        assert [issue["path"] for issue in rest["errors"]] == [json_pointer(("state", key))]
        assert error["extensions"]["pointer"] == json_pointer(("variables", "state", key))
    else:
        assert error["extensions"]["pointer"] == "/variables/state"


def test_graphql_a_number_out_of_a_doubles_range_is_refused_at_its_variable(client: TestClient) -> None:
    """``1e400`` is JSON (REST reads it and refuses it at its field): GraphQL refuses it at its variable,
    not as a body that is not JSON. ``NaN`` is not JSON, and stays a bad request."""
    query = "query New($players: Int!) { sjuanNew(players: $players) { __typename } }"
    body = b'{"query": "' + query.encode() + b'", "variables": {"players": 1e400}}'
    answer = client.post("/graphql", content=body, headers={"content-type": "application/json"}).json()
    assert [error["extensions"] for error in answer["errors"]] == [
        {"code": "BAD_USER_INPUT", "pointer": "/variables/players"}
    ]
    refused = client.post(
        "/graphql", content=body.replace(b"1e400", b"NaN"), headers={"content-type": "application/json"}
    )
    assert refused.status_code == 400 and refused.json()["code"] == "graphql/bad-request"


def test_graphql_a_lone_surrogate_is_not_json_as_over_rest(client: TestClient) -> None:
    """``"\\ud800"`` escapes half a UTF-16 pair: no Unicode text. REST refuses the body as malformed
    JSON; GraphQL refuses it as a bad request, in a variable, the query or a key alike (not a field's
    internal error)."""
    query = b'"query($e: [String!]) { sjuanNew(players: 3, entropy: $e) { __typename } }"'
    bodies = [
        b'{"query": ' + query + b', "variables": {"e": ["\\ud800"]}}',
        b'{"query": ' + query + b', "variables": {"e": ["\\udc00x"], "\\ud83d": 1}}',
        b'{"query": "{ __typename \\ud800 }"}',
    ]
    for body in bodies:
        answer = client.post("/graphql", content=body, headers={"content-type": "application/json"})
        assert answer.status_code == 400 and answer.json()["code"] == "graphql/bad-request", body
    rest = post_raw(client, "/v1/games/sjuan/new", b'{"players": 3, "entropy": ["\\ud800"]}')
    assert rest.status_code == 400 and rest.json()["code"] == "request/malformed-json"
    paired = b'{"query": ' + query + b', "variables": {"e": ["\\ud83d\\ude00"]}}'  # a whole pair: text
    answer = client.post("/graphql", content=paired, headers={"content-type": "application/json"})
    assert answer.status_code == 200 and "errors" not in answer.json()  # (what entropy takes is another rule)


def test_graphql_variables_nested_too_deeply_are_bad_user_input(client: TestClient) -> None:
    state = orjson.dumps(new_state(client))
    deep = b"[" * 1000 + b'"7H"' + b"]" * 1000  # a state's hands, nested as deep as JSON parsers allow
    hands = orjson.dumps(orjson.loads(state)["hands"])
    variables = b'{"state": ' + state.replace(hands, deep, 1) + b"}"
    request = b'{"query": ' + orjson.dumps(MOVES_QUERY) + b', "variables": ' + variables + b"}"
    body = client.post("/graphql", content=request, headers={"content-type": "application/json"}).json()
    assert body["data"] is None, body
    assert [error["extensions"] for error in body["errors"]] == [
        {"code": "BAD_USER_INPUT", "pointer": "/variables"}
    ]


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("{ games { id ", "GRAPHQL_PARSE_FAILED"),
        ("{ noSuchField }", "GRAPHQL_VALIDATION_FAILED"),
        ("{ sjuanMoves(state: 1) { __typename } }", "GRAPHQL_VALIDATION_FAILED"),
        # the document's own faults about variables, though their messages name a variable: no value is
        # at fault, so no pointer (a value that does not fit its type is BAD_USER_INPUT, above)
        ("query($p: Int) { games { id } }", "GRAPHQL_VALIDATION_FAILED"),
        ("query { sjuanNew(players: $p) { __typename } }", "GRAPHQL_VALIDATION_FAILED"),
        ("query($p: String) { sjuanNew(players: $p) { __typename } }", "GRAPHQL_VALIDATION_FAILED"),
    ],
)
def test_graphql_a_document_refused_names_its_code(client: TestClient, query: str, code: str) -> None:
    errors = graphql(client, query).json()["errors"]
    assert errors and {error["extensions"]["code"] for error in errors} == {code}


@pytest.mark.parametrize(
    "body",
    [
        {"query": "{ games { id } }", "variables": "x"},
        {"variables": {}},
        {"query": "{ games { id "},
        {"query": "{ noSuchField }"},
        {"query": "mutation { sjuanNew(players: 4) { __typename } }"},
        [{"query": "{ games { id } }"}],
    ],
    ids=["variables-not-object", "no-query", "syntax-error", "unknown-field", "no-mutations", "batch"],
)
def test_graphql_bad_requests_are_client_errors(client: TestClient, body: Any) -> None:
    response = no_trace(client.post("/graphql", json=body))
    assert 200 <= response.status_code < 500
    if response.status_code == 200:
        assert response.json().get("errors"), response.text
    else:
        assert response.headers["content-type"] == PROBLEM
        assert response.json()["code"] == "graphql/bad-request"


def test_graphql_deeply_nested_json_body_is_a_400_not_a_500(client: TestClient) -> None:
    nested = "[" * 5000 + "]" * 5000
    query = "query($s: SjuanStateInput!){ sjuanScore(state: $s) { __typename } }"
    body = '{"query": "' + query + '", "variables": {"s": ' + nested + "}}"
    response = post_raw(client, "/graphql", body.encode())
    assert response.status_code == 400
    assert response.json()["code"] == "graphql/bad-request"


def test_rest_deeply_nested_json_body_is_a_400_not_a_500(client: TestClient) -> None:
    nested = b"[" * 30_000 + b"]" * 30_000
    response = post_raw(client, "/v1/games/sjuan/moves", b'{"state": ' + nested + b"}")
    assert response.status_code == 400
    assert response.json()["code"] == "request/malformed-json"


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        (b'{"query": ', ""),
        (b'[{"query": "{ games { id } }"}]', ""),
        (b'{"query": 5}', "/query"),
        (b'{"variables": {}}', "/query"),
        (b'{"query": ""}', "/query"),
        (b'{"query": "subscription { games { id } }"}', "/query"),
        (b'{"query": "{ games { id } }", "variables": []}', "/variables"),
        (b'{"query": "{ games { id } }", "operationName": 5}', "/operationName"),
        (b'{"query": "query A { games { id } }", "operationName": "B"}', "/operationName"),
    ],
    ids=[
        "not-json",
        "batch",
        "query-not-string",
        "no-query",
        "empty-query",
        "subscription",
        "variables-list",
        "operation-name-not-string",
        "unknown-operation",
    ],
)
def test_a_body_that_is_not_a_graphql_request_names_the_field_at_fault(
    client: TestClient, body: bytes, pointer: str
) -> None:
    """As a REST problem does: one issue, at the field at fault (the whole body: the empty pointer)."""
    response = post_raw(client, "/graphql", body)
    assert response.status_code == 400
    problem = response.json()
    assert problem["code"] == "graphql/bad-request"
    assert problem["errors"] == [{"path": pointer, "message": problem["detail"]}]


@pytest.mark.parametrize("key", ["x" * 60_000, "/" * 60_000, "~" * 60_000])
def test_a_long_unknown_key_is_not_echoed(client: TestClient, key: str) -> None:
    """A problem's size does not grow with the keys a client sends: a key longer than 128 characters is
    given by its length, at the path of the object that holds it (a path cannot name part of a key)."""
    state = client.post("/v1/games/sjuan/new", json={"players": 3}).json()["state"]
    body = json.dumps({"state": state, key: 1}).encode()
    response = post_raw(client, "/v1/games/sjuan/moves", body)
    assert response.status_code == 422
    assert len(response.content) < 1000
    [issue] = response.json()["errors"]
    assert issue["path"] == "" and "60000 characters" in issue["message"]


def test_graphql_broken_json_is_a_client_error(client: TestClient) -> None:
    response = post_raw(client, "/graphql", b'{"query": ')
    assert response.status_code == 400
    assert response.headers["content-type"] == PROBLEM
    assert response.json()["code"] == "graphql/bad-request"


# ---- CORS ---------------------------------------------------------------------------------------------


def test_cors_preflight_for_an_allowed_origin(cors_client: TestClient) -> None:
    for path in ("/v1/games/sjuan/moves", "/graphql"):
        response = no_trace(
            cors_client.options(
                path,
                headers={
                    "origin": "https://example.com",
                    "access-control-request-method": "POST",
                    "access-control-request-headers": "content-type",
                },
            )
        )
        assert response.status_code == 200, response.text
        assert response.headers["access-control-allow-origin"] == "https://example.com"
        assert "POST" in response.headers["access-control-allow-methods"]
        assert "content-type" in response.headers["access-control-allow-headers"].lower()


def test_cors_preflight_for_another_origin_is_refused(cors_client: TestClient) -> None:
    response = no_trace(
        cors_client.options(
            "/v1/games/sjuan/moves",
            headers={"origin": "https://evil.example", "access-control-request-method": "POST"},
        )
    )
    assert response.status_code == 400
    assert "access-control-allow-origin" not in response.headers


def test_cors_simple_request_carries_the_origin(cors_client: TestClient) -> None:
    response = no_trace(
        cors_client.post(
            "/v1/games/sjuan/new", json={"players": 3}, headers={"origin": "https://example.com"}
        )
    )
    assert response.status_code == 200
    assert response.headers["access-control-allow-origin"] == "https://example.com"
    problem = no_trace(
        cors_client.post("/v1/games/sjuan/new", json={}, headers={"origin": "https://example.com"})
    )
    assert problem.status_code == 422
    assert problem.headers["access-control-allow-origin"] == "https://example.com"


def test_no_cors_by_default(client: TestClient) -> None:
    response = no_trace(
        client.options(
            "/v1/games/sjuan/moves",
            headers={"origin": "https://example.com", "access-control-request-method": "POST"},
        )
    )
    assert "access-control-allow-origin" not in response.headers
    assert_problem(response, 405, "method/not-allowed")
    simple = no_trace(
        client.post("/v1/games/sjuan/new", json={"players": 3}, headers={"origin": "https://example.com"})
    )
    assert "access-control-allow-origin" not in simple.headers


@pytest.mark.parametrize("value", [9.0, 2.0**31, 1e20])
def test_whole_floats_out_of_range_get_the_range_message(client: TestClient, value: float) -> None:
    # a whole float is an integer however large (beyond 64 bits too): refused by the bound, not the type
    problem = assert_problem(
        post(client, "/v1/games/sjuan/new", {"players": 4, "seed": seed_hex(7), "dealer": value}),
        422,
        "request/invalid",
        "/dealer",
    )
    assert problem["errors"][0]["message"] == "must be a seat between 0 and 7 (and a seat of this table)"
    problem = assert_problem(
        post(client, "/v1/games/sjuan/new", {"players": value, "seed": seed_hex(7)}), 422, "request/invalid"
    )
    assert problem["errors"][0]["message"].startswith("Input should be less than or equal to")
