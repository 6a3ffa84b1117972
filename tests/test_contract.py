"""The committed contract (``openapi/``) matches the models, and the service publishes every game the
registry holds on both surfaces: seven REST paths and seven GraphQL root fields per game, seven sealed
operations (five twins, ``join`` and ``fill``), and a complete ``GET /v1/games`` listing.

These are the semantics of ``python -m sevens_rules.api.export --check``: when a model changes, regenerate the
artifacts with ``python -m sevens_rules.api.export`` and commit them.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette asks for httpx2, which its test client does not need yet
    from starlette.testclient import TestClient

from sevens_rules.api import export
from sevens_rules.api.app import create_app
from sevens_rules.api.export import ROOT, artifacts
from sevens_rules.api.limits import Settings
from sevens_rules.api.operations import games_response
from sevens_rules.engine.registry import GAMES
from tests.sealed_helpers import keyring

OPERATIONS = ("new", "moves", "apply", "score", "view", "seed", "verify", "sample", "bot")
SEALED_OPERATIONS = ("new", "join", "fill", "moves", "apply", "score", "view", "sample", "bot")
BOUND_KEYWORDS = {"ge", "gt", "le", "lt"}
"""pydantic's names for bounds; JSON Schema spells them minimum/maximum/exclusiveMinimum/exclusiveMaximum."""


def camel(game_id: str, operation: str) -> str:
    """``fan-tan`` + ``moves`` -> ``fanTanMoves``."""
    first, *rest = game_id.split("-")
    return first + "".join(part.capitalize() for part in rest) + operation.capitalize()


def relative(path: Path) -> str:
    return str(path.relative_to(ROOT))


GENERATED = artifacts()


@pytest.mark.parametrize("path", sorted(GENERATED), ids=relative)
def test_committed_artifact_matches_the_models(path: Path) -> None:
    stale = f"{relative(path)} is out of date: run python -m sevens_rules.api.export (and commit the result)"
    assert path.exists(), stale
    assert path.read_bytes() == GENERATED[path], stale


def test_served_openapi_is_the_committed_file() -> None:
    with TestClient(create_app(Settings(), keyring("contract=5"))) as keyed:  # the sealed operations on
        response = keyed.get("/openapi.json")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    served = response.json()
    # the examples of sealed operations that need a token are the keyed service's own (api/examples.py)
    for path, item in served["paths"].items():
        if "/sealed/" in path:
            if not path.endswith("/new"):
                del item["post"]["requestBody"]["content"]["application/json"]["example"]
            del item["post"]["responses"]["200"]["content"]["application/json"]["example"]
    committed = ROOT / "openapi" / "openapi.json"
    assert served == json.loads(committed.read_bytes()), (
        "/openapi.json differs from openapi/openapi.json: run python -m sevens_rules.api.export"
    )


@pytest.fixture(scope="module")
def openapi() -> dict[str, Any]:
    """The whole contract, as a service with sealing keys serves it (a keyless one leaves the sealed
    operations out: tests/test_openapi_links.py)."""
    document: dict[str, Any] = json.loads((ROOT / "openapi" / "openapi.json").read_bytes())
    return document


