"""A real uvicorn server on the service's httptools protocol, its transport's writes recorded: an answer
leaves in one write (its head joined to its body), and nothing is held back or reordered (``HEAD``
answers, ``100 Continue``, pipelined requests, a connection that closes after its answer)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from typing import Any

import orjson
import pytest
import uvicorn

from sevens_rules.__main__ import server_options
from sevens_rules.api.app import create_app
from sevens_rules.api.limits import Settings
from sevens_rules.api.server import HeadTimeoutHttpToolsProtocol

WAIT_SECONDS = 30.0
"""How long a test waits for an answer (a bound for a busy machine)."""

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
    options = server_options(Settings(host="127.0.0.1", port=0))
    options.update(http=_RecordingProtocol, timeout_graceful_shutdown=1, log_config=None)
    instance = uvicorn.Server(uvicorn.Config(create_app(Settings()), **options))
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    started = threading.Event()
    for _ in range(int(WAIT_SECONDS * 100)):
        if instance.started:
            break
        started.wait(0.01)
    assert instance.started
    yield instance.servers[0].sockets[0].getsockname()[1]
    instance.should_exit = True
    thread.join(10)


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
    assert answer.startswith(b"HTTP/1.1 200 ")
    assert written == [interim, answer]


def test_pipelined_requests_are_answered_in_order_one_write_each(port: int) -> None:
    first = _post("/v1/games/sjuan/new", NEW, close=False)
    second = _post("/v1/games/fan-tan/new", NEW)
    answer = _exchange(port, first + second)
    assert len(written) == 2
    assert b"".join(written) == answer
    games = [orjson.loads(_head_and_body(write)[1])["state"]["game"] for write in written]
    assert games == ["sjuan", "fan-tan"]
