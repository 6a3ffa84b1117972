"""Building blocks of the wire contract shared by every game: the base model, suits and phases, problems,
the game list, outcomes, and the fields every match state, view, deal record and event has.

Every wire model derives from :class:`WireModel`: strict, closed (unknown fields are errors) and frozen,
so the engine can never mutate a posted state. The scalar types its fields use (bounded integers, seats,
seeds, cards) are in :mod:`.scalars`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any, Generic, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
)
from pydantic_core import CoreSchema

from .scalars import (
    INTEGRAL,
    MAX_SEATS,
    Commitment,
    Count,
    Entropy,
    FullDeckOrder,
    IntegralInt,
    Ordinal,
    RevealedSeed,
    Seat,
    Seed,
    SignedCount,
)

MAX_LISTED_ISSUES = 20
"""A problem lists at most this many issues (then says how many more there were): bounded answers."""


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


ALWAYS_WRITTEN_PROBLEM_MEMBERS = ("errors", "more_errors", "request_id")
"""Problem members with a default that every problem's JSON holds all the same (``request_id`` may be
null): required in the schema, so that a client's types read them as always there."""


def _always_written(schema: dict[str, Any]) -> None:
    required = schema.setdefault("required", [])
    required += [name for name in ALWAYS_WRITTEN_PROBLEM_MEMBERS if name not in required]


class Problem(WireModel):
    """An RFC 9457 problem details body with a stable machine-readable ``code``."""

    # optional members (a game's legal_moves) are written only by the problems that carry them; the
    # members every problem writes are required all the same
    model_config = ConfigDict(
        json_schema_serialization_defaults_required=False, json_schema_extra=_always_written
    )

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


def deal_number_bound(state: type[BaseModel]) -> int:
    """The ``most`` a game's state model gave its ``deal_number`` (:func:`deal_number_up_to`)."""
    for constraint in state.model_fields["deal_number"].metadata:
        most = getattr(constraint, "le", None)  # (pydantic keeps ``le=`` as annotated_types' ``Le``)
        if isinstance(most, int):
            return most
    raise TypeError(f"{state.__name__}.deal_number has no upper bound")


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
