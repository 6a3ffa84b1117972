"""Building blocks of the wire contract shared by every game.

Every wire model derives from :class:`WireModel`: strict, closed (unknown fields are errors) and frozen,
so the engine can never mutate a posted state. Integers are bounded so that GraphQL's 32-bit ``Int``
and REST accept exactly the same values, and integral floats (``2.0``) are accepted for integers because
JSON Schema calls them integers.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints

MAX_SEATS = 8
"""The largest table of any game (Sjuan and Fan Tan seat up to eight)."""

INT32_MAX = 2**31 - 1


def _integral_float_to_int(value: Any) -> Any:
    # JSON Schema (and so OpenAPI 3.1 and schemathesis) treats 2.0 as an integer; strict pydantic does not.
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


INTEGRAL = BeforeValidator(_integral_float_to_int)
"""Metadata that makes an ``int`` accept integral floats. Write a bounded integer type as
``Annotated[int, Field(ge=..., le=...), INTEGRAL]``: pydantic emits bounds placed *after* a
BeforeValidator (or around an alias that has one) as raw "ge"/"le" keys instead of minimum/maximum."""

IntegralInt = Annotated[int, INTEGRAL]
"""An ``int`` that also accepts integral floats (``2.0``); bound it with ``Field(ge=..., le=...)``."""


Count = Annotated[int, Field(ge=0, le=INT32_MAX), INTEGRAL]
"""A non-negative count or score, bounded to GraphQL's 32-bit ``Int``."""

Ordinal = Annotated[int, Field(ge=1, le=INT32_MAX), INTEGRAL]
"""A positive number such as a deal number (1 for the first), bounded to GraphQL's 32-bit ``Int``."""

SignedCount = Annotated[int, Field(ge=-INT32_MAX, le=INT32_MAX), INTEGRAL]
"""A score that may be negative, bounded to GraphQL's 32-bit ``Int``."""

Seat = Annotated[int, Field(ge=0, le=MAX_SEATS - 1, description="A seat, 0..n-1 clockwise."), INTEGRAL]
"""A seat number; whether it exists at this table is checked against the state."""

Seed = Annotated[
    int,
    Field(ge=0, le=INT32_MAX, description="Seed of the documented SplitMix64 shuffle (see README)."),
    INTEGRAL,
]

Card = Annotated[
    str,
    StringConstraints(pattern=r"^[A2-9TJQK][CDHS]$"),
    Field(description="Rank then suit: ranks A 2-9 T J Q K, suits C D H S (e.g. 'TD').", examples=["7H"]),
]
"""A card on the wire: two characters, rank then suit."""

CardList = Annotated[list[Card], Field(max_length=52)]
"""Any list of cards; never longer than a deck."""

FullDeckOrder = Annotated[
    list[Card], Field(min_length=52, max_length=52, json_schema_extra={"uniqueItems": True})
]
"""An exact order of the 52-card deck, top card first (every card once; duplicates are refused)."""

PiquetCard = Annotated[
    str,
    StringConstraints(pattern=r"^[789TJQKA][CDHS]$"),
    Field(description="A card of the 32-card deck: ranks 7 8 9 T J Q K A, suits C D H S.", examples=["7H"]),
]
"""A card of the 32-card deck (Sedmice)."""

PiquetCardList = Annotated[list[PiquetCard], Field(max_length=32)]
"""Any list of cards of the 32-card deck."""

PiquetDeckOrder = Annotated[
    list[PiquetCard], Field(min_length=32, max_length=32, json_schema_extra={"uniqueItems": True})
]
"""An exact order of the 32-card deck (7 to Ace), top card first (every card once)."""


class WireModel(BaseModel):
    """Base of every wire model: strict types, no unknown fields, immutable."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class Suit(StrEnum):
    """A suit letter."""

    C = "C"
    D = "D"
    H = "H"
    S = "S"


class Phase(StrEnum):
    """Where a match stands: a deal in play, between deals (the next dealer deals), or finished."""

    play = "play"
    deal_over = "deal_over"
    match_over = "match_over"


class Issue(WireModel):
    """One thing wrong with a request: where (a JSON Pointer into the request body) and what."""

    path: str = Field(description="JSON Pointer (RFC 6901) to the offending field, e.g. '/state/hands/0/3'.")
    message: str

    @classmethod
    def at(cls, parts: Iterable[str | int], message: str) -> Issue:
        """An issue at the path given as keys and indexes."""
        return cls(path=json_pointer(parts), message=message)


def json_pointer(parts: Iterable[str | int]) -> str:
    """The RFC 6901 JSON Pointer of a path given as keys and indexes (``''`` for the whole body)."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


class Problem(WireModel):
    """An RFC 9457 problem details body with a stable machine-readable ``code``."""

    type: str = Field(description="A URI reference naming the problem type ('about:blank' or a code URI).")
    title: str
    status: IntegralInt
    code: str = Field(description="Stable machine code, e.g. 'state/inconsistent' or 'move/illegal'.")
    detail: str
    errors: list[Issue] = Field(default_factory=list)


class OptionInfo(WireModel):
    """One option of a game, as listed by ``GET /v1/games``."""

    name: str
    type: str = Field(description="JSON type of the value: 'boolean', 'integer' or 'integer|null'.")
    default: str = Field(description="The default value, JSON-encoded.")
    description: str
    choices: list[str] | None = Field(default=None, description="Allowed values, JSON-encoded, if limited.")


class GameInfo(WireModel):
    """A game as listed by ``GET /v1/games``."""

    id: str
    name: str
    min_players: IntegralInt
    max_players: IntegralInt
    player_counts: list[IntegralInt] = Field(description="Every allowed number of players.")
    simultaneous: bool = Field(description="True when several seats choose in the same step.")
    options: list[OptionInfo]


class GamesResponse(WireModel):
    """Every game the service knows."""

    games: list[GameInfo]


def model_json(model: BaseModel) -> bytes:
    """The canonical JSON bytes of a wire model (deterministic: field order is declaration order)."""
    return model.__pydantic_serializer__.to_json(model)


def options_info(options_model: type[WireModel]) -> list[OptionInfo]:
    """Describe an options model field by field for ``GET /v1/games``."""
    import json

    infos = []
    for name, field in options_model.model_fields.items():
        schema = options_model.model_json_schema()["properties"][name]
        json_type = _json_type(schema)
        choices = None
        if "enum" in schema:
            choices = [json.dumps(v) for v in schema["enum"]]
        infos.append(
            OptionInfo(
                name=name,
                type=json_type,
                default=json.dumps(field.get_default(call_default_factory=True)),
                description=field.description or "",
                choices=choices,
            )
        )
    return infos


def _json_type(schema: dict[str, Any]) -> str:
    if "anyOf" in schema:
        return "|".join(_json_type(s) for s in schema["anyOf"])
    return str(schema.get("type", "object"))


class MoveBase(WireModel):
    """Fields every move has: the seat making it. Each game adds its ``type`` tag and arguments."""

    player: Seat


def seat_list(description: str) -> Any:
    """A per-seat list field (one entry per seat, at most :data:`MAX_SEATS`)."""
    return Field(max_length=MAX_SEATS, description=description)
