"""The ASGI application ``sevens_rules.api.app:app``: REST under ``/v1``, GraphQL at ``/graphql``, OpenAPI at
``/openapi.json``, probes, ``/version``, ``/metrics`` and the pages for people
(:mod:`sevens_rules.api.docs`), every failure as problem details."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from contextvars import Context

from starlette.exceptions import HTTPException
from starlette.middleware.cors import CORSMiddleware
from starlette.middleware.exceptions import ExceptionMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route, Router
from starlette.types import ASGIApp, Receive, Scope, Send

from ..engine.registry import GAMES
from .context import REQUEST_ID_HEADER
from .docs import docs_routes
from .examples import StoreRefusedExamples, sealed_examples, with_examples
from .graphql import build_schema
from .graphql_http import GraphQLEndpoint
from .limits import BodyReader, Settings, SettingsError
from .match_store import MatchStore
from .openapi import document_json, openapi_document, openapi_json
from .operations import all_operations
from .probes import probe_routes
from .problems import problem
from .rest import problem_response, routes
from .sealing import Keyring, SealKeysError
from .stores import store_from_setting
from .telemetry import GRAPHQL_PATH, AccessMiddleware, lifespan, metrics

logger = logging.getLogger("sevens_rules")

OPERATIONS = tuple(dict.fromkeys(op.name for op in all_operations() if not op.sealed))
"""The operation names of every game, in the operation list's order (new, moves, apply, ...)."""
SEALED_OPERATIONS = tuple(dict.fromkeys(op.name for op in all_operations() if op.sealed))
"""The sealed operation names of every game (under ``/v1/games/{game}/sealed/``)."""


class DirectRoutes:
    """A POST to an operation's exact path goes straight to its endpoint, as Starlette's router would
    send it, and everything else on to the router.

    The router tries its routes in order, a regular expression each, and the ~130 operation routes come
    first: a request for the last game paid for a hundred matches. With a dictionary every operation
    costs the same; the endpoints raise no ``HTTPException``, so Starlette's exception middleware between
    here and the router has nothing to do for them.
    """

    def __init__(self, app: ASGIApp, routes: list[Route]) -> None:
        self.app = app
        self.application: ASGIApp = app
        """What requests passed on to the router see as ``scope["app"]`` (:func:`create_app` sets the
        service itself)."""
        self.by_path = {route.path: route for route in routes if route.methods == {"POST"}}
        if any(route.param_convertors for route in self.by_path.values()):
            raise ValueError("DirectRoutes takes routes without path parameters")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST" and not scope.get("root_path"):
            route = self.by_path.get(scope["path"])
            if route is not None:
                scope["route"], scope["endpoint"], scope["path_params"] = route, route.endpoint, {}
                await route.app(scope, receive, send)
                return
        # Starlette's router raises its 404 and 405 (which http_error answers as problems) only inside
        # an application, which it tells by the scope's "app"; the route endpoints never read it
        scope["app"] = self.application
        await self.app(scope, receive, send)


async def unknown_game(request: Request) -> Response:
    """404 for a game or operation the service does not have; 405 for a method other than POST on an
    operation it has."""
    return _unknown(request, OPERATIONS)


async def unknown_sealed(request: Request) -> Response:
    """:func:`unknown_game` for the sealed operations' paths."""
    return _unknown(request, SEALED_OPERATIONS)


def _unknown(request: Request, operations: tuple[str, ...]) -> Response:
    game, operation = request.path_params["game"], request.path_params["operation"]
    if game in GAMES and operation in operations:  # the route exists; only POST reaches it
        return problem_response(
            problem(405, "method/not-allowed", f"{request.method} is not allowed here."), {"Allow": "POST"}
        )
    if game not in GAMES:
        return problem_response(
            problem(404, "game/unknown", f"There is no game '{game}'. Known: {', '.join(GAMES)}.")
        )
    return problem_response(
        problem(
            404, "operation/unknown", f"There is no operation '{operation}'. Known: {', '.join(operations)}."
        )
    )


def openapi_endpoint(
    keyring: Keyring | None, store: MatchStore | None
) -> Callable[[Request], Awaitable[Response]]:
    """``GET /openapi.json``: the generated OpenAPI 3.1 document of the operations this service answers.

    Without sealing keys the sealed operations only answer ``sealed/disabled``, so a keyless service
    leaves them out of the document it serves: a client (or a fuzzer) reading it meets no operation it
    cannot use. The committed ``openapi/openapi.json`` is the whole contract, sealed operations included,
    which a service with ``RULES_SEAL_KEYS`` serves with the examples that need a token filled in, from a
    match of each game it seals for them on the first request (:mod:`sevens_rules.api.examples`) and
    remembers in its match store: the docs' "Try it out" then works for sealed operations too, until the
    store forgets those matches (``RULES_MATCH_IDLE_SECONDS``). Each worker seals its own (any worker
    with the same keys opens them): two tables a game, which count against ``RULES_MATCH_LIMIT``. A
    store that refuses them (full, or out of reach) leaves the examples as committed, and the worker asks
    again :data:`EXAMPLES_RETRY_SECONDS` later.
    """
    if keyring is None:
        keyless = openapi_json(sealed=False)

        async def openapi_keyless(request: Request) -> Response:
            return Response(keyless, media_type="application/json")

        return openapi_keyless

    # made now, outside any request: building the document's problem examples records problems, which
    # inside a request would be counted as that request's
    committed = openapi_document()

    served: list[bytes] = []
    making = asyncio.Lock()
    without_examples = document_json(committed)
    next_try = [0.0]  # when a store that refused the examples' tables is asked again

    async def openapi(request: Request) -> Response:
        async with making:
            if not served and time.monotonic() >= next_try[0]:
                # in a context of its own: the examples' problems are not this request's
                examples = asyncio.create_task(sealed_examples(keyring, store), context=Context())
                try:
                    served.append(document_json(with_examples(committed, await examples)))
                except StoreRefusedExamples as refused:
                    # a full or unreachable store keeps the examples from working, not the document
                    # from being read: the committed one is served meanwhile
                    next_try[0] = time.monotonic() + EXAMPLES_RETRY_SECONDS
                    logger.warning(
                        "the sealed examples of /openapi.json wait for the match store (%s); "
                        "serving the document without them for %d s",
                        refused,
                        EXAMPLES_RETRY_SECONDS,
                    )
        return Response(served[0] if served else without_examples, media_type="application/json")

    return openapi


