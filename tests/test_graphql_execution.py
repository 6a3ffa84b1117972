"""The GraphQL shortcuts answer exactly what the library paths they stand in for answer.

``ServiceSchema.answer`` does what strawberry's ``Schema.execute`` does, without its per-request
machinery. These tests compare the two on documents of every kind (answers, problems as data, variable,
validation and syntax errors, the limits, requests that are not GraphQL), so they fail if strawberry or
graphql-core changes under the shortcuts.
"""

from __future__ import annotations

import asyncio
import copy
import gc
import inspect
import random
from collections.abc import Iterator
from typing import Any

import pytest
from graphql import (
    Executor,
    GraphQLInputField,
    GraphQLInputObjectType,
    GraphQLInputType,
    GraphQLInt,
    GraphQLList,
    execute_sync,
    parse,
)
from graphql import build_schema as build_graphql_schema
from graphql.execution.execute import assume_not_async_iterable, assume_not_awaitable
from graphql.execution.values import VariableValues, get_variable_values
from graphql.language.parser import MAX_NESTING_DEPTH

from sevens_rules.api.graphql import MANY_OPERATIONS, ServiceSchema, build_schema, state_fragments
from sevens_rules.api.graphql_execution import Coercers, ServiceExecutor, executor
from sevens_rules.api.graphql_http import _ALLOWED
from sevens_rules.api.graphql_limits import DocumentOverLimitError
from sevens_rules.api.limits import Settings
from tests.seeds import seed_hex

SCHEMA = build_schema(Settings(graphql_max_tokens=2_000))
FRAGMENTS = next(
    block for block in state_fragments(SCHEMA).split("\n\n") if block.startswith("fragment SjuanStateFields ")
)

NEW = (
    "query New($seed: String!) { sjuanNew(players: 4, seed: $seed) {"
    " ... on SjuanNewResponse { state { ...SjuanStateFields } } } }\n" + FRAGMENTS
)
MOVES = (
    "query Moves($s: SjuanStateInput!, $p: Int) { sjuanMoves(state: $s, player: $p) { __typename"
    " ... on SjuanMovesResponse { to_act moves { type player card deck } }"
    " ... on SjuanProblem { code status errors { path message } } } }"
)
APPLY = (
    "query Apply($s: SjuanStateInput!, $m: SjuanMoveInput!) { sjuanApply(state: $s, move: $m) { __typename"
    " ... on SjuanApplyResponse { state { ...SjuanStateFields } events { type player card chips } }"
    " ... on SjuanProblem { code legal_moves { type player card } } } }\n" + FRAGMENTS
)


def outcome(run: Any) -> tuple[Any, ...]:
    """What a request gave: its data and formatted errors, or the exception it raised."""
    try:
        result = run()
    except Exception as error:  # the exception is the outcome being compared
        return ("raised", type(error), str(error))
    errors = [error.formatted for error in result.errors or ()]
    return ("answered", result.data, errors, result.extensions or None)


def answered(schema: ServiceSchema, query: str, variables: Any = None, name: str | None = None) -> Any:
    return outcome(lambda: schema.answer(query, variables, name, _ALLOWED))


def executed(schema: ServiceSchema, query: str, variables: Any = None, name: str | None = None) -> Any:
    return outcome(
        lambda: asyncio.run(
            schema.execute(query, variables, operation_name=name, allowed_operation_types=_ALLOWED)
        )
    )


def sjuan_state() -> dict[str, Any]:
    result = SCHEMA.answer(NEW, {"seed": seed_hex(5)}, None, _ALLOWED)
    assert result.data is not None, result.errors
    state: dict[str, Any] = result.data["sjuanNew"]["state"]
    return state


STATE = sjuan_state()
BROKEN = {**copy.deepcopy(STATE), "turn": "three", "hands": [["2C", 3]]}
INCONSISTENT = {**copy.deepcopy(STATE), "table": ["7H", "7H"]}

