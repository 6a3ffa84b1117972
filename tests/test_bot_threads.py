"""A bot's search thinks in a worker thread, one search per worker process at a time, within its budget
counted from the request's arrival (README, "Bots and the sampler")."""

from __future__ import annotations

import asyncio
import random
import sys
import threading
import time
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient

from sevens_rules.api import bots as api_bots
from sevens_rules.api.app import create_app
from sevens_rules.api.bots import MAX_BUDGET_VARIABLE
from sevens_rules.api.context import RequestContext, current_request
from sevens_rules.api.limits import Settings
from sevens_rules.api.telemetry import THREAD_SWITCH_SECONDS
from sevens_rules.engine.bots.levels import choose
from sevens_rules.engine.bots.rules import rules_move
from sevens_rules.engine.bots.sampler import rng_for, sample_states
from sevens_rules.engine.dealing import Seeding
from sevens_rules.engine.errors import NotYourTurnError
from sevens_rules.engine.registry import GAMES
from sevens_rules.schema.bots import BotLevel

THINKING_MS = 1000
"""A search budget long beside answering a ``moves`` request (a few milliseconds)."""


def choosing_state(game_id: str) -> tuple[Any, int]:
    """A seeded Sevens-like state whose seat to act has at least two legal moves, and that seat."""
    game = GAMES[game_id]
    state = game.new(4, game.models.options(), Seeding("ab" * 32), None, None)
    rng = random.Random(7)
    while True:
        seats, moves = game.moves(state)
        if len(moves) >= 2:
            return state, seats[0]
        state, _ = game.apply(state, rng.choice(moves))


def as_json(state: Any) -> Any:
    return state.model_dump(mode="json")


