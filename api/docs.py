"""Pages for people, served by the service itself and working with no internet.

- ``GET /docs``: Swagger UI on ``/openapi.json``; ``GET /redoc``: ReDoc on the same document. Their
  scripts and styles come from the installed ``openapi-ui-bundles`` package, served under
  ``/docs/assets/`` (only the files the pages use), never from a CDN.
- ``GET /graphql``: the GraphQL console (``static/console.html``): a query editor that knows the schema
  (CodeMirror 6 and cm6-graphql, bundled from ``console/`` into ``static/console.js``, served at
  ``/graphql/console.js``), variables, run, result, each game's runnable examples
  (:func:`~sevens_rules.api.examples.console_examples`) and the root fields; it reads the schema from
  ``GET /graphql/schema.graphql`` (the service's SDL). ``POST /graphql`` stays the API.
- ``GET /play``: a table where one person plays any game against bots through the public REST API
  (``static/play.html``; its script ``GET /play/play.js`` is compiled from ``web/play.ts``).
- ``GET /rules`` and ``GET /rules/{game}``: the rules reference, one page per game (``docs/rules/`` in the
  repository, shipped in the package as ``sevens_rules/rules``): HTML rendered from its Markdown
  (:mod:`sevens_rules.api.rules_pages`), or the Markdown itself to a client that prefers
  ``text/markdown`` and always at ``/rules/{game}.md``.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from pathlib import Path

import orjson
import strawberry
from openapi_ui_bundles import redoc, swagger_ui
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import BaseRoute, Route

from ..engine.registry import GAMES
from .examples import console_examples
from .operations import rules_path
from .page_policy import page_headers
from .problems import problem
from .rest import problem_response
from .rules_pages import RulesRenderer, first_heading, html_page, prefers_markdown

MARKDOWN_MEDIA_TYPE = "text/markdown; charset=utf-8"

ASSETS: dict[str, Path] = {
    "swagger-ui.css": swagger_ui.static_path / "swagger-ui.css",
    "swagger-ui-bundle.js": swagger_ui.static_path / "swagger-ui-bundle.js",
    "redoc.standalone.js": redoc.static_path / "redoc.standalone.js",
    "logo-mini.svg": redoc.static_path / "logo-mini.svg",
}
"""The third-party files the pages load, by the name they are served under (``/docs/assets/{name}``)."""

ASSET_REWRITES: dict[str, tuple[bytes, bytes]] = {
    # ReDoc's "powered by" logo is an <img> from a CDN; the same file ships beside the script.
    "redoc.standalone.js": (b"https://cdn.redoc.ly/redoc/logo-mini.svg", b"/docs/assets/logo-mini.svg"),
}
"""Outside addresses in the bundles' files, replaced by the service's own copy when served."""

RULES_INDEX = "README"
"""The page of the rules reference that lists every game (``docs/rules/README.md``, ``GET /rules``)."""


@cache
def _static_page(name: str) -> str:
    return (files("sevens_rules.api") / "static" / name).read_text(encoding="utf-8")


@cache
def rules_page(page: str) -> str | None:
    """The Markdown text of a rules page (a game id or :data:`RULES_INDEX`), or None if there is none."""
    if page != RULES_INDEX and page not in GAMES:
        return None
    return (files("sevens_rules.rules") / f"{page}.md").read_text(encoding="utf-8")


@cache
def _static_bytes(name: str) -> bytes:
    return (files("sevens_rules.api") / "static" / name).read_bytes()


async def play_script(request: Request) -> Response:
    """``GET /play/play.js``: the table's compiled script."""
    return Response(_static_bytes("play.js"), media_type="text/javascript; charset=utf-8")


def _html_page(path: str, name: str, *, inserted_styles: bool = False, blob_workers: bool = False) -> Route:
    """A route serving one of this project's pages (``static/<name>``) at ``path``, with the headers of
    :func:`~sevens_rules.api.page_policy.page_headers`."""

    async def endpoint(request: Request) -> Response:
        return HTMLResponse(
            _static_page(name), headers=_static_page_headers(name, inserted_styles, blob_workers)
        )

    endpoint.__name__ = name.removesuffix(".html")
    return Route(path, endpoint, methods=["GET"])


@cache
def _static_page_headers(name: str, inserted_styles: bool, blob_workers: bool) -> dict[str, str]:
    return page_headers(_static_page(name), inserted_styles=inserted_styles, blob_workers=blob_workers)


@cache
def _rewritten_asset(name: str) -> bytes:
    outside, own = ASSET_REWRITES[name]
    content = ASSETS[name].read_bytes()
    if outside not in content:  # a new bundle version moved it: fail loudly rather than go online
        raise LookupError(f"{outside!r} not found in {name}")
    return content.replace(outside, own)


