"""Request limits: the settings read (and checked) from the environment, and the reader through which every
endpoint that takes a body reads it, bounded in size (413) and in time (408), a client that leaves mid-body
answered quietly."""

from __future__ import annotations

import asyncio
import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from starlette.types import Message, Receive, Scope, Send

from .context import current_request
from .match_store import DEFAULT_MATCH_LIMIT
from .problems import PROBLEM_MEDIA_TYPE, dump, problem

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
    graphql_max_tokens: int = 1_500
    """``RULES_GRAPHQL_MAX_TOKENS``: most tokens in one GraphQL document (parsing is the one cost paid
    before any other limit can be checked, so this bounds it; states go in variables)."""
    graphql_max_directives: int = 20
    """``RULES_GRAPHQL_MAX_DIRECTIVES``: most directives (``@skip``, ``@include``) in one document."""
    graphql_max_fragments: int = 100
    """``RULES_GRAPHQL_MAX_FRAGMENTS``: most fragment definitions, spreads and inline fragments in one
    document."""
    graphql_max_fields: int = 500
    """``RULES_GRAPHQL_MAX_FIELDS``: most fields one operation selects, every fragment spread expanded."""
    graphql_max_variables: int = 20
    """``RULES_GRAPHQL_MAX_VARIABLES``: most variable definitions in one document."""
    graphql_max_values: int = 8_000
    """``RULES_GRAPHQL_MAX_VALUES``: most values (objects, lists and their items, scalars) one answer
    completes; execution stops there."""
    graphql_max_answer_bytes: int = 1 << 20
    """``RULES_GRAPHQL_MAX_ANSWER_BYTES``: largest GraphQL answer body (1 MiB)."""
    graphql_cache_bytes: int = 16 << 20
    """``RULES_GRAPHQL_CACHE_BYTES``: what a worker's GraphQL caches (documents, prepared operations,
    introspection answers) may hold together, as estimated (16 MiB); 0 turns them off."""
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
    match_store: str = "embedded"
    """``RULES_MATCH_STORE``: where referee mode remembers each match's latest version: ``embedded`` (SQLite
    in ``RULES_DATA_DIR``, shared by the workers of one host), ``none``, or a ``redis://`` URL
    (:mod:`sevens_rules.api.match_store`)."""
    data_dir: str = "data"
    """``RULES_DATA_DIR``: the directory of the embedded match store (made when missing)."""
    match_idle_seconds: int = 7 * 24 * 3600
    """``RULES_MATCH_IDLE_SECONDS``: how long the match store remembers a match nobody moves in, 60 to
    31536000 (a week)."""
    match_limit: int = DEFAULT_MATCH_LIMIT
    """``RULES_MATCH_LIMIT``: how many matches the match store holds at once, 1 to 100000000; sealed
    ``new`` beyond it is refused (503 ``store/full``) until older matches are forgotten."""
    bot_max_budget_ms: int = 200
    """``RULES_BOT_MAX_BUDGET_MS``: the largest ``budget_ms`` a bot request may ask for, 1-10000 (read by
    ``api/bots.py``; checked here at startup)."""
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
            graphql_max_directives=_integer(
                env, "RULES_GRAPHQL_MAX_DIRECTIVES", cls.graphql_max_directives, 0, 10_000
            ),
            graphql_max_fragments=_integer(
                env, "RULES_GRAPHQL_MAX_FRAGMENTS", cls.graphql_max_fragments, 0, 10_000
            ),
            graphql_max_fields=_integer(
                env, "RULES_GRAPHQL_MAX_FIELDS", cls.graphql_max_fields, 1, 1_000_000
            ),
            graphql_max_variables=_integer(
                env, "RULES_GRAPHQL_MAX_VARIABLES", cls.graphql_max_variables, 0, 10_000
            ),
            graphql_max_values=_integer(
                env, "RULES_GRAPHQL_MAX_VALUES", cls.graphql_max_values, 100, 100_000_000
            ),
            graphql_max_answer_bytes=_integer(
                env, "RULES_GRAPHQL_MAX_ANSWER_BYTES", cls.graphql_max_answer_bytes, 65_536, 1 << 30
            ),
            graphql_cache_bytes=_integer(
                env, "RULES_GRAPHQL_CACHE_BYTES", cls.graphql_cache_bytes, 0, 1 << 30
            ),
            bot_max_budget_ms=_integer(env, "RULES_BOT_MAX_BUDGET_MS", cls.bot_max_budget_ms, 1, 10_000),
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
            match_store=_match_store(env),
            data_dir=env.get("RULES_DATA_DIR", "").strip() or cls.data_dir,
            match_idle_seconds=_integer(
                env, "RULES_MATCH_IDLE_SECONDS", cls.match_idle_seconds, 60, 365 * 24 * 3600
            ),
            match_limit=_integer(env, "RULES_MATCH_LIMIT", cls.match_limit, 1, 100_000_000),
        )


