"""The operation list: for every game, ``new``, ``moves``, ``apply``, ``score``, ``view``, ``seed`` and
``verify``.

REST paths, GraphQL root fields and the OpenAPI document are all generated from this one list, so an
operation exists on both surfaces with the same request and response models.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from sevens_rules.engine.dealing import Seeding, commitment, fresh_seed
from sevens_rules.engine.game import Game
from sevens_rules.engine.registry import GAMES
from sevens_rules.engine.verification import verify_deal
from sevens_rules.schema.common import GameInfo, GamesResponse, Problem, WireModel, options_info
from sevens_rules.schema.dealing import DealVerification, FreshSeed, SeedRequest
from sevens_rules.schema.operations import OperationModels, build_operation_models, field_prefix

AnyGame = Game[Any, Any, Any, Any, Any, Any]


@dataclass(frozen=True)
class Operation:
    """One operation of one game."""

    game: AnyGame
    name: str
    """``new``, ``moves``, ``apply``, ``score``, ``view``, ``seed`` or ``verify``."""
    summary: str
    request: type[WireModel]
    response: type[WireModel]
    problem: type[Problem]
    run: Callable[[Any], WireModel]
    """Takes a validated request model, returns the response model; raises engine errors."""

    @property
    def path(self) -> str:
        """The REST path."""
        return f"/v1/games/{self.game.id}/{self.name}"

    @property
    def field_name(self) -> str:
        """The GraphQL root field (``fanTanMoves``)."""
        return field_prefix(self.game.id) + self.name.capitalize()

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
    """The operations of ``game``."""
    m = operation_models(game.id)

    def new(req: Any) -> Any:
        seeding = Seeding(fresh_seed() if req.seed is None else req.seed, tuple(req.entropy))
        state, events = game.new_match(req.players, req.options, seeding, req.deck, req.dealer)
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

    def score(req: Any) -> Any:
        game.check(req.state)
        detail = game.score(req.state)
        return m.score_response.model_construct(
            **detail.__dict__, outcome=game.outcome(req.state), seed=game.revealed_seed(req.state)
        )

    def view(req: Any) -> Any:
        game.check(req.state)
        return m.view_response.model_construct(**game.view(req.state, req.player).__dict__)

    def seed(req: Any) -> WireModel:
        new_seed = fresh_seed()
        return FreshSeed(seed=new_seed, commitment=commitment(new_seed))

    def verify(req: Any) -> WireModel:
        return verify_deal(
            game, req.players, req.seed, req.commitment, req.entropy, req.deal_number, req.dealer, req.options
        )

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
            game, "score", f"Scores of a {name} match", m.score_request, m.score_response, m.problem, score
        ),
        Operation(
            game, "view", f"One seat's view of {name}", m.view_request, m.view_response, m.problem, view
        ),
        Operation(
            game,
            "seed",
            f"A fresh secret seed and its commitment for a {name} match",
            SeedRequest,
            FreshSeed,
            m.problem,
            seed,
        ),
        Operation(
            game,
            "verify",
            f"Recompute a deal of a {name} match from its revealed seed",
            m.verify_request,
            DealVerification,
            m.problem,
            verify,
        ),
    ]


@cache
def all_operations() -> tuple[Operation, ...]:
    """Every operation of every game, in registry order."""
    return tuple(op for game in GAMES.values() for op in game_operations(game))


def rules_path(game_id: str) -> str:
    """Where the service serves a game's rules reference (:mod:`sevens_rules.api.docs`), as listed in
    ``GET /v1/games``."""
    return f"/rules/{game_id}"


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
                rules=rules_path(g.id),
            )
            for g in GAMES.values()
        ]
    )
