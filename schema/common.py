"""Building blocks of the wire contract shared by every game.

Every wire model derives from :class:`WireModel`: strict, closed (unknown fields are errors) and frozen,
so the engine can never mutate a posted state. Integers are bounded so that GraphQL's 32-bit ``Int``
and REST accept exactly the same values, and integral floats (``2.0``) are accepted for integers because
JSON Schema calls them integers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any, Generic, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    StringConstraints,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, core_schema

MAX_SEATS = 8
"""The largest table of any game (Sjuan and Fan Tan seat up to eight)."""

INT32_MAX = 2**31 - 1

MAX_LISTED_ISSUES = 20
"""A problem lists at most this many issues (then says how many more there were): bounded answers."""


def _whole_float_to_int(value: Any) -> int:
    # a whole float beyond the 64-bit range pydantic-core converts floats in (the bounds then refuse it)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    raise ValueError("not a whole number")


_WHOLE_NUMBER = core_schema.custom_error_schema(
    core_schema.union_schema(
        [
            core_schema.int_schema(strict=True),
            # JSON Schema (and so OpenAPI 3.1 and schemathesis) treats 2.0 as an integer; strict pydantic
            # does not: a float becomes an int only when it is whole (lax int validation of a float)
            core_schema.chain_schema(
                [core_schema.float_schema(strict=True), core_schema.int_schema(strict=False)]
            ),
            core_schema.no_info_plain_validator_function(_whole_float_to_int),
        ],
        mode="left_to_right",
    ),
    custom_error_type="int_type",
)
"""An int, or a float that is a whole number (as that int); anything else is "a valid integer" error."""


@dataclass(frozen=True)
class _Integral:
    """Makes the ``int`` it annotates (bounded by the ``Field`` written before it) accept integral floats.

    Validated by pydantic-core alone: first the value becomes an int (:data:`_WHOLE_NUMBER`), then the
    bounds apply. Every posted state holds a dozen numbers, and a Python validator for each would run on
    every request. ``range_error`` replaces the bounds' own message, for a seat.
    """

    range_error: tuple[str, str, tuple[tuple[str, Any], ...]] | None = None
    """The error type, message and context (as pairs: annotations are hashed) of an out-of-range int."""

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        bounded = handler(source)
        if self.range_error is not None:
            error_type, message, context = self.range_error
            bounded = core_schema.custom_error_schema(
                bounded, error_type, custom_error_message=message, custom_error_context=dict(context)
            )
        return core_schema.chain_schema([_WHOLE_NUMBER, bounded])

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        # described as the bounded integer it validates to (with the field's own description, which
        # pydantic puts on that step): the chain's first step would read "integer or number"
        chain: Any = schema
        while chain["type"] != "chain":  # (under a validator written after this one, such as a check)
            chain = chain["schema"]
        return handler(chain["steps"][-1])


INTEGRAL = _Integral()
"""Metadata that makes an ``int`` accept integral floats. Write a bounded integer type as
``Annotated[int, Field(ge=..., le=...), INTEGRAL]``: the bounds must come before it (they bound the int it
validates to)."""

IntegralInt = Annotated[int, INTEGRAL]
"""An ``int`` that also accepts integral floats (``2.0``); bound it with ``Field(ge=..., le=...)``."""


Count = Annotated[int, Field(ge=0, le=INT32_MAX), INTEGRAL]
"""A non-negative count or score, bounded to GraphQL's 32-bit ``Int``."""

Ordinal = Annotated[int, Field(ge=1, le=INT32_MAX), INTEGRAL]
"""A positive number such as a deal number (1 for the first), bounded to GraphQL's 32-bit ``Int``."""


def ordinal_up_to(most: int) -> Any:
    """A positive number (1 for the first) of at most ``most``. ``Field(le=...)`` on a field typed
    :data:`Ordinal` would not do: the alias's own bound comes later and wins."""
    return Annotated[int, Field(ge=1, le=most), INTEGRAL]


SignedCount = Annotated[int, Field(ge=-INT32_MAX, le=INT32_MAX), INTEGRAL]
"""A score that may be negative, bounded to GraphQL's 32-bit ``Int``."""


