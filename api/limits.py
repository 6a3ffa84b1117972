"""Request limits: the body size cap (413 as problem details) and the settings read from the environment."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sevens_rules.api.problems import PROBLEM_MEDIA_TYPE, dump, problem


@dataclass(frozen=True)
class Settings:
    """Service settings, from environment variables."""

    max_body_bytes: int = 1 << 20
    """``RULES_MAX_BODY_BYTES``: the largest request body accepted (default 1 MiB)."""
    cors_origins: tuple[str, ...] = ()
    """``RULES_CORS_ORIGINS``: comma-separated origins allowed by CORS, or ``*``; empty disables CORS."""
    graphql_max_depth: int = 12
    """``RULES_GRAPHQL_MAX_DEPTH``: deepest GraphQL selection accepted."""
    graphql_max_aliases: int = 15
    """``RULES_GRAPHQL_MAX_ALIASES``: most aliases in one GraphQL document."""
    graphql_max_tokens: int = 2000
    """``RULES_GRAPHQL_MAX_TOKENS``: most tokens in one GraphQL document."""
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

    @classmethod
    def from_env(cls) -> Settings:
        """Read the settings; unset variables keep their defaults. Raises :class:`SettingsError`."""
        env = os.environ
        origins = tuple(o.strip() for o in env.get("RULES_CORS_ORIGINS", "").split(",") if o.strip())
        log_level = env.get("RULES_LOG_LEVEL", cls.log_level).strip().lower()
        if log_level not in LOG_LEVELS:
            raise SettingsError(f"RULES_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {log_level!r}")
        return cls(
            max_body_bytes=int(env.get("RULES_MAX_BODY_BYTES", cls.max_body_bytes)),
            cors_origins=origins,
            graphql_max_depth=int(env.get("RULES_GRAPHQL_MAX_DEPTH", cls.graphql_max_depth)),
            graphql_max_aliases=int(env.get("RULES_GRAPHQL_MAX_ALIASES", cls.graphql_max_aliases)),
            graphql_max_tokens=int(env.get("RULES_GRAPHQL_MAX_TOKENS", cls.graphql_max_tokens)),
            host=env.get("HOST", cls.host).strip() or cls.host,
            port=_bounded_int(env, "PORT", cls.port, 1, 65535),
            workers=_bounded_int(env, "WEB_CONCURRENCY", cls.workers, 1, 64),
            keep_alive_seconds=_bounded_int(env, "RULES_KEEP_ALIVE_SECONDS", cls.keep_alive_seconds, 1, 300),
            graceful_shutdown_seconds=_bounded_int(
                env, "RULES_GRACEFUL_SHUTDOWN_SECONDS", cls.graceful_shutdown_seconds, 0, 300
            ),
            worker_healthcheck_seconds=_bounded_int(
                env, "RULES_WORKER_HEALTHCHECK_SECONDS", cls.worker_healthcheck_seconds, 1, 300
            ),
            log_level=log_level,
            commit=env.get("RULES_COMMIT", "").strip() or None,
        )


LOG_LEVELS = ("debug", "info", "warning", "error", "critical")


class SettingsError(ValueError):
    """An environment variable holds a value the service cannot run with."""


def _bounded_int(env: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    """An integer variable in ``low..high`` (unset or empty: ``default``)."""
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SettingsError(f"{name} must be an integer, not {raw!r}") from None
    if not low <= value <= high:
        raise SettingsError(f"{name} must be between {low} and {high}, not {value}")
    return value


class BodyTooLargeError(Exception):
    """Raised inside ``receive`` once the body passes the cap."""


class BodyLimitMiddleware:
    """Refuse bodies over ``max_bytes`` with a 413 problem, by Content-Length or while streaming."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

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
                    await self._refuse(send)
                    return
        received = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise BodyTooLargeError
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
                await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        body = dump(
            problem(413, "request/too-large", f"The request body is larger than {self.max_bytes} bytes.")
        )
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", PROBLEM_MEDIA_TYPE.encode()),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
