"""The bot levels: ``random``, ``rules`` and ``search``, each deciding from one seat's information only.

``random`` picks a uniform legal move. ``rules`` applies the game's documented heuristic
(:mod:`sevens_rules.engine.bots.rules`). ``search`` compares the seat's moves by paired playouts over
states drawn by the sampler (:mod:`sevens_rules.engine.bots.search`). None of them reads a hidden
card: the legal moves of the seat to act depend on its own hand and the public cards, and the search
sees the real state only through the sampler, which reads the seat's view.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...schema.bots import BotLevel
from ..errors import IssueAt, MatchOverError, NotYourTurnError
from . import position
from .position import AnyGame
from .rules import drawn_by_lot, rules_move
from .sampler import rng_for
from .search import Draws, Reward, search_move

SEEDED_ITERATIONS_PER_MS = 2
"""Search iterations per millisecond of budget when a ``bot_seed`` is given (see
:data:`SEEDED_PLAYOUT_MOVES_PER_MS`)."""
SEEDED_PLAYOUT_MOVES_PER_MS = 20
"""Moves made in all the playouts per millisecond of budget when a ``bot_seed`` is given. A seeded search
does a fixed amount of work, whichever of the two caps comes first (the budget still bounds it), so that
the same view, seed and budget give the same move whatever the machine's speed or load, as long as the
machine does that work within the budget. A playout's cost grows with its length, which an iteration
count alone does not bound (a playout from a deal's first moves is a whole deal long): this cap keeps
the slowest seeded search of every game to a small part of its budget, with room for hosts several
times slower than the CI machine (bench/README.md, "Seeded searches", has the times)."""


@dataclass(frozen=True)
class BotChoice:
    """A bot's answer: its move, the level, the search iterations run and the milliseconds spent."""

    move: Any
    level: BotLevel
    iterations: int
    elapsed_ms: float


def seat_moves(game: AnyGame, state: Any, seat: int, argument: str = "player") -> list[Any]:
    """The legal moves of ``seat``, refusing a finished match and a seat not to act (the legal moves of
    the others are not listed: a bot's caller learns nothing of other seats from a refusal); ``argument``
    names the request field holding the seat."""
    seats, moves = game.moves(state, seat)
    error: MatchOverError | NotYourTurnError | None = None
    if not seats:
        error = MatchOverError(f"{game.no_seat_to_act(state)}; a bot has no move to make.", [])
    elif seat not in seats:
        error = NotYourTurnError(
            f"Seat {seat} is not to act; to act: {', '.join(map(str, seats))}.",
            [],
            [IssueAt((), "this seat is not to act now")],
        )
    if error is not None:
        error.argument = argument
        raise error
    return moves


def search_deadline(started: float, budget_ms: int, reserve_ms: float = 0.0) -> float:
    """When a search whose budget began at ``started`` stops: ``budget_ms`` later, less ``reserve_ms``."""
    return started + (budget_ms - reserve_ms) / 1000


def choose(
    game: AnyGame,
    state: Any,
    seat: int,
    level: BotLevel,
    budget_ms: int,
    bot_seed: str | None,
    iterations: int | None = None,
    argument: str = "player",
    clock: Callable[[], float] = time.perf_counter,
    sampler: Draws | None = None,
    reward: Reward | None = None,
    started: float | None = None,
    reserve_ms: float = 0.0,
    between_playouts: Callable[[], object] = lambda: None,
) -> BotChoice:
    """The move ``seat``'s bot makes at ``level`` within ``budget_ms`` (``iterations``: a search stops
    after that many instead, within the budget still; reproducible for the same ``bot_seed``). A refusal
    names ``argument``, the request field holding the seat. ``clock`` measures the budget: the service's
    is wall time; a tournament on a shared machine passes ``time.process_time``, so that every move
    thinks for the same CPU time whatever the other processes do. ``sampler`` and ``reward`` replace the
    search's own (:func:`search.search_move`): the bench's experiments, never the service. ``started``
    is when the budget began, a ``time.perf_counter()`` reading (the service: when the request arrived,
    so that time spent waiting for a thread to think in counts against the budget; default: now); a
    search whose budget is spent before it starts answers the ``rules`` move with no iteration, and so
    does a search whose heuristic draws its move by lot (:func:`~.rules.drawn_by_lot`). A search stops
    ``reserve_ms`` before the budget's end (the service keeps that long to write the answer), and calls
    ``between_playouts`` before each of its playouts (:func:`~.search.search_move`)."""
    if started is None:
        started = time.perf_counter()
    deadline = search_deadline(started if clock is time.perf_counter else clock(), budget_ms, reserve_ms)
    moves = seat_moves(game, state, seat, argument)
    rng = rng_for(bot_seed)
    ran = 0
    if len(moves) == 1:
        move = moves[0]
    elif level is BotLevel.random:
        move = moves[rng.randrange(len(moves))]
    elif level is BotLevel.rules or clock() >= deadline or drawn_by_lot(game, state, seat):
        # a search with no time left, or whose heuristic draws by lot: the rules move
        move = rules_move(game, state, seat, moves, rng)
    else:
        playout_moves = None
        if iterations is None and bot_seed is not None:
            iterations = budget_ms * SEEDED_ITERATIONS_PER_MS
            playout_moves = budget_ms * SEEDED_PLAYOUT_MOVES_PER_MS
        move, ran = search_move(
            game,
            state,
            seat,
            moves,
            rng,
            deadline,
            iterations,
            clock,
            sampler,
            reward,
            playout_moves,
            between_playouts,
        )
    elapsed = (time.perf_counter() - started) * 1000
    return BotChoice(move, level, ran, round(elapsed, 3))


__all__ = ["BotChoice", "choose", "position", "search_deadline", "seat_moves"]
