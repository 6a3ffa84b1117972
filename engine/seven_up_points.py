"""Sides and points of the Seven-Up family: the sides a seat scores for, the points a hand's tricks earn
(High, Low, Jack and Game), how many points count towards the target, and the match totals and score a
wire state gives (RULINGS §3).

:class:`SevenUpPoints` is the base of :class:`~sevens_rules.engine.seven_up_rules.SevenUpRules`, whose
rules award the points on positions (:mod:`~sevens_rules.engine.seven_up_position`); the variants override
the side and point hooks of the first section.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any, ClassVar, Generic, TypeVar

from ..schema import seven_up as variants  # (the variants' own models: the type variables)
from ..schema.common import Suit
from ..schema.scalars import MAX_SEATS
from ..schema.seven_up import (
    SevenUpDealScore,
    SevenUpEvent,
    SevenUpMove,
    SevenUpOptions,
    SevenUpPoint,
    SevenUpScore,
    SevenUpSideBreakdown,
    SevenUpState,
    SevenUpView,
)
from .card_sets import SUIT_SIZE
from .cards import FULL_DECK
from .match import DealtMatch
from .seven_up_position import (
    ACTIVE,
    CARD_POINTS,
    GIVE_OR_RUN,
    MATCH_OVER,
    NO_TRUMP,
    POINTS,
    STAND_OR_BEG,
    STRENGTH,
    SUIT_INDEX,
    THROWN_IN,
    WIRE_POINTS,
    Outcome,
    Point,
    Reason,
    Trick,
    read_trick,
)
from .seven_up_position import JACK as JACK_RANK
from .tricks import unique_best

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
# The reasons' values, the keys of a game's table of points by seat (``_points_by_seat``)
HIGH_KEY: str = HIGH.value
LOW_KEY: str = LOW.value
JACK_KEY: str = JACK.value
TURNED_JACK_KEY: str = Reason.turned_jack.value
GIFT_KEY: str = Reason.gift.value
_UNSETTLED = (STAND_OR_BEG, GIVE_OR_RUN)
Scored = list[tuple[Point, str | None]]
"""Points in counting order, each with the card behind it (None for Game and a gift)."""

SUIT_OF: Mapping[str, Suit] = {suit.value: suit for suit in Suit}
"""The suit of a card's suit letter (``SUIT_OF[card[1]]``): the same member ``Suit(letter)`` gives, without
the enum call."""


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

    def _seat_point(self, reason: Reason, seat: int) -> SevenUpPoint:
        """The wire point for ``reason`` earned by ``seat`` for its side (read from
        :attr:`_points_by_seat`)."""
        return WIRE_POINTS[self._points_by_seat[reason._value_][seat]]

    # Tables of this game's sides and points, made once per game from the methods that state the rules
    # (side_of, side_count, game_point_seat). The end of every hand asks them several times: a table is
    # read where each method call would run Python code, and a point looked up by a key holding a reason
    # member would hash the member in Python code (Enum.__hash__).

    @cached_property
    def _points_by_seat(self) -> dict[str, tuple[Point, ...]]:
        """``_points_by_seat[reason's value][seat]``: the point for that reason earned by ``seat`` for its
        side, for every seat a point can name."""
        sides = self._seat_sides
        return {
            reason.value: tuple(POINTS[reason, seat, sides[seat]] for seat in range(MAX_SEATS))
            for reason in Reason
        }

    @cached_property
    def _game_point_of_side(self) -> tuple[Point, ...]:
        """``_game_point_of_side[side]``: the Game point of ``side`` (naming ``game_point_seat(side)``)."""
        return tuple(POINTS[Reason.game, self.game_point_seat(side), side] for side in range(MAX_SEATS))

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

    # ---- the points of a hand ------------------------------------------------------------------

    def honours(self, tricks: Sequence[Trick], trump: int, n: int) -> Scored:
        """High, Low and Jack of a hand whose completed tricks are ``tricks`` at a table of ``n``: High and
        Low to whoever played the highest and lowest trump (one trump alone takes both), Jack to the
        winner of the trick holding the trump Jack."""
        points: Scored = []
        if trump < 0:
            return points
        jack = trump * SUIT_SIZE + JACK_RANK
        jack_winner: int | None = None
        played_by: dict[int, int] = {}
        for leader, cards, _, winner in tricks:
            for i, card in enumerate(cards):
                if card // SUIT_SIZE == trump:
                    played_by[card] = (leader + i) % n
                    if card == jack:
                        jack_winner = winner
        by_seat = self._points_by_seat
        if played_by:
            high = max(played_by, key=STRENGTH.__getitem__)
            low = min(played_by, key=STRENGTH.__getitem__)
            points.append((by_seat[HIGH_KEY][played_by[high]], FULL_DECK[high]))
            points.append((by_seat[LOW_KEY][played_by[low]], FULL_DECK[low]))
        if jack_winner is not None:
            points.append((by_seat[JACK_KEY][jack_winner], FULL_DECK[jack]))
        return points

    def hand_points_of(self, tricks: Sequence[Trick], trump: int, n: int, options: Any) -> Scored:
        """The end-of-hand points in counting order, High, Low, Jack (:meth:`honours`), then Game (when
        scored: the side with the unique most card points in the tricks it won)."""
        points = self.honours(tricks, trump, n)
        if self.game_point(options):
            seat_sides = self._seat_sides
            won = [0] * self._side_counts[n]
            for trick in tricks:
                won[seat_sides[trick.winner]] += sum(map(CARD_POINTS.__getitem__, trick.cards))
            side = unique_best(won)
            if side is not None:
                points.append((self._game_point_of_side[side], None))
        return points

    def hand_points(self, state: StateT) -> list[tuple[Any, str | None]]:
        """The end-of-hand points of a wire state's tricks (:meth:`hand_points_of`), as wire points."""
        trump = state.trump
        tricks = tuple(map(read_trick, state.tricks))
        scored = self.hand_points_of(
            tricks, NO_TRUMP if trump is None else SUIT_INDEX[trump], len(state.hands), state.options
        )
        return [(WIRE_POINTS[point], card) for point, card in scored]

    def honour_points(self, state: StateT) -> list[tuple[Any, str | None]]:
        """High, Low and Jack of a wire state's tricks (:meth:`honours`), as wire points."""
        trump = state.trump
        scored = self.honours(
            tuple(map(read_trick, state.tricks)),
            NO_TRUMP if trump is None else SUIT_INDEX[trump],
            len(state.hands),
        )
        return [(WIRE_POINTS[point], card) for point, card in scored]

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
