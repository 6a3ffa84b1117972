"""The ASGI application ``sevens_rules.api.app:app``: REST under ``/v1``, GraphQL at ``/graphql``, OpenAPI at
``/openapi.json``, probes, ``/version``, ``/metrics`` and the pages for people
(:mod:`sevens_rules.api.docs`), every failure as problem details."""

from __future__ import annotations

import orjson
from cross_web import HTTPException as GraphQLHTTPException
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send
from strawberry.asgi import GraphQL
from strawberry.http import GraphQLHTTPResponse
from strawberry.types import ExecutionResult

from sevens_rules.api.context import REQUEST_ID_HEADER
from sevens_rules.api.docs import docs_routes
from sevens_rules.api.graphql import build_schema
from sevens_rules.api.limits import BodyLimitMiddleware, Settings, SettingsError
from sevens_rules.api.openapi import openapi_json
from sevens_rules.api.probes import probe_routes
from sevens_rules.api.problems import problem
from sevens_rules.api.rest import problem_response, routes
from sevens_rules.api.sealing import Keyring, SealKeysError
from sevens_rules.api.telemetry import GRAPHQL_PATH, AccessMiddleware, lifespan, metrics
from sevens_rules.engine.registry import GAMES
from sevens_rules.schema.common import MAX_LISTED_ISSUES

OPERATIONS = ("new", "moves", "apply", "score", "view", "seed", "verify")


class GraphQLApp(GraphQL):
    """Strawberry's ASGI app, with its transport errors (unparseable body, no query...) as problem details."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        try:
            response = await self.run(Request(scope=scope, receive=receive))
        except GraphQLHTTPException as error:
            code = {405: "method/not-allowed", 415: "request/unsupported-media-type"}.get(
                error.status_code, "graphql/bad-request"
            )
            response = problem_response(problem(error.status_code, code, error.reason))
        await response(scope, receive, send)

    def decode_json(self, data: str | bytes) -> object:
        # orjson refuses nesting deeper than 1024 with a JSONDecodeError (a 400); the stdlib parser
        # strawberry uses would hit Python's recursion limit on a deeply nested body (a 500).
        body = orjson.loads(data)
        # strawberry reads the body with dict methods: JSON that is not an object ("abc", 5, null, a
        # list, which would be a batch) would be an AttributeError, so it is refused here.
        if not isinstance(body, dict):
            raise GraphQLHTTPException(400, "The body must be a JSON object with a 'query' string.")
        if not isinstance(body.get("operationName"), str | None):
            raise GraphQLHTTPException(400, "The GraphQL 'operationName' must be a string or null.")
        return body

    def encode_json(self, data: object) -> bytes:
        return orjson.dumps(data)

    async def process_result(self, request: Request, result: ExecutionResult) -> GraphQLHTTPResponse:
        """The GraphQL answer, with its errors bounded like a problem's issues.

        graphql-core quotes the offending input in its messages (pretty-printed, a line per list item):
        a 40 KB document of bad values was a 1 MB answer.
        """
        answer = await super().process_result(request, result)
        errors = answer.get("errors")
        if errors:
            shown: list[object] = [_shortened(error) for error in errors[:MAX_LISTED_ISSUES]]
            if len(errors) > MAX_LISTED_ISSUES:
                shown.append({"message": f"... and {len(errors) - MAX_LISTED_ISSUES} more errors."})
            answer["errors"] = shown
        return answer


MAX_MESSAGE_CHARS = 300
"""GraphQL error messages are cut to this length."""


def _shortened(error: object) -> object:
    if not isinstance(error, dict):
        return error
    message = error.get("message")
    if not isinstance(message, str) or len(message) <= MAX_MESSAGE_CHARS:
        return error
    return {**error, "message": message[:MAX_MESSAGE_CHARS] + " ..."}


async def unknown_game(request: Request) -> Response:
    """404 for a game or operation the service does not have."""
    game, operation = request.path_params["game"], request.path_params["operation"]
    if game in GAMES and operation in OPERATIONS:  # the route exists; only POST reaches it
        return problem_response(
            problem(405, "method/not-allowed", f"{request.method} is not allowed here."), {"Allow": "POST"}
        )
    if game not in GAMES:
        return problem_response(
            problem(404, "game/unknown", f"There is no game '{game}'. Known: {', '.join(GAMES)}.")
        )
    return problem_response(
        problem(
            404, "operation/unknown", f"There is no operation '{operation}'. Known: {', '.join(OPERATIONS)}."
        )
    )


async def openapi(request: Request) -> Response:
    """The generated OpenAPI 3.1 document."""
    return Response(openapi_json(), media_type="application/json")


async def http_error(request: Request, exc: Exception) -> Response:
    """404 and 405 from routing, as problem details."""
    assert isinstance(exc, HTTPException)
    if exc.status_code == 405:
        return problem_response(
            problem(405, "method/not-allowed", f"{request.method} is not allowed here."), exc.headers
        )
    if exc.status_code == 404:
        return problem_response(problem(404, "not-found", f"Nothing at {request.url.path}."))
    return problem_response(problem(exc.status_code, "http/error", str(exc.detail)))


async def server_error(request: Request, exc: Exception) -> Response:
    """Never a stack trace: an unexpected error is a bare 500 problem."""
    return problem_response(problem(500, "internal", "An unexpected error occurred."))


def create_app(settings: Settings | None = None, keyring: Keyring | None = None) -> Starlette:
    """Build the application from settings and sealing keys (by default read from the environment).

    A malformed ``RULES_SEAL_KEYS`` stops the process with one line saying what is wrong.
    """
    settings = settings or Settings.from_env()
    if keyring is None:
        try:
            keyring = Keyring.from_env()
        except SealKeysError as error:
            raise SystemExit(f"sevens-rules: {error}") from None
    schema = build_schema(settings, keyring)
    graphql_app = GraphQLApp(schema, graphql_ide=None, allow_queries_via_get=False)
    middleware = [
        Middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes, timeout=settings.body_timeout)
    ]
    if settings.cors_origins:
        middleware.insert(
            0,
            Middleware(
                CORSMiddleware,
                allow_origins=list(settings.cors_origins),
                allow_methods=["GET", "POST", "OPTIONS"],
                allow_headers=["content-type", REQUEST_ID_HEADER],
                expose_headers=[REQUEST_ID_HEADER],
            ),
        )
    # outermost: every answer, even a 413 or a CORS refusal, carries the request id and is logged
    middleware.insert(0, Middleware(AccessMiddleware))
    return Starlette(
        routes=[
            # first: routes are matched in order, and behind the REST operations GraphQL paid for
            # matching every one of their paths on each request
            Route(GRAPHQL_PATH, graphql_app, methods=["POST"]),
            *routes(keyring),
            Route("/v1/games/{game}/{operation}", unknown_game, methods=["GET", "POST"]),
            Route("/v1/games/{game}/sealed/{operation}", unknown_game, methods=["GET", "POST"]),
            Route("/openapi.json", openapi, methods=["GET"]),
            *probe_routes(schema, settings.commit),
            Route("/metrics", metrics, methods=["GET"]),
            *docs_routes(),
        ],
        middleware=middleware,
        exception_handlers={HTTPException: http_error, Exception: server_error},
        lifespan=lifespan,
    )


try:
    app = create_app()
    """The service, configured from the environment."""
except SettingsError as error:
    # A bad variable stops the service with one line naming it (also when a server imports this module).
    raise SystemExit(f"sevens-rules: {error}") from None
