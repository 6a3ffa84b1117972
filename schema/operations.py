"""Request and response models of the operations, built once per game from its own models.

Every game supplies its options, state, move, event, view and score models; this module derives the
exact request and response model of each operation, so that REST, GraphQL and OpenAPI all speak the same
types and every path gets a concrete schema.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from pydantic import Field, create_model

from .common import GameModels, Outcome, Problem, WireModel
from .scalars import Commitment, Entropy, IntegralInt, Ordinal, RevealedSeed, Seat, Seed


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
    score_response: type[Any]
    view_request: type[Any]
    view_response: type[Any]
    verify_request: type[Any]
    problem: type[Problem]


def contract_names(game_id: str, models: GameModels) -> dict[type[Any], str]:
    """The names a game's contract gives the models a client writes that it may share with its family:
    its move and its options are ``<Game>Move`` and ``<Game>Options`` (Fan-Tan plays with Sjuan's move
    model, and its contract says ``FanTanMove``).

    The wire models stay shared (the engine compares moves by class); the OpenAPI document and the
    GraphQL schema give them these names in the game's operations, so every game has one move input.
    """
    p = type_prefix(game_id)
    return {models.move: f"{p}Move", models.options: f"{p}Options"}


@cache
def named_model(model: type[WireModel], name: str) -> type[WireModel]:
    """``model`` itself when it is called ``name``, else its subclass of that name (same fields, same
    schema, the same documentation): one subclass per name, however often it is asked for."""
    if model.__name__ == name:
        return model
    named: type[WireModel] = create_model(name, __base__=model, __doc__=_doc(model))
    return named


def wire_model(name: str, doc: str, base: type[WireModel] = WireModel, **fields: Any) -> type[WireModel]:
    """A :class:`WireModel` (or a model of its subclass ``base``, whose fields come first) built at run
    time with these fields."""
    model: type[WireModel] = create_model(name, __base__=base, __doc__=doc, **fields)
    return model


def _doc(model: type[WireModel]) -> str:
    return inspect.cleandoc(model.__doc__ or "")


def players_field(table_sizes: Sequence[int]) -> tuple[Any, Any]:
    """The ``players`` field of a ``new`` request: a table size the game is played with."""
    low, high = min(table_sizes), max(table_sizes)
    contiguous = len(table_sizes) == high - low + 1
    return (
        IntegralInt,
        Field(
            ge=low,
            le=high,
            description="Number of seats at the table.",
            json_schema_extra=None if contiguous else {"enum": list(table_sizes)},
        ),
    )


def build_operation_models(
    game_id: str, game_name: str, table_sizes: Sequence[int], models: GameModels
) -> OperationModels:
    """Derive the request and response models of ``new``, ``moves``, ``apply``, ``score`` and ``view``."""
    p = type_prefix(game_id)
    state, move = models.state, models.move
    players = players_field(table_sizes)
    options = (models.options, Field(default_factory=models.options, description="Game options."))
    entropy: tuple[Any, Any] = (
        Entropy,
        Field(default_factory=list, description="Players' entropy, mixed in this order into every deal."),
    )
    return OperationModels(
        new_request=wire_model(
            f"{p}NewRequest",
            f"Start a match of {game_name}.",
            players=players,
            seed=(
                Seed | None,
                Field(
                    default=None,
                    description="The match's secret seed (64 lowercase hex digits); omitted: a fresh one "
                    "from the operating system's CSPRNG.",
                ),
            ),
            entropy=entropy,
            deck=(
                models.deck_order | None,
                Field(default=None, description="Exact deck order for the first deal, top card first."),
            ),
            dealer=(
                Seat | None,
                Field(default=None, description="First dealer; omitted means the game's rule."),
            ),
            options=options,
        ),
        new_response=wire_model(
            f"{p}NewResponse",
            "The state of a new match and the events of its first deal.",
            state=(state, ...),
            events=(list[models.event], ...),  # type: ignore[name-defined]
        ),
        moves_request=wire_model(
            f"{p}MovesRequest",
            "Ask for the legal moves.",
            state=(state, ...),
            player=(Seat | None, Field(default=None, description="Only this seat's moves.")),
        ),
        moves_response=wire_model(
            f"{p}MovesResponse",
            "The seats to act and their legal moves; both empty when the match is over.",
            to_act=(list[Seat], ...),
            moves=(list[move], ...),  # type: ignore[valid-type]
        ),
        apply_request=wire_model(f"{p}ApplyRequest", "Apply one move.", state=(state, ...), move=(move, ...)),
        apply_response=wire_model(
            f"{p}ApplyResponse",
            "The state after the move and the events it caused, in order.",
            state=(state, ...),
            events=(list[models.event], ...),  # type: ignore[name-defined]
        ),
        score_request=wire_model(f"{p}ScoreRequest", "Ask for the scores.", state=(state, ...)),
        score_response=create_model(
            f"{p}ScoreResponse",
            __base__=models.score,
            __doc__=f"{_doc(models.score)} Beside them, the outcome every game's score carries.",
            outcome=(Outcome, Field(description="Over or not, the winners, each seat's total and place.")),
            seed=(RevealedSeed, ...),
        ),
        view_request=wire_model(
            f"{p}ViewRequest", "Ask what one seat may see.", state=(state, ...), player=(Seat, ...)
        ),
        # the game's view model under the operation's response name (every response is <Game><Op>Response)
        view_response=create_model(f"{p}ViewResponse", __base__=models.view, __doc__=_doc(models.view)),
        verify_request=wire_model(
            f"{p}VerifyRequest",
            f"Recompute one deal of a finished {game_name} match from its revealed seed.",
            seed=(Seed, Field(description="The revealed seed.")),
            commitment=(Commitment, Field(description="The commitment published before the first deal.")),
            entropy=entropy,
            players=players,
            options=options,
            deal_number=(
                Ordinal,
                Field(
                    default=1,
                    description="The deal to recompute (1 for the first); a deal no match with these options "
                    "reaches is refused (request/invalid).",
                ),
            ),
            dealer=(
                Seat | None,
                Field(
                    default=None,
                    description="The deal's dealer; omitted (first deal only) means the game's rule, as in "
                    "new.",
                ),
            ),
            agreed_entropy=(
                Entropy | None,
                Field(
                    default=None,
                    description="The exact entropy list the players agreed on; when given, 'entropy' (the "
                    "list the match shows) must be exactly it: an extra, missing or reordered string is "
                    "refused (entropy/not-agreed).",
                ),
            ),
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