Seat = Annotated[
    int,
    Field(ge=0, le=MAX_SEATS - 1, description="A seat, 0..n-1 clockwise."),
    # a seat far out of range would otherwise get pydantic's generic bound message, while one just past
    # the table gets the engine's "must be a seat between 0 and n-1": say what a seat is in both cases
    _Integral(
        (
            "seat_range",
            "must be a seat between 0 and {last} (and a seat of this table)",
            (("last", MAX_SEATS - 1),),
        )
    ),
]
"""A seat number; whether it exists at this table is checked against the state."""

HEX256_PATTERN = r"^[0-9a-f]{64}$"
"""256 bits written as 64 lowercase hexadecimal digits."""


@dataclass(frozen=True)
class _Hex256:
    """Accepts exactly 64 lowercase hex digits and otherwise says what the value (``what``) must be.

    Validated by pydantic-core alone (a pattern and a custom error, no Python call): every posted state
    carries a seed and a commitment."""

    what: str

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        return core_schema.custom_error_schema(
            core_schema.str_schema(pattern=HEX256_PATTERN, strict=True),
            custom_error_type="hex256",
            custom_error_message="{what} is a string of 64 lowercase hexadecimal digits (256 bits)",
            custom_error_context={"what": self.what},
        )


Seed = Annotated[
    str,
    _Hex256("a seed"),
    Field(
        description="The match's secret seed: 64 lowercase hex digits (256 bits) keying the documented "
        "shuffle (see README). Never shown to a seat before the match is over.",
        json_schema_extra={"pattern": HEX256_PATTERN},
        examples=["9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"],
    ),
]
"""The secret seed of a match."""

Commitment = Annotated[
    str,
    _Hex256("a commitment"),
    Field(
        description="SHA-256 commitment to the seed (see README), public from before the first deal.",
        json_schema_extra={"pattern": HEX256_PATTERN},
    ),
]
"""The public commitment to a seed."""

RevealedSeed = Annotated[
    Seed | None,
    Field(description="The match's seed once the match is over (to verify every deal); null before."),
]
"""The seed as a view or a score shows it: null until the match is over."""

ENTROPY_PATTERN = r"^[ -~]{1,256}$"
"""One contribution of entropy: 1 to 256 printable ASCII characters."""

Entropy = Annotated[
    list[Annotated[str, StringConstraints(pattern=ENTROPY_PATTERN)]],
    Field(
        max_length=MAX_SEATS,
        description="Players' entropy (e.g. one string per seat, each 1-256 printable ASCII characters), "
        "mixed in this order into every deal of the match.",
    ),
]
"""The players' contributions of entropy, in order."""


@dataclass(frozen=True)
class _Spelling:
    """Accepts exactly the strings of ``spellings`` (a card's two characters), validated by one hash
    lookup in pydantic-core.

    The wire contract describes it as ``pattern``, and anything else (a wrong string, or a value that is
    not a string at all) gets the error of a pattern mismatch: a deck's 52 spellings are exactly the
    strings the pattern matches. A lookup costs a fraction of a pattern match, and a posted state has up
    to 52 cards.
    """

    name: str
    """The contract's name of the type (``Card``): one schema component every card field refers to, so
    that generated clients get a type of it."""
    pattern: str
    spellings: tuple[str, ...]
    description: str

    def __post_init__(self) -> None:
        matched = re.compile(self.pattern).fullmatch
        if not all(matched(s) for s in self.spellings):  # every spelling is one the contract allows
            raise ValueError(f"a spelling does not match {self.pattern}")

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        # one lookup, whatever the input: a non-string matches no spelling and gets the same error
        return core_schema.custom_error_schema(
            core_schema.literal_schema(list(self.spellings)),
            custom_error_type="string_pattern_mismatch",
            custom_error_context={"pattern": self.pattern},
            serialization=core_schema.simple_ser_schema("str"),
            ref=self.name,  # a named definition: the JSON schema refers to it by this name
        )

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        # the chain's string step in validation mode, its lookup in serialization mode: either way the
        # contract says what the spellings are, with the pattern and as an enum (the wire value is the
        # plain string; a client generator makes a type of it)
        reference = handler(schema)
        definition = handler.resolve_ref_schema(reference)
        definition.clear()
        definition.update(
            title=self.name,
            description=self.description,
            type="string",
            pattern=self.pattern,
            enum=list(self.spellings),
            examples=["7H"],
        )
        return reference


