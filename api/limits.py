"""Request limits: the settings read (and checked) from the environment, and the middleware that bounds
each request body in size (413) and in time (408) and answers a client that leaves mid-body quietly."""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass

from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sevens_rules.api.context import current_request
from sevens_rules.api.problems import PROBLEM_MEDIA_TYPE, dump, problem

BODY_TIMEOUT_SECONDS = 10.0
"""The whole request body must arrive within this many seconds of the request head (then a 408)."""


class SettingsError(ValueError):
    """An environment variable has a value the service does not accept; the message names both."""


@dataclass(frozen=True)
class Settings:
    """Service settings, from environment variables."""

    max_body_bytes: int = 64 * 1024
    """``RULES_MAX_BODY_BYTES``: the largest request body accepted (default 64 KiB, about three times the
    largest state a match reaches; README, "Limits")."""
    cors_origins: tuple[str, ...] = ()
    """``RULES_CORS_ORIGINS``: comma-separated origins allowed by CORS, or ``*``; empty disables CORS."""
    graphql_max_depth: int = 12
    """``RULES_GRAPHQL_MAX_DEPTH``: deepest GraphQL selection accepted."""
    graphql_max_aliases: int = 15
    """``RULES_GRAPHQL_MAX_ALIASES``: most aliases in one GraphQL document."""
    graphql_max_tokens: int = 20_000
    """``RULES_GRAPHQL_MAX_TOKENS``: most tokens in one GraphQL document (about three times the largest
    state written inline)."""
    host: str = "127.0.0.1"
    """``HOST``: the address the server listens on (the image sets ``0.0.0.0``)."""
    port: int = 8000
    """``PORT``: the TCP port the server listens on, 1-65535."""
    workers: int = 1
    """``WEB_CONCURRENCY``: worker processes, 1-64 (one per core on a VM; one per pod on Kubernetes)."""
    keep_alive_seconds: int = 5
    """``RULES_KEEP_ALIVE_SECONDS``: how long an idle keep-alive connection stays open, 1-300."""
    graceful_shutdown_seconds: int = 20
    """``RULES_GRACEFUL_SHUTDOWN_SECONDS``: on SIGTERM, how long requests in progress may finish, 0-300."""
    worker_healthcheck_seconds: int = 30
    """``RULES_WORKER_HEALTHCHECK_SECONDS``: how long a worker may take to start, or to answer the
    supervisor's ping, before it is replaced, 1-300 (only with several workers)."""
    log_level: str = "warning"
    """``RULES_LOG_LEVEL``: ``debug``, ``info`` (one access line per request), ``warning``, ``error`` or
    ``critical``."""
    commit: str | None = None
    """``RULES_COMMIT``: the source commit, shown by ``GET /version`` (the image sets it at build)."""
    body_timeout: float = BODY_TIMEOUT_SECONDS
    """Seconds allowed for the whole request body (not an environment variable)."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Read the settings; unset or empty variables keep their defaults.

        Raises :class:`SettingsError` naming the first variable whose value is not accepted.
        """
        env = os.environ if env is None else env
        log_level = env.get("RULES_LOG_LEVEL", "").strip().lower() or cls.log_level
        if log_level not in LOG_LEVELS:
            raise SettingsError(
                f"RULES_LOG_LEVEL={env['RULES_LOG_LEVEL']!r} is not accepted: it must be one of "
                f"{', '.join(LOG_LEVELS)}"
            )
        return cls(
            max_body_bytes=_integer(env, "RULES_MAX_BODY_BYTES", cls.max_body_bytes, 1024, 64 << 20),
            cors_origins=_origins(env, "RULES_CORS_ORIGINS"),
            graphql_max_depth=_integer(env, "RULES_GRAPHQL_MAX_DEPTH", cls.graphql_max_depth, 1, 100),
            graphql_max_aliases=_integer(env, "RULES_GRAPHQL_MAX_ALIASES", cls.graphql_max_aliases, 0, 1000),
            graphql_max_tokens=_integer(
                env, "RULES_GRAPHQL_MAX_TOKENS", cls.graphql_max_tokens, 100, 10_000_000
            ),
            host=env.get("HOST", "").strip() or cls.host,
            port=_integer(env, "PORT", cls.port, 1, 65535),
            workers=_integer(env, "WEB_CONCURRENCY", cls.workers, 1, 64),
            keep_alive_seconds=_integer(env, "RULES_KEEP_ALIVE_SECONDS", cls.keep_alive_seconds, 1, 300),
            graceful_shutdown_seconds=_integer(
                env, "RULES_GRACEFUL_SHUTDOWN_SECONDS", cls.graceful_shutdown_seconds, 0, 300
            ),
            worker_healthcheck_seconds=_integer(
                env, "RULES_WORKER_HEALTHCHECK_SECONDS", cls.worker_healthcheck_seconds, 1, 300
            ),
            log_level=log_level,
            commit=env.get("RULES_COMMIT", "").strip() or None,
        )


