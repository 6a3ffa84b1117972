"""REST routes, one per game and operation, generated from the operation list."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from sevens_rules.api.operations import Operation, all_operations, games_response
from sevens_rules.api.problems import (
    PROBLEM_MEDIA_TYPE,
    dump,
    problem,
    runner,
)
from sevens_rules.api.sealing import Keyring
from sevens_rules.schema.common import Problem

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


def operation_endpoint(op: Operation) -> Callable[[Request], Awaitable[Response]]:
    """The Starlette endpoint of one operation."""
    answer = runner(op, op.path)

    async def endpoint(request: Request) -> Response:
        if not is_json(request.headers.get("content-type")):
            return problem_response(
                problem(415, "request/unsupported-media-type", "Send the body as application/json.")
            )
        result = answer(await request.body())
        if isinstance(result, Problem):
            return problem_response(result)
        return Response(dump(result), media_type=JSON_MEDIA_TYPE)

    endpoint.__name__ = op.operation_id
    return endpoint


async def list_games(request: Request) -> Response:
    """``GET /v1/games``: every game with its players, options and dynamics."""
    return Response(dump(games_response()), media_type=JSON_MEDIA_TYPE)


def routes(keyring: Keyring | None = None) -> list[Route]:
    """Every REST route (the sealed ones use ``keyring``)."""
    result = [Route("/v1/games", list_games, methods=["GET"])]
    result += [Route(op.path, operation_endpoint(op), methods=["POST"]) for op in all_operations(keyring)]
    return result
