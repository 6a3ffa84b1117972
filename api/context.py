"""What the service knows about the request being answered: its id, operation and problem code.

The access log middleware (``api/telemetry.py``) opens one :class:`RequestContext` per HTTP request;
code deeper down fills it in (the GraphQL root field that ran, the code of the problem it answered), and
:func:`sevens_rules.api.problems.problem` reads the request id from it so every problem carries it.
"""

from __future__ import annotations

import itertools
import os
import re
import time
from collections.abc import Callable
from contextvars import Context, ContextVar
from typing import Any, TypeVar

T = TypeVar("T")

REQUEST_ID_HEADER = "x-request-id"
MAX_REQUEST_ID_LENGTH = 128
_VALID_REQUEST_ID = re.compile(rb"[A-Za-z0-9._:+/=@-]{1,%d}" % MAX_REQUEST_ID_LENGTH)


CLIENT_LEFT = "client/disconnected"
"""The code of a request whose client left before it was answered (no problem is sent: nobody reads it)."""
CLIENT_LEFT_STATUS = 499
"""The status logged for such a request (nginx's "client closed request"); nothing is sent."""


CLIENT_LEFT_EXTENSION = "sevens_rules.client_left"
"""The key of the request scope's ``extensions`` that the server sets when the client left before the
answer was complete (``api/server.py``); the access log then records a 499."""


def mark_client_left(scope: dict[str, Any] | Any) -> None:
    """Record in an ASGI scope that its client left before the answer was complete."""
    scope.setdefault("extensions", {})[CLIENT_LEFT_EXTENSION] = {}


def client_left(scope: Any) -> bool:
    """Whether the server recorded that the scope's client left (:func:`mark_client_left`)."""
    extensions = scope.get("extensions")
    return bool(extensions) and CLIENT_LEFT_EXTENSION in extensions


class RequestContext:
    """One request's identity and outcome, as the log line and the metrics report them."""

    __slots__ = ("arrived", "code", "operation", "request_id")

    def __init__(self, request_id: str) -> None:
        self.arrived = time.perf_counter()
        """When the request arrived (its headers read), a ``time.perf_counter()`` reading: a bot's thinking
        budget counts from here, so that waiting for a thread to think in counts against it."""
        self.request_id = request_id
        """The caller's ``X-Request-ID`` when valid, otherwise a fresh one (:func:`new_request_id`)."""
        self.operation: str | None = None
        """The GraphQL root field that ran (``sjuanMoves``)."""
        self.code: str | None = None
        """The code of the first problem built while answering (``move/illegal``), if any."""

    def ran_field(self, field_name: str) -> None:
        """Record that a GraphQL root field ran (a document runs at most one: README, "Limits")."""
        self.operation = field_name

    def client_left(self) -> None:
        """Record that the client disconnected before the request was answered (logged as status 499)."""
        self.code = CLIENT_LEFT

    def problem_built(self, code: str) -> None:
        """Record a problem's code; the first one is the request's."""
        if self.code is None:
            self.code = code


current_request: ContextVar[RequestContext | None] = ContextVar("current_request", default=None)
"""The request being answered (None outside a request, e.g. in engine tests)."""


def outside_requests(build: Callable[[], T]) -> T:
    """``build()`` with no current request: for what is built once and kept (a document whose problem
    examples are made by :func:`~sevens_rules.api.problems.problem`), so that the request that happens to
    be answered first is not charged with those problems in its access line and metrics."""
    return Context().run(build)


_PROCESS_PREFIX = os.urandom(8).hex()
_sequence = itertools.count()


def new_request_id() -> str:
    """A fresh request id: 32 hex digits, a random prefix drawn once per process then a counter.

    Unique across workers and replicas (64 random bits per process) without drawing random bytes for
    every request as ``uuid4`` does; a request id is a correlation handle, not a secret.
    """
    return f"{_PROCESS_PREFIX}{next(_sequence) & 0xFFFF_FFFF_FFFF_FFFF:016x}"


def request_id_from(header: bytes | None) -> str:
    """The caller's request id when it is 1-128 characters of ``A-Z a-z 0-9 . _ : + / = @ -``, else a
    fresh one (so a log line or header never carries arbitrary bytes)."""
    if header is not None and _VALID_REQUEST_ID.fullmatch(header):
        return header.decode("ascii")
    return new_request_id()
