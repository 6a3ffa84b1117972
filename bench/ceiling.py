"""The framework's ceiling: a bare Starlette app whose one POST endpoint reads the body, parses it with
orjson and answers a constant JSON document.

The bench loads it with the very bodies it sends to the service, so the ratio service / ceiling tells how
much of the budget per request the service's own work (validation, rules, serialisation) takes.
Run with ``uvicorn bench.ceiling:app --workers 1 --no-access-log``.
"""

from __future__ import annotations

import orjson
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

CONSTANT = b'{"ok":true}'
"""The answer to every request."""


async def parse(request: Request) -> Response:
    """Read and parse the body, then answer the constant."""
    orjson.loads(await request.body())
    return Response(CONSTANT, media_type="application/json")


app = Starlette(routes=[Route("/parse", parse, methods=["POST"])])
"""The ceiling app (``bench.ceiling:app``)."""
