"""GraphQL reads an explicit ``null`` as the SDL promises: wherever an argument is nullable, ``null`` (inline,
or as a variable, as generic clients send every unset variable) answers what leaving it out answers.

The cases are generated from the schema: every nullable argument of every root field, so an operation
added later is covered without touching this file.
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from graphql import (
    GraphQLField,
    GraphQLInputObjectType,
    GraphQLInputType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLUnionType,
    get_named_type,
)
from pydantic import BaseModel, Field

from sevens_rules.api.graphql import build_schema, nulls_as_omitted
from sevens_rules.api.graphql_http import _ALLOWED
from sevens_rules.api.operations import Operation, all_operations
from sevens_rules.api.problems import dump
from sevens_rules.engine.dealing import commitment
from sevens_rules.engine.registry import GAMES
from tests.sealed_helpers import keyring
from tests.seeds import seed_hex

RING = keyring("k1=7")
SCHEMA = build_schema(keyring=RING)
ROOT_FIELDS = SCHEMA._schema.query_type.fields  # type: ignore[union-attr]
OPERATIONS = {op.field_name: op for op in all_operations(RING)}
SEED = seed_hex(30)
BOT_SEED = seed_hex(31)


def nullable_arguments(field: GraphQLField) -> list[str]:
    return [name for name, argument in field.args.items() if not isinstance(argument.type, GraphQLNonNull)]


FIELDS = [name for name, field in ROOT_FIELDS.items() if nullable_arguments(field)]


def run(op: Operation, body: dict[str, Any]) -> Any:
    return orjson.loads(dump(op.run(op.request.model_validate_json(orjson.dumps(body)))))


def _operation(game_id: str, name: str, sealed: bool = False) -> Operation:
    return next(
        op for op in OPERATIONS.values() if op.game.id == game_id and op.name == name and op.sealed is sealed
    )


def known_values(game_id: str) -> dict[str, Any]:
    """A value the operations of ``game_id`` accept for each argument name they use."""
    players = GAMES[game_id].min_players
    state = run(_operation(game_id, "new"), {"players": players, "seed": SEED})["state"]
    listed = run(_operation(game_id, "moves"), {"state": state})
    moves = listed["moves"]
    table = run(_operation(game_id, "new", sealed=True), {"players": players})
    sealed = run(
        _operation(game_id, "fill", sealed=True), {"token": table["token"], "host_key": table["host_key"]}
    )
    # a seat to act, so that a bot's answer is a move (every operation taking a seat accepts it)
    sealed_seat = run(
        _operation(game_id, "moves", sealed=True),
        {"token": sealed["token"], "seat": 0, "seat_key": sealed["seat_keys"][0]},
    )["to_act"][0]
    return {
        "players": players,
        "state": state,
        "move": moves[0],
        "player": listed["to_act"][0],
        "seed": SEED,
        "commitment": commitment(SEED),
        "deal_number": 1,
        "token": sealed["token"],
        "seat": sealed_seat,
        "seat_key": sealed["seat_keys"][sealed_seat],
        "since": 0,
        "level": "random",
    }


def placeholder(type_: GraphQLInputType) -> Any:
    """A value of the type for an argument no known value is kept for (the answer may be a problem: the
    test then still compares null with omission)."""
    if isinstance(type_, GraphQLNonNull):
        return placeholder(type_.of_type)
    if isinstance(type_, GraphQLList):
        return []
    if isinstance(type_, GraphQLInputObjectType):
        return {
            name: placeholder(field.type)
            for name, field in type_.fields.items()
            if isinstance(field.type, GraphQLNonNull) and field.default_value is None
        }
    return {"Int": 0, "Boolean": False, "String": ""}.get(type_.name)


def selection(type_: Any) -> str:
    """Every field of an output type, nested ones included (each member of a union)."""
    named = get_named_type(type_)
    if isinstance(named, GraphQLUnionType):
        return "{ __typename " + " ".join(f"... on {t.name} {selection(t)}" for t in named.types) + " }"
    if isinstance(named, GraphQLObjectType):
        return (
            "{ " + " ".join(f"{name} {selection(field.type)}" for name, field in named.fields.items()) + " }"
        )
    return ""


def answer(field_name: str, inline_nulls: list[str], variables: dict[str, Any]) -> Any:
    """The field's answer with ``variables`` passed as variables and ``inline_nulls`` written ``null``."""
    field = ROOT_FIELDS[field_name]
    declared = ", ".join(f"${name}: {field.args[name].type}" for name in variables)
    arguments = [f"{name}: ${name}" for name in variables] + [f"{name}: null" for name in inline_nulls]
    header = f"query({declared})" if declared else "query"
    call = f"{field_name}({', '.join(arguments)})" if arguments else field_name
    query = f"{header} {{ {call} {selection(field.type)} }}"
    result = SCHEMA.answer(query, variables, None, _ALLOWED)
    assert not result.errors, result.errors
    assert result.data is not None
    return result.data[field_name]


