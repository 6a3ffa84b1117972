"""The contract names things one way: every operation's models after its game and operation, every move
after its game, in the OpenAPI document and the GraphQL schema alike."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

from graphql import (
    FragmentDefinitionNode,
    GraphQLObjectType,
    GraphQLUnionType,
    build_schema,
    get_named_type,
    parse,
    print_ast,
)
from starlette.testclient import TestClient

from sevens_rules.api.operations import all_operations
from sevens_rules.api.reference import BEGIN, END
from sevens_rules.api.sealing import FORMAT
from sevens_rules.engine.registry import GAMES
from sevens_rules.schema.operations import type_prefix
from tests.sealed_helpers import keyring

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


def _named(type_: Any) -> str:
    return str(get_named_type(type_))


def test_every_game_has_one_move_input_and_one_options_input_of_its_name() -> None:
    fields = SDL.query_type.fields  # type: ignore[union-attr]
    for op in OPS:
        p = type_prefix(op.game.id)
        arguments = fields[op.field_name].args
        if "move" in arguments:
            assert str(arguments["move"].type) == f"{p}MoveInput!", op.field_name
        if "options" in arguments:
            assert str(arguments["options"].type) == f"{p}OptionsInput", op.field_name
        problem = SDL.get_type(f"{p}Problem")
        assert isinstance(problem, GraphQLObjectType)
        assert _named(problem.fields["legal_moves"].type) == f"{p}Move"
        if op.name == "moves":
            response = SDL.get_type(f"{stem(op)}Response")
            assert isinstance(response, GraphQLObjectType)
            assert _named(response.fields["moves"].type) == f"{p}Move", op.field_name
        schemas = OPENAPI["components"]["schemas"]
        request = schemas[f"{stem(op)}Request"]["properties"]
        if "move" in request:
            assert request["move"]["$ref"].endswith(f"/{p}MoveInput"), op.path
        if op.name == "moves":
            items = schemas[f"{stem(op)}Response"]["properties"]["moves"]["items"]
            assert items["$ref"].endswith(f"/{p}Move"), op.path


def test_no_game_names_another_games_move_or_options() -> None:
    prefixes = {type_prefix(game_id) for game_id in GAMES}
    for op in OPS:
        p = type_prefix(op.game.id)
        schemas = OPENAPI["components"]["schemas"]
        text = json.dumps([schemas[f"{stem(op)}Request"], schemas[f"{stem(op)}Response"]])
        for other in prefixes - {p}:
            for kind in ("Move", "MoveInput", "Options", "OptionsInput"):
                assert f'/{other}{kind}"' not in text, (op.path, other + kind)


def test_the_move_fragment_sends_a_listed_move_back(client: TestClient) -> None:
    fragments = {
        d.name.value: print_ast(d)
        for d in parse((ROOT / "openapi" / "fragments.graphql").read_text()).definitions
        if isinstance(d, FragmentDefinitionNode)
    }
    assert {f"{type_prefix(g)}MoveFields" for g in GAMES} <= set(fragments)
    new = (
        f'{{ fanTanNew(players: 3, seed: "{"0" * 63}1") {{ ... on FanTanNewResponse '
        "{ state { ...FanTanStateFields } } } }\n" + fragments["FanTanStateFields"]
    )
    state = client.post("/graphql", json={"query": new}).json()["data"]["fanTanNew"]["state"]
    moves = (
        "query($s: FanTanStateInput!) { fanTanMoves(state: $s) { ... on FanTanMovesResponse "
        "{ moves { ...FanTanMoveFields } } } }\n" + fragments["FanTanMoveFields"]
    )
    listed = client.post("/graphql", json={"query": moves, "variables": {"s": state}}).json()
    move = listed["data"]["fanTanMoves"]["moves"][0]
    apply = (
        "query($s: FanTanStateInput!, $m: FanTanMoveInput!) { fanTanApply(state: $s, move: $m) "
        "{ __typename } }"
    )
    answer = client.post("/graphql", json={"query": apply, "variables": {"s": state, "m": move}}).json()
    assert answer == {"data": {"fanTanApply": {"__typename": "FanTanApplyResponse"}}}


README = (ROOT / "README.md").read_text()


def _tables_under(heading: str, header: str) -> list[list[list[str]]]:
    """The tables with this header row in the README section under ``heading`` (generated ones left out)."""
    section = README.split(f"\n{heading}\n", 1)[1].split("\n## ", 1)[0]
    section = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), "", section, flags=re.S)
    tables = []
    for block in section.split(header + "\n")[1:]:
        rows = []
        for line in block.splitlines()[1:]:
            if not line.startswith("|"):
                break
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
        tables.append(rows)
    return tables


def test_readme_sealed_table_names_every_field_of_the_models() -> None:
    (rows,) = _tables_under("## Referee mode (sealed states)", "| operation | request | answer |")
    sealed = {op.name: op for op in OPS if op.sealed and op.game.id == "sevens"}
    assert {re.sub(r"`", "", row[0]) for row in rows} == set(sealed)
    for name, request, answer in rows:
        op = sealed[name.strip("`")]
        assert set(op.request.model_fields) <= set(re.findall(r"`([a-z_]+)`", request)), name
        assert set(op.response.model_fields) <= set(re.findall(r"`([a-z_]+)`", answer)), name


def test_readme_sealed_tokens_start_as_tokens_of_the_current_format() -> None:
    examples = re.findall(r'"token": ?"([A-Za-z0-9_-]+)…"', README)
    assert examples
    ring = keyring("k1=7")
    new = next(op for op in all_operations(ring) if op.sealed and op.game.id == "sevens" and op.name == "new")
    token: str = new.run(new.request.model_validate({"players": 4})).model_dump()["token"]
    assert base64.urlsafe_b64decode(token[:4])[0] == FORMAT
    for example in examples:
        assert token.startswith(example[:-1]), example
