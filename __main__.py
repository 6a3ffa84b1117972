"""``python -m sevens_rules`` (or the ``sevens-rules`` console script): start the service.

``sevens-rules`` serves ``sevens_rules.api.app:app`` with uvicorn on the fast stack (uvloop and
httptools), ``WEB_CONCURRENCY`` worker processes, bounded keep-alive and graceful shutdown, and JSON
logs; every setting comes from the environment (see the README, "Running in production").
Once it listens it logs one start-up line, also at the default level: the address, workers, version
and what it keeps and keys (key ids only). ``sevens-rules healthcheck`` exits 0 when the local server's
``/healthz`` answers 200 (the image's ``HEALTHCHECK``).
"""

from __future__ import annotations

import atexit
import importlib.util
import logging
import os
import shutil
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

import uvicorn
from uvicorn.supervisors import Multiprocess

from . import __version__

# none of these modules imports prometheus_client, which must not load before the metrics directory is chosen
from .api.limits import Settings, SettingsError
from .api.logs import STARTUP_LOGGER, log_config
from .api.sealing import Keyring, SealKeysError
from .api.server import HTTP_PROTOCOL, MAX_HEAD_BYTES
from .api.stores import store_description, store_from_setting

APP = "sevens_rules.api.app:app"
MULTIPROC_DIR_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"
HEALTHCHECK_TIMEOUT_SECONDS = 3
STARTUP_FAILURE = 3
"""The exit status when the server cannot start (uvicorn's: the port is taken, the app's startup failed)."""


def fast_or(fast: str, fallback: str) -> str:
    """``fast`` (``uvloop``, ``httptools``) when installed, as ``uvicorn[standard]`` does on Linux and
    macOS; ``fallback`` elsewhere (uvloop has no Windows build)."""
    return fast if importlib.util.find_spec(fast) is not None else fallback


def server_options(settings: Settings) -> dict[str, Any]:
    """The ``uvicorn.run`` keyword arguments for ``settings``."""
    return {
        "host": settings.host,
        "port": settings.port,
        "workers": settings.workers,
        "loop": fast_or("uvloop", "asyncio"),
        "http": HTTP_PROTOCOL,  # httptools when installed, with a deadline for request heads
        "h11_max_incomplete_event_size": MAX_HEAD_BYTES,  # the same head size if it falls back to h11
        "timeout_keep_alive": settings.keep_alive_seconds,
        # unbounded by default in uvicorn: a stuck request would hold a rollout until the pod is killed
        "timeout_graceful_shutdown": settings.graceful_shutdown_seconds,
        # uvicorn replaces a worker that is not serving within this time (5 s by default, which a busy
        # machine can exceed while a worker imports the app and builds the schema)
        "timeout_worker_healthcheck": settings.worker_healthcheck_seconds,
        "log_config": log_config(settings.log_level),
        "log_level": settings.log_level,
        "access_log": False,  # the app writes one JSON access line per request
        "server_header": False,
        # uvicorn's default rewrites scope["client"] and the scheme from X-Forwarded-* headers in a
        # middleware every request passes; the service reads neither (it logs no address and builds no
        # absolute URL), so that layer would only be work, and a trust setting to get right
        "proxy_headers": False,
        "lifespan": "on",
    }


def prepare_metrics_dir(workers: int) -> None:
    """Give prometheus_client's multiprocess mode an empty directory before any worker imports it.

    With several workers and no ``PROMETHEUS_MULTIPROC_DIR``, make a temporary one (removed at exit).
    A configured directory is created if missing and cleared of the last run's ``*.db`` files, as the
    library requires; :class:`SettingsError` when it cannot be made or written.
    """
    configured = os.environ.get(MULTIPROC_DIR_VARIABLE)
    if configured:
        directory = Path(configured)
        try:
            directory.mkdir(parents=True, exist_ok=True)
            for stale in directory.glob("*.db"):
                stale.unlink()
            # every worker writes its samples there: a directory it cannot write stops them all at start
            tempfile.TemporaryFile(dir=directory).close()
        except OSError as error:
            raise SettingsError(
                f"{MULTIPROC_DIR_VARIABLE}={configured!r} is not accepted: it must be a writable directory "
                f"({error.strerror or error})"
            ) from None
    elif workers > 1:
        created = tempfile.mkdtemp(prefix="sevens-rules-metrics-")
        atexit.register(shutil.rmtree, created, ignore_errors=True)
        os.environ[MULTIPROC_DIR_VARIABLE] = created


