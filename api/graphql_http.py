"""GraphQL over HTTP at ``/graphql``: a POST with a JSON body, answered with ``{"data", "errors"}``.

A small ASGI endpoint around :meth:`ServiceSchema.answer` instead of strawberry's ASGI view: the view
also serves GET queries, multipart uploads, batches, websockets and an IDE, none of which the service
offers, and its request adapters were a large share of a GraphQL request (bench/README.md). What remains
is what the GraphQL-over-HTTP spec asks of a JSON POST; transport errors are problem details like REST's.
"""

from __future__ import annotations

import json
import math
import re
import threading
import time
from typing import Any

import anyio.to_thread
import orjson
from graphql import GraphQLError, GraphQLSyntaxError, get_introspection_query, parse, print_ast
from starlette.types import Receive, Scope, Send
from strawberry.exceptions import MissingQueryError
from strawberry.schema.exceptions import CannotGetOperationTypeError, InvalidOperationTypeError
from strawberry.types.graphql import OperationType

from ..schema.common import MAX_LISTED_ISSUES, Issue, Problem, json_pointer
from .context import current_request
from .graphql import ServiceSchema
from .graphql_limits import DocumentOverLimitError
from .limits import BodyReader
from .problems import MAX_NAMED_KEY_CHARS, problem
from .rest import JSON_CONTENT_TYPE, header, is_json, problem_response

MAX_MESSAGE_CHARS = 300
"""GraphQL error messages are cut to this length."""

_ALLOWED = frozenset({OperationType.QUERY, OperationType.MUTATION})
"""What a POST may run (the schema has queries only; a mutation is then a GraphQL error)."""


class BadGraphQLRequestError(Exception):
    """The body is not a GraphQL request (answered 400 ``graphql/bad-request``); ``pointer`` is the JSON
    Pointer of the field at fault (the empty one: the whole body)."""

    def __init__(self, reason: str, pointer: str = "") -> None:
        super().__init__(reason)
        self.pointer = pointer


KNOWN_INTROSPECTION_KEPT_BYTES = 4 << 20
"""Of the cache budget, what the answers of the standard introspection queries may take for good."""


def standard_introspection_queries() -> list[str]:
    """The introspection queries tools send (graphql-core's and graphql-js's ``getIntrospectionQuery``
    with its usual options), whose answers are larger than the value budget allows a document: each is
    computed once per worker without that budget and kept for good (within
    :data:`KNOWN_INTROSPECTION_KEPT_BYTES`)."""
    flags = ("specified_by_url", "directive_is_repeatable", "schema_description", "input_value_deprecation")
    variants: list[dict[str, bool]] = []
    for descriptions in (True, False):
        variants.append({"descriptions": descriptions})
        variants.append({"descriptions": descriptions, **dict.fromkeys(flags, True)})
    variants += [{"descriptions": True, flag: True} for flag in flags]
    return [get_introspection_query(**variant) for variant in variants]


