"""The pages for people in a real browser with no internet: Debian's headless Chromium, driven by
playwright, against the service on a loopback port. Every request that is not to the service is aborted
and counted; none may be attempted.

``.ci/run`` installs ``chromium`` when it is missing; these tests skip (saying why) only when
``/usr/bin/chromium`` is still absent.
"""

from __future__ import annotations

import json
import re
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from starlette.types import ASGIApp

from sevens_rules.api.app import create_app
from sevens_rules.api.limits import Settings
from sevens_rules.api.openapi import openapi_document
from sevens_rules.engine.registry import GAMES

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
PAGE_TIMEOUT_MS = 120_000
"""Upper bound for one page to render on a loaded 2-core machine (Swagger UI lays out 51 operations)."""

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="no /usr/bin/chromium: install Debian's chromium (apt-get install -y chromium; .ci/run does)",
)


@contextmanager
def serving(app: ASGIApp) -> Iterator[str]:
    """``app`` on a free loopback port, in a thread; yields its base URL.

    The socket listens before the server starts, so connections wait in its backlog instead of failing:
    no polling for readiness."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    port = sock.getsockname()[1]
    # connections stay open between a test's steps however slow a crowded machine makes them: a request
    # sent on a connection the server is closing for idleness fails in clients that do not resend it
    config = uvicorn.Config(app, log_level="warning", lifespan="off", timeout_keep_alive=300)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


@pytest.fixture(scope="module")
def service() -> Iterator[str]:
    """The service (no sealing keys) on a free loopback port."""
    with serving(create_app(Settings())) as base:
        yield base


@dataclass
class Browser:
    """A browser page whose network is limited to the service."""

    page: object
    outside: list[str] = field(default_factory=list)
    """Every request to anywhere but the service (aborted)."""
    errors: list[str] = field(default_factory=list)
    """Uncaught script errors of the page."""
    console_errors: list[str] = field(default_factory=list)
    """Errors the page logged to the console (failed loads included)."""


@pytest.fixture(scope="module")
def chromium() -> Iterator[object]:
    """Headless Chromium, launched once for the module (a launch takes seconds on a loaded machine)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_FLAGS
        )
        try:
            yield launched
        finally:
            launched.close()


@contextmanager
def limited_page(chromium: object, service: str, **context_options: Any) -> Iterator[Browser]:
    """A fresh page in a fresh browser context; requests not to ``service`` are aborted and recorded,
    and so are the page's uncaught errors and console errors."""
    from playwright.sync_api import Browser as Chromium
    from playwright.sync_api import ConsoleMessage, Route

    assert isinstance(chromium, Chromium)
    context = chromium.new_context(**context_options)
    result = Browser(page=None)

    def abort(route: Route) -> None:
        result.outside.append(route.request.url)
        route.abort()

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            result.console_errors.append(message.text)

    # only what is not the service's is routed: the page's own requests (thousands in a long match) go
    # straight to the service instead of waiting each for a route handler in this process
    context.route(re.compile(rf"^(?!{re.escape(service)}(?:/|$))"), abort)
    page = context.new_page()
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    page.on("pageerror", lambda error: result.errors.append(str(error)))
    page.on("console", console)
    result.page = page
    try:
        yield result
    finally:
        context.close()


@pytest.fixture
def browser(service: str, chromium: object) -> Iterator[Browser]:
    """A fresh page whose requests not to ``service`` are aborted and recorded."""
    with limited_page(chromium, service) as result:
        yield result


README_SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
"""The seed of the README's worked example."""


def test_outside_requests_are_caught(service: str, browser: Browser) -> None:
    """The guard works: a page's request to another host is aborted and counted."""
    from playwright.sync_api import Page

    page = browser.page
    assert isinstance(page, Page)
    page.goto(f"{service}/openapi.json")  # (a page for people would refuse the request itself)
    outcome = page.evaluate("fetch('http://example.invalid/x').then(() => 'reached', () => 'blocked')")
    assert outcome == "blocked"
    assert browser.outside == ["http://example.invalid/x"]


