"""The rules reference as web pages: HTML rendered from the Markdown for browsers, the Markdown itself to
a client that asks for it, and every link of every page leads somewhere that answers.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag, urljoin

import pytest
from starlette.testclient import TestClient

from sevens_rules.api.rules_pages import RulesRenderer, media_quality, prefers_markdown
from sevens_rules.engine.registry import GAMES

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"
PAGES = ["/rules", *(f"/rules/{game_id}" for game_id in GAMES)]
BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"
"""What Chromium sends when it opens a page."""


class Page(HTMLParser):
    """The links and the element ids of an HTML page."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "a" and found.get("href"):
            self.links.append(str(found["href"]))
        if found.get("id"):
            self.ids.add(str(found["id"]))


@pytest.mark.parametrize(
    ("accept", "markdown"),
    [
        ("", False),
        ("*/*", False),
        (BROWSER_ACCEPT, False),
        ("text/html", False),
        ("text/markdown", True),
        ("text/markdown, text/html;q=0.9", True),
        ("text/html;q=0.1, text/markdown", True),
        ("text/markdown;q=0.5, text/html", False),
        ("text/*, text/markdown", False),  # as wanted as HTML: the page for people
        ("text/plain", False),  # neither is named: the page for people
        ("text/markdown;q=nonsense, text/html;q=0.2", False),
    ],
)
def test_content_negotiation(client: TestClient, accept: str, markdown: bool) -> None:
    """A page is HTML unless the request prefers ``text/markdown``; both say they vary with Accept."""
    response = client.get("/rules/sjuan", headers={"Accept": accept})
    assert response.status_code == 200
    assert response.headers["vary"] == "Accept"
    source = (RULES / "sjuan.md").read_text(encoding="utf-8")
    if markdown:
        assert response.headers["content-type"] == "text/markdown; charset=utf-8"
        assert response.text == source
    else:
        assert response.headers["content-type"] == "text/html; charset=utf-8"
        assert '<h1 id="sjuan">Sjuan</h1>' in response.text


def test_quality_reads_the_most_specific_range() -> None:
    assert media_quality("text/*;q=0.3, text/markdown;q=0.7, */*;q=0.1", "text/markdown") == 0.7
    assert media_quality("text/*;q=0.3, */*;q=0.1", "text/markdown") == 0.3
    assert media_quality("application/json", "text/html") == 0.0
    assert not prefers_markdown("application/json")


@pytest.mark.parametrize("page", PAGES)
def test_md_address_is_always_the_markdown(client: TestClient, page: str) -> None:
    """``/rules/{game}.md`` (the pages' links as the repository spells them) is the Markdown, whatever the
    request accepts; the index's is ``/rules/README.md``."""
    name = "README" if page == "/rules" else page.removeprefix("/rules/")
    response = client.get(f"/rules/{name}.md", headers={"Accept": BROWSER_ACCEPT})
    assert response.headers["content-type"] == "text/markdown; charset=utf-8"
    assert response.text == (RULES / f"{name}.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("page", PAGES)
def test_every_link_of_a_page_resolves(client: TestClient, page: str) -> None:
    """Every link of the HTML page is an address of the service that answers 200, and a link to an anchor
    finds an element with that id on the page it leads to. The pages link each other, the index and the
    API docs."""
    response = client.get(page, headers={"Accept": BROWSER_ACCEPT})
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    links = Page(response.text).links
    assert {"/rules", "/docs", "/graphql"} <= set(links)
    for link in links:
        address, anchor = urldefrag(urljoin(f"http://testserver{page}", link))
        assert address.startswith("http://testserver/"), (page, link)
        target = client.get(address, headers={"Accept": BROWSER_ACCEPT})
        assert target.status_code == 200, (page, link)
        if anchor:
            assert anchor in Page(target.text).ids, (page, link)


def test_index_links_every_game(client: TestClient) -> None:
    links = Page(client.get("/rules").text).links
    for game_id in GAMES:
        assert f"/rules/{game_id}" in links


def test_raw_html_in_markdown_is_shown_as_text() -> None:
    """The renderer passes no HTML through: a tag written in a page is escaped."""
    rendered = RulesRenderer(lambda page: None).render('A <script>alert(1)</script> and <img src="x">')
    assert "<script>" not in rendered and "<img" not in rendered
    assert "&lt;script&gt;" in rendered


def test_links_to_pages_become_the_services_addresses() -> None:
    """A link to another page of the reference (``x.md``, ``x.md#anchor``) is the service's address of that
    page; a link to a page there is not stays as written; headings get GitHub's anchors."""
    known = {"sjuan": "/rules/sjuan", "README": "/rules"}
    rendered = RulesRenderer(known.get).render(
        "# A `b` (c)\n# A `b` (c)\n[s](sjuan.md#moves) [i](README.md) [o](other.md)\n"
    )
    assert '<h1 id="a-b-c">' in rendered and '<h1 id="a-b-c-1">' in rendered
    assert '<a href="/rules/sjuan#moves">' in rendered
    assert '<a href="/rules">' in rendered
    assert '<a href="other.md">' in rendered
