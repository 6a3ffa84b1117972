"""Wire models of the Seven-Up family: ``seven-up``, ``four-handed-seven-up`` and ``california-jack``.

One state shape serves the three games (RULINGS §3); each game has its own tagged state and view so
that every path has an exact schema. Fields a game does not use stay empty (California Jack never has
a ``turned`` card, ``set_aside`` cards or discards; Seven-Up's stock is the undealt pack).
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
    SeedShown,
    Suit,
    WireModel,
    deal_number_up_to,
    next_deal_deck,
    seat_list,
)
from .scalars import Card, CardList, Count, FullDeckOrder, Seat

SEVEN_UP_MAX_POINTS = 6
"""The most points one deal can score: two during the deal (the first turned card's Jack, then a gift or
the Jack of the new trump a run turns), then High, Low, Jack and Game."""

SEVEN_UP_MAX_DEALS = 100
"""The most deals the service keeps in a match. The rules end a match within a dozen played deals, but
thrown-in deals are unbounded (an explicit deck can force one every time): a ``next_deal`` past this many
deals is refused."""


class SevenUpOptions(WireModel):
    """Options of Seven-Up and Four-handed Seven-Up."""

    may_trump_when_able_to_follow: bool = Field(
        default=False,
        description="A player able to follow suit may trump instead (All Fours rule); false: must follow.",
    )


FourHandedSevenUpOptions = SevenUpOptions


class CaliforniaJackOptions(SevenUpOptions):
    """Options of California Jack."""

    fixed_trump: bool = Field(
        default=False, description="The first turned suit is trump for the whole deal (false: rolling trump)."
    )
    game_point: bool = Field(
        default=False, description="Also score Game (most card points in won tricks) after High, Low, Jack."
    )


class SevenUpPhase(StrEnum):
    """Where a match stands.

    ``stand_or_beg``: the eldest stands or begs; ``give_or_run``: the dealer gives or runs;
    ``discard``: after a run, players discard to six, in turn from the eldest; ``play``: tricks;
    ``deal_over``: the next dealer starts the next deal, unless it was the last deal a match may have
    (the 100th: thrown-in deals are unbounded, so the match ends there with nobody to act and no winner,
    ``outcome.over`` true in the score); ``match_over``: a side reached the target.
    """

    stand_or_beg = "stand_or_beg"
    give_or_run = "give_or_run"
    discard = "discard"
    play = "play"
    deal_over = "deal_over"
    match_over = "match_over"


class SevenUpMoveType(StrEnum):
    """``stand``/``beg`` (eldest), ``give``/``run`` (dealer), ``discard``, ``play``, ``next_deal``."""

    stand = "stand"
    beg = "beg"
    give = "give"
    run = "run"
    discard = "discard"
    play = "play"
    next_deal = "next_deal"


class SevenUpMove(MoveBase):
    """A move in the Seven-Up family.

    ``card`` for ``play``; ``cards`` (canonical order: suits C D H S, ranks A 2..K) for ``discard``;
    ``deck`` optionally for ``next_deal``.
    """

    type: SevenUpMoveType
    card: Card | None = Field(default=None, description="The card played (play only).")
    cards: CardList | None = Field(
        default=None, description="The cards discarded, in canonical deck order (discard only)."
    )
    deck: FullDeckOrder | None = next_deal_deck()


class SevenUpPointReason(StrEnum):
    """Why a point was scored."""

    turned_jack = "turned_jack"
    gift = "gift"
    high = "high"
    low = "low"
    jack = "jack"
    game = "game"


class SevenUpPoint(WireModel):
    """One point scored in a deal: why, by which seat, for which side (the seat itself unless partners)."""

    reason: SevenUpPointReason
    seat: Seat | None = Field(description="The seat that earned the point; null for a partnership's Game.")
    side: Seat = Field(description="The side credited: seat % 2 in Four-handed Seven-Up, else the seat.")


class SevenUpDealOutcome(StrEnum):
    """How a deal ended: all tricks ``played``, ``thrown_in`` (pack ran short; its points cancelled), or
    ``match_won`` (a side reached the target mid-deal, e.g. by a turned Jack or a gift)."""

    played = "played"
    thrown_in = "thrown_in"
    match_won = "match_won"


class SevenUpDeal(FinishedDeal):
    """The record of one finished deal."""

    number: Count = Field(description="1 for the first deal of the match (thrown-in deals count too).")
    outcome: SevenUpDealOutcome
    trump: Suit | None = Field(description="The trump suit in force at the end (null if none was settled).")
    points: list[SevenUpPoint] = Field(
        max_length=SEVEN_UP_MAX_POINTS, description="Every point scored in the deal, in order."
    )
    by_side: list[Count] = seat_list("Points the deal counts for each side (all 0 when thrown in).")


class SevenUpTrick(WireModel):
    """A completed trick: who led, the cards in play order from the leader, the trump, the winner."""

    leader: Seat
    cards: CardList = Field(max_length=4)
    trump: Suit | None = Field(description="Trump suit for this trick.")
    winner: Seat


class SevenUpCutRound(WireModel):
    """One round of the cut for the first deal: the seats cutting and the card each cut (Ace high)."""

    seats: list[Seat] = seat_list("The seats cutting in this round, in seat order.")
    cards: CardList = Field(max_length=8, description="The card each of those seats cut.")


class _SevenUpFamilyState(MatchState[SevenUpOptions, SevenUpPhase]):
    """Fields common to the three games' states."""

    deal_number: deal_number_up_to(  # type: ignore[valid-type]
        SEVEN_UP_MAX_DEALS, "1 for the first deal of the match; thrown-in deals count."
    )
    cut: list[SevenUpCutRound] = Field(
        max_length=32, description="The cut that chose the first dealer (empty when the dealer was named)."
    )
    hands: list[CardList] = Field(
        min_length=2, max_length=4, description="Each seat's hand, canonical order."
    )
    stock: CardList = Field(description="The undealt pack, top card first (California Jack: top is face up).")
    turned: Card | None = Field(description="Seven-Up: the turned card that sets trump; null otherwise.")
    trump: Suit | None = Field(description="Trump suit now (California Jack: for the next trick).")
    set_aside: CardList = Field(description="Turned cards of the refused suit set aside during a run.")
    discarded: list[CardList] = seat_list("Cards each seat discarded after a run (face down).")
    leader: Seat | None = Field(description="The seat leading the current trick (play phase only).")
    trick: CardList = Field(max_length=3, description="Cards played to the current trick, from the leader.")
    tricks: list[SevenUpTrick] = Field(max_length=26, description="Completed tricks of this deal.")
    points: list[SevenUpPoint] = Field(
        max_length=SEVEN_UP_MAX_POINTS, description="Points scored so far in the current deal."
    )
    deals: list[SevenUpDeal] = Field(
        max_length=SEVEN_UP_MAX_DEALS,
        description=f"Finished deals, oldest first (at most {SEVEN_UP_MAX_DEALS}: see README, Limits).",
    )


