"""Request limits: the body size cap (413 as problem details) and the settings read from the environment."""

from __future__ import annotations

import os
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

    @classmethod
    def from_env(cls) -> Settings:
        """Read the settings; unset variables keep their defaults."""
        env = os.environ
        origins = tuple(o.strip() for o in env.get("RULES_CORS_ORIGINS", "").split(",") if o.strip())
        return cls(
            max_body_bytes=int(env.get("RULES_MAX_BODY_BYTES", cls.max_body_bytes)),
            cors_origins=origins,
            graphql_max_depth=int(env.get("RULES_GRAPHQL_MAX_DEPTH", cls.graphql_max_depth)),
            graphql_max_aliases=int(env.get("RULES_GRAPHQL_MAX_ALIASES", cls.graphql_max_aliases)),
            graphql_max_tokens=int(env.get("RULES_GRAPHQL_MAX_TOKENS", cls.graphql_max_tokens)),
        )


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
