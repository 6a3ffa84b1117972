"""The pages for people without a browser: each is served, and everything it loads is a file of the
service (``tests/test_browser.py`` checks the same pages in Chromium)."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient

from sevens_rules.api.docs import ASSET_REWRITES, ASSETS

PAGES = ("/docs", "/redoc", "/graphql")
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
