"""Setting up graphql-core's execution of one request, with variables coerced by compiled coercers.

graphql-core coerces a variable by walking its value and its type together, asking of every value
which kind of type it has, after a second walk that checks the value is not nested too deeply (its
measured share of a ``sjuanMoves`` request is in bench/README.md). Here each
input type gets a coercer once, a closure that already knows the type's shape, and the depth check is
done once on the types: a value is never nested deeper than its type, so a type no deeper than
graphql-core's limit needs no check.

The coercers take the common road only: a value they are not sure of (a null where one is not allowed,
an unknown field, a scalar graphql-core refuses, a one-of input) makes the whole request go through
graphql-core's own coercion, which then reports its errors exactly as it always does. So an answer never
depends on which road a request took; ``tests/test_graphql_execution.py`` checks the coercers against
graphql-core's on real and broken states.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from graphql import (
    DocumentNode,
    ExecutionResult,
    FragmentDefinitionNode,
    GraphQLEnumType,
    GraphQLError,
    GraphQLInputObjectType,
    GraphQLInputType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLOutputType,
    GraphQLResolveInfo,
    GraphQLScalarType,
    GraphQLSchema,
    OperationDefinitionNode,
    Undefined,
    is_required_input_field,
)
from graphql.execution import default_field_resolver, default_type_resolver
from graphql.pyutils import Path

from .graphql_limits import AnswerOverBudgetError, DocumentOverLimitError
from .library_internals import (
    MAX_NESTING_DEPTH,
    FieldDetailsList,
    FragmentDetails,
    GraphQLVariableSignature,
    StrawberryGraphQLCoreExecutionContext,
    VariableValues,
    VariableValueSource,
    assume_not_async_iterable,
    assume_not_awaitable,
    coerce_default_value,
    drop_self_reference,
    get_variable_signature,
)

Coercer = Callable[[Any], Any]
"""Coerces one JSON value to the type it was made for, or raises :class:`UnsureError`."""

SCALAR_JSON_TYPES = (dict, str, int, float, bool)
"""JSON values that are not lists: where a list is expected, graphql-core takes one as a list of one."""


class UnsureError(Exception):
    """A value the coercers leave to graphql-core (which may refuse it, with its own error messages)."""


class ServiceExecutor(StrawberryGraphQLCoreExecutionContext):
    """graphql-core's executor as strawberry sets it up, made by :func:`executor` for one request, and
    completing scalar and enum values (alone or in lists) in one step.

    graphql-core completes a value through several calls (non-null, then list, leaf, coercion), and
    each item of a list through a few more (a path, an item completion, the same again), most of the
    work of a response of cards. A leaf value or a list of them is completed here by its type's own
    output coercion; anything unusual on the way (a null, an exception as a value, a value the type
    refuses) goes back to graphql-core, which completes the value from the start and reports its error
    as always. Output coercion has no side effects, so trying it twice changes nothing.
    """

    values_left: int | None = None
    """How many more values this execution may complete (None: no budget, as under strawberry's own
    ``execute``); past it, :class:`AnswerOverBudgetError` unwinds the execution."""

    def complete_value(
        self,
        return_type: GraphQLOutputType,
        field_details_list: FieldDetailsList,
        info: GraphQLResolveInfo[Any],
        path: Path,
        result: Any,
        position_context: Any,
    ) -> Any:
        """A scalar or enum value completed by its type's output coercion; the rest by graphql-core."""
        if self.values_left is not None:
            self.values_left -= 1
            if self.values_left < 0:
                raise AnswerOverBudgetError
        leaf = _leaf_of(return_type)
        if leaf is not None:
            completed = _coerced_output(leaf, result)
            if completed is not None:
                return completed
        return super().complete_value(return_type, field_details_list, info, path, result, position_context)

    def complete_list_value(
        self,
        return_type: GraphQLList[GraphQLOutputType],
        field_details_list: FieldDetailsList,
        info: GraphQLResolveInfo[Any],
        path: Path,
        result: Any,
        position_context: Any,
    ) -> Any:
        """A list of scalars or enums completed item by item in one loop; the rest by graphql-core
        (``@stream``, which would change list completion, is not in the schema)."""
        leaf = _leaf_of(return_type.of_type)
        if leaf is not None and type(result) is list:
            if self.values_left is not None:
                self.values_left -= len(result)
                if self.values_left < 0:
                    raise AnswerOverBudgetError
            completed = []
            for item in result:
                value = _coerced_output(leaf, item)
                if value is None:
                    break
                completed.append(value)
            else:
                return completed
        return super().complete_list_value(
            return_type, field_details_list, info, path, result, position_context
        )


LEAF_TYPES = (GraphQLScalarType, GraphQLEnumType)