CASES: list[tuple[str, str, Any, str | None]] = [
    ("moves", MOVES, {"s": STATE}, None),
    ("moves of a seat", MOVES, {"s": STATE, "p": 1}, None),
    ("apply", APPLY, {"s": STATE, "m": {"type": "pass", "player": STATE["turn"]}}, None),
    ("illegal move", APPLY, {"s": STATE, "m": {"type": "play", "player": STATE["turn"], "card": "AS"}}, None),
    ("inconsistent state", MOVES, {"s": INCONSISTENT}, None),
    ("variable of the wrong type", MOVES, {"s": BROKEN}, None),
    ("unknown field in a variable", MOVES, {"s": {**STATE, "extra": 1}}, None),
    ("missing variable", MOVES, {}, None),
    ("no variables", MOVES, None, None),
    ("null variable", MOVES, {"s": None}, None),
    ("list for an object", MOVES, {"s": [STATE]}, None),
    ("value for a list", MOVES, {"s": {**STATE, "table": "7H"}}, None),
    ("int out of range", MOVES, {"s": STATE, "p": 2**31}, None),
    ("float for an int", MOVES, {"s": {**STATE, "dealer": 1.0}}, None),
    ("deep variable", MOVES, {"s": {**STATE, "hands": [[[[[["2C"]]]]]]}}, None),
    ("games", "{ games { id name min_players max_players } }", None, None),
    ("typename", "{ __typename }", None, None),
    ("introspection", '{ __type(name: "SjuanMove") { name fields { name } } }', None, None),
    ("syntax error", "{ games { id }", None, None),
    ("unknown field", "{ games { nope } }", None, None),
    ("repeated field", "{ games { " + " ".join(["id"] * 9) + " } }", None, None),
    ("named operation", "query A { games { id } } query B { __typename }", None, "B"),
    ("unknown operation", "query A { games { id } }", None, "C"),
    ("anonymous and named", "{ games { id } } query B { __typename }", None, None),
    ("mutation", "mutation { games { id } }", None, None),
    ("subscription", "subscription { games { id } }", None, None),
    ("empty query", "", None, None),
    ("skip directive", "query($no: Boolean!) { games @skip(if: $no) { id } }", {"no": True}, None),
]


