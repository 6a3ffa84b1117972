"""The console script: settings from the environment, the fast stack, and one real multi-worker run."""

from __future__ import annotations

import base64
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from sevens_rules import __version__
from sevens_rules.__main__ import healthcheck, main, prepare_metrics_dir, server_options, startup_fields
from sevens_rules.api.limits import LOG_LEVELS, Settings, SettingsError
from sevens_rules.api.logs import STARTUP_LOGGER, log_config
from sevens_rules.api.sealing import Keyring
from tests.output_lines import OutputLines

STARTUP_DEADLINE_SECONDS = 180  # a bound for a busy machine, not a speed requirement
WORKERS = 2


def test_server_options_use_uvloop_and_httptools() -> None:
    options = server_options(Settings())
    assert options["loop"] == "uvloop"
    assert issubclass(options["http"], HttpToolsProtocol)  # with the request-head deadline
    assert options["proxy_headers"] is False  # no X-Forwarded-* layer: the app reads no client address


def test_server_options_follow_the_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEB_CONCURRENCY", "4")
    monkeypatch.setenv("PORT", "9001")
    monkeypatch.setenv("HOST", "0.0.0.0")
    monkeypatch.setenv("RULES_KEEP_ALIVE_SECONDS", "7")
    monkeypatch.setenv("RULES_GRACEFUL_SHUTDOWN_SECONDS", "12")
    monkeypatch.setenv("RULES_WORKER_HEALTHCHECK_SECONDS", "40")
    monkeypatch.setenv("RULES_LOG_LEVEL", "INFO")
    options = server_options(Settings.from_env())
    assert options["workers"] == 4
    assert (options["host"], options["port"]) == ("0.0.0.0", 9001)
    assert options["timeout_keep_alive"] == 7
    assert options["timeout_graceful_shutdown"] == 12
    assert options["timeout_worker_healthcheck"] == 40
    assert options["log_level"] == "info"
    assert options["access_log"] is False


def test_graceful_shutdown_is_bounded_by_default() -> None:
    assert server_options(Settings())["timeout_graceful_shutdown"] == 20


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("WEB_CONCURRENCY", "0"),
        ("WEB_CONCURRENCY", "65"),
        ("WEB_CONCURRENCY", "two"),
        ("PORT", "70000"),
        ("RULES_GRACEFUL_SHUTDOWN_SECONDS", "-1"),
        ("RULES_KEEP_ALIVE_SECONDS", "0"),
        ("RULES_LOG_LEVEL", "loud"),
    ],
)
def test_a_bad_variable_stops_the_script(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str, value: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError):
        Settings.from_env()
    assert main([]) == 2
    assert name in capsys.readouterr().err


def test_malformed_seal_keys_stop_the_script(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("RULES_SEAL_KEYS", "k1:tooshort")
    assert main([]) == 2
    assert "RULES_SEAL_KEYS: key 'k1' must be 32 bytes" in capsys.readouterr().err


def test_the_startup_line_shows_unless_the_level_is_error_or_above() -> None:
    levels = {level: log_config(level)["loggers"][STARTUP_LOGGER]["level"] for level in LOG_LEVELS}
    assert levels == {
        "debug": "INFO",
        "info": "INFO",
        "warning": "INFO",
        "error": "ERROR",
        "critical": "CRITICAL",
    }


def test_an_unknown_argument_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve-forever"]) == 2
    assert "usage" in capsys.readouterr().err


def test_the_metrics_dir_is_cleared_of_the_last_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    directory = tmp_path / "metrics"
    directory.mkdir()
    (directory / "counter_123.db").write_bytes(b"stale")
    (directory / "keep.txt").write_text("not ours")
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(directory))
    prepare_metrics_dir(2)
    assert sorted(p.name for p in directory.iterdir()) == ["keep.txt"]


def test_several_workers_get_a_metrics_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PROMETHEUS_MULTIPROC_DIR", raising=False)
    prepare_metrics_dir(1)
    assert "PROMETHEUS_MULTIPROC_DIR" not in os.environ
    prepare_metrics_dir(2)
    assert Path(os.environ["PROMETHEUS_MULTIPROC_DIR"]).is_dir()


