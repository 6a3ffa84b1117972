"""What a browser may do on the service's pages for people: the headers each page is served with.

A page runs only what the service itself serves: scripts and styles from its own address, and the
inline blocks of the page's own HTML, each allowed by its SHA-256 hash (so a script that found its way
into a page some other way does not run). It talks to the service alone, is never framed by another
site and sends no referrer; the browser takes every answer as the type it is served as (the access
middleware's ``X-Content-Type-Options: nosniff``, on every answer of the service). The table at
``/play`` holds a referee seat's key in memory; the rest hold nothing, but are served the same way.

Two pages need more, and get it alone: the editor of the GraphQL console (CodeMirror) and ReDoc's styling
library write their styles into ``<style>`` elements as the page renders, so those pages allow inline
styles (never inline scripts); ReDoc runs its search in a worker its script makes from a ``blob:``
address, which its page allows.
"""

from __future__ import annotations

import base64
import hashlib
import re

INLINE_BLOCK = re.compile(r"<(script|style)\b([^>]*)>(.*?)</\1\s*>", re.DOTALL | re.IGNORECASE)
"""An element whose content the page itself holds: its tag, its attributes, its content."""


def inline_sources(html: str, tag: str) -> list[str]:
    """The CSP sources (``'sha256-…'``) of ``html``'s inline ``tag`` elements (``script`` or ``style``),
    in order; a script with a ``src`` is a file, allowed as ``'self'``."""
    return [
        "'sha256-" + base64.b64encode(hashlib.sha256(content.encode()).digest()).decode() + "'"
        for found, attributes, content in INLINE_BLOCK.findall(html)
        if found.lower() == tag and not re.search(r"\bsrc\s*=", attributes, re.IGNORECASE)
    ]


def content_security_policy(html: str, *, inserted_styles: bool = False, blob_workers: bool = False) -> str:
    """The policy of the page ``html``: its own files and inline blocks only, requests to the service
    only (``inserted_styles``: a script of the page writes ``<style>`` elements, so inline styles are
    allowed; ``blob_workers``: a script of the page starts workers from ``blob:`` addresses it made)."""
    styles = "'unsafe-inline'" if inserted_styles else " ".join(inline_sources(html, "style"))
    return "; ".join(
        (
            "default-src 'none'",
            " ".join(("script-src 'self'", *inline_sources(html, "script"))),
            *(("worker-src blob:",) if blob_workers else ()),
            f"style-src 'self' {styles}".rstrip(),
            "img-src 'self' data:",
            "font-src 'self' data:",
            "connect-src 'self'",
            "base-uri 'none'",
            "form-action 'none'",
            "frame-ancestors 'none'",
        )
    )


def page_headers(html: str, *, inserted_styles: bool = False, blob_workers: bool = False) -> dict[str, str]:
    """Every header a page for people is served with (see the module's docstring and
    :func:`content_security_policy`)."""
    return {
        "Content-Security-Policy": content_security_policy(
            html, inserted_styles=inserted_styles, blob_workers=blob_workers
        ),
        "Referrer-Policy": "no-referrer",
    }
