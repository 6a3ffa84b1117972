"""The rules of the Seven-Up family, written once on positions
(:mod:`~sevens_rules.engine.seven_up_position`): dealing, standing and begging, giving and running,
discarding, trick play, the points of a hand counted until the winning point, deal end, next deal and
match end, with the hooks its variants override (RULINGS §3).

The games themselves (the wire side of a step, which reads a posted state into a position once and writes
the state back once with :mod:`~sevens_rules.engine.seven_up_wire`, the variants, and the decisions taken
where the rulings are silent) are in :mod:`sevens_rules.engine.seven_up`; the sides, the points a hand's
tricks earn (which the consistency checks also count on a wire state), the wire scores and totals in
:mod:`sevens_rules.engine.seven_up_points`; the consistency checks of a posted state in
:mod:`sevens_rules.engine.seven_up_checks`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, ClassVar

from ..schema.common import Outcome
from ..schema.seven_up import SEVEN_UP_MAX_DEALS, SevenUpCutRound, SevenUpEvent
from .card_sets import SUIT_SIZE, SUITS, bits_of, card_set
from .cards import FULL_DECK
from .dealing import CUT, Seeding
from .game import standings
from .models import constructed
from .positions import PositionWire
from .seven_up_points import (
    GIFT_KEY,
    TURNED_JACK_KEY,
    OptionsT,
    Scored,
    SevenUpPoints,
    StateT,
    ViewT,
)
from .seven_up_position import (
    BEG,
    DEAL_OVER,
    DISCARD,
    DISCARDING,
    GIVE,
    GIVE_OR_RUN,
    HAND_SIZE,
    MATCH_OVER,
    MATCH_WON,
    NEXT_DEAL,
    NO_TRUMP,
    PACKET,
    PLAYED,
    PLAYING,
    RUN,
    STAND,
    STAND_OR_BEG,
    STRENGTH,
    SUIT_INDEX,
    THROWN_IN,
    DealResult,
    Point,
    SevenUpMatch,
    SevenUpPosition,
    Trick,
    turn_of,
    wire_deal,
)
from .seven_up_wire import (
    BEGGED,
    DEAL_STARTED,
    DISCARDED_ONE,
    GAVE,
    NEXT_DEALS,
    RAN,
    SET_ASIDE,
    STOOD,
    THROWN_IN_EVENTS,
    TURNED,
    WIRE_MOVES,
    deal_ended_event,
    match_ended_event,
    move_code,
    point_event,
    trick_won_event,
)
from .seven_up_wire import (
    PLAYED as PLAYED_EVENTS,
)
from .tricks import CARD_STRENGTH

Log = list[SevenUpEvent] | None
"""Where a move's wire events go: a list when the wire API asks for them, None in a playout."""
STAND_OR_BEG_CODES = [STAND, BEG]
GIVE_OR_RUN_CODES = [GIVE, RUN]
_NEXT_DEAL = [NEXT_DEAL]
_NONE: list[int] = []
"""Move lists shared by every position (read only)."""


def cut_for_dealer(seeding: Seeding, game_id: str, players: int) -> tuple[list[SevenUpCutRound], int]:
    """The documented cut: rounds cut from the pack shuffled for purpose ``cut`` of deal 1, and the seat
    that deals."""
    pack = seeding.shuffled(FULL_DECK, game_id, 1, CUT)
    seats = list(range(players))
    rounds: list[SevenUpCutRound] = []
    position = 0
    while position + len(seats) <= len(pack):
        cards = pack[position : position + len(seats)]
        position += len(seats)
        rounds.append(constructed(SevenUpCutRound, seats=seats, cards=cards))  # the engine's own values
        cut = [CARD_STRENGTH[card] for card in cards]
        best = max(cut)
        if cut.count(best) == 1:
            return rounds, seats[cut.index(best)]
        seats = [seat for seat, card in zip(seats, cut, strict=True) if card == best]
    return rounds, seats[0]


