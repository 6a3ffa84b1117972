"""The servers the HTTP part loads: the service started the way the Dockerfile starts it (the console
script), and the ceiling on uvicorn with the same event loop and HTTP parser; what each worker really
runs on, and its resident memory."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
"""The repository root: the servers are started from here."""

PRODUCTION_LOOP = "uvloop"
PRODUCTION_HTTP = "httptools"
PRODUCTION_INSTALL = "pip install 'uvicorn[standard]'"


class BenchError(Exception):
    """The bench could not measure something (not a slow result: that is only reported)."""


@dataclass(frozen=True)
class Stack:
    """The event loop and HTTP parser a uvicorn worker runs on."""

    loop: str
    """``uvloop`` or ``asyncio``."""
    http: str
    """``httptools`` or ``h11``."""

    @property
    def is_production(self) -> bool:
        """Whether this is the stack the service is deployed on (``uvicorn[standard]``)."""
        return self.loop == PRODUCTION_LOOP and self.http == PRODUCTION_HTTP

    def __str__(self) -> str:
        return f"{self.loop} + {self.http}"


def installed_stack() -> Stack:
    """The stack uvicorn picks here (``auto`` takes uvloop and httptools when they are installed)."""
    loop = PRODUCTION_LOOP if importlib.util.find_spec(PRODUCTION_LOOP) else "asyncio"
    http = PRODUCTION_HTTP if importlib.util.find_spec(PRODUCTION_HTTP) else "h11"
    return Stack(loop, http)


def loaded_stack(pid: int) -> Stack:
    """The stack a running worker has loaded, read from its memory map (what it really runs on, not
    what it was asked to run on)."""
    maps = Path(f"/proc/{pid}/maps").read_text()
    loop = PRODUCTION_LOOP if f"/{PRODUCTION_LOOP}/" in maps else "asyncio"
    http = PRODUCTION_HTTP if f"/{PRODUCTION_HTTP}/" in maps else "h11"
    return Stack(loop, http)


@dataclass(frozen=True)
class Memory:
    """A process's resident memory, in KiB."""

    rss_kib: int
    """``VmRSS``: resident now."""
    peak_kib: int
    """``VmHWM``: the most it was ever resident."""

    def __str__(self) -> str:
        return f"{self.rss_kib / 1024:.1f} MiB resident (peak {self.peak_kib / 1024:.1f} MiB)"


def memory(pid: int) -> Memory:
    """``VmRSS`` and ``VmHWM`` of a process, from ``/proc/PID/status``."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            fields[name] = int(value.split()[0])
    return Memory(fields["VmRSS"], fields["VmHWM"])


def worker_pid(pid: int) -> int:
    """The process that serves requests: ``pid`` itself when uvicorn runs one worker in process, else
    its first child (the worker of a supervisor)."""
    children = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            children += [int(c) for c in (task / "children").read_text().split()]
    return min(children) if children else pid


@dataclass(frozen=True)
class Server:
    """A started server."""

    base_url: str
    pid: int
    """The serving worker's process id."""
    command: str
    """How it was started, for the report."""


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_listening(proc: subprocess.Popen[bytes], port: int, log_path: Path, seconds: float = 180) -> None:
    """Poll until the server accepts a connection; fail when it exits or after ``seconds`` (building the
    service's models and schema takes a few seconds, much longer on a crowded machine)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise BenchError(f"the server exited with {proc.returncode}:\n{log_path.read_text()[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise BenchError(f"the server did not listen on port {port}:\n{log_path.read_text()[-2000:]}")


@contextlib.contextmanager
def started(
    name: str, command: list[str], port: int, env: Mapping[str, str], shown: str, workdir: Path
) -> Iterator[Server]:
    """Run ``command`` (which listens on ``port``) until the block ends; its output goes to a log file."""
    log_path = workdir / f"{name}.log"
    with log_path.open("wb") as out:
        proc = subprocess.Popen(command, cwd=ROOT, env=dict(env), stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_listening(proc, port, log_path)
        yield Server(f"http://127.0.0.1:{port}", worker_pid(proc.pid), shown)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def service(workdir: Path, extra_env: Mapping[str, str]) -> contextlib.AbstractContextManager[Server]:
    """The service as the Dockerfile runs it (``sevens-rules``: ``python -m sevens_rules``), one worker,
    on a free loopback port; ``extra_env`` adds settings (seal keys)."""
    port = free_port()
    settings = {"HOST": "127.0.0.1", "PORT": str(port), "WEB_CONCURRENCY": "1", **extra_env}
    shown = " ".join(f"{k}={v}" for k, v in settings.items() if k not in extra_env)
    return started(
        "service",
        [sys.executable, "-m", "sevens_rules"],
        port,
        {**os.environ, **settings},
        f"{shown} python -m sevens_rules",
        workdir,
    )


def ceiling(workdir: Path, stack: Stack) -> contextlib.AbstractContextManager[Server]:
    """The ceiling app on uvicorn, one worker, no access log, with exactly ``stack``'s loop and parser."""
    port = free_port()
    args = [
        "bench.ceiling:app", "--host", "127.0.0.1", "--port", str(port), "--workers", "1",
        "--loop", stack.loop, "--http", stack.http, "--no-access-log", "--log-level", "warning",
    ]  # fmt: skip
    return started(
        "ceiling",
        [sys.executable, "-m", "uvicorn", *args],
        port,
        os.environ,
        f"uvicorn {' '.join(args)}",
        workdir,
    )
