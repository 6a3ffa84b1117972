"""The GraphQL schema, generated from the same pydantic models and operation list as REST.

Each pydantic wire model becomes a GraphQL object type (for output) and an input type (``...Input``)
with the same field names (no camel-casing), so a state returned by REST is accepted unchanged as a
GraphQL variable and the other way round. Each operation becomes one root field (``sjuanMoves``) whose
arguments are the request model's fields and whose result is a union of the response and the game's
problem type: errors come back as data. GraphQL inputs are validated by the very pydantic model REST
uses, so both surfaces accept exactly the same requests; an explicit ``null`` for a nullable argument is
read as the argument left out (:func:`nulls_as_omitted`).
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Callable, Collection, Iterator
from enum import Enum
from types import CoroutineType
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import anyio.from_thread
import orjson
import strawberry
from graphql import (
    GraphQLError,
    GraphQLObjectType,
    OperationDefinitionNode,
    get_named_type,
)
from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined
from strawberry.exceptions import MissingQueryError
from strawberry.extensions import SchemaExtension
from strawberry.scalars import JSON
from strawberry.schema.config import StrawberryConfig
from strawberry.schema.exceptions import CannotGetOperationTypeError, InvalidOperationTypeError
from strawberry.types import ExecutionResult
from strawberry.types.base import StrawberryObjectDefinition
from strawberry.types.graphql import OperationType
from strawberry.types.unset import UNSET

from ..engine.registry import GAMES
from ..schema.common import GameInfo
from ..schema.operations import contract_names
from .context import current_request
from .graphql_documents import Documents
from .graphql_execution import ServiceExecutor, execute
from .graphql_limits import (
    DocumentOverLimitError,
)
from .library_internals import (
    core_schema,
    get_first_operation,
    get_operation_type,
    report_errors,
)
from .limits import Settings
from .match_store import MatchStore
from .operations import Operation, all_operations, games_response
from .problems import internal_problem, runner
from .sealing import Keyring

Names = dict[type[Any], str]
"""The names one game's contract gives models it may share (:func:`contract_names`); empty elsewhere."""


class _TypeBuilder:
    """Derives strawberry output and input types from pydantic models, each exactly once per name (a
    model shared by several games is one type per game where the contract names it after the game)."""

    def __init__(self) -> None:
        self.outputs: dict[tuple[type[BaseModel], str], type] = {}
        self.inputs: dict[tuple[type[BaseModel], str], type] = {}
        self.enums: set[type[Enum]] = set()

    def annotation(self, annotation: Any, as_input: bool, names: Names) -> Any:
        origin = get_origin(annotation)
        if origin is Annotated:
            return self.annotation(get_args(annotation)[0], as_input, names)
        if origin in (Union, types.UnionType):
            args = [a for a in get_args(annotation) if a is not type(None)]
            if not as_input and len(args) > 1 and all(a in (bool, int, str) for a in args):
                # a value of several scalar types (an option's default): GraphQL has no scalar unions
                return JSON | None
            if len(args) != 1:
                raise TypeError(f"GraphQL cannot map the union {annotation!r}")
            return self.annotation(args[0], as_input, names) | None
        if origin is list:
            return list[self.annotation(get_args(annotation)[0], as_input, names)]  # type: ignore[misc]
        if origin is Literal:
            return type(get_args(annotation)[0])
        if annotation in (bool, int, str, float):  # float: a bot's elapsed milliseconds
            return annotation
        if isinstance(annotation, type) and issubclass(annotation, Enum):
            if annotation not in self.enums:
                strawberry.enum(annotation, description=annotation.__doc__)
                self.enums.add(annotation)
            return annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            return self.input_type(annotation, names) if as_input else self.output_type(annotation, names)
        raise TypeError(f"GraphQL cannot map {annotation!r}")

    def output_type(self, model: type[BaseModel], names: Names) -> type:
        type_name = names.get(model, model.__name__)
        if (model, type_name) in self.outputs:
            return self.outputs[model, type_name]
        namespace: dict[str, Any] = {"__annotations__": {}}
        cls = type(type_name, (), namespace)
        self.outputs[model, type_name] = cls  # before the fields: models may refer to each other
        for name, field in model.model_fields.items():
            namespace["__annotations__"][name] = self.annotation(field.annotation, False, names)
            setattr(cls, name, strawberry.field(description=field.description))
        cls.__annotations__ = namespace["__annotations__"]

        def is_type_of(obj: Any, info: Any) -> bool:
            return isinstance(obj, model)

        cls.is_type_of = staticmethod(is_type_of)  # type: ignore[attr-defined]
        strawberry.type(cls, name=type_name, description=_doc(model))
        return cls

    def input_type(self, model: type[BaseModel], names: Names) -> type:
        type_name = names.get(model, model.__name__) + "Input"
        if (model, type_name) in self.inputs:
            return self.inputs[model, type_name]
        annotations: dict[str, Any] = {}
        namespace: dict[str, Any] = {"__annotations__": annotations}
        for name, field in model.model_fields.items():
            hint = self.annotation(field.annotation, True, names)
            default: Any = UNSET
            if (
                not field.is_required()
                and field.default is not PydanticUndefined
                and (field.default is None or isinstance(field.default, bool | int | str))
            ):
                default = field.default
            if not field.is_required() and default is UNSET:
                hint = hint | None
            annotations[name] = hint
            namespace[name] = (
                strawberry.field(description=field.description)
                if field.is_required()
                else strawberry.field(description=field.description, default=default)
            )
        cls = type(type_name, (), namespace)
        strawberry.input(cls, name=type_name, description=_doc(model))
        self.inputs[model, type_name] = cls
        return cls


