"""Wire models of the Sjuan family: ``sjuan``, ``fan-tan``, ``free-fan-tan`` and ``domino-fan-tan``.

One state shape serves the four games; each game has its own tagged subclass and options model so that
every path has an exact schema.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import Field

from .common import (
    FinishedDeal,
    MatchEvent,
    MatchState,
    MatchView,
    MoveBase,
    Phase,
    SeedShown,
    WireModel,
    deal_number_up_to,
    next_deal_deck,
    seat_list,
)
from .scalars import Card, CardList, Count, FullDeckOrder, IntegralInt, Seat

SJUAN_MATCH_TARGET = 100
"""A match ends after a deal in which some penalty total reaches this."""

SJUAN_MAX_DEALS = 2 * SJUAN_MATCH_TARGET
"""The most deals a match can have: every deal leaves a card (a penalty point) in a hand other than the
winner's, so with two seats the totals pass 198 within 199 deals and the next ends the match."""


class SjuanOptions(WireModel):
    """Options of Sjuan and Fan Tan."""

    chips_count: bool = Field(
        default=True, description="Chips paid in a deal count as penalty points (false: cards only)."
    )


FanTanOptions = SjuanOptions


class FreeFanTanOptions(SjuanOptions):
    """Options of free fan tan."""

    wrap: bool = Field(
        default=False,
        description="Rows continue from King to Ace and on up to the rank below the start rank.",
    )


class DominoFanTanOptions(SjuanOptions):
    """Options of Domino fan tan (two players with a stock)."""

    hand_size: IntegralInt = Field(default=13, ge=1, le=26, description="Cards dealt to each player.")
    draw_until_playable: bool = Field(
        default=False, description="A player keeps drawing until they can play or the stock is empty."
    )


SjuanMoveType = StrEnum(
    "SjuanMoveType", {"play": "play", "pass": "pass", "draw": "draw", "next_deal": "next_deal"}
)
"""``play`` a card, ``pass`` (no legal card), ``draw`` from the stock (Domino fan tan), ``next_deal``."""


class SjuanMove(MoveBase):
    """A move in the Sjuan family. ``card`` for ``play``; ``deck`` optionally for ``next_deal``."""

    type: SjuanMoveType
    card: Card | None = Field(default=None, description="The card played (play only).")
    deck: FullDeckOrder | None = next_deal_deck()


class SjuanDeal(FinishedDeal):
    """The result of one finished deal."""

    winner: Seat | None = Field(description="The seat that emptied its hand; null when blocked.")
    blocked: bool = Field(description="True when the deal ended because nobody could play (free fan tan).")
    cards_left: list[Count] = seat_list("Cards left in each hand.")
    chips: list[Count] = seat_list("Chips each seat paid in the deal (short hand and passes).")
    penalties: list[Count] = seat_list("Penalty points of the deal per seat.")
    pot: Count = Field(description="All chips paid in the deal.")


class SjuanFamilyState(MatchState[SjuanOptions, Phase]):
    """Fields common to the four games' states (each game narrows ``game`` and ``options``)."""

    deal_number: deal_number_up_to(SJUAN_MAX_DEALS)  # type: ignore[valid-type]
    turn: Seat | None = Field(description="The seat to act while the phase is 'play'; null otherwise.")
    hands: list[CardList] = Field(min_length=2, max_length=8, description="Each seat's hand.")
    table: CardList = Field(description="Cards on the table in the order they were played.")
    chips: list[Count] = seat_list("Chips each seat has paid in the current deal.")
    deals: list[SjuanDeal] = Field(max_length=SJUAN_MAX_DEALS, description="Finished deals, oldest first.")


class SjuanState(SjuanFamilyState):
    """A match of Sjuan."""

    game: Literal["sjuan"]
    options: SjuanOptions


class FanTanState(SjuanFamilyState):
    """A match of Fan Tan."""

    game: Literal["fan-tan"]
    options: FanTanOptions


class FreeFanTanState(SjuanFamilyState):
    """A match of free fan tan. The rank of the first card on the table is every suit's start rank."""

    game: Literal["free-fan-tan"]
    options: FreeFanTanOptions


class DominoFanTanState(SjuanFamilyState):
    """A match of Domino fan tan: two hands and a face-down stock (top card first)."""

    game: Literal["domino-fan-tan"]
    options: DominoFanTanOptions
    stock: CardList


SjuanEventType = StrEnum("SjuanEventType", "deal_started chip_paid played passed drew deal_ended match_ended")
"""What happened."""


class SjuanEvent(MatchEvent[SjuanEventType]):
    """Something a move caused. Fields not relevant to the event type are null."""

    card: Card | None = Field(default=None, description="The card played or drawn.")
    chips: Count | None = Field(default=None, description="Chips paid (chip_paid, passed).")
    reason: str | None = Field(default=None, description="Why chips were paid: 'short_hand' or 'pass'.")
    deal: SjuanDeal | None = Field(default=None, description="The finished deal (deal_ended).")
    winners: list[Seat] | None = Field(default=None, description="Match winners (match_ended).")


class SjuanFamilySeatView(MatchView[SjuanOptions, Phase]):
    # The fields of the four games' views after the common ones (a comment, not a docstring: no part of the
    # contract).
    turn: Seat | None
    hand: CardList
    hand_sizes: list[Count] = seat_list("Number of cards in each hand.")
    table: CardList
    stock_size: Count = Field(description="Cards in the stock (Domino fan tan; 0 otherwise).")
    chips: list[Count] = seat_list("Chips each seat has paid in the current deal.")
    deals: list[SjuanDeal]


class SjuanFamilyView(SeedShown, SjuanFamilySeatView):
    """What one seat may see: its own hand, the others' hand sizes, the table, the stock's size."""


class SjuanView(SjuanFamilyView):
    """What one seat of a Sjuan match may see."""

    game: Literal["sjuan"]
    options: SjuanOptions


class FanTanView(SjuanFamilyView):
    """What one seat of a Fan Tan match may see."""

    game: Literal["fan-tan"]
    options: FanTanOptions


class FreeFanTanView(SjuanFamilyView):
    """What one seat of a free fan tan match may see."""

    game: Literal["free-fan-tan"]
    options: FreeFanTanOptions


class DominoFanTanView(SjuanFamilyView):
    """What one seat of a Domino fan tan match may see."""

    game: Literal["domino-fan-tan"]
    options: DominoFanTanOptions


class SjuanScore(WireModel):
    """Penalty totals (lowest wins), the current deal's pot and every finished deal."""

    totals: list[Count] = seat_list("Penalty points per seat over finished deals.")
    pot: Count = Field(description="Chips paid so far in the current (or just finished) deal.")
    deals: list[SjuanDeal]
