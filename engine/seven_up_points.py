"""Points and scores of the Seven-Up family: the sides, the points of a hand (High, Low, Jack, Game), their
count towards the match target, the deal records and the score (RULINGS §3).

:class:`SevenUpPoints` is the base of :class:`~sevens_rules.engine.seven_up_rules.SevenUpRules`, which
plays the deals; the variants override the side and point hooks of the first section.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any, ClassVar, Generic, TypeVar

from sevens_rules.engine.cards import FULL_DECK
from sevens_rules.engine.match import DealtMatch
from sevens_rules.engine.models import unvalidated, updated
from sevens_rules.engine.tricks import (
    CARD_STRENGTH,
    card_points,
    unique_best,
)
from sevens_rules.schema import seven_up as variants  # (the variants' own models: the type variables)
from sevens_rules.schema.common import MAX_SEATS, Suit
from sevens_rules.schema.seven_up import (
    SevenUpDeal,
    SevenUpDealOutcome,
    SevenUpDealScore,
    SevenUpEvent,
    SevenUpEventType,
    SevenUpMove,
    SevenUpOptions,
    SevenUpPhase,
    SevenUpPoint,
    SevenUpPointReason,
    SevenUpScore,
    SevenUpSideBreakdown,
    SevenUpState,
    SevenUpTrick,
    SevenUpView,
)

HAND_SIZE = 6
"""Cards in a hand after the deal (and after discarding)."""
PACKET = 3
"""Cards per packet when dealing and running."""
StateT = TypeVar("StateT", SevenUpState, variants.FourHandedSevenUpState, variants.CaliforniaJackState)
OptionsT = TypeVar("OptionsT", SevenUpOptions, variants.CaliforniaJackOptions)
ViewT = TypeVar("ViewT", SevenUpView, variants.FourHandedSevenUpView, variants.CaliforniaJackView)

Phase = SevenUpPhase
Reason = SevenUpPointReason
Outcome = SevenUpDealOutcome
# The phases and deal outcomes as module constants: on the hot paths (every step of a playout
# reads the phase several times) ``Phase.play`` costs an attribute lookup through the enum's metaclass,
# several times the cost of reading a global.
STAND_OR_BEG = Phase.stand_or_beg
GIVE_OR_RUN = Phase.give_or_run
DISCARDING = Phase.discard
PLAYING = Phase.play
DEAL_OVER = Phase.deal_over
MATCH_OVER = Phase.match_over
PLAYED = Outcome.played
THROWN_IN = Outcome.thrown_in
MATCH_WON = Outcome.match_won
_ACTIVE = (STAND_OR_BEG, GIVE_OR_RUN, DISCARDING, PLAYING)
# the event types made at every trick and deal end, likewise
TRICK_WON = SevenUpEventType.trick_won
POINT = SevenUpEventType.point
DEAL_ENDED = SevenUpEventType.deal_ended
MATCH_ENDED = SevenUpEventType.match_ended
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
_CARD_POINTS: Mapping[str, int] = {c: card_points([c]) for c in FULL_DECK}
"""``_CARD_POINTS[card]``: the card's points towards Game (:func:`card_points` of the card alone), so that
a deal's Game is summed without a call per trick."""


# Records and events made without validation. A trick record, its ``trick_won`` event, the point events
# and the deal record are made from values the engine computed and already holds as the right types (seats,
# cards, ``Suit`` and reason members, validated points); like ``updated`` on a state, skipping validation
# changes nothing but the time (the trick and its event would be validated at every trick end).
# tests/test_engine_speed.py checks every such model of random playouts against
# the validated one, field types and set fields included.
_DEFAULT_EVENT = SevenUpEvent(type=SevenUpEventType.point)
_EVENT_DEFAULTS: Mapping[str, Any] = {
    name: getattr(_DEFAULT_EVENT, name) for name in SevenUpEvent.model_fields
}
"""Every field of an event at its default (``type`` included, to be replaced), in field order."""
# The set fields of each kind of event made below, named once rather than built from the names passed at
# every trick end. Each event gets its own (mutable) copy, as a validated event has.
_TRICK_WON_FIELDS = frozenset({"type", "player", "cards"})
_POINT_FIELDS = frozenset({"type", "player", "side", "card", "reason", "totals"})
_DEAL_ENDED_FIELDS = frozenset({"type", "player", "deal"})
_MATCH_ENDED_FIELDS = frozenset({"type", "side", "winners"})
_TRICK_FIELDS = frozenset({"leader", "cards", "trump", "winner"})
"""The fields of a trick record (all of them set)."""


