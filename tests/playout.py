"""Seeded random playouts through the engine's public functions, for the tests (the bench has its own)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from sevens_rules.engine.game import Game

AnyGame = Game[Any, Any, Any, Any, Any, Any]


def playout(
    game: AnyGame, players: int, seed: int, options: Any = None, max_steps: int = 200_000
) -> Iterator[tuple[Any, Any]]:
    """Yield ``(state, move)`` for each move of a random match to its end; the last state has no move."""
    rng = random.Random(seed)
    state = game.new(players, options or game.models.options(), seed, None, None)
    for _ in range(max_steps):
        _, moves = game.moves(state)
        if not moves:
            yield state, None
            return
        move = rng.choice(moves)
        yield state, move
        state, _ = game.apply(state, move)
    raise AssertionError(f"{game.id} with {players} players did not end in {max_steps} moves")