LOG_LEVELS = ("debug", "info", "warning", "error", "critical")
"""The accepted values of ``RULES_LOG_LEVEL``."""


def _integer(env: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    if re.fullmatch(r"[0-9]+", raw) and low <= int(raw) <= high:
        return int(raw)
    raise SettingsError(f"{name}={raw!r} is not accepted: it must be a whole number from {low} to {high}")


_ORIGIN = re.compile(r"https?://[^/\s,*]+")


def _origins(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    origins = tuple(o.strip() for o in env.get(name, "").split(",") if o.strip())
    if origins == ("*",) or all(_ORIGIN.fullmatch(o) for o in origins):
        return origins
    raise SettingsError(
        f"{name}={env[name]!r} is not accepted: it must be '*' or comma-separated origins such as "
        "https://example.com or http://localhost:3000 (scheme and host, no path)"
    )


class BodyTooLargeError(Exception):
    """Raised inside ``receive`` once the body passes the cap."""


class BodyTimeoutError(Exception):
    """Raised inside ``receive`` when the body has not fully arrived in time."""


async def receive_by(deadline: float, receive: Receive) -> Message:
    """``await receive()``, or :class:`BodyTimeoutError` once the event loop's clock passes ``deadline``.

    What ``async with asyncio.timeout_at(deadline)`` does around this one await, with the same
    cancellation accounting (a cancellation from elsewhere still propagates), for a tenth of the work:
    the context manager was about 29,000 CPU instructions of every request, 7% of a REST ``moves``.
    """
    task = asyncio.current_task()
    if task is None:
        raise RuntimeError("receive_by runs inside a task")
    cancelling = task.cancelling()
    expired = False

    def expire() -> None:
        nonlocal expired
        expired = True
        task.cancel()

    timer = asyncio.get_running_loop().call_at(deadline, expire)
    try:
        return await receive()
    except asyncio.CancelledError:
        # once expire() has run, the task's next resumption is this CancelledError
        if expired and task.uncancel() <= cancelling:
            raise BodyTimeoutError from None
        raise
    finally:
        timer.cancel()


class BodyLimitMiddleware:
    """Bound every request body: over ``max_bytes`` (by Content-Length or while streaming) is a 413
    problem, not complete within ``timeout`` seconds a 408 problem; both close the connection. A client
    that disconnects mid-body is no error: its request's access line says so (status 499, at INFO)."""

    def __init__(self, app: ASGIApp, max_bytes: int, timeout: float = BODY_TIMEOUT_SECONDS) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    too_large = int(value) > self.max_bytes
                except ValueError:
                    too_large = False
                if too_large:
                    await self._refuse(send, 413, "request/too-large", self._too_large_detail())
                    return
        received = 0
        started = body_done = False
        deadline = asyncio.get_running_loop().time() + self.timeout

        async def limited_receive() -> Message:
            nonlocal received, body_done
            if body_done:  # only the body is timed; later receives wait for a disconnect
                return await receive()
            message = await receive_by(deadline, receive)
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise BodyTooLargeError
                body_done = not message.get("more_body", False)
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except BodyTooLargeError:
            if not started:
                await self._refuse(send, 413, "request/too-large", self._too_large_detail())
        except BodyTimeoutError:
            if not started:
                detail = f"The request body did not arrive within {self.timeout:g} seconds."
                await self._refuse(send, 408, "request/timeout", detail)
        except ClientDisconnect:
            # not an error: the access line records it (status 499, at INFO), with no traceback
            request = current_request.get()
            if request is not None:
                request.client_left()

    def _too_large_detail(self) -> str:
        return f"The request body is larger than {self.max_bytes} bytes."

    async def _refuse(self, send: Send, status: int, code: str, detail: str) -> None:
        body = dump(problem(status, code, detail))
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", PROBLEM_MEDIA_TYPE.encode()),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
