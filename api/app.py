"""The ASGI application ``sevens_rules.api.app:app``: REST under ``/v1``, GraphQL at ``/graphql``, OpenAPI at
``/openapi.json``, every failure as problem details."""

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

from sevens_rules.api.graphql import build_schema
from sevens_rules.api.limits import BodyLimitMiddleware, Settings
from sevens_rules.api.openapi import openapi_json
from sevens_rules.api.problems import problem
from sevens_rules.api.rest import problem_response, routes
from sevens_rules.engine.registry import GAMES

OPERATIONS = ("new", "moves", "apply", "score", "view")


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
        return orjson.loads(data)

    def encode_json(self, data: object) -> bytes:
        return orjson.dumps(data)


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


def create_app(settings: Settings | None = None) -> Starlette:
    """Build the application from settings (by default read from the environment)."""
    settings = settings or Settings.from_env()
    graphql_app = GraphQLApp(build_schema(settings), graphql_ide=None, allow_queries_via_get=False)
    middleware = [Middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)]
    if settings.cors_origins:
        middleware.insert(
            0,
            Middleware(
                CORSMiddleware,
                allow_origins=list(settings.cors_origins),
                allow_methods=["GET", "POST", "OPTIONS"],
                allow_headers=["content-type"],
            ),
        )
    return Starlette(
        routes=[
            # first: routes are matched in order, and behind the REST operations GraphQL paid for
            # matching every one of their paths on each request
            Route("/graphql", graphql_app, methods=["POST"]),
            *routes(),
            Route("/v1/games/{game}/{operation}", unknown_game, methods=["GET", "POST"]),
            Route("/openapi.json", openapi, methods=["GET"]),
        ],
        middleware=middleware,
        exception_handlers={HTTPException: http_error, Exception: server_error},
    )


app = create_app()
"""The service, configured from the environment."""
