"""Sides and scores of the Seven-Up family on the wire: the sides a seat scores for, the match totals and
the score a wire state gives, and how many points count towards the target (RULINGS §3).

:class:`SevenUpPoints` is the base of :class:`~sevens_rules.engine.seven_up_rules.SevenUpRules`, whose
rules award the points on positions (:mod:`~sevens_rules.engine.seven_up_position`); the variants override
the side and point hooks of the first section.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any, ClassVar, Generic, TypeVar

from sevens_rules.schema import seven_up as variants  # (the variants' own models: the type variables)
from sevens_rules.schema.common import MAX_SEATS, Suit
from sevens_rules.schema.seven_up import (
    SevenUpDealScore,
    SevenUpEvent,
    SevenUpMove,
    SevenUpOptions,
    SevenUpPoint,
    SevenUpPointReason,
    SevenUpScore,
    SevenUpSideBreakdown,
    SevenUpState,
    SevenUpView,
)

from .match import DealtMatch
from .seven_up_position import (
    ACTIVE,
    GIVE_OR_RUN,
    MATCH_OVER,
    STAND_OR_BEG,
    THROWN_IN,
    Outcome,
    Reason,
)

HAND_SIZE = 6
"""Cards in a hand after the deal (and after discarding)."""
PACKET = 3
"""Cards per packet when dealing and running."""
StateT = TypeVar("StateT", SevenUpState, variants.FourHandedSevenUpState, variants.CaliforniaJackState)
OptionsT = TypeVar("OptionsT", SevenUpOptions, variants.CaliforniaJackOptions)
ViewT = TypeVar("ViewT", SevenUpView, variants.FourHandedSevenUpView, variants.CaliforniaJackView)

HIGH = Reason.high
LOW = Reason.low
JACK = Reason.jack
GAME = Reason.game
# The reasons' values, the keys of a game's table of points by seat (``SevenUpRules._seat_points``)
HIGH_KEY: str = HIGH.value
LOW_KEY: str = LOW.value
JACK_KEY: str = JACK.value
TURNED_JACK_KEY: str = Reason.turned_jack.value
GIFT_KEY: str = Reason.gift.value
_UNSETTLED = (STAND_OR_BEG, GIVE_OR_RUN)
SUIT_OF: Mapping[str, Suit] = {suit.value: suit for suit in Suit}
"""The suit of a card's suit letter (``SUIT_OF[card[1]]``): the same member ``Suit(letter)`` gives, without
the enum call."""


_POINTS: Mapping[tuple[SevenUpPointReason, int | None, int], SevenUpPoint] = {
    (reason, seat, side): SevenUpPoint(reason=reason, seat=seat, side=side)
    for reason in SevenUpPointReason
    for seat in (None, *range(MAX_SEATS))
    for side in range(MAX_SEATS)
}
"""``_POINTS[reason, seat, side]``: the point for ``reason`` earned by ``seat`` (None: a partnership's
Game) for ``side``."""


class SevenUpPoints(
    DealtMatch[OptionsT, StateT, SevenUpMove, SevenUpEvent, ViewT, SevenUpScore],
    Generic[OptionsT, StateT, ViewT],
):
    """The sides and points of the three games; each variant overrides the hooks where it differs."""

    target: ClassVar[int] = 7

    # ---- small helpers ---------------------------------------------------------------------------

    def side_count(self, players: int) -> int:
        """Number of scoring sides."""
        return players

    def side_of(self, seat: int) -> int:
        """The side a seat scores for."""
        return seat

    def game_point_seat(self, side: int) -> int | None:
        """The seat a Game point names (each seat is its own side; a partnership's names none)."""
        return side

    def tricks_per_deal(self) -> int:
        """Tricks in a complete deal (6; California Jack plays out the 52 cards: 26)."""
        return HAND_SIZE

    def game_point(self, options: Any) -> bool:
        """Whether Game is scored at the end of a hand."""
        return True

    def _point(self, reason: Reason, seat: int | None, side: int) -> SevenUpPoint:
        return _POINTS[reason, seat, side]

    def _seat_point(self, reason: Reason, seat: int) -> SevenUpPoint:
        """The point for ``reason`` earned by ``seat`` for its side (read from :attr:`_seat_points`; the
        member's ``_value_`` is read directly, as its ``value`` property is Python code)."""
        return self._seat_points[reason._value_][seat]

    # Tables of this game's sides and points, made once per game from the methods that state the rules
    # (side_of, side_count, game_point_seat). The end of every hand asks them several times: a table is
    # read where each method call would run Python code, and a point looked up by a key holding a reason
    # member would hash the member in Python code (Enum.__hash__).

    @cached_property
    def _seat_points(self) -> Mapping[str, tuple[SevenUpPoint, ...]]:
        """``_seat_points[reason's value][seat]``: the point for that reason earned by ``seat`` for its side
        (``side_of(seat)``), for every seat a point can name."""
        return {
            reason.value: tuple(_POINTS[reason, seat, self.side_of(seat)] for seat in range(MAX_SEATS))
            for reason in Reason
        }

    @cached_property
    def _game_points(self) -> tuple[SevenUpPoint, ...]:
        """``_game_points[side]``: the Game point of ``side`` (naming ``game_point_seat(side)``)."""
        return tuple(_POINTS[GAME, self.game_point_seat(side), side] for side in range(MAX_SEATS))

    @cached_property
    def _seat_sides(self) -> tuple[int, ...]:
        """``_seat_sides[seat]``: ``side_of(seat)``, for every seat."""
        return tuple(self.side_of(seat) for seat in range(MAX_SEATS))

    @cached_property
    def _side_counts(self) -> tuple[int, ...]:
        """``_side_counts[players]``: ``side_count(players)``, for every table size up to the most seats."""
        return tuple(self.side_count(players) for players in range(MAX_SEATS + 1))

    def totals(self, state: StateT) -> list[int]:
        """Match points per side: counted finished deals plus the points of the deal in progress."""
        totals = [0] * self._side_counts[len(state.hands)]
        for deal in state.deals:
            for side, points in enumerate(deal.by_side):
                if side < len(totals):
                    totals[side] += points
        for point in state.points:
            side = point.side
            if side < len(totals):
                totals[side] += 1
        return totals

    # ---- counting --------------------------------------------------------------------------------

    def counted(self, totals: Sequence[int], points: Sequence[Any]) -> tuple[int, bool]:
        """How many of ``points``, added one at a time to the match ``totals``, are counted: all of them,
        or up to and including the first that brings a side to the target (counting stops there). The
        flag says whether the target was reached. (The rules count the same way as they award points:
        :meth:`~sevens_rules.engine.seven_up_rules.SevenUpRules._award`.)"""
        running = list(totals)
        target = self.target
        for i, point in enumerate(points):
            running[point.side] += 1
            if running[point.side] >= target:
                return i + 1, True
        return len(points), False

    # ---- score -----------------------------------------------------------------------------------

    def score(self, state: StateT) -> SevenUpScore:
        n = len(state.hands)
        totals = self.totals(state)
        winning = self.winning_side(state, totals)
        deals = [self._deal_score(d.number, d.dealer, d.outcome, d.points, n) for d in state.deals]
        if state.phase in ACTIVE:
            deals.append(self._deal_score(state.deal_number, state.dealer, None, state.points, n))
        return SevenUpScore(
            target=self.target,
            side_of_seat=[self.side_of(s) for s in range(n)],
            totals=totals,
            deals=deals,
            winning_side=winning,
        )

    def winning_side(self, state: StateT, totals: Sequence[int]) -> int | None:
        """The side that won a finished match (the first side at the target); None while it goes on."""
        if state.phase is not MATCH_OVER:
            return None
        return next((side for side, total in enumerate(totals) if total >= self.target), None)

    def seat_totals(self, state: StateT) -> list[int]:
        totals = self.totals(state)
        return [totals[self.side_of(seat)] for seat in range(len(state.hands))]

    def match_winners(self, state: StateT, totals: Sequence[int]) -> list[int]:
        winning = self.winning_side(state, self.totals(state))
        return [seat for seat in range(len(state.hands)) if self.side_of(seat) == winning]

    def _deal_score(
        self, number: int, dealer: int, outcome: Outcome | None, points: list[SevenUpPoint], n: int
    ) -> SevenUpDealScore:
        counted = outcome is not THROWN_IN
        sides = []
        for side in range(self.side_count(n)):
            mine = [p.reason for p in points if p.side == side]
            sides.append(
                SevenUpSideBreakdown(
                    side=side,
                    seats=[s for s in range(n) if self.side_of(s) == side],
                    turned_jack=mine.count(Reason.turned_jack),
                    gift=mine.count(Reason.gift),
                    high=mine.count(Reason.high),
                    low=mine.count(Reason.low),
                    jack=mine.count(Reason.jack),
                    game=mine.count(Reason.game),
                    total=len(mine) if counted else 0,
                )
            )
        return SevenUpDealScore(
            number=number, dealer=dealer, outcome=outcome, counted=counted, points=points, sides=sides
        )
