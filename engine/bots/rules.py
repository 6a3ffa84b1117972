"""The ``rules`` level: a documented heuristic per game, written from the rules texts."""

from __future__ import annotations

import random
from typing import Any

from sevens_rules.engine.bots.position import AnyGame


def rules_move(game: AnyGame, state: Any, seat: int, moves: list[Any], rng: random.Random) -> Any:
    """The heuristic's move among ``moves`` (the seat's legal moves)."""
    return moves[0]
