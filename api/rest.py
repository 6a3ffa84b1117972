"""REST routes, one per game and operation, generated from the operation list."""

from __future__ import annotations

from collections.abc import Mapping
from types import CoroutineType

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from ..schema.common import Problem
from .limits import BodyReader
from .match_store import MatchStore
from .operations import Operation, all_operations, games_response
from .problems import (
    PROBLEM_MEDIA_TYPE,
    dump,
    problem,
    runner,
)
from .sealing import Keyring

JSON_MEDIA_TYPE = "application/json"


def problem_response(body: Problem, headers: Mapping[str, str] | None = None) -> Response:
    """A problem details response with the problem's status."""
    return Response(dump(body), status_code=body.status, media_type=PROBLEM_MEDIA_TYPE, headers=headers)


def is_json(content_type: str | None) -> bool:
    """Whether a Content-Type header names JSON (``application/json`` or ``application/*+json``)."""
    if not content_type:
        return False
    media = content_type.split(";", 1)[0].strip().lower()
    return media == JSON_MEDIA_TYPE or (media.startswith("application/") and media.endswith("+json"))


def unsupported_media_type() -> Problem:
    """The 415 problem of a body that is not sent as JSON."""
    return problem(415, "request/unsupported-media-type", "Send the body as application/json.")


class OperationEndpoint:
    """The ASGI endpoint of one operation.

    Plain ASGI rather than a Starlette endpoint function: every request would otherwise build Starlette's
    request object, its body stream and its response object (bench/README.md, "Counting instructions instead
    of seconds"). Answers are the same bytes (``content-length`` then ``content-type``, as Starlette's
    ``Response`` writes them).

    An operation that thinks (a bot's move, a sample) is answered in a worker thread, so that the event
    loop goes on serving other requests while a bot spends its budget or the sampler draws.
    """

    def __init__(self, op: Operation, body: BodyReader) -> None:
        self.answer = runner(op, op.path)
        self.body = body
        self.thinks = op.thinks

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = await self.body.read(scope, receive, send)
        if body is None:  # refused (413, 408) or the client left
            return
        if not is_json(header(scope, b"content-type")):
            await problem_response(unsupported_media_type())(scope, receive, send)
            return
        if self.thinks:
            result = await anyio.to_thread.run_sync(self.answer, body)
        else:
            result = self.answer(body)
        if type(result) is CoroutineType:  # a sealed operation asking the match store
            result = await result
        if isinstance(result, Problem):
            await problem_response(result)(scope, receive, send)
            return
        payload = dump(result)
        headers = [(b"content-length", str(len(payload)).encode()), JSON_CONTENT_TYPE]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": payload})


JSON_CONTENT_TYPE = (b"content-type", JSON_MEDIA_TYPE.encode())


def header(scope: Scope, name: bytes) -> str | None:
    """The first request header called ``name`` (lower case), decoded as Starlette decodes headers."""
    for key, value in scope["headers"]:
        if key == name:
            decoded: str = value.decode("latin-1")
            return decoded
    return None


async def list_games(request: Request) -> Response:
    """``GET /v1/games``: every game with its players, options and dynamics."""
    return Response(dump(games_response()), media_type=JSON_MEDIA_TYPE)


def routes(body: BodyReader, keyring: Keyring | None = None, store: MatchStore | None = None) -> list[Route]:
    """Every REST route, reading bodies with ``body`` (the sealed ones use ``keyring`` and ``store``)."""
    result = [Route("/v1/games", list_games, methods=["GET"])]
    result += [
        Route(op.path, OperationEndpoint(op, body), methods=["POST"], name=op.operation_id)
        for op in all_operations(keyring, store)
    ]
    return result