@pytest.mark.parametrize(("query", "variables", "name"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_answer_is_what_strawberry_execute_answers(query: str, variables: Any, name: str | None) -> None:
    assert answered(SCHEMA, query, variables, name) == executed(SCHEMA, query, variables, name)
    # and again, from the document caches
    assert answered(SCHEMA, query, variables, name) == executed(SCHEMA, query, variables, name)


def test_several_operations_without_a_name_are_refused_where_strawberry_runs_the_first() -> None:
    # the one answer that differs from strawberry's, by the GraphQL spec (GetOperation)
    query = "query A { games { id } } query B { __typename }"
    assert executed(SCHEMA, query, None, None)[1] is not None
    assert answered(SCHEMA, query, None, None)[1:] == (None, [{"message": MANY_OPERATIONS}], None)


EXECUTED_CASES = [c for c in CASES if c[0] in ("moves", "moves of a seat", "apply", "illegal move", "games")]
"""Documents that run an operation, answers and problems as data: what the service executes most."""


@pytest.mark.parametrize(
    ("query", "variables", "name"), [c[1:] for c in EXECUTED_CASES], ids=[c[0] for c in EXECUTED_CASES]
)
def test_an_executed_document_leaves_nothing_for_the_garbage_collector(
    query: str, variables: Any, name: str | None
) -> None:
    # graphql-core's executor refers to itself; the service drops that reference once the execution is
    # over, so what a request made is freed by reference counting, not left to the collector (documents
    # that graphql-core refuses still leave its validation's and its errors' cycles)
    answered(SCHEMA, query, variables, name)  # the document caches filled
    gc.collect()
    gc.disable()
    try:
        for _ in range(5):
            answered(SCHEMA, query, variables, name)
        left_for_the_collector = gc.collect()
    finally:
        gc.enable()
    assert left_for_the_collector == 0


LIMIT_CASES: list[tuple[str, str, str]] = [
    ("token limit", "{ games { " + " ".join(["id"] * 2_100) + " } }", "RULES_GRAPHQL_MAX_TOKENS"),
    ("depth limit", "{ games " + "{ options " * 12 + "{ name }" + " }" * 13, "RULES_GRAPHQL_MAX_DEPTH"),
    (
        "alias limit",
        "{ " + " ".join(f"a{i}: games {{ id }}" for i in range(16)) + " }",
        "RULES_GRAPHQL_MAX_ALIASES",
    ),
    (
        "two operation fields",
        "query($s: SjuanStateInput!) { a: sjuanMoves(state: $s) { __typename } "
        "b: sjuanScore(state: $s) { __typename } }",
        "at most one operation field",
    ),
    (
        "introspection twice",
        '{ a: __schema { types { name } } b: __type(name: "Query") { name } }',
        "at most one",
    ),
    ("directives", "{ games " + "@skip(if: false) " * 21 + "{ id } }", "RULES_GRAPHQL_MAX_DIRECTIVES"),
]


@pytest.mark.parametrize(("query", "named"), [c[1:] for c in LIMIT_CASES], ids=[c[0] for c in LIMIT_CASES])
def test_a_document_over_a_limit_is_refused_on_both_paths(query: str, named: str) -> None:
    """The service's answer raises the limit's error (answered as a 400 problem); strawberry's own
    execute, through the same document checks, answers it as a GraphQL error with the same message."""
    with pytest.raises(DocumentOverLimitError) as refused:
        SCHEMA.answer(query, None, None, _ALLOWED)
    assert named in refused.value.detail
    stock = executed(SCHEMA, query)
    assert stock[0] == "answered" and stock[1] is None
    assert [error["message"] for error in stock[2]] == [refused.value.detail]


def test_every_resolver_is_synchronous() -> None:
    """``answer`` runs graphql-core's synchronous execution, which takes every resolved value as final."""
    for graphql_type in SCHEMA._schema.type_map.values():
        for name, field in getattr(graphql_type, "fields", {}).items():
            resolve = getattr(field, "resolve", None)
            assert not inspect.iscoroutinefunction(resolve), f"{graphql_type}.{name} is asynchronous"


def game_states() -> list[tuple[str, dict[str, Any]]]:
    """A state of every game (its GraphQL state input type and the state), a few moves in."""
    games = SCHEMA.answer("{ games { id min_players } }", None, None, _ALLOWED).data
    assert games is not None
    blocks = state_fragments(SCHEMA).split("\n\n")
    found = []
    for game in games["games"]:
        prefix = "".join(part.capitalize() for part in game["id"].split("-"))
        field = prefix[0].lower() + prefix[1:]
        fragment = next(block for block in blocks if block.startswith(f"fragment {prefix}StateFields "))
        new = (
            f'{{ {field}New(players: {game["min_players"]}, seed: "{seed_hex(3)}") {{'
            f" ... on {prefix}NewResponse {{ state {{ ...{prefix}StateFields }} }} }} }}\n{fragment}"
        )
        result = SCHEMA.answer(new, None, None, _ALLOWED)
        assert result.data is not None, result.errors
        found.append((f"{prefix}StateInput", result.data[f"{field}New"]["state"]))
    return found


REPLACEMENTS: list[Any] = [
    None,
    "x",
    "",
    0,
    -1,
    1.0,
    1.5,
    True,
    [],
    {},
    2**31,
    -(2**31) - 1,
    [[]],
    {"a": 1},
    "play",
]


def mutated(value: Any, rng: random.Random) -> Any:
    """``value`` with one random change: a member removed, added, replaced, wrapped in a list or unwrapped."""
    value = copy.deepcopy(value)
    paths: list[tuple[Any, Any]] = []

    def walk(parent: Any) -> None:
        for key in list(parent) if isinstance(parent, dict) else range(len(parent)):
            paths.append((parent, key))
            if isinstance(parent[key], dict | list):
                walk(parent[key])

    walk(value)
    parent, key = rng.choice(paths)
    change = rng.randrange(5)
    if change == 0 and isinstance(parent, dict):
        del parent[key]
    elif change == 1 and isinstance(parent, dict):
        parent["unknown"] = 1
    elif change == 2:
        parent[key] = [parent[key]]
    elif change == 3 and isinstance(parent[key], list) and len(parent[key]) == 1:
        parent[key] = parent[key][0]
    else:
        parent[key] = rng.choice(REPLACEMENTS)
    return value


@pytest.mark.parametrize(("type_name", "state"), game_states(), ids=lambda x: x if isinstance(x, str) else "")
def test_coercers_coerce_variables_as_graphql_core_does(type_name: str, state: dict[str, Any]) -> None:
    """Where the coercers take a value, graphql-core coerces it to the same (and they take real states)."""
    query = f"query($s: {type_name}!, $p: Int, $q: [Int]) {{ __typename }}"
    document = parse(query)
    prepared = SCHEMA.documents.coercers.prepare(document, None)
    assert prepared is not None
    rng = random.Random(type_name)
    cases: list[dict[str, Any]] = [{"s": state}, {"s": state, "p": 2, "q": 3}, {"s": state, "q": [1, None]}]
    cases += [{"s": mutated(state, rng)} for _ in range(300)]
    definitions = prepared.operation.variable_definitions or ()
    taken = 0
    for variables in cases:
        expected = get_variable_values(SCHEMA._schema, definitions, variables)
        values = prepared.variable_values(variables)
        if values is not None:
            taken += 1
            assert isinstance(expected, VariableValues), (variables, expected)
            assert values.coerced == expected.coerced, variables
            assert sources(values) == sources(expected), variables
    assert taken > 3


def sources(values: VariableValues) -> dict[str, Any]:
    """The sources of coerced variables, their types by name (a parsed type is a new object each time)."""
    return {
        name: (source.signature.name, str(source.signature.type), source.signature.default, source.value)
        for name, source in values.sources.items()
    }


def test_coercers_leave_nested_and_recursive_types_to_graphql_core() -> None:
    deep: GraphQLInputType = GraphQLInt
    for _ in range(MAX_NESTING_DEPTH + 1):
        deep = GraphQLList(deep)
    recursive = GraphQLInputObjectType("Node", lambda: {"next": GraphQLInputField(recursive)})
    coercers = Coercers(SCHEMA._schema)
    assert coercers.coercer(deep) is None and coercers.coercer(recursive) is None
    assert coercers.coercer(GraphQLList(GraphQLList(GraphQLInt))) is not None


def test_executor_is_the_one_graphql_core_builds() -> None:
    """The executor made without ``Executor.build`` is the one it builds (per-execution state aside)."""
    document = parse(APPLY)
    variables = {"s": STATE, "m": {"type": "pass", "player": STATE["turn"]}}
    prepared = SCHEMA.documents.coercers.prepare(document, "Apply")
    ours = executor(SCHEMA._schema, document, prepared, "Apply", variables)
    built = ServiceExecutor.build(
        SCHEMA._schema,
        document,
        raw_variable_values=variables,
        operation_name="Apply",
        is_awaitable=assume_not_awaitable,
        is_async_iterable=assume_not_async_iterable,
    )
    assert isinstance(ours, ServiceExecutor) and isinstance(built, ServiceExecutor)
    assert ours.fragments and set(vars(ours)) == set(vars(built))
    per_execution = {"async_helpers", "collected_errors", "_stream_usages", "variable_values"}
    for name, value in vars(built).items():
        if name not in per_execution:
            assert getattr(ours, name) == value, name
    assert ours.variable_values.coerced == built.variable_values.coerced
    assert sources(ours.variable_values) == sources(built.variable_values)


LEAVES_SDL = """
enum Suit { hearts spades }
scalar Anything
type Query {
  anything: Anything  anythings: [Anything!]!
  name: String!  maybe: String  count: Int!  counts: [Int!]!  maybe_counts: [Int]  suits: [Suit!]!
  suit: Suit  nested: [[String!]!]!  nested_maybe: [[String]]  flag: Boolean  ratio: Float  id: ID
}
"""
ODD_VALUES: list[Any] = [
    None,
    "a",
    "",
    "hearts",
    "clubs",
    0,
    1,
    -(2**31),
    2**31,
    1.0,
    1.5,
    float("nan"),
    True,
    False,
    b"x",
    ValueError("broken"),
    object(),
    ["a"],
    [1, None],
    [None],
    [[1]],
    ("a",),
    {"a": 1},
    iter(["a"]),
]
LEAF_VALUES = [
    *ODD_VALUES,
    *([value] for value in ODD_VALUES),
    *([[value]] for value in ODD_VALUES),
    *([1, value] for value in ODD_VALUES),
    *([["a"], value] for value in ODD_VALUES),
]


LEAVES_SCHEMA = build_graphql_schema(LEAVES_SDL)


@pytest.mark.parametrize("field", list(LEAVES_SCHEMA.type_map["Query"].fields))  # type: ignore[attr-defined]
def test_leaves_complete_as_graphql_core_completes_them(field: str) -> None:
    """Leaf values and lists of them, good and bad, complete to graphql-core's data and errors."""
    document = parse(f"{{ {field} }}")

    def completed(value: Any, executor_class: type[Executor[Any]] | None) -> Any:
        result = execute_sync(LEAVES_SCHEMA, document, {field: value}, executor_class=executor_class)
        return result.data, [error.formatted for error in result.errors or ()]

    for value in LEAF_VALUES:
        if isinstance(value, Iterator) or (
            isinstance(value, list) and any(isinstance(item, Iterator) for item in value)
        ):
            continue  # an iterator is used up by the first completion
        assert completed(value, ServiceExecutor) == completed(value, None), (field, value)


def test_the_schema_has_no_stream_directive() -> None:
    """``@stream`` would change how lists complete; ``ServiceExecutor`` completes them without it."""
    assert SCHEMA._schema.get_directive("stream") is None