class GraphQLEndpoint:
    """The ASGI endpoint of ``POST /graphql`` for ``schema``.

    A document that selects only introspection and ``__typename`` and declares no variables has an
    answer that depends on its selections alone, since the schema is fixed: such answers are kept in the
    schema's document cache, by the printed document (so comments, spacing and commas do not make a
    new entry), and computed once per distinct selection. Tools send the standard introspection query
    again and again (bench/README.md, "GraphQL caches").
    """

    def __init__(self, schema: ServiceSchema, body: BodyReader, store_fields: bool = False) -> None:
        self.schema = schema
        self.body = body
        """Reads the request body within the body limits."""
        self.store_fields = store_fields
        """Whether sealed fields ask a match store (then documents naming one run in a worker thread)."""
        self.documents = schema.documents
        self.limits = schema.documents.limits
        self._standard: frozenset[str] | None = None
        self.kept_for_good: dict[tuple[str, str | None], bytes] = {}
        """Answers of the standard introspection queries, kept for good."""
        self.kept_for_good_bytes = 0
        self._keeping = threading.Lock()

    def standard(self) -> frozenset[str]:
        """The printed standard introspection queries (printed on first use)."""
        if self._standard is None:
            self._standard = frozenset(print_ast(parse(query)) for query in standard_introspection_queries())
        return self._standard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = await self.body.read(scope, receive, send)
        if body is None:  # refused (413, 408) or the client left
            return
        if not is_json(header(scope, b"content-type")):
            refused = problem(415, "request/unsupported-media-type", "Send the body as application/json.")
            await problem_response(refused)(scope, receive, send)
            return
        try:
            query, variables, operation_name = _graphql_request(body)
            if self.documents.is_quick(query, operation_name):
                payload = self._respond(query, variables, operation_name)
            else:
                # a document not known to be quick (new, or slow last time) is parsed, validated and
                # answered in a worker thread, so that the event loop goes on serving other requests
                payload = await anyio.to_thread.run_sync(self._respond, query, variables, operation_name)
        except (BadGraphQLRequestError, CannotGetOperationTypeError, MissingQueryError) as error:
            await problem_response(_bad_request(_reason(error), _pointer(error)))(scope, receive, send)
            return
        except InvalidOperationTypeError as error:
            reason = error.as_http_error_reason("POST")
            await problem_response(_bad_request(reason, "/query"))(scope, receive, send)
            return
        except DocumentOverLimitError as error:
            await problem_response(over_limit(error))(scope, receive, send)
            return
        await _send_json(send, payload)

    def _waits(self, query: str) -> bool:
        """Whether the document may wait, however quick its last answer: a sealed field that asks the match
        store (a coroutine on the event loop, which execution, synchronous, waits for from a worker
        thread), a bot's move or a sample (a ``…Bot`` or ``…Sample`` field: a search takes its budget, a
        sample of many states tens of milliseconds, whatever the last answer's variables asked for)."""
        return (self.store_fields and "Sealed" in query) or "Bot" in query or "Sample" in query

    def _respond(self, query: str, variables: dict[str, Any] | None, operation_name: str | None) -> bytes:
        """The JSON answer to a GraphQL request, timed for :meth:`Documents.answered_in`; raises the
        exceptions :meth:`__call__` turns into problems."""
        key, max_values = self._schema_only(query, operation_name)
        if key is not None:
            for_good = self.kept_for_good.get(key)
            if for_good is not None:  # a lookup, never forgotten: the next may be served on the event loop
                self.documents.answered_in(query, operation_name, 0.0)
                return for_good
            kept: tuple[bytes, float] | None = self.documents.cache.get(key)
            if kept is not None:
                # counted as what it took to make: the cache may forget it by the next request (another
                # client can make it do so), which must not then make it again on the event loop
                payload, spent = kept
                self.documents.answered_in(query, operation_name, spent)
                return payload
        started = time.thread_time()
        try:
            result = self.schema.answer(query, variables, operation_name, _ALLOWED, max_values)
        finally:
            # timed whether answered or refused (over a value budget, say: a refusal costs the work done
            # until then); a document that may wait is never kept as a quick one, whatever this answer took
            spent = math.inf if self._waits(query) else time.thread_time() - started
            self.documents.answered_in(query, operation_name, spent)
        answer: dict[str, Any] = {"data": result.data}
        if result.errors:
            answer["errors"] = bounded_errors(result.errors)
        if result.extensions:
            answer["extensions"] = result.extensions
        payload = orjson.dumps(answer)
        if len(payload) > self.limits.max_answer_bytes:
            raise DocumentOverLimitError(
                "RULES_GRAPHQL_MAX_ANSWER_BYTES",
                f"The answer would be {len(payload)} bytes; RULES_GRAPHQL_MAX_ANSWER_BYTES allows "
                f"{self.limits.max_answer_bytes}. Select less.",
            )
        request = current_request.get()
        if key is not None and not result.errors and request is not None and request.operation is None:
            self._keep(key, payload, spent, standard=max_values is not None)
        return payload

    def _schema_only(self, query: str, operation_name: str | None) -> tuple[Any, int | None]:
        """For a document that selects only introspection and declares no variables: its key in the
        cache, and the value budget of its answer (None: the usual one). Otherwise ``(None, None)``;
        raises :class:`DocumentOverLimitError` for a document over a limit."""
        try:
            document, shape = self.documents.checked(query)
        except GraphQLError:  # a syntax error: answered as GraphQL answers it
            return None, None
        if not shape.schema_only or shape.has_variables:
            return None, None
        printed = print_ast(document)
        unbounded = self.limits.max_values * 1000 if printed in self.standard() else None
        return (printed, operation_name), unbounded

    def _keep(self, key: tuple[str, str | None], payload: bytes, spent: float, standard: bool) -> None:
        """Keep an answer: a standard introspection answer for good (within its budget), any other in the
        document cache with the CPU time it took to make (``spent``)."""
        with self._keeping:  # answers are made in worker threads too
            if standard and self.kept_for_good_bytes + len(payload) <= KNOWN_INTROSPECTION_KEPT_BYTES:
                if key not in self.kept_for_good:
                    self.kept_for_good[key] = payload
                    self.kept_for_good_bytes += len(payload)
                return
        self.documents.cache.put(key, (payload, spent), len(payload) + len(key[0]))


