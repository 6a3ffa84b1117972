"""The operation list: for every game, ``new``, ``moves``, ``apply``, ``score`` and ``view``.

REST paths, GraphQL root fields and the OpenAPI document are all generated from this one list, so an
operation exists on both surfaces with the same request and response models.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from sevens_rules.api.sealed import sealed_models, sealed_runs
from sevens_rules.api.sealing import Keyring
from sevens_rules.engine.game import Game
from sevens_rules.engine.registry import GAMES
from sevens_rules.schema.common import GameInfo, GamesResponse, Problem, WireModel, options_info
from sevens_rules.schema.operations import OperationModels, build_operation_models, field_prefix

AnyGame = Game[Any, Any, Any, Any, Any, Any]


@dataclass(frozen=True)
class Operation:
    """One operation of one game."""

    game: AnyGame
    name: str
    """``new``, ``moves``, ``apply``, ``score`` or ``view``."""
    summary: str
    request: type[WireModel]
    response: type[WireModel]
    problem: type[Problem]
    run: Callable[[Any], WireModel]
    """Takes a validated request model, returns the response model; raises engine errors."""
    sealed: bool = False
    """A referee-mode operation (token and seat key instead of a posted state)."""

    @property
    def path(self) -> str:
        """The REST path."""
        return f"/v1/games/{self.game.id}/{'sealed/' if self.sealed else ''}{self.name}"

    @property
    def field_name(self) -> str:
        """The GraphQL root field (``fanTanMoves``, ``fanTanSealedMoves``)."""
        return field_prefix(self.game.id) + ("Sealed" if self.sealed else "") + self.name.capitalize()

    @property
    def operation_id(self) -> str:
        """The OpenAPI operationId (same as the GraphQL field)."""
        return self.field_name


@cache
def operation_models(game_id: str) -> OperationModels:
    """The request/response models of one game, built once."""
    game = GAMES[game_id]
    return build_operation_models(game.id, game.name, game.table_sizes(), len(game.deck), game.models)


def game_operations(game: AnyGame) -> list[Operation]:
    """The five operations of ``game``."""
    m = operation_models(game.id)

    def new(req: Any) -> Any:
        seed = 0 if req.seed is None else req.seed
        state, events = game.new_match(req.players, req.options, seed, req.deck, req.dealer)
        # responses wrap models the engine built from validated input: no need to validate them again
        return m.new_response.model_construct(state=state, events=events)

    def moves(req: Any) -> Any:
        game.check(req.state)
        to_act, legal = game.moves(req.state, req.player)
        return m.moves_response.model_construct(to_act=to_act, moves=legal)

    def apply(req: Any) -> Any:
        game.check(req.state)
        state, events = game.apply(req.state, req.move)
        return m.apply_response.model_construct(state=state, events=events)

    def score(req: Any) -> WireModel:
        game.check(req.state)
        result: WireModel = game.score(req.state)
        return result

    def view(req: Any) -> WireModel:
        game.check(req.state)
        result: WireModel = game.view(req.state, req.player)
        return result

    name = game.name
    return [
        Operation(game, "new", f"Start a match of {name}", m.new_request, m.new_response, m.problem, new),
        Operation(
            game, "moves", f"Legal moves in {name}", m.moves_request, m.moves_response, m.problem, moves
        ),
        Operation(
            game, "apply", f"Apply a move in {name}", m.apply_request, m.apply_response, m.problem, apply
        ),
        Operation(
            game, "score", f"Scores of a {name} match", m.score_request, game.models.score, m.problem, score
        ),
        Operation(
            game, "view", f"One seat's view of {name}", m.view_request, game.models.view, m.problem, view
        ),
    ]


def sealed_operations(game: AnyGame, keyring: Keyring | None) -> list[Operation]:
    """The five referee-mode operations of ``game``, opening and sealing tokens with ``keyring``
    (without keys they answer a problem saying how to enable them)."""
    m = sealed_models(game.id)
    runs = sealed_runs(game, keyring)
    problem = operation_models(game.id).problem
    name = game.name
    table = {
        "new": (f"Start a sealed match of {name}", m.new_request, m.new_response),
        "moves": (f"One seat's legal moves in a sealed {name} match", m.moves_request, m.moves_response),
        "apply": (f"Apply a seat's move in a sealed {name} match", m.apply_request, m.apply_response),
        "view": (
            f"One seat's view and recent events in a sealed {name} match",
            m.view_request,
            m.view_response,
        ),
        "score": (f"Scores of a sealed {name} match", m.score_request, m.score_response),
    }
    return [
        Operation(game, op, summary, request, response, problem, runs[op], sealed=True)
        for op, (summary, request, response) in table.items()
    ]


@cache
def all_operations(keyring: Keyring | None = None) -> tuple[Operation, ...]:
    """Every operation of every game, in registry order: the plain ones, then the sealed ones (whose
    models do not depend on ``keyring``)."""
    plain = [op for game in GAMES.values() for op in game_operations(game)]
    return (*plain, *(op for game in GAMES.values() for op in sealed_operations(game, keyring)))


@cache
def games_response() -> GamesResponse:
    """The answer of ``GET /v1/games``."""
    return GamesResponse(
        games=[
            GameInfo(
                id=g.id,
                name=g.name,
                min_players=g.min_players,
                max_players=g.max_players,
                player_counts=list(g.table_sizes()),
                simultaneous=g.simultaneous,
                options=options_info(g.models.options),
            )
            for g in GAMES.values()
        ]
    )
