"""GraphQL documents for the playthrough steps, derived from the schema the service serves.

The variable types (``SevensStateInput!``, a game's move input) and the selection of the whole answer are
read from the served schema by introspection, never written here, so a renamed input type or a new field
is followed without a change to the runner.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from graphql import (
    GraphQLNamedType,
    GraphQLObjectType,
    GraphQLSchema,
    GraphQLUnionType,
    build_client_schema,
    get_introspection_query,
    get_named_type,
)

from .transport import Transport

GRAPHQL_PATH = "/graphql"


def root_field(game: str, op: str) -> str:
    """The root field of an operation: ``fan-tan`` and ``moves`` -> ``fanTanMoves``."""
    first, *rest = game.split("-")
    return first + "".join(part.capitalize() for part in rest) + op.capitalize()


def served_schema(transport: Transport) -> GraphQLSchema:
    """The service's GraphQL schema, by introspection."""
    status, answer = transport.post(GRAPHQL_PATH, {"query": get_introspection_query(descriptions=False)})
    if status != 200 or "data" not in answer:
        raise RuntimeError(f"GraphQL introspection answered {status}: {str(answer)[:300]}")
    return build_client_schema(answer["data"])


def _selection(named: GraphQLNamedType, aliases: dict[str, str], prefix: str) -> str:
    """Every field of ``named``; a union's members are selected in inline fragments, and a field name
    that two members type differently under an alias per member (``Member__field``), as GraphQL demands
    (the service allows few aliases, so only those)."""
    if isinstance(named, GraphQLUnionType):
        types: dict[str, set[str]] = {}
        for member in named.types:
            for name, field in member.fields.items():
                types.setdefault(name, set()).add(str(field.type))
        clashing = {name for name, spelled in types.items() if len(spelled) > 1}
        parts = ["__typename"]
        for member in named.types:
            fields = _object_selection(member, aliases, member.name + "__", clashing)
            parts.append(f"... on {member.name} {fields}")
        return "{ " + " ".join(parts) + " }"
    assert isinstance(named, GraphQLObjectType)
    return _object_selection(named, aliases, prefix, frozenset())


def _object_selection(
    object_type: GraphQLObjectType, aliases: dict[str, str], prefix: str, clashing: Collection[str]
) -> str:
    parts = []
    for name, field in object_type.fields.items():
        inner = get_named_type(field.type)
        selected = name
        if name in clashing:
            selected = f"{prefix}{name}: {name}"
            aliases[f"{prefix}{name}"] = name
        if isinstance(inner, GraphQLObjectType | GraphQLUnionType):
            selected += " " + _selection(inner, aliases, "")
        parts.append(selected)
    return "{ " + " ".join(parts) + " }"


class Documents:
    """One query document per root field and set of arguments sent, built once."""

    def __init__(self, schema: GraphQLSchema) -> None:
        self.schema = schema
        self.built: dict[tuple[str, tuple[str, ...]], tuple[str, dict[str, str]]] = {}

    def document(self, field_name: str, arguments: tuple[str, ...]) -> tuple[str, dict[str, str]]:
        """The document that calls ``field_name`` with ``arguments`` as variables, and the aliases to
        undo in its answer."""
        key = (field_name, arguments)
        if key not in self.built:
            query_type = self.schema.query_type
            assert query_type is not None
            field = query_type.fields.get(field_name)
            if field is None:
                raise KeyError(f"the GraphQL schema has no root field {field_name}")
            unknown = [a for a in arguments if a not in field.args]
            if unknown:
                raise KeyError(f"{field_name} takes no argument {', '.join(unknown)}")
            variables = ", ".join(f"${a}: {field.args[a].type}" for a in arguments)
            passed = ", ".join(f"{a}: ${a}" for a in arguments)
            aliases: dict[str, str] = {}
            selection = _selection(get_named_type(field.type), aliases, "")
            call = f"{field_name}({passed})" if arguments else field_name
            header = f"query Step({variables})" if arguments else "query Step"
            self.built[key] = (f"{header} {{ {call} {selection} }}", aliases)
        return self.built[key]


def unaliased(value: Any, aliases: dict[str, str]) -> Any:
    """A GraphQL answer as the REST answer spells it: aliases undone, ``__typename`` left out."""
    if isinstance(value, dict):
        return {aliases.get(k, k): unaliased(v, aliases) for k, v in value.items() if k != "__typename"}
    if isinstance(value, list):
        return [unaliased(v, aliases) for v in value]
    return value