async def asset(request: Request) -> Response:
    """``GET /docs/assets/{name}``: one file of the installed documentation bundles."""
    name = request.path_params["name"]
    path = ASSETS.get(name)
    if path is None:
        return problem_response(problem(404, "not-found", f"Nothing at {request.url.path}."))
    if name in ASSET_REWRITES:
        return Response(_rewritten_asset(name), media_type="text/javascript; charset=utf-8")
    return FileResponse(path)


def rules_address(page: str) -> str | None:
    """Where the service serves a page of the rules reference (the index at ``/rules``), or None."""
    if page == RULES_INDEX:
        return rules_path("").rstrip("/")
    return rules_path(page) if page in GAMES else None


RULES_LINKS = (
    (rules_path("").rstrip("/"), "Rules reference"),
    ("/docs", "REST API docs"),
    ("/redoc", "API reference"),
    ("/graphql", "GraphQL console"),
)
"""The bar above every rules page: the index, the API docs and the console."""


@cache
def rules_html(page: str) -> str | None:
    """The HTML page of a rules page (a game id or :data:`RULES_INDEX`), or None if there is none."""
    text = rules_page(page)
    if text is None:
        return None
    body = RulesRenderer(rules_address).render(text)
    return html_page(first_heading(text), body, (*RULES_LINKS, (f"{rules_path(page)}.md", "Markdown")))


@cache
def _rules_headers(page: str) -> dict[str, str]:
    """The headers of a rules page's HTML (a page that exists)."""
    html = rules_html(page)
    assert html is not None
    return {"Vary": "Accept", **page_headers(html)}


async def rules(request: Request) -> Response:
    """``GET /rules/{page}``: a game's rules reference, HTML or (to a client preferring ``text/markdown``)
    Markdown; ``/rules/{page}.md`` is always the Markdown, so the pages' links to each other work both
    here and in the repository."""
    named = request.path_params.get("page")
    page = RULES_INDEX if named is None else named.removesuffix(".md")
    text = rules_page(page)
    if text is None:
        return problem_response(
            problem(404, "game/unknown", f"There is no game '{page}'. Known: {', '.join(GAMES)}.")
        )
    if (named is not None and named.endswith(".md")) or prefers_markdown(request.headers.get("accept")):
        return Response(text, media_type=MARKDOWN_MEDIA_TYPE, headers={"Vary": "Accept"})
    return HTMLResponse(rules_html(page), headers=_rules_headers(page))


def console_routes(schema: strawberry.Schema) -> list[BaseRoute]:
    """``GET /graphql`` (the console, with the examples of :func:`console_examples` on ``schema`` in the
    page), ``GET /graphql/console.js`` (its editor) and ``GET /graphql/schema.graphql`` (the SDL the
    editor completes from). Each is made on its first request and kept."""

    @cache
    def page() -> str:
        # JSON in a <script> element ends at the first "</": escaped, it cannot close the element early
        examples = orjson.dumps(console_examples(schema)).decode().replace("</", "<\\/")
        return _static_page("console.html").replace("__EXAMPLES__", examples)

    @cache
    def headers() -> dict[str, str]:
        return page_headers(page(), inserted_styles=True)  # (the editor writes its styles)

    @cache
    def sdl() -> str:
        return schema.as_str() + "\n"

    async def console(request: Request) -> Response:
        return HTMLResponse(page(), headers=headers())

    async def console_script(request: Request) -> Response:
        return Response(_static_page("console.js"), media_type="text/javascript; charset=utf-8")

    async def schema_sdl(request: Request) -> Response:
        return Response(sdl(), media_type="text/plain; charset=utf-8")

    return [
        # POST /graphql is the API (api/app.py); a browser's GET gets the console, which POSTs to it
        Route("/graphql", console, methods=["GET"]),
        Route("/graphql/console.js", console_script, methods=["GET"]),
        Route("/graphql/schema.graphql", schema_sdl, methods=["GET"]),
    ]


def docs_routes(schema: strawberry.Schema) -> list[BaseRoute]:
    """Every route of the pages for people (the console's on ``schema``)."""
    return [
        _html_page("/", "index.html"),
        _html_page("/docs", "docs.html"),
        _html_page("/redoc", "redoc.html", inserted_styles=True, blob_workers=True),
        Route("/docs/assets/{name}", asset, methods=["GET"]),
        *console_routes(schema),
        _html_page("/play", "play.html"),
        Route("/play/play.js", play_script, methods=["GET"]),
        Route(rules_path("").rstrip("/"), rules, methods=["GET"]),
        Route(rules_path("{page}"), rules, methods=["GET"]),
    ]
