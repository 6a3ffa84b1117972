"""Logging as JSON lines: the formatter and the server's logging configuration.

Kept apart from ``api/telemetry.py`` so the console script can configure logging without importing
``prometheus_client`` before it has chosen the multiprocess directory.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

import orjson

from .context import current_request


class JsonFormatter(logging.Formatter):
    """Every log record as one JSON object on one line: time, level, logger, pid, message, then the
    record's ``fields`` (the access line's method, route, status...), the id of the request being
    answered when there is one, and any traceback."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as a JSON line."""
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "pid": record.process,  # which worker, when there are several
            "message": record.getMessage(),
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            entry.update(fields)
        request = current_request.get()
        if request is not None and "request_id" not in entry:  # any line logged while answering
            entry["request_id"] = request.request_id
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return orjson.dumps(entry, default=str).decode()


STARTUP_LOGGER = "sevens_rules.startup"
"""The logger of the console script's start-up line, which shows at ``info`` and also at the default
``warning`` (one line that tells the service is up, where and with what); ``error`` and above hide it."""


INVALID_HTTP_MESSAGE = "Invalid HTTP request received."
"""What uvicorn logs, as a warning, for every connection whose bytes are not an HTTP request."""


class ClientFaultAtInfo(logging.Filter):
    """uvicorn's warning for bytes that are not HTTP, logged at ``info``: the fault is the client's, and
    anyone who can reach the port could fill the log at the default level (the service's own line about
    the same connection is at ``info`` too)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno == logging.WARNING and record.msg == INVALID_HTTP_MESSAGE:
            record.levelno, record.levelname = logging.INFO, "INFO"
            return logging.getLogger(record.name).isEnabledFor(logging.INFO)
        return True


def log_config(level: str) -> dict[str, Any]:
    """The ``logging.config.dictConfig`` of the server: every logger as JSON lines on stderr at ``level``
    (the start-up line at ``info`` unless ``level`` is ``error`` or ``critical``); uvicorn's own
    plain-text access log off (the middleware writes the access lines); its warning for bytes that are not
    HTTP at ``info`` (:class:`ClientFaultAtInfo`)."""
    startup_level = level.upper() if level.upper() in ("ERROR", "CRITICAL") else "INFO"
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": f"{JsonFormatter.__module__}.{JsonFormatter.__qualname__}"}},
        "filters": {
            "client_fault": {"()": f"{ClientFaultAtInfo.__module__}.{ClientFaultAtInfo.__qualname__}"}
        },
        "handlers": {
            "stderr": {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
        },
        "root": {"handlers": ["stderr"], "level": level.upper()},
        "loggers": {
            "uvicorn": {"handlers": [], "level": level.upper(), "propagate": True},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
            "uvicorn.error": {"handlers": [], "filters": ["client_fault"], "propagate": True},
            STARTUP_LOGGER: {"handlers": [], "level": startup_level, "propagate": True},
        },
    }
