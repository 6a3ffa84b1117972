"""Load from outside with wrk: POSTs of one body, requests per second and latency percentiles."""

from __future__ import annotations

import re
import statistics
import subprocess
from dataclasses import dataclass
from pathlib import Path

from bench.servers import BenchError

WRK_INSTALL = "apt-get install -y wrk"

LATENCY_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}
"""wrk's latency units, in milliseconds."""


@dataclass(frozen=True)
class WrkResult:
    """One wrk run (or several of equal length combined)."""

    requests_per_second: float
    requests: int
    bad: int
    """Non-2xx responses plus socket errors: a run with any is not a valid measurement."""
    p50_ms: float
    p99_ms: float


def lua_long_string(text: str) -> str:
    """``text`` as a Lua long-bracket string literal."""
    level = 0
    while f"]{'=' * level}]" in text:
        level += 1
    eq = "=" * level
    return f"[{eq}[{text}]{eq}]"


def percentile_ms(out: str, percent: int) -> float:
    """One line of wrk's ``Latency Distribution`` (``--latency``), in milliseconds."""
    found = re.search(rf"^\s+{percent}%\s+([\d.]+)(us|ms|s|m)\s*$", out, re.MULTILINE)
    if found is None:
        raise BenchError(f"wrk printed no {percent}% latency:\n{out}")
    return float(found.group(1)) * LATENCY_UNITS[found.group(2)]


def run_wrk(url: str, body: bytes, seconds: int, connections: int, threads: int, workdir: Path) -> WrkResult:
    """Load ``url`` with POSTs of ``body`` for ``seconds``; parse wrk's summary."""
    script = workdir / "post.lua"
    script.write_text(
        'wrk.method = "POST"\n'
        'wrk.headers["Content-Type"] = "application/json"\n'
        f"wrk.body = {lua_long_string(body.decode())}\n"
    )
    command = [
        "wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s", "--latency",
        "-s", str(script), url,
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60, check=False)
    out = done.stdout
    rate = re.search(r"Requests/sec:\s+([\d.]+)", out)
    total = re.search(r"(\d+) requests in", out)
    if done.returncode != 0 or rate is None or total is None:
        raise BenchError(f"wrk failed ({done.returncode}):\n{out}\n{done.stderr}")
    bad = 0
    non_2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    if non_2xx:
        bad += int(non_2xx.group(1))
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    if errors:
        bad += sum(int(n) for n in errors.groups())
    return WrkResult(
        float(rate.group(1)), int(total.group(1)), bad, percentile_ms(out, 50), percentile_ms(out, 99)
    )


def combine(runs: list[WrkResult]) -> WrkResult:
    """Runs of equal length as one: mean rate and mean percentiles, summed counts."""
    return WrkResult(
        statistics.fmean(r.requests_per_second for r in runs),
        sum(r.requests for r in runs),
        sum(r.bad for r in runs),
        statistics.fmean(r.p50_ms for r in runs),
        statistics.fmean(r.p99_ms for r in runs),
    )