EXAMPLES_RETRY_SECONDS = 60
"""How long a worker whose match store refused the sealed examples' tables (full or out of reach) serves
``/openapi.json`` without them before it tries again: each try may open tables, which count against
``RULES_MATCH_LIMIT``, so a failing store is not asked at every request."""


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


class Service(AccessMiddleware):
    """The service's ASGI application: the access middleware (request id, metrics, access log, the last
    word on an unexpected error) around the rest of the stack, which :func:`create_app` builds.

    Not a ``Starlette`` instance: Starlette puts its ``ServerErrorMiddleware`` outside every user
    middleware, a layer every request and every message it sends went through, for errors that
    :class:`AccessMiddleware` already answers (it catches what escapes the app, logs it with the
    request id and answers the 500 problem). The routes are Starlette's own ``Router``.
    """

    def __init__(self, app: ASGIApp, router: Router) -> None:
        super().__init__(app)
        self.router = router
        """The router behind the direct operation routes (probes, docs, OpenAPI, the 404s)."""

    @property
    def routes(self) -> list[BaseRoute]:
        """Every route of the service, as ``Starlette.routes`` lists them."""
        return self.router.routes


class FromSettings:
    """The default of :func:`create_app`'s ``store``: the store the settings name."""


FROM_SETTINGS = FromSettings()


def create_app(
    settings: Settings | None = None,
    keyring: Keyring | None = None,
    store: MatchStore | FromSettings | None = FROM_SETTINGS,
) -> Service:
    """Build the application from settings and sealing keys (by default read from the environment).

    From the outside in: :class:`Service` (the access middleware), CORS when configured,
    :class:`DirectRoutes` for the operations (which read their bodies through one
    :class:`~sevens_rules.api.limits.BodyReader`, the body limits), then Starlette's exception middleware
    (404 and 405 as problems) and router for everything else. A malformed ``RULES_SEAL_KEYS`` stops the
    process with one line saying what is wrong.
    """
    settings = settings or Settings.from_env()
    if keyring is None:
        try:
            keyring = Keyring.from_env()
        except SealKeysError as error:
            raise SystemExit(f"sevens-rules: {error}") from None
    if isinstance(store, FromSettings):
        # referee mode's memory (none without keys: nothing to remember)
        store = (
            store_from_setting(
                settings.match_store, settings.data_dir, settings.match_idle_seconds, settings.match_limit
            )
            if keyring is not None
            else None
        )
    schema = build_schema(settings, keyring, store)
    # the endpoints that take a body read it within the body limits
    body = BodyReader(settings.max_body_bytes, timeout=settings.body_timeout)
    graphql = GraphQLEndpoint(schema, body, store_fields=store is not None)
    operation_routes = [Route(GRAPHQL_PATH, graphql, methods=["POST"]), *routes(body, keyring, store)]
    router = Router(
        routes=[
            *operation_routes,
            Route("/v1/games/{game}/{operation}", unknown_game, methods=["GET", "POST"]),
            Route("/v1/games/{game}/sealed/{operation}", unknown_sealed, methods=["GET", "POST"]),
            Route("/openapi.json", openapi_endpoint(keyring, store), methods=["GET"]),
            *probe_routes(schema, settings.commit, store),
            Route("/metrics", metrics, methods=["GET"]),
            *docs_routes(schema),
        ],
        lifespan=lifespan,
        # a path with a slash too many is not found (404), as any path the service does not have: no
        # redirect, whose address Starlette would build from the request's Host header
        redirect_slashes=False,
    )
    # the operations by their exact paths (see DirectRoutes), then the router
    direct = DirectRoutes(ExceptionMiddleware(router, handlers={HTTPException: http_error}), operation_routes)
    stack: ASGIApp = direct
    if settings.cors_origins:
        stack = CORSMiddleware(
            stack,
            allow_origins=list(settings.cors_origins),
            allow_methods=["GET", "POST", "OPTIONS"],
            allow_headers=["content-type", REQUEST_ID_HEADER],
            expose_headers=[REQUEST_ID_HEADER],
        )
    # outermost: every answer, even a 413 or a CORS refusal, carries the request id and is logged
    service = Service(stack, router)
    direct.application = service
    return service


try:
    app = create_app()
    """The service, configured from the environment."""
except SettingsError as error:
    # A bad variable stops the service with one line naming it (also when a server imports this module).
    raise SystemExit(f"sevens-rules: {error}") from None
