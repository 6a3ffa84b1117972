"""The ``sample`` and ``bot`` operations of every game, plain and sealed (referee mode).

The plain ones read a posted state (checked first, as every operation does); the sealed ones open the
caller's token and check its seat key, and answer for that seat only. A bot reads only what its seat
may see (see :mod:`sevens_rules.engine.bots.levels`).
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import cache, partial
from typing import Any, NoReturn

from ..engine.bots.levels import BotChoice, choose, search_deadline, seat_moves
from ..engine.bots.sampler import sample_states
from ..engine.errors import InvalidRequestError, IssueAt
from ..engine.game import Game
from ..engine.models import constructed
from ..engine.registry import GAMES
from ..schema.bots import BUDGET_LIMIT_MS, BotLevel, BotModels, build_bot_models
from .context import current_request
from .sealed import refuse_table
from .sealing import DISABLED_DETAIL, Keyring, SealedModeDisabledError, check_seat_key, open_token

AnyGame = Game[Any, Any, Any, Any, Any, Any]

DEFAULT_MAX_BUDGET_MS = 200
"""The largest ``budget_ms`` a bot request may ask for, unless ``RULES_BOT_MAX_BUDGET_MS`` says otherwise."""
DEFAULT_BUDGET_MS = 100
"""The budget of a bot request that names none (or the maximum, when that is lower)."""
MAX_BUDGET_VARIABLE = "RULES_BOT_MAX_BUDGET_MS"


def max_budget_ms(env: Mapping[str, str] | None = None) -> int:
    """The configured maximum ``budget_ms`` (``RULES_BOT_MAX_BUDGET_MS``, 1 to 10,000; default 200).
    The service checks the variable at startup (``api/limits.py``) and reads it here once."""
    return _max_budget_ms(
        os.environ.get(MAX_BUDGET_VARIABLE, "") if env is None else env.get(MAX_BUDGET_VARIABLE, "")
    )


@cache
def _max_budget_ms(raw: str) -> int:
    raw = raw.strip()
    if raw.isdigit() and 1 <= int(raw) <= BUDGET_LIMIT_MS:
        return int(raw)
    return DEFAULT_MAX_BUDGET_MS


@cache
def bot_models(game_id: str) -> BotModels:
    """The ``sample`` and ``bot`` models of one game, built once."""
    game = GAMES[game_id]
    return build_bot_models(game.id, game.name, game.models)


def checked_budget(budget_ms: int | None) -> int:
    """The budget to think within, refusing one above the configured maximum."""
    most = max_budget_ms()
    if budget_ms is None:
        return min(DEFAULT_BUDGET_MS, most)
    if budget_ms > most:
        raise InvalidRequestError(
            f"budget_ms may be at most {most} on this service.",
            [IssueAt(("budget_ms",), f"must be at most {most} (the configured maximum)")],
        )
    return budget_ms


ANSWER_RESERVE_MS = 15
"""A search stops this long before its budget ends, and a search waiting for its turn gives up this long
before, however large the budget (a quarter of it when that is less): the time to hand the move back from
the worker thread and write the answer, with other bot requests finishing at the same moment, inside the
budget plus 20 ms that an answer may take (what it buys under load: bench/README.md, "Attacks",
``python -m bench.attacks --only bot``)."""


def answer_reserve_ms(budget_ms: int) -> float:
    """How long before ``budget_ms`` ends a search of that budget stops (:data:`ANSWER_RESERVE_MS`)."""
    return min(ANSWER_RESERVE_MS, budget_ms / 4)


_searching = threading.Semaphore(1)
"""Held by the one unseeded ``search`` a worker process runs at a time: it thinks until its budget's end,
searches share a core, so two at once would each think half as much, and the process's event loop would
wait longer for its turn to serve requests."""


class SeededSearches:
    """The seeded searches of a worker process. A seeded search does a fixed amount of work, a small part
    of its budget (``engine/bots/levels.py``), and its answer is reproducible only if it does all of it:
    behind an unseeded search, which thinks until its budget's end, it would run out of budget and answer
    the ``rules`` move. So a seeded search waits only for the seeded one before it (:attr:`turn`), and an
    unseeded search holds still between two playouts while any seeded search runs or waits
    (:meth:`hold_unseeded`): one search thinks at a time all the same."""

    def __init__(self) -> None:
        self.turn = threading.Semaphore(1)
        """Held by the one seeded search running."""
        self._changed = threading.Condition()
        self._present = 0

    @contextmanager
    def present(self) -> Iterator[None]:
        """A seeded search waiting for its turn or running, for as long as the context lasts."""
        with self._changed:
            self._present += 1
        try:
            yield
        finally:
            with self._changed:
                self._present -= 1
                if not self._present:
                    self._changed.notify_all()

    def hold_unseeded(self, until: float) -> None:
        """Return once no seeded search is present, or at ``until`` (a ``time.perf_counter()`` reading):
        what an unseeded search calls before each playout."""
        if not self._present:  # read without the lock: the common case takes nothing
            return
        with self._changed:
            self._changed.wait_for(lambda: not self._present, max(until - time.perf_counter(), 0))


_seeded = SeededSearches()


def bot_choice(
    game: AnyGame, state: Any, seat: int, req: Any, budget_ms: int, argument: str = "player"
) -> BotChoice:
    """The move of ``seat``'s bot at the request's level, within ``budget_ms`` counted from the request's
    arrival, less :func:`answer_reserve_ms` to write the answer. A search waits for its turn (a seeded
    search for the seeded one before it, an unseeded one for the unseeded one before it, and for every
    seeded search between its playouts: :class:`SeededSearches`) while its budget runs; one whose budget
    ran out waiting answers the ``rules`` move without searching (``iterations`` 0 tells the caller)."""
    started = _budget_start()
    level = req.level
    seed = req.bot_seed
    reserve_ms = answer_reserve_ms(budget_ms)
    think = partial(
        choose,
        game,
        state,
        seat,
        level,
        budget_ms,
        seed,
        argument=argument,
        started=started,
        reserve_ms=reserve_ms,
    )
    moves = seat_moves(game, state, seat, argument)  # a seat that may not move is refused without waiting
    if level is not BotLevel.search or len(moves) < 2:
        return think()
    until = search_deadline(started, budget_ms, reserve_ms)
    if seed is None:
        return _in_turn(
            _searching, until, partial(think, between_playouts=partial(_seeded.hold_unseeded, until))
        )
    with _seeded.present():
        return _in_turn(_seeded.turn, until, think)


def _budget_start() -> float:
    """When a bot's budget began: the request's arrival (a ``time.perf_counter()`` reading), or now outside
    a request."""
    request = current_request.get()
    return time.perf_counter() if request is None else request.arrived


async def _answered_at(answer: Any, until: float) -> Any:
    """``answer``, once ``until`` (a ``time.perf_counter()`` reading) has come: waited for on the event
    loop (REST holds no thread meanwhile; a GraphQL document's worker thread waits for the loop)."""
    wait = until - time.perf_counter()
    if wait > 0:
        await asyncio.sleep(wait)
    return answer


def _in_turn(turn: threading.Semaphore, until: float, think: Callable[[], BotChoice]) -> BotChoice:
    """``think()`` once ``turn`` is taken; if it is not taken by ``until``, ``think()`` without it (the
    budget is spent: ``choose`` answers the rules move)."""
    if not turn.acquire(timeout=max(until - time.perf_counter(), 0)):
        return think()
    try:
        return think()
    finally:
        turn.release()


def _answer(model: type[Any], choice: BotChoice) -> Any:
    return constructed(
        model,
        move=choice.move,
        level=choice.level,
        iterations=choice.iterations,
        elapsed_ms=choice.elapsed_ms,
    )


def plain_runs(game: AnyGame) -> dict[str, Callable[[Any], Any]]:
    """``sample`` and ``bot`` on a posted state, by name."""
    m = bot_models(game.id)

    def sample(req: Any) -> Any:
        game.check(req.state)
        game.check_seat(req.state, req.player, "player")
        states = sample_states(game, req.state, req.player, req.count, req.sample_seed)
        return constructed(m.sample_response, states=states)

    def bot(req: Any) -> Any:
        game.check(req.state)
        game.check_seat(req.state, req.player, "player")
        budget = checked_budget(req.budget_ms)
        return _answer(m.bot_response, bot_choice(game, req.state, req.player, req, budget))

    return {"sample": sample, "bot": bot}


def sealed_runs(game: AnyGame, keyring: Keyring | None) -> dict[str, Callable[[Any], Any]]:
    """``sample`` and ``bot`` on a sealed match, for the caller's seat, by name (without server keys, each
    refuses as every sealed operation does)."""
    if keyring is None:
        return {"sample": _disabled, "bot": _disabled}
    m = bot_models(game.id)
    parse_state = game.models.state.model_validate_json

    def opened(req: Any) -> Any:
        sealed = open_token(keyring, game.id, req.token)
        refuse_table(sealed)  # (a table's contents are no state: its seats are still taking their places)
        state = parse_state(sealed.state_json)
        game.check_seat(state, req.seat, "seat")
        check_seat_key(keyring, game.id, sealed, req.seat, req.seat_key)
        return state

    def sample(req: Any) -> Any:
        state = opened(req)
        states = sample_states(game, state, req.seat, req.count, req.sample_seed)
        return constructed(m.sealed_sample_response, states=states)

    def bot(req: Any) -> Any:
        budget = checked_budget(req.budget_ms)
        state = opened(req)
        answer = _answer(m.sealed_bot_response, bot_choice(game, state, req.seat, req, budget, "seat"))
        if req.level is not BotLevel.search:
            return answer
        # the other seats may see when a bot's move comes: a search that stopped early (one legal move, a
        # seeded search's fixed work done, the lot drawn) would tell them of the bot's hand, so every
        # search answers when an unseeded one would, at its budget's end less the reserve
        return _answered_at(answer, search_deadline(_budget_start(), budget, answer_reserve_ms(budget)))

    return {"sample": sample, "bot": bot}


def _disabled(req: Any) -> NoReturn:
    raise SealedModeDisabledError(DISABLED_DETAIL)