CARD_PATTERN = r"^[A2-9TJQK][CDHS]$"
"""How a card is spelled on the wire: rank then suit."""

Card = Annotated[
    str,
    _Spelling(
        "Card",
        CARD_PATTERN,
        tuple(rank + suit for suit in "CDHS" for rank in "A23456789TJQK"),
        "A card of the 52-card deck, rank then suit: ranks A 2-9 T J Q K, suits C D H S (e.g. 'TD').",
    ),
]
"""A card on the wire: two characters, rank then suit."""

CardList = Annotated[list[Card], Field(max_length=52)]
"""Any list of cards; never longer than a deck."""

FullDeckOrder = Annotated[
    list[Card], Field(min_length=52, max_length=52, json_schema_extra={"uniqueItems": True})
]
"""An exact order of the 52-card deck, top card first (every card once; duplicates are refused)."""

PIQUET_CARD_PATTERN = r"^[789TJQKA][CDHS]$"
"""How a card of the 32-card deck is spelled on the wire."""

PiquetCard = Annotated[
    str,
    _Spelling(
        "PiquetCard",
        PIQUET_CARD_PATTERN,
        tuple(rank + suit for suit in "CDHS" for rank in "789TJQKA"),
        "A card of the 32-card deck (Sedmice), a Card of rank 7 or higher: ranks 7 8 9 T J Q K A, suits "
        "C D H S.",
    ),
]
"""A card of the 32-card deck (Sedmice)."""

PiquetCardList = Annotated[list[PiquetCard], Field(max_length=32)]
"""Any list of cards of the 32-card deck."""

PiquetDeckOrder = Annotated[
    list[PiquetCard], Field(min_length=32, max_length=32, json_schema_extra={"uniqueItems": True})
]
"""An exact order of the 32-card deck (7 to Ace), top card first (every card once)."""


def _fail_fast_lists(node: Any) -> None:
    """Set ``fail_fast`` on every list schema within a pydantic core schema."""
    if isinstance(node, dict):
        if node.get("type") == "list":
            node["fail_fast"] = True
        for value in node.values():
            _fail_fast_lists(value)
    elif isinstance(node, list):
        for value in node:
            _fail_fast_lists(value)


class WireModel(BaseModel):
    """Base of every wire model: strict types, no unknown fields, immutable.

    Every list stops validating at its first bad item (``fail_fast``): a list of a thousand bad records
    would otherwise cost a thousand times the work and the answer, and the first one says what is wrong.

    Its JSON schema comes in two modes: as input a field with a default may be left out; as output every
    field is always written, so the serialization schema lists every field as required.
    """

    model_config = ConfigDict(
        strict=True, extra="forbid", frozen=True, json_schema_serialization_defaults_required=True
    )

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: type[BaseModel], handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        schema = handler(source)
        _fail_fast_lists(schema)
        return schema


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


def _no_default(schema: dict[str, Any]) -> None:
    schema.pop("default", None)


