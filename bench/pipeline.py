"""``python -m bench.pipeline [--bytes N] [--seconds S]``: one client pipelines ``N`` bytes of
``GET /healthz`` on one connection and reads the answers, while the attacks' probe sends one REST
``sjuan/new`` every 100 ms, against the service started as README says (one worker); prints a table row
(bench/README.md, "Attacks").

A pipelined request waits behind the ones before it on its connection; what this measures is whether
waiting costs the worker more the more requests wait (it did: every pipelined head walked every request
still unanswered before it, a pipeline of n requests costing n squared, and 1 MB of them held the worker
for tens of seconds)."""

from __future__ import annotations

import argparse
import socket
import statistics
import tempfile
import threading
from pathlib import Path

from bench import servers
from bench.attacks import _probe

REQUEST = b"GET /healthz HTTP/1.1\r\nHost: bench\r\n\r\n"


def _pipeline(port: int, count: int, answered: list[int]) -> None:
    """Send ``count`` requests at once on one connection, then read until every answer has come."""
    with socket.create_connection(("127.0.0.1", port), timeout=60) as connection:
        connection.sendall(REQUEST * count)
        stream = connection.makefile("rb")
        while answered[0] < count:
            head = b"".join(iter(stream.readline, b"\r\n"))
            if not head:
                return
            length = next(
                int(line.split(b":", 1)[1])
                for line in head.split(b"\r\n")
                if line.lower().startswith(b"content-length:")
            )
            stream.read(length)
            answered[0] += 1


def run(size: int, seconds: float) -> str:
    """The table's header and row: the pipeline's requests and answers, and the probe's latencies."""
    count = size // len(REQUEST)
    with tempfile.TemporaryDirectory() as workdir, servers.service(Path(workdir), {}) as server:
        port = int(server.base_url.rsplit(":", 1)[1])
        stop = threading.Event()
        latencies: list[float] = []
        failures: list[str] = []
        answered = [0]
        probe = threading.Thread(target=_probe, args=(port, stop, latencies, failures))
        client = threading.Thread(target=_pipeline, args=(port, count, answered))
        probe.start()
        client.start()
        client.join(seconds)
        stop.set()
        probe.join()
    ordered = sorted(latencies)
    return "\n".join(
        (
            "| pipelined requests (bytes) | answered | probe p50 ms | probe max ms | failed probes |",
            "| --- | --- | --- | --- | --- |",
            f"| {count} ({size}) | {answered[0]} | {statistics.median(ordered) * 1000:.1f} | "
            f"{ordered[-1] * 1000:.1f} | {len(failures)} |",
        )
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pipeline", description=__doc__.split("\n\n")[0])
    parser.add_argument("--bytes", type=int, default=1_000_000, help="of pipelined requests (default 1 MB)")
    parser.add_argument("--seconds", type=float, default=60.0, help="at most, for every answer (default 60)")
    args = parser.parse_args(argv)
    print(run(args.bytes, args.seconds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
