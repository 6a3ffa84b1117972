"""Request and response models of the five operations, built once per game from its own models.

Every game supplies its options, state, move, event, view and score models; this module derives the
exact request and response model of each operation, so that REST, GraphQL and OpenAPI all speak the same
types and every path gets a concrete schema.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import Field, create_model

from sevens_rules.schema.common import (
    FullDeckOrder,
    GameModels,
    IntegralInt,
    PiquetDeckOrder,
    Problem,
    Seat,
    Seed,
    WireModel,
)


def type_prefix(game_id: str) -> str:
    """``fan-tan`` -> ``FanTan``: the prefix of a game's model names."""
    return "".join(part.capitalize() for part in game_id.split("-"))


def field_prefix(game_id: str) -> str:
    """``fan-tan`` -> ``fanTan``: the prefix of a game's GraphQL root fields."""
    prefix = type_prefix(game_id)
    return prefix[0].lower() + prefix[1:]


@dataclass(frozen=True)
class OperationModels:
    """The request and response models of every operation of one game.

    They are built at run time with ``create_model``, so their fields are unknown to a type checker.
    """

    new_request: type[Any]
    new_response: type[Any]
    moves_request: type[Any]
    moves_response: type[Any]
    apply_request: type[Any]
    apply_response: type[Any]
    score_request: type[Any]
    view_request: type[Any]
    problem: type[Problem]


def _model(name: str, doc: str, **fields: Any) -> type[WireModel]:
    model: type[WireModel] = create_model(name, __base__=WireModel, __doc__=doc, **fields)
    return model


def build_operation_models(
    game_id: str, game_name: str, table_sizes: Sequence[int], deck_size: int, models: GameModels
) -> OperationModels:
    """Derive the request and response models of ``new``, ``moves``, ``apply``, ``score`` and ``view``."""
    p = type_prefix(game_id)
    min_players, max_players = min(table_sizes), max(table_sizes)
    contiguous = len(table_sizes) == max_players - min_players + 1
    state, move = models.state, models.move
    return OperationModels(
        new_request=_model(
            f"{p}NewRequest",
            f"Start a match of {game_name}.",
            players=(
                IntegralInt,
                Field(
                    ge=min_players,
                    le=max_players,
                    description="Number of seats at the table.",
                    json_schema_extra=None if contiguous else {"enum": list(table_sizes)},
                ),
            ),
            seed=(
                Seed | None,
                Field(
                    default=None, description="Shuffle seed; omitted means 0 (the service is deterministic)."
                ),
            ),
            deck=(
                (FullDeckOrder if deck_size == 52 else PiquetDeckOrder) | None,
                Field(default=None, description="Exact deck order for the first deal, top card first."),
            ),
            dealer=(
                Seat | None,
                Field(default=None, description="First dealer; omitted means the game's rule."),
            ),
            options=(models.options, Field(default_factory=models.options, description="Game options.")),
        ),
        new_response=_model(
            f"{p}NewResponse",
            "The state of a new match and the events of its first deal.",
            state=(state, ...),
            events=(list[models.event], ...),  # type: ignore[name-defined]
        ),
        moves_request=_model(
            f"{p}MovesRequest",
            "Ask for the legal moves.",
            state=(state, ...),
            player=(Seat | None, Field(default=None, description="Only this seat's moves.")),
        ),
        moves_response=_model(
            f"{p}MovesResponse",
            "The seats to act and their legal moves; both empty when the match is over.",
            to_act=(list[Seat], ...),
            moves=(list[move], ...),  # type: ignore[valid-type]
        ),
        apply_request=_model(f"{p}ApplyRequest", "Apply one move.", state=(state, ...), move=(move, ...)),
        apply_response=_model(
            f"{p}ApplyResponse",
            "The state after the move and the events it caused, in order.",
            state=(state, ...),
            events=(list[models.event], ...),  # type: ignore[name-defined]
        ),
        score_request=_model(f"{p}ScoreRequest", "Ask for the scores.", state=(state, ...)),
        view_request=_model(
            f"{p}ViewRequest", "Ask what one seat may see.", state=(state, ...), player=(Seat, ...)
        ),
        problem=create_model(
            f"{p}Problem",
            __base__=Problem,
            __doc__=f"A problem with a {game_name} request (RFC 9457).",
            legal_moves=(  # type: ignore[arg-type]
                list[move] | None,  # type: ignore[valid-type]
                Field(default=None, description="For an illegal move: the moves that are legal now."),
            ),
        ),
    )