def _point_event(
    seat: int | None, side: int, card_: str | None, reason: SevenUpPointReason, totals: list[int]
) -> SevenUpEvent:
    """A point for ``reason`` to ``seat`` and ``side`` (``card_`` behind it, if any), with the match
    ``totals`` after it (the event's own list), made without validation."""
    values = {
        **_EVENT_DEFAULTS,
        "type": POINT,
        "player": seat,
        "side": side,
        "card": card_,
        "reason": reason,
        "totals": totals,
    }
    return unvalidated(SevenUpEvent, values, set(_POINT_FIELDS))


def _deal_ended_event(dealer: int, deal: SevenUpDeal) -> SevenUpEvent:
    """The deal of ``dealer`` ended with the record ``deal``, made without validation."""
    values = {**_EVENT_DEFAULTS, "type": DEAL_ENDED, "player": dealer, "deal": deal}
    return unvalidated(SevenUpEvent, values, set(_DEAL_ENDED_FIELDS))


def _match_ended_event(side: int, winners: list[int]) -> SevenUpEvent:
    """``side`` (its seats ``winners``, the event's own list) won the match, made without validation."""
    values = {**_EVENT_DEFAULTS, "type": MATCH_ENDED, "side": side, "winners": winners}
    return unvalidated(SevenUpEvent, values, set(_MATCH_ENDED_FIELDS))


TrickPlay = tuple[int, list[str], int]
"""A completed trick as the scoring reads it: its leader, its cards (from the leader) and its winner."""


def _trick_plays(tricks: Sequence[SevenUpTrick]) -> list[TrickPlay]:
    """The leader, cards and winner of each trick record, read once per record: the end-of-hand points go
    over the tricks several times."""
    return [(trick.leader, trick.cards, trick.winner) for trick in tricks]


