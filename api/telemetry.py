"""Request ids, the JSON access log and the Prometheus metrics: one cheap ASGI middleware and ``/metrics``.

Metrics live in ``prometheus_client``'s default registry. With several worker processes, set
``PROMETHEUS_MULTIPROC_DIR`` (the console script does when ``WEB_CONCURRENCY`` > 1) before the app is
imported: every worker then writes its samples to files there and ``/metrics``, whichever worker answers,
sums all of them (the library's multiprocess mode).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest, multiprocess
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .context import (
    CLIENT_LEFT,
    CLIENT_LEFT_STATUS,
    REQUEST_ID_HEADER,
    RequestContext,
    client_left,
    current_request,
    request_id_from,
)
from .metrics import MULTIPROC_DIR_VARIABLE, request_metrics
from .problems import problem
from .rest import problem_response

GRAPHQL_PATH = "/graphql"
UNMATCHED = "unmatched"
"""The operation label of a request no route matched (a label per raw path would be unbounded)."""
PREFLIGHT = "preflight"
"""The operation label of a CORS preflight (``OPTIONS`` with ``Access-Control-Request-Method``), which the
CORS layer answers before any route is matched; its status tells whether it was allowed (200), refused
(400) or met a service without CORS (405)."""
NO_SNIFFING = (b"x-content-type-options", b"nosniff")
"""The header every answer carries (:class:`AccessMiddleware`)."""
SHUTTING_DOWN = "service/shutting-down"
"""The code of a request still unanswered when the graceful shutdown's time ran out."""
QUIET_ROUTES = frozenset({"/healthz", "/readyz", "/metrics"})
"""Probes and scrapes: logged at debug level, so ``info`` shows the traffic that matters."""

METRICS = request_metrics()
"""The requests, their latency and those in flight, in prometheus_client's default registry (or, with
several workers, its multiprocess files): see ``api/metrics.py``."""

access_logger = logging.getLogger("sevens_rules.access")
error_logger = logging.getLogger("sevens_rules.error")


