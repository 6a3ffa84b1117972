"""The HTTP protocol the service is served with: uvicorn's, with a deadline and a size for request heads.

uvicorn closes idle keep-alive connections, but does not time a request head that arrives slowly (or
never), and with httptools does not bound its size. :class:`HeadDeadline` adds both; the body is timed by
:class:`~sevens_rules.api.limits.BodyReader`, so every phase of a request has a deadline. The
other server options (keep-alive, graceful shutdown) are in ``sevens_rules.__main__.server_options``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import struct
import sys
from collections import deque
from collections.abc import Callable
from typing import Any

from .context import mark_client_left
from .library_internals import HAS_HTTPTOOLS, H11Protocol
from .problems import PROBLEM_MEDIA_TYPE, dump, problem

logger = logging.getLogger("sevens_rules")

HEADER_TIMEOUT_SECONDS = 10.0
"""A request head (request line and headers) must be complete this many seconds after the connection
opens, or after its first byte on a kept-alive connection (whose idle time before that first byte is
uvicorn's keep-alive timeout); otherwise the connection is closed."""
MAX_HEAD_BYTES = 16 * 1024
"""The largest request head; a larger one is answered 431 and the connection closed."""
ANSWER_TIMEOUT_SECONDS = 10.0
"""An answer the client does not read: once the connection's unsent bytes pass the transport's high-water
mark, the bytes the client has not taken (the transport's and, on Linux, the kernel's send queue) must
shrink within this many seconds (and again within as many, until the transport's fall under its
low-water mark); otherwise the connection is aborted, its answer and the requests queued behind it
dropped."""

if sys.platform == "linux":
    import fcntl
    import termios

    def _kernel_unsent(fd: int) -> int:
        """Bytes the kernel holds for the socket ``fd`` that the peer has not acknowledged."""
        return int(struct.unpack("i", fcntl.ioctl(fd, termios.TIOCOUTQ, b"\0\0\0\0"))[0])

else:  # the transport's own buffer only

    def _kernel_unsent(fd: int) -> int:
        return 0


LINGER_SECONDS = 2.0
"""How long a connection refused with a 431 reads (and drops) what the client still sends before it is
closed (see :meth:`HeadDeadline._refuse_head`)."""


class HeadDeadline:
    """Mixin for uvicorn's HTTP protocols: a request head must arrive in time and within a size, and an
    answer must be read (:meth:`pause_writing`).

    uvicorn times an idle kept-alive connection, but its timer stops at the first byte of the next head,
    so a head sent a byte at a time (or a new connection that sends nothing) was never timed. The clock
    here starts when the connection opens, and again when a chunk leaves a head unfinished; it closes
    the connection if no request is running by then (a running request's body has its own deadline, in
    :class:`~sevens_rules.api.limits.BodyReader`). A head that arrives whole, the usual case,
    starts no clock at all.
    """

    header_timeout: float = HEADER_TIMEOUT_SECONDS
    max_head_bytes: int = MAX_HEAD_BYTES
    _head_deadline: asyncio.TimerHandle | None = None
    _head_bytes: int = 0
    """Bytes of the unfinished request head received so far."""
    _head_tail: bytes = b""
    """Its last bytes, where the blank line that ends a head may have begun."""
    _refused: bool = False
    """Whether the connection answered 431 and is reading out what the client still sends."""
    _last_answer: tuple[bytes, bool] | None = None
    """A 400 or 431 (and whether to linger after it) that waits for the requests pipelined before it to be
    answered; what arrives meanwhile is not read (see :meth:`_answer_after_earlier`)."""

    answer_timeout: float = ANSWER_TIMEOUT_SECONDS
    _answer_deadline: asyncio.TimerHandle | None = None
    _unsent_bytes: int = 0
    """The connection's unsent bytes when the answer clock last started."""

    # attributes of the uvicorn protocol this is mixed into
    cycle: Any
    flow: Any
    loop: asyncio.AbstractEventLoop
    transport: asyncio.Transport
    client: tuple[str, int] | None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Start the clock for the first request head."""
        super().connection_made(transport)  # type: ignore[misc]
        self._head_deadline = self.loop.call_later(self.header_timeout, self._head_timed_out)

    def data_received(self, data: bytes) -> None:
        """Refuse a head that will be too large before uvicorn reads it (a whole oversized head can
        arrive in one chunk, and would otherwise start a request); after uvicorn has read the chunk: stop
        the clock if a request now runs, otherwise count the unfinished head's bytes and start the clock
        if it is not running."""
        if self._refused or self._last_answer is not None:  # what still arrives is not a request
            return
        if not self._request_running():
            room = self.max_head_bytes - self._head_bytes
            if len(data) > room and _HEAD_END not in self._head_tail + data[: room + len(_HEAD_END)]:
                self._refuse_head()
                return
        super().data_received(data)  # type: ignore[misc]
        if self._request_running():
            self._head_bytes, self._head_tail = 0, b""
            if self._head_deadline is not None:
                self._disarm_head_deadline()
            if self.pipelined_head_too_large():
                self._refuse_head()
            return
        self._head_bytes += len(data)
        self._head_tail = (self._head_tail + data)[-len(_HEAD_END) :]
        if self._head_bytes > self.max_head_bytes:
            self._refuse_head()
            return
        if self._head_deadline is None:
            self._head_deadline = self.loop.call_later(self.header_timeout, self._head_timed_out)

    def pipelined_head_too_large(self) -> bool:
        """Whether the head of a request queued behind the running one, still arriving, is already over
        the limit (a protocol that reads pipelined requests only after answering has none)."""
        return False

    def _request_running(self) -> bool:
        return self.cycle is not None and not self.cycle.response_complete

    def _refuse_head(self) -> None:
        """Answer 431 and close: the head is larger than :attr:`max_head_bytes`.

        The 431 is the connection's last answer: after those of the requests pipelined before it when
        the protocol can wait for them (:meth:`_answer_after_earlier`); otherwise they are told the client
        left, so their answers are dropped and logged as 499s. It is followed by the end of the stream,
        and what the client still sends is read and
        dropped for :data:`LINGER_SECONDS` before the connection is closed: a socket closed with unread
        input is reset by the kernel, and the client, still sending the rest of its head, would see the
        reset instead of the end of the answer (and could lose the answer with it).
        """
        if self.transport.is_closing() or self._refused or self._last_answer is not None:
            return
        logger.info("closed a connection from %s: request head too large", _peer(self.client))
        if not self._answer_after_earlier(_HEAD_TOO_LARGE, linger=True):
            self._leave_unanswered()
            self._close_with(_HEAD_TOO_LARGE, linger=True)

    def send_400_response(self, msg: str) -> None:
        """A 400 problem (``request/malformed-http``) where uvicorn answers plain text, then close: what
        arrived is not HTTP/1.1 (a negative or doubled ``Content-Length``, an unknown method, bytes that
        are no request line, an HTTP/2 preface)."""
        if self.transport.is_closing() or self._last_answer is not None:
            return
        logger.info("closed a connection from %s: %s", _peer(self.client), msg)
        if not self._answer_after_earlier(_MALFORMED_HTTP, linger=False):
            self._leave_unanswered()
            self._close_with(_MALFORMED_HTTP, linger=False)

    def _answer_after_earlier(self, answer: bytes, linger: bool) -> bool:
        """Whether ``answer`` waits for the requests pipelined before it (a protocol that reads pipelined
        requests only after answering has none waiting)."""
        return False

    def _close_with(self, answer: bytes, linger: bool) -> None:
        """Write the connection's last ``answer`` and close it; with ``linger``, after reading out for
        :data:`LINGER_SECONDS` what the client still sends (see :meth:`_refuse_head`)."""
        self.transport.write(answer)
        if not linger or not self.transport.can_write_eof():
            self.transport.close()
            return
        self._refused = True
        self._disarm_head_deadline()
        self.transport.write_eof()
        self.flow.resume_reading()  # reading may be paused behind queued requests
        self.loop.call_later(LINGER_SECONDS, self.transport.close)

    def _leave_unanswered(self) -> None:
        """Mark every request not yet answered as disconnected (its answer is dropped) and its client as
        gone (logged as a 499)."""
        if self._request_running():
            self.cycle.disconnected = True
            self.cycle.message_event.set()
            mark_client_left(self.cycle.scope)

    def pause_writing(self) -> None:
        """The client reads more slowly than answers are written (uvicorn then holds the answer's writer):
        start the answer clock (see :data:`ANSWER_TIMEOUT_SECONDS`). uvicorn sets no such deadline, so a
        client that never read kept its connection and its unsent answers for good."""
        super().pause_writing()  # type: ignore[misc]
        if self._answer_deadline is None:
            self._unsent_bytes = self._untaken()
            self._answer_deadline = self.loop.call_later(self.answer_timeout, self._answer_unread)

    def _untaken(self) -> int:
        """The bytes written that the client has not taken: the transport's, and those of the kernel's
        send queue where the system tells (a kernel's queue on a fast link grows to megabytes, and the
        transport's buffer shrinks only once much of it has drained: a client reading steadily behind
        it would look stalled)."""
        unsent = self.transport.get_write_buffer_size()
        sock = self.transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError, ValueError):
                unsent += _kernel_unsent(sock.fileno())
        return unsent

    def resume_writing(self) -> None:
        """The client has read enough: stop the answer clock."""
        self._disarm_answer_deadline()
        super().resume_writing()  # type: ignore[misc]

    def _answer_unread(self) -> None:
        self._answer_deadline = None
        if self.transport.is_closing():
            return
        unsent = self._untaken()
        if unsent < self._unsent_bytes:  # read, slowly: look again later
            self._unsent_bytes = unsent
            self._answer_deadline = self.loop.call_later(self.answer_timeout, self._answer_unread)
            return
        logger.info("closed a connection from %s: its answer was not read in time", _peer(self.client))
        self.transport.abort()  # close() would wait to send what the client does not read

    def _disarm_answer_deadline(self) -> None:
        if self._answer_deadline is not None:
            self._answer_deadline.cancel()
            self._answer_deadline = None

    def connection_lost(self, exc: Exception | None) -> None:
        """Drop the clocks with the connection; every request still being answered is logged as a 499."""
        self._disarm_head_deadline()
        self._disarm_answer_deadline()
        self._leave_unanswered()
        super().connection_lost(exc)  # type: ignore[misc]

    def _disarm_head_deadline(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def _head_timed_out(self) -> None:
        self._head_deadline = None
        if self.transport.is_closing() or (self.cycle is not None and not self.cycle.response_complete):
            return
        logger.info("closed a connection from %s: no complete request head in time", _peer(self.client))
        self.transport.close()


def _closing_answer(status_line: str, code: str, detail: str) -> bytes:
    """The whole HTTP answer of a problem written by the protocol itself, before any request exists (an
    oversized head, bytes that are not HTTP), which closes the connection."""
    body = dump(problem(int(status_line.split()[0]), code, detail))
    head = (
        f"HTTP/1.1 {status_line}\r\n"
        f"content-type: {PROBLEM_MEDIA_TYPE}\r\nx-content-type-options: nosniff\r\n"  # as every answer says
        f"connection: close\r\ncontent-length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


JOINED_BODY_BYTES = 64 * 1024
"""The largest part of an answer's body written in one write with the head (see ``OneWriteAnswer``)."""

_HEAD_TOO_LARGE = _closing_answer(
    "431 Request Header Fields Too Large",
    "request/head-too-large",
    f"The request head is larger than {MAX_HEAD_BYTES} bytes.",
)
_MALFORMED_HTTP = _closing_answer(
    "400 Bad Request", "request/malformed-http", "The request is not valid HTTP/1.1."
)
_HEAD_END = b"\r\n\r\n"


class HeadTimeoutH11Protocol(HeadDeadline, H11Protocol):
    """uvicorn's pure-Python HTTP/1.1 protocol (h11) with the request-head deadline."""


def _peer(client: tuple[str, int] | None) -> str:
    return f"{client[0]}:{client[1]}" if client else "a client"


if HAS_HTTPTOOLS:
    from .library_internals import HttpToolsProtocol

    class HeadTimeoutHttpToolsProtocol(HeadDeadline, HttpToolsProtocol):
        """uvicorn's httptools protocol (the fast one ``uvicorn[standard]`` picks) with the head deadline,
        the head size checked on every request of a pipeline, and every unanswered request of a
        connection told when the client leaves.

        :meth:`HeadDeadline.data_received` measures a head that arrives while no request runs, before
        httptools reads it. A pipelined head (one that arrives behind a request not yet answered) is
        measured here instead, from what httptools parsed of it: when it is complete
        (:meth:`on_headers_complete`) and, while it is still arriving, after each chunk
        (:meth:`pipelined_head_too_large`). A request that is not pipelined pays for neither.

        uvicorn marks only its latest request as disconnected when a connection is lost; with pipelined
        requests that is the last one queued, and the one running went on writing to the closed
        transport (a RuntimeError and two ERROR tracebacks). Here every request not yet answered is
        marked disconnected, so its answer is dropped, and logged as a 499 (:func:`mark_client_left`).
        """

        _earlier_cycles: deque[Any] | None = None
        """The requests a pipelined request was queued behind, oldest first, until they are answered
        (uvicorn's ``cycle`` is the latest request only). Requests are answered in order, so the answered
        ones are dropped from the front: a head costs the same however many wait before it (a pass over
        all of them for every head made a pipeline of n requests cost n squared)."""
        _head_too_large: bool = False
        _idle_since: float = 0.0
        """When the connection's last answer was complete (the event loop's clock)."""
        _keep_alive_check: asyncio.TimerHandle | None = None

        def on_response_complete(self) -> None:
            """uvicorn's, with a cheaper keep-alive clock: start the next pipelined request, or note when
            the connection became idle.

            uvicorn arms a timer after every answer and cancels it when the next request's bytes arrive,
            so a kept-alive connection pays for both on every request. Here a connection has one check
            (:meth:`_check_keep_alive`), armed after an answer only when none is pending, which closes the
            connection once it has been idle for uvicorn's ``timeout_keep_alive`` and otherwise looks
            again when that time would be up.
            """
            self.server_state.total_requests += 1
            if self.transport.is_closing():
                return
            self.flow.resume_reading()
            if self.pipeline:
                cycle, app = self.pipeline.pop()
                self._start_asgi_task(cycle, app)
                return
            if self._last_answer is not None:  # every request before it is answered
                answer, linger = self._last_answer
                self._last_answer = None
                self._refused = True  # (until it closes, what arrives is still not read)
                self._close_with(answer, linger)
                return
            self._idle_since = self.loop.time()
            if self._keep_alive_check is None:
                self._keep_alive_check = self.loop.call_later(self.timeout_keep_alive, self._check_keep_alive)

        def _check_keep_alive(self) -> None:
            """Close the connection if it has been idle for the keep-alive timeout; look again when it would
            be if it is idle for less; nothing while a request is arriving or being answered (the next
            answer arms the check again; a head still arriving has its own deadline)."""
            self._keep_alive_check = None
            cycle = self.cycle
            # idle: the last request is answered and no other has begun (uvicorn gives a request its own
            # scope when its first bytes are parsed)
            idle = cycle is not None and cycle.response_complete and self.scope is cycle.scope
            if self.transport.is_closing() or not idle or self.pipeline:
                return
            left = self._idle_since + self.timeout_keep_alive - self.loop.time()
            if left > 0:
                self._keep_alive_check = self.loop.call_later(left, self._check_keep_alive)
            else:
                self.timeout_keep_alive_handler()

        def connection_lost(self, exc: Exception | None) -> None:
            """Drop the keep-alive check with the connection."""
            if self._keep_alive_check is not None:
                self._keep_alive_check.cancel()
                self._keep_alive_check = None
            super().connection_lost(exc)

        def on_headers_complete(self) -> None:
            """Refuse a pipelined head over the limit; start or queue the request as uvicorn does, its
            answer written through :class:`OneWriteAnswer`."""
            earlier = self.cycle
            if earlier is None or earlier.response_complete:  # not pipelined: measured on arrival
                super().on_headers_complete()
            else:
                if _head_size(self.url, self.headers) > self.max_head_bytes:
                    # raised inside httptools' callback: uvicorn stops parsing and calls send_400_response
                    self._head_too_large = True
                    raise HeadTooLargeError
                super().on_headers_complete()
                waiting = self._earlier_cycles
                if waiting is None:
                    waiting = self._earlier_cycles = deque()
                while waiting and waiting[0].response_complete:
                    waiting.popleft()
                waiting.append(earlier)
            if self.cycle is not earlier:  # a request began (an upgrade request begins none)
                OneWriteAnswer.install(self.cycle)

        def pipelined_head_too_large(self) -> bool:
            """Whether a request that began behind the running one has an unfinished head over the limit
            (uvicorn gives each request its own scope when it begins, and hands it to the request's cycle
            when its head is complete)."""
            return (
                self.scope is not self.cycle.scope
                and _head_size(self.url, self.headers) > self.max_head_bytes
            )

        def _answer_after_earlier(self, answer: bytes, linger: bool) -> bool:
            """Keep ``answer`` (a 400 or 431 of a request pipelined behind others) until the requests
            before it are answered, in order, when each of them has its whole body; otherwise (a request
            whose body was still arriving cannot end) answer it now."""
            unanswered = [
                cycle
                for cycle in (*(self._earlier_cycles or ()), self.cycle)
                if cycle is not None and not cycle.response_complete
            ]
            if not unanswered or any(cycle.more_body for cycle in unanswered):
                return False
            self._last_answer = (answer, linger)
            self._disarm_head_deadline()
            return True

        def send_400_response(self, msg: str) -> None:
            """The 431 problem when the head was too large; uvicorn's 400 otherwise."""
            if self._head_too_large:
                self._refuse_head()
                return
            super().send_400_response(msg)

        def _leave_unanswered(self) -> None:
            """Every request not yet answered, the ones queued behind the latest included (uvicorn marks
            only its latest one when the connection is lost)."""
            for cycle in self._earlier_cycles or ():
                if not cycle.response_complete:
                    cycle.disconnected = True
                    cycle.message_event.set()
                    mark_client_left(cycle.scope)
            self._earlier_cycles = None
            super()._leave_unanswered()

    class OneWriteAnswer:
        """The transport as one request's cycle writes its answer through: the answer's head (status line
        and headers) is held and written together with the first part of its body.

        uvicorn writes the head when the app sends ``http.response.start`` and the body when it sends
        ``http.response.body``: two writes, so two ``send`` calls and usually two TCP segments for every
        answer, each of which may wake the client. Joined, an answer of one body message (every
        answer of this service) is one write. What is written, and in what order, is unchanged; a head is
        never held past the end of its answer (an answer with no body written, such as one to a ``HEAD``
        request, writes it when it completes) or past a close. A body part over :data:`JOINED_BODY_BYTES`
        is written after the head rather than copied behind it: for a large answer the extra write costs
        little next to the copy.

        The cycle's first write is its answer's head, except for a request that asks for ``100 Continue``
        (uvicorn writes the interim answer first, when the app reads the body): such a request keeps
        uvicorn's own writes. The instance holds no reference to its cycle, so a cycle and its transport
        are freed together when the cycle is, without waiting for the garbage collector.
        """

        __slots__ = ("_completed", "_head", "_head_seen", "_transport")

        def __init__(self, transport: asyncio.Transport, completed: Callable[[], None]) -> None:
            self._transport = transport
            self._completed = completed
            self._head: bytes | None = None
            self._head_seen = False

        @classmethod
        def install(cls, cycle: Any) -> None:
            """Route ``cycle``'s writes and its completion through a new instance (unless its request asks
            for ``100 Continue``)."""
            if cycle.waiting_for_100_continue:
                return
            joined = cls(cycle.transport, cycle.on_response)
            cycle.transport = joined
            cycle.on_response = joined.completed

        def write(self, data: bytes) -> None:
            """Hold the answer's head; write anything else, after the held head if there is one."""
            if self._head is not None:
                if len(data) > JOINED_BODY_BYTES:
                    self.flush()
                else:
                    data, self._head = self._head + data, None
            elif not self._head_seen:  # the first write: the answer's head
                self._head, self._head_seen = data, True
                return
            self._transport.write(data)

        def flush(self) -> None:
            """Write the held head, if any."""
            if self._head is not None:
                head, self._head = self._head, None
                self._transport.write(head)

        def completed(self) -> None:
            """The answer is whole: write what is held, then let uvicorn go on with the connection."""
            self.flush()
            self._completed()

        def close(self) -> None:
            """Write what is held, then close the connection."""
            self.flush()
            self._transport.close()

        def is_closing(self) -> bool:
            """Whether the connection is closing."""
            return self._transport.is_closing()

    class HeadTooLargeError(Exception):
        """A pipelined request head is larger than :data:`MAX_HEAD_BYTES`."""

    def _head_size(url: bytes, headers: list[tuple[bytes, bytes]]) -> int:
        """The size of a request head as httptools parsed it: the target and every header line."""
        return len(url) + sum(len(name) + len(value) + 4 for name, value in headers)

    HTTP_PROTOCOL: type[asyncio.Protocol] = HeadTimeoutHttpToolsProtocol
else:  # pragma: no cover -- httptools has no build for this platform
    HTTP_PROTOCOL = HeadTimeoutH11Protocol
"""The HTTP protocol the service runs: httptools when installed, else h11, with the head deadline."""
