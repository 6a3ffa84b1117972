"""Probes and identity: ``GET /healthz``, ``GET /readyz`` and ``GET /version``."""

from __future__ import annotations

from functools import cache
from typing import Any

import orjson
import strawberry
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .. import __version__
from ..engine.registry import GAMES
from .context import outside_requests
from .export import contract_digest
from .match_store import MatchStore, StoreUnavailableError
from .operations import all_operations
from .problems import dump, problem
from .rest import JSON_MEDIA_TYPE, problem_response

SELF_CHECK_GAME = "sjuan"
SELF_CHECK_NEW_BODY = b'{"players": 3}'


def _json(body: dict[str, Any]) -> Response:
    return Response(orjson.dumps(body), media_type=JSON_MEDIA_TYPE)


async def healthz(request: Request) -> Response:
    """``GET /healthz``: the process answers (the liveness probe; it checks nothing else)."""
    return _json({"status": "ok"})


def self_check() -> None:
    """Deal a Sjuan match and list its legal moves through the operations' own request models and
    runners, as a client's request would; raise if anything fails or no move is legal."""
    operations = {op.name: op for op in all_operations() if op.game.id == SELF_CHECK_GAME and not op.sealed}
    new, moves = operations["new"], operations["moves"]
    dealt = new.run(new.request.model_validate_json(SELF_CHECK_NEW_BODY))
    state = dump(dealt.state)  # type: ignore[attr-defined]
    listed = moves.run(moves.request.model_validate_json(b'{"state": ' + state + b"}"))
    if not listed.moves:  # type: ignore[attr-defined]
        raise RuntimeError("a freshly dealt Sjuan match has no legal move")


def probe_routes(
    schema: strawberry.Schema, commit: str | None, store: MatchStore | None = None
) -> list[Route]:
    """``/healthz``, ``/readyz`` and ``/version`` for an app serving GraphQL ``schema`` (and remembering
    sealed matches in ``store``)."""

    @cache
    def version_body() -> bytes:
        # the digest hashes the OpenAPI document and the SDL: built once, on the first probe
        digest = outside_requests(lambda: contract_digest(schema))
        return orjson.dumps({"version": __version__, "contract": digest, "commit": commit})

    async def readyz(request: Request) -> Response:
        """``GET /readyz``: the game registry and the contract (OpenAPI document, GraphQL schema) are
        built, one game answers the :func:`self_check` and the match store (if any) answers; otherwise a
        503 problem ``service/not-ready``."""
        try:
            if not GAMES or not all_operations():
                raise RuntimeError("the game registry is empty")
            version_body()
            self_check()
            if store is not None:
                await store.ping()
        except StoreUnavailableError:  # (its cause is logged, not answered: the store's address stays inside)
            return problem_response(
                problem(503, "service/not-ready", "Not ready: the match store does not answer.")
            )
        except Exception as error:
            return problem_response(problem(503, "service/not-ready", f"Not ready: {error}"))
        return _json({"status": "ready"})

    async def version(request: Request) -> Response:
        """``GET /version``: the package version (also the OpenAPI ``info.version``), the digest of the
        contract this process serves (:func:`sevens_rules.api.export.contract_digest`) and the source
        commit when known (``RULES_COMMIT``, set by the image build), else null."""
        return Response(version_body(), media_type=JSON_MEDIA_TYPE)

    return [
        Route("/healthz", healthz, methods=["GET"]),
        Route("/readyz", readyz, methods=["GET"]),
        Route("/version", version, methods=["GET"]),
    ]
