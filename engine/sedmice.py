"""Sedmice (RULINGS §5, text 004): a Serbian trick game of answering the led rank, sevens wild.

Two players, or four in partnerships: seat ``s`` is on side ``s % 2`` (seats 0+2 against 1+3; with two
players each seat is its own side). The 32-card deck is used; rank order and suits do not matter.

A trick: the leader plays any card, then each other player clockwise plays any card. A card *answers*
when it has the led card's rank or is a 7 (a led 7 is answered by 7s only). After each full round the
leader either ends the trick (``end_trick``) or extends it (``extend``) with another card of the led rank
or a 7, and every other player plays one more card. The trick goes to the last player who answered in any
of its rounds; the leader's own led and extension cards answer, so nobody answering leaves it to the
leader. Then the taker, and clockwise from them the others, draw one card at a time from the stock until
each holds four or the stock is empty; the taker leads next. The deal ends when hands and stock are empty.

Aces and tens are worth 10 points each (80 per deal). The deal's hits go to one side: 3 for every trick,
else 2 for all 80 points, else 1 for more points (at 40-40, to the side of the last trick's taker). The
match ends when a side reaches ``target_hits``.

Decisions where the rulings and the text are silent (also in the README):

- Cards are dealt one at a time clockwise from the dealer's left, four each; the rest is the stock, top
  card first. The player left of the dealer leads the first trick. The dealer moves left each deal.
- The leader's extension is its own move type, ``extend``; ``end_trick`` ends the trick. Both are the
  leader's only moves after a full round, and ``end_trick`` is always among them, even when the leader
  holds no card to extend with -- so the flow of the game never tells the table what the leader holds.
- The one exception: when a round completes with every hand empty, no extension is possible for anybody
  (hands are equal), so the trick ends at once without an ``end_trick`` move.
- With ``extend_only_when_losing`` the leader may extend only while a seat of the other side would take
  the trick (a partner winning counts as not losing).
- The refill is reported as one ``drew`` event per card in drawing order.
- A finished deal leaves the taken piles in the state (phase ``deal_over``) until the next dealer (left of
  the last one) sends ``next_deal``; ``leader`` then names the last trick's taker.
- A view shows each side's points, tricks and number of cards taken, not the taken cards themselves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from sevens_rules.engine.cards import PIQUET_DECK, deal_round_robin
from sevens_rules.engine.game import (
    drawn_card_for_seat,
    event_of,
    updated,
)
from sevens_rules.engine.match import (
    DEAL_OVER_PHASE,
    MATCH_OVER_PHASE,
    PLAY_PHASE,
    DealSetup,
)
from sevens_rules.engine.sedmice_checks import SedmiceChecks
from sevens_rules.engine.sedmice_tricks import (
    HAND_SIZE,
    answers,
    hit_totals,
    hits_of,
    points,
)
from sevens_rules.engine.sedmice_tricks import (
    trick_winner as trick_winner,  # (named here too: the bots read a trick's taker from this module)
)
from sevens_rules.schema.common import GameModels, PiquetDeckOrder
from sevens_rules.schema.sedmice import (
    SedmiceDeal,
    SedmiceEvent,
    SedmiceEventType,
    SedmiceHitReason,
    SedmiceMove,
    SedmiceMoveType,
    SedmiceOptions,
    SedmiceScore,
    SedmiceState,
    SedmiceView,
)

MOST_PLAYERS = 4
"""The larger of the two table sizes."""

_CARD_ORDER = {c: i for i, c in enumerate(PIQUET_DECK)}

PLAY = SedmiceMoveType.play
EXTEND = SedmiceMoveType.extend
END_TRICK = SedmiceMoveType.end_trick
NEXT_DEAL = SedmiceMoveType.next_deal


_event = event_of(SedmiceEvent, SedmiceEventType)


_TRICK_TAKEN_EVENT = SedmiceEvent(
    type=SedmiceEventType.trick_taken, player=0, side=0, cards=["7C"], rounds=1, points=0
)
"""A validated ``trick_taken`` event, with every field that event sets, to copy (see below)."""


_DEAL_ENDED_EVENT = SedmiceEvent(
    type=SedmiceEventType.deal_ended,
    player=0,
    side=0,
    deal=SedmiceDeal(
        number=1,
        dealer=0,
        points=[40, 40],
        tricks=[1, 1],
        last_trick=0,
        hits=[1, 0],
        side=0,
        reason=SedmiceHitReason.tie_last_trick,
    ),
)
"""A validated ``deal_ended`` event, with every field that event sets, copied with each deal's values
(its record makes it unshareable, as the cards of ``trick_taken`` below)."""


def _trick_taken_event(taker: int, side: int, cards: list[str], rounds: int, worth: int) -> SedmiceEvent:
    """The ``trick_taken`` event: a copy of a validated one holding the values the engine computed (as
    :func:`~sevens_rules.engine.game.updated` copies states). Its list of cards makes it unshareable, and
    :func:`~sevens_rules.engine.game.listed` would validate it afresh (after a failed cache lookup) every
    trick; ``model_construct`` fills every default again and was no cheaper. It has the fields, and the
    fields set, of the validated event."""
    return updated(_TRICK_TAKEN_EVENT, player=taker, side=side, cards=cards, rounds=rounds, points=worth)


# Moves and events made once per seat and card (both frozen, so shared by every list holding them): every
# playout step and request lists a seat's moves, and every play and refill reports events.
_SEATS = range(MOST_PLAYERS)
_PLAY_MOVES = [{c: SedmiceMove(type=PLAY, player=seat, card=c) for c in PIQUET_DECK} for seat in _SEATS]
_EXTEND_MOVES = [{c: SedmiceMove(type=EXTEND, player=seat, card=c) for c in PIQUET_DECK} for seat in _SEATS]
_END_TRICK_MOVES = [SedmiceMove(type=END_TRICK, player=seat) for seat in _SEATS]
_PLAYED_EVENTS = {
    (seat, c, answering): SedmiceEvent(type=SedmiceEventType.played, player=seat, card=c, answers=answering)
    for seat in _SEATS
    for c in PIQUET_DECK
    for answering in (False, True)
}
"""The ``played`` event by seat, card and whether the card answers the led card."""
_EXTENDED_EVENTS = [
    {c: SedmiceEvent(type=SedmiceEventType.extended, player=seat, card=c, answers=True) for c in PIQUET_DECK}
    for seat in _SEATS
]
_DREW_EVENTS = [
    {c: SedmiceEvent(type=SedmiceEventType.drew, player=seat, card=c) for c in PIQUET_DECK} for seat in _SEATS
]


def _turn_of(trick: Sequence[Sequence[str]], leader: int, players: int) -> int:
    """The seat to act in play with ``trick`` on the table: the leader leads an empty trick and decides
    after a full round; otherwise the next seat plays."""
    if not trick:
        return leader
    return (leader + len(trick[-1])) % players


def _round_complete(trick: Sequence[Sequence[str]], players: int) -> bool:
    """Whether every seat has played to the trick's last round: the leader then ends or extends it."""
    return bool(trick) and len(trick[-1]) == players