def test_healthcheck_fails_when_nothing_listens() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # bound but not listening: the connection is refused
        assert healthcheck("0.0.0.0", port) == 1


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Server(OutputLines):
    """``python -m sevens_rules`` (or ``command``) in a subprocess, with its stderr read line by line."""

    def __init__(self, env: dict[str, str], command: list[str] | None = None) -> None:
        self.process = subprocess.Popen(
            command or [sys.executable, "-m", "sevens_rules"],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        super().__init__(self.process.stderr, STARTUP_DEADLINE_SECONDS)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, int]]:
    port = _free_port()
    env = {
        **os.environ,
        "PORT": str(port),
        "WEB_CONCURRENCY": str(WORKERS),
        "RULES_LOG_LEVEL": "info",
        "PROMETHEUS_MULTIPROC_DIR": str(tmp_path_factory.mktemp("metrics")),
        "RULES_COMMIT": "feedface",
    }
    running = Server(env)
    try:
        running.wait_for(r"Application startup complete", WORKERS)
        yield running, port
    finally:
        if running.process.poll() is None:
            running.process.kill()
            running.process.wait()


def _get(port: int, path: str, request_id: str | None = None) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path, headers={"X-Request-ID": request_id} if request_id else {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()  # a new connection per request, so both workers take some


def test_the_documented_server_answers_probes_and_version(server: tuple[Server, int]) -> None:
    _, port = server
    assert _get(port, "/healthz")[0] == 200
    assert _get(port, "/readyz")[0] == 200
    status, _, body = _get(port, "/version")
    assert status == 200
    assert json.loads(body)["commit"] == "feedface"
    assert healthcheck("0.0.0.0", port) == 0


def test_the_supervisor_logs_one_startup_line_for_every_worker(
    server: tuple[Server, int], tmp_path_factory: pytest.TempPathFactory
) -> None:
    running, port = server
    (line,) = running.wait_for(rf'"logger":"{STARTUP_LOGGER}"')
    entry = json.loads(line.string)
    assert entry["address"] == f"http://127.0.0.1:{port}"
    assert entry["workers"] == WORKERS
    assert entry["commit"] == "feedface"
    assert entry["stores"]["metrics"].startswith("directory ")  # the workers' shared metrics directory
    running.drain()
    assert len([seen for seen in running.seen if STARTUP_LOGGER in seen]) == 1


def test_the_workers_run_uvloop_and_httptools(server: tuple[Server, int]) -> None:
    running, _ = server
    pids = [int(m.group(1)) for m in running.wait_for(r"Started server process \[(\d+)\]", WORKERS)]
    for pid in pids:
        maps = Path(f"/proc/{pid}/maps")
        if not maps.exists():
            pytest.skip("no /proc to read the loaded libraries from")
        loaded = maps.read_text()
        assert re.search(r"/uvloop/loop\.cpython", loaded), pid
        assert re.search(r"/httptools/parser/parser\.cpython", loaded), pid


def _version_requests_counted(port: int) -> float:
    """``GET /version`` requests answered 200, as ``/metrics`` counts them (0 before the first)."""
    _, _, exposition = _get(port, "/metrics")
    pattern = r'sevens_rules_requests_total\{code="",operation="/version",status="200"\} (\S+)'
    match = re.search(pattern, exposition.decode())
    return float(match.group(1)) if match is not None else 0.0


def test_metrics_sum_every_worker_and_requests_are_logged(server: tuple[Server, int]) -> None:
    running, port = server
    # counted before: another test of this module may have asked for /version on this server already
    # (or not: with pytest-xdist it may have run in another process, on a server of its own)
    before = _version_requests_counted(port)
    sent = [f"multi-{i}" for i in range(12)]
    for request_id in sent:
        status, headers, _ = _get(port, "/version", request_id)
        assert status == 200
        assert headers["x-request-id"] == request_id
    lines = running.wait_for(r'"request_id":"multi-\d+"', len(sent))
    entries = [json.loads(m.string) for m in lines]
    assert sorted(e["request_id"] for e in entries) == sorted(sent)
    assert {(e["method"], e["route"], e["status"]) for e in entries} == {("GET", "/version", 200)}
    assert {e["logger"] for e in entries} == {"sevens_rules.access"}
    # whichever worker answered the scrape, the count is every worker's sum (the kernel picks who serves)
    assert _version_requests_counted(port) == before + len(sent)
    workers = {int(m.group(1)) for m in running.wait_for(r"Started server process \[(\d+)\]", WORKERS)}
    assert {e["pid"] for e in entries} <= workers


def test_sigterm_shuts_down_gracefully(server: tuple[Server, int]) -> None:
    running, _ = server
    running.process.send_signal(signal.SIGTERM)
    assert running.process.wait(timeout=STARTUP_DEADLINE_SECONDS) == 0
    running.wait_for(r"Finished server process", WORKERS)


def test_the_console_script_logs_a_startup_line_at_the_default_level() -> None:
    secrets = [os.urandom(32) for _ in range(2)]
    keys = ",".join(
        f"{key_id}:{base64.b64encode(secret).decode()}"
        for key_id, secret in zip(["new", "old"], secrets, strict=True)
    )
    port = _free_port()
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("RULES_", "WEB_", "PROMETHEUS_"))
    }
    script = Path(sys.executable).parent / "sevens-rules"  # the console script pip installed
    running = Server({**env, "PORT": str(port), "RULES_SEAL_KEYS": keys}, [str(script)])
    try:
        (line,) = running.wait_for(rf'"logger":"{STARTUP_LOGGER}"')
        # logged once the server listens: the service answers at once
        assert _get(port, "/healthz")[0] == 200
        entry = json.loads(line.string)
        assert entry["level"] == "info"
        assert entry["message"] == f"sevens-rules {__version__} listening on http://127.0.0.1:{port}"
        assert (entry["address"], entry["workers"], entry["version"]) == (
            f"http://127.0.0.1:{port}",
            1,
            __version__,
        )
        assert entry["stores"]["metrics"] == "process memory"
        assert entry["stores"]["matches"] == f"embedded: SQLite file {Path('data', 'matches.sqlite3')}"
        assert entry["seal_keys"] == {"count": 2, "ids": ["new", "old"], "sealing": "new"}
        running.process.send_signal(signal.SIGTERM)
        # one worker shuts down gracefully, then uvicorn re-raises the signal it caught
        assert running.process.wait(timeout=STARTUP_DEADLINE_SECONDS) == -signal.SIGTERM
    finally:
        if running.process.poll() is None:
            running.process.kill()
            running.process.wait()
    running.reader.join(timeout=STARTUP_DEADLINE_SECONDS)  # every line, up to the closed pipe
    running.drain()
    output = "".join(running.seen)
    # the default level shows only this line, and no form of the key material
    assert [json.loads(seen)["logger"] for seen in running.seen] == [STARTUP_LOGGER]
    for secret in secrets:
        for form in (base64.b64encode(secret), base64.urlsafe_b64encode(secret), secret.hex().encode()):
            assert form.decode().rstrip("=") not in output


@pytest.mark.parametrize(
    ("setting", "said"),
    [
        ("none", "none: sealed tokens are not remembered (a token can be applied more than once)"),
        ("redis://reader:s3cret@10.0.0.2:6380/2", "redis: redis://10.0.0.2:6380/2"),
        ("rediss://:s3cret@cache.internal/0", "redis: rediss://cache.internal/0"),
        ("unix:///run/redis.sock?db=1&password=s3cret", "redis: unix:///run/redis.sock"),
    ],
)
def test_the_startup_line_names_the_match_store_without_its_credentials(setting: str, said: str) -> None:
    settings = Settings.from_env({"RULES_MATCH_STORE": setting})
    keyring = Keyring.parse("k1:" + base64.b64encode(bytes(32)).decode())
    assert startup_fields(settings, keyring)["stores"]["matches"] == said
    assert startup_fields(settings, None)["stores"]["matches"].startswith("none: referee mode is off")
