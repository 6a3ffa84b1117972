"""A real uvicorn server on the service's httptools protocol, its transport's writes recorded: an answer
leaves in one write (its head joined to its body), and nothing is held back or reordered (``HEAD``
answers, ``100 Continue``, pipelined requests, a connection that closes after its answer); a kept-alive
connection is closed once idle for the keep-alive timeout."""

from __future__ import annotations

import contextlib
import gc
import socket
import threading
from collections.abc import Iterator
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sevens_rules.api.app import create_app
from sevens_rules.api.limits import Settings
from sevens_rules.api.server import JOINED_BODY_BYTES, HeadTimeoutHttpToolsProtocol
from tests.threaded_server import served

WAIT_SECONDS = 30.0
"""How long a test waits for an answer (a bound for a busy machine)."""
KEEP_ALIVE_SECONDS = 0.5
"""The test server's keep-alive timeout (short, so that the tests that wait for it are quick)."""

written: list[bytes] = []
"""What the server wrote to its connections' transports, one item per write, in order."""


class _RecordedTransport:
    """The connection's transport, every write recorded in :data:`written` before it is made."""

    def __init__(self, transport: Any) -> None:
        self._transport = transport

    def write(self, data: bytes) -> None:
        written.append(bytes(data))
        self._transport.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class _RecordingProtocol(HeadTimeoutHttpToolsProtocol):
    def connection_made(self, transport: Any) -> None:
        super().connection_made(_RecordedTransport(transport))  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    """The service on uvicorn with its options and the recording protocol, on a free loopback port."""
    app = create_app(Settings())
    with served(app, http=_RecordingProtocol, timeout_keep_alive=KEEP_ALIVE_SECONDS) as (_, port):
        yield port


def _exchange(port: int, *requests: bytes) -> bytes:
    """Send ``requests`` on one connection (the last one closes it) and read until the server closes."""
    written.clear()
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_SECONDS) as connection:
        for request in requests:
            connection.sendall(request)
        chunks = []
        while chunk := connection.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def _head_and_body(answer: bytes) -> tuple[bytes, bytes]:
    head, _, body = answer.partition(b"\r\n\r\n")
    return head, body


NEW = orjson.dumps({"players": 4})
"""The body of a ``sjuan/new`` request."""


def _post(path: str, body: bytes, *extra: bytes, close: bool = True) -> bytes:
    lines = [
        f"POST {path} HTTP/1.1".encode(),
        b"Host: x",
        b"Content-Type: application/json",
        f"Content-Length: {len(body)}".encode(),
        *extra,
        *([b"Connection: close"] if close else []),
    ]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


def test_an_answer_is_written_in_one_write(port: int) -> None:
    answer = _exchange(port, _post("/v1/games/sjuan/new", NEW))
    head, body = _head_and_body(answer)
    assert head.startswith(b"HTTP/1.1 200 ")
    assert orjson.loads(body)["state"]["game"] == "sjuan"
    assert written == [answer]


def test_a_large_answer_is_written_after_its_head(port: int) -> None:
    answer = _exchange(port, b"GET /openapi.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    head, body = _head_and_body(answer)
    assert head.startswith(b"HTTP/1.1 200 ")
    assert len(body) > JOINED_BODY_BYTES  # the whole contract
    assert orjson.loads(body)["openapi"].startswith("3.1")
    assert written == [head + b"\r\n\r\n", body]


def test_a_problem_answer_is_written_in_one_write(port: int) -> None:
    answer = _exchange(port, _post("/v1/games/sjuan/new", b"{"))
    assert answer.startswith(b"HTTP/1.1 422 ") or answer.startswith(b"HTTP/1.1 400 ")
    assert b'"code":' in answer
    assert written == [answer]


def test_a_head_request_gets_its_head_and_the_connection_goes_on(port: int) -> None:
    head_request = b"HEAD /v1/games HTTP/1.1\r\nHost: x\r\n\r\n"
    get_request = b"GET /v1/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    answer = _exchange(port, head_request, get_request)
    first_end = answer.index(b"\r\n\r\n") + 4
    first, second = answer[:first_end], answer[first_end:]
    assert first.startswith(b"HTTP/1.1 200 ")
    assert second.startswith(b"HTTP/1.1 200 ")
    assert orjson.loads(_head_and_body(second)[1])  # the games list, whole
    assert written == [first, second]


def test_a_hundred_continue_goes_out_before_the_answer(port: int) -> None:
    request = _post("/v1/games/sjuan/new", NEW, b"Expect: 100-continue")
    head, body = request[: -len(NEW)], NEW
    written.clear()
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_SECONDS) as connection:
        connection.sendall(head)
        interim = connection.recv(65536)
        assert interim == b"HTTP/1.1 100 Continue\r\n\r\n"  # asked for before the body is sent
        connection.sendall(body)
        chunks = []
        while chunk := connection.recv(65536):
            chunks.append(chunk)
    answer = b"".join(chunks)
    head, body = _head_and_body(answer)
    assert head.startswith(b"HTTP/1.1 200 ")
    assert orjson.loads(body)["state"]["game"] == "sjuan"
    # the interim answer first; then the answer as uvicorn writes it, head and body apart (the one
    # request kind whose first write is not its answer's head)
    assert written == [interim, head + b"\r\n\r\n", body]