@pytest.fixture
def thinks(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """Allows budgets of :data:`THINKING_MS`; the event is set when a bot starts choosing a move."""
    monkeypatch.setenv(MAX_BUDGET_VARIABLE, str(THINKING_MS))
    started = threading.Event()
    choosing = api_bots.bot_choice

    def noted(*args: Any, **kwargs: Any) -> Any:
        started.set()
        return choosing(*args, **kwargs)

    monkeypatch.setattr(api_bots, "bot_choice", noted)
    return started


async def answered_while_thinking(thinks: threading.Event, graphql: bool = False) -> None:
    """Send a search of :data:`THINKING_MS` and, once it thinks (``thinks`` is set), three ``moves``
    requests: each is answered before the search (on the event loop, which the search does not hold)."""
    state, seat = choosing_state("sevens")
    app = create_app(Settings())
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://rules") as client:
        if graphql:
            query = (
                "query($s: SevensStateInput!, $p: Int!, $l: BotLevel!, $b: Int) { sevensBot(state: $s, "
                "player: $p, level: $l, budget_ms: $b) { ... on SevensBotResponse { level iterations } } }"
            )

            def bot(level: str) -> Any:
                variables = {"s": as_json(state), "p": seat, "l": level, "b": THINKING_MS}
                return client.post("/graphql", json={"query": query, "variables": variables})

            for _ in range(2):  # answered quickly at the rules level: the document is kept as a quick one
                quick = await bot("rules")
                assert quick.json()["data"]["sevensBot"]["level"] == "rules"
            thinks.clear()
            thinking = asyncio.create_task(bot("search"))
        else:
            body = {"state": as_json(state), "player": seat, "level": "search", "budget_ms": THINKING_MS}
            thinking = asyncio.create_task(client.post("/v1/games/sevens/bot", json=body))
        await asyncio.to_thread(thinks.wait)
        for _ in range(3):
            moves = await client.post("/v1/games/sevens/moves", json={"state": as_json(state)})
            assert moves.status_code == 200 and moves.json()["to_act"] == [seat]
            assert not thinking.done()
        answer = (await thinking).json()
    found = answer["data"]["sevensBot"] if graphql else answer
    assert found["level"] == "search" and found["iterations"] > 0


def test_other_requests_are_answered_while_a_rest_bot_thinks(thinks: threading.Event) -> None:
    asyncio.run(answered_while_thinking(thinks))


def test_other_requests_are_answered_while_a_graphql_bot_thinks_even_after_quick_answers(
    thinks: threading.Event,
) -> None:
    asyncio.run(answered_while_thinking(thinks, graphql=True))


class BotRequest:
    """The fields of a bot request that :func:`api_bots.bot_choice` reads."""

    def __init__(self, level: BotLevel, bot_seed: str | None = "waiting") -> None:
        self.level = level
        self.bot_seed = bot_seed


def test_a_search_that_waits_out_its_budget_answers_the_rules_move() -> None:
    game = GAMES["sjuan"]
    state, seat = choosing_state("sjuan")
    moves = game.moves(state, seat)[1]
    held = api_bots._seeded.turn.acquire(blocking=False)  # another seeded search is thinking
    assert held
    try:
        choice = api_bots.bot_choice(game, state, seat, BotRequest(BotLevel.search), 30)
    finally:
        api_bots._seeded.turn.release()
    assert choice.level is BotLevel.search and choice.iterations == 0
    assert choice.move == rules_move(game, state, seat, moves, rng_for("waiting"))


def test_an_unseeded_search_waits_for_the_unseeded_search_before_it() -> None:
    game = GAMES["sjuan"]
    state, seat = choosing_state("sjuan")
    assert api_bots._searching.acquire(blocking=False)  # an unseeded search is thinking
    try:
        choice = api_bots.bot_choice(game, state, seat, BotRequest(BotLevel.search, None), 30)
    finally:
        api_bots._searching.release()
    assert choice.level is BotLevel.search and choice.iterations == 0


def test_a_seeded_search_does_not_wait_for_an_unseeded_one_and_answers_as_alone() -> None:
    # a seeded answer depends on the view, level, budget and seed, not on an unseeded search thinking to
    # its budget's end in the same worker (README, "Levels")
    game = GAMES["sjuan"]
    state, seat = choosing_state("sjuan")
    alone = api_bots.bot_choice(game, state, seat, BotRequest(BotLevel.search, "beside"), 200)
    assert api_bots._searching.acquire(blocking=False)  # an unseeded search is thinking
    try:
        beside = api_bots.bot_choice(game, state, seat, BotRequest(BotLevel.search, "beside"), 200)
    finally:
        api_bots._searching.release()
    assert alone.iterations > 0
    assert (beside.move, beside.iterations) == (alone.move, alone.iterations)


def test_an_unseeded_search_holds_still_while_a_seeded_search_is_present() -> None:
    seeded = api_bots.SeededSearches()
    far = time.perf_counter() + 60
    seeded.hold_unseeded(far)  # nobody present: returns at once
    entered, holding, leave = threading.Event(), threading.Event(), threading.Event()
    order: list[str] = []

    def seeded_search() -> None:
        with seeded.present():
            entered.set()
            leave.wait(30)
            order.append("seeded left")

    def unseeded_search() -> None:
        holding.set()
        seeded.hold_unseeded(far)
        order.append("unseeded went on")

    searching = threading.Thread(target=seeded_search)
    searching.start()
    assert entered.wait(30)
    held = threading.Thread(target=unseeded_search)
    held.start()
    assert holding.wait(30)
    leave.set()  # were the unseeded search not held, it would have gone on before this
    searching.join(30)
    held.join(30)
    assert not held.is_alive()
    assert order == ["seeded left", "unseeded went on"]


def test_an_unseeded_search_held_past_its_deadline_goes_on_to_stop() -> None:
    seeded = api_bots.SeededSearches()
    with seeded.present():
        held = threading.Thread(target=seeded.hold_unseeded, args=(time.perf_counter(),))
        held.start()  # the deadline has come: no wait, though the seeded search stays
        held.join(30)
        assert not held.is_alive()


def test_a_search_calls_between_playouts_before_every_playout() -> None:
    game = GAMES["sjuan"]
    state, seat = choosing_state("sjuan")
    calls: list[int] = []
    choice = choose(
        game,
        state,
        seat,
        BotLevel.search,
        200,
        "between",
        iterations=12,
        between_playouts=lambda: calls.append(1),
    )
    assert choice.iterations == 12
    assert len(calls) == 13  # one before each playout run, and one before the check that stopped the search


def test_a_search_whose_budget_was_spent_before_it_started_answers_the_rules_move() -> None:
    game = GAMES["fan-tan"]
    state, seat = choosing_state("fan-tan")
    moves = game.moves(state, seat)[1]
    long_ago = time.perf_counter() - 1.0
    choice = choose(game, state, seat, BotLevel.search, 200, "late", started=long_ago)
    assert choice.iterations == 0 and choice.level is BotLevel.search
    assert choice.move == rules_move(game, state, seat, moves, rng_for("late"))


def test_a_search_stops_the_answer_reserve_before_its_budget_ends() -> None:
    # arrived 190 ms into a 200 ms budget: less than the reserve is left, so nothing is searched
    game = GAMES["sjuan"]
    state, seat = choosing_state("sjuan")
    moves = game.moves(state, seat)[1]
    assert api_bots.answer_reserve_ms(200) == api_bots.ANSWER_RESERVE_MS > 10
    request = RequestContext("reserve-test")
    request.arrived = time.perf_counter() - 0.190
    token = current_request.set(request)
    try:
        choice = api_bots.bot_choice(game, state, seat, BotRequest(BotLevel.search), 200)
    finally:
        current_request.reset(token)
    assert choice.level is BotLevel.search and choice.iterations == 0
    assert choice.move == rules_move(game, state, seat, moves, rng_for("waiting"))


def test_the_answer_reserve_is_a_quarter_of_a_small_budget() -> None:
    assert api_bots.answer_reserve_ms(8) == 2
    assert api_bots.answer_reserve_ms(10_000) == api_bots.ANSWER_RESERVE_MS


def test_a_seat_not_to_act_is_refused_without_waiting_for_a_search_turn() -> None:
    game = GAMES["sjuan"]
    state, seat = choosing_state("sjuan")
    other = (seat + 1) % 4
    assert api_bots._searching.acquire(blocking=False)
    try:
        with pytest.raises(NotYourTurnError):
            api_bots.bot_choice(game, state, other, BotRequest(BotLevel.search), 10_000)
    finally:
        api_bots._searching.release()


def test_a_worker_hands_the_interpreter_lock_on_within_a_millisecond() -> None:
    usual = sys.getswitchinterval()
    try:
        with TestClient(create_app(Settings())):  # the worker's startup
            assert sys.getswitchinterval() == pytest.approx(THREAD_SWITCH_SECONDS)
    finally:
        sys.setswitchinterval(usual)


def test_other_requests_are_answered_while_a_sample_is_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    drawing, done = threading.Event(), threading.Event()

    def held(*args: Any, **kwargs: Any) -> Any:
        drawing.set()
        done.wait(30)  # until the test has been answered meanwhile (on the event loop, were it held)
        return sample_states(*args, **kwargs)

    monkeypatch.setattr(api_bots, "sample_states", held)

    async def answered_while_drawing() -> None:
        state, seat = choosing_state("sjuan")
        app = create_app(Settings())
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://r") as client:
            body = {"state": as_json(state), "player": seat, "count": 2, "sample_seed": "s"}
            sampling = asyncio.create_task(client.post("/v1/games/sjuan/sample", json=body))
            await asyncio.to_thread(drawing.wait)
            moves = await client.post("/v1/games/sjuan/moves", json={"state": as_json(state)})
            assert moves.status_code == 200 and not sampling.done()
            done.set()
            assert len((await sampling).json()["states"]) == 2

    asyncio.run(answered_while_drawing())