class SevenUpState(_SevenUpFamilyState):
    """A match of Seven-Up (2 or 3 players, each for themself)."""

    game: Literal["seven-up"]
    options: SevenUpOptions


class FourHandedSevenUpState(_SevenUpFamilyState):
    """A match of Four-handed Seven-Up (partners opposite: seats 0+2 are side 0, seats 1+3 side 1)."""

    game: Literal["four-handed-seven-up"]
    options: FourHandedSevenUpOptions


class CaliforniaJackState(_SevenUpFamilyState):
    """A match of California Jack (2 players; the stock's face-up top card sets the next trick's trump)."""

    game: Literal["california-jack"]
    options: CaliforniaJackOptions


SevenUpEventType = StrEnum(
    "SevenUpEventType",
    "deal_started trump_turned set_aside stood begged gave ran thrown_in discarded played trick_won drew "
    "point deal_ended match_ended",
)
SevenUpEventType.__doc__ = "What happened."  # (the type's description in the contract)


class SevenUpEvent(MatchEvent[SevenUpEventType]):
    """Something a move caused. Fields not relevant to the event type are null."""

    side: Seat | None = Field(default=None, description="The side credited (point, match_ended).")
    card: Card | None = Field(
        default=None, description="Card played, turned, set aside, won for a point, or drawn face up."
    )
    cards: CardList | None = Field(
        default=None, description="The trick's cards, from the leader (trick_won)."
    )
    suit: Suit | None = Field(default=None, description="The trump suit (trump_turned).")
    reason: SevenUpPointReason | None = Field(default=None, description="Why the point was scored (point).")
    count: Count | None = Field(default=None, description="Cards discarded (discarded).")
    totals: list[Count] | None = Field(default=None, description="Match totals per side after a point.")
    deal: SevenUpDeal | None = Field(default=None, description="The finished deal (deal_ended).")
    winners: list[Seat] | None = Field(default=None, description="Seats winning the match (match_ended).")


