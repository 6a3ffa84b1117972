"""The OpenAPI links that a stateful client (schemathesis) follows from one answer to the next request.

Every link targets an operation of the same game and the same mode (plain operations link to plain ones
by their state, sealed ones to sealed ones by their token), every expression points at a field that the
answer (or the request) it reads actually has, every field it fills is one the target's request takes,
and a keyless service serves the document without the sealed operations it cannot answer.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette asks for httpx2, which its test client does not need yet
    from starlette.testclient import TestClient

from sevens_rules.api.app import create_app
from sevens_rules.api.limits import Settings
from sevens_rules.api.openapi import openapi_document, openapi_json
from sevens_rules.api.operations import all_operations
from tests.sealed_helpers import keyring

FULL = openapi_document()


def operations_by_id(document: dict[str, Any]) -> dict[str, tuple[str, dict[str, Any]]]:
    """Every operation of the document by its operationId, with its path."""
    return {op["operationId"]: (path, op) for path, item in document["paths"].items() for op in item.values()}


def resolve(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def schema_at(document: dict[str, Any], schema: dict[str, Any], pointer: str) -> dict[str, Any] | None:
    """The schema of the value a JSON pointer reaches in a value of ``schema``; None when no value of the
    schema has it."""
    schema = resolve(document, schema)
    if not pointer:
        return schema
    head, _, rest = pointer.partition("/")
    for alternative in schema.get("anyOf", []) + schema.get("oneOf", []):
        found = schema_at(document, alternative, pointer)
        if found is not None:
            return found
    if head.isdigit() and "items" in schema:
        return schema_at(document, schema["items"], rest)
    if head in schema.get("properties", {}):
        return schema_at(document, schema["properties"][head], rest)
    return None


def body_schema(operation: dict[str, Any], side: str) -> dict[str, Any]:
    if side == "request":
        schema: dict[str, Any] = operation["requestBody"]["content"]["application/json"]["schema"]
    else:
        schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    return schema


def links(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any], dict[str, Any]]]:
    """``(path, link name, source operation, link)`` for every link of the document."""
    for path, item in document["paths"].items():
        for operation in item.values():
            for name, link in operation["responses"]["200"].get("links", {}).items():
                yield path, name, operation, link


def test_the_operations_that_feed_others_have_links() -> None:
    linked = {operation["operationId"] for _, _, operation, _ in links(FULL)}
    for op in all_operations():
        if op.name in ("new", "apply", "moves"):
            assert op.operation_id in linked, op.operation_id


@pytest.mark.parametrize("sealed", [True, False], ids=["full", "keyless"])
def test_every_link_targets_an_operation_of_its_own_game_and_mode(sealed: bool) -> None:
    document = openapi_document(sealed)
    by_id = operations_by_id(document)
    for path, name, _, link in links(document):
        assert link["operationId"] in by_id, (path, name, link["operationId"])
        target_path, _ = by_id[link["operationId"]]
        assert target_path.rsplit("/", 1)[1] == name, (path, name, target_path)
        source_game = path.split("/")[3]
        assert target_path.split("/")[3] == source_game, (path, target_path)
        assert ("/sealed/" in target_path) == ("/sealed/" in path), (path, target_path)


@pytest.mark.parametrize("sealed", [True, False], ids=["full", "keyless"])
def test_every_link_expression_points_at_a_field_the_message_has(sealed: bool) -> None:
    document = openapi_document(sealed)
    by_id = operations_by_id(document)
    for path, name, operation, link in links(document):
        _, target = by_id[link["operationId"]]
        target_request = resolve(document, body_schema(target, "request"))
        for field, expression in link["requestBody"].items():
            assert field in target_request["properties"], (path, name, field)
            if not isinstance(expression, str) or not expression.startswith("$"):
                continue  # a constant (seat 0, a joining seat's entropy)
            source, _, pointer = expression.partition("#/")
            side = {"$response.body": "response", "$request.body": "request"}[source]
            found = schema_at(document, body_schema(operation, side), pointer)
            assert found is not None, (path, name, expression)


def test_sealed_links_chain_by_token_and_plain_links_by_state() -> None:
    for path, name, _, link in links(FULL):
        carried = "token" if "/sealed/" in path else "state"
        if name != "score" or carried == "state":
            assert carried in link["requestBody"], (path, name)
        assert link["requestBody"][carried].endswith(f"#/{carried}"), (path, name)


@pytest.fixture(scope="module")
def keyed_client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(), keyring("links=3")), raise_server_exceptions=False) as client:
        yield client


def test_a_keyless_service_serves_the_contract_without_the_sealed_operations(client: TestClient) -> None:
    served = client.get("/openapi.json")
    assert served.content == openapi_json(sealed=False)
    paths = served.json()["paths"]
    assert not [path for path in paths if "/sealed/" in path]
    assert set(paths) == {path for path in FULL["paths"] if "/sealed/" not in path}
    assert not [name for name in served.json()["components"]["schemas"] if "Sealed" in name]


def test_a_service_with_keys_serves_the_whole_contract(keyed_client: TestClient) -> None:
    """The whole contract, with the sealed examples filled in (tests/test_documented_examples.py)."""
    served = keyed_client.get("/openapi.json").json()
    assert served["components"] == FULL["components"]
    assert set(served["paths"]) == set(FULL["paths"])
    for path, item in served["paths"].items():
        assert item.keys() == FULL["paths"][path].keys()
        for method, op in item.items():
            assert op["responses"].keys() == FULL["paths"][path][method]["responses"].keys()