def _doc(model: type[BaseModel]) -> str | None:
    return inspect.cleandoc(model.__doc__) if model.__doc__ else None


def to_plain(value: Any) -> Any:
    """A strawberry input value as plain JSON data (unset fields left out, enums as their values)."""
    if isinstance(value, list):
        return [to_plain(v) for v in value]
    if isinstance(value, Enum):
        return value.value
    definition = getattr(value, "__strawberry_definition__", None)
    if isinstance(definition, StrawberryObjectDefinition):
        return {
            f.python_name: to_plain(getattr(value, f.python_name))
            for f in definition.fields
            if getattr(value, f.python_name) is not UNSET
        }
    return value


NullsAsOmitted = Callable[[dict[str, Any]], dict[str, Any]]
"""Takes a request's (or a nested input object's) coerced values, gives them with every explicit null
of a field that has a default but refuses null left out (the values themselves when there is none)."""


def _accepts_none(annotation: Any) -> bool:
    origin = get_origin(annotation)
    if origin is Annotated:
        return _accepts_none(get_args(annotation)[0])
    if origin in (Union, types.UnionType):
        return any(a is type(None) or _accepts_none(a) for a in get_args(annotation))
    return annotation is type(None) or annotation is Any


def _non_null_default(field: FieldInfo) -> bool:
    """Whether the SDL shows an optional field with its scalar default, non-null (``since: Int! = 0``);
    otherwise it is nullable there."""
    return field.default is not PydanticUndefined and isinstance(field.default, bool | int | str)