class _SevenUpFamilySeatView(MatchView[SevenUpOptions, SevenUpPhase]):
    # The fields of the three games' views after the common ones (a comment, not a docstring: no part of
    # the contract).
    to_act: list[Seat] = seat_list("Seats that may move now.")
    hand: CardList = Field(description="This seat's hand (empty while hand_hidden).")
    hand_hidden: bool = Field(
        description="Four-handed Seven-Up: seats dealer+2 and dealer+3 may not look until trump is settled."
    )
    hand_sizes: list[Count] = seat_list("Number of cards in each hand.")
    stock_size: Count
    stock_top: Card | None = Field(description="California Jack: the face-up top card of the stock.")
    turned: Card | None
    trump: Suit | None
    set_aside: CardList
    discarded: CardList = Field(description="This seat's own discards.")
    discard_counts: list[Count] = seat_list("Number of cards each seat discarded.")
    leader: Seat | None
    trick: CardList
    tricks: list[SevenUpTrick]
    points: list[SevenUpPoint]
    totals: list[Count] = seat_list("Match totals per side.")
    deals: list[SevenUpDeal]


class _SevenUpFamilyView(SeedShown, _SevenUpFamilySeatView):
    """What one seat may see: its own hand (unless hidden until trump is settled), others' hand sizes,
    the turned card, the set-aside cards, its own discards, the tricks, scores; never the stock order.

    The first deal's cut is left out: it names cards of another pack, which would read like cards in play.
    """


class SevenUpView(_SevenUpFamilyView):
    """What one seat of a Seven-Up match may see."""

    game: Literal["seven-up"]
    options: SevenUpOptions


class FourHandedSevenUpView(_SevenUpFamilyView):
    """What one seat of a Four-handed Seven-Up match may see."""

    game: Literal["four-handed-seven-up"]
    options: FourHandedSevenUpOptions


class CaliforniaJackView(_SevenUpFamilyView):
    """What one seat of a California Jack match may see."""

    game: Literal["california-jack"]
    options: CaliforniaJackOptions


class SevenUpSideBreakdown(WireModel):
    """The points one side scored in one deal, by reason."""

    side: Seat
    seats: list[Seat] = seat_list("The seats of this side.")
    turned_jack: Count
    gift: Count
    high: Count
    low: Count
    jack: Count
    game: Count
    total: Count = Field(description="Points counted toward the match (0 when the deal was thrown in).")


class SevenUpDealScore(WireModel):
    """One deal's points, as scored and broken down by side and reason."""

    number: Count
    dealer: Seat
    outcome: SevenUpDealOutcome | None = Field(description="Null for the deal still in progress.")
    counted: bool = Field(description="False when the deal was thrown in and its points cancelled.")
    points: list[SevenUpPoint]
    sides: list[SevenUpSideBreakdown]


class SevenUpScore(WireModel):
    """Totals per side (first to the target wins), every deal broken down, and the winning side."""

    target: Count = Field(description="Points that win the match (7, or 10 in California Jack).")
    side_of_seat: list[Seat] = seat_list("The side each seat plays for.")
    totals: list[Count] = seat_list("Match points per side.")
    deals: list[SevenUpDealScore] = Field(description="Finished deals, then the deal in progress if any.")
    winning_side: Seat | None = Field(description="The side that won the match; null until it is over.")
