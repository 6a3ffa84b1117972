"""The Seven-Up family (RULINGS §3): Seven-Up, Four-handed Seven-Up and California Jack.

Trick taking with a 52-card pack, Ace high; the trick, following and card-point rules live in
:mod:`engine.tricks`. Seven-Up turns a card for trump, lets the eldest stand or beg and the dealer give or
run the cards; California Jack rolls the trump with the face-up top card of the stock.

Decisions where the rulings are silent (also in the README):

- **The cut** for the first dealer (all three games, skipped when the request names a dealer) is drawn
  from the documented shuffle of *deal index -1*: ``shuffled(FULL_DECK, seed, -1)``, i.e. SplitMix64
  seeded with ``(seed - 0x9E3779B97F4A7C15) mod 2**64``. Seats cut in seat order taking cards from the
  top; the highest rank (Ace high, suits equal) deals; the tied seats cut again with the next cards. If
  that pack ran out (possible only in theory) the lowest tied seat deals. The rounds are kept in the
  state's ``cut`` field (``new`` has no events, so the state is where the cut shows).
- **Dealing**: two packets of three to each seat, clockwise from the eldest (dealer + 1); the next card
  is turned. A run deals one packet of three to each seat, from the eldest, then turns the next card.
  The run first sets the refused card aside; if fewer than ``3 * players + 1`` cards are left at any
  turn of the run, the deal is thrown in (its points cancelled) and the same dealer deals the next deal
  (a new deal number, so a new shuffle).
- **Four-handed**: all four seats receive the run's cards and discard; only the eldest stands or begs and
  only the dealer gives or runs. Seats dealer+2 and dealer+3 see their hand only as a count
  (``hand_hidden``) as long as the deal's trump is not settled: in ``stand_or_beg`` and ``give_or_run``,
  and also when the deal ends without a settled trump — after a throw-in (``deal_over`` until the next
  deal) and when the first turned Jack wins the match before anyone stood or begged (``match_over``).
  Their cards stay in the state (a finished deal keeps its cards, as every finished deal does); only
  the view hides them. A gift or a run that turns a new suit settles trump, so after them the hands show.
- **Discarding** after a run happens in turn from the eldest, **one card per ``discard`` move**
  (``cards`` holds exactly one card): the seat keeps the turn until it holds six, then the next seat
  discards. Listing every combination at once would mean up to C(21,15) = 54,264 moves after repeated
  runs (and C(15,9) = 5,005 routinely with three players), which a random playout cannot afford; card by
  card, every legal move is listed (at most 21) and the result is the same set of discards.
- **High and Low** go to whoever *played* the highest/lowest trump; Jack to the winner of the trick
  holding the trump Jack; if no trump was played there is no High, Low or Jack. **Game** goes to the
  side with the unique most card points; for partners its ``seat`` is null.
- **Match end**: the moment a side reaches the target (7; California Jack 10). Points scored during a deal
  (turned Jack, gift) count at once; end-of-hand points are added one at a time, High, Low, Jack, Game,
  and counting stops at the winning point. A deal cut short by the match end is recorded with outcome
  ``match_won``. Points of a thrown-in deal never end the match (they are cancelled).
- **California Jack**: after each trick the winner draws the face-up top card, the loser the next, and
  the new top card is turned (setting trump unless ``fixed_trump``). High/Low/Jack are the A, 2 and J of
  the final trump suit, to whoever won the trick holding them (all 52 cards are played).
- **Views** show completed tricks (they were played face up), never the stock order or others' hands or
  discards; the cut is left out of views (its cards come from another pack). Point records name reason,
  seat and side; the card behind a point (High, Low, Jack, turned Jack) is in its ``point`` event.
- **Consistency of points** (what ``consistency_issues`` derives from the cards the state still holds):
  the turned-Jack points of the deal in progress (or of the finished deal in ``deal_over``/``match_over``)
  are exactly one per Jack among the first turned card (``set_aside[0]`` after a run) and the new trump
  a run turned (``turned``); refused-suit cards turned in a run score nothing. A gift needs a settled
  trump without a run; in ``play`` a stand and a give leave the same cards, so there a gift (at most one,
  for the eldest, after the first card's Jack) may or may not be present. A played deal whose tricks are
  still in the state must record exactly the points :meth:`SevenUpFamily.hand_points` gives, counted
  until the winning point (:meth:`SevenUpFamily.counted`, the function the engine scores with). Older deal
  records are checked by shape: a thrown-in deal holds at most its first card's turned Jack (trump null),
  a ``match_won`` deal holds only points scored during it and is the last deal, a played deal holds
  during-deal points, then High and Low (together), Jack, Game in that order, cut short only by the end
  of the match.
- ``deal_over``: the next dealer (the same one after a throw-in) sends ``next_deal``. Every deal,
  thrown-in ones included, gets a new deal number and so a new shuffle (``deal_number - 1``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Generic, TypeVar

from sevens_rules.engine.cards import FULL_DECK, shuffled
from sevens_rules.engine.errors import IssueAt
from sevens_rules.engine.game import (
    Game,
    check_deal_limit,
    check_deck,
    conservation_issues,
    length_issues,
    seat_issues,
)
from sevens_rules.engine.tricks import (
    card_points,
    highest,
    legal_follows,
    lowest,
    strength,
    trick_winner,
    unique_best,
)
from sevens_rules.schema.common import Suit
from sevens_rules.schema.operations import GameModels
from sevens_rules.schema.seven_up import (
    SEVEN_UP_MAX_DEALS,
    CaliforniaJackOptions,
    CaliforniaJackState,
    CaliforniaJackView,
    FourHandedSevenUpState,
    FourHandedSevenUpView,
    SevenUpCutRound,
    SevenUpDeal,
    SevenUpDealOutcome,
    SevenUpDealScore,
    SevenUpEvent,
    SevenUpEventType,
    SevenUpMove,
    SevenUpMoveType,
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
CUT_DEAL_INDEX = -1
"""The shuffle index of the cut pack (deal indexes of real deals start at 0)."""

_ORDER = {c: i for i, c in enumerate(FULL_DECK)}

StateT = TypeVar("StateT", SevenUpState, FourHandedSevenUpState, CaliforniaJackState)
OptionsT = TypeVar("OptionsT", SevenUpOptions, CaliforniaJackOptions)
ViewT = TypeVar("ViewT", SevenUpView, FourHandedSevenUpView, CaliforniaJackView)

Phase = SevenUpPhase
Reason = SevenUpPointReason
Outcome = SevenUpDealOutcome
STAND = SevenUpMoveType.stand
BEG = SevenUpMoveType.beg
GIVE = SevenUpMoveType.give
RUN = SevenUpMoveType.run
DISCARD = SevenUpMoveType.discard
PLAY = SevenUpMoveType.play
NEXT_DEAL = SevenUpMoveType.next_deal
_ACTIVE = (Phase.stand_or_beg, Phase.give_or_run, Phase.discard, Phase.play)
_UNSETTLED = (Phase.stand_or_beg, Phase.give_or_run)


def _sorted(cards: Sequence[str]) -> list[str]:
    return sorted(cards, key=_ORDER.__getitem__)


def _event(kind: SevenUpEventType, **fields: Any) -> SevenUpEvent:
    return SevenUpEvent(type=kind, **fields)


def _fixed_trump(options: Any) -> bool:
    return bool(getattr(options, "fixed_trump", False))


def cut_for_dealer(seed: int, players: int) -> tuple[list[SevenUpCutRound], int]:
    """The documented cut: rounds cut from ``shuffled(FULL_DECK, seed, -1)`` and the seat that deals."""
    pack = shuffled(FULL_DECK, seed, CUT_DEAL_INDEX)
    seats = list(range(players))
    rounds: list[SevenUpCutRound] = []
    position = 0
    while position + len(seats) <= len(pack):
        cards = pack[position : position + len(seats)]
        position += len(seats)
        rounds.append(SevenUpCutRound(seats=seats, cards=cards))
        best = max(strength(c) for c in cards)
        tied = [s for s, c in zip(seats, cards, strict=True) if strength(c) == best]
        if len(tied) == 1:
            return rounds, tied[0]
        seats = tied
    return rounds, seats[0]


class SevenUpFamily(
    Game[OptionsT, StateT, SevenUpMove, SevenUpEvent, ViewT, SevenUpScore], Generic[OptionsT, StateT, ViewT]
):
    """Rules shared by the three games; class attributes select the variant."""

    partners: ClassVar[bool] = False
    """Seats 0+2 and 1+3 score as sides."""
    rolling: ClassVar[bool] = False
    """California Jack: no stand/beg, the stock's top card sets trump, players draw after each trick."""
    hidden_until_trump: ClassVar[bool] = False
    """Seats dealer+2 and dealer+3 may not look at their hands until trump is settled."""
    target: ClassVar[int] = 7
    view_model: ClassVar[type[Any]]

    # ---- small helpers ------------------------------------------------------------------------

    def players(self, state: StateT) -> int:
        return len(state.hands)

    def side_count(self, players: int) -> int:
        """Number of scoring sides."""
        return 2 if self.partners else players

    def side_of(self, seat: int) -> int:
        """The side a seat scores for."""
        return seat % 2 if self.partners else seat

    def tricks_per_deal(self) -> int:
        """Tricks in a complete deal (6; California Jack plays out the 52 cards: 26)."""
        return 26 if self.rolling else HAND_SIZE

    def game_point(self, options: Any) -> bool:
        """Whether Game is scored at the end of a hand."""
        return True

    def _point(self, reason: Reason, seat: int | None, side: int) -> SevenUpPoint:
        return SevenUpPoint(reason=reason, seat=seat, side=side)

    def _seat_point(self, reason: Reason, seat: int) -> SevenUpPoint:
        return SevenUpPoint(reason=reason, seat=seat, side=self.side_of(seat))

    def totals(self, state: StateT) -> list[int]:
        """Match points per side: counted finished deals plus the points of the deal in progress."""
        totals = [0] * self.side_count(len(state.hands))
        for deal in state.deals:
            for side, points in enumerate(deal.by_side):
                if side < len(totals):
                    totals[side] += points
        for point in state.points:
            if point.side < len(totals):
                totals[point.side] += 1
        return totals

    def next_dealer(self, state: StateT) -> int:
        """Who deals next: the same dealer after a throw-in, else the seat left of the dealer."""
        if state.deals and state.deals[-1].outcome is Outcome.thrown_in:
            return state.dealer
        return (state.dealer + 1) % len(state.hands)

    def build_state(self, **fields: Any) -> StateT:
        """A state of this game from its fields."""
        model: Any = self.models.state
        state: StateT = model(game=self.id, **fields)
        return state

    # ---- new match and dealing ----------------------------------------------------------------

    def start(
        self, players: int, options: OptionsT, seed: int, deck: Sequence[str] | None, dealer: int | None
    ) -> tuple[StateT, list[SevenUpEvent]]:
        cut: list[SevenUpCutRound] = []
        if dealer is None:
            cut, dealer = cut_for_dealer(seed, players)
        empty = self.build_state(
            options=options,
            dealer=dealer,
            deal_number=1,
            seed=seed,
            phase=Phase.deal_over,
            cut=cut,
            hands=[[] for _ in range(players)],
            stock=list(FULL_DECK),
            turned=None,
            trump=None,
            set_aside=[],
            discarded=[[] for _ in range(players)],
            leader=None,
            trick=[],
            tricks=[],
            points=[],
            deals=[],
        )
        return self._deal(empty, dealer, 1, deck)

    def _deal(
        self, state: StateT, dealer: int, deal_number: int, deck: Sequence[str] | None
    ) -> tuple[StateT, list[SevenUpEvent]]:
        n = len(state.hands)
        cards = list(deck) if deck is not None else shuffled(FULL_DECK, state.seed, deal_number - 1)
        hands: list[list[str]] = [[] for _ in range(n)]
        position = 0
        for _ in range(HAND_SIZE // PACKET):
            for k in range(n):
                seat = (dealer + 1 + k) % n
                hands[seat] += cards[position : position + PACKET]
                position += PACKET
        events = [_event(SevenUpEventType.deal_started, player=dealer)]
        common: dict[str, Any] = {
            "dealer": dealer,
            "deal_number": deal_number,
            "hands": [_sorted(h) for h in hands],
            "set_aside": [],
            "discarded": [[] for _ in range(n)],
            "trick": [],
            "tricks": [],
            "points": [],
        }
        if self.rolling:
            stock = cards[position:]
            top = stock[0]
            events.append(_event(SevenUpEventType.trump_turned, card=top, suit=Suit(top[1])))
            after = state.model_copy(
                update={
                    **common,
                    "phase": Phase.play,
                    "stock": stock,
                    "turned": None,
                    "trump": Suit(top[1]),
                    "leader": (dealer + 1) % n,
                }
            )
            return after, events
        turned = cards[position]
        after = state.model_copy(
            update={
                **common,
                "phase": Phase.stand_or_beg,
                "stock": cards[position + 1 :],
                "turned": turned,
                "trump": Suit(turned[1]),
                "leader": None,
            }
        )
        events.append(_event(SevenUpEventType.trump_turned, player=dealer, card=turned, suit=Suit(turned[1])))
        if turned[0] == "J":
            after, _ = self._award(after, [(self._seat_point(Reason.turned_jack, dealer), turned)], events)
        return after, events

    # ---- scoring ------------------------------------------------------------------------------

    def _award(
        self,
        state: StateT,
        new_points: Sequence[tuple[SevenUpPoint, str | None]],
        events: list[SevenUpEvent],
        end_of_hand: bool = False,
    ) -> tuple[StateT, bool]:
        """Add points one at a time; the match ends (and the deal closes) at the first that reaches the
        target. Returns the new state and whether the match ended."""
        totals = self.totals(state)
        counted, ended = self.counted(totals, [point for point, _ in new_points])
        points = list(state.points)
        for point, card_ in new_points[:counted]:
            points.append(point)
            totals[point.side] += 1
            events.append(
                _event(
                    SevenUpEventType.point,
                    player=point.seat,
                    side=point.side,
                    card=card_,
                    reason=point.reason,
                    totals=list(totals),
                )
            )
        state = state.model_copy(update={"points": points})
        if ended:
            outcome = Outcome.played if end_of_hand else Outcome.match_won
            winning_side = new_points[counted - 1][0].side
            return self._close(state, outcome, events, winning_side=winning_side), True
        return state, False

    def counted(self, totals: Sequence[int], points: Sequence[SevenUpPoint]) -> tuple[int, bool]:
        """How many of ``points``, added one at a time to the match ``totals``, are counted: all of them,
        or up to and including the first that brings a side to the target (counting stops there). The
        flag says whether the target was reached."""
        running = list(totals)
        for i, point in enumerate(points):
            running[point.side] += 1
            if running[point.side] >= self.target:
                return i + 1, True
        return len(points), False

    def _close(
        self, state: StateT, outcome: Outcome, events: list[SevenUpEvent], winning_side: int | None = None
    ) -> StateT:
        """Record the deal and move to ``deal_over`` (or ``match_over`` when ``winning_side`` is set)."""
        n = len(state.hands)
        by_side = [0] * self.side_count(n)
        if outcome is not Outcome.thrown_in:
            for point in state.points:
                by_side[point.side] += 1
        deal = SevenUpDeal(
            number=state.deal_number,
            dealer=state.dealer,
            outcome=outcome,
            trump=state.trump,
            points=state.points,
            by_side=by_side,
        )
        events.append(_event(SevenUpEventType.deal_ended, player=state.dealer, deal=deal))
        phase = Phase.deal_over
        if winning_side is not None:
            phase = Phase.match_over
            winners = [s for s in range(n) if self.side_of(s) == winning_side]
            events.append(_event(SevenUpEventType.match_ended, side=winning_side, winners=winners))
        return state.model_copy(
            update={"points": [], "deals": [*state.deals, deal], "phase": phase, "leader": None}
        )

    def hand_points(self, state: StateT) -> list[tuple[SevenUpPoint, str | None]]:
        """The end-of-hand points in counting order, High, Low, Jack, then Game (when scored), each with
        the card behind it (None for Game)."""
        n = len(state.hands)
        trump = state.trump
        points: list[tuple[SevenUpPoint, str | None]] = []
        if self.rolling:
            # California Jack: A, 2 and J of the final trump suit to whoever won the trick holding them
            assert trump is not None
            for reason, rank in ((Reason.high, "A"), (Reason.low, "2"), (Reason.jack, "J")):
                card_ = rank + trump
                for trick in state.tricks:
                    if card_ in trick.cards:
                        points.append((self._seat_point(reason, trick.winner), card_))
                        break
        elif trump is not None:
            played_by = {c: (t.leader + i) % n for t in state.tricks for i, c in enumerate(t.cards)}
            high = highest(played_by, trump)
            low = lowest(played_by, trump)
            if high is not None and low is not None:
                # one trump played alone is both the highest and the lowest: it takes both points
                points.append((self._seat_point(Reason.high, played_by[high]), high))
                points.append((self._seat_point(Reason.low, played_by[low]), low))
            jack = "J" + trump
            for trick in state.tricks:
                if jack in trick.cards:
                    points.append((self._seat_point(Reason.jack, trick.winner), jack))
                    break
        if self.game_point(state.options):
            won = [0] * self.side_count(n)
            for trick in state.tricks:
                won[self.side_of(trick.winner)] += card_points(trick.cards)
            side = unique_best(won)
            if side is not None:
                points.append((self._point(Reason.game, None if self.partners else side, side), None))
        return points

    # ---- turns and moves ----------------------------------------------------------------------

    def to_act(self, state: StateT) -> list[int]:
        n = len(state.hands)
        phase = state.phase
        if phase is Phase.play:
            assert state.leader is not None
            return [(state.leader + len(state.trick)) % n]
        if phase is Phase.stand_or_beg:
            return [(state.dealer + 1) % n]
        if phase is Phase.give_or_run:
            return [state.dealer]
        if phase is Phase.discard:
            for k in range(n):
                seat = (state.dealer + 1 + k) % n
                if len(state.hands[seat]) > HAND_SIZE:
                    return [seat]
            return []
        if phase is Phase.deal_over:
            return [self.next_dealer(state)]
        return []

    def legal_moves(self, state: StateT, player: int) -> list[SevenUpMove]:
        phase = state.phase
        if phase is Phase.play:
            led = state.trick[0][1] if state.trick else None
            cards = legal_follows(
                state.hands[player], led, state.trump, state.options.may_trump_when_able_to_follow
            )
            return [SevenUpMove(type=PLAY, player=player, card=c) for c in cards]
        if phase is Phase.stand_or_beg:
            return [SevenUpMove(type=STAND, player=player), SevenUpMove(type=BEG, player=player)]
        if phase is Phase.give_or_run:
            return [SevenUpMove(type=GIVE, player=player), SevenUpMove(type=RUN, player=player)]
        if phase is Phase.discard:
            # one card per move (see the module notes): at most 21 choices instead of every combination
            if len(state.hands[player]) <= HAND_SIZE:
                return []
            return [SevenUpMove(type=DISCARD, player=player, cards=[c]) for c in _sorted(state.hands[player])]
        if phase is Phase.deal_over:
            return [SevenUpMove(type=NEXT_DEAL, player=player)]
        return []

    def is_legal(self, state: StateT, move: SevenUpMove) -> bool:
        # a play is checked without building the move list (half the cost of a random playout)
        if move.type is PLAY:
            if (
                state.phase is not Phase.play
                or move.card is None
                or move.cards is not None
                or move.deck is not None
            ):
                return False
            led = state.trick[0][1] if state.trick else None
            follows = legal_follows(
                state.hands[move.player], led, state.trump, state.options.may_trump_when_able_to_follow
            )
            return move.card in follows
        # next_deal may carry any deck; the deck itself is checked when the move is played
        if state.phase is Phase.deal_over and move.type is NEXT_DEAL:
            return move.card is None and move.cards is None
        return move in self.legal_moves(state, move.player)

    def play(self, state: StateT, move: SevenUpMove) -> tuple[StateT, list[SevenUpEvent]]:
        player = move.player
        kind = move.type
        if kind is PLAY:
            assert move.card is not None
            return self._play_card(state, player, move.card)
        if kind is STAND:
            events = [_event(SevenUpEventType.stood, player=player)]
            return self._start_play(state), events
        if kind is BEG:
            events = [_event(SevenUpEventType.begged, player=player)]
            return state.model_copy(update={"phase": Phase.give_or_run}), events
        if kind is GIVE:
            events = [_event(SevenUpEventType.gave, player=player)]
            eldest = (state.dealer + 1) % len(state.hands)
            after, ended = self._award(state, [(self._seat_point(Reason.gift, eldest), None)], events)
            return (after if ended else self._start_play(after)), events
        if kind is RUN:
            return self._run(state, player)
        if kind is DISCARD:
            assert move.cards is not None
            return self._discard(state, player, move.cards)
        return self._next_deal(state, move)

    def _start_play(self, state: StateT) -> StateT:
        return state.model_copy(update={"phase": Phase.play, "leader": (state.dealer + 1) % len(state.hands)})

    def _run(self, state: StateT, player: int) -> tuple[StateT, list[SevenUpEvent]]:
        n = len(state.hands)
        events = [_event(SevenUpEventType.ran, player=player)]
        assert state.turned is not None
        refused = state.turned[1]
        set_aside = [*state.set_aside, state.turned]
        stock = list(state.stock)
        hands = [list(h) for h in state.hands]
        events.append(_event(SevenUpEventType.set_aside, player=state.dealer, card=state.turned))
        while True:
            if len(stock) < PACKET * n + 1:
                thrown = state.model_copy(
                    update={
                        "set_aside": set_aside,
                        "stock": stock,
                        "hands": [_sorted(h) for h in hands],
                        "turned": None,
                        "trump": None,
                    }
                )
                events.append(_event(SevenUpEventType.thrown_in, player=state.dealer))
                return self._close(thrown, Outcome.thrown_in, events), events
            for k in range(n):
                seat = (state.dealer + 1 + k) % n
                hands[seat] += stock[:PACKET]
                del stock[:PACKET]
            turned = stock.pop(0)
            events.append(
                _event(SevenUpEventType.trump_turned, player=state.dealer, card=turned, suit=Suit(turned[1]))
            )
            if turned[1] == refused:
                set_aside.append(turned)
                events.append(_event(SevenUpEventType.set_aside, player=state.dealer, card=turned))
                continue
            after = state.model_copy(
                update={
                    "phase": Phase.discard,
                    "set_aside": set_aside,
                    "stock": stock,
                    "hands": [_sorted(h) for h in hands],
                    "turned": turned,
                    "trump": Suit(turned[1]),
                }
            )
            if turned[0] == "J":
                after, _ = self._award(
                    after, [(self._seat_point(Reason.turned_jack, state.dealer), turned)], events
                )
            return after, events

    def _discard(self, state: StateT, player: int, cards: Sequence[str]) -> tuple[StateT, list[SevenUpEvent]]:
        gone = set(cards)
        hands = list(state.hands)
        hands[player] = [c for c in hands[player] if c not in gone]
        discarded: list[list[str]] = list(state.discarded)
        discarded[player] = _sorted([*discarded[player], *cards])
        events = [_event(SevenUpEventType.discarded, player=player, count=len(cards))]
        after = state.model_copy(update={"hands": hands, "discarded": discarded})
        if all(len(h) <= HAND_SIZE for h in hands):
            after = self._start_play(after)
        return after, events

    def _play_card(self, state: StateT, player: int, card_: str) -> tuple[StateT, list[SevenUpEvent]]:
        n = len(state.hands)
        hands: list[list[str]] = list(state.hands)
        hands[player] = [c for c in hands[player] if c != card_]
        trick = [*state.trick, card_]
        events = [_event(SevenUpEventType.played, player=player, card=card_)]
        if len(trick) < n:
            return state.model_copy(update={"hands": hands, "trick": trick}), events
        assert state.leader is not None
        trump = state.trump
        winner: int = trick_winner(trick, state.leader, n, trump)
        done = SevenUpTrick(leader=state.leader, cards=trick, trump=trump, winner=winner)
        events.append(_event(SevenUpEventType.trick_won, player=winner, cards=trick))
        update: dict[str, Any] = {
            "hands": hands,
            "trick": [],
            "tricks": [*state.tricks, done],
            "leader": winner,
        }
        if self.rolling and state.stock:
            stock = state.stock
            loser: int = (winner + 1) % n
            hands[winner] = _sorted([*hands[winner], stock[0]])
            hands[loser] = _sorted([*hands[loser], stock[1]])
            events.append(_event(SevenUpEventType.drew, player=winner, card=stock[0]))
            events.append(_event(SevenUpEventType.drew, player=loser))
            update["stock"] = stock[2:]
            if len(stock) > 2 and not _fixed_trump(state.options):
                top = stock[2]
                update["trump"] = Suit(top[1])
                events.append(_event(SevenUpEventType.trump_turned, card=top, suit=Suit(top[1])))
        after = state.model_copy(update=update)
        if any(hands):
            return after, events
        # the hand is over: High, Low, Jack, Game, one at a time
        after, ended = self._award(after, self.hand_points(after), events, end_of_hand=True)
        if ended:
            return after, events
        return self._close(after, Outcome.played, events), events

    def _next_deal(self, state: StateT, move: SevenUpMove) -> tuple[StateT, list[SevenUpEvent]]:
        check_deal_limit(len(state.deals), SEVEN_UP_MAX_DEALS)
        check_deck(move.deck, FULL_DECK, argument="move", path=("deck",))
        return self._deal(state, self.next_dealer(state), state.deal_number + 1, move.deck)

    # ---- score and view -----------------------------------------------------------------------

    def score(self, state: StateT) -> SevenUpScore:
        n = len(state.hands)
        sides = self.side_count(n)
        totals = self.totals(state)
        over = state.phase is Phase.match_over
        winning = None
        if over:
            winning = next((s for s in range(sides) if totals[s] >= self.target), None)
        deals = [self._deal_score(d.number, d.dealer, d.outcome, d.points, n) for d in state.deals]
        if state.phase in _ACTIVE:
            deals.append(self._deal_score(state.deal_number, state.dealer, None, state.points, n))
        return SevenUpScore(
            target=self.target,
            side_of_seat=[self.side_of(s) for s in range(n)],
            totals=totals,
            deals=deals,
            over=over,
            winning_side=winning,
            winners=[] if winning is None else [s for s in range(n) if self.side_of(s) == winning],
        )

    def _deal_score(
        self, number: int, dealer: int, outcome: Outcome | None, points: list[SevenUpPoint], n: int
    ) -> SevenUpDealScore:
        counted = outcome is not Outcome.thrown_in
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

    def trump_settled(self, state: StateT) -> bool:
        """Whether the deal the state holds has settled its trump: the eldest stood, the dealer gave, or
        a run turned a new suit. Never after a throw-in, nor when the first turned Jack won the match
        before anyone stood or begged (California Jack: always)."""
        if self.rolling or state.phase in (Phase.discard, Phase.play):
            return True
        if state.phase in _UNSETTLED:
            return False
        if not state.deals:
            return True
        last = state.deals[-1]
        if last.outcome is Outcome.thrown_in:
            return False
        if last.outcome is Outcome.match_won and not state.set_aside:
            return any(p.reason is Reason.gift for p in last.points)
        return True

    def hand_hidden(self, state: StateT, player: int) -> bool:
        """Whether ``player`` may not look at their own hand now (Four-handed, seats dealer+2 and
        dealer+3 while the trump of the deal is not settled, see :meth:`trump_settled`)."""
        if not self.hidden_until_trump or self.trump_settled(state):
            return False
        n = len(state.hands)
        return player in ((state.dealer + 2) % n, (state.dealer + 3) % n)

    def view(self, state: StateT, player: int) -> ViewT:
        self.check_seat(state, player, "player")
        hidden = self.hand_hidden(state, player)
        view: ViewT = self.view_model(
            game=self.id,
            options=state.options,
            seat=player,
            dealer=state.dealer,
            deal_number=state.deal_number,
            phase=state.phase,
            to_act=self.to_act(state),
            hand=[] if hidden else state.hands[player],
            hand_hidden=hidden,
            hand_sizes=[len(h) for h in state.hands],
            stock_size=len(state.stock),
            stock_top=state.stock[0] if self.rolling and state.stock else None,
            turned=state.turned,
            trump=state.trump,
            set_aside=state.set_aside,
            discarded=state.discarded[player],
            discard_counts=[len(d) for d in state.discarded],
            leader=state.leader,
            trick=state.trick,
            tricks=state.tricks,
            points=state.points,
            totals=self.totals(state),
            deals=state.deals,
        )
        return view

    # ---- consistency --------------------------------------------------------------------------

    def consistency_issues(self, state: StateT) -> list[IssueAt]:
        n = len(state.hands)
        if size_issues := self.table_size_issues(state):
            return size_issues
        issues = length_issues(("discarded",), state.discarded, n)
        issues += seat_issues(("dealer",), state.dealer, n)
        issues += seat_issues(("leader",), state.leader, n)
        if len(state.trick) >= n:
            issues.append(IssueAt(("trick",), f"a trick in progress holds fewer than {n} cards"))
        if len(state.tricks) > self.tricks_per_deal():
            issues.append(IssueAt(("tricks",), f"a deal has at most {self.tricks_per_deal()} tricks"))
        for i, trick in enumerate(state.tricks):
            if len(trick.cards) != n:
                issues.append(IssueAt(("tricks", i, "cards"), f"a completed trick holds {n} cards"))
            issues += seat_issues(("tricks", i, "leader"), trick.leader, n)
            issues += seat_issues(("tricks", i, "winner"), trick.winner, n)
        if issues:
            return issues
        locations: list[tuple[tuple[str | int, ...], Sequence[str]]] = [
            *((("hands", i), h) for i, h in enumerate(state.hands)),
            (("stock",), state.stock),
            (("set_aside",), state.set_aside),
            *((("discarded", i), d) for i, d in enumerate(state.discarded)),
            (("trick",), state.trick),
            *((("tricks", i, "cards"), t.cards) for i, t in enumerate(state.tricks)),
        ]
        if state.turned is not None:
            locations.append((("turned",), [state.turned]))
        issues = conservation_issues(locations, FULL_DECK)
        issues += self._points_issues(("points",), state.points, n)
        for i, deal in enumerate(state.deals):
            issues += self._deal_issues(i, deal, n)
        issues += self._cut_issues(state)
        if issues:
            return issues
        issues += self._dealer_issues(state)
        for i, trick in enumerate(state.tricks):
            if trick_winner(trick.cards, trick.leader, n, trick.trump) != trick.winner:
                issues.append(
                    IssueAt(("tricks", i, "winner"), "is not the seat that played the winning card")
                )
            if i and trick.leader != state.tricks[i - 1].winner:
                issues.append(IssueAt(("tricks", i, "leader"), "the winner of the previous trick leads"))
        if state.tricks and state.tricks[0].leader != (state.dealer + 1) % n:
            issues.append(IssueAt(("tricks", 0, "leader"), "the eldest (left of the dealer) leads first"))
        if state.turned is not None and state.trump != state.turned[1]:
            issues.append(IssueAt(("trump",), "must be the suit of the turned card"))
        issues += self._phase_issues(state, n)
        if not issues:
            issues += self._history_points_issues(state)
        if not issues:
            issues += self._match_issues(state)
        if not issues:
            issues += self._dealt_points_issues(state)
        return issues

    def _points_issues(
        self, path: tuple[str | int, ...], points: Sequence[SevenUpPoint], n: int
    ) -> list[IssueAt]:
        issues = []
        for i, point in enumerate(points):
            issues += seat_issues((*path, i, "seat"), point.seat, n)
            if point.seat is None:
                if not (self.partners and point.reason is Reason.game):
                    issues.append(IssueAt((*path, i, "seat"), "only a partnership's Game point has no seat"))
                if point.side >= self.side_count(n):
                    issues.append(IssueAt((*path, i, "side"), "no such side"))
            elif point.seat < n and point.side != self.side_of(point.seat):
                issues.append(IssueAt((*path, i, "side"), "is not the side of the seat"))
            elif self.partners and point.reason is Reason.game:
                issues.append(IssueAt((*path, i, "seat"), "a partnership's Game point has no seat"))
        return issues

    def _end_of_hand_sequences(self, options: Any) -> list[tuple[Reason, ...]]:
        """The end-of-hand point reasons a complete count can give, in counting order (see
        :meth:`hand_points`): Seven-Up has High and Low together or neither, Jack only with them; all 52
        cards of California Jack are played, so its High, Low and Jack are always there."""
        hand: list[tuple[Reason, ...]]
        if self.rolling:
            hand = [(Reason.high, Reason.low, Reason.jack)]
        else:
            hand = [(), (Reason.high, Reason.low), (Reason.high, Reason.low, Reason.jack)]
        if not self.game_point(options):
            return hand
        return [*hand, *(tuple([*reasons, Reason.game]) for reasons in hand)]

    def _history_points_issues(self, state: StateT) -> list[IssueAt]:
        """Each recorded deal's points are a sequence the engine can produce for its outcome: first the
        points scored during the deal (the first turned card's Jack, then a gift or the Jack of a new
        trump turned in a run), then the end-of-hand points in counting order. A thrown-in deal can only
        hold the first turned card's Jack; a deal cut short by the match end (``match_won``) holds only
        points scored during the deal and is the last deal; only the last deal of a finished match may
        stop counting early."""
        n = len(state.hands)
        complete = self._end_of_hand_sequences(state.options)
        during_ok: set[tuple[Reason, ...]] = {()}
        if not self.rolling:
            tj, gift = Reason.turned_jack, Reason.gift
            during_ok |= {(tj,), (gift,), (tj, gift), (tj, tj)}
        issues: list[IssueAt] = []
        last = len(state.deals) - 1
        for i, deal in enumerate(state.deals):
            path: tuple[str | int, ...] = ("deals", i, "points")
            reasons = tuple(p.reason for p in deal.points)
            split = next(
                (j for j, r in enumerate(reasons) if r not in (Reason.turned_jack, Reason.gift)), len(reasons)
            )
            during, hand = reasons[:split], reasons[split:]
            if deal.outcome is Outcome.thrown_in:
                if during not in ((), (Reason.turned_jack,)) or hand:
                    issues.append(
                        IssueAt(
                            path, "a thrown-in deal can only hold the turned Jack of its first turned card"
                        )
                    )
            elif deal.outcome is Outcome.match_won:
                if i != last:
                    issues.append(
                        IssueAt(("deals", i, "outcome"), "a deal that ended the match is the last deal")
                    )
                if during not in during_ok or not during or hand:
                    issues.append(
                        IssueAt(
                            path,
                            "a deal cut short by the match end holds only points scored during it "
                            "(turned Jacks, a gift), the last of them the winning point",
                        )
                    )
            else:
                stopped = i == last and state.phase is Phase.match_over
                fits = hand in complete or (stopped and any(h[: len(hand)] == hand for h in complete))
                if during not in during_ok or not fits:
                    issues.append(
                        IssueAt(
                            path,
                            "a played deal holds the points scored during it (turned Jacks, a gift), "
                            "then the end-of-hand points in the order High, Low, Jack, Game",
                        )
                    )
            if (deal.trump is None) != (deal.outcome is Outcome.thrown_in):
                issues.append(IssueAt(("deals", i, "trump"), "null exactly when the deal was thrown in"))
            eldest = (deal.dealer + 1) % n
            for j, point in enumerate(deal.points):
                if point.reason is Reason.turned_jack and point.seat != deal.dealer:
                    issues.append(IssueAt((*path, j, "seat"), "a turned Jack scores for the deal's dealer"))
                elif point.reason is Reason.gift and point.seat != eldest:
                    issues.append(IssueAt((*path, j, "seat"), "a gift scores for the deal's eldest"))
        return issues

    def _turned_jack_points(self, state: StateT) -> list[SevenUpPoint]:
        """The turned-Jack points the turned cards of the deal the state holds give: the first turned card
        (the first card set aside after a run) and the new trump a run turned, each when it is a Jack.
        Cards of the refused suit turned during a run are set aside and score nothing."""
        if self.rolling:
            return []
        turned = [state.set_aside[0]] if state.set_aside else []
        if state.turned is not None:
            turned.append(state.turned)
        return [self._seat_point(Reason.turned_jack, state.dealer) for c in turned if c[0] == "J"]

    def _dealt_points_issues(self, state: StateT) -> list[IssueAt]:
        """The points of the deal whose cards the state still holds (the deal in progress, or the last one
        in ``deal_over``/``match_over``) against those cards: turned Jacks match the Jacks turned, a gift
        comes once, only after the dealer gave (no run, trump settled), and the end-of-hand points of a
        played deal are exactly those :meth:`hand_points` gives for its tricks, counted one at a time
        until the winning point (:meth:`counted`)."""
        phase = state.phase
        if phase in _ACTIVE:
            path: tuple[str | int, ...] = ("points",)
            points = state.points
            outcome: Outcome | None = None
        else:
            path = ("deals", len(state.deals) - 1, "points")
            points = state.deals[-1].points
            outcome = state.deals[-1].outcome
        eldest = (state.dealer + 1) % len(state.hands)
        expected: list[SevenUpPoint] = self._turned_jack_points(state)
        settled_without_run = phase is Phase.play or outcome in (Outcome.played, Outcome.match_won)
        allowed: list[list[SevenUpPoint]] = [expected]
        if not self.rolling and not state.set_aside and settled_without_run:
            allowed.append([*expected, self._seat_point(Reason.gift, eldest)])
        split = next(
            (j for j, p in enumerate(points) if p.reason not in (Reason.turned_jack, Reason.gift)),
            len(points),
        )
        during, rest = list(points[:split]), list(points[split:])
        issues: list[IssueAt] = []
        if during not in allowed:
            jacks = sum(1 for p in during if p.reason is Reason.turned_jack)
            if jacks != len(expected):
                message = (
                    f"{len(expected)} turned_jack point(s) expected: one for the dealer per Jack turned "
                    "(the first turned card, a new trump turned in a run), none for the refused suit"
                )
            elif any(p.reason is Reason.gift for p in during):
                message = (
                    "a gift scores once, for the eldest, when the dealer gives: never before the dealer "
                    "decides nor after a run"
                )
            else:
                message = (
                    "turned Jacks score for the dealer, a gift for the eldest, in the order they happened"
                )
            issues.append(IssueAt(path, message))
        if outcome is not Outcome.played:
            if rest:
                issues.append(IssueAt((*path, split, "reason"), "end-of-hand points close a played deal"))
            return issues
        totals = [0] * self.side_count(len(state.hands))
        for deal in state.deals[:-1]:
            for side, count in enumerate(deal.by_side):
                totals[side] += count
        for point in during:
            totals[point.side] += 1
        hand = [point for point, _ in self.hand_points(state)]
        hand = hand[: self.counted(totals, hand)[0]]
        if rest != hand:
            shown = ", ".join(f"{p.reason.value} {p.seat if p.seat is not None else 'side'}" for p in hand)
            issues.append(
                IssueAt(
                    path,
                    "the end-of-hand points must be those the tricks give, counted until the winning point: "
                    f"[{shown}]",
                )
            )
        return issues

    def _deal_issues(self, index: int, deal: SevenUpDeal, n: int) -> list[IssueAt]:
        path: tuple[str | int, ...] = ("deals", index)
        issues = []
        if deal.number != index + 1:
            issues.append(IssueAt((*path, "number"), f"must be {index + 1}"))
        issues += seat_issues((*path, "dealer"), deal.dealer, n)
        issues += self._points_issues((*path, "points"), deal.points, n)
        issues += length_issues((*path, "by_side"), deal.by_side, self.side_count(n))
        if issues:
            return issues
        expected = [0] * self.side_count(n)
        if deal.outcome is not Outcome.thrown_in:
            for point in deal.points:
                expected[point.side] += 1
        if deal.by_side != expected:
            issues.append(
                IssueAt((*path, "by_side"), "must count the deal's points per side (0 when thrown in)")
            )
        if self.rolling and deal.outcome is not Outcome.played:
            issues.append(IssueAt((*path, "outcome"), "a California Jack deal is always played out"))
        return issues

    def _cut_issues(self, state: StateT) -> list[IssueAt]:
        if not state.cut:
            return []
        rounds, dealer = cut_for_dealer(state.seed, len(state.hands))
        if state.cut != rounds:
            return [IssueAt(("cut",), "is not the cut drawn from this seed (see the documented cut)")]
        first = state.deals[0].dealer if state.deals else state.dealer
        if first != dealer:
            return [IssueAt(("cut",), f"the cut makes seat {dealer} the first dealer")]
        return []

    def _dealer_issues(self, state: StateT) -> list[IssueAt]:
        """The deal passes left after each deal, and stays after a throw-in."""
        n = len(state.hands)
        dealers = [d.dealer for d in state.deals]
        if state.phase in _ACTIVE:
            dealers.append(state.dealer)
        elif state.deals and state.dealer != state.deals[-1].dealer:
            return [IssueAt(("dealer",), "a finished deal's dealer stays the dealer until the next deal")]
        for i in range(1, len(dealers)):
            stays = state.deals[i - 1].outcome is Outcome.thrown_in
            expected = dealers[i - 1] if stays else (dealers[i - 1] + 1) % n
            if dealers[i] != expected:
                where: tuple[str | int, ...] = ("deals", i, "dealer") if i < len(state.deals) else ("dealer",)
                return [
                    IssueAt(where, f"must be seat {expected}: the deal passes left (stays after a throw-in)")
                ]
        return []

    def _phase_issues(self, state: StateT, n: int) -> list[IssueAt]:
        issues: list[IssueAt] = []
        phase = state.phase
        deals = len(state.deals)
        sizes = [len(h) for h in state.hands]
        eldest = (state.dealer + 1) % n
        if phase in _ACTIVE:
            if state.deal_number != deals + 1:
                issues.append(
                    IssueAt(("deal_number",), "a deal in progress follows deal_number - 1 finished deals")
                )
        else:
            if state.deal_number != deals or not deals:
                issues.append(
                    IssueAt(("deal_number",), "a finished deal must be the last of deal_number deals")
                )
            if state.points:
                issues.append(IssueAt(("points",), "a finished deal's points are in its record"))
        if issues:
            return issues
        if phase is not Phase.play and (state.leader is not None or state.trick):
            issues.append(IssueAt(("leader",), "only a deal in play has a leader and a trick in progress"))
        if phase not in _ACTIVE:
            last = state.deals[-1]
            if phase is Phase.deal_over and last.outcome is Outcome.match_won:
                issues.append(
                    IssueAt(("phase",), "a deal that ended the match leaves the phase 'match_over'")
                )
            elif phase is Phase.match_over and last.outcome is Outcome.thrown_in:
                issues.append(
                    IssueAt(("deals", deals - 1, "outcome"), "a thrown-in deal never ends the match")
                )
            if last.trump != state.trump:
                issues.append(
                    IssueAt(("deals", deals - 1, "trump"), "the finished deal's trump is the state's trump")
                )
        if issues:
            return issues
        if self.rolling:
            return self._rolling_issues(state, n, sizes)
        if state.set_aside and {c[1] for c in state.set_aside} != {state.set_aside[0][1]}:
            issues.append(IssueAt(("set_aside",), "only cards of the refused suit are set aside"))
        k = len(state.set_aside)
        if phase in _UNSETTLED:
            if state.turned is None or k or any(state.discarded) or state.tricks:
                issues.append(
                    IssueAt(("phase",), "before trump is settled there is a turned card and nothing else")
                )
            if sizes != [HAND_SIZE] * n:
                issues.append(
                    IssueAt(("hands",), f"every hand holds {HAND_SIZE} cards before trump is settled")
                )
            if any(p.reason is Reason.gift for p in state.points):
                issues.append(IssueAt(("points",), "no gift before the dealer gives"))
        elif phase is Phase.discard:
            if state.turned is None or not k or state.tricks:
                issues.append(IssueAt(("phase",), "discarding follows a run that turned a new trump"))
            elif state.turned[1] == state.set_aside[0][1]:
                issues.append(IssueAt(("turned",), "a run ends on a suit other than the refused one"))
            full = HAND_SIZE + PACKET * k
            # seats discard in turn from the eldest: finished seats, then the seat discarding, then the rest
            stage = 0
            for step in range(n):
                seat = (eldest + step) % n
                have, gone = sizes[seat], len(state.discarded[seat])
                if stage == 0 and (have, gone) == (HAND_SIZE, PACKET * k):
                    continue
                if have + gone != full or have <= HAND_SIZE or (stage == 1 and gone):
                    issues.append(
                        IssueAt(
                            ("hands", seat),
                            f"holds {full} cards before discarding, {HAND_SIZE} after, discarding in turn",
                        )
                    )
                stage = 1
            if stage == 0:
                issues.append(IssueAt(("phase",), "everyone has discarded; the phase is 'play'"))
        elif phase is Phase.play:
            if state.turned is None or state.leader is None:
                issues.append(IssueAt(("phase",), "play needs a turned trump and a leader"))
                return issues
            if k and state.turned[1] == state.set_aside[0][1]:
                issues.append(IssueAt(("turned",), "a run ends on a suit other than the refused one"))
            if [len(d) for d in state.discarded] != [PACKET * k] * n:
                issues.append(IssueAt(("discarded",), "after a run everyone discarded down to six"))
            issues += self._play_sizes(state, n, sizes, HAND_SIZE - len(state.tricks))
            for i, trick in enumerate(state.tricks):
                if trick.trump != state.trump:
                    issues.append(IssueAt(("tricks", i, "trump"), "must be the deal's trump"))
        else:  # deal_over or match_over: the finished deal's cards stay as they were
            last = state.deals[-1]
            if last.outcome is Outcome.thrown_in:
                if (
                    state.turned is not None
                    or state.trump is not None
                    or state.tricks
                    or any(state.discarded)
                ):
                    issues.append(IssueAt(("phase",), "a thrown-in deal has no trump, tricks or discards"))
                if not k or sizes != [HAND_SIZE + PACKET * (k - 1)] * n or len(state.stock) >= PACKET * n + 1:
                    issues.append(IssueAt(("stock",), "a deal is thrown in only when the pack runs short"))
                return issues
            if state.turned is None:
                return [*issues, IssueAt(("turned",), "a deal that was not thrown in has a turned trump")]
            if k and state.turned[1] == state.set_aside[0][1]:
                issues.append(IssueAt(("turned",), "a run ends on a suit other than the refused one"))
            if last.outcome is Outcome.match_won:
                # cut short by a turned Jack or a gift: before any discard or trick
                if state.tricks or any(state.discarded) or sizes != [HAND_SIZE + PACKET * k] * n:
                    issues.append(
                        IssueAt(
                            ("phase",), "a deal won by a turned Jack or a gift ends before discards and play"
                        )
                    )
                return issues
            if any(sizes) or len(state.tricks) != HAND_SIZE:
                issues.append(IssueAt(("hands",), "a played deal ends with every card played"))
            if [len(d) for d in state.discarded] != [PACKET * k] * n:
                issues.append(IssueAt(("discarded",), "after a run everyone discarded down to six"))
            for i, trick in enumerate(state.tricks):
                if trick.trump != state.trump:
                    issues.append(IssueAt(("tricks", i, "trump"), "must be the deal's trump"))
        return issues

    def _play_sizes(self, state: StateT, n: int, sizes: list[int], base: int) -> list[IssueAt]:
        """Hand sizes in play: ``base`` cards each, one fewer for seats already in the current trick."""
        assert state.leader is not None
        in_trick = {(state.leader + i) % n for i in range(len(state.trick))}
        expected = [base - (1 if s in in_trick else 0) for s in range(n)]
        if sizes != expected or base <= 0:
            return [
                IssueAt(("hands",), f"hand sizes {sizes} do not fit the tricks played (expected {expected})")
            ]
        if state.tricks and state.tricks[-1].winner != state.leader:
            return [IssueAt(("leader",), "the winner of the last trick leads")]
        if not state.tricks and state.leader != (state.dealer + 1) % n:
            return [IssueAt(("leader",), "the eldest leads the first trick")]
        return []

    def _rolling_issues(self, state: StateT, n: int, sizes: list[int]) -> list[IssueAt]:
        issues: list[IssueAt] = []
        if state.turned is not None or state.set_aside or any(state.discarded):
            issues.append(
                IssueAt(("phase",), "California Jack has no turned card, set-aside cards or discards")
            )
        t = len(state.tricks)
        stock_left = 52 - HAND_SIZE * n
        fixed = _fixed_trump(state.options)
        for i, trick in enumerate(state.tricks):
            if trick.trump is None:
                issues.append(
                    IssueAt(("tricks", i, "trump"), "every California Jack trick is played with a trump")
                )
            elif fixed and trick.trump != state.trump:
                issues.append(
                    IssueAt(("tricks", i, "trump"), "with fixed_trump every trick has the same trump")
                )
        if state.phase is Phase.play:
            if state.leader is None or state.trump is None:
                return [*issues, IssueAt(("phase",), "play needs a leader and a trump")]
            if len(state.stock) != max(0, stock_left - n * t):
                issues.append(IssueAt(("stock",), "two cards are drawn after each trick"))
            per_seat = HAND_SIZE if t <= stock_left // n else 26 - t
            issues += self._play_sizes(state, n, sizes, per_seat)
            if state.stock and (not fixed or not t) and state.trump != state.stock[0][1]:
                # before the first trick the face-up top card sets trump, fixed_trump or not
                issues.append(IssueAt(("trump",), "the stock's face-up top card sets trump"))
            if state.tricks and (fixed or not state.stock) and state.tricks[-1].trump != state.trump:
                issues.append(IssueAt(("trump",), "the trump suit holds (fixed or once the stock is empty)"))
        elif any(sizes) or state.stock or t != 26 or state.trump is None:
            issues.append(IssueAt(("hands",), "a played deal ends with every card played"))
        elif state.tricks[-1].trump != state.trump:
            issues.append(IssueAt(("trump",), "the final trump suit is the last trick's"))
        return issues

    def _match_issues(self, state: StateT) -> list[IssueAt]:
        sides = self.side_count(len(state.hands))
        totals = [0] * sides
        history: list[tuple[tuple[str | int, ...], list[SevenUpPoint], Outcome | None]] = [
            (("deals", i), d.points, d.outcome) for i, d in enumerate(state.deals)
        ]
        history.append((("points",), state.points, None))
        reached_at: tuple[str | int, ...] | None = None
        last_point: tuple[str | int, ...] | None = None
        for entry in history:
            where: tuple[str | int, ...] = entry[0]
            outcome = entry[2]
            running = list(totals)
            for j, point in enumerate(entry[1]):
                running[point.side] += 1
                last_point = (*where, j)
                if reached_at is None and running[point.side] >= self.target:
                    reached_at = last_point
                    if outcome is Outcome.thrown_in:
                        return [IssueAt(last_point, "this point would have ended the match; no throw-in")]
            if outcome is not Outcome.thrown_in:
                totals = running
        over = state.phase is Phase.match_over
        if reached_at is not None and reached_at != last_point:
            return [IssueAt(reached_at, "the match ended at this point; nothing follows it")]
        if reached_at is not None and reached_at[0] == "deals" and reached_at[1] != len(state.deals) - 1:
            return [IssueAt(reached_at, "the match ended in this deal; no deal follows it")]
        if state.deals and state.deals[-1].outcome is Outcome.match_won and reached_at is None:
            return [IssueAt(("deals", len(state.deals) - 1, "outcome"), "'match_won' needs a winning point")]
        if over != (reached_at is not None):
            return [IssueAt(("phase",), f"the match is over exactly when a side has reached {self.target}")]
        return []


class SevenUp(SevenUpFamily[SevenUpOptions, SevenUpState, SevenUpView]):
    """Seven-Up (All Fours): 2 or 3 players, each for themself, first to 7."""

    id = "seven-up"
    name = "Seven-Up"
    min_players = 2
    max_players = 3
    view_model = SevenUpView
    models = GameModels(SevenUpOptions, SevenUpState, SevenUpMove, SevenUpEvent, SevenUpView, SevenUpScore)


class FourHandedSevenUp(SevenUpFamily[SevenUpOptions, FourHandedSevenUpState, FourHandedSevenUpView]):
    """Four-handed Seven-Up: partners opposite (0+2, 1+3); seats dealer+2 and dealer+3 may not look at
    their hands until trump is settled."""

    id = "four-handed-seven-up"
    name = "Four-handed Seven-Up"
    min_players = 4
    max_players = 4
    partners = True
    hidden_until_trump = True
    view_model = FourHandedSevenUpView
    models = GameModels(
        SevenUpOptions, FourHandedSevenUpState, SevenUpMove, SevenUpEvent, FourHandedSevenUpView, SevenUpScore
    )


class CaliforniaJack(SevenUpFamily[CaliforniaJackOptions, CaliforniaJackState, CaliforniaJackView]):
    """California Jack: 2 players, rolling trump from the face-up stock, High/Low/Jack of the final
    trump suit, first to 10."""

    id = "california-jack"
    name = "California Jack"
    min_players = 2
    max_players = 2
    rolling = True
    target = 10
    view_model = CaliforniaJackView
    models = GameModels(
        CaliforniaJackOptions,
        CaliforniaJackState,
        SevenUpMove,
        SevenUpEvent,
        CaliforniaJackView,
        SevenUpScore,
    )

    def game_point(self, options: Any) -> bool:
        return bool(options.game_point)
