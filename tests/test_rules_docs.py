"""The rules reference (``docs/rules/``): a page per game, served by the service and linked from
``GET /v1/games`` and the README; every relative link resolves; every worked example is what the service
answers.

A worked example is a run of fenced blocks: an ``http`` block (``POST /v1/games/<game>/<operation>`` then
the JSON body, where the string ``"$state"`` stands for the state of the previous answer) followed by a
``json`` block with an excerpt of the answer: every key shown must be in the answer with that value (lists
in full); keys left out are not compared.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import orjson
import pytest
from starlette.testclient import TestClient

from sevens_rules.engine.registry import GAMES

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"
MARKDOWN_FILES = [ROOT / "README.md", *sorted(RULES.glob("*.md"))]

FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
CODE_SPAN = re.compile(r"`[^`\n]*`")
HEADING = re.compile(r"^#{1,6} (.+)$", re.MULTILINE)


def anchors(markdown: str) -> set[str]:
    """The anchors GitHub gives the headings of a page (lower case, punctuation dropped, spaces as -)."""
    without_code = FENCE.sub("", markdown)
    return {
        re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in HEADING.findall(without_code)
    }


def links(markdown: str) -> list[str]:
    """The targets of the inline links of a page, outside code blocks and code spans."""
    return LINK.findall(CODE_SPAN.sub("", FENCE.sub("", markdown)))


def test_anchors_follow_github() -> None:
    """The slug rule matches GitHub's on the kinds of headings the pages use."""
    assert anchors("# Sjuan\n## Decisions where the texts are silent\n### `chips_count` (option)\n") == {
        "sjuan",
        "decisions-where-the-texts-are-silent",
        "chips_count-option",
    }
    assert links("[a](b.md) ![img](c.png) `[x](y)`\n```\n[d](e.md)\n```\n") == ["b.md"]


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_game_has_its_page(client: TestClient, game_id: str) -> None:
    """``docs/rules/<id>.md`` exists, is titled with the game's name, and is what the link in
    ``GET /v1/games`` serves."""
    page = (RULES / f"{game_id}.md").read_text(encoding="utf-8")
    assert page.startswith(f"# {GAMES[game_id].name}\n")
    for section in ("## Options", "## Decisions where the texts are silent", "## Worked example"):
        assert section in page, f"{game_id}.md has no '{section}' section"
    [info] = [g for g in client.get("/v1/games").json()["games"] if g["id"] == game_id]
    served = client.get(info["rules"], headers={"Accept": "text/markdown"})
    assert served.status_code == 200
    assert served.headers["content-type"] == "text/markdown; charset=utf-8"
    assert served.text == page
    assert client.get(info["rules"] + ".md").text == page  # the pages' links to each other


def test_every_option_is_on_its_page() -> None:
    """Each page names every option of its game."""
    for game_id, game in GAMES.items():
        page = (RULES / f"{game_id}.md").read_text(encoding="utf-8")
        for option in game.models.options.model_fields:
            assert f"`{option}`" in page, f"{game_id}.md does not describe option {option}"


def test_index_and_readme_link_every_page(client: TestClient) -> None:
    """The reference's index (``GET /rules``) and the README link every game's page."""
    index = (RULES / "README.md").read_text(encoding="utf-8")
    assert client.get("/rules", headers={"Accept": "text/markdown"}).text == index
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for game_id in GAMES:
        assert f"{game_id}.md" in links(index)
        assert f"docs/rules/{game_id}.md" in links(readme)


def test_unknown_rules_page_is_a_problem(client: TestClient) -> None:
    """A page that does not exist is a 404 problem, not a file from elsewhere."""
    assert client.get("/rules/poker").json()["code"] == "game/unknown"
    for path in ("/rules/poker", "/rules/..%2F..%2Fpyproject.toml", "/rules/README.txt", "/rules/sjuan.txt"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert response.headers["content-type"] == "application/problem+json"


@pytest.mark.parametrize("path", MARKDOWN_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_resolve_inside_the_repository(path: Path) -> None:
    """Every relative link of the README and the rules pages names a file of the repository, and its
    anchor a heading of that file."""
    text = path.read_text(encoding="utf-8")
    for target in links(text):
        if re.match(r"^[a-z]+:", target):
            continue  # an absolute URL: nothing in the repository to resolve
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        assert linked.is_relative_to(ROOT), f"{path.name}: {target} points outside the repository"
        assert linked.exists(), f"{path.name}: {target} does not exist"
        if anchor:
            assert anchor in anchors(linked.read_text(encoding="utf-8")), f"{path.name}: no #{anchor}"
    assert "../shared" not in text


def contains(answer: Any, excerpt: Any) -> bool:
    """Whether ``answer`` has everything ``excerpt`` shows (dict keys left out are not compared)."""
    if isinstance(excerpt, dict):
        return isinstance(answer, dict) and all(
            k in answer and contains(answer[k], v) for k, v in excerpt.items()
        )
    if isinstance(excerpt, list):
        return (
            isinstance(answer, list)
            and len(answer) == len(excerpt)
            and all(contains(a, e) for a, e in zip(answer, excerpt, strict=True))
        )
    return bool(answer == excerpt and type(answer) is type(excerpt))


def test_contains() -> None:
    """The excerpt rule: keys may be left out, list items may not, values must be equal."""
    assert contains({"a": 1, "b": [1, {"c": 2, "d": 3}]}, {"b": [1, {"c": 2}]})
    assert not contains({"a": [1, 2]}, {"a": [1]})
    assert not contains({"a": 1}, {"a": True})
    assert not contains({"a": 1}, {"b": 1})


def examples(page: str) -> list[tuple[str, Any, Any]]:
    """The worked example's steps of a page: (path, body, excerpt of the answer)."""
    blocks = FENCE.findall(page)
    steps = []
    for (kind, body), (next_kind, next_body) in zip(blocks, [*blocks[1:], ("", "")], strict=True):
        if kind != "http":
            continue
        assert next_kind == "json", f"an http block must be followed by a json block: {body[:60]}"
        request_line, _, payload = body.partition("\n")
        method, path = request_line.split()
        assert method == "POST"
        steps.append((path, orjson.loads(payload), orjson.loads(next_body)))
    return steps


def with_state(body: Any, state: Any) -> Any:
    """The body with every ``"$state"`` replaced by ``state``."""
    if body == "$state":
        return state
    if isinstance(body, dict):
        return {k: with_state(v, state) for k, v in body.items()}
    if isinstance(body, list):
        return [with_state(v, state) for v in body]
    return body


@pytest.mark.parametrize("game_id", list(GAMES))
def test_worked_example_is_what_the_service_answers(client: TestClient, game_id: str) -> None:
    """Replay a page's worked example against the service; every answer contains what the page shows."""
    steps = examples((RULES / f"{game_id}.md").read_text(encoding="utf-8"))
    assert len(steps) >= 3, f"{game_id}.md: a worked example has at least three requests"
    state: Any = None
    for number, (path, body, excerpt) in enumerate(steps, 1):
        assert path.startswith(f"/v1/games/{game_id}/")
        answer = client.post(path, json=with_state(body, state)).json()
        assert contains(answer, excerpt), (
            f"{game_id}.md step {number} ({path}): the service answered {answer}"
        )
        state = answer.get("state", state)