def kind(value: dict[str, Any]) -> tuple[Any, ...]:
    """What two answers drawn from different random seeds have in common: their type, their fields and,
    for a problem, its code."""
    return value["__typename"], sorted(value), value.get("code")


@pytest.fixture(scope="module")
def values() -> dict[str, dict[str, Any]]:
    return {game_id: known_values(game_id) for game_id in GAMES}


def test_every_operation_with_a_nullable_optional_argument_is_covered() -> None:
    # an optional argument is nullable in the SDL unless it shows a scalar default (`since: Int! = 0`)
    expected = {
        op.field_name
        for op in OPERATIONS.values()
        if any(
            not f.is_required() and not isinstance(f.default, bool | int | str)
            for f in op.request.model_fields.values()
        )
    }
    assert expected == set(FIELDS)
    assert "sjuanNew" in FIELDS
    assert {"options", "entropy", "seed", "deck", "dealer"} <= set(
        nullable_arguments(ROOT_FIELDS["sjuanNew"])
    )


@pytest.mark.parametrize("field_name", FIELDS)
def test_explicit_null_answers_what_omission_answers(
    field_name: str, values: dict[str, dict[str, Any]]
) -> None:
    field = ROOT_FIELDS[field_name]
    op = OPERATIONS[field_name]
    known = values[op.game.id]
    nullable = nullable_arguments(field)
    required: dict[str, Any] = {}
    all_known = True
    for name, argument in field.args.items():
        if name in nullable:
            continue
        if name in known:
            required[name] = known[name]
        else:
            all_known = False
            required[name] = placeholder(argument.type)
    # a seed (of the deal, of a bot) the test does not set to null is fixed, so that answers can be
    # compared exactly; a bot's answer also says how long it took, which no seed fixes
    fixed = {name: value for name, value in (("seed", SEED), ("bot_seed", BOT_SEED)) if name in nullable}

    omitted = untimed(answer(field_name, [], {**required, **fixed}))
    if all_known:
        assert omitted["__typename"] == op.response.__name__, omitted
    deterministic = untimed(answer(field_name, [], {**required, **fixed})) == omitted

    for name in nullable:
        others = {key: value for key, value in fixed.items() if key != name}
        inline = untimed(answer(field_name, [name], {**required, **others}))
        if deterministic and name not in fixed:
            assert inline == omitted, name
        else:
            assert kind(inline) == kind(omitted), name

    # a generic client: every variable declared, the unset ones sent as null
    as_variables = untimed(answer(field_name, [], {**required, **dict.fromkeys(nullable)}))
    assert kind(as_variables) == kind(omitted)
    if deterministic:
        assert untimed(answer(field_name, [], {**required, **dict.fromkeys(nullable), **fixed})) == omitted


def untimed(value: dict[str, Any]) -> dict[str, Any]:
    """An answer without the time it took (a bot's ``elapsed_ms``): what a fixed seed makes repeatable."""
    return {key: field for key, field in value.items() if key != "elapsed_ms"}


class Inner(BaseModel):
    tags: list[str] = Field(default_factory=list)
    note: str | None = None


class Plain(BaseModel):
    count: int
    note: str | None = None
    limit: int = 3


class Outer(BaseModel):
    name: str
    inner: Inner = Field(default_factory=Inner)
    inners: list[Inner] = Field(default_factory=list)
    limit: int = 3


def test_nested_nulls_are_read_as_omitted_where_the_model_refuses_them() -> None:
    cleaned = nulls_as_omitted(Outer)
    assert cleaned is not None
    values = {
        "name": "a",
        "inner": {"tags": None, "note": None},
        "inners": [{"tags": None}, None],
        "limit": 4,
    }
    assert cleaned(values) == {"name": "a", "inner": {"note": None}, "inners": [{}, None], "limit": 4}
    assert cleaned({"name": "a", "inner": None}) == {"name": "a"}
    assert nulls_as_omitted(Inner) is not None
    assert nulls_as_omitted(Plain) is None
