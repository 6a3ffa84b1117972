"""The request stack itself: the body deadlines behind one timer, and the application without Starlette's
outer error layer (the access middleware answers and logs what escapes)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import orjson
import pytest
from starlette.routing import Route
from starlette.testclient import TestClient

from sevens_rules.api.app import Service, create_app
from sevens_rules.api.limits import BodyDeadlines, BodyTimeoutError, Settings

Message = dict[str, Any]


def never() -> Any:
    """A ``receive`` whose message never comes (a body that stopped arriving)."""

    async def receive() -> Message:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    return receive


def test_a_later_waiter_with_an_earlier_deadline_times_out_first() -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        deadlines = BodyDeadlines(loop)
        far = asyncio.ensure_future(deadlines.receive(loop.time() + 5, never()))
        await asyncio.sleep(0)  # far is waiting, the timer armed for its deadline
        with pytest.raises(BodyTimeoutError):
            await deadlines.receive(loop.time() + 0.01, never())
        assert not far.done()  # its deadline is a minute away
        far.cancel()
        with pytest.raises(asyncio.CancelledError):
            await far

    asyncio.run(scenario())


def test_a_second_chunk_keeps_the_request_deadline_among_later_waiters() -> None:
    # a request that waits again (its next chunk) keeps the deadline it got with its head, even when
    # requests that came after it, with later deadlines, are waiting already
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        deadlines = BodyDeadlines(loop)
        own_deadline = loop.time() + 0.02

        async def first_chunk() -> Message:
            return {"type": "http.request", "body": b"{", "more_body": True}

        assert (await deadlines.receive(own_deadline, first_chunk))["more_body"]
        later = asyncio.ensure_future(deadlines.receive(loop.time() + 5, never()))
        await asyncio.sleep(0)
        with pytest.raises(BodyTimeoutError):
            await deadlines.receive(own_deadline, never())
        assert not later.done()
        later.cancel()
        with pytest.raises(asyncio.CancelledError):
            await later

    asyncio.run(scenario())


def test_a_cancellation_from_elsewhere_is_no_timeout() -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        deadlines = BodyDeadlines(loop)
        waiting = asyncio.ensure_future(deadlines.receive(loop.time() + 5, never()))
        await asyncio.sleep(0)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        # and a request that waits afterwards is timed on its own deadline
        with pytest.raises(BodyTimeoutError):
            await deadlines.receive(loop.time() + 0.01, never())

    asyncio.run(scenario())


def test_a_body_that_arrived_in_time_is_never_cancelled_afterwards() -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        deadlines = BodyDeadlines(loop)

        async def whole_body() -> Message:
            return {"type": "http.request", "body": b"{}", "more_body": False}

        answered = asyncio.Event()

        async def request() -> str:
            await deadlines.receive(loop.time() + 0.01, whole_body)
            await answered.wait()  # still running when the timer armed for its deadline fires
            return "answered"

        async def slow_body() -> None:
            with pytest.raises(BodyTimeoutError):
                await deadlines.receive(loop.time() + 0.02, never())
            answered.set()

        running = asyncio.ensure_future(request())
        await slow_body()
        assert await running == "answered"

    asyncio.run(scenario())


def test_the_application_is_the_service_with_its_routes() -> None:
    app = create_app(Settings())
    assert isinstance(app, Service)
    paths = {getattr(route, "path", None) for route in app.routes}
    assert {"/graphql", "/openapi.json", "/metrics", "/v1/games/sjuan/moves"} <= paths


def test_an_error_escaping_a_route_is_one_logged_500_problem(caplog: pytest.LogCaptureFixture) -> None:
    app = create_app(Settings())

    async def broken(request: Any) -> Any:
        raise RuntimeError("a bug")

    app.router.routes.insert(0, Route("/broken", broken, methods=["GET"]))
    # raise_server_exceptions=True: the exception must not escape the application
    with caplog.at_level(logging.ERROR), TestClient(app) as client:
        response = client.get("/broken", headers={"x-request-id": "req-1"})
    assert response.status_code == 500
    assert response.headers["content-type"] == "application/problem+json"
    assert response.headers["x-request-id"] == "req-1"
    body = orjson.loads(response.content)
    assert (body["code"], body["request_id"]) == ("internal", "req-1")
    assert "a bug" not in response.text
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info is not None