def _nested_models(annotation: Any) -> tuple[type[BaseModel], bool] | None:
    """The model inside a field's annotation and whether it is a list of them, or None."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _nested_models(get_args(annotation)[0])
    if origin in (Union, types.UnionType):
        inner = [found for a in get_args(annotation) if (found := _nested_models(a)) is not None]
        return inner[0] if len(inner) == 1 else None
    if origin is list:
        found = _nested_models(get_args(annotation)[0])
        return (found[0], True) if found is not None and not found[1] else None
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation, False
    return None


def nulls_as_omitted(
    model: type[BaseModel], memo: dict[type[BaseModel], NullsAsOmitted | None] | None = None
) -> NullsAsOmitted | None:
    """How the GraphQL arguments of ``model`` read an explicit ``null``, or None when they need nothing.

    The SDL makes an optional field nullable (``entropy: [String!]``, ``options: SjuanOptionsInput``),
    and generic clients send ``null`` for every variable left unset; the model gives such a field a
    default instead and refuses ``None`` (REST's schema does not make it nullable). So a null there
    means what leaving the field out means: the default. A field whose model accepts ``None`` keeps it.
    Derived from the models, nested input objects included, so a new operation gets it too.
    """
    memo = {} if memo is None else memo
    if model in memo:
        return memo[model]
    memo[model] = None  # a model that refers to itself: the inner reference is not searched again
    dropped: list[str] = []
    nested: list[tuple[str, NullsAsOmitted, bool]] = []
    for name, field in model.model_fields.items():
        if not field.is_required() and not _accepts_none(field.annotation) and not _non_null_default(field):
            dropped.append(name)
        found = _nested_models(field.annotation)
        if found is not None:
            inner = nulls_as_omitted(found[0], memo)
            if inner is not None:
                nested.append((name, inner, found[1]))
    if not dropped and not nested:
        return None

    def cleaned(values: dict[str, Any]) -> dict[str, Any]:
        if any(values.get(name, values) is None for name in dropped):
            values = {
                name: value for name, value in values.items() if value is not None or name not in dropped
            }
        for name, inner, is_list in nested:
            value = values.get(name)
            if isinstance(value, dict):
                values = {**values, name: inner(value)}
            elif is_list and isinstance(value, list):
                values = {**values, name: [inner(v) if isinstance(v, dict) else v for v in value]}
        return values

    memo[model] = cleaned
    return cleaned


MANY_OPERATIONS = "Must provide operation name if query contains multiple operations."
"""graphql-core's message for a document of several operations sent without ``operationName``."""


def _executor(op: Operation) -> Callable[[dict[str, Any]], Any]:
    """Run one operation on plain JSON-like arguments: the response, or the game's problem as data."""
    answer = runner(op, op.field_name)
    field_name = op.field_name
    cleaned = nulls_as_omitted(op.request)

    def execute(arguments: dict[str, Any]) -> Any:
        request = current_request.get()
        if request is not None:  # the access log and metrics name the operation by its root field
            request.ran_field(field_name)
        try:
            if cleaned is not None:
                arguments = cleaned(arguments)
            # the REST runner, on the same bytes REST would see: both surfaces accept the same requests
            body = orjson.dumps(arguments)
        except Exception:  # a bug, as the runner answers one: logged, and an `internal` problem as data
            return internal_problem(field_name, op.problem)
        result = answer(body)
        if type(result) is CoroutineType:
            # a sealed operation asking the match store: execution is synchronous and runs in a worker
            # thread for documents that select a sealed field (GraphQLEndpoint), so the store's coroutine
            # runs on the event loop, which waits for nothing meanwhile
            return anyio.from_thread.run(_awaited, result)
        return result

    return execute


async def _awaited(pending: Any) -> Any:
    return await pending


def _resolver(op: Operation, builder: _TypeBuilder) -> Any:
    """The root field resolver of one operation, with the request model's fields as arguments."""
    execute = _executor(op)

    def resolve(**arguments: Any) -> Any:
        return execute({name: to_plain(value) for name, value in arguments.items() if value is not UNSET})

    parameters = []
    annotations: dict[str, Any] = {}
    names = contract_names(op.game.id, op.game.models)
    for name, field in op.request.model_fields.items():
        hint = builder.annotation(field.annotation, True, names)
        default: Any = inspect.Parameter.empty
        if not field.is_required():
            default = UNSET
            if field.default is not PydanticUndefined and isinstance(field.default, bool | int | str):
                default = field.default
            elif field.default is None:
                default = None
            hint = hint | None if default is UNSET or default is None else hint
        annotations[name] = hint
        parameters.append(
            inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=hint)
        )
    result_name = f"{op.field_name[0].upper()}{op.field_name[1:]}Result"
    members = (builder.output_type(op.response, names), builder.output_type(op.problem, names))
    result = Annotated[Union[members], strawberry.union(result_name)]  # type: ignore[valid-type]  # noqa: UP007
    annotations["return"] = result
    resolve.__signature__ = inspect.Signature(parameters, return_annotation=result)  # type: ignore[attr-defined]
    resolve.__annotations__ = annotations
    resolve.__name__ = op.field_name
    return resolve


class Limits(SchemaExtension):
    """Strawberry's own entry points (``execute``, ``execute_sync``) parse and validate through the
    schema's :class:`Documents`, so they apply the same limits as :meth:`ServiceSchema.answer`."""

    def on_parse(self) -> Iterator[None]:
        """Parse through the cache, with the token limit."""
        context = self.execution_context
        assert context.query is not None  # strawberry refuses a request without one before parsing
        context.graphql_document = _documents(context.schema).parse(context.query)
        yield

    def on_validate(self) -> Iterator[None]:
        """Validate through the cache, with the service's rules."""
        context = self.execution_context
        assert context.query is not None  # parsing refused a request without one
        context.pre_execution_errors = _documents(context.schema).validation_errors(context.query)
        yield


