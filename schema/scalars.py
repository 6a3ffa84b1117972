"""The wire's scalar types, shared by every game: bounded integers, seats, seeds and commitments, entropy,
cards and decks.

Integers are bounded so that GraphQL's 32-bit ``Int`` and REST accept exactly the same values, and
integral floats (``2.0``) are accepted for integers because JSON Schema calls them integers. Each type
that a field can get wrong says what it must be in its own words (a custom error), validated by
pydantic-core alone where it can be, since every posted state carries many of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import (
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