class Problem(WireModel):
    """An RFC 9457 problem details body with a stable machine-readable ``code``."""

    # optional members (a game's legal_moves) are written only by the problems that carry them
    model_config = ConfigDict(json_schema_serialization_defaults_required=False)

    type: str = Field(description="A URI reference naming the problem type ('about:blank' or a code URI).")
    title: str
    status: IntegralInt
    code: str = Field(description="Stable machine code, e.g. 'state/inconsistent' or 'move/illegal'.")
    detail: str
    errors: list[Issue] = Field(
        default_factory=list, description=f"What is wrong and where: at most {MAX_LISTED_ISSUES} issues."
    )
    more_errors: Count = Field(
        default=0, description=f"Issues found beyond the first {MAX_LISTED_ISSUES} listed in errors."
    )
    request_id: str | None = Field(
        default=None,
        max_length=128,
        description="The request's id (its X-Request-ID header, or one the service generated), as logged.",
    )
    # absent from every other problem's JSON, so the schema shows no default: a client's types (which
    # read a default as "always there") keep them optional
    latest_version: IntegralInt | None = Field(
        default=None,
        description="match/stale only: the match's latest version (written by no other problem).",
        json_schema_extra=_no_default,
    )
    latest_token: str | None = Field(
        default=None,
        description="match/stale only: the token of the match's latest version, to ask for the moves again.",
        json_schema_extra=_no_default,
    )


OptionValue = bool | int | None
"""The value of a game option: every option is a boolean, an integer, or an integer that may be null."""


class OptionInfo(WireModel):
    """One option of a game, as listed by ``GET /v1/games``: typed values, not JSON-encoded strings."""

    name: str
    type: str = Field(description="JSON type of the value: 'boolean', 'integer' or 'integer|null'.")
    default: OptionValue = Field(description="The value used when the option is left out.")
    description: str
    choices: list[int] | None = Field(
        description="Every allowed value when the option takes only some values of its range; else null."
    )
    minimum: int | None = Field(description="The smallest allowed integer; null for a boolean option.")
    maximum: int | None = Field(description="The largest allowed integer; null for a boolean option.")


class GameInfo(WireModel):
    """A game as listed by ``GET /v1/games``."""

    id: str
    name: str
    min_players: IntegralInt
    max_players: IntegralInt
    player_counts: list[IntegralInt] = Field(description="Every allowed number of players.")
    simultaneous: bool = Field(description="True when several seats choose in the same step.")
    options: list[OptionInfo]
    rules: str = Field(
        description="The game's rules reference (Markdown), a path on this service, e.g. '/rules/sjuan'.",
        json_schema_extra={"format": "uri-reference"},
    )


class GamesResponse(WireModel):
    """Every game the service knows."""

    games: list[GameInfo]


def model_json(model: BaseModel) -> bytes:
    """The canonical JSON bytes of a wire model (deterministic: field order is declaration order)."""
    return model.__pydantic_serializer__.to_json(model)


def options_info(options_model: type[WireModel]) -> list[OptionInfo]:
    """Describe an options model field by field for ``GET /v1/games``, read from its JSON schema."""
    properties = options_model.model_json_schema()["properties"]
    infos = []
    for name, field in options_model.model_fields.items():
        schema = properties[name]
        # a nullable integer is {"anyOf": [{integer, bounds...}, {"type": "null"}]}: read its integer part
        integer: dict[str, Any] = next(
            (s for s in schema.get("anyOf", [schema]) if s.get("type") == "integer"), {}
        )
        infos.append(
            OptionInfo(
                name=name,
                type=_json_type(schema),
                default=field.get_default(call_default_factory=True),
                description=field.description or "",
                choices=schema.get("enum", integer.get("enum")),
                minimum=integer.get("minimum"),
                maximum=integer.get("maximum"),
            )
        )
    return infos


def _json_type(schema: dict[str, Any]) -> str:
    if "anyOf" in schema:
        return "|".join(_json_type(s) for s in schema["anyOf"])
    return str(schema.get("type", "object"))


class SeatOutcome(WireModel):
    """One seat's standing: its match total and its place."""

    seat: Seat
    total: SignedCount = Field(
        description="The seat's match total as the game counts it (a team game gives each seat its side's)."
    )
    place: Ordinal = Field(
        description="1 for the best; seats sharing a total share a place (1, 2, 2, 4). Once the match is "
        "over the winners hold place 1 and the others follow by total."
    )


class Outcome(WireModel):
    """The part of every game's score a generic client can read without knowing the game."""

    over: bool = Field(description="True once the match has ended.")
    winners: list[Seat] = Field(
        max_length=MAX_SEATS, description="Seats sharing the match win, in seat order (empty until over)."
    )
    lowest_total_wins: bool = Field(description="True when the lowest total is best (penalty games).")
    seats: list[SeatOutcome] = Field(
        max_length=MAX_SEATS, description="Every seat's standing, in seat order."
    )


