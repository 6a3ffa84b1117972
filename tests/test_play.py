"""The table at ``GET /play`` and the TypeScript client it is built on.

- The committed ``api/static/play.js`` is what ``web/build.sh`` makes from ``web/*.ts`` and
  ``clients/typescript/client.ts`` (tsc --strict checks both against the types openapi-typescript
  generates from the committed OpenAPI); the README's client example compiles and runs under node against
  a real service.
- In Debian's headless Chromium with every outside request aborted and counted: a complete match of every
  game in plain mode (no keys) and in referee mode (keys), the person's seat clicking a legal move each
  turn; the clickable cards and buttons are exactly the legal moves the service listed for seat 0; the
  deal check at the end says the deals match the commitment; no uncaught error, no console error.
- Keyboard only, 375 px phones and desktops, light and dark: screenshots of each are saved under
  ``build/screenshots/`` by the run.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from sevens_rules.api.app import create_app
from sevens_rules.api.limits import Settings
from sevens_rules.engine.registry import GAMES
from tests.sealed_helpers import keyring
from tests.test_browser import CHROMIUM, Browser, chromium, limited_page, serving
from tests.test_clients import typescript_tools

if TYPE_CHECKING:
    from playwright.sync_api import Page, Route

__all__ = ["chromium", "typescript_tools"]  # fixtures shared with the other browser and client tests

ROOT = Path(__file__).resolve().parent.parent
PLAY_SCRIPT = ROOT / "api" / "static" / "play.js"
CLIENT = ROOT / "clients" / "typescript" / "client.ts"
README = ROOT / "README.md"
SCREENSHOTS = ROOT / "build" / "screenshots"

MATCHES: dict[str, tuple[int, dict[str, Any]]] = {
    # the most seats: the person acts least often and the totals grow fastest
    "sjuan": (8, {}),
    "fan-tan": (8, {}),
    "free-fan-tan": (8, {}),
    # two seats only; drawing until playable makes the fewest turns (the match still runs to 100)
    "domino-fan-tan": (2, {"draw_until_playable": True}),
    "sevens": (4, {"deals": 1}),
    "seven-up": (2, {}),
    "four-handed-seven-up": (4, {}),
    "california-jack": (2, {}),
    "my-ship-sails": (4, {"max_exchanges": 1}),
    "sedmice": (4, {"target_hits": 1}),
}
"""Each game's table size and options in the browser tests: the short matches the rules allow."""

LEVELS = {
    "sevens": "search",
    "seven-up": "random",
    **dict.fromkeys(["sjuan", "fan-tan", "free-fan-tan", "domino-fan-tan", "california-jack"], "random"),
}
"""The bots' level where it is not the page's default (``rules``): search thinks for the service's default
budget on every move, so it plays a short match; the long matches (hundreds to thousands of moves) take
random bots, which in plain mode the page draws from the moves it was given, without a request each."""

CLICKED_TURNS = 12
"""Turns of each match the test clicks through playwright (checking the clickable moves against the
service's list each time); the page's own click events finish the match, which takes a long match
(Domino fan tan: about 1,500 of the person's turns) from many minutes to one or two."""

SETTLED = ", ".join(f"#status[data-state='{state}']" for state in ("your-turn", "over", "error"))
"""The status once the page waits for nothing but the person (a selector: the page's policy refuses the
string expressions a wait for a function would evaluate)."""

FINISH_BY_CLICKING = """() => new Promise((resolve) => {
  // clicks the first legal move each time it is the person's turn, as a person clicking at once would
  const status = document.getElementById("status");
  let clicks = 0;
  const step = () => {
    const state = status.dataset.state;
    if (state === "over" || state === "error") {
      observer.disconnect();
      resolve([state, clicks]);
    } else if (state === "your-turn") {
      const button = document.querySelector("button.move:not([disabled])");
      if (button !== null) {
        clicks += 1;
        button.click();
      }
    }
  };
  const observer = new MutationObserver(step);
  observer.observe(status, { attributes: true, attributeFilter: ["data-state"] });
  step();
})"""

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="no /usr/bin/chromium: install Debian's chromium (apt-get install -y chromium; .ci/run does)",
)


@pytest.fixture(scope="module")
def plain_service() -> Iterator[str]:
    with serving(create_app(Settings())) as base:
        yield base


