"""The pages for people without a browser: each is served, and everything it loads is a file of the
service (``tests/test_browser.py`` checks the same pages in Chromium)."""

from __future__ import annotations

import base64
import hashlib
import re

import pytest
from starlette.testclient import TestClient

from sevens_rules.api.docs import ASSET_REWRITES, ASSETS

PAGES = ("/", "/docs", "/redoc", "/graphql")
LOADED = re.compile(r"""<(?:script|link|img)\b[^>]*\b(?:src|href)=["']([^"']+)["']""")


@pytest.mark.parametrize("path", PAGES)
def test_page_loads_only_files_of_the_service(client: TestClient, path: str) -> None:
    """The page is HTML, and every script, style sheet and image it names is a path on the service that
    answers 200."""
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    for target in LOADED.findall(response.text):
        if target.startswith("data:"):  # in the page itself (the console's empty icon): nothing is loaded
            continue
        assert target.startswith("/") and not target.startswith("//"), f"{path} loads {target}"
        assert client.get(target).status_code == 200, target


def test_the_front_page_links_to_what_answers(client: TestClient) -> None:
    """``GET /``, where a person who opens the service's address lands, links to the pages for people and
    the contract, and every link answers."""
    links = re.findall(r'href="(/[^"]*)"', client.get("/").text)
    assert {"/play", "/rules", "/docs", "/graphql", "/openapi.json"} <= set(links)
    for link in links:
        assert client.get(link).status_code == 200, link


def test_graphql_is_still_the_api(client: TestClient) -> None:
    """``GET /graphql`` is the console; ``POST /graphql`` still answers queries."""
    response = client.post("/graphql", json={"query": "{ games { id rules } }"})
    games = response.json()["data"]["games"]
    assert {"id": "sjuan", "rules": "/rules/sjuan"} in games


def test_assets_are_the_bundles_files(client: TestClient) -> None:
    """Every asset is served, byte for byte the installed file except the rewritten outside addresses;
    other names (the bundles' demo pages that load a sample from the internet) are not served."""
    for name, path in ASSETS.items():
        served = client.get(f"/docs/assets/{name}").content
        if name in ASSET_REWRITES:
            outside, own = ASSET_REWRITES[name]
            assert outside not in served and own in served
            assert served == path.read_bytes().replace(outside, own)
        else:
            assert served == path.read_bytes()
    for name in ("index.html", "swagger-initializer.js", "..%2F..%2F__init__.py"):
        assert client.get(f"/docs/assets/{name}").status_code == 404


PEOPLE_PAGES = ("/", "/play", "/docs", "/redoc", "/graphql", "/rules", "/rules/sjuan")
"""Every page for people, the rules reference by its index and one game."""
INLINE = re.compile(r"<(script|style)\b([^>]*)>(.*?)</\1>", re.DOTALL)


def hashed(html: str, tag: str) -> list[str]:
    """The CSP sources of ``html``'s inline ``tag`` elements: each content's SHA-256, in base64."""
    return [
        "'sha256-" + base64.b64encode(hashlib.sha256(content.encode()).digest()).decode() + "'"
        for found, attributes, content in INLINE.findall(html)
        if found == tag and "src=" not in attributes
    ]


def directives(policy: str) -> dict[str, list[str]]:
    """A Content-Security-Policy as its directives, each with its sources."""
    named = (part.split() for part in policy.split(";") if part.strip())
    return {name: sources for name, *sources in named}


@pytest.mark.parametrize("path", PEOPLE_PAGES)
def test_a_page_runs_only_the_services_own_scripts(client: TestClient, path: str) -> None:
    """Every page for people has a Content-Security-Policy: scripts from the service and the page's own
    inline blocks by their SHA-256 hash, never any inline script; requests to the service alone; no
    framing, no forms, no base address; and no type sniffing."""
    response = client.get(path)
    assert response.status_code == 200
    policy = directives(response.headers["content-security-policy"])
    assert policy["default-src"] == ["'none'"]
    assert policy["connect-src"] == ["'self'"]
    assert policy["frame-ancestors"] == policy["base-uri"] == policy["form-action"] == ["'none'"]
    assert policy["script-src"] == ["'self'", *hashed(response.text, "script")]
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"


def test_only_pages_whose_scripts_write_styles_allow_inline_styles(client: TestClient) -> None:
    """The console's editor and ReDoc write ``<style>`` elements: their pages allow inline styles; the
    others allow their own ``<style>`` blocks by hash and nothing else inline (no ``style`` attribute)."""
    for path in PEOPLE_PAGES:
        response = client.get(path)
        styles = directives(response.headers["content-security-policy"])["style-src"]
        if path in ("/graphql", "/redoc"):
            assert styles == ["'self'", "'unsafe-inline'"], path
            continue
        blocks = hashed(response.text, "style")
        assert blocks, path
        assert styles == ["'self'", *blocks], path
        assert not re.search(r"<[a-z]+\b[^>]*\sstyle=", response.text), path


@pytest.mark.parametrize(
    "path", ["/play/play.js", "/graphql/console.js", "/graphql/schema.graphql", "/rules/sjuan.md"]
)
def test_files_the_pages_load_are_not_sniffed(client: TestClient, path: str) -> None:
    """The scripts and texts the pages load are taken as the type they are served as."""
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["x-content-type-options"] == "nosniff"
