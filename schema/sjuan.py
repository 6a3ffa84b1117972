"""Wire models of the Sjuan family: ``sjuan``, ``fan-tan``, ``free-fan-tan`` and ``domino-fan-tan``.

One state shape serves the four games; each game has its own tagged subclass and options model so that
every path has an exact schema.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import Field

from sevens_rules.schema.common import (
    Card,
    CardList,
    Count,
    FullDeckOrder,
    IntegralInt,
    MoveBase,
    Ordinal,
    Phase,
    Seat,
    Seed,
    WireModel,
    seat_list,
)


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
    deck: FullDeckOrder | None = Field(
        default=None, description="Exact deck order for the next deal, top first (next_deal only)."
    )


class SjuanDeal(WireModel):
    """The result of one finished deal."""

    number: Count = Field(description="1 for the first deal of the match.")
    dealer: Seat
    winner: Seat | None = Field(description="The seat that emptied its hand; null when blocked.")
    blocked: bool = Field(description="True when the deal ended because nobody could play (free fan tan).")
    cards_left: list[Count] = seat_list("Cards left in each hand.")
    chips: list[Count] = seat_list("Chips each seat paid in the deal (short hand and passes).")
    penalties: list[Count] = seat_list("Penalty points of the deal per seat.")
    pot: Count = Field(description="All chips paid in the deal.")


class SjuanFamilyState(WireModel):
    """Fields common to the four games' states (each game narrows ``game`` and ``options``)."""

    game: str
    options: SjuanOptions
    dealer: Seat
    deal_number: Ordinal = Field(description="1 for the first deal of the match.")
    seed: Seed
    phase: Phase
    turn: Seat | None = Field(description="The seat to act while the phase is 'play'; null otherwise.")
    hands: list[CardList] = Field(min_length=2, max_length=8, description="Each seat's hand.")
    table: CardList = Field(description="Cards on the table in the order they were played.")
    chips: list[Count] = seat_list("Chips each seat has paid in the current deal.")
    deals: list[SjuanDeal] = Field(max_length=1000, description="Finished deals, oldest first.")


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


SjuanEventType = StrEnum(
    "SjuanEventType",
    {
        "deal_started": "deal_started",
        "chip_paid": "chip_paid",
        "played": "played",
        "passed": "passed",
        "drew": "drew",
        "deal_ended": "deal_ended",
        "match_ended": "match_ended",
    },
)
"""What happened."""


class SjuanEvent(WireModel):
    """Something a move caused. Fields not relevant to the event type are null."""

    type: SjuanEventType
    player: Seat | None = None
    card: Card | None = Field(default=None, description="The card played or drawn.")
    chips: Count | None = Field(default=None, description="Chips paid (chip_paid, passed).")
    reason: str | None = Field(default=None, description="Why chips were paid: 'short_hand' or 'pass'.")
    deal: SjuanDeal | None = Field(default=None, description="The finished deal (deal_ended).")
    winners: list[Seat] | None = Field(default=None, description="Match winners (match_ended).")


class SjuanFamilyView(WireModel):
    """What one seat may see: its own hand, the others' hand sizes, the table, the stock's size."""

    game: str
    options: SjuanOptions
    seat: Seat = Field(description="The seat this view is for.")
    dealer: Seat
    deal_number: Count
    phase: Phase
    turn: Seat | None
    hand: CardList
    hand_sizes: list[Count] = seat_list("Number of cards in each hand.")
    table: CardList
    stock_size: Count = Field(description="Cards in the stock (Domino fan tan; 0 otherwise).")
    chips: list[Count] = seat_list("Chips each seat has paid in the current deal.")
    deals: list[SjuanDeal]


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
    """Penalty totals (lowest wins), the current deal's pot, every finished deal, and the outcome."""

    totals: list[Count] = seat_list("Penalty points per seat over finished deals.")
    pot: Count = Field(description="Chips paid so far in the current (or just finished) deal.")
    deals: list[SjuanDeal]
    over: bool
    winners: list[Seat] = seat_list("Seats sharing the match win (empty until the match is over).")
