"""GraphQL over HTTP at ``/graphql``: a POST with a JSON body, answered with ``{"data", "errors"}``.

A small ASGI endpoint around :meth:`ServiceSchema.answer` instead of strawberry's ASGI view: the view
also serves GET queries, multipart uploads, batches, websockets and an IDE, none of which the service
offers, and its request adapters were about half of a GraphQL request's time. What remains is what the
GraphQL-over-HTTP spec asks of a JSON POST; transport errors are problem details like REST's.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import orjson
from graphql import GraphQLError
from starlette.types import Receive, Scope, Send
from strawberry.exceptions import MissingQueryError
from strawberry.schema.exceptions import CannotGetOperationTypeError, InvalidOperationTypeError
from strawberry.types.graphql import OperationType

from sevens_rules.api.context import current_request
from sevens_rules.api.graphql import ServiceSchema
from sevens_rules.api.problems import problem
from sevens_rules.api.rest import JSON_CONTENT_TYPE, header, is_json, problem_response, read_body
from sevens_rules.schema.common import MAX_LISTED_ISSUES

MAX_MESSAGE_CHARS = 300
"""GraphQL error messages are cut to this length."""

_ALLOWED = frozenset({OperationType.QUERY, OperationType.MUTATION})
"""What a POST may run (the schema has queries only; a mutation is then a GraphQL error)."""


class BadGraphQLRequestError(Exception):
    """The body is not a GraphQL request (answered 400 ``graphql/bad-request``)."""


SCHEMA_ANSWERS_KEPT = 8
"""Answers kept of documents that read only the schema (introspection), by their text."""


class GraphQLEndpoint:
    """The ASGI endpoint of ``POST /graphql`` for ``schema``.

    A document without variables whose execution ran no field of the service (only introspection and
    ``__typename``) has an answer that depends on its text alone, since the schema is fixed: such answers
    are kept (the last :data:`SCHEMA_ANSWERS_KEPT`). The standard introspection query of this schema
    takes a few hundred milliseconds to execute and answers about half a megabyte; tools send it again
    and again.
    """

    def __init__(self, schema: ServiceSchema) -> None:
        self.schema = schema
        self.schema_answers: OrderedDict[tuple[str, str | None], bytes] = OrderedDict()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not is_json(header(scope, b"content-type")):
            refused = problem(415, "request/unsupported-media-type", "Send the body as application/json.")
            await problem_response(refused)(scope, receive, send)
            return
        try:
            query, variables, operation_name = _graphql_request(await read_body(receive))
            kept = self.schema_answers.get((query, operation_name)) if variables is None else None
            if kept is not None:
                await _send_json(send, kept)
                return
            result = self.schema.answer(query, variables, operation_name, _ALLOWED)
        except (BadGraphQLRequestError, CannotGetOperationTypeError, MissingQueryError) as error:
            await problem_response(problem(400, "graphql/bad-request", _reason(error)))(scope, receive, send)
            return
        except InvalidOperationTypeError as error:
            reason = error.as_http_error_reason("POST")
            await problem_response(problem(400, "graphql/bad-request", reason))(scope, receive, send)
            return
        answer: dict[str, Any] = {"data": result.data}
        if result.errors:
            answer["errors"] = bounded_errors(result.errors)
        if result.extensions:
            answer["extensions"] = result.extensions
        payload = orjson.dumps(answer)
        request = current_request.get()
        if variables is None and not result.errors and request is not None and request.operation is None:
            self.schema_answers[(query, operation_name)] = payload
            if len(self.schema_answers) > SCHEMA_ANSWERS_KEPT:
                self.schema_answers.popitem(last=False)
        await _send_json(send, payload)


async def _send_json(send: Send, payload: bytes) -> None:
    headers = [(b"content-length", str(len(payload)).encode()), JSON_CONTENT_TYPE]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": payload})


def _graphql_request(body: bytes) -> tuple[str, dict[str, Any] | None, str | None]:
    """The query, variables and operation name of a JSON body, or :class:`BadGraphQLRequestError`."""
    try:
        # orjson refuses nesting deeper than 1024 (the stdlib parser would hit the recursion limit)
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        raise BadGraphQLRequestError("Unable to parse request body as JSON") from None
    if not isinstance(data, dict):  # a list would be a batch, which the service does not take
        raise BadGraphQLRequestError("The body must be a JSON object with a 'query' string.")
    query, variables, operation_name = data.get("query"), data.get("variables"), data.get("operationName")
    if not isinstance(query, str):
        raise BadGraphQLRequestError("No GraphQL query found in the request")
    if not isinstance(variables, dict | None):
        raise BadGraphQLRequestError("The GraphQL operation's `variables` must be an object or null.")
    if not isinstance(operation_name, str | None):
        raise BadGraphQLRequestError("The GraphQL 'operationName' must be a string or null.")
    return query, variables, operation_name


def _reason(error: Exception) -> str:
    if isinstance(error, CannotGetOperationTypeError):
        return error.as_http_error_reason()
    return str(error)


def bounded_errors(errors: list[GraphQLError]) -> list[dict[str, Any]]:
    """The GraphQL errors as answered: at most :data:`MAX_LISTED_ISSUES` (then one saying how many more),
    each message cut to :data:`MAX_MESSAGE_CHARS` characters.

    graphql-core quotes the offending input in its messages (pretty-printed, a line per list item): a
    40 KB document of bad values was a 1 MB answer.
    """
    shown = [_shortened(dict(error.formatted)) for error in errors[:MAX_LISTED_ISSUES]]
    if len(errors) > MAX_LISTED_ISSUES:
        shown.append({"message": f"... and {len(errors) - MAX_LISTED_ISSUES} more errors."})
    return shown


def _shortened(error: dict[str, Any]) -> dict[str, Any]:
    message = error.get("message")
    if not isinstance(message, str) or len(message) <= MAX_MESSAGE_CHARS:
        return error
    return {**error, "message": message[:MAX_MESSAGE_CHARS] + " ..."}