def _documents(schema: Any) -> Documents:
    assert isinstance(schema, ServiceSchema)
    return schema.documents


class ServiceSchema(strawberry.Schema):
    """The GraphQL schema of the service, answering requests through :meth:`answer`.

    Client errors (bad queries, bad variables) are not logged as server tracebacks.
    """

    def __init__(self, query: type, settings: Settings) -> None:
        super().__init__(
            query=query,
            config=StrawberryConfig(auto_camel_case=False),
            extensions=[Limits],
            execution_context_class=ServiceExecutor,
        )
        self.documents = Documents(core_schema(self), settings)

    def answer(
        self,
        query: str,
        variables: dict[str, Any] | None,
        operation_name: str | None,
        allowed_operation_types: Collection[OperationType],
        max_values: int | None = None,
    ) -> ExecutionResult:
        """The answer strawberry's ``execute`` gives (with the :class:`Limits` extension), in the same steps
        but without its per-request machinery: an execution context, four extension context managers
        with their exit stacks and hook generators, a middleware manager and an awaitability check of
        every resolved value (bench/README.md, "Costs behind the GraphQL fast paths"), and the schema
        needs none of it: its only extension is the limits, and every resolver is synchronous.
        Execution itself is graphql-core's, set up by :func:`execute` (variables by compiled coercers).

        Raises what ``execute`` raises for a request that is not GraphQL: :class:`MissingQueryError`,
        :class:`CannotGetOperationTypeError` and :class:`InvalidOperationTypeError`; and
        :class:`DocumentOverLimitError` for a document over a limit (``max_values``: the values the
        answer may complete, by default ``RULES_GRAPHQL_MAX_VALUES``).
        """
        if not query:
            raise MissingQueryError
        try:
            document = self.documents.parse(query)
        except DocumentOverLimitError:
            raise
        except Exception as error:  # a syntax error
            return self._refused(error)
        unnamed = operation_name is None
        if unnamed:
            first = get_first_operation(document)
            operation_name = first.name.value if first and first.name else None
        try:
            operation_type = get_operation_type(document, operation_name)
        except RuntimeError as error:
            raise CannotGetOperationTypeError(operation_name) from error
        if operation_type not in allowed_operation_types:
            raise InvalidOperationTypeError(operation_type)
        errors = self.documents.validation_errors(query)
        if errors:
            report_errors(self, errors)
            return ExecutionResult(data=None, errors=errors)
        if unnamed and sum(isinstance(d, OperationDefinitionNode) for d in document.definitions) > 1:
            # (strawberry runs the first: the GraphQL spec's GetOperation refuses the request)
            return self._refused(GraphQLError(MANY_OPERATIONS))
        prepared = self.documents.prepared(query, operation_name)
        max_values = self.documents.limits.max_values if max_values is None else max_values
        try:
            result = execute(core_schema(self), document, prepared, operation_name, variables, max_values)
        except DocumentOverLimitError:
            raise
        except Exception as error:  # as strawberry does: an error of the whole request, not a 500
            return self._refused(error)
        if result.errors:
            report_errors(self, result.errors)
        return ExecutionResult(data=result.data, errors=result.errors)

    def _refused(self, error: Exception) -> ExecutionResult:
        if not isinstance(error, GraphQLError):
            error = GraphQLError(str(error), original_error=error)
        errors = [error]
        report_errors(self, errors)
        return ExecutionResult(data=None, errors=errors)

    def process_errors(self, errors: list[GraphQLError], execution_context: Any = None) -> None:
        """Record the request's problem code instead of logging: every error here is the client's, since
        resolvers never raise (failures come back as problem data)."""
        request = current_request.get()
        if request is not None:
            request.problem_built("graphql/error")