def trick_winner_index(cards: Sequence[int], trump: int) -> int:
    """Index in ``cards`` (codes, leader first) of the winning card: highest trump, else highest card of
    the led suit."""
    best = cards[0]
    index = 0
    for i in range(1, len(cards)):
        card = cards[i]
        suit = card // SUIT_SIZE
        if suit == best // SUIT_SIZE:
            if STRENGTH[card] > STRENGTH[best]:
                best, index = card, i
        elif suit == trump:  # a trump beats the best so far, which is not a trump (the suits differ)
            best, index = card, i
    return index


class SevenUpRules(PositionWire[SevenUpPosition], SevenUpPoints[OptionsT, StateT, ViewT]):
    """Rules shared by the three games, on positions; each variant overrides the hooks where it differs
    (:meth:`reveal_trump`, :meth:`draw_after_trick`, :meth:`honours` and the side hooks of
    :class:`~sevens_rules.engine.seven_up_points.SevenUpPoints`)."""

    hidden_piles: ClassVar[tuple[str, ...]] = ("stock",)
    max_deals = SEVEN_UP_MAX_DEALS  # thrown-in deals are unbounded by the rules (README, "Limits")
    wire_moves = WIRE_MOVES
    next_deals = NEXT_DEALS
    move_code = staticmethod(move_code)

    # ---- deal ------------------------------------------------------------------------------------

    def deal_position(self, match: SevenUpMatch, deck: Sequence[str], log: Log) -> SevenUpPosition:
        """The deal of ``match`` (its dealer and number) from ``deck`` (top first): two packets of three
        to each seat from the eldest, then the trump (:meth:`reveal_trump`); a turned Jack scores for the
        dealer at once."""
        n = match.players
        dealer = match.dealer
        hands = [0] * n
        for k in range(n):  # the seat k places after the dealer gets the k-th packet of each round
            first: int = PACKET * k
            second: int = PACKET * (n + k)
            hands[(dealer + 1 + k) % n] = card_set(
                [*deck[first : first + PACKET], *deck[second : second + PACKET]]
            )
        if log is not None:
            log.append(DEAL_STARTED[dealer])
        position = self.reveal_trump(match, tuple(hands), list(deck[HAND_SIZE * n :]), log)
        turned = position.turned
        if turned is not None and turned[0] == "J":
            position = self._award(position, [(self._points_by_seat[TURNED_JACK_KEY][dealer], turned)], log)
        return position

    def reveal_trump(
        self, match: SevenUpMatch, hands: tuple[int, ...], rest: list[str], log: Log
    ) -> SevenUpPosition:
        """The dealt position, once the hands are dealt, from the ``rest`` of the pack: Seven-Up turns the
        next card for the eldest to stand or beg on."""
        n = match.players
        dealer = match.dealer
        turned = rest[0]
        if log is not None:
            log.append(TURNED[dealer][turned])
        return SevenUpPosition(
            hands,
            rest[1:],
            turned,
            SUIT_INDEX[turned[1]],
            (),
            (0,) * n,
            None,
            (),
            (),
            (),
            match.totals,
            STAND_OR_BEG,
            (dealer + 1) % n,
            match,
        )

    def next_deal_position(self, position: SevenUpPosition, log: Log) -> SevenUpPosition:
        """The next deal from the seeded shuffle: the same dealer after a throw-in, else the next seat."""
        match = position.match
        n = match.players
        dealer = match.dealer if match.thrown_in_last else (match.dealer + 1) % n
        number = match.deal_number + 1
        dealing = SevenUpMatch(
            n,
            dealer,
            number,
            match.recorded,
            match.finished,
            match.totals,
            match.cut,
            match.options,
            match.seed,
            match.entropy,
            match.commitment,
        )
        return self.deal_position(dealing, match.seeding.shuffled(FULL_DECK, self.id, number), log)

    # ---- to act and legal moves ------------------------------------------------------------------

    def position_to_act(self, position: SevenUpPosition) -> list[int]:
        turn = position.turn
        if turn is not None:
            return [turn]
        match = position.match
        if position.phase is DEAL_OVER and not self.at_deal_cap(match.deal_number):
            return [match.dealer if match.thrown_in_last else (match.dealer + 1) % match.players]
        return []

    def playable(self, position: SevenUpPosition, seat: int) -> int:
        """The cards ``seat`` may play to the trick: all to lead; else the led suit when held (with
        ``may_trump_when_able_to_follow``, trumps too), else any card."""
        hand = position.hands[seat]
        trick = position.trick
        if not trick:
            return hand
        led = trick[0] // SUIT_SIZE
        follow = hand & SUITS[led]
        if not follow:
            return hand
        trump = position.trump
        if trump != led and trump >= 0 and position.match.may_trump:
            return hand & (SUITS[led] | SUITS[trump])
        return follow

    def position_moves_to_act(self, position: SevenUpPosition) -> list[int]:
        """The move codes of the seat to act, cards in canonical order: the cards it may play, each card
        of a hand above six to discard (one per move), stand or beg, give or run, ``next_deal`` between
        deals; none once the match is over."""
        phase = position.phase
        turn = position.turn
        if phase is PLAYING:
            return bits_of(self.playable(position, turn))  # type: ignore[arg-type]  # (a seat plays)
        if turn is None:  # between deals (unless the match is over or at the deal cap) only next_deal
            dealing = phase is DEAL_OVER and not self.at_deal_cap(position.match.deal_number)
            return _NEXT_DEAL if dealing else _NONE
        if phase is DISCARDING:
            return [DISCARD + card for card in bits_of(position.hands[turn])]
        return STAND_OR_BEG_CODES if phase is STAND_OR_BEG else GIVE_OR_RUN_CODES

    def is_listed(self, position: SevenUpPosition, move: int) -> bool:
        """Whether move code ``move`` is among :meth:`position_moves_to_act` of ``position`` inside a deal,
        read off the same rules without listing them."""
        seat = position.turn
        if seat is None:
            return False
        phase = position.phase
        if move < DISCARD:
            return phase is PLAYING and bool(self.playable(position, seat) >> move & 1)
        if move < STAND:
            hand = position.hands[seat]
            return phase is DISCARDING and hand.bit_count() > HAND_SIZE and bool(hand >> (move - DISCARD) & 1)
        if move in (STAND, BEG):
            return phase is STAND_OR_BEG
        if move in (GIVE, RUN):
            return phase is GIVE_OR_RUN
        return False

    # ---- resolve ---------------------------------------------------------------------------------

    def position_apply(self, position: SevenUpPosition, move: int, log: Log = None) -> SevenUpPosition:
        """The position after ``move``, a move code :meth:`position_moves` listed for the seat to act, its
        wire events added to ``log`` when one is given. A card played, the commonest move, is played here
        (the last card of a trick gives it to its winner, who leads next after California Jack's draws; the
        last trick ends the hand, which is scored); every other move by :meth:`_step_outside_play`."""
        if move >= DISCARD:
            return self._step_outside_play(position, move, log)
        player: int = position.turn  # type: ignore[assignment]
        match = position.match
        n = match.players
        hands = list(position.hands)
        hands[player] ^= 1 << move
        trick = (*position.trick, move)
        if log is not None:
            log.append(PLAYED_EVENTS[player][move])
        if len(trick) < n:
            return SevenUpPosition(
                tuple(hands),
                position.stock,
                position.turned,
                position.trump,
                position.set_aside,
                position.discarded,
                position.leader,
                trick,
                position.tricks,
                position.points,
                position.totals,
                PLAYING,
                (player + 1) % n,
                match,
            )
        leader: int = position.leader  # type: ignore[assignment]  # (a trick in play has a leader)
        trump = position.trump
        winner = (leader + trick_winner_index(trick, trump)) % n
        if log is not None:
            log.append(trick_won_event(winner, trick))
        tricks = (*position.tricks, Trick(leader, trick, trump, winner))
        stock, trump = self.draw_after_trick(position, hands, winner, log)
        after = SevenUpPosition(
            tuple(hands),
            stock,
            position.turned,
            trump,
            position.set_aside,
            position.discarded,
            winner,
            (),
            tricks,
            position.points,
            position.totals,
            PLAYING,
            winner,
            match,
        )
        if any(hands):
            return after
        return self._award(after, self.hand_points_of(tricks, trump, n, match.options), log, end_of_hand=True)

    def _step_outside_play(self, position: SevenUpPosition, move: int, log: Log) -> SevenUpPosition:
        """The position after ``move`` (listed), any move but a card played: a discard, standing or
        begging, giving or running, the next deal."""
        if move < STAND:
            return self._discard(position, move - DISCARD, log)
        player: int = position.turn  # type: ignore[assignment]  # (a seat is to act in a deal)
        if move == STAND:
            if log is not None:
                log.append(STOOD[player])
            return self._start_play(position)
        if move == BEG:
            if log is not None:
                log.append(BEGGED[player])
            return position.acting(GIVE_OR_RUN, None, position.match.dealer)
        if move == GIVE:
            if log is not None:
                log.append(GAVE[player])
            eldest = (player + 1) % position.match.players
            after = self._award(position, [(self._points_by_seat[GIFT_KEY][eldest], None)], log)
            return after if after.phase is MATCH_OVER else self._start_play(after)
        if move == RUN:
            return self._run(position, player, log)
        return self.next_deal_position(position, log)

    def _start_play(self, position: SevenUpPosition) -> SevenUpPosition:
        eldest = (position.match.dealer + 1) % position.match.players
        return position.acting(PLAYING, eldest, eldest)

    def _run(self, position: SevenUpPosition, player: int, log: Log) -> SevenUpPosition:
        """The dealer runs the cards: the turned card is set aside, three more cards go to each seat and
        the next card is turned, until a suit other than the refused one turns up (then everybody
        discards to six) or the pack runs short (the deal is thrown in, its points cancelled)."""
        match = position.match
        n = match.players
        dealer = match.dealer
        turned: str = position.turned  # type: ignore[assignment]  # (a deal deciding has a turned card)
        refused = turned[1]
        set_aside = [*position.set_aside, turned]
        if log is not None:
            log.append(RAN[player])
            log.append(SET_ASIDE[dealer][turned])
        stock = position.stock
        hands = list(position.hands)
        top = 0
        while True:
            if len(stock) - top < PACKET * n + 1:
                if log is not None:
                    log.append(THROWN_IN_EVENTS[dealer])
                thrown = replace(
                    position,
                    set_aside=tuple(set_aside),
                    stock=list(stock[top:]),
                    hands=tuple(hands),
                    turned=None,
                    trump=NO_TRUMP,
                )
                return self._close(thrown, THROWN_IN, log, thrown.points)
            for k in range(n):
                hands[(dealer + 1 + k) % n] |= card_set(stock[top : top + PACKET])
                top += PACKET
            card = stock[top]
            top += 1
            if log is not None:
                log.append(TURNED[dealer][card])
            if card[1] == refused:
                set_aside.append(card)
                if log is not None:
                    log.append(SET_ASIDE[dealer][card])
                continue
            dealt = tuple(hands)
            after = replace(
                position,
                phase=DISCARDING,
                set_aside=tuple(set_aside),
                stock=list(stock[top:]),
                hands=dealt,
                turned=card,
                trump=SUIT_INDEX[card[1]],
                turn=turn_of(DISCARDING, dealt, dealer, None, ()),
            )
            if card[0] == "J":
                after = self._award(after, [(self._points_by_seat[TURNED_JACK_KEY][dealer], card)], log)
            return after

    def _discard(self, position: SevenUpPosition, card: int, log: Log) -> SevenUpPosition:
        """The seat to act discards ``card`` (one card per move); the last discard starts play."""
        player: int = position.turn  # type: ignore[assignment]
        bit = 1 << card
        hands = list(position.hands)
        hands[player] ^= bit
        discarded = list(position.discarded)
        discarded[player] |= bit
        if log is not None:
            log.append(DISCARDED_ONE[player])
        match = position.match
        turn = turn_of(DISCARDING, hands, match.dealer, None, ())
        phase, leader = position.phase, position.leader
        if turn is None:  # everybody holds six: play starts, the eldest leading
            turn = leader = (match.dealer + 1) % match.players
            phase = PLAYING
        return SevenUpPosition(
            tuple(hands),
            position.stock,
            position.turned,
            position.trump,
            position.set_aside,
            tuple(discarded),
            leader,
            position.trick,
            position.tricks,
            position.points,
            position.totals,
            phase,
            turn,
            match,
        )

    def draw_after_trick(
        self, position: SevenUpPosition, hands: list[int], winner: int, log: Log
    ) -> tuple[Sequence[str], int]:
        """What else changes when ``winner`` gathers the trick just completed in ``position``, before the
        next lead: ``hands`` (after the trick, a list this may change), and the stock and trump it returns
        (Seven-Up: nobody draws)."""
        return position.stock, position.trump

    # ---- points ----------------------------------------------------------------------------------

    def _award(
        self, position: SevenUpPosition, scored: Scored, log: Log, end_of_hand: bool = False
    ) -> SevenUpPosition:
        """Add points one at a time; the match ends (and the deal closes) at the first that reaches the
        target (:meth:`~sevens_rules.engine.seven_up_points.SevenUpPoints.counted`, which the consistency
        checks count with too). At the ``end_of_hand`` the deal closes in any case."""
        added: list[Point] = [point for point, _ in scored]
        count, ended = self.counted(position.totals, added)
        del added[count:]
        totals = list(position.totals)
        for point, card in scored[:count]:
            side = point.side
            totals[side] += 1
            if log is not None:
                log.append(point_event(point.seat, side, card, point.reason, list(totals)))
        winning: int | None = added[-1].side if ended else None
        points = (*position.points, *added)
        if winning is not None:
            return self._close(position, PLAYED if end_of_hand else MATCH_WON, log, points, winning)
        if end_of_hand:
            return self._close(position, PLAYED, log, points)
        return position.scored(points, tuple(totals))

    def _close(
        self,
        position: SevenUpPosition,
        outcome: Any,
        log: Log,
        points: tuple[Point, ...],
        winning: int | None = None,
    ) -> SevenUpPosition:
        """Record the deal (its ``points``; none counted when thrown in) and move to ``deal_over``, or to
        ``match_over`` when ``winning`` names the side that won."""
        current: SevenUpMatch = position.match
        n = current.players
        by_side = [0] * self._side_counts[n]
        if outcome is not THROWN_IN:
            for point in points:
                by_side[point.side] += 1
        deal = DealResult(
            current.deal_number, current.dealer, outcome, position.trump, points, tuple(by_side)
        )
        totals = tuple(total + count for total, count in zip(current.totals, by_side, strict=True))
        phase = DEAL_OVER
        if log is not None:
            log.append(deal_ended_event(current.dealer, wire_deal(deal)))
        if winning is not None:
            phase = MATCH_OVER
            if log is not None:
                sides = self._seat_sides
                log.append(match_ended_event(winning, [s for s in range(n) if sides[s] == winning]))
        return position.closed(phase, totals, current.but((*current.finished, deal), totals))

    def position_totals(self, position: SevenUpPosition) -> list[int]:
        """Each seat's total: its side's points so far."""
        totals = position.totals
        sides = self._seat_sides
        return [totals[sides[seat]] for seat in range(position.match.players)]

    def position_outcome(self, position: SevenUpPosition) -> Outcome:
        """Whether the match is over, its winners (the side that reached the target first) and each seat's
        total (its side's) and place."""
        over = position.phase is MATCH_OVER
        winners: list[int] = []
        if over:
            side = next(side for side, total in enumerate(position.totals) if total >= self.target)
            sides = self._seat_sides
            winners = [seat for seat in range(position.match.players) if sides[seat] == side]
        return standings(self.position_totals(position), winners, over, False)
