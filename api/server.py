"""How the service is served: uvicorn's options, with timeouts for idle, slow and stuck clients.

uvicorn bounds idle keep-alive connections and the size of a request head, but does not time a request
head that arrives slowly (or never). :class:`HeadTimeoutH11Protocol` adds that; the body is timed by
:class:`~sevens_rules.api.limits.BodyLimitMiddleware`, so every phase of a request has a deadline.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from sevens_rules.api.limits import Settings

logger = logging.getLogger("sevens_rules")

KEEP_ALIVE_SECONDS = 5
"""An idle keep-alive connection is closed after this many seconds (uvicorn's own timer)."""
HEADER_TIMEOUT_SECONDS = 10.0
"""A request head (request line and headers) must be complete this many seconds after the connection
opens or the previous response ends; otherwise the connection is closed."""
MAX_HEAD_BYTES = 16 * 1024
"""The largest request head (h11 answers a larger one with 400 and closes the connection)."""
SHUTDOWN_SECONDS = 10
"""On SIGTERM, requests in progress get this long to finish; then their connections are closed."""


class HeadTimeoutH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request head is not complete in time."""

    header_timeout: float = HEADER_TIMEOUT_SECONDS
    _head_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Start the clock for the first request head."""
        super().connection_made(transport)
        self._arm_head_deadline()

    def handle_events(self) -> None:
        """Stop the clock once a request head has been read (uvicorn then starts a request cycle)."""
        cycle = self.cycle
        super().handle_events()
        if self.cycle is not cycle:
            self._disarm_head_deadline()

    def on_response_complete(self) -> None:
        """Restart the clock for the next request head on a kept-alive connection."""
        # Armed before uvicorn looks at pipelined data: a request head already buffered disarms it at once.
        self._arm_head_deadline()
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        """Drop the clock with the connection."""
        self._disarm_head_deadline()
        super().connection_lost(exc)

    def _arm_head_deadline(self) -> None:
        self._disarm_head_deadline()
        self._head_deadline = self.loop.call_later(self.header_timeout, self._head_timed_out)

    def _disarm_head_deadline(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def _head_timed_out(self) -> None:
        self._head_deadline = None
        if not self.transport.is_closing():
            logger.info("closed a connection from %s: no complete request head in time", _peer(self.client))
            self.transport.close()


def _peer(client: tuple[str, int] | None) -> str:
    return f"{client[0]}:{client[1]}" if client else "a client"


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """The keyword arguments of ``uvicorn.run`` for the service (README, "Limits")."""
    return {
        "host": settings.host,
        "port": settings.port,
        "http": HeadTimeoutH11Protocol,
        "timeout_keep_alive": KEEP_ALIVE_SECONDS,
        "timeout_graceful_shutdown": SHUTDOWN_SECONDS,
        "h11_max_incomplete_event_size": MAX_HEAD_BYTES,
    }