@pytest.fixture(scope="module")
def referee_service() -> Iterator[str]:
    with serving(create_app(Settings(), keyring("k1=7"))) as base:
        yield base


def _page(browser: Browser) -> Page:
    from playwright.sync_api import Page

    assert isinstance(browser.page, Page)
    return browser.page


def _services(request: pytest.FixtureRequest, mode: str) -> str:
    base = request.getfixturevalue(f"{mode}_service")
    assert isinstance(base, str)
    return base


# ---- the compiled script and the client module ------------------------------------------------------------


def test_compiled_script_is_current(typescript_tools: Path, tmp_path: Path) -> None:
    """``web/build.sh`` (openapi-typescript, tsc --strict, esbuild) makes exactly the committed play.js."""
    _run("bash", ROOT / "web" / "build.sh", tmp_path)
    assert (tmp_path / "play.js").read_bytes() == PLAY_SCRIPT.read_bytes(), (
        "api/static/play.js is not what web/build.sh makes from web/ and clients/typescript: "
        "run bash web/build.sh and commit the result"
    )


def test_play_page_and_script_are_served(plain_service: str) -> None:
    page = httpx.get(f"{plain_service}/play")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert '<script src="/play/play.js"></script>' in page.text
    script = httpx.get(f"{plain_service}/play/play.js")
    assert script.status_code == 200
    assert script.headers["content-type"].startswith("text/javascript")
    assert script.content == PLAY_SCRIPT.read_bytes()
    # nothing the page loads names another host
    assert not re.search(r"https?://", page.text.replace("http://www.w3.org/2000/svg", ""))
    assert "http://www.w3.org/2000/svg" in script.text  # the SVG namespace is a name, never fetched
    assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", script.text)


def test_the_page_refuses_a_script_it_did_not_load_and_requests_to_other_hosts(
    plain_service: str, chromium: object
) -> None:
    """The table holds a referee seat's key in memory: its policy lets only the service's own script run
    (a script element written into the page later does not, nor does an event handler attribute), and
    lets the page ask the service alone (a request to another host is refused by the page itself, before
    it leaves)."""
    from playwright.sync_api import Page

    with limited_page(chromium, plain_service) as browser:
        page = browser.page
        assert isinstance(page, Page)
        page.goto(f"{plain_service}/play")
        page.locator("#start:not([disabled])").wait_for()  # (the script ran: the games are listed)
        ran = page.evaluate(
            """() => {
                const script = document.createElement("script");
                script.textContent = "window.injected = true";
                document.body.append(script);
                const image = document.createElement("img");
                image.setAttribute("onerror", "window.handled = true");
                image.src = "data:,";
                document.body.append(image);
                return fetch("http://other.invalid/x").then(() => "reached", () => "refused");
            }"""
        )
        assert ran == "refused"
        assert page.evaluate("[window.injected, window.handled]") == [None, None]
        assert browser.outside == []  # refused by the page: the request never reached the browser's network
        assert any("Content Security Policy" in error for error in browser.console_errors)