def _bad_request(reason: str, pointer: str) -> Problem:
    """The 400 problem of a body that is not a GraphQL request, its one issue at ``pointer``."""
    return problem(400, "graphql/bad-request", reason, [Issue(path=pointer, message=reason)])


def _pointer(error: Exception) -> str:
    """The field at fault in a refused request body: what :func:`_graphql_request` says; the query for a
    request without one; the operation name where no operation of the document could be chosen."""
    if isinstance(error, BadGraphQLRequestError):
        return error.pointer
    return "/query" if isinstance(error, MissingQueryError) else "/operationName"


def over_limit(error: DocumentOverLimitError) -> Problem:
    """The 400 problem of a document over a limit: the detail names the limit's setting."""
    return problem(400, "graphql/too-costly", error.detail, [Issue(path="/query", message=error.detail)])


async def _send_json(send: Send, payload: bytes) -> None:
    headers = [(b"content-length", str(len(payload)).encode()), JSON_CONTENT_TYPE]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": payload})


def _json_orjson_refuses(body: bytes) -> Any:
    """``body`` read by the standard library's parser, for what orjson refuses but JSON allows: numbers
    out of a double's range (``1e400``, read as infinity), which the variables' types then refuse at the
    value, as REST refuses them at the field; else :class:`BadGraphQLRequestError`. ``NaN`` and
    ``Infinity``, which are not JSON, stay refused, and so do integers of more than 4,300 digits and
    strings holding a lone surrogate (``"\\ud800"``: no Unicode text, which orjson and REST refuse)."""
    try:
        data = json.loads(body, parse_constant=_not_json)
        # a lone surrogate cannot be encoded: the whole value written back says whether one is anywhere
        json.dumps(data, ensure_ascii=False).encode()
    except (ValueError, RecursionError):  # (UnicodeEncodeError is a ValueError)
        raise BadGraphQLRequestError("Unable to parse request body as JSON") from None
    return data


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")


def _graphql_request(body: bytes) -> tuple[str, dict[str, Any] | None, str | None]:
    """The query, variables and operation name of a JSON body, or :class:`BadGraphQLRequestError`."""
    try:
        # orjson refuses nesting deeper than 1024 (the stdlib parser would hit the recursion limit)
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        data = _json_orjson_refuses(body)
    if not isinstance(data, dict):  # a list would be a batch, which the service does not take
        raise BadGraphQLRequestError("The body must be a JSON object with a 'query' string.")
    query, variables, operation_name = data.get("query"), data.get("variables"), data.get("operationName")
    if not isinstance(query, str):
        raise BadGraphQLRequestError("No GraphQL query found in the request", "/query")
    if not isinstance(variables, dict | None):
        raise BadGraphQLRequestError(
            "The GraphQL operation's `variables` must be an object or null.", "/variables"
        )
    if not isinstance(operation_name, str | None):
        raise BadGraphQLRequestError(
            "The GraphQL 'operationName' must be a string or null.", "/operationName"
        )
    return query, variables, operation_name


def _reason(error: Exception) -> str:
    """What a refused request's problem says: cut as an error message is (:func:`_cut`), since it may
    quote what the request sent (an unknown operation name, twice: the detail and its issue)."""
    if isinstance(error, CannotGetOperationTypeError):
        return _cut(error.as_http_error_reason())
    return _cut(str(error))


def _cut(message: str) -> str:
    """``message``, cut to :data:`MAX_MESSAGE_CHARS` characters and marked `` ...`` where cut."""
    return message if len(message) <= MAX_MESSAGE_CHARS else message[:MAX_MESSAGE_CHARS] + " ..."


