"""The OpenAPI document's examples are real: every request example, sent as Swagger's "Try it out" sends
it, is answered 2xx, and every answer example is valid against its answer schema.

The committed document holds every example that does not depend on the service's keys; a service with
``RULES_SEAL_KEYS`` serves the sealed examples that need a token filled in (``api/examples.py`` says why).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from sevens_rules.api.examples import timeless

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette asks for httpx2, which its test client does not need yet
    from starlette.testclient import TestClient

from sevens_rules.api.app import create_app
from sevens_rules.api.limits import Settings
from tests.sealed_helpers import keyring

ROOT = Path(__file__).resolve().parent.parent
COMMITTED: dict[str, Any] = orjson.loads((ROOT / "openapi" / "openapi.json").read_bytes())
JSON = "application/json"
DOCUMENT_URI = "urn:sevens-rules:openapi"
PLACEHOLDER_VALUES = (2147483647, -2147483648, "string")
"""What a generator puts where a document shows no example: none may appear in an example."""


def operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """Every (method, path, operation) of a document."""
    return [(method, path, op) for path, item in document["paths"].items() for method, op in item.items()]


def request_example(op: dict[str, Any]) -> Any:
    return op.get("requestBody", {}).get("content", {}).get(JSON, {}).get("example")


def response_example(op: dict[str, Any]) -> Any:
    return op["responses"]["200"]["content"][JSON].get("example")


def validator(document: dict[str, Any], schema: dict[str, Any]) -> Draft202012Validator:
    """A JSON Schema validator of ``schema`` (a ``$ref`` into ``document``) whose ``$ref``s resolve in
    ``document``."""
    registry: Registry[Any] = Registry().with_resource(DOCUMENT_URI, DRAFT202012.create_resource(document))
    return Draft202012Validator({"$ref": DOCUMENT_URI + schema["$ref"]}, registry=registry)


def leaves(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        for item in value.values():
            yield from leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from leaves(item)
    else:
        yield value


@pytest.fixture(scope="module")
def keyed_client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(), keyring("examples=9")), raise_server_exceptions=False) as client:
        yield client


@pytest.fixture(scope="module")
def served_with_keys(keyed_client: TestClient) -> dict[str, Any]:
    response = keyed_client.get("/openapi.json")
    assert response.status_code == 200
    served: dict[str, Any] = response.json()
    return served


def test_the_committed_document_has_every_example_that_needs_no_key() -> None:
    """Every plain operation shows a request and an answer; sealed ``new`` its request; the other sealed
    operations none (their token would need a key every reader knows)."""
    missing = []
    for method, path, op in operations(COMMITTED):
        sealed = "/sealed/" in path
        wanted_request = method == "post" and (not sealed or path.endswith("/new"))
        wanted_response = not sealed
        if wanted_request != (request_example(op) is not None):
            missing.append(("request", path))
        if wanted_response != (response_example(op) is not None):
            missing.append(("response", path))
    assert missing == []


@pytest.mark.parametrize(
    ("method", "path"),
    [(method, path) for method, path, op in operations(COMMITTED) if method == "get" or request_example(op)],
    ids=str,
)
def test_committed_request_examples_are_accepted(
    client: TestClient, keyed_client: TestClient, method: str, path: str
) -> None:
    """Each committed example, sent as is, is answered 2xx (sealed ``new`` by a service with keys); the
    answer to a plain request is the example answer (the deal is seeded)."""
    op = COMMITTED["paths"][path][method]
    if method == "get":
        response = client.get(path)
    else:
        response = (keyed_client if "/sealed/" in path else client).post(path, json=request_example(op))
    assert 200 <= response.status_code < 300, response.text
    if "/sealed/" not in path and not path.endswith("/seed"):  # seed answers a fresh seed each time
        answered = response.json()
        if path.endswith("/bot"):  # a seeded bot answers the same move; the time it spent varies
            answered = timeless(answered)
        assert answered == response_example(op)


@pytest.mark.parametrize(
    ("method", "path"),
    [(method, path) for method, path, op in operations(COMMITTED) if response_example(op) is not None],
    ids=str,
)
def test_committed_answer_examples_match_their_schema(method: str, path: str) -> None:
    op = COMMITTED["paths"][path][method]
    example = response_example(op)
    schema = op["responses"]["200"]["content"][JSON]["schema"]
    errors = [error.message for error in validator(COMMITTED, schema).iter_errors(example)]
    assert errors == []
    assert not [leaf for leaf in leaves(example) if leaf in PLACEHOLDER_VALUES]


def problem_examples(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any], dict[str, Any]]]:
    """Every problem example of a document: (path, status, schema, example)."""
    return [
        (path, status, media["schema"], media["example"])
        for _, path, op in operations(document)
        for status, response in op["responses"].items()
        if status != "200"
        for media in response["content"].values()
        if "example" in media
    ]


def test_problem_examples_are_problems_of_their_status() -> None:
    """Each operation shows the problems it answers for a body that is not JSON, one the schema refuses,
    one not sent as JSON and one too large (sealed ones: the problem of a service without keys; plain
    apply at a table where a seat waits: a move out of turn), each valid against its schema."""
    found = problem_examples(COMMITTED)
    by_path: dict[str, set[str]] = {}
    for path, status, schema, example in found:
        by_path.setdefault(path, set()).add(status)
        assert example["status"] == int(status), (path, status)
        errors = [error.message for error in validator(COMMITTED, schema).iter_errors(example)]
        assert errors == [], (path, status)
        assert example["request_id"] is None  # made outside a request: no id to mislead
    for _, path, op in operations(COMMITTED):
        if op.get("requestBody"):
            expected = {"400", "413", "415", "422"} | ({"404"} if "/sealed/" in path else set())
            assert expected <= by_path[path], path
    assert "409" in by_path["/v1/games/sjuan/apply"]
    [illegal] = [e for p, s, _, e in found if (p, s) == ("/v1/games/sjuan/apply", "409")]
    assert illegal["code"] == "move/not-your-turn" and illegal["legal_moves"]


def test_the_validator_sees_through_references() -> None:
    """An answer the schema does not allow is reported (the check above is not vacuous)."""
    op = COMMITTED["paths"]["/v1/games/sjuan/moves"]["post"]
    schema = op["responses"]["200"]["content"][JSON]["schema"]
    wrong = response_example(op) | {"moves": [{"type": "play", "player": 0, "card": "1X"}]}
    assert list(validator(COMMITTED, schema).iter_errors(wrong))


def test_a_service_with_keys_serves_runnable_sealed_examples(
    keyed_client: TestClient, served_with_keys: dict[str, Any]
) -> None:
    """The document a keyed service serves has an example of every sealed request and answer (beside the
    committed document's: tests/test_contract.py): each request is answered 2xx, each answer example is
    valid against its schema, and the ``apply`` and ``fill`` examples are answered exactly as shown."""
    sealed = [(path, op) for _, path, op in operations(served_with_keys) if "/sealed/" in path]
    assert len(sealed) == len([path for path in COMMITTED["paths"] if "/sealed/" in path]) > 0
    for path, op in sealed:
        body, example = request_example(op), response_example(op)
        assert body is not None and example is not None, path
        response = keyed_client.post(path, json=body)
        assert response.status_code == 200, (path, response.text)
        schema = op["responses"]["200"]["content"][JSON]["schema"]
        errors = [error.message for error in validator(served_with_keys, schema).iter_errors(example)]
        assert errors == [], path
        if path.endswith(("/moves", "/apply")):
            assert example["moves" if path.endswith("/moves") else "events"], path  # a seat to act
        if path.endswith(("/apply", "/fill")):  # made when the document was: sent again, a retry
            assert response.json() == example, path


def test_a_store_that_refuses_the_examples_tables_leaves_the_committed_examples(tmp_path: Path) -> None:
    """A keyed service whose match store fills before the examples' tables are open serves the
    committed document (its sealed examples as committed), not a 500; the tables the try opened are
    forgotten, so clients still find the room they left."""
    settings = Settings(data_dir=str(tmp_path), match_limit=4)
    with TestClient(create_app(settings, keyring("full=3")), raise_server_exceptions=False) as client:
        held = client.post("/v1/games/sjuan/sealed/new", json={"players": 3})
        served = [client.get("/openapi.json") for _ in range(2)]
        opened = [client.post("/v1/games/sjuan/sealed/new", json={"players": 3}) for _ in range(4)]
    assert held.status_code == 200, held.text
    for response in served:
        assert response.status_code == 200, response.text
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.json() == COMMITTED
    assert [response.status_code for response in opened] == [200, 200, 200, 503]  # room for three more
    assert opened[-1].json()["code"] == "store/full"


def test_sealed_examples_open_only_with_the_services_keys(served_with_keys: dict[str, Any]) -> None:
    """A served example token is the service's own: another service (other keys) refuses it."""
    path = "/v1/games/sjuan/sealed/moves"
    body = request_example(served_with_keys["paths"][path]["post"])
    with TestClient(create_app(Settings(), keyring("other=1")), raise_server_exceptions=False) as other:
        refused = other.post(path, json=body)
    assert refused.status_code == 422
    assert refused.json()["code"] == "token/unknown-key"