def _run(*command: str | Path) -> str:
    """Runs a command to its end; fails the test, showing its output, unless it succeeds. Its output."""
    done = subprocess.run(
        [str(part) for part in command], capture_output=True, text=True, check=False, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _readme_client_example() -> str:
    """The README's TypeScript example of the client module."""
    text = README.read_text()
    found = re.search(r"```ts\n(.*?)```", text, re.S)
    assert found, "README.md has no ```ts block (the client module's example)"
    return found.group(1)


def test_client_module_example_compiles_and_runs(
    typescript_tools: Path, plain_service: str, tmp_path: Path
) -> None:
    """The README's short example, as a third party would use the module: its own copy of client.ts and
    of the types generated from the OpenAPI, the README's tsc command, then node against a running
    service."""
    example = _readme_client_example()
    assert len(example.strip().splitlines()) <= 14
    shutil.copy(CLIENT, tmp_path / "client.ts")
    _run(
        typescript_tools / "openapi-typescript",
        ROOT / "openapi" / "openapi.json",
        "--output",
        tmp_path / "openapi.d.ts",
    )
    program = example.replace("http://127.0.0.1:8000", plain_service)  # as it stands, but the address
    # the types can fail: a move of another game does not compile
    program += (
        "export async function wrongGame(rules: RulesClient, state: Schemas['SjuanStateInput']) {\n"
        "  // @ts-expect-error a Sevens move is not a Sjuan move\n"
        "  await rules.post('/v1/games/sjuan/apply', { state, move: { type: 'bust', player: 0 } });\n"
        "}\n"
    )
    (tmp_path / "example.ts").write_text(program)
    command = re.search(r"^npx -p typescript@\S+ tsc (.*) main\.ts$", README.read_text(), re.M)
    assert command, "README.md gives no tsc command for main.ts"
    _run(
        typescript_tools / "tsc",
        *command.group(1).split(),
        "--outDir",
        tmp_path / "out",
        tmp_path / "example.ts",
    )
    node = shutil.which("node")
    assert node is not None
    lines = _run(node, tmp_path / "out" / "example.js").splitlines()
    assert lines[-1] == "move/not-your-turn", lines  # the refusal, read from the problem's code
    assert "played" in lines[0].split(), lines  # the events of the applied move


# ---- matches in the browser -------------------------------------------------------------------------------


def _start_match(page: Page, game: str, players: int, options: dict[str, Any], level: str = "rules") -> None:
    page.locator("#start:not([disabled])").wait_for()
    page.select_option("#game", game)
    page.select_option("#level", level)
    page.select_option("#players", str(players))
    for name, value in options.items():
        control = page.locator(f"#option-{name}")
        if isinstance(value, bool):
            control.set_checked(value)
        elif control.evaluate("element => element.tagName") == "SELECT":
            control.select_option(str(value))
        else:
            control.fill(str(value))
    page.locator("#start").click()


def _settle(page: Page) -> str:
    page.locator(SETTLED).wait_for()
    state = page.locator("#status").get_attribute("data-state")
    assert isinstance(state, str)
    return state


def _shown_moves(page: Page) -> tuple[list[str], int]:
    cards = page.locator("#hand button.move").evaluate_all("buttons => buttons.map(b => b.dataset.card)")
    return sorted(cards), page.locator("#actions button.move").count()


def _expected_moves(listed: list[dict[str, Any]]) -> tuple[list[str], int]:
    """What the page must offer for seat 0's legal moves: a card button per card a move names, a button for
    every other move."""
    cards: list[str] = []
    for move in listed:
        card = move.get("card") or (move["cards"][0] if len(move.get("cards") or []) == 1 else None)
        if card and card not in cards:
            cards.append(card)
    return sorted(cards), len(listed) - len(cards)


def _screenshot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("mode", ["plain", "referee"])
@pytest.mark.parametrize("game", list(MATCHES))
def test_a_whole_match_is_played_by_clicking(
    request: pytest.FixtureRequest, chromium: object, mode: str, game: str
) -> None:
    base = _services(request, mode)
    players, options = MATCHES[game]
    latest: dict[str, list[dict[str, Any]]] = {}
    with limited_page(chromium, base, viewport={"width": 1280, "height": 900}) as browser:
        page = _page(browser)

        def record_seat_0_moves(route: Route) -> None:
            """Keeps seat 0's legal moves as the service listed them (plain: every seat's; sealed: the
            seat's own)."""
            body = route.request.post_data_json
            assert isinstance(body, dict)
            response = route.fetch()
            if "seat" not in body or body["seat"] == 0:
                latest["moves"] = [move for move in response.json()["moves"] if move["player"] == 0]
            route.fulfill(response=response)

        pattern = f"{base}/v1/games/{game}/{'sealed/' if mode == 'referee' else ''}moves"
        page.route(pattern, record_seat_0_moves)
        page.goto(f"{base}/play")
        page.locator("#start:not([disabled])").wait_for()
        expected_mode = "Referee mode" if mode == "referee" else "Plain mode"
        assert page.locator("#mode").inner_text().startswith(expected_mode)
        _start_match(page, game, players, options, LEVELS.get(game, "rules"))
        clicks = 0
        state = _settle(page)
        while state == "your-turn" and clicks < CLICKED_TURNS:
            assert _shown_moves(page) == _expected_moves(latest["moves"])
            if clicks == 0:
                _screenshot(page, f"{game}-{mode}-desktop")
            page.locator("button.move:not([disabled])").first.click()
            clicks += 1
            state = _settle(page)
        page.unroute(pattern)
        if state == "your-turn":
            state, more = page.evaluate(FINISH_BY_CLICKING)
            clicks += more
        assert state == "over", page.locator("#error").inner_text()
        page.locator("#verdict").wait_for()
        verdict = page.locator("#verdict")
        assert verdict.get_attribute("data-verified") == "true", verdict.inner_text()
        assert "matches the commitment" in verdict.inner_text()
        # referee mode: the page also finds the entropy its browser contributed among the deals' entropy
        assert ("own entropy" in verdict.inner_text()) == (mode == "referee"), verdict.inner_text()
        heading = page.locator("#result h2").inner_text()
        assert " won" in heading or " tie" in heading, heading  # (a tie for first place is said as one)
        assert page.locator("#log li[data-event=match_ended]").count() == 1
        assert page.locator("table.score tr").count() == 1 + players  # the final totals, one row per seat
        assert clicks > 0
        assert browser.outside == []
        assert browser.errors == []
        assert browser.console_errors == []


LAYOUTS = ["sjuan", "sevens", "seven-up", "california-jack", "my-ship-sails", "sedmice"]
"""Games whose tables look different, for the phone and desktop screenshots."""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_phone_and_desktop_in_both_schemes(plain_service: str, chromium: object, scheme: str) -> None:
    """At 375 px nothing is wider than the screen; each game's table is saved at phone and desktop widths."""
    for width, height, name in ((375, 812, "phone"), (1280, 900, "desktop")):
        viewport = {"width": width, "height": height}
        with limited_page(chromium, plain_service, viewport=viewport, color_scheme=scheme) as browser:
            page = _page(browser)
            page.goto(f"{plain_service}/play")
            for game in LAYOUTS:
                players, options = MATCHES[game]
                _start_match(page, game, players, options)
                assert _settle(page) == "your-turn"
                assert page.evaluate("document.documentElement.scrollWidth") <= width
                _screenshot(page, f"{game}-{name}-{scheme}")
            background = page.evaluate("getComputedStyle(document.body).backgroundColor")
            assert (background == "rgb(21, 25, 30)") == (scheme == "dark"), background
            assert browser.outside == []
            assert browser.errors == []
            assert browser.console_errors == []


def test_a_match_with_the_keyboard_alone(plain_service: str, chromium: object) -> None:
    """Tab to the form, choose Sevens and one deal by typing, Enter to deal, then Enter on the focused
    move every turn: the page focuses a legal move whenever it is the person's turn."""
    with limited_page(chromium, plain_service) as browser:
        page = _page(browser)
        page.goto(f"{plain_service}/play")
        page.locator("#start:not([disabled])").wait_for()
        for _ in range(3):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.id") == "game":
                break
        assert page.evaluate("document.activeElement.id") == "game"
        page.keyboard.type("Sevens")
        assert page.locator("#game").input_value() == "sevens"
        while page.evaluate("document.activeElement.id") != "option-deals":
            page.keyboard.press("Tab")
        page.keyboard.press("Control+A")
        page.keyboard.type("1")
        page.keyboard.press("Enter")
        turns = 0
        while (state := _settle(page)) == "your-turn":
            focused = page.evaluate("document.activeElement.className")
            assert "move" in focused.split(), focused
            page.keyboard.press("Enter")
            turns += 1
        assert state == "over"
        assert turns > 0
        page.locator("#verdict[data-verified=true]").wait_for()
        assert page.evaluate("document.activeElement.id") == "start"  # ready for the next match
        assert browser.outside == []
        assert browser.errors == []
        assert browser.console_errors == []


def _at_the_first_sevens_turn(page: Page, base: str) -> str:
    """Opens the table, deals four-seat Sevens (one deal) and waits for the person's first turn; the URL
    of Sevens' ``apply``, which the tests then answer themselves."""
    page.goto(f"{base}/play")
    _start_match(page, "sevens", 4, {"deals": 1})
    assert _settle(page) == "your-turn"
    return f"{base}/v1/games/sevens/apply"


def test_a_refused_request_is_explained_and_a_new_match_offered(plain_service: str, chromium: object) -> None:
    """When the service refuses a move the page says which problem (its code and detail), stops, and
    offers a new match; taking it deals again."""
    refusal = {
        "type": "urn:sevens-rules:problem:move/illegal",
        "title": "Illegal move",
        "status": 409,
        "code": "move/illegal",
        "detail": "That card cannot be played now.",
        "errors": [{"path": "/move/card", "message": "not a legal card"}],
        "more_errors": 0,
        "request_id": "0" * 32,
    }
    with limited_page(chromium, plain_service) as browser:
        page = _page(browser)
        refuse = _at_the_first_sevens_turn(page, plain_service)
        page.route(
            refuse,
            lambda route: route.fulfill(
                status=409, content_type="application/problem+json", body=json.dumps(refusal)
            ),
        )
        page.locator("button.move").first.click()
        assert _settle(page) == "error"
        message = page.locator("#error-text").inner_text()
        assert "409 move/illegal" in message
        assert "That card cannot be played now." in message
        assert "/move/card: not a legal card" in message
        assert page.evaluate("document.activeElement.id") == "retry"
        page.unroute(refuse)
        page.keyboard.press("Enter")
        assert _settle(page) == "your-turn"
        assert page.locator("#error").is_hidden()
        assert browser.console_errors == [
            "Failed to load resource: the server responded with a status of 409 (Conflict)"
        ]
        assert browser.outside == []
        assert browser.errors == []


def test_a_new_match_leaves_the_old_one_behind_though_its_answer_comes_later(
    plain_service: str, chromium: object
) -> None:
    """A match started while the old match waits for an answer: when that answer comes, the old match
    stops without asking, drawing or logging anything more, and the new one plays on."""
    with limited_page(chromium, plain_service) as browser:
        page = _page(browser)
        page.goto(f"{plain_service}/play")
        _start_match(page, "sevens", 4, {"deals": 1}, "random")
        assert _settle(page) == "your-turn"
        held: list[Route] = []
        # after the person's move the old match asks who is to act: that answer waits, and any later
        # request of the old match would wait here too
        page.route(f"{plain_service}/v1/games/sevens/moves", lambda route: held.append(route))
        with page.expect_request(f"{plain_service}/v1/games/sevens/moves"):
            page.locator("button.move:not([disabled])").first.click()
        _start_match(page, "sjuan", 3, {}, "random")
        assert _settle(page) == "your-turn"
        (answer,) = held
        answer.fulfill(response=answer.fetch())
        page.locator("button.move:not([disabled])").first.click()
        assert _settle(page) in ("your-turn", "over")
        assert page.locator("#table-title").inner_text().startswith("Sjuan, 3 players")
        assert len(held) == 1  # the old match asked nothing more
        # the log is the new match's: the one move the person made in it (none of the old match's)
        moves = page.locator("#log li[data-event=played], #log li[data-event=passed]").all_inner_texts()
        assert sum(line.startswith("You ") for line in moves) == 1, moves
        assert browser.errors == []


def test_an_answer_that_cannot_be_read_is_asked_once_more(plain_service: str, chromium: object) -> None:
    """A success that is not a JSON object (a connection cut short) is sent once more and the match goes
    on; when the second answer cannot be read either, the page says so (with the start of what came) and
    offers a new match, without asking a third time."""
    with limited_page(chromium, plain_service) as browser:
        page = _page(browser)
        applied = _at_the_first_sevens_turn(page, plain_service)
        sent: list[str] = []

        def cut_the_first(route: Route) -> None:
            sent.append(route.request.post_data or "")
            if len(sent) == 1:
                route.fulfill(status=200, content_type="application/json", body="")
            else:
                route.fallback()

        page.route(applied, cut_the_first)
        page.locator("button.move").first.click()
        assert _settle(page) == "your-turn"
        assert sent[1] == sent[0]  # the person's move sent again (the bots' moves follow)
        assert page.locator("#error").is_hidden()
        page.unroute(applied)
        sent.clear()

        def cut_every_one(route: Route) -> None:
            sent.append(route.request.post_data or "")
            route.fulfill(status=200, content_type="application/json", body='{"state": ')

        page.route(applied, cut_every_one)
        page.locator("button.move").first.click()
        assert _settle(page) == "error"
        assert len(sent) == 2 and sent[1] == sent[0]
        message = page.locator("#error-text").inner_text()
        assert "could not be read" in message and "client/unexpected-answer" not in message
        assert '"{\\"state\\": "' in message, message  # what came, as a JSON string
        assert browser.console_errors == []
        assert browser.outside == []
        assert browser.errors == []


SHIP_SAILS_SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
"""A seed whose four-seat My Ship Sails match (one exchange a deal, the rules bots, the person passing
its first card each turn) nobody declares in: every total is 0 and the four seats share the win."""


def _tied_ship_sails_match(page: Page, base: str) -> list[dict[str, Any]]:
    """Plays the seeded four-seat My Ship Sails match (one exchange a deal) to its end, clicking the first
    legal move each turn; the outcome of every ``score`` the service answered, in order."""
    new = f"{base}/v1/games/my-ship-sails/new"

    def seeded(route: Route) -> None:
        body = route.request.post_data_json
        assert isinstance(body, dict)
        route.continue_(post_data=json.dumps({**body, "seed": SHIP_SAILS_SEED}))

    page.route(new, seeded)
    scores: list[Any] = []
    page.on("response", lambda response: scores.append(response) if response.url.endswith("/score") else None)
    page.goto(f"{base}/play")
    _start_match(page, "my-ship-sails", 4, {"max_exchanges": 1}, "rules")
    state, _ = page.evaluate(FINISH_BY_CLICKING)
    assert state == "over", page.locator("#error").inner_text()
    page.locator("#verdict").wait_for()
    return [response.json()["outcome"] for response in scores]


def test_a_tie_for_first_place_is_announced_as_a_tie(plain_service: str, chromium: object) -> None:
    """When the service's outcome has several winners, seat 0 among them, the page says seat 0 shares
    first place and with whom, in the heading and in the log, not that it won."""
    with limited_page(chromium, plain_service) as browser:
        page = _page(browser)
        outcomes = _tied_ship_sails_match(page, plain_service)
        assert outcomes[-1]["over"] and outcomes[-1]["winners"] == [0, 1, 2, 3]  # (the seed's tie)
        tie = "The match is a tie: you share first place with Bot 1, Bot 2 and Bot 3."
        assert page.locator("#result h2").inner_text() == tie
        assert page.locator("#log li[data-event=match_ended]").inner_text() == tie
        assert browser.errors == []
        assert browser.outside == []


def test_a_tie_between_sides_is_announced_as_a_tie(plain_service: str, chromium: object) -> None:
    """In a game of sides a final outcome whose winners are on both sides is a tie between the sides, not
    a win of seat 0's side. (Sedmice and Four-handed Seven-Up always name one side, so the test answers
    the last ``score`` itself, with every seat a winner.)"""
    with limited_page(chromium, plain_service) as browser:
        page = _page(browser)

        def tied(route: Route) -> None:
            response = route.fetch()
            score = response.json()
            if score["outcome"]["over"]:
                score["outcome"]["winners"] = [0, 1, 2, 3]
            route.fulfill(response=response, json=score)

        page.route(f"{plain_service}/v1/games/sedmice/score", tied)
        page.goto(f"{plain_service}/play")
        _start_match(page, "sedmice", 4, {"target_hits": 1}, "random")
        state, _ = page.evaluate(FINISH_BY_CLICKING)
        assert state == "over", page.locator("#error").inner_text()
        assert page.locator("#result h2").inner_text() == "The match is a tie: both sides share first place."
        assert browser.errors == []


def test_nothing_prompts_a_move_once_the_match_is_over(plain_service: str, chromium: object) -> None:
    """At the end of a My Ship Sails match the table says the match is over: it asks nobody to pass or
    declare, and names nobody as choosing."""
    with limited_page(chromium, plain_service) as browser:
        page = _page(browser)
        _tied_ship_sails_match(page, plain_service)
        table = page.locator("#table").inner_text()
        assert "The match is over." in table
        assert "Pass one card" not in table and "choosing" not in table, table
        assert page.locator(".seat.acting").count() == 0
        assert page.locator("button.move").count() == 0
        assert browser.errors == []


@pytest.mark.parametrize(("game", "option"), [("sevens", "deals"), ("domino-fan-tan", "hand_size")])
def test_an_empty_required_option_is_refused_by_the_form(
    plain_service: str, chromium: object, game: str, option: str
) -> None:
    """A number option that may not be null, cleared, stops New match in the form (as a number out of
    range does): nothing is sent; filled again, the match is dealt with it. An option that may be null
    (My Ship Sails' max exchanges) may be left empty."""
    with limited_page(chromium, plain_service) as browser:
        page = _page(browser)
        sent: list[Any] = []
        page.on(
            "request",
            lambda request: sent.append(request.post_data_json) if request.url.endswith("/new") else None,
        )
        page.goto(f"{plain_service}/play")
        page.locator("#start:not([disabled])").wait_for()
        page.select_option("#game", game)
        field = page.locator(f"#option-{option}")
        field.fill("")
        page.locator("#start").click()
        assert field.evaluate("input => input.validity.valueMissing") is True
        assert page.locator("#status").get_attribute("data-state") == "idle"
        field.fill("2")
        page.locator("#start").click()
        assert _settle(page) == "your-turn"
        assert [body["options"][option] for body in sent] == [2]  # the empty form sent nothing
        page.select_option("#game", "my-ship-sails")
        assert page.locator("#option-max_exchanges").get_attribute("required") is None
        assert browser.errors == []
        assert browser.outside == []


def test_a_sealed_new_is_sent_once(referee_service: str, chromium: object) -> None:
    """Referee mode: a sealed ``new`` whose connection fails is not sent again (each one opens a table in
    the service's match store); the page says the service could not be reached, and its button deals
    again."""
    with limited_page(chromium, referee_service) as browser:
        page = _page(browser)
        opened = f"{referee_service}/v1/games/sevens/sealed/new"
        sent: list[str] = []

        def fail_the_first(route: Route) -> None:
            sent.append(route.request.post_data or "")
            if len(sent) == 1:
                route.abort()
            else:
                route.fallback()

        page.route(opened, fail_the_first)
        page.goto(f"{referee_service}/play")
        _start_match(page, "sevens", 4, {"deals": 1}, "random")
        assert _settle(page) == "error"
        assert len(sent) == 1
        assert "could not be reached" in page.locator("#error-text").inner_text()
        page.locator("#retry").click()
        assert _settle(page) == "your-turn"
        assert len(sent) == 2
        assert browser.errors == []
        assert browser.outside == []


def _table_as_shown(page: Page) -> dict[str, Any]:
    """What the person sees of the match: the title, the hand and its playable cards, the other buttons,
    the log and the totals."""
    return {
        "title": page.locator("#table-title").inner_text(),
        "hand": page.locator("#hand [data-card]").evaluate_all("cards => cards.map(c => c.dataset.card)"),
        "moves": _shown_moves(page),
        "log": page.locator("#log li").all_inner_texts(),
        "scores": page.locator("#scores").inner_text(),
        "game": page.locator("#game").input_value(),
        "deals": page.locator("#option-deals").input_value(),
    }


def _finish_and_check(page: Page) -> None:
    state, _ = page.evaluate(FINISH_BY_CLICKING)
    assert state == "over", page.locator("#error").inner_text()
    page.locator("#verdict").wait_for()
    verdict = page.locator("#verdict")
    assert verdict.get_attribute("data-verified") == "true", verdict.inner_text()
    assert page.locator("#log li[data-event=match_ended]").count() == 1


@pytest.mark.parametrize("mode", ["plain", "referee"])
def test_a_reload_goes_on_with_the_match(request: pytest.FixtureRequest, chromium: object, mode: str) -> None:
    """The page loaded again in the same tab shows the match where it stood (the form's settings, the
    hand, the legal moves, the log, the totals) and plays it to the end; the deal check still holds. A
    new tab starts clean."""
    base = _services(request, mode)
    with limited_page(chromium, base) as browser:
        page = _page(browser)
        page.goto(f"{base}/play")
        _start_match(page, "sevens", 4, {"deals": 1})
        assert _settle(page) == "your-turn"
        for _ in range(2):
            page.locator("button.move:not([disabled])").first.click()
            assert _settle(page) == "your-turn"
        before = _table_as_shown(page)
        assert before["log"] and before["game"] == "sevens" and before["deals"] == "1"
        page.reload()
        assert _settle(page) == "your-turn"
        assert _table_as_shown(page) == before
        _finish_and_check(page)
        other = page.context.new_page()
        other.goto(f"{base}/play")
        other.locator("#start:not([disabled])").wait_for()
        assert other.locator("#status").get_attribute("data-state") == "idle"
        assert other.locator("#log li").count() == 0
        assert browser.errors == []
        assert browser.console_errors == []
        assert browser.outside == []


def test_a_reload_after_a_move_whose_answer_was_lost_goes_on_from_the_latest_token(
    referee_service: str, chromium: object
) -> None:
    """Referee mode: the service applied the person's move but its answer never came back (twice: the page
    asks once more), and the page was loaded again. The kept token is the one before that move; another
    move on it is stale, and the page goes on from the latest token the refusal names, to the end of the
    match and a deal check that holds."""
    with limited_page(chromium, referee_service) as browser:
        page = _page(browser)
        applied = f"{referee_service}/v1/games/sevens/sealed/apply"
        lost: list[int] = []

        def apply_then_lose_the_answer(route: Route) -> None:
            answer = route.fetch()  # the service applies the move
            lost.append(answer.status)
            route.abort()

        page.goto(f"{referee_service}/play")
        _start_match(page, "sevens", 4, {"deals": 1})
        assert _settle(page) == "your-turn"
        while page.locator("button.move:not([disabled])").count() < 2:  # a turn with another move
            page.locator("button.move:not([disabled])").first.click()
            assert _settle(page) == "your-turn"
        page.route(applied, apply_then_lose_the_answer)
        page.locator("button.move:not([disabled])").first.click()
        assert _settle(page) == "error"
        assert lost == [200, 200]  # the move, and the same request again (the store answers it alike)
        page.unroute(applied)
        page.reload()
        assert _settle(page) == "your-turn"
        page.locator("button.move:not([disabled])").nth(1).click()  # not the move already applied
        assert _settle(page) in ("your-turn", "over"), page.locator("#error").inner_text()
        assert page.locator("#error").is_hidden()
        _finish_and_check(page)
        assert browser.errors == []
        assert browser.outside == []


def _card_text(card: str) -> str:
    """A card as the page writes it in text (``TC`` is 10♣)."""
    return {"T": "10"}.get(card[0], card[0]) + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[card[1]]


def test_plain_mode_names_the_face_up_card_a_bot_draws(plain_service: str, chromium: object) -> None:
    """California Jack in plain mode: a bot's draw of the face-up stock card (public: referee mode's
    answers name it too) is named in the log; its face-down draw is not."""
    with limited_page(chromium, plain_service) as browser:
        page = _page(browser)
        answers: list[Any] = []
        page.on(
            "response",
            lambda response: (
                answers.append(response)
                if re.search(r"/california-jack/(new|apply)$", response.url)
                else None
            ),
        )
        page.goto(f"{plain_service}/play")
        _start_match(page, "california-jack", 2, {}, "random")

        def bot_draws() -> list[str | None]:
            events = [event for answer in answers for event in answer.json()["events"]]
            return [event["card"] for event in events if event["type"] == "drew" and event["player"] == 1]

        state = _settle(page)
        while state == "your-turn" and not any(bot_draws()):
            page.locator("button.move:not([disabled])").first.click()
            state = _settle(page)
        draws = bot_draws()
        assert any(draws), state
        expected = [f"Bot 1 drew {_card_text(card) if card else 'a card'}." for card in draws]
        logged = page.locator("#log li[data-event=drew]").all_inner_texts()
        assert [line for line in reversed(logged) if line.startswith("Bot 1 ")] == expected
        assert browser.errors == []


def test_my_ship_sails_names_the_card_you_passed(plain_service: str, chromium: object) -> None:
    """My Ship Sails in plain mode: the log names the card seat 0 passed to Bot 1 and the one it received
    from Bot 3, and says nothing of the passes seat 0 took no part in (as referee mode's answers)."""
    with limited_page(chromium, plain_service) as browser:
        page = _page(browser)
        page.goto(f"{plain_service}/play")
        _start_match(page, "my-ship-sails", 4, {"max_exchanges": 2}, "random")
        assert _settle(page) == "your-turn"
        passed = page.locator("#hand button.move").first
        card = passed.get_attribute("data-card")
        assert card is not None
        passed.click()
        page.locator("#log li[data-event=exchanged]").first.wait_for()
        received = page.locator("#log li[data-event=received]").all_inner_texts()
        assert f"Bot 1 received {_card_text(card)} from You." in received, received
        assert [line for line in received if line.startswith("You received ")], received
        assert len(received) == 2, received
        assert browser.errors == []


def test_every_game_is_offered() -> None:
    """The browser matches cover every game the service has."""
    assert set(MATCHES) == set(GAMES)