class AccessMiddleware:
    """Per HTTP request: take or make the request id, echo it as ``X-Request-ID``, count the request in
    flight, and once answered record its metrics and log one access line. Every answer also says
    ``X-Content-Type-Options: nosniff`` (:data:`NO_SNIFFING`): a browser takes it as the type it is served
    as, never as a page, whatever a problem's message quotes of the request.

    Unexpected exceptions end here too, as a logged traceback and a 500 problem carrying the request id.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        header = None
        for name, value in scope["headers"]:
            if name == b"x-request-id":
                header = value
                break
        request = RequestContext(request_id_from(header))
        id_header = (REQUEST_ID_HEADER.encode(), request.request_id.encode())
        added = (id_header, NO_SNIFFING)
        status = 500
        started = False  # the answer's start went out (the server took it)
        starting = False  # the server is taking it: its writes wait for the client to read earlier answers

        async def send_with_id(message: Message) -> None:
            nonlocal status, started, starting
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()), *added]
                starting = True
                await send(message)
                starting, started = False, True
                return
            await send(message)

        token = current_request.set(request)
        METRICS.started()
        start = time.perf_counter()
        try:
            await self.app(scope, receive, send_with_id)
        except asyncio.CancelledError:
            # uvicorn cancels what still runs once RULES_GRACEFUL_SHUTDOWN_SECONDS are over: a request not
            # answered yet is answered 503 and its task ends as answered (a cancellation raised on would be
            # logged by uvicorn as an error of the application and counted here as a 500: no bug)
            request.code = SHUTTING_DOWN
            if started or starting:  # too late for a 503: the answer began, or waits behind unread ones
                status = status if started else 503
                raise
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
            detail = "The service is shutting down: send the request again."
            answer = problem_response(problem(503, SHUTTING_DOWN, detail), headers={"connection": "close"})
            await answer(scope, receive, send_with_id)
        except Exception:
            error_logger.exception("unexpected error", extra={"fields": {"request_id": request.request_id}})
            if started or starting:  # too late for a problem: let the server drop the connection
                raise
            await problem_response(problem(500, "internal", "An unexpected error occurred."))(
                scope, receive, send_with_id
            )
        finally:
            elapsed = time.perf_counter() - start
            if (not started and request.code == CLIENT_LEFT) or client_left(scope):
                status = CLIENT_LEFT_STATUS
                request.code = CLIENT_LEFT
            current_request.reset(token)
            self._record(scope, request, status, elapsed)

    def _record(self, scope: Scope, request: RequestContext, status: int, elapsed: float) -> None:
        route = scope.get("route")
        template: str | None = getattr(route, "path", None)
        if scope["method"] == "OPTIONS" and is_preflight(scope):
            operation = PREFLIGHT
        elif template is None:
            operation = UNMATCHED
        elif template == GRAPHQL_PATH:
            operation = request.operation or "graphql"
        else:
            operation = template
        code = request.code or ""
        METRICS.finished(operation, status, code, elapsed)  # also one fewer in flight
        level = (
            logging.WARNING if status >= 500 else logging.DEBUG if template in QUIET_ROUTES else logging.INFO
        )
        if access_logger.isEnabledFor(level):
            # makeRecord and handle, not log(): log() walks the stack for a caller nobody reads
            record = access_logger.makeRecord(
                access_logger.name,
                level,
                "",
                0,
                "request",
                (),
                None,
                extra={
                    "fields": {
                        "method": scope["method"],
                        "route": template,
                        "operation": operation,
                        "status": status,
                        "code": request.code,
                        "duration_ms": round(elapsed * 1000, 3),
                        "request_id": request.request_id,
                    }
                },
            )
            access_logger.handle(record)


def is_preflight(scope: Scope) -> bool:
    """Whether an ``OPTIONS`` request is a CORS preflight, as browsers send and Starlette's CORS layer
    reads one: it asks, in ``Access-Control-Request-Method``, whether a method may be used."""
    return any(name == b"access-control-request-method" for name, _ in scope["headers"])


def metrics_registry() -> CollectorRegistry:
    """What ``/metrics`` exposes: this process's registry, or with several workers all of theirs."""
    if METRICS.multiprocess:  # the mode METRICS records in, not the variable now (tests change it)
        forget_dead_workers(os.environ.get(MULTIPROC_DIR_VARIABLE, ""))
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return registry
    return REGISTRY


def forget_dead_workers(directory: str) -> None:
    """Drop the live gauges (in flight) of the worker processes that died without shutting down (killed,
    out of memory): their files would otherwise add their last count to every scrape for good. A worker
    that shuts down drops its own (:func:`lifespan`)."""
    if not directory:
        return
    for path in Path(directory).glob("gauge_live*_*.db"):
        pid = path.stem.rpartition("_")[2]
        if pid.isdigit() and not _running(int(pid)):
            multiprocess.mark_process_dead(int(pid), directory)  # type: ignore[no-untyped-call]


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # no signal sent: whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, as another user
        return True
    return True


async def metrics(request: Request) -> Response:
    """``GET /metrics``: the Prometheus text exposition."""
    return Response(generate_latest(metrics_registry()), media_type=CONTENT_TYPE_LATEST)


THREAD_SWITCH_SECONDS = 0.001
"""The longest a thread keeps the interpreter lock while another waits for it, in a worker process."""


@asynccontextmanager
async def lifespan(app: object) -> AsyncIterator[None]:
    """On a worker's start, freeze what it has built and shorten the interpreter's thread switch; on its
    shutdown, drop its live gauges (in flight) from the multiprocess files.

    Freezing (``gc.freeze``) moves every object alive at startup (the schema, the models, the GraphQL
    types) out of the garbage collector's reach. They live as long as the process, and each full
    collection would otherwise walk them all, a pause every request in flight waits through.

    A bot's search and a slow GraphQL document run in worker threads; the event loop waits for the
    interpreter lock at each step of another request while one runs, up to the switch interval each time:
    :data:`THREAD_SWITCH_SECONDS` instead of Python's 5 ms (README, "Bots and the sampler").
    """
    gc.collect()
    gc.freeze()
    sys.setswitchinterval(THREAD_SWITCH_SECONDS)
    yield
    if METRICS.multiprocess:
        multiprocess.mark_process_dead(os.getpid())  # type: ignore[no-untyped-call]