def build_schema(
    settings: Settings | None = None, keyring: Keyring | None = None, store: MatchStore | None = None
) -> ServiceSchema:
    """The GraphQL schema: a ``games`` field and one field per game and operation, all on ``Query``.

    Every operation is a pure function of its arguments (nothing is stored), so all are queries.
    """
    settings = settings or Settings()
    builder = _TypeBuilder()
    # the list itself, not REST's {"games": [...]} wrapper: a client selects `games { id options { ... } }`
    game_type = builder.output_type(GameInfo, {})

    def games() -> Any:
        request = current_request.get()
        if request is not None:
            request.ran_field("games")
        return games_response().games

    games.__annotations__ = {"return": list[game_type]}  # type: ignore[valid-type]
    namespace: dict[str, Any] = {
        "games": strawberry.field(resolver=games, description="Every game the service knows."),
    }
    for op in all_operations(keyring, store):
        namespace[op.field_name] = strawberry.field(
            resolver=_resolver(op, builder), name=op.field_name, description=op.summary + "."
        )
    query = strawberry.type(type("Query", (), namespace), description="Every operation (all are pure).")
    schema = ServiceSchema(query, settings)
    _resolve_from_coerced_arguments(schema, keyring, store)
    return schema


def _resolve_from_coerced_arguments(
    schema: strawberry.Schema, keyring: Keyring | None, store: MatchStore | None
) -> None:
    """Point each operation field straight at its executor.

    graphql-core has already coerced and type-checked the arguments into plain dicts and lists; strawberry
    would then build an input object per nested value, only for :func:`to_plain` to turn them back into the
    same dicts, a round trip of every request (bench/README.md, "Costs behind the GraphQL fast paths"), so the
    fields take graphql-core's values as they are (the typed schema and its validation are unchanged).
    """
    fields = core_schema(schema).query_type.fields  # type: ignore[union-attr]
    for op in all_operations(keyring, store):
        execute = _executor(op)

        def resolve(_root: Any, _info: Any, _execute: Any = execute, **arguments: Any) -> Any:
            return _execute(arguments)

        fields[op.field_name].resolve = resolve


def state_fragments(schema: strawberry.Schema) -> str:
    """One fragment per game selecting every field of its state, nested ones included.

    A client spreads it (``state { ...SjuanStateFields }``) to get a state it can send straight back as the
    ``state`` argument of the next operation. Generated from the schema, so it never misses a field.
    """
    return "\n".join(_fragments(schema, "state"))


def contract_fragments(schema: strawberry.Schema) -> str:
    """``openapi/fragments.graphql``: per game, a fragment of its whole state and one of its whole move
    (``moves { ...SjuanMoveFields }`` gives moves to send back as the ``move`` argument)."""
    header = (
        "# Generated by `python -m sevens_rules.api.export`; do not edit.\n"
        "# Per game, a fragment selecting its whole state and one selecting its whole move, so that a\n"
        "# client sends a state or a listed move back with one spread, e.g.\n"
        "# `... on SjuanApplyResponse { state { ...SjuanStateFields } }`,\n"
        "# `... on SjuanMovesResponse { moves { ...SjuanMoveFields } }`.\n"
    )
    return header + "\n" + "\n".join([*_fragments(schema, "state"), *_fragments(schema, "move")])


def _fragments(schema: strawberry.Schema, role: str) -> list[str]:
    """The fragment of each game's ``state`` or ``move`` type, named as its contract names it."""
    blocks = []
    for game in GAMES.values():
        model = getattr(game.models, role)
        name = contract_names(game.id, game.models).get(model, model.__name__)
        object_type = core_schema(schema).get_type(name)
        assert isinstance(object_type, GraphQLObjectType), name
        blocks.append(whole_fragment(object_type))
    return list(dict.fromkeys(blocks))


def whole_fragment(object_type: GraphQLObjectType) -> str:
    """``fragment <Type>Fields on <Type>``, selecting every field of the type, nested objects' too."""
    name = object_type.name
    return f"fragment {name}Fields on {name} {_selection(object_type, 0)}\n"


def _selection(object_type: GraphQLObjectType, depth: int) -> str:
    indent = "  " * (depth + 1)
    lines = []
    for field_name, field in object_type.fields.items():
        inner = get_named_type(field.type)
        if isinstance(inner, GraphQLObjectType):
            lines.append(f"{indent}{field_name} {_selection(inner, depth + 1)}")
        else:
            lines.append(f"{indent}{field_name}")
    return "{\n" + "\n".join(lines) + "\n" + "  " * depth + "}"