def _sorted(cards: Sequence[str]) -> list[str]:
    return sorted(cards, key=_CARD_ORDER.__getitem__)


class Sedmice(SedmiceChecks):
    """Sedmice: answer the led rank (sevens wild); the last to answer takes the trick; aces and tens count."""

    id = "sedmice"
    name = "Sedmice"
    min_players = 2
    max_players = MOST_PLAYERS
    player_counts: ClassVar[tuple[int, ...]] = (2, MOST_PLAYERS)
    """The table sizes allowed: 2, or 4 in partnerships (3 is inside the range but refused by ``new``)."""
    deck = PIQUET_DECK
    hidden_piles = ("stock",)
    """The 32-card deck, 7 to Ace."""
    models = GameModels(
        SedmiceOptions, SedmiceState, SedmiceMove, SedmiceEvent, SedmiceView, SedmiceScore, PiquetDeckOrder
    )

    # ---- deal ------------------------------------------------------------------------------------

    def deal(self, setup: DealSetup[SedmiceOptions, SedmiceState]) -> tuple[SedmiceState, list[SedmiceEvent]]:
        players, dealer, deck = setup.players, setup.dealer, setup.deck
        cards = (
            list(deck)
            if deck is not None
            else setup.seeding.shuffled(PIQUET_DECK, self.id, setup.deal_number)
        )
        first = (dealer + 1) % players
        hands = deal_round_robin(cards, players, first, [HAND_SIZE] * players)
        state = SedmiceState(
            game="sedmice",
            options=setup.options,
            dealer=dealer,
            deal_number=setup.deal_number,
            **setup.seeding.state_fields(),
            phase=PLAY_PHASE,
            leader=first,
            hands=[_sorted(h) for h in hands],
            stock=cards[HAND_SIZE * players :],
            trick=[],
            taken=[[], []],
            tricks=[0, 0],
            deals=setup.deals,
        )
        return state, [_event(SedmiceEventType.deal_started, player=dealer)]

    def next_deal_move(self, player: int, deck: list[str] | None = None) -> SedmiceMove:
        return SedmiceMove(type=NEXT_DEAL, player=player, deck=deck)

    # ---- to act and legal moves ------------------------------------------------------------------

    def to_act(self, state: SedmiceState) -> list[int]:
        phase = state.phase
        if phase is PLAY_PHASE:
            return [self._turn(state)]
        if phase is DEAL_OVER_PHASE:
            return [(state.dealer + 1) % len(state.hands)]
        return []

    def _turn(self, state: SedmiceState) -> int:
        return _turn_of(state.trick, state.leader, len(state.hands))

    def _may_extend(self, state: SedmiceState, trick: Sequence[Sequence[str]], players: int) -> bool:
        """Whether the option allows an extension now (the rounds of ``trick``, the state's, are all full)."""
        if not state.options.extend_only_when_losing:
            return True
        leader = state.leader
        winner = trick_winner(trick, leader, players)
        return winner % 2 != leader % 2

    def _extensions(
        self, state: SedmiceState, player: int, trick: Sequence[Sequence[str]], hands: Sequence[Sequence[str]]
    ) -> list[str]:
        """The cards ``player`` (the leader, after a full round) may extend the trick with, in hand order:
        those answering the led card, when the option allows an extension at all (``trick`` and
        ``hands``: the state's, as the caller read them)."""
        if not self._may_extend(state, trick, len(hands)):
            return []
        led_rank = trick[0][0][0]
        return [c for c in hands[player] if answers(c, led_rank)]

    def deal_moves(self, state: SedmiceState, player: int) -> list[SedmiceMove]:
        if state.phase is not PLAY_PHASE:
            return []
        return self._moves_on_turn(state, player, state.trick, state.hands)

    def _moves_on_turn(
        self, state: SedmiceState, player: int, trick: list[list[str]], hands: list[list[str]]
    ) -> list[SedmiceMove]:
        """:meth:`deal_moves` in play (``trick`` and ``hands``: the state's, as the caller read them)."""
        if _round_complete(trick, len(hands)):
            moves = [_EXTEND_MOVES[player][c] for c in self._extensions(state, player, trick, hands)]
            moves.append(_END_TRICK_MOVES[player])
            return moves
        return [_PLAY_MOVES[player][c] for c in hands[player]]

    def is_legal_in_deal(self, state: SedmiceState, move: SedmiceMove) -> bool:
        """Whether ``move`` is among :meth:`deal_moves` of its seat, read off the same helpers without
        listing them."""
        if state.phase is not PLAY_PHASE:
            return False
        return self._is_legal_on_turn(
            state, move.player, move.type, move.card, move.deck, state.trick, state.hands
        )

    def _is_legal_on_turn(
        self,
        state: SedmiceState,
        player: int,
        move_type: SedmiceMoveType,
        card: str | None,
        deck: list[str] | None,
        trick: list[list[str]],
        hands: list[list[str]],
    ) -> bool:
        """:meth:`is_legal_in_deal` in play (the move's fields, and the state's trick and hands, as the
        caller read them)."""
        if deck is not None:
            return False
        if _round_complete(trick, len(hands)):
            if move_type == END_TRICK:
                return card is None
            return move_type == EXTEND and card in self._extensions(state, player, trick, hands)
        return move_type == PLAY and card in hands[player]

    # ---- resolve ---------------------------------------------------------------------------------

    def resolve_in_deal(
        self, state: SedmiceState, move: SedmiceMove
    ) -> tuple[SedmiceState, list[SedmiceEvent]]:
        return self._resolve_on_turn(state, move.player, move.type, move.card, state.trick, state.hands)

    def _resolve_on_turn(
        self,
        state: SedmiceState,
        player: int,
        move_type: SedmiceMoveType,
        card: str | None,
        trick: list[list[str]],
        hands: list[list[str]],
    ) -> tuple[SedmiceState, list[SedmiceEvent]]:
        """:meth:`resolve_in_deal` (the move's fields, and the state's trick and hands, as the caller read
        them)."""
        if move_type == END_TRICK:
            return self._end_trick(state, [], trick, hands)
        assert card is not None
        n = len(hands)
        hands = list(hands)
        hands[player] = [c for c in hands[player] if c != card]
        if move_type == EXTEND:
            trick = [*trick, [card]]
            events = [_EXTENDED_EVENTS[player][card]]
        elif not trick:
            trick = [[card]]
            events = [_PLAYED_EVENTS[player, card, True]]
        else:
            trick = [*trick[:-1], [*trick[-1], card]]
            events = [_PLAYED_EVENTS[player, card, answers(card, trick[0][0][0])]]
        after = updated(state, hands=hands, trick=trick)
        if len(trick[-1]) == n and not any(hands):
            # Nobody holds a card, so nobody could extend: the trick ends without a choice.
            return self._end_trick(after, events, trick, hands)
        return after, events

    def _end_trick(
        self,
        state: SedmiceState,
        events: list[SedmiceEvent],
        trick: list[list[str]],
        hands: list[list[str]],
    ) -> tuple[SedmiceState, list[SedmiceEvent]]:
        """The trick taken and the hands refilled (``trick`` and ``hands``: the state's)."""
        n = len(hands)
        taker = trick_winner(trick, state.leader, n)
        side = taker % 2
        cards = [c for round_ in trick for c in round_]
        taken = list(state.taken)
        taken[side] = [*taken[side], *cards]
        tricks = list(state.tricks)
        tricks[side] += 1
        events.append(_trick_taken_event(taker, side, cards, len(trick), points(cards)))
        # Refill: the taker first, then clockwise, one card at a time, until four each or no stock.
        hands = [list(h) for h in hands]
        stock = state.stock
        drawn = 0
        seat = taker
        while drawn < len(stock) and len(hands[seat]) < HAND_SIZE:
            card = stock[drawn]
            hands[seat].append(card)
            events.append(_DREW_EVENTS[seat][card])
            drawn += 1
            seat = (seat + 1) % n
        hands = [_sorted(h) if len(h) > 1 else h for h in hands]
        after = updated(
            state, hands=hands, stock=stock[drawn:], trick=[], taken=taken, tricks=tricks, leader=taker
        )
        if any(hands):
            return after, events
        return self._end_deal(after, taker, events)

    def _end_deal(
        self, state: SedmiceState, last_taker: int, events: list[SedmiceEvent]
    ) -> tuple[SedmiceState, list[SedmiceEvent]]:
        deal_points = [points(state.taken[0]), points(state.taken[1])]
        side, hits, reason = hits_of(deal_points, state.tricks, last_taker % 2)
        side_hits = [0, 0]
        side_hits[side] = hits
        deal = SedmiceDeal(
            number=state.deal_number,
            dealer=state.dealer,
            points=deal_points,
            tricks=list(state.tricks),
            last_trick=last_taker,
            hits=side_hits,
            side=side,
            reason=reason,
        )
        deals = [*state.deals, deal]
        events.append(updated(_DEAL_ENDED_EVENT, player=last_taker, side=side, deal=deal))
        phase = DEAL_OVER_PHASE
        if max(hit_totals(deals)) >= state.options.target_hits:
            phase = MATCH_OVER_PHASE
            events.append(
                _event(SedmiceEventType.match_ended, side=side, winners=self._side_seats(state, side))
            )
        return updated(state, deals=deals, phase=phase), events

    # ---- score and view --------------------------------------------------------------------------

    def _side_seats(self, state: SedmiceState, side: int) -> list[int]:
        return list(range(side, len(state.hands), 2))

    def score(self, state: SedmiceState) -> SedmiceScore:
        return SedmiceScore(
            hits=hit_totals(state.deals),
            points=[points(state.taken[0]), points(state.taken[1])],
            deals=state.deals,
        )

    def seat_totals(self, state: SedmiceState) -> list[int]:
        hits = hit_totals(state.deals)
        return [hits[seat % 2] for seat in range(len(state.hands))]

    def match_winners(self, state: SedmiceState, totals: Sequence[int]) -> list[int]:
        hits = hit_totals(state.deals)
        return self._side_seats(state, 0 if hits[0] >= state.options.target_hits else 1)

    def event_for_seat(self, event: SedmiceEvent, seat: int) -> SedmiceEvent:
        """A card drawn in the refill is seen by its drawer only."""
        return drawn_card_for_seat(event, seat)

    def seat_view(self, state: SedmiceState, player: int) -> dict[str, object]:
        in_play = state.phase is PLAY_PHASE
        return dict(
            leader=state.leader,
            turn=self._turn(state) if in_play else None,
            winning=trick_winner(state.trick, state.leader, len(state.hands)) if state.trick else None,
            hand=state.hands[player],
            stock_size=len(state.stock),
            trick=state.trick,
            points=[points(state.taken[0]), points(state.taken[1])],
            tricks=state.tricks,
            taken_sizes=[len(state.taken[0]), len(state.taken[1])],
        )
