"""Every name the service takes from a library that the library does not document as public, in one place,
each with the reason it is used.

An upgrade of graphql-core, strawberry or uvicorn that moves or changes one of these breaks
an import here or a test (``tests/test_graphql_execution.py`` runs the same documents through stock
``strawberry.Schema.execute`` and through the service's fast path and compares the answers), not a
client. The measured costs that justify the fast paths are in ``bench/README.md`` ("Fast paths").
"""

from __future__ import annotations

import importlib.util
from typing import Any

from graphql import DocumentNode, GraphQLError, GraphQLSchema, validate

# graphql-core: the executor's parts, to build an executor without ``Executor.build`` (variables
# coerced by compiled coercers) and to complete leaf values in one step. ``assume_not_awaitable`` and
# ``assume_not_async_iterable`` are what ``execute_sync`` passes: every resolver of the schema is
# synchronous, so no value needs an awaitability check.
from graphql.execution.collect_fields import FieldDetailsList, FragmentDetails
from graphql.execution.execute import assume_not_async_iterable, assume_not_awaitable
from graphql.execution.get_variable_signature import GraphQLVariableSignature, get_variable_signature
from graphql.execution.values import VariableValues, VariableValueSource

# graphql-core: the input nesting bound its variable coercion checks; a type no deeper needs no check
from graphql.language.parser import MAX_NESTING_DEPTH
from graphql.utilities.coerce_input_value import coerce_default_value
from graphql.validation import ASTValidationRule

# graphql-core: what validation raises when a rule aborts it (FewRepeatedFields does, past its limit)
from graphql.validation.validate import ValidationAbortedError

# strawberry: the validation rules behind its MaxAliasesLimiter and QueryDepthLimiter extensions, added
# to the service's one validation pass instead of running as extensions (an extension's per-request
# hooks are the machinery the fast path skips)
from strawberry.extensions.max_aliases import create_validator as max_aliases_rule
from strawberry.extensions.query_depth_limiter import create_validator as max_depth_rule

# strawberry: the execution context class strawberry passes to graphql-core (the fast path extends it
# so that strawberry's own ``execute`` and the service's answer complete values the same way)
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext

# strawberry: the two rules strawberry adds to every validation (``validate_document`` adds them, but
# takes no error bound)
from strawberry.schema.validation_rules.maybe_null import MaybeNullValidationRule
from strawberry.schema.validation_rules.one_of import OneOfInputValidationRule

# strawberry: which operation a request runs, as strawberry's ``execute`` decides it
from strawberry.utils.operation import get_first_operation, get_operation_type

# uvicorn: its HTTP protocol classes (``uvicorn.Config(http=...)`` takes a protocol class). api/server.py
# extends them with a request-head deadline and size bound, which uvicorn has no setting for, and marks
# every pipelined request disconnected when the client leaves (uvicorn marks only its latest one). On
# httptools it also gives each request's cycle (uvicorn's ``RequestResponseCycle``: its ``transport``,
# ``on_response`` and ``waiting_for_100_continue`` attributes) a transport that writes an answer's head
# with its body, one write per answer where uvicorn makes two, and replaces the protocol's
# ``on_response_complete`` (uvicorn's, with one keep-alive check per connection instead of a timer armed
# after every answer and cancelled at the next request). tests/test_http_protocol.py records the writes
# and waits for the keep-alive close.
from uvicorn.protocols.http.h11_impl import H11Protocol

HAS_HTTPTOOLS = importlib.util.find_spec("httptools") is not None
"""httptools (the fast parser ``uvicorn[standard]`` installs) has a build for this platform."""
if HAS_HTTPTOOLS:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = [
    "HAS_HTTPTOOLS",
    "MAX_NESTING_DEPTH",
    "FieldDetailsList",
    "FragmentDetails",
    "GraphQLVariableSignature",
    "H11Protocol",
    "HttpToolsProtocol",
    "StrawberryGraphQLCoreExecutionContext",
    "ValidationAbortedError",
    "VariableValueSource",
    "VariableValues",
    "assume_not_async_iterable",
    "assume_not_awaitable",
    "coerce_default_value",
    "core_schema",
    "drop_self_reference",
    "get_first_operation",
    "get_operation_type",
    "get_variable_signature",
    "max_aliases_rule",
    "max_depth_rule",
    "report_errors",
    "validate_as_strawberry",
]

STRAWBERRY_RULES: tuple[type[ASTValidationRule], ...] = (MaybeNullValidationRule, OneOfInputValidationRule)


def validate_as_strawberry(
    schema: GraphQLSchema,
    document: DocumentNode,
    rules: tuple[type[ASTValidationRule], ...],
    max_errors: int,
) -> list[GraphQLError]:
    """strawberry's ``validate_document`` (``rules`` and the rules strawberry adds), stopping after
    ``max_errors`` errors: each error of an unknown field computes suggestions, so an unbounded count of
    them is an unbounded cost."""
    return validate(schema, document, (*rules, *STRAWBERRY_RULES), max_errors=max_errors)


def drop_self_reference(executor: Any) -> None:
    """Break the reference cycle of a finished graphql-core executor: its ``async_helpers`` (an
    attribute graphql-core's ``ExecutionContext`` sets in its constructor and does not document) hold two
    of its own bound methods. Dropped once the execution is over, the executor and everything it made
    (collected fields, variable values, errors: dozens of objects a request) are freed by reference
    counting when the answer is built, instead of waiting for the garbage collector."""
    executor.async_helpers = None


def core_schema(schema: Any) -> GraphQLSchema:
    """The graphql-core schema a ``strawberry.Schema`` wraps (its ``_schema`` attribute: strawberry
    documents no public accessor)."""
    core: GraphQLSchema = schema._schema
    return core


def report_errors(schema: Any, errors: list[GraphQLError]) -> None:
    """strawberry's ``_process_errors``: what its ``execute`` calls with a request's errors (it calls the
    schema's overridable ``process_errors`` through it)."""
    schema._process_errors(errors)
