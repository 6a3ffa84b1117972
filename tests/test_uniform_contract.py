"""The contract names things one way: every operation's models after its game and operation, every move
after its game, in the OpenAPI document and the GraphQL schema alike."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from graphql import GraphQLUnionType, build_schema

from sevens_rules.api.operations import all_operations
from sevens_rules.schema.operations import type_prefix

ROOT = Path(__file__).resolve().parent.parent
OPENAPI = json.loads((ROOT / "openapi" / "openapi.json").read_text())
SDL = build_schema((ROOT / "openapi" / "schema.graphql").read_text())
OPS = all_operations()


def stem(op: Any) -> str:
    return f"{type_prefix(op.game.id)}{'Sealed' if op.sealed else ''}{op.name.capitalize()}"


def ref(body: dict[str, Any]) -> str:
    name: str = body["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    return name


def test_every_response_type_is_named_game_operation_response() -> None:
    for op in OPS:
        post = OPENAPI["paths"][op.path]["post"]
        assert ref(post["requestBody"]) == f"{stem(op)}Request", op.path
        assert ref(post["responses"]["200"]) == f"{stem(op)}Response", op.path
        result = SDL.query_type.fields[op.field_name].type.of_type  # type: ignore[union-attr]
        assert isinstance(result, GraphQLUnionType)
        members = sorted(t.name for t in result.types)
        assert members == sorted([f"{stem(op)}Response", f"{type_prefix(op.game.id)}Problem"]), op.field_name


def test_seed_and_verify_answer_their_own_response_types() -> None:
    seed = next(op for op in OPS if op.game.id == "fan-tan" and op.name == "seed")
    answer = seed.run(seed.request())
    assert type(answer).__name__ == "FanTanSeedResponse"
    assert set(answer.model_dump()) == {"seed", "commitment"}