def test_docs_page_lists_every_operation(service: str, browser: Browser) -> None:
    """``/docs`` renders Swagger UI from the service's own files and lists every REST operation."""
    from playwright.sync_api import Page

    page = browser.page
    assert isinstance(page, Page)
    expected = set(openapi_document(sealed=False)["paths"])  # the service has no keys
    page.goto(f"{service}/docs")
    summaries = page.locator(".opblock-summary-path")
    summaries.nth(len(expected) - 1).wait_for()
    shown = {
        path.replace("\u200b", "") for path in summaries.evaluate_all("els => els.map(e => e.dataset.path)")
    }
    assert shown == expected
    assert page.locator(".opblock-summary-method").first.inner_text() in {"GET", "POST"}
    assert browser.outside == []
    assert browser.errors == []
    assert browser.console_errors == []  # (a refusal by the page's policy is one)


def test_redoc_page_renders_offline(service: str, browser: Browser) -> None:
    """``/redoc`` renders ReDoc from the service's own files: the title and the operations appear."""
    from playwright.sync_api import Page

    page = browser.page
    assert isinstance(page, Page)
    page.goto(f"{service}/redoc")
    page.get_by_role("heading", name="Start a match of Sjuan").first.wait_for()
    assert "Sevens rules service" in page.locator("h1").first.inner_text()
    assert browser.outside == []
    assert browser.errors == []
    assert browser.console_errors == []


def console_page(service: str, browser: Browser) -> object:
    """The console, its schema loaded (the root fields are listed once it is)."""
    from playwright.sync_api import Page

    page = browser.page
    assert isinstance(page, Page)
    page.goto(f"{service}/graphql")
    page.locator("body[data-schema=loaded]").wait_for()
    return page


def editor_text(page: object, editor: str) -> str:
    """The text one of the console's editors (``query`` or ``variables``) shows (a short text: CodeMirror
    draws only the lines in view)."""
    from playwright.sync_api import Page

    assert isinstance(page, Page)
    return "\n".join(page.locator(f"#{editor} .cm-line").all_inner_texts())


def test_console_runs_a_query(service: str, browser: Browser) -> None:
    """``GET /graphql`` is the console: it lists the root fields, and runs a query typed into its editor
    (``sjuanNew``) showing its result, the same deal REST gives."""
    from playwright.sync_api import Page

    page = console_page(service, browser)
    assert isinstance(page, Page)
    fields = page.locator(".root-field").all_inner_texts()
    assert {"games", "sjuanNew", "sjuanMoves", "sedmiceView"} <= set(fields)

    page.locator(".root-field", has_text="sjuanApply").first.click()
    assert "sjuanApply(state: $state, move: $move)" in editor_text(page, "query")
    assert json.loads(editor_text(page, "variables")) == {"state": None, "move": None}

    query = page.locator("#query .cm-content")
    query.click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    # typed as a person types (a closing bracket typed where the editor put one steps over it)
    typed = (
        "query($players: Int!, $seed: String) { sjuanNew(players: $players, seed: $seed) "
        "{ __typename ... on SjuanNewResponse { state { turn hands } } } }"
    )
    page.keyboard.type(typed)
    page.keyboard.press("Escape")  # closes a completion list left open
    assert editor_text(page, "query") == typed
    variables = page.locator("#variables .cm-content")
    variables.click()
    page.keyboard.press("Control+a")
    page.keyboard.type(json.dumps({"players": 3, "seed": README_SEED}))
    page.keyboard.press("Control+Enter")  # runs, as the Run button does
    result = page.locator("#result")
    result.filter(has_text="SjuanNewResponse").wait_for()
    shown = json.loads(result.inner_text())["data"]["sjuanNew"]

    rest = httpx.post(f"{service}/v1/games/sjuan/new", json={"players": 3, "seed": README_SEED}).json()[
        "state"
    ]
    assert shown["state"] == {"turn": rest["turn"], "hands": rest["hands"]}
    assert shown["state"]["turn"] == 2  # seat 2 holds 7H (README's worked example)
    assert browser.outside == []
    assert browser.errors == []
    assert browser.console_errors == []