def test_pipelined_requests_are_answered_in_order_one_write_each(port: int) -> None:
    first = _post("/v1/games/sjuan/new", NEW, close=False)
    second = _post("/v1/games/fan-tan/new", NEW)
    answer = _exchange(port, first + second)
    assert len(written) == 2
    assert b"".join(written) == answer
    games = [orjson.loads(_head_and_body(write)[1])["state"]["game"] for write in written]
    assert games == ["sjuan", "fan-tan"]


def _content_length(head: bytes) -> int:
    """The ``content-length`` of an answer's head."""
    lengths = [line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")]
    return int(lengths[0].split(b":", 1)[1])


def _read_answer(connection: socket.socket) -> bytes:
    """One whole answer with a ``content-length`` from ``connection``."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += connection.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = _content_length(head)
    while len(body) < length:
        body += connection.recv(65536)
    assert len(body) == length
    return head + b"\r\n\r\n" + body


def test_an_idle_kept_alive_connection_is_closed_after_the_keep_alive_timeout(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_SECONDS) as connection:
        connection.sendall(_post("/v1/games/sjuan/new", NEW, close=False))
        assert _read_answer(connection).startswith(b"HTTP/1.1 200 ")
        assert connection.recv(65536) == b""  # closed by the server, without another answer


def test_a_connection_answered_again_and_again_is_closed_once_idle(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_SECONDS) as connection:
        for _ in range(20):
            connection.sendall(_post("/v1/games/sjuan/new", NEW, close=False))
            assert _read_answer(connection).startswith(b"HTTP/1.1 200 ")
        assert connection.recv(65536) == b""


REQUEST_KINDS: dict[str, tuple[bytes, bytes]] = {
    "new": (_post("/v1/games/sjuan/new", NEW, close=False), b"200"),
    "bad json": (_post("/v1/games/sjuan/new", b"{", close=False), b"400"),
    "games": (b"GET /v1/games HTTP/1.1\r\nHost: x\r\n\r\n", b"200"),
    "head": (b"HEAD /v1/games HTTP/1.1\r\nHost: x\r\n\r\n", b"200"),
    "unknown game": (_post("/v1/games/chess/new", NEW, close=False), b"404"),
}
"""Requests sent on one kept-alive connection, and the status each is answered with."""
CLOSE = b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
"""The last request of a connection: the server answers it and closes."""


def _split_answers(received: bytes, heads_only: list[bool]) -> list[bytes]:
    """``received`` cut into its answers (``heads_only``: whether each answers a ``HEAD`` request, whose
    ``content-length`` announces a body that is not sent)."""
    answers = []
    for head_only in heads_only:
        end = received.index(b"\r\n\r\n") + 4
        lengths = [
            line for line in received[:end].split(b"\r\n") if line.lower().startswith(b"content-length:")
        ]
        if not head_only:
            end += int(lengths[0].split(b":", 1)[1])
        answers.append(received[:end])
        received = received[end:]
    assert received == b""
    return answers


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kinds=st.lists(st.sampled_from(sorted(REQUEST_KINDS)), min_size=1, max_size=6),
    cuts=st.lists(st.integers(min_value=1, max_value=4000), max_size=8),
)
def test_requests_in_any_split_are_answered_in_order_one_write_each(
    port: int, kinds: list[str], cuts: list[int]
) -> None:
    sent = b"".join(REQUEST_KINDS[kind][0] for kind in kinds) + CLOSE
    points = sorted({cut for cut in cuts if cut < len(sent)})
    chunks = [sent[start:end] for start, end in zip([0, *points], [*points, len(sent)], strict=True)]
    received = _exchange(port, *chunks)
    answers = _split_answers(received, [kind == "head" for kind in kinds] + [False])
    statuses = [answer.split(b" ", 2)[1] for answer in answers]
    assert statuses == [REQUEST_KINDS[kind][1] for kind in kinds] + [b"200"]
    assert written == answers


def test_answered_requests_leave_no_garbage_cycles(port: int) -> None:
    # a request's cycle and its transport are freed when answered, by reference counting: were they in a
    # reference cycle, each request would leave a dozen objects for the garbage collector
    requests = 200
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_SECONDS) as connection:
        connection.sendall(_post("/v1/games/sjuan/new", NEW, close=False))
        _read_answer(connection)
        gc.collect()
        gc.disable()
        try:
            for _ in range(requests):
                connection.sendall(_post("/v1/games/sjuan/new", NEW, close=False))
                assert _read_answer(connection).startswith(b"HTTP/1.1 200 ")
            left_for_the_collector = gc.collect()
        finally:
            gc.enable()
    assert left_for_the_collector < requests


def test_thousands_of_pipelined_requests_are_all_answered_in_order(port: int) -> None:
    """One connection sends 5,000 requests at once: every one is answered, in order; a request that waits
    behind the others costs the same however many wait before it (README, Limits)."""
    count = 5000
    requests = b"".join(f"GET /version?n={n} HTTP/1.1\r\nHost: x\r\n\r\n".encode() for n in range(count))
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_SECONDS) as connection:
        connection.sendall(requests + _post("/v1/games/sjuan/new", NEW))
        stream = connection.makefile("rb")
        answers = []
        for _ in range(count + 1):  # each answer: its head's lines, then content-length bytes of body
            head = b"".join(iter(stream.readline, b"\r\n"))
            answers.append((head, stream.read(_content_length(head))))
    assert all(head.startswith(b"HTTP/1.1 200 ") for head, _ in answers)
    assert all(orjson.loads(body)["version"] for _, body in answers[:count])
    assert orjson.loads(answers[-1][1])["state"]["game"] == "sjuan"  # the last request, answered last


def test_a_client_that_leaves_a_long_pipeline_unread_leaves_the_worker_serving(port: int) -> None:
    """A client sends thousands of pipelined requests and closes without reading: the requests it left
    are dropped, and the next client is answered."""
    requests = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n" * 5000
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_SECONDS) as connection:
        connection.sendall(requests)
    answer = _exchange(port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 200 ")


@pytest.mark.parametrize(
    "sent",
    [
        b"NOT A REQUEST\r\n\r\n",
        b"POST /v1/games/sjuan/new HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
        b"POST /v1/games/sjuan/new HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
        b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
    ],
    ids=["no-request-line", "negative-length", "two-lengths", "http2-preface"],
)
def test_bytes_that_are_not_http_are_answered_with_a_problem(port: int, sent: bytes) -> None:
    """A 400 problem with its machine-readable code (not the server library's plain text), then the
    connection is closed."""
    answer = _exchange(port, sent)
    head, body = _head_and_body(answer)
    assert head.startswith(b"HTTP/1.1 400 ")
    assert b"content-type: application/problem+json" in head.lower()
    assert head.lower().count(b"x-content-type-options: nosniff") == 1  # as every answer of the service
    problem = orjson.loads(body)
    assert (problem["status"], problem["code"]) == (400, "request/malformed-http")


@pytest.mark.parametrize(
    ("behind", "status"),
    [
        (b"GARBAGE\r\n\r\n", b"400"),
        (b"POST /v1/games/sjuan/new HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", b"400"),
        (b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (20 * 1024) + b"\r\n\r\n", b"431"),
    ],
    ids=["not-a-request", "negative-length", "head-too-large"],
)
def test_requests_pipelined_before_a_malformed_one_are_answered_first(
    port: int, behind: bytes, status: bytes
) -> None:
    """Pipelined requests are answered in order up to one that is refused (not HTTP, or a head over the
    limit): its 400 or 431 comes after their answers, as the connection's last."""
    first = _post("/v1/games/sjuan/new", NEW, close=False)
    second = _post("/v1/games/fan-tan/new", NEW, close=False)
    answer = _exchange(port, first + second + behind)
    answers = answer.split(b"HTTP/1.1 ")[1:]
    assert [part[:3] for part in answers] == [b"200", b"200", status], answer[:300]
    games = [orjson.loads(_head_and_body(b"HTTP/1.1 " + part)[1])["state"]["game"] for part in answers[:2]]
    assert games == ["sjuan", "fan-tan"]


class _AnswerClockProtocol(HeadTimeoutHttpToolsProtocol):
    """The service's protocol with a short answer clock, telling when it aborted a connection."""

    answer_timeout = 0.3
    aborted = threading.Event()

    def _answer_unread(self) -> None:
        super()._answer_unread()
        if self.transport.is_closing():
            _AnswerClockProtocol.aborted.set()


def test_a_client_that_does_not_read_its_answers_is_cut_off() -> None:
    """The client asks for the OpenAPI document (over a megabyte) three times on one connection and reads
    nothing: once the unsent bytes stop shrinking for the answer clock's time, the connection is aborted
    (uvicorn alone kept it, and every answer queued, for as long as the client liked)."""
    with served(create_app(Settings()), http=_AnswerClockProtocol) as (_, port):
        connection = socket.socket()
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        connection.settimeout(WAIT_SECONDS)
        with connection:
            connection.connect(("127.0.0.1", port))
            connection.sendall(b"GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n" * 3)
            assert _AnswerClockProtocol.aborted.wait(WAIT_SECONDS)
            received = 0  # what the kernel's buffers held at the abort, then the end
            with contextlib.suppress(ConnectionResetError):
                while chunk := connection.recv(1 << 20):
                    received += len(chunk)
        one = _exchange(port, b"GET /openapi.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert one.startswith(b"HTTP/1.1 200 ") and len(one) > 1_000_000
        assert received < 3 * len(one)  # the answers not yet in the kernel's buffers were dropped
