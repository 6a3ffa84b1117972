"""Wire models of Sevens (RULINGS §2, text 001): four players, three passes per deal, busting.

The table is one :class:`SevensRow` per suit (clubs, diamonds, hearts, spades, in that order). A row
shows its ``run`` -- the unbroken cards through the suit's 7, the only place where cards can be played --
and the cards a bust player ``laid`` in their places that are not yet joined to the run. Each seat's
passes, the seats that went out (in order: their places) and the seats that went bust (in order) are
explicit, so that a client can explain a deal from the state alone.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Field

from .common import (
    FinishedDeal,
    MatchEvent,
    MatchState,
    MatchView,
    MoveBase,
    Phase,
    SeedShown,
    Suit,
    WireModel,
    deal_number_up_to,
    next_deal_deck,
    seat_list,
)
from .scalars import INTEGRAL, Card, CardList, Count, FullDeckOrder, IntegralInt, Ordinal, Seat

SEVENS_PLAYERS = 4
"""Sevens is for exactly four players."""

SEVENS_PASSES = 3
"""Passes each player may use in a deal; a fourth pass is a bust."""

SEVENS_MAX_DEALS = 100
"""The longest match the ``deals`` option allows."""

SevensPassCount = Annotated[int, Field(ge=0, le=SEVENS_PASSES), INTEGRAL]
"""Passes a seat has used in the current deal: 0 to 3 (the fourth pass is the bust, see ``bust``)."""

SevensPlace = Annotated[int, Field(ge=1, le=SEVENS_PLAYERS), INTEGRAL]
"""A place in a deal, 1 (best) to 4."""


class SevensOptions(WireModel):
    """Options of Sevens."""

    deals: IntegralInt = Field(
        default=5,
        ge=1,
        le=SEVENS_MAX_DEALS,
        description="Deals in a match (the text: 5); the highest total then wins.",
    )


SevensMoveType = StrEnum("SevensMoveType", {"play": "play", "pass": "pass", "next_deal": "next_deal"})
"""``play`` a card, ``pass`` (counted; a fourth pass is a bust), ``next_deal`` (start the next deal)."""


class SevensMove(MoveBase):
    """A move in Sevens. ``card`` for ``play``; ``deck`` optionally for ``next_deal``."""

    type: SevensMoveType
    card: Card | None = Field(default=None, description="The card played (play only).")
    deck: FullDeckOrder | None = next_deal_deck()


class SevensRow(WireModel):
    """One suit on the table: the run through its 7 and the bust cards lying apart from it."""

    suit: Suit
    run: CardList = Field(
        min_length=1,
        max_length=13,
        description=(
            "The unbroken run through the suit's 7, ascending (Ace first). Cards are played only one rank "
            "outside it: below its first card (down to the Ace) or above its last (up to the King)."
        ),
    )
    laid: CardList = Field(
        max_length=12,
        description=(
            "Cards of bust players lying in their places but separated from the run by a gap, ascending. "
            "They create no row ends; they join the run when the gap is filled."
        ),
    )


class SevensDeal(FinishedDeal):
    """The result of one finished deal."""

    number: Ordinal = Field(description="1 for the first deal of the match.")
    places: list[SevensPlace] = seat_list(
        "Each seat's place: going-out order, then the last player left, then the bust players "
        "(the first to bust last)."
    )
    points: list[Count] = seat_list("Points of the deal per seat: 3, 2, 1, 0 for places 1 to 4.")


class SevensState(MatchState[SevensOptions, Phase]):
    """A match of Sevens."""

    game: Literal["sevens"]
    deal_number: deal_number_up_to(SEVENS_MAX_DEALS)  # type: ignore[valid-type]
    turn: Seat | None = Field(description="The seat to act while the phase is 'play'; null otherwise.")
    hands: list[CardList] = Field(min_length=4, max_length=4, description="Each seat's hand, sorted.")
    table: list[SevensRow] = Field(
        min_length=4, max_length=4, description="One row per suit, in the order C, D, H, S."
    )
    passes: list[SevensPassCount] = seat_list("Passes each seat has used in this deal (0-3).")
    out: list[Seat] = Field(
        max_length=4,
        description="Seats that emptied their hands this deal, in order: the first took place 1.",
    )
    bust: list[Seat] = Field(
        max_length=4,
        description="Seats that went bust this deal (a fourth pass), in order; the first to bust ranks last.",
    )
    deals: list[SevensDeal] = Field(max_length=SEVENS_MAX_DEALS, description="Finished deals, oldest first.")


SevensEventType = StrEnum(
    "SevensEventType", "deal_started played passed bust went_out deal_ended match_ended"
)
"""What happened."""


class SevensEvent(MatchEvent[SevensEventType]):
    """Something a move caused. Fields not relevant to the event type are null."""

    player: Seat | None = Field(
        default=None, description="Who acted (the new dealer for deal_started, the first to move is 'turn')."
    )
    card: Card | None = Field(default=None, description="The card played (played).")
    passes: Count | None = Field(
        default=None,
        description="Passes this seat has now used in the deal, this one included (passed; 4 = bust).",
    )
    cards: CardList | None = Field(
        default=None, description="The bust player's cards laid in their places on the table (bust)."
    )
    joined: CardList | None = Field(
        default=None,
        description="Laid bust cards that this play joined to the run (played; null when none).",
    )
    place: SevensPlace | None = Field(default=None, description="The place taken by going out (went_out).")
    deal: SevensDeal | None = Field(default=None, description="The finished deal (deal_ended).")
    winners: list[Seat] | None = Field(default=None, description="Match winners (match_ended).")


class SevensSeatView(MatchView[SevensOptions, Phase]):
    # The fields of SevensView after the common ones (a comment, not a docstring: this class is no part of
    # the contract, SevensView is).
    game: Literal["sevens"]
    turn: Seat | None
    hand: CardList
    hand_sizes: list[Count] = seat_list("Number of cards in each hand.")
    table: list[SevensRow]
    passes: list[SevensPassCount] = seat_list("Passes each seat has used in this deal (0-3).")
    out: list[Seat] = Field(description="Seats that went out this deal, in order (place 1 first).")
    bust: list[Seat] = Field(description="Seats that went bust this deal, in order.")
    deals: list[SevensDeal]


class SevensView(SeedShown, SevensSeatView):
    """What one seat may see: its own hand, the others' hand sizes, passes, places and the table."""


class SevensScore(WireModel):
    """Point totals (highest wins) and every finished deal."""

    totals: list[Count] = seat_list("Points per seat over finished deals.")
    deals: list[SevensDeal]
