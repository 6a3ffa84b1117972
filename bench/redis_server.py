"""A real Redis for the tests and the bench: Debian's ``redis-server`` started on a free port (``.ci/run``
installs it)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def redis_server(directory: Path) -> Iterator[RedisProcess]:
    """A redis-server without persistence on a free port, stopped on leaving."""
    server = RedisProcess(directory)
    server.start()
    try:
        yield server
    finally:
        server.stop()


class RedisProcess:
    """One redis-server process that can be stopped and started again on the same port."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.port = free_port()
        self.process: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        """Its URL, database 0."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start it and return once it accepts connections (it says so on its standard output)."""
        command = [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        command += ["--appendonly", "no", "--dir", str(self.directory), "--loglevel", "notice"]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if "Ready to accept connections" in line:
                # the rest of its log is read (and dropped) so that a full pipe never stalls it
                threading.Thread(target=self.process.stdout.read, daemon=True).start()
                return
        raise RuntimeError(f"redis-server stopped before it was ready (exit {self.process.wait()})")

    def stop(self) -> None:
        """Stop it and wait for it to exit."""
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=30)
            self.process = None
