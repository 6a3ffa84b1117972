"""Request and response models of ``sample`` and ``bot``, plain and sealed, built once per game.

``sample`` answers full states consistent with what one seat may know; ``bot`` answers the move a seat's
bot would make at a level. The sealed twins take a token and the seat's key instead of a posted state.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any

from pydantic import Field, StringConstraints

from .common import GameModels
from .operations import type_prefix, wire_model
from .scalars import INTEGRAL, IntegralInt, Seat
from .sealed import SeatKey, Token


class BotLevel(StrEnum):
    """How a bot chooses: ``random`` (a uniform legal move), ``rules`` (the game's documented heuristic),
    ``search`` (Monte Carlo search comparing the seat's moves by paired playouts over sampled states)."""

    random = "random"
    rules = "rules"
    search = "search"


MAX_SAMPLES = 16
"""Most states one ``sample`` request answers (each is a whole state: the answer stays bounded)."""

BUDGET_LIMIT_MS = 10_000
"""The largest ``budget_ms`` the contract admits; the service's configured maximum (README, "Bots") is
lower, 200 ms unless set otherwise, and a budget above it is refused."""

BudgetMs = Annotated[int, Field(ge=1, le=BUDGET_LIMIT_MS), INTEGRAL]
"""Milliseconds a bot may think."""

RandomSeed = Annotated[
    str,
    StringConstraints(min_length=1, max_length=128),
]
"""A client's seed for a reproducible answer: any 1 to 128 characters."""


@dataclass(frozen=True)
class BotModels:
    """The models of ``sample`` and ``bot`` of one game, plain and sealed."""

    sample_request: type[Any]
    sample_response: type[Any]
    bot_request: type[Any]
    bot_response: type[Any]
    sealed_sample_request: type[Any]
    sealed_sample_response: type[Any]
    sealed_bot_request: type[Any]
    sealed_bot_response: type[Any]


def build_bot_models(game_id: str, game_name: str, models: GameModels) -> BotModels:
    """Derive the ``sample`` and ``bot`` models of one game (plain and sealed)."""
    p = type_prefix(game_id)
    state, move = models.state, models.move
    sample_seed = (
        RandomSeed | None,
        Field(
            default=None,
            description="Makes the answer reproducible: the same view and seed give the same states. "
            "Omitted: drawn from the operating system's CSPRNG.",
        ),
    )
    count = (
        IntegralInt,
        Field(default=1, ge=1, le=MAX_SAMPLES, description=f"States to answer, 1 to {MAX_SAMPLES}."),
    )
    level = (BotLevel, Field(description="How the bot chooses."))
    budget = (
        BudgetMs | None,
        Field(
            default=None,
            description="Milliseconds the bot may take (search), counted from the request's arrival; at most "
            "the service's configured maximum (200 unless set otherwise). Omitted: 100, or the maximum when "
            "lower.",
        ),
    )
    bot_seed = (
        RandomSeed | None,
        Field(
            default=None,
            description="Makes the bot's choice reproducible: the same view, level, budget_ms and bot_seed "
            "give the same move (a seeded search does a fixed amount of work, which the budget still "
            "bounds). Omitted: drawn from the operating system's CSPRNG.",
        ),
    )
    sample_fields: dict[str, Any] = {"sample_seed": sample_seed, "count": count}
    bot_fields: dict[str, Any] = {"level": level, "budget_ms": budget, "bot_seed": bot_seed}
    sealed_seat: dict[str, Any] = {
        "token": (Token, ...),
        "seat": (Seat, Field(description="The caller's seat.")),
        "seat_key": (SeatKey, ...),
    }
    states = (
        list[state],  # type: ignore[valid-type]
        Field(
            max_length=MAX_SAMPLES,
            description="Full states the seat cannot tell from the real one, each drawn uniformly from "
            "all such states; hidden cards (and a fresh seed and commitment) differ.",
        ),
    )
    bot_answer: dict[str, Any] = {
        "move": (move, Field(description="The bot's move: a legal move of the seat.")),
        "level": level,
        "iterations": (
            IntegralInt,
            Field(
                ge=0,
                le=2**31 - 1,
                description="Search iterations run: 0 for random and rules, for a single legal move, for a "
                "search whose budget ran out before it could start, and for a My Ship Sails search whose "
                "rules move is a card drawn by lot (both answer the rules move).",
            ),
        ),
        "elapsed_ms": (
            float,
            Field(ge=0, description="Milliseconds from the request's arrival to the chosen move."),
        ),
    }
    sample_doc = f"Full {game_name} states consistent with one seat's information."
    bot_doc = f"The move a seat's bot makes in {game_name}."
    return BotModels(
        sample_request=wire_model(
            f"{p}SampleRequest",
            f"Ask for {game_name} states consistent with what one seat may know of this one.",
            state=(state, ...),
            player=(Seat, Field(description="The seat whose information the states agree with.")),
            **sample_fields,
        ),
        sample_response=wire_model(f"{p}SampleResponse", sample_doc, states=states),
        bot_request=wire_model(
            f"{p}BotRequest",
            "Ask for a seat's bot move; the bot reads only what that seat may see of the state.",
            state=(state, ...),
            player=(Seat, Field(description="The seat to move (a seat to act).")),
            **bot_fields,
        ),
        bot_response=wire_model(f"{p}BotResponse", bot_doc, **bot_answer),
        sealed_sample_request=wire_model(
            f"{p}SealedSampleRequest",
            f"Ask for {game_name} states consistent with what the caller's seat may know.",
            **sealed_seat,
            **sample_fields,
        ),
        sealed_sample_response=wire_model(f"{p}SealedSampleResponse", sample_doc, states=states),
        sealed_bot_request=wire_model(
            f"{p}SealedBotRequest", "Ask for the caller's seat's bot move.", **sealed_seat, **bot_fields
        ),
        sealed_bot_response=wire_model(f"{p}SealedBotResponse", bot_doc, **bot_answer),
    )