def _deal_record(
    number: int,
    dealer: int,
    outcome: Outcome,
    trump: Suit | None,
    points: list[SevenUpPoint],
    by_side: list[int],
) -> SevenUpDeal:
    """The record of a finished deal, made without validating the engine's values again (the lists must be
    the record's own)."""
    values = {
        "number": number,
        "dealer": dealer,
        "outcome": outcome,
        "trump": trump,
        "points": points,
        "by_side": by_side,
    }
    return unvalidated(SevenUpDeal, values, {"number", "dealer", "outcome", "trump", "points", "by_side"})


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

    # ---- scoring ---------------------------------------------------------------------------------

    def _award(
        self,
        state: StateT,
        new_points: Sequence[tuple[SevenUpPoint, str | None]],
        events: list[SevenUpEvent],
        end_of_hand: bool = False,
        changes: Mapping[str, Any] | None = None,
    ) -> tuple[StateT, bool]:
        """Add points one at a time; the match ends (and the deal closes) at the first that reaches the
        target. At the ``end_of_hand`` the deal closes in any case. Returns the new state and whether the
        match ended. ``changes`` are fields of a closing deal not yet in ``state`` (the last trick's, see
        :meth:`_close`); they change nothing the points depend on (the finished deals and the points)."""
        totals = self.totals(state)
        sides = [point.side for point, _ in new_points]
        counted, ended = self._counted_sides(totals, sides)
        points = list(state.points)
        for i in range(counted):
            point, card_ = new_points[i]
            points.append(point)
            side = sides[i]
            totals[side] += 1
            events.append(_point_event(point.seat, side, card_, point.reason, list(totals)))
        # a closing deal goes straight to its record: the state with the points added would be dropped
        if ended:
            outcome = PLAYED if end_of_hand else MATCH_WON
            return self._close(state, outcome, events, points, sides[counted - 1], changes), True
        if end_of_hand:
            return self._close(state, PLAYED, events, points, changes=changes), False
        return updated(state, points=points), False

    def counted(self, totals: Sequence[int], points: Sequence[SevenUpPoint]) -> tuple[int, bool]:
        """How many of ``points``, added one at a time to the match ``totals``, are counted: all of them,
        or up to and including the first that brings a side to the target (counting stops there). The
        flag says whether the target was reached."""
        return self._counted_sides(totals, [point.side for point in points])

    def _counted_sides(self, totals: Sequence[int], sides: Sequence[int]) -> tuple[int, bool]:
        """:meth:`counted` for points given by the sides they credit (the engine reads each point once)."""
        running = list(totals)
        target = self.target
        for i, side in enumerate(sides):
            running[side] += 1
            if running[side] >= target:
                return i + 1, True
        return len(sides), False

    def _close(
        self,
        state: StateT,
        outcome: Outcome,
        events: list[SevenUpEvent],
        points: list[SevenUpPoint] | None = None,
        winning_side: int | None = None,
        changes: Mapping[str, Any] | None = None,
    ) -> StateT:
        """Record the deal and move to ``deal_over`` (or ``match_over`` when ``winning_side`` is set).
        ``points`` are the deal's points when they are not yet in ``state`` (else its ``points``);
        ``changes`` are other fields of the deal not yet in ``state`` (the last trick's), set in the same
        copy of the state as the record, so that a deal end copies the state once."""
        n = len(state.hands)
        if points is None:
            points = state.points
        by_side = [0] * self._side_counts[n]
        if outcome is not THROWN_IN:
            for point in points:
                by_side[point.side] += 1
        dealer = state.dealer
        # (a closing trick's changes may name the trump: California Jack's draw turns it)
        trump = changes["trump"] if changes and "trump" in changes else state.trump
        deal = _deal_record(state.deal_number, dealer, outcome, trump, list(points), by_side)
        events.append(_deal_ended_event(dealer, deal))
        phase = DEAL_OVER
        if winning_side is not None:
            phase = MATCH_OVER
            winners = [s for s in range(n) if self.side_of(s) == winning_side]
            events.append(_match_ended_event(winning_side, winners))
        closing = {
            **(changes or {}),
            "points": [],
            "deals": [*state.deals, deal],
            "phase": phase,
            "leader": None,
        }
        return updated(state, **closing)

    def honour_points(self, state: StateT) -> list[tuple[SevenUpPoint, str | None]]:
        """High, Low and Jack of a played hand, with their cards (see :meth:`honours`)."""
        return self.honours(_trick_plays(state.tricks), state.trump, len(state.hands))

    def honours(
        self, plays: Sequence[TrickPlay], trump: Suit | None, n: int
    ) -> list[tuple[SevenUpPoint, str | None]]:
        """High, Low and Jack of a hand whose completed tricks are ``plays`` (:func:`_trick_plays`) at a
        table of ``n``: High and Low to whoever played the highest and lowest trump, Jack to the winner of
        the trick holding the trump Jack."""
        points: list[tuple[SevenUpPoint, str | None]] = []
        if trump is not None:
            # who played each trump, and who won the trump Jack, in one pass over the hand (the other cards
            # play no part in High, Low and Jack: leaving them out of the table saves most of its work)
            jack = "J" + trump
            jack_winner: int | None = None
            played_by: dict[str, int] = {}
            for leader, cards, winner in plays:
                for i, c in enumerate(cards):
                    if c[1] == trump:
                        played_by[c] = (leader + i) % n
                        if c == jack:
                            jack_winner = winner
            by_seat = self._seat_points
            if played_by:
                # the highest and the lowest trump played, found in C (cards of one suit never tie); one
                # trump played alone is both the highest and the lowest: it takes both points
                high = max(played_by, key=CARD_STRENGTH.__getitem__)
                low = min(played_by, key=CARD_STRENGTH.__getitem__)
                points.append((by_seat[HIGH_KEY][played_by[high]], high))
                points.append((by_seat[LOW_KEY][played_by[low]], low))
            if jack_winner is not None:
                points.append((by_seat[JACK_KEY][jack_winner], jack))
        return points

    def hand_points(self, state: StateT) -> list[tuple[SevenUpPoint, str | None]]:
        """The end-of-hand points in counting order, High, Low, Jack, then Game (when scored), each with
        the card behind it (None for Game)."""
        return self._hand_points(state.tricks, state.trump, len(state.hands), state.options)

    def _hand_points(
        self, tricks: Sequence[SevenUpTrick], trump: Suit | None, n: int, options: Any
    ) -> list[tuple[SevenUpPoint, str | None]]:
        """:meth:`hand_points` of a hand whose completed tricks are ``tricks`` at a table of ``n`` (those of
        a state, or those a closing deal is about to set: the deal end scores before it copies the
        state)."""
        # each trick record read once, for High, Low and Jack and for Game
        plays = _trick_plays(tricks)
        points = self.honours(plays, trump, n)
        if self.game_point(options):
            # card points by side, each trick's read from a table (what card_points gives for each card)
            seat_sides = self._seat_sides
            won = [0] * self._side_counts[n]
            points_of = _CARD_POINTS.__getitem__
            for _, cards, winner in plays:
                won[seat_sides[winner]] += sum(map(points_of, cards))
            side = unique_best(won)
            if side is not None:
                points.append((self._game_points[side], None))
        return points

    # ---- score -----------------------------------------------------------------------------------

    def score(self, state: StateT) -> SevenUpScore:
        n = len(state.hands)
        totals = self.totals(state)
        winning = self.winning_side(state, totals)
        deals = [self._deal_score(d.number, d.dealer, d.outcome, d.points, n) for d in state.deals]
        if state.phase in _ACTIVE:
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