def bounded_errors(errors: list[GraphQLError]) -> list[dict[str, Any]]:
    """The GraphQL errors as answered: at most :data:`MAX_LISTED_ISSUES` (then one saying how many more,
    with the code of the first it stands for: the errors of one answer come from one phase, parsing,
    validation or the variables' coercion), each message cut to :data:`MAX_MESSAGE_CHARS` characters
    and marked `` ...`` where cut.

    graphql-core quotes the offending input in its messages (pretty-printed, a line per list item): a
    40 KB document of bad values was a 1 MB answer.
    """
    shown = [_shortened(_coded(error)) for error in errors[:MAX_LISTED_ISSUES]]
    if len(errors) > MAX_LISTED_ISSUES:
        code = _coded(errors[MAX_LISTED_ISSUES])["extensions"]["code"]
        more = len(errors) - MAX_LISTED_ISSUES
        shown.append({"message": f"... and {more} more errors.", "extensions": {"code": code}})
    return shown


# The codes of GraphQL errors, in ``extensions.code``: Apollo Server's, the convention GraphQL clients
# and tools (schemathesis among them) read to tell a refused request from a failed server.
SYNTAX_ERROR = "GRAPHQL_PARSE_FAILED"
"""The document does not parse."""
INVALID_DOCUMENT = "GRAPHQL_VALIDATION_FAILED"
"""The document parses but does not validate against the schema (an unknown field, an argument of the
wrong type written inline, a selection missing...)."""
INVALID_VARIABLES = "BAD_USER_INPUT"
"""A variable's value does not fit its type (``pointer``: the offending value)."""
FIELD_ERROR = "INTERNAL_SERVER_ERROR"
"""An error raised while a field was resolved: a fault of the service (the rules' refusals are answered
as data, never as errors)."""

_VARIABLE_ERROR = re.compile(r"Variable '\$(?P<name>\w+)' has invalid value(?: at (?P<at>[.\w\[\]]+))?")
"""How graphql-core begins the message of a variable it could not coerce: the variable's name, then the
place of the offending value in it (``.hands[0][1]``). Its validation rules' messages about variables
(never used, not defined, of a type the position does not take) begin with the name too, but fault the
document, not a value."""
_VARIABLES_TOO_DEEP = "Variable values are nested too deeply."
"""graphql-core's error for variable values nested deeper than it recurses (it names no variable)."""
_PLACE_STEP = re.compile(r"\.(\w+)|\[(\d+)\]")
_FIELD_AT_FAULT = re.compile(
    r": Expected value of type '\w+!?' (?:not to include unknown|to include required) field "
    rf"'(?P<field>[^']{{1,{MAX_NAMED_KEY_CHARS}}})', found: "
)
"""How graphql-core says that an input object holds a field its type does not have, or lacks one it
requires: the field is the value at fault and ends the pointer, as REST's path ends with it (unless its
name is longer than REST names, or holds a quote, which would make the message ambiguous)."""


def _coded(error: GraphQLError) -> dict[str, Any]:
    """The formatted ``error`` with a machine-readable ``code`` in its ``extensions``, and for a variable
    the JSON Pointer into the request body of the value at fault (``pointer``)."""
    formatted = dict(error.formatted)
    extensions: dict[str, Any] = dict(error.extensions or {})
    if isinstance(error, GraphQLSyntaxError):
        extensions.setdefault("code", SYNTAX_ERROR)
    elif error.path is not None:
        extensions.setdefault("code", FIELD_ERROR)
    elif (variable := _VARIABLE_ERROR.match(error.message)) is not None:
        steps = [key or index for key, index in _PLACE_STEP.findall(variable["at"] or "")]
        field = _FIELD_AT_FAULT.match(error.message, variable.end())
        if field is not None:
            steps.append(field["field"])
        extensions.setdefault("code", INVALID_VARIABLES)
        extensions.setdefault("pointer", json_pointer(("variables", variable["name"], *steps)))
    elif error.message == _VARIABLES_TOO_DEEP:  # graphql-core does not say which variable
        extensions.setdefault("code", INVALID_VARIABLES)
        extensions.setdefault("pointer", "/variables")
    else:
        extensions.setdefault("code", INVALID_DOCUMENT)
    formatted["extensions"] = extensions
    return formatted


def _shortened(error: dict[str, Any]) -> dict[str, Any]:
    message = error.get("message")
    if not isinstance(message, str) or len(message) <= MAX_MESSAGE_CHARS:
        return error
    return {**error, "message": _cut(message)}