def base_url(host: str, port: int) -> str:
    """``http://host:port``, the host in brackets when it is an IPv6 address."""
    return f"http://{host}:{port}" if ":" not in host else f"http://[{host}]:{port}"


def startup_fields(settings: Settings, keyring: Keyring | None) -> dict[str, Any]:
    """What the start-up line tells: where the service listens, how many workers, which version, what
    it keeps (referee mode's match store, the metrics), and which referee-mode keys it holds (their ids
    and count, never key material)."""
    metrics_dir = os.environ.get(MULTIPROC_DIR_VARIABLE)
    keys = keyring.keys if keyring is not None else ()
    return {
        "address": base_url(settings.host, settings.port),
        "workers": settings.workers,
        "version": __version__,
        "commit": settings.commit,
        "stores": {
            "matches": (
                store_description(
                    store_from_setting(settings.match_store, settings.data_dir, settings.match_idle_seconds)
                )
                if keyring is not None
                else "none: referee mode is off (every request carries its state)"
            ),
            "metrics": f"directory {metrics_dir}" if metrics_dir else "process memory",
        },
        "seal_keys": {
            "count": len(keys),
            "ids": [key.id for key in keys],
            "sealing": keys[0].id if keys else None,  # the key new tokens are sealed with
        },
    }


def log_startup(fields: dict[str, Any]) -> None:
    """Log the start-up line (JSON, with ``fields``)."""
    message = f"sevens-rules {fields['version']} listening on {fields['address']}"
    logging.getLogger(STARTUP_LOGGER).info(message, extra={"fields": fields})


class AnnouncingServer(uvicorn.Server):
    """uvicorn's server that logs the start-up line once it listens, so the line means "serving"."""

    def __init__(self, config: uvicorn.Config, fields: dict[str, Any]) -> None:
        super().__init__(config)
        self.fields = fields

    async def startup(self, sockets: list[Any] | None = None) -> None:
        """Start as uvicorn does (the app's startup, then the socket), then log the line."""
        await super().startup(sockets)
        if self.started:
            log_startup(self.fields)


def serve(settings: Settings, keyring: Keyring | None) -> int:
    """Run the server until it stops, as ``uvicorn.run`` does, logging the start-up line.

    One worker logs it once its app has started and the socket listens. Several workers share a
    socket that this supervising process binds and logs the line for; each worker then starts its
    app and takes connections from that socket as soon as it can (``/readyz`` answers 200 then).
    """
    config = uvicorn.Config(APP, **server_options(settings))  # configures logging
    fields = startup_fields(settings, keyring)
    try:
        if config.workers > 1:
            sock = config.bind_socket()
            log_startup(fields)
            Multiprocess(config, sockets=[sock]).run()
            return 0
        server = AnnouncingServer(config, fields)
        server.run()
    except KeyboardInterrupt:
        return 0
    return 0 if server.started else STARTUP_FAILURE


def healthcheck(host: str, port: int) -> int:
    """0 when ``GET /healthz`` on the local server answers 200, else 1."""
    if host in ("", "0.0.0.0", "::"):
        host = "127.0.0.1"
    url = f"{base_url(host, port)}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=HEALTHCHECK_TIMEOUT_SECONDS) as response:
            return 0 if response.status == 200 else 1
    except OSError:
        return 1


def main(argv: list[str] | None = None) -> int:
    """Serve (no arguments) or probe (``healthcheck``); 2 on a bad argument or environment variable."""
    args = sys.argv[1:] if argv is None else argv
    try:
        settings = Settings.from_env()
        keyring = Keyring.from_env()
    except (SettingsError, SealKeysError) as error:
        print(f"sevens-rules: {error}", file=sys.stderr)
        return 2
    if args == ["healthcheck"]:
        return healthcheck(settings.host, settings.port)
    if args:
        print("usage: sevens-rules [healthcheck]", file=sys.stderr)
        return 2
    try:
        prepare_metrics_dir(settings.workers)
    except SettingsError as error:
        print(f"sevens-rules: {error}", file=sys.stderr)
        return 2
    return serve(settings, keyring)


if __name__ == "__main__":
    raise SystemExit(main())
