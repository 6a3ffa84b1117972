"""Wire models of Sedmice (RULINGS §5): two players, or four in partnerships (seats 0+2 against 1+3).

Sides are numbered 0 and 1: seat ``s`` belongs to side ``s % 2`` at both table sizes (with two players
each seat is its own side). Every per-side list has exactly two entries.

The trick on the table is a list of **rounds**; each round is the cards in play order, the first card of
every round being the leader's (the led card in round 0, an extension card in later rounds). Only the
last round may be incomplete.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import AfterValidator, Field

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
    seat_list,
)
from .scalars import INTEGRAL, Count, IntegralInt, PiquetCard, PiquetCardList, PiquetDeckOrder, Seat

TARGET_HITS_CHOICES = (1, 5, 10)
"""The match lengths the text allows: the first side to this many hits wins."""


def most_deals(target_hits: int) -> int:
    """The most deals a match to ``target_hits`` can have: every deal gives one side at least one hit, so
    after ``2 * (target_hits - 1)`` deals without a winner each side has ``target_hits - 1`` and the next
    deal ends the match."""
    return 2 * (target_hits - 1) + 1


SEDMICE_MAX_DEALS = most_deals(max(TARGET_HITS_CHOICES))
"""The most deals any match can have (19: to 10 hits)."""


def _check_target_hits(value: int) -> int:
    # Literal[1, 5, 10] would be the natural type, but the GraphQL generator cannot map Literal fields.
    if value not in TARGET_HITS_CHOICES:
        raise ValueError("target_hits must be 1, 5 or 10")
    return value


TargetHits = Annotated[IntegralInt, AfterValidator(_check_target_hits)]
"""1, 5 or 10. The bounds and the JSON-schema ``enum`` are given on the field itself: constraints inside an
``Annotated`` alias of :data:`IntegralInt` reach the JSON schema as raw ``ge``/``le`` keys, not as
``minimum``/``maximum``."""

Side = Annotated[int, Field(ge=0, le=1), INTEGRAL]
"""A side number, 0 (seats 0 and 2) or 1 (seats 1 and 3)."""


side_list = seat_list
"""A per-side list field (exactly two entries are checked against the state)."""


class SedmiceOptions(WireModel):
    """Options of Sedmice."""

    extend_only_when_losing: bool = Field(
        default=False,
        description="The leader may extend a trick only while an opponent would take it (false: always).",
    )
    target_hits: TargetHits = Field(
        default=5,
        ge=1,
        le=10,
        json_schema_extra={"enum": list(TARGET_HITS_CHOICES)},
        description="The match ends when a side has this many hits: 1, 5 or 10.",
    )


class SedmiceMoveType(StrEnum):
    """``play`` a card in a round, ``extend`` the trick (leader, after a full round), ``end_trick`` (leader,
    after a full round), ``next_deal`` (the next dealer, after a finished deal)."""

    play = "play"
    extend = "extend"
    end_trick = "end_trick"
    next_deal = "next_deal"


class SedmiceMove(MoveBase):
    """A Sedmice move. ``card`` for ``play`` and ``extend``; ``deck`` optionally for ``next_deal``."""

    type: SedmiceMoveType
    card: PiquetCard | None = Field(default=None, description="The card played (play and extend only).")
    deck: PiquetDeckOrder | None = Field(
        default=None, description="Exact 32-card deck order for the next deal, top first (next_deal only)."
    )


class SedmiceHitReason(StrEnum):
    """Why a side got the deal's hits (the largest case that applies)."""

    more_points = "more_points"
    """1 hit: more points than the other side."""
    tie_last_trick = "tie_last_trick"
    """1 hit: 40-40, and this side took the last trick."""
    all_points = "all_points"
    """2 hits: all 80 points."""
    all_tricks = "all_tricks"
    """3 hits: every trick of the deal."""


class SedmiceDeal(FinishedDeal):
    """The result of one finished deal; per-side lists are indexed by side (0, 1)."""

    points: list[Count] = side_list("Points per side (aces and tens, 10 each; 80 in all).")
    tricks: list[Count] = side_list("Tricks taken per side.")
    last_trick: Seat = Field(description="The seat that took the last trick (settles a 40-40 tie).")
    hits: list[Count] = side_list("Hits per side from this deal (one side gets 1, 2 or 3).")
    side: Side = Field(description="The side that got the hits.")
    reason: SedmiceHitReason


