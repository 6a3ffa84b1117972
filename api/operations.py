"""The operation list: for every game, ``new``, ``moves``, ``apply``, ``score``, ``view``, ``seed``,
``verify``, ``sample`` and ``bot``.

REST paths, GraphQL root fields and the OpenAPI document are all generated from this one list, so an
operation exists on both surfaces with the same request and response models.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from ..engine.dealing import Seeding, commitment, fresh_seed
from ..engine.game import Game
from ..engine.models import constructed, field_values, unvalidated
from ..engine.registry import GAMES
from ..engine.verification import verify_deal
from ..schema.common import GameInfo, GamesResponse, Problem, WireModel, options_info
from ..schema.dealing import DealVerification, FreshSeed, SeedRequest
from ..schema.operations import field_prefix, named_model, type_prefix
from .bots import bot_models, plain_runs
from .bots import sealed_runs as sealed_bot_runs
from .game_models import operation_models
from .match_store import MatchStore
from .sealed import sealed_models, sealed_runs
from .sealing import Keyring

AnyGame = Game[Any, Any, Any, Any, Any, Any]


@dataclass(frozen=True)
class Operation:
    """One operation of one game."""

    game: AnyGame
    name: str
    """``new``, ``moves``, ``apply``, ``score``, ``view``, ``seed``, ``verify``, ``sample`` or ``bot``."""
    summary: str
    request: type[WireModel]
    response: type[WireModel]
    problem: type[Problem]
    run: Callable[[Any], WireModel]
    """Takes a validated request model, returns the response model; raises engine errors."""
    sealed: bool = False
    """A referee-mode operation (token and seat key instead of a posted state)."""
    disabled: bool = False
    """A referee-mode operation of a service without server keys: refused (404 ``sealed/disabled``)
    before its request is read, whatever the request holds."""

    @property
    def thinks(self) -> bool:
        """Whether answering may take long: a bot's move (up to the request's ``budget_ms``) or a sample
        (up to 16 drawn states, tens of milliseconds in the largest games). REST answers it in a worker
        thread, as GraphQL answers every document not known to be quick."""
        return self.name in ("bot", "sample")

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


def game_operations(game: AnyGame) -> list[Operation]:
    """The operations of ``game``."""
    m = operation_models(game.id)

    def new(req: Any) -> Any:
        seeding = Seeding(fresh_seed() if req.seed is None else req.seed, tuple(req.entropy))
        state, events = game.new_match(req.players, req.options, seeding, req.deck, req.dealer)
        # responses wrap models the engine built from validated input: no need to validate them again
        return constructed(m.new_response, state=state, events=events)

    def moves(req: Any) -> Any:
        game.check(req.state)
        to_act, legal = game.moves(req.state, req.player)
        return constructed(m.moves_response, to_act=to_act, moves=legal)

    def apply(req: Any) -> Any:
        game.check(req.state)
        state, events = game.apply(req.state, req.move)
        return constructed(m.apply_response, state=state, events=events)

    def score(req: Any) -> Any:
        game.check(req.state)
        detail = game.score(req.state)
        return constructed(
            m.score_response,
            **field_values(detail),
            outcome=game.outcome(req.state),
            seed=game.revealed_seed(req.state),
        )

    def view(req: Any) -> Any:
        game.check(req.state)
        return constructed(m.view_response, **field_values(game.view(req.state, req.player)))

    def seed(req: Any) -> WireModel:
        new_seed = fresh_seed()
        return FreshSeed(seed=new_seed, commitment=commitment(new_seed))

    def verify(req: Any) -> WireModel:
        return verify_deal(
            game,
            req.players,
            req.seed,
            req.commitment,
            req.entropy,
            req.deal_number,
            req.dealer,
            req.options,
            req.agreed_entropy,
        )

    name = game.name
    b = bot_models(game.id)
    bot_runs = plain_runs(game)
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
        Operation(
            game,
            "sample",
            f"Full {name} states consistent with one seat's information",
            b.sample_request,
            b.sample_response,
            m.problem,
            bot_runs["sample"],
        ),
        Operation(
            game,
            "bot",
            f"A bot's move for one seat in {name}",
            b.bot_request,
            b.bot_response,
            m.problem,
            bot_runs["bot"],
        ),
    ]


def sealed_operations(
    game: AnyGame, keyring: Keyring | None, store: MatchStore | None = None
) -> list[Operation]:
    """The referee-mode operations of ``game`` (the seven of a table and its match, then ``sample`` and
    ``bot``), opening and sealing tokens with ``keyring`` and remembering matches in ``store`` (without
    keys they answer a problem saying how to enable them)."""
    m = sealed_models(game.id)
    runs = sealed_runs(game, keyring, store=store)
    problem = operation_models(game.id).problem
    name = game.name
    table = {
        "new": (f"Open a table for a sealed match of {name}", m.new_request, m.new_response),
        "join": (f"Take a seat at a sealed {name} table", m.join_request, m.join_response),
        "fill": (f"The host takes open seats of a sealed {name} table", m.fill_request, m.fill_response),
        "moves": (f"One seat's legal moves in a sealed {name} match", m.moves_request, m.moves_response),
        "apply": (f"Apply a seat's move in a sealed {name} match", m.apply_request, m.apply_response),
        "view": (
            f"One seat's view and recent events in a sealed {name} match",
            m.view_request,
            m.view_response,
        ),
        "score": (f"Scores of a sealed {name} match", m.score_request, m.score_response),
    }
    b = bot_models(game.id)
    runs = {**runs, **sealed_bot_runs(game, keyring)}
    table["sample"] = (
        f"Full {name} states consistent with the caller's seat's information",
        b.sealed_sample_request,
        b.sealed_sample_response,
    )
    table["bot"] = (
        f"A bot's move for the caller's seat in a sealed {name} match",
        b.sealed_bot_request,
        b.sealed_bot_response,
    )
    return [
        Operation(
            game, op, summary, request, response, problem, runs[op], sealed=True, disabled=keyring is None
        )
        for op, (summary, request, response) in table.items()
    ]


@cache
def all_operations(keyring: Keyring | None = None, store: MatchStore | None = None) -> tuple[Operation, ...]:
    """Every operation of every game, in registry order: the plain ones, then the sealed ones (whose
    models depend on neither ``keyring`` nor ``store``), each with its uniform model names
    (:func:`uniformly_named`)."""
    plain = [op for game in GAMES.values() for op in game_operations(game)]
    ops = (*plain, *(op for game in GAMES.values() for op in sealed_operations(game, keyring, store)))
    return tuple(uniformly_named(op) for op in ops)


def uniformly_named(op: Operation) -> Operation:
    """``op`` with its request and response models named ``<Game>[Sealed]<Op>Request`` and
    ``...Response`` (``FanTanSeedResponse``, ``SjuanSealedNewResponse``).

    The one place names are given: an operation whose models are shared between games or named otherwise
    (``seed`` answers the shared ``FreshSeed``) gets a subclass of its own name, and its answers are
    handed out as that subclass. An operation added to the list gets uniform names without more code.
    """
    stem = f"{type_prefix(op.game.id)}{'Sealed' if op.sealed else ''}{op.name.capitalize()}"
    request = named_model(op.request, f"{stem}Request")
    response = named_model(op.response, f"{stem}Response")
    if request is op.request and response is op.response:
        return op
    run = op.run
    if response is not op.response:

        def run_named(req: Any, _run: Callable[[Any], WireModel] = op.run) -> WireModel:
            answer = _run(req)
            return unvalidated(response, field_values(answer), answer.model_fields_set)

        run = run_named
    return replace(op, request=request, response=response, run=run)


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
