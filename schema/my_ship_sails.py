"""Wire models of My Ship Sails (``my-ship-sails``, RULINGS §4): the service's simultaneous game.

In each step every seat still to choose (``to_act``) picks one action in secret: pass one card to the
left, or declare a one-suit hand. A choice is stored in the state's ``pending`` list (one entry per
seat, null until that seat has chosen) and stays hidden from the other seats, whose views only say
*whether* each seat has chosen. When the last seat has chosen, the step resolves at once.
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
    SeedShown,
    WireModel,
    deal_number_up_to,
    next_deal_deck,
    seat_list,
)
from .scalars import INTEGRAL, Card, CardList, Count, FullDeckOrder, Seat

DEALS_PER_MATCH = 5
"""A match is five deals."""
MAX_EXCHANGES_LIMIT = 1000
"""The largest value of the ``max_exchanges`` option."""

MyShipSailsDealNumber = Annotated[int, Field(ge=1, le=DEALS_PER_MATCH), INTEGRAL]
"""The number of a deal in the match, 1 to 5."""
MyShipSailsExchangeLimit = Annotated[int, Field(ge=1, le=MAX_EXCHANGES_LIMIT), INTEGRAL]
"""A value of the ``max_exchanges`` option."""


class MyShipSailsOptions(WireModel):
    """Options of My Ship Sails."""

    auto_declare: bool = Field(
        default=False,
        description=(
            "A one-suit hand declares automatically, right after the deal and right after each exchange; "
            "the deal then ends at once without asking the other seats."
        ),
    )
    max_exchanges: MyShipSailsExchangeLimit | None = Field(
        default=None,
        description=(
            "After this many exchanges without a declaration the deal ends with no winner (null: no limit, "
            "and a deal ends only when a seat declares, which players choosing at random may never do: such "
            "a client, a bot or a fuzzer, sets a limit)."
        ),
    )


class MyShipSailsPhase(StrEnum):
    """Where a match stands: choosing in a step, between deals, or finished."""

    step = "step"
    deal_over = "deal_over"
    match_over = "match_over"


MyShipSailsMoveType = StrEnum(
    "MyShipSailsMoveType", {"pass": "pass", "declare": "declare", "next_deal": "next_deal"}
)
"""``pass`` one card left (with ``card``), ``declare`` a one-suit hand, ``next_deal`` (the next dealer)."""

MyShipSailsChoiceType = StrEnum("MyShipSailsChoiceType", {"pass": "pass", "declare": "declare"})
"""The action a seat has chosen in the current step."""


class MyShipSailsMove(MoveBase):
    """A move: ``pass`` with ``card``; ``declare``; ``next_deal`` optionally with the exact ``deck``."""

    type: MyShipSailsMoveType
    card: Card | None = Field(default=None, description="The card passed to the left (pass only).")
    deck: FullDeckOrder | None = next_deal_deck()


class MyShipSailsChoice(WireModel):
    """A seat's secret choice in the current step (``card`` for a pass, null for a declaration)."""

    type: MyShipSailsChoiceType
    card: Card | None = Field(default=None, description="The card chosen to pass (pass only).")


class MyShipSailsDeal(FinishedDeal):
    """The result of one finished deal: every declarer of the deciding step scored one win.

    The declared hands are shown in the ``declared`` events; the record keeps only who won, so that a
    later deal's views never repeat cards that may now lie in other hands.
    """

    number: MyShipSailsDealNumber = Field(description="1 for the first deal of the match.")
    exchanges: Count = Field(description="Exchanges completed in the deal.")
    winners: list[Seat] = Field(
        max_length=7,
        description=(
            "The seats that declared in the deciding step, in seat order; each scored one win. "
            "Empty when max_exchanges ended the deal."
        ),
    )


class MyShipSailsState(MatchState[MyShipSailsOptions, MyShipSailsPhase]):
    """A match of My Ship Sails: seven-card hands, the unused rest, and the secret choices of this step."""

    game: Literal["my-ship-sails"]
    deal_number: deal_number_up_to(DEALS_PER_MATCH)  # type: ignore[valid-type]
    hands: list[CardList] = Field(
        min_length=4, max_length=7, description="Each seat's seven cards, in canonical order."
    )
    unused: CardList = Field(description="The cards not dealt; out of play for the whole deal.")
    pending: list[MyShipSailsChoice | None] = seat_list(
        "Each seat's choice in the current step; null until that seat has chosen (always null between steps)."
    )
    exchanges: Count = Field(description="Exchanges completed in the current deal.")
    deals: list[MyShipSailsDeal] = Field(
        max_length=DEALS_PER_MATCH, description="Finished deals, oldest first."
    )


MyShipSailsEventType = StrEnum(
    "MyShipSailsEventType", "deal_started chosen exchanged received declared deal_ended match_ended"
)
"""What happened. ``received`` is private to its ``player``; every other event is public."""


class MyShipSailsEvent(MatchEvent[MyShipSailsEventType]):
    """Something a move caused. Fields not relevant to the event type are null.

    - ``deal_started``: ``player`` is the new dealer.
    - ``chosen``: ``player`` has made their choice for this step (the choice itself is not in the event).
    - ``exchanged``: every chosen card moved one seat left at once; ``exchange`` is its number in the deal.
    - ``received``: ``player`` received ``card`` from ``from_player`` (only ``player`` may be shown this).
    - ``declared``: ``player`` declared and showed ``cards``; ``auto`` when auto_declare did it.
    - ``deal_ended``: ``deal`` is the finished deal's record.
    - ``match_ended``: ``winners`` share the match win.
    """

    card: Card | None = Field(default=None, description="The card received (received only).")
    from_player: Seat | None = Field(default=None, description="The seat the card came from (received only).")
    cards: CardList | None = Field(default=None, description="The hand shown (declared only).")
    auto: bool | None = Field(default=None, description="The declaration was automatic (declared only).")
    exchange: Count | None = Field(
        default=None, description="Number of the exchange in the deal (exchanged)."
    )
    deal: MyShipSailsDeal | None = Field(default=None, description="The finished deal (deal_ended).")
    winners: list[Seat] | None = Field(default=None, description="Match winners (match_ended).")


class MyShipSailsSeatView(MatchView[MyShipSailsOptions, MyShipSailsPhase]):
    # The fields of MyShipSailsView after the common ones (a comment, not a docstring: no part of the
    # contract).
    game: Literal["my-ship-sails"]
    hand: CardList
    choice: MyShipSailsChoice | None = Field(
        description="This seat's own choice in the current step, if made."
    )
    chosen: list[bool] = seat_list("Whether each seat has chosen in the current step.")
    hand_sizes: list[Count] = seat_list("Number of cards in each hand (always seven).")
    unused_size: Count = Field(description="Number of cards not dealt.")
    exchanges: Count = Field(description="Exchanges completed in the current deal.")
    deals: list[MyShipSailsDeal]


class MyShipSailsView(SeedShown, MyShipSailsSeatView):
    """What one seat may see: its own hand and choice, and only whether each other seat has chosen."""


class MyShipSailsScore(WireModel):
    """Wins per seat over finished deals (most wins takes the match) and the deals."""

    totals: list[Count] = seat_list("Wins per seat over finished deals.")
    deals: list[MyShipSailsDeal]