def _leaf_of(type_: GraphQLOutputType) -> GraphQLScalarType | GraphQLEnumType | None:
    """The scalar or enum type of a field or list item, non-null or not."""
    if type(type_) is GraphQLNonNull:
        type_ = type_.of_type
    return type_ if isinstance(type_, LEAF_TYPES) else None


def _coerced_output(leaf: GraphQLScalarType | GraphQLEnumType, value: Any) -> Any:
    """What graphql-core completes a present value of a leaf type to, or None to let it complete
    (and report) a null, an exception returned as a value, or a value the type refuses."""
    if value is None or isinstance(value, Exception):
        return None
    try:
        coerced = leaf.coerce_output_value(value)
    except Exception:
        return None
    return None if coerced is Undefined else coerced


class PreparedOperation(NamedTuple):
    """What graphql-core's ``Executor.build`` finds in a document for one operation, kept with the
    document: the operation, its fragments, and a coercer per variable."""

    operation: OperationDefinitionNode
    fragment_definitions: dict[str, FragmentDefinitionNode]
    fragments: dict[str, FragmentDetails]
    variables: tuple[tuple[GraphQLVariableSignature, Coercer], ...]

    def variable_values(self, inputs: dict[str, Any]) -> VariableValues | None:
        """The coerced variables, as ``get_variable_values`` gives them; None to leave them to it."""
        sources: dict[str, VariableValueSource] = {}
        coerced: dict[str, Any] = {}
        for signature, coerce in self.variables:
            name = signature.name
            value = inputs.get(name, Undefined)
            if value is Undefined:
                if signature.default is not None or isinstance(signature.type, GraphQLNonNull):
                    return None  # a default to coerce, or an error: graphql-core's
                sources[name] = VariableValueSource(signature)  # an optional variable, left out
                continue
            sources[name] = VariableValueSource(signature, value)
            try:
                coerced[name] = coerce(value)
            except UnsureError:
                return None
        return VariableValues(sources, coerced)


class Coercers:
    """One coercer per input type of a schema, made on first use."""

    def __init__(self, schema: GraphQLSchema) -> None:
        self.schema = schema
        self.made: dict[tuple[str, bool], Coercer] = {}

    def prepare(self, document: DocumentNode, operation_name: str | None) -> PreparedOperation | None:
        """The operation of a validated document, or None when graphql-core should set up the request:
        an operation it would refuse (none, or several without a name), fragment variables, a variable
        type the coercers do not take."""
        operation: OperationDefinitionNode | None = None
        fragment_definitions: dict[str, FragmentDefinitionNode] = {}
        fragments: dict[str, FragmentDetails] = {}
        for definition in document.definitions:
            if isinstance(definition, OperationDefinitionNode):
                if operation_name is None:
                    if operation is not None:
                        return None
                    operation = definition
                elif definition.name and definition.name.value == operation_name:
                    operation = definition
            elif isinstance(definition, FragmentDefinitionNode):
                if definition.variable_definitions:
                    return None
                fragment_definitions[definition.name.value] = definition
                fragments[definition.name.value] = FragmentDetails(definition)
        if operation is None:
            return None
        variables = []
        for variable_definition in operation.variable_definitions or ():
            signature = get_variable_signature(self.schema, variable_definition)
            if isinstance(signature, GraphQLError):
                return None
            coerce = self.coercer(signature.type)
            if coerce is None:
                return None
            variables.append((signature, coerce))
        return PreparedOperation(operation, fragment_definitions, fragments, tuple(variables))

    def coercer(self, type_: GraphQLInputType) -> Coercer | None:
        """The coercer of ``type_``, or None for a type nested too deeply (or recursively) to skip
        graphql-core's depth check."""
        depth = _nesting(type_, frozenset())
        if depth is None or depth > MAX_NESTING_DEPTH:
            return None
        return self._coercer(type_, nullable=True)

    def _coercer(self, type_: GraphQLInputType, nullable: bool) -> Coercer:
        if isinstance(type_, GraphQLNonNull):
            return self._coercer(type_.of_type, nullable=False)
        key = (str(type_), nullable)  # a named type's string is its name
        if key not in self.made:  # no type is its own field's type: coercer() checked
            self.made[key] = self._make(type_, nullable)
        return self.made[key]

    def _make(self, type_: GraphQLInputType, nullable: bool) -> Coercer:
        if isinstance(type_, GraphQLList):
            return _list_coercer(self._coercer(type_.of_type, nullable=True), nullable)
        if isinstance(type_, GraphQLInputObjectType):
            if type_.is_one_of:
                return _refuse
            return self._object_coercer(type_, nullable)
        assert isinstance(type_, GraphQLScalarType | GraphQLEnumType), type_
        return _leaf_coercer(type_, nullable)

    def _object_coercer(self, type_: GraphQLInputObjectType, nullable: bool) -> Coercer:
        known = frozenset(type_.fields)
        fields = [
            (name, field.out_name or name, self._coercer(field.type, nullable=True), field)
            for name, field in type_.fields.items()
        ]
        out_type = type_.out_type

        def coerce(value: Any) -> Any:
            if value is None and nullable:
                return None
            if type(value) is not dict or not known.issuperset(value):
                raise UnsureError
            coerced: dict[str, Any] = {}
            for name, out_name, coerce_field, field in fields:
                if name in value:
                    coerced[out_name] = coerce_field(value[name])
                elif is_required_input_field(field):
                    raise UnsureError
                else:
                    default = coerce_default_value(field)
                    if default is not Undefined:
                        coerced[out_name] = default
            return out_type(coerced)

        return coerce