LOG_LEVELS = ("debug", "info", "warning", "error", "critical")
"""The accepted values of ``RULES_LOG_LEVEL``."""


def _integer(env: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    # at most 20 digits after any leading zeros: int() refuses more than 4,300 with an error of its own
    digits = re.fullmatch(r"0*([0-9]{1,20})", raw)
    if digits and low <= int(digits[1]) <= high:
        return int(digits[1])
    shown = raw if len(raw) <= 40 else f"{raw[:40]}… ({len(raw)} characters)"
    raise SettingsError(f"{name}={shown!r} is not accepted: it must be a whole number from {low} to {high}")


def _match_store(env: Mapping[str, str]) -> str:
    raw = env.get("RULES_MATCH_STORE", "").strip()
    if raw in ("", "embedded", "none"):
        return raw or "embedded"
    wrong = _store_url_problem(raw)
    if wrong is None:
        return raw
    raise SettingsError(f"RULES_MATCH_STORE={without_secrets(raw)!r} is not accepted: {wrong}")


def without_secrets(url: str) -> str:
    """A store URL as a message may show it: everything up to its last ``@`` (user and password, whatever
    characters the password holds) and a ``password`` query parameter masked."""
    shown = re.sub(r"(?<=://).*@", "…@", url)
    return re.sub(r"(?i)(password=)[^&#]*", r"\1…", shown)


def _store_url_problem(url: str) -> str | None:
    """What is wrong with a match store URL, or None when the ``redis`` client can use it (its own parser
    reads it: host, port, database and query parameters). The answer quotes nothing of the URL: a parser's
    message may hold part of a password."""
    if not re.fullmatch(r"(rediss?|unix)://\S+", url):
        return "it must be 'embedded', 'none' or a redis://, rediss:// or unix:// URL"
    from redis.asyncio.connection import parse_url  # the client the store connects with

    try:
        parts = urlsplit(url)
        port = parts.port  # reading it checks it: a number from 0 to 65535
        parse_url(url)
    except ValueError:
        return "the redis client cannot read it (its host, port, database or a query parameter)"
    if parts.scheme != "unix":
        if not parts.hostname or port == 0:
            return "it names no host, or port 0 (redis://host:6379/0)"
        if not re.fullmatch(r"(/[0-9]{0,5})?", parts.path):
            return "its path must be a database number (redis://host:6379/0)"
    return None


_ORIGIN = re.compile(
    r"https?://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(?::([0-9]{1,5}))?"
)
"""An origin as a browser sends it: scheme, host (a name or a bracketed IPv6 address) and an optional port;
no user, path, query or fragment, which no browser's ``Origin`` holds."""


_DEFAULT_PORTS = {"http": "80", "https": "443"}


def _is_origin(origin: str) -> bool:
    """Whether ``origin`` is one a browser sends: its port (when given) from 1 to 65535, written without
    leading zeros, and not the scheme's default, which a browser's ``Origin`` leaves out."""
    found = _ORIGIN.fullmatch(origin)
    if found is None or found[2] is None:
        return found is not None
    port = found[2]
    scheme = origin.partition(":")[0]
    return not port.startswith("0") and int(port) <= 65535 and _DEFAULT_PORTS[scheme] != port


def _origins(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    origins = tuple(o.strip() for o in env.get(name, "").split(",") if o.strip())
    if origins == ("*",) or all(_is_origin(o) for o in origins):
        return origins
    raise SettingsError(
        f"{name}={env[name]!r} is not accepted: it must be '*' or comma-separated origins such as "
        "https://example.com or http://localhost:3000 (scheme and host, no path)"
    )


class BodyTimeoutError(Exception):
    """Raised inside ``receive`` when the body has not fully arrived in time."""


class BodyDeadlines:
    """The body deadlines of one event loop's requests that are waiting for their body, behind one loop
    timer: :meth:`receive` is ``await receive()``, or :class:`BodyTimeoutError` once the loop's clock
    passes the request's deadline.

    A timer per request (``loop.call_at`` before the await, ``cancel`` after) would cost every request,
    although nearly every body has arrived with its head and the await does not even suspend. Here a waiting
    request is an entry in a dict, and the one timer is armed at or before the earliest deadline of those
    waiting: a request whose deadline is later than the armed time (every request but the first, under load)
    touches no timer at all. When the timer fires it expires whoever is past their deadline and is armed again
    for the earliest one left, if anyone is left, so every deadline is met at its time, not at the next tick
    of a clock. The cancellation accounting is ``asyncio.timeout``'s (``cancelling()`` / ``uncancel()``): a
    cancellation from elsewhere still propagates as a cancellation.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        """The event loop whose requests these are (the timer is this loop's)."""
        self._waiting: dict[asyncio.Task[Any], float] = {}
        self._expired: set[asyncio.Task[Any]] = set()
        self._timer: asyncio.TimerHandle | None = None
        self._armed_at = math.inf

    async def receive(self, deadline: float, receive: Receive) -> Message:
        """``await receive()``, or :class:`BodyTimeoutError` once the loop's clock passes ``deadline``.

        Call it from a task running on :attr:`loop`.
        """
        task = asyncio.current_task()
        if task is None:
            raise RuntimeError("BodyDeadlines.receive runs inside a task")
        cancelling = task.cancelling()
        self._waiting[task] = deadline
        if deadline < self._armed_at:
            self._arm(deadline)
        try:
            return await receive()
        except asyncio.CancelledError:
            # once _expire() has picked this task, its next resumption is this CancelledError
            if task in self._expired:
                self._expired.discard(task)
                if task.uncancel() <= cancelling:
                    raise BodyTimeoutError from None
            raise
        finally:
            self._waiting.pop(task, None)

    def _arm(self, when: float) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = self.loop.call_at(when, self._expire)
        self._armed_at = when

    def _expire(self) -> None:
        self._timer, self._armed_at = None, math.inf
        now = self.loop.time()
        late = [task for task, deadline in self._waiting.items() if deadline <= now]
        for task in late:
            del self._waiting[task]
            self._expired.add(task)
            task.cancel()
        if self._waiting:
            self._arm(min(self._waiting.values()))


class BodyReader:
    """Reads a request's whole body: over ``max_bytes`` (by Content-Length or while streaming) is a 413
    problem, not complete within ``timeout`` seconds a 408 problem; both close the connection. A client
    that disconnects mid-body is no error: its request's access line says so (status 499, at INFO).

    The endpoints that take a body (the REST operations and GraphQL) read it here, before they answer
    anything; a route that reads no body has nothing to bound (uvicorn stops reading a body nobody takes
    once its buffer is full). A middleware around every request would wrap each request's ``receive`` and
    ``send`` to learn the same (bench/README.md, "Counting instructions instead of seconds").
    """

    def __init__(self, max_bytes: int, timeout: float = BODY_TIMEOUT_SECONDS) -> None:
        self.max_bytes = max_bytes
        self.timeout = timeout
        self._deadlines: BodyDeadlines | None = None

    async def read(self, scope: Scope, receive: Receive, send: Send) -> bytes | None:
        """The whole body; None when the request has been answered here (413, 408) or its client left."""
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    too_large = int(value) > self.max_bytes
                except ValueError:
                    too_large = False
                if too_large:
                    await self._refuse(send, 413, "request/too-large", too_large_detail(self.max_bytes))
                    return None
        loop = asyncio.get_running_loop()
        deadlines = self._deadlines
        if deadlines is None or deadlines.loop is not loop:  # the first request, or another loop (tests)
            deadlines = self._deadlines = BodyDeadlines(loop)
        deadline = loop.time() + self.timeout
        chunks: list[bytes] = []
        received = 0
        while True:
            try:
                message = await deadlines.receive(deadline, receive)
            except BodyTimeoutError:
                await self._refuse(send, 408, "request/timeout", timeout_detail(self.timeout))
                return None
            if message["type"] == "http.request":
                chunk = message.get("body", b"")
                received += len(chunk)
                if received > self.max_bytes:
                    await self._refuse(send, 413, "request/too-large", too_large_detail(self.max_bytes))
                    return None
                chunks.append(chunk)
                if not message.get("more_body", False):
                    return chunks[0] if len(chunks) == 1 else b"".join(chunks)
            elif message["type"] == "http.disconnect":
                # not an error: the access line records it (status 499, at INFO), with no traceback
                request = current_request.get()
                if request is not None:
                    request.client_left()
                return None

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


def timeout_detail(seconds: float) -> str:
    """The detail of the 408 problem of a body that did not arrive within ``seconds``."""
    return f"The request body did not arrive within {seconds:g} seconds."


def too_large_detail(max_bytes: int) -> str:
    """The detail of the 413 problem of a body over ``max_bytes``."""
    return f"The request body is larger than {max_bytes} bytes."
