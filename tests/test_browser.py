"""The pages for people in a real browser with no internet: Debian's headless Chromium, driven by
playwright, against the service on a loopback port. Every request that is not to the service is aborted
and counted; none may be attempted.

``.ci/run`` installs ``chromium`` when it is missing; these tests skip (saying why) only when
``/usr/bin/chromium`` is still absent.
"""

from __future__ import annotations

import json
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
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
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

    def limit(route: Route) -> None:
        url = route.request.url
        if url == service or url.startswith(service + "/"):
            route.continue_()
        else:
            result.outside.append(url)
            route.abort()

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            result.console_errors.append(message.text)

    context.route("**/*", limit)
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
    page.goto(f"{service}/rules")
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


def test_console_runs_a_query(service: str, browser: Browser) -> None:
    """``GET /graphql`` is the console: it lists the root fields, and runs ``sjuanNew`` showing its result,
    the same deal REST gives."""
    from playwright.sync_api import Page

    page = browser.page
    assert isinstance(page, Page)
    page.goto(f"{service}/graphql")
    page.locator(".root-field", has_text="sjuanNew").first.wait_for()
    fields = page.locator(".root-field").all_inner_texts()
    assert {"games", "sjuanNew", "sjuanMoves", "sedmiceView"} <= set(fields)

    page.locator(".root-field", has_text="sjuanApply").first.click()
    assert "sjuanApply(state: $state, move: $move)" in page.locator("#query").input_value()

    page.locator("#query").fill(
        "query($players: Int!, $seed: String) { sjuanNew(players: $players, seed: $seed) "
        "{ __typename ... on SjuanNewResponse { state { turn hands } } } }"
    )
    page.locator("#variables").fill(json.dumps({"players": 3, "seed": README_SEED}))
    page.locator("#run").click()
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