def _nesting(type_: GraphQLInputType, seen: frozenset[str]) -> int | None:
    """How many lists and input objects deep a value of ``type_`` can be (None: without bound)."""
    if isinstance(type_, GraphQLNonNull):
        return _nesting(type_.of_type, seen)
    if isinstance(type_, GraphQLList):
        inner = _nesting(type_.of_type, seen)
        return None if inner is None else inner + 1
    if isinstance(type_, GraphQLInputObjectType):
        if type_.name in seen:
            return None
        depths = [_nesting(field.type, seen | {type_.name}) for field in type_.fields.values()]
        if None in depths:
            return None
        return 1 + max((depth for depth in depths if depth is not None), default=0)
    return 0


def _refuse(value: Any) -> Any:
    raise UnsureError


def _list_coercer(coerce_item: Coercer, nullable: bool) -> Coercer:
    def coerce(value: Any) -> Any:
        if type(value) is list:
            return [coerce_item(item) for item in value]
        if value is None and nullable:
            return None
        if type(value) in SCALAR_JSON_TYPES:
            return [coerce_item(value)]
        raise UnsureError

    return coerce


def _leaf_coercer(type_: GraphQLScalarType | GraphQLEnumType, nullable: bool) -> Coercer:
    coerce_leaf = type_.coerce_input_value

    def coerce(value: Any) -> Any:
        if value is None:
            if nullable:
                return None
            raise UnsureError
        try:
            coerced = coerce_leaf(value)
        except Exception:
            raise UnsureError from None
        if coerced is Undefined:
            raise UnsureError
        return coerced

    return coerce


def execute(
    schema: GraphQLSchema,
    document: DocumentNode,
    prepared: PreparedOperation | None,
    operation_name: str | None,
    variables: dict[str, Any] | None,
    max_values: int | None = None,
) -> ExecutionResult:
    """What graphql-core's ``execute_sync`` answers, on a validated document (``prepared`` by
    :meth:`Coercers.prepare`, or None to leave the whole setup to graphql-core), completing at most
    ``max_values`` values (else :class:`DocumentOverLimitError` naming ``RULES_GRAPHQL_MAX_VALUES``)."""
    executor_or_errors = executor(schema, document, prepared, operation_name, variables)
    if isinstance(executor_or_errors, list):  # variables graphql-core refused
        return ExecutionResult(None, executor_or_errors)
    executor_or_errors.values_left = max_values
    try:
        result = executor_or_errors.execute_operation()
    except AnswerOverBudgetError:
        raise DocumentOverLimitError(
            "RULES_GRAPHQL_MAX_VALUES",
            f"The answer would hold more than {max_values} values; RULES_GRAPHQL_MAX_VALUES allows "
            f"{max_values}. Select less.",
        ) from None
    finally:
        drop_self_reference(executor_or_errors)
    if not isinstance(result, ExecutionResult):  # as execute_sync: no awaitables, no @defer
        raise RuntimeError("GraphQL execution failed to complete synchronously.")
    return result


def executor(
    schema: GraphQLSchema,
    document: DocumentNode,
    prepared: PreparedOperation | None,
    operation_name: str | None,
    variables: dict[str, Any] | None,
) -> ServiceExecutor | list[GraphQLError]:
    """The executor of one request, as graphql-core's ``execute_sync`` builds it, or the errors of
    variables it refuses. A request whose variables the coercers take skips ``Executor.build``."""
    values = prepared.variable_values(variables or {}) if prepared is not None else None
    if prepared is None or values is None:
        built = ServiceExecutor.build(
            schema,
            document,
            raw_variable_values=variables,
            operation_name=operation_name,
            is_awaitable=assume_not_awaitable,
            is_async_iterable=assume_not_async_iterable,
        )
        assert isinstance(built, list | ServiceExecutor)  # build makes its own class
        return built
    return ServiceExecutor(
        schema,
        prepared.fragment_definitions,
        prepared.fragments,
        None,
        None,
        prepared.operation,
        values,
        default_field_resolver,
        default_type_resolver,
        default_field_resolver,
        is_awaitable=assume_not_awaitable,
        is_async_iterable=assume_not_async_iterable,
    )
