"""A real uvicorn server in a thread, on a free loopback port, for the tests that speak raw HTTP."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn

from sevens_rules.__main__ import server_options
from sevens_rules.api.limits import Settings

START_SECONDS = 30.0
"""How long to wait for the server to listen (a bound for a busy machine)."""


@contextmanager
def served(app: Any, **changes: Any) -> Iterator[tuple[uvicorn.Server, int]]:
    """``app`` on uvicorn with the service's server options, a one-second graceful shutdown, uvicorn's
    default logging, and ``changes`` (``http=``, ``log_level=``...); the server and its port. Stopped on
    exit, which must take no longer than its graceful shutdown allows."""
    options = server_options(Settings(host="127.0.0.1", port=0))
    options.update(timeout_graceful_shutdown=1, log_config=None)
    options.update(changes)
    instance = uvicorn.Server(uvicorn.Config(app, **options))
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    waiting = threading.Event()
    for _ in range(int(START_SECONDS * 100)):
        if instance.started:
            break
        waiting.wait(0.01)
    assert instance.started
    try:
        yield instance, instance.servers[0].sockets[0].getsockname()[1]
    finally:
        instance.should_exit = True
        thread.join(10)
    assert not thread.is_alive(), "the server did not stop after its graceful-shutdown timeout"