def _bound_keys(node: Any, where: str = "#") -> Iterator[str]:
    """The locations of pydantic-style bound keys in a JSON Schema tree (property names are not keys)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("properties", "patternProperties", "$defs", "schemas", "paths"):
                # a mapping of names: the names themselves are not keywords
                if isinstance(value, dict):
                    for name, child in value.items():
                        yield from _bound_keys(child, f"{where}/{key}/{name}")
                continue
            if key in BOUND_KEYWORDS:
                yield f"{where}/{key}"
            yield from _bound_keys(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, child in enumerate(node):
            yield from _bound_keys(child, f"{where}/{index}")


def test_openapi_bounds_are_json_schema_keywords(openapi: dict[str, Any]) -> None:
    assert list(_bound_keys(openapi)) == []
    text = json.dumps(openapi)
    assert '"minimum"' in text and '"maximum"' in text


def test_openapi_is_3_1_with_unique_operation_ids(openapi: dict[str, Any]) -> None:
    assert openapi["openapi"].startswith("3.1")
    ids = [op["operationId"] for item in openapi["paths"].values() for op in item.values()]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_game_has_a_path_per_operation(openapi: dict[str, Any], game_id: str) -> None:
    paths = openapi["paths"]
    for operation in OPERATIONS:
        path = f"/v1/games/{game_id}/{operation}"
        assert path in paths, f"{path} is missing from the OpenAPI document"
        post = paths[path]["post"]
        assert set(paths[path]) == {"post"}
        assert post["operationId"] == camel(game_id, operation)
        assert post["requestBody"]["required"] is True
        assert "$ref" in post["requestBody"]["content"]["application/json"]["schema"]
        responses = post["responses"]
        assert "$ref" in responses["200"]["content"]["application/json"]["schema"]
        for status in ("400", "409", "413", "415", "422"):
            assert set(responses[status]["content"]) == {"application/problem+json"}, (path, status)
    for operation in SEALED_OPERATIONS:
        sealed = paths[f"/v1/games/{game_id}/sealed/{operation}"]["post"]
        assert sealed["operationId"] == camel(game_id, "sealed") + operation.capitalize()
        for status in ("400", "403", "404", "409", "413", "415", "422"):
            assert set(sealed["responses"][status]["content"]) == {"application/problem+json"}
    game_paths = [p for p in paths if p.startswith(f"/v1/games/{game_id}/")]
    assert len(game_paths) == len(OPERATIONS) + len(SEALED_OPERATIONS)


def test_no_paths_beyond_the_registry(openapi: dict[str, Any]) -> None:
    expected = {"/v1/games"} | {f"/v1/games/{g}/{op}" for g in GAMES for op in OPERATIONS}
    expected |= {f"/v1/games/{g}/sealed/{op}" for g in GAMES for op in SEALED_OPERATIONS}
    assert set(openapi["paths"]) == expected


def test_every_game_has_a_graphql_root_field_per_operation(client: TestClient) -> None:
    response = client.post("/graphql", json={"query": "{ __schema { queryType { fields { name } } } }"})
    assert response.status_code == 200
    fields = {field["name"] for field in response.json()["data"]["__schema"]["queryType"]["fields"]}
    expected = {"games"} | {camel(g, op) for g in GAMES for op in OPERATIONS}
    expected |= {camel(g, "sealed") + op.capitalize() for g in GAMES for op in SEALED_OPERATIONS}
    assert fields == expected
    assert {"sjuanNew", "fanTanMoves"} <= fields


def test_sdl_lists_every_root_field() -> None:
    sdl = next(content for path, content in GENERATED.items() if path.suffix == ".graphql").decode()
    for game_id in GAMES:
        for operation in OPERATIONS:
            name = camel(game_id, operation)
            assert f"  {name}(" in sdl or f"  {name}: " in sdl, name  # with or without arguments


def test_games_listing_describes_every_game(client: TestClient) -> None:
    response = client.get("/v1/games")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    listed = response.json()["games"]
    assert [game["id"] for game in listed] == list(GAMES)
    for info in listed:
        game = GAMES[info["id"]]
        assert set(info) == {
            *("id", "name", "min_players", "max_players", "player_counts", "simultaneous", "options", "rules")
        }
        assert info["rules"] == f"/rules/{info['id']}"  # tests/test_rules_docs.py follows the link
        assert info["name"] == game.name and info["name"]
        assert info["min_players"] == min(game.table_sizes())
        assert info["max_players"] == max(game.table_sizes())
        assert info["player_counts"] == list(game.table_sizes())
        assert 2 <= info["min_players"] <= info["max_players"] <= 8
        assert info["simultaneous"] is game.simultaneous
        fields = game.models.options.model_fields
        assert [option["name"] for option in info["options"]] == list(fields)
        for option in info["options"]:
            field = fields[option["name"]]
            assert option["type"] in {"boolean", "integer", "integer|null"}, option
            default = option["default"]
            assert default == field.get_default(call_default_factory=True), option
            assert option["description"], f"{info['id']} option {option['name']} has no description"
            if option["type"] == "boolean":
                assert type(default) is bool and option["minimum"] is option["maximum"] is None, option
            else:
                assert type(option["minimum"]) is int and type(option["maximum"]) is int, option
                assert default is None or option["minimum"] <= default <= option["maximum"], option
            if option["choices"] is not None:
                assert default in option["choices"], option


def test_games_listing_types_option_values() -> None:
    # the values as written in the options models (schema/sjuan.py, sedmice.py, my_ship_sails.py)
    options = {
        (game.id, option.name): option.model_dump()
        for game in games_response().games
        for option in game.options
    }
    assert options["sjuan", "chips_count"] == {
        **options["sjuan", "chips_count"],
        **{"type": "boolean", "default": True, "choices": None, "minimum": None, "maximum": None},
    }
    hand_size = options["domino-fan-tan", "hand_size"]
    assert (hand_size["default"], hand_size["minimum"], hand_size["maximum"]) == (13, 1, 26)
    target = options["sedmice", "target_hits"]
    assert (target["default"], target["choices"], target["minimum"], target["maximum"]) == (
        5,
        [1, 5, 10],
        1,
        10,
    )
    limit = options["my-ship-sails", "max_exchanges"]
    assert (limit["type"], limit["default"], limit["minimum"], limit["maximum"]) == (
        "integer|null",
        None,
        1,
        1000,
    )


def test_games_query_matches_rest(client: TestClient) -> None:
    query = """
    { games { id name min_players max_players player_counts simultaneous
      options { name type default description choices minimum maximum } rules } }
    """
    response = client.post("/graphql", json={"query": query})
    assert response.status_code == 200
    # GraphQL lists the games themselves; REST wraps the same list in {"games": [...]}
    assert response.json()["data"]["games"] == client.get("/v1/games").json()["games"]


def test_export_outside_a_checkout_says_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # after the quick start's plain install the package sits in site-packages, with no README beside it
    monkeypatch.setattr(export, "README_PATH", tmp_path / "README.md")
    assert export.main(["--check"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("sevens-rules: no repository at ")