class MoveBase(WireModel):
    """Fields every move has: the seat making it. Each game adds its ``type`` tag and arguments."""

    player: Seat


def seat_list(description: str) -> Any:
    """A per-seat list field (one entry per seat, at most :data:`MAX_SEATS`)."""
    return Field(max_length=MAX_SEATS, description=description)


def next_deal_deck() -> Any:
    """A move's optional ``deck`` (``deck: FullDeckOrder | None = next_deal_deck()``): the exact order of
    the next deal's deck, given with ``next_deal`` only; left out, the seeded shuffle deals."""
    return Field(default=None, description="Exact deck order for the next deal, top first (next_deal only).")


def deal_number_up_to(most: int, description: str = "1 for the first deal of the match.") -> Any:
    """The ``deal_number`` of a game's state: a deal number (1 for the first) of at most ``most``, the
    longest match the game allows. A state narrows :class:`MatchState`'s ``deal_number`` with it."""
    return Annotated[int, Field(ge=1, le=most, description=description), INTEGRAL]


OptionsT = TypeVar("OptionsT", bound=WireModel)
PhaseT = TypeVar("PhaseT", bound=StrEnum)


class MatchState(WireModel, Generic[OptionsT, PhaseT]):
    """The fields every game's match state opens with, written once.

    A game's state is ``class XState(MatchState[XOptions, XPhase])``: it narrows ``game`` to its id (a
    ``Literal``) and ``deal_number`` to its longest match (:func:`deal_number_up_to`), then adds the fields
    of its own table after these.
    """

    game: str
    options: OptionsT
    dealer: Seat
    deal_number: Ordinal = Field(description="1 for the first deal of the match.")
    seed: Seed
    commitment: Commitment
    entropy: Entropy
    phase: PhaseT


class MatchView(WireModel, Generic[OptionsT, PhaseT]):
    """The fields every game's view (what one seat may see) opens with, written once.

    A view ends with the seed's fields (:class:`SeedShown`), after the game's own: a game writes its view
    as ``class XView(SeedShown, XSeatView)``, where ``XSeatView(MatchView[XOptions, XPhase])`` holds its own
    fields (pydantic lists the fields of the bases last in the class statement first, so ``SeedShown``'s
    come last).
    """

    game: str
    options: OptionsT
    seat: Seat = Field(description="The seat this view is for.")
    dealer: Seat
    deal_number: Count
    phase: PhaseT


class SeedShown(WireModel):
    """The fields that end every view: the seed's commitment and the entropy always, the seed itself once
    the match is over (see :class:`MatchView`)."""

    commitment: Commitment
    entropy: Entropy
    seed: RevealedSeed


class FinishedDeal(WireModel):
    """The fields every game's record of a finished deal opens with, written once: its number and dealer.

    A game's record is ``class XDeal(FinishedDeal)``; it may bound ``number`` its own way (a match of at
    most five deals...) and adds the deal's result after these.
    """

    number: Count = Field(description="1 for the first deal of the match.")
    dealer: Seat


EventTypeT = TypeVar("EventTypeT", bound=StrEnum)


class MatchEvent(WireModel, Generic[EventTypeT]):
    """The fields every game's event opens with, written once: what happened and who acted.

    A game's event is ``class XEvent(MatchEvent[XEventType])`` (it may describe ``player`` its own way);
    its own fields follow, each null when it is not relevant to the event type.
    """

    type: EventTypeT
    player: Seat | None = None


@dataclass(frozen=True)
class GameModels:
    """The wire models one game defines."""

    options: type[WireModel]
    state: type[WireModel]
    move: type[WireModel]
    event: type[WireModel]
    view: type[WireModel]
    score: type[WireModel]
    deck_order: Any = FullDeckOrder
    """The wire type of an exact order of the game's deck (a ``new`` request's ``deck``): the 52 cards, or
    :data:`PiquetDeckOrder` for a game played with the 32."""
