"""The wire models of every game's plain operations, built once and shared by the plain and the sealed
operation lists (a sealed score answers with the plain score's model)."""

from __future__ import annotations

from functools import cache

from ..engine.registry import GAMES
from ..schema.operations import OperationModels, build_operation_models


@cache
def operation_models(game_id: str) -> OperationModels:
    """The request/response models of one game, built once."""
    game = GAMES[game_id]
    return build_operation_models(game.id, game.name, game.table_sizes(), game.models)