def test_console_examples_run(service: str, browser: Browser) -> None:
    """The console opens with an example, and each game's examples (deal, legal moves, first move
    applied), run from the page, answer data of the operation's answer type."""
    from playwright.sync_api import Page

    page = console_page(service, browser)
    assert isinstance(page, Page)
    assert "sjuanNew(" in editor_text(page, "query")  # the first example is in the editor from the start
    titles = page.locator("button.example").all_inner_texts()
    assert len(titles) == 3 * len(GAMES)
    for game in GAMES.values():
        assert f"{game.name}: deal" in titles
    result = page.locator("#result")
    for number, title in enumerate(titles):
        page.locator("button.example").nth(number).click()
        assert result.inner_text() == ""
        page.locator("#run").click()
        result.filter(has_text="__typename").wait_for()
        answer = json.loads(result.inner_text())
        assert "errors" not in answer, (title, answer)
        [data] = answer["data"].values()
        assert data["__typename"].endswith("Response"), (title, data)
        assert len(data) > 1, title  # the answer's fields, not only its type
    assert browser.outside == []
    assert browser.errors == []
    assert browser.console_errors == []


def test_console_completes_from_the_schema(service: str, browser: Browser) -> None:
    """The query editor highlights GraphQL and completes root fields and their fields from the service's
    schema."""
    from playwright.sync_api import Page

    page = console_page(service, browser)
    assert isinstance(page, Page)
    page.locator("#query .cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.type("{ sedmiceVi")
    page.keyboard.press("Control+Space")
    options = page.locator(".cm-tooltip-autocomplete li")
    options.first.wait_for()
    assert any(text.startswith("sedmiceView") for text in options.all_inner_texts())
    # clicked: the editor takes Enter as a choice only once the list has been open a moment
    options.filter(has_text="sedmiceView").first.click()
    page.locator("#query .cm-line", has_text="sedmiceView").wait_for()
    assert editor_text(page, "query").startswith("{ sedmiceView")
    # highlighting: the keyword of a typed query is styled apart from a field name
    page.keyboard.press("Control+a")
    page.keyboard.type("query { games { id")
    keyword = page.locator("#query .cm-line span", has_text="query").first
    assert keyword.evaluate("e => getComputedStyle(e).color") != page.locator(
        "#query .cm-line"
    ).first.evaluate("e => getComputedStyle(e).color")
    assert browser.outside == []
    assert browser.errors == []
    assert browser.console_errors == []


def test_rules_pages_render_and_link(service: str, browser: Browser) -> None:
    """``/rules/{game}`` is a page in the browser: headings, tables, and links that lead to the other
    pages of the reference (anchors included) and to the API docs."""
    from playwright.sync_api import Page

    page = browser.page
    assert isinstance(page, Page)
    page.goto(f"{service}/rules")
    page.get_by_role("link", name="Fan Tan").first.click()
    page.wait_for_url(f"{service}/rules/fan-tan")
    assert page.locator("h1").inner_text() == "Fan Tan"
    assert page.locator("table").count() >= 1
    page.locator("main a", has_text="Sjuan").first.click()
    page.wait_for_url(f"{service}/rules/sjuan")
    assert page.locator("h1").inner_text() == "Sjuan"
    page.get_by_role("link", name="REST API docs").click()
    page.wait_for_url(f"{service}/docs")
    assert browser.outside == []
    assert browser.errors == []
    assert browser.console_errors == []


def test_swagger_try_it_out_runs_every_new(service: str, browser: Browser) -> None:
    """In ``/docs`` (where "Try it out" is on from the start), "Execute" on each game's ``new``, with the
    body Swagger UI fills in from the document's example, is answered 200."""
    from playwright.sync_api import Page

    page = browser.page
    assert isinstance(page, Page)
    page.goto(f"{service}/docs")
    for game_id, game in GAMES.items():
        [operation_id] = [
            op["operationId"]
            for path, item in openapi_document(sealed=False)["paths"].items()
            for op in item.values()
            if path == f"/v1/games/{game_id}/new"
        ]
        block = page.locator(f"#operations-{game_id}-{operation_id}")
        block.locator(".opblock-summary-control").click()
        body = json.loads(block.locator("textarea.body-param__text").input_value())
        assert body == {"players": min(game.table_sizes()), "seed": README_SEED}, game_id
        block.locator("button.execute").click()
        status = block.locator(".live-responses-table tbody .response-col_status").first
        status.wait_for()
        assert status.inner_text().strip() == "200", game_id
    assert browser.outside == []
    assert browser.errors == []
