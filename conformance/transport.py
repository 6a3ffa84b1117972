"""How the runner reaches a service: over HTTP at a URL (the standard library's client, one kept-alive
connection), or in process by calling the ASGI application directly (no server, no socket)."""

from __future__ import annotations

import asyncio
import http.client
import urllib.parse
from typing import Any, Protocol

import orjson

JSON = "application/json"


class Transport(Protocol):
    """Sends a request and returns ``(status, decoded JSON body)``."""

    def post(self, path: str, body: Any) -> tuple[int, Any]: ...

    def get(self, path: str) -> tuple[int, Any]: ...

    def close(self) -> None: ...


def _decoded(status: int, payload: bytes) -> tuple[int, Any]:
    try:
        return status, orjson.loads(payload)
    except orjson.JSONDecodeError:
        return status, {"(not JSON)": payload[:200].decode("utf-8", "replace")}


class HttpTransport:
    """A service at a base URL (``http://host:port``, or ``https://``), over one kept-alive connection
    that is opened again when the server closes it."""

    def __init__(self, url: str) -> None:
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http(s) URL: {url!r}")
        self.scheme, self.host, self.port = parts.scheme, parts.hostname, parts.port
        self.prefix = parts.path.rstrip("/")
        self.connection: http.client.HTTPConnection | None = None

    def _connect(self) -> http.client.HTTPConnection:
        if self.connection is None:
            kind = http.client.HTTPSConnection if self.scheme == "https" else http.client.HTTPConnection
            self.connection = kind(self.host, self.port, timeout=60)
        return self.connection

    def _request(self, method: str, path: str, payload: bytes | None) -> tuple[int, Any]:
        headers = {"content-type": JSON, "accept": JSON} if payload is not None else {"accept": JSON}
        for attempt in (1, 2):
            connection = self._connect()
            try:
                connection.request(method, self.prefix + path, body=payload, headers=headers)
                response = connection.getresponse()
                return _decoded(response.status, response.read())
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.close()  # the server closed an idle keep-alive connection: once more, afresh
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def post(self, path: str, body: Any) -> tuple[int, Any]:
        return self._request("POST", path, orjson.dumps(body))

    def get(self, path: str) -> tuple[int, Any]:
        return self._request("GET", path, None)

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


class AsgiTransport:
    """An ASGI application called in process, one HTTP request per call (lifespan is not run: the
    service's operations need none)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.loop = asyncio.new_event_loop()

    async def _call(self, method: str, path: str, payload: bytes) -> tuple[int, bytes]:
        headers = [(b"host", b"conformance"), (b"accept", JSON.encode())]
        if method == "POST":
            headers += [(b"content-type", JSON.encode()), (b"content-length", str(len(payload)).encode())]
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": headers,
            "client": ("127.0.0.1", 1),
            "server": ("conformance", 80),
        }
        sent = False
        status = 500
        chunks: list[bytes] = []

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": payload, "more_body": False}
            await asyncio.Event().wait()  # the request is whole: nothing more arrives
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(scope, receive, send)
        return status, b"".join(chunks)

    def post(self, path: str, body: Any) -> tuple[int, Any]:
        return _decoded(*self.loop.run_until_complete(self._call("POST", path, orjson.dumps(body))))

    def get(self, path: str) -> tuple[int, Any]:
        return _decoded(*self.loop.run_until_complete(self._call("GET", path, b"")))

    def close(self) -> None:
        self.loop.close()
