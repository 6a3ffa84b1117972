"""A real uvicorn server and raw sockets: a client that leaves is a 499 at INFO, never an ERROR traceback,
and a request head over 16 KiB is a 431 however it is written."""

from __future__ import annotations

import logging
import re
import socket
import struct
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from sevens_rules.api.app import create_app
from sevens_rules.api.limits import Settings
from sevens_rules.api.server import MAX_HEAD_BYTES, HeadTimeoutH11Protocol, HeadTimeoutHttpToolsProtocol
from tests.threaded_server import served

WAIT_SECONDS = 30.0
"""How long a test waits for the server to log what it expects (a bound for a busy machine)."""


ANSWERED = threading.Event()
"""Set by the test servers each time they have handed a whole answer to the transport."""


class _SmallBuffersHttpTools(HeadTimeoutHttpToolsProtocol):
    """A small kernel send buffer, so that an answer the client does not read stays in the server."""

    def connection_made(self, transport: Any) -> None:
        transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        super().connection_made(transport)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        ANSWERED.set()


class _SmallBuffersH11(HeadTimeoutH11Protocol):
    """:class:`_SmallBuffersHttpTools` on h11."""

    def connection_made(self, transport: Any) -> None:
        transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        super().connection_made(transport)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        ANSWERED.set()


@pytest.fixture(scope="module", params=[_SmallBuffersHttpTools, _SmallBuffersH11], ids=["httptools", "h11"])
def server(request: pytest.FixtureRequest) -> Iterator[tuple[type, int]]:
    """The service on uvicorn with its options, on a free loopback port, on each HTTP protocol."""
    with served(create_app(Settings()), http=request.param, log_level="info") as (_, port):
        yield request.param, port


def _read_all(connection: socket.socket) -> bytes:
    chunks = []
    while chunk := connection.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


HEAD = b"GET /v1/games HTTP/1.1\r\nHost: x\r\n"


def test_a_large_head_in_one_write_is_a_431(server: tuple[type, int]) -> None:
    with socket.create_connection(("127.0.0.1", server[1]), timeout=WAIT_SECONDS) as connection:
        connection.sendall(HEAD + b"X-Padding: " + b"a" * 120_000 + b"\r\n\r\n")
        answer = _read_all(connection)
    assert answer.startswith(b"HTTP/1.1 431")
    assert b'"code":"request/head-too-large"' in answer


def test_a_head_just_under_the_limit_is_answered(server: tuple[type, int]) -> None:
    padding = MAX_HEAD_BYTES - len(HEAD) - 200
    with socket.create_connection(("127.0.0.1", server[1]), timeout=WAIT_SECONDS) as connection:
        connection.sendall(HEAD + b"X-Padding: " + b"a" * padding + b"\r\nConnection: close\r\n\r\n")
        assert _read_all(connection).startswith(b"HTTP/1.1 200")


def test_a_large_head_after_a_pipelined_request_is_a_431(server: tuple[type, int]) -> None:
    if issubclass(server[0], HeadTimeoutH11Protocol):
        pytest.skip("h11 reads a pipelined request only after answering the one before")
    with socket.create_connection(("127.0.0.1", server[1]), timeout=WAIT_SECONDS) as connection:
        connection.sendall(HEAD + b"\r\n" + HEAD + b"X-Padding: " + b"a" * 120_000 + b"\r\n\r\n")
        answer = _read_all(connection)
    # The large head is refused as soon as it is read. Whether the first request was answered before that
    # depends on how the kernel split the write, so the first answer may or may not precede the 431; the
    # 431 is always the last answer, and nothing follows it (the connection closes).
    statuses = re.findall(rb"HTTP/1\.1 (\d{3}) ", answer)
    assert statuses in ([b"431"], [b"200", b"431"])
    assert answer.rindex(b"HTTP/1.1 431") < answer.index(b'"code":"request/head-too-large"')


def test_an_unfinished_large_head_after_a_pipelined_request_is_a_431(server: tuple[type, int]) -> None:
    if issubclass(server[0], HeadTimeoutH11Protocol):
        pytest.skip("h11 reads a pipelined request only after answering the one before")
    with socket.create_connection(("127.0.0.1", server[1]), timeout=WAIT_SECONDS) as connection:
        # the second head, 2,000 header lines, never ends: it is refused while it is still arriving, not
        # at the head deadline
        connection.sendall(HEAD + b"\r\n" + HEAD + b"X-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n" * 2000)
        answer = _read_all(connection)
    statuses = re.findall(rb"HTTP/1\.1 (\d{3}) ", answer)
    assert statuses in ([b"431"], [b"200", b"431"])
    assert b'"code":"request/head-too-large"' in answer


def test_a_client_that_pipelines_and_leaves_is_a_499_not_an_error(
    server: tuple[type, int], caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO):
        connection = socket.socket()
        connection.settimeout(WAIT_SECONDS)
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # the server's writes back up
        connection.connect(("127.0.0.1", server[1]))
        ANSWERED.clear()
        connection.sendall(b"GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n" * 200)
        assert connection.recv(1) == b"H"  # the first answer is being written
        # Leave once the server has handed the whole first answer to its transport and so started the
        # second request: a reset that arrived earlier would find the first answer still being written, and
        # uvicorn would start none of the queued ones (nothing left running to log as a 499).
        assert ANSWERED.wait(WAIT_SECONDS)
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        connection.close()  # a reset, unread answers and all
        waited = threading.Event()
        for _ in range(int(WAIT_SECONDS * 20)):
            if any(_status(record) == 499 for record in caplog.records):
                break
            waited.wait(0.05)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    left = [record for record in caplog.records if _status(record) == 499]
    assert left and all(record.levelno == logging.INFO and record.exc_info is None for record in left)


def _status(record: logging.LogRecord) -> int | None:
    fields = getattr(record, "fields", None)
    return fields.get("status") if isinstance(fields, dict) and record.name == "sevens_rules.access" else None