class SedmiceState(MatchState[SedmiceOptions, Phase]):
    """A match of Sedmice.

    Whose turn it is follows from ``leader`` and ``trick``: the leader leads an empty trick; in an
    incomplete round the next seat clockwise plays; after a full round the leader extends or ends it.
    """

    game: Literal["sedmice"]
    deal_number: deal_number_up_to(SEDMICE_MAX_DEALS)  # type: ignore[valid-type]
    leader: Seat = Field(
        description="The leader of the trick on the table or of the next one; after a deal, its last taker."
    )
    hands: list[PiquetCardList] = Field(min_length=2, max_length=4, description="Each seat's hand.")
    stock: PiquetCardList = Field(description="The face-down stock, top card (drawn first) first.")
    trick: list[PiquetCardList] = Field(
        max_length=8, description="The trick on the table as rounds of cards in play order, leader's first."
    )
    taken: list[PiquetCardList] = side_list("Cards taken in tricks this deal, per side.")
    tricks: list[Count] = side_list("Tricks taken this deal, per side.")
    deals: list[SedmiceDeal] = Field(
        max_length=SEDMICE_MAX_DEALS, description="Finished deals, oldest first."
    )


class SedmiceEventType(StrEnum):
    """What happened: a deal dealt, a card played, a trick extended, a trick taken, one card drawn in the
    refill, a deal scored, the match won."""

    deal_started = "deal_started"
    played = "played"
    extended = "extended"
    trick_taken = "trick_taken"
    drew = "drew"
    deal_ended = "deal_ended"
    match_ended = "match_ended"


class SedmiceEvent(MatchEvent[SedmiceEventType]):
    """Something a move caused. Fields not relevant to the event type are null."""

    player: Seat | None = Field(
        default=None,
        description="Who played, extended, took the trick or drew; the new dealer (deal_started); who "
        "took the deal's last trick (deal_ended).",
    )
    card: PiquetCard | None = Field(default=None, description="The card played, extended with or drawn.")
    answers: bool | None = Field(
        default=None, description="Whether the card answers the led card (played, extended)."
    )
    side: Side | None = Field(
        default=None,
        description="The taker's side (trick_taken); the side that got the deal's hits (deal_ended); the "
        "side that won (match_ended).",
    )
    cards: PiquetCardList | None = Field(default=None, description="The cards of the trick (trick_taken).")
    rounds: Count | None = Field(default=None, description="Rounds the trick lasted (trick_taken).")
    points: Count | None = Field(default=None, description="Points in the trick (trick_taken).")
    deal: SedmiceDeal | None = Field(default=None, description="The finished deal (deal_ended).")
    winners: list[Seat] | None = Field(default=None, description="The winning side's seats (match_ended).")


class SedmiceSeatView(MatchView[SedmiceOptions, Phase]):
    # The fields of SedmiceView after the common ones (a comment, not a docstring: no part of the contract).
    game: Literal["sedmice"]
    leader: Seat
    turn: Seat | None = Field(description="The seat to act in the deal; null after a deal.")
    winning: Seat | None = Field(description="Who would take the trick on the table now; null without one.")
    hand: PiquetCardList
    hand_sizes: list[Count] = seat_list("Number of cards in each hand.")
    stock_size: Count
    trick: list[PiquetCardList] = Field(description="The trick on the table as rounds, leader's card first.")
    points: list[Count] = side_list("Points taken this deal, per side.")
    tricks: list[Count] = side_list("Tricks taken this deal, per side.")
    taken_sizes: list[Count] = side_list("Cards taken this deal, per side.")
    deals: list[SedmiceDeal]


class SedmiceView(SeedShown, SedmiceSeatView):
    """What one seat may see: its own hand, the others' hand sizes, the trick on the table, the stock's
    size, and per side the points, tricks and number of cards taken so far in the deal."""


class SedmiceScore(WireModel):
    """Hits per side over finished deals, the current deal's points and every finished deal."""

    hits: list[Count] = side_list("Hits per side over finished deals.")
    points: list[Count] = side_list("Points taken in the current (or just finished) deal, per side.")
    deals: list[SedmiceDeal]
