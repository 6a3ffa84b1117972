"""The rules reference as web pages: its Markdown rendered to HTML by markdown-it-py, and which of the two
a request gets.

The pages' links to each other are written for the repository (``fan-tan.md``, ``sjuan.md#moves``); in
HTML they become the service's own addresses (``/rules/fan-tan``, ``/rules/sjuan#moves``), and headings get
the ids GitHub gives them, so the anchors the pages link to exist on both. Raw HTML in the Markdown is
shown as text, never passed through (``html`` off).
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Callable, Sequence

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

MARKDOWN = "text/markdown"
HTML = "text/html"

SIBLING_PAGE = re.compile(r"^(?P<page>[a-z0-9-]+|README)\.md(?P<anchor>#[\w-]*)?$")
"""A link to another page of the reference, as the repository spells it."""


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as ``-``."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def media_quality(accept: str, media_type: str) -> float:
    """How much an ``Accept`` header wants ``media_type``: the quality of its most specific matching
    range (``text/markdown`` over ``text/*`` over ``*/*``); 0 when none matches."""
    kind = media_type.split("/")[0]
    best: tuple[int, float] = (-1, 0.0)
    for part in accept.split(","):
        media, *parameters = (piece.strip() for piece in part.split(";"))
        specificity = {media_type: 2, f"{kind}/*": 1, "*/*": 0}.get(media.lower())
        if specificity is None or specificity < best[0]:
            continue
        quality = 1.0
        for parameter in parameters:
            name, _, value = parameter.partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = min(max(float(value), 0.0), 1.0)
                except ValueError:
                    quality = 0.0
        best = (specificity, quality)
    return best[1]


def prefers_markdown(accept: str | None) -> bool:
    """Whether a request's ``Accept`` header wants the Markdown more than the HTML page (a browser, or a
    client that names neither, gets HTML)."""
    if not accept:
        return False
    return media_quality(accept, MARKDOWN) > media_quality(accept, HTML)


class RulesRenderer:
    """Markdown to HTML for the rules reference: CommonMark with tables, heading ids and the pages'
    links made the service's addresses."""

    def __init__(self, link: Callable[[str], str | None]) -> None:
        """``link`` turns a page's name into its address, or None when there is no such page."""
        self.link = link
        self.markdown = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])
        self.markdown.add_render_rule("heading_open", _heading_open)
        self.markdown.add_render_rule("link_open", _link_open)

    def render(self, text: str) -> str:
        """The HTML of a page's Markdown (its body)."""
        rendered: str = self.markdown.render(text, {"ids": Counter(), "link": self.link})
        return rendered


# markdown-it-py calls a render rule as a method of its renderer: these take it first, and the page's
# state (the anchors given so far, the link mapping) from the render's env


def _heading_open(
    renderer: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    anchor = slug(tokens[idx + 1].content)
    seen: Counter[str] = env["ids"]
    if seen[anchor]:  # a repeated heading's anchor is numbered, as on GitHub
        anchor = f"{anchor}-{seen[anchor]}"
    seen[anchor] += 1
    tokens[idx].attrSet("id", anchor)
    return renderer.renderToken(tokens, idx, options, env)


def _link_open(
    renderer: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    match = SIBLING_PAGE.match(str(tokens[idx].attrGet("href") or ""))
    if match is not None:
        address = env["link"](match["page"])
        if address is not None:
            tokens[idx].attrSet("href", address + (match["anchor"] or ""))
    return renderer.renderToken(tokens, idx, options, env)


def html_page(title: str, body: str, links: Sequence[tuple[str, str]]) -> str:
    """A whole HTML page: ``body`` under a bar of ``links`` (address, label)."""
    nav = " · ".join(f'<a href="{html.escape(href)}">{html.escape(label)}</a>' for href, label in links)
    return PAGE.format(title=html.escape(title), nav=nav, body=body)


def first_heading(text: str) -> str:
    """The text of a page's first ``#`` heading (its title)."""
    found = re.search(r"^# (.+)$", text, re.MULTILINE)
    return found[1].strip() if found else "Rules reference"


PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title} - Sevens rules</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<style>
  body {{ font-family: system-ui, sans-serif; max-width: 52rem; margin: 0 auto; padding: 0 1rem 3rem;
         line-height: 1.5; color: #222; }}
  nav {{ padding: .6rem 0; border-bottom: 1px solid #ccc; font-size: .9rem; }}
  code, pre {{ font-family: ui-monospace, monospace; font-size: .88em; background: #f4f4f4; }}
  code {{ padding: 0 .2em; }}
  pre {{ padding: .6rem; overflow-x: auto; }}
  pre code {{ padding: 0; }}
  table {{ border-collapse: collapse; }}
  th, td {{ border: 1px solid #ccc; padding: .2rem .5rem; text-align: left; vertical-align: top; }}
</style>
</head>
<body>
<nav>{nav}</nav>
<main>
{body}</main>
</body>
</html>
"""
