"""The rules of the Seven-Up family: dealing, turns, moves and their resolution, and views, with the hooks
its variants override (RULINGS §3).

The games themselves (and the decisions taken where the rulings are silent) are in
:mod:`sevens_rules.engine.seven_up`; the points and scores, the base of these rules, in
:mod:`sevens_rules.engine.seven_up_points`; the consistency checks of a posted state in
:mod:`sevens_rules.engine.seven_up_checks`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from sevens_rules.engine.cards import FULL_DECK
from sevens_rules.engine.dealing import CUT, Seeding
from sevens_rules.engine.game import NewMatch
from sevens_rules.engine.match import DealSetup
from sevens_rules.engine.models import same_model, unvalidated, updated, updated_from
from sevens_rules.engine.seven_up_points import (
    _EVENT_DEFAULTS,
    _TRICK_FIELDS,
    _TRICK_WON_FIELDS,
    _UNSETTLED,
    DEAL_OVER,
    DISCARDING,
    GIFT_KEY,
    GIVE_OR_RUN,
    HAND_SIZE,
    MATCH_WON,
    PACKET,
    PLAYING,
    STAND_OR_BEG,
    SUIT_OF,
    THROWN_IN,
    TRICK_WON,
    TURNED_JACK_KEY,
    OptionsT,
    Phase,
    Reason,
    SevenUpPoints,
    StateT,
    ViewT,
)
from sevens_rules.engine.tricks import (
    legal_follows,
    strength,
    trick_winner_index,
)
from sevens_rules.schema.common import MAX_SEATS
from sevens_rules.schema.seven_up import (
    SEVEN_UP_MAX_DEALS,
    SevenUpCutRound,
    SevenUpEvent,
    SevenUpEventType,
    SevenUpMove,
    SevenUpMoveType,
    SevenUpPhase,
    SevenUpTrick,
)

_ORDER = {c: i for i, c in enumerate(FULL_DECK)}

STAND = SevenUpMoveType.stand
BEG = SevenUpMoveType.beg
GIVE = SevenUpMoveType.give
RUN = SevenUpMoveType.run
DISCARD = SevenUpMoveType.discard
PLAY = SevenUpMoveType.play
NEXT_DEAL = SevenUpMoveType.next_deal


# Moves and events naming a seat and a card, made once. Move lists are rebuilt at every step of a playout
# and every request, and a card is played at almost every step: validating the same frozen models again
# (or even looking them up through ``listed``) would run at nearly every step. The tables cover
# every seat a validated move can name, so a lookup never fails where building the model would succeed.
# A ``discard`` move holds a one-card list: it is shared like the rest, and nothing mutates it.
_PLAY_MOVES: tuple[Mapping[str, SevenUpMove], ...] = tuple(
    {c: SevenUpMove(type=PLAY, player=seat, card=c) for c in FULL_DECK} for seat in range(MAX_SEATS)
)
"""``_PLAY_MOVES[seat][card]``: the ``play`` move of ``card`` by ``seat``."""
_DISCARD_MOVES: tuple[Mapping[str, SevenUpMove], ...] = tuple(
    {c: SevenUpMove(type=DISCARD, player=seat, cards=[c]) for c in FULL_DECK} for seat in range(MAX_SEATS)
)
"""``_DISCARD_MOVES[seat][card]``: the ``discard`` move of ``card`` alone by ``seat``."""
_PLAYED_EVENTS: tuple[Mapping[str, SevenUpEvent], ...] = tuple(
    {c: SevenUpEvent(type=SevenUpEventType.played, player=seat, card=c) for c in FULL_DECK}
    for seat in range(MAX_SEATS)
)
"""``_PLAYED_EVENTS[seat][card]``: the ``played`` event of ``card`` by ``seat``."""
_NEXT_DEAL_MOVES: tuple[SevenUpMove, ...] = tuple(
    SevenUpMove(type=NEXT_DEAL, player=seat, deck=None) for seat in range(MAX_SEATS)
)
"""``_NEXT_DEAL_MOVES[seat]``: the listed ``next_deal`` move of ``seat`` (``deck`` given as None, so that it
is among the move's set fields as it always was), validated once rather than for the move list and again
for the legality check of every ``next_deal``."""
_DECISION_MOVES: Mapping[SevenUpPhase, tuple[tuple[SevenUpMove, ...], ...]] = {
    phase: tuple(tuple(SevenUpMove(type=kind, player=seat) for kind in kinds) for seat in range(MAX_SEATS))
    for phase, kinds in ((Phase.stand_or_beg, (STAND, BEG)), (Phase.give_or_run, (GIVE, RUN)))
}
"""``_DECISION_MOVES[phase][seat]``: the two moves of ``seat`` deciding on the trump (``stand_or_beg``:
stand, beg; ``give_or_run``: give, run), in the order they are listed."""


# Events of a seat alone and of the dealer with a card, and the points, made once like the tables above
# (every deal deals, turns a card and ends with points; ``listed`` built a key and looked it up each time).
_SEAT_EVENTS: Mapping[SevenUpEventType, tuple[SevenUpEvent, ...]] = {
    kind: tuple(SevenUpEvent(type=kind, player=seat) for seat in range(MAX_SEATS))
    for kind in (
        SevenUpEventType.deal_started,
        SevenUpEventType.stood,
        SevenUpEventType.begged,
        SevenUpEventType.gave,
        SevenUpEventType.ran,
        SevenUpEventType.thrown_in,
    )
}
"""``_SEAT_EVENTS[kind][seat]``: the event ``kind`` naming only ``seat``."""
# each kind's row read once: a lookup keyed by the enum member hashes it in Python code (Enum.__hash__), and
# reading the member off its class costs as much again, at every deal
_DEAL_STARTED_EVENTS = _SEAT_EVENTS[SevenUpEventType.deal_started]
_STOOD_EVENTS = _SEAT_EVENTS[SevenUpEventType.stood]
_BEGGED_EVENTS = _SEAT_EVENTS[SevenUpEventType.begged]
_GAVE_EVENTS = _SEAT_EVENTS[SevenUpEventType.gave]
_RAN_EVENTS = _SEAT_EVENTS[SevenUpEventType.ran]
_THROWN_IN_EVENTS = _SEAT_EVENTS[SevenUpEventType.thrown_in]
_TURNED_EVENTS: tuple[Mapping[str, SevenUpEvent], ...] = tuple(
    {
        c: SevenUpEvent(type=SevenUpEventType.trump_turned, player=seat, card=c, suit=SUIT_OF[c[1]])
        for c in FULL_DECK
    }
    for seat in range(MAX_SEATS)
)
"""``_TURNED_EVENTS[dealer][card]``: ``dealer`` turned ``card``, whose suit is trump."""
_SET_ASIDE_EVENTS: tuple[Mapping[str, SevenUpEvent], ...] = tuple(
    {c: SevenUpEvent(type=SevenUpEventType.set_aside, player=seat, card=c) for c in FULL_DECK}
    for seat in range(MAX_SEATS)
)
"""``_SET_ASIDE_EVENTS[dealer][card]``: ``dealer`` set the refused ``card`` aside."""
_DISCARDED_ONE_EVENTS: tuple[SevenUpEvent, ...] = tuple(
    SevenUpEvent(type=SevenUpEventType.discarded, player=seat, count=1) for seat in range(MAX_SEATS)
)
"""``_DISCARDED_ONE_EVENTS[seat]``: ``seat`` discarded one card (every ``discard`` move names one)."""


def _sorted(cards: Sequence[str]) -> list[str]:
    return sorted(cards, key=_ORDER.__getitem__)


_NO_MOVES: Mapping[str, SevenUpMove] = {}
"""The moves naming a card in a phase without any (read only)."""


def _fixed_trump(options: Any) -> bool:
    return bool(getattr(options, "fixed_trump", False))


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
        rounds.append(SevenUpCutRound(seats=seats, cards=cards))
        best = max(strength(c) for c in cards)
        tied = [s for s, c in zip(seats, cards, strict=True) if strength(c) == best]
        if len(tied) == 1:
            return rounds, tied[0]
        seats = tied
    return rounds, seats[0]


class SevenUpRules(SevenUpPoints[OptionsT, StateT, ViewT]):
    """Rules shared by the three games; each variant overrides the hooks where it differs."""

    hidden_piles: ClassVar[tuple[str, ...]] = ("stock",)
    max_deals = SEVEN_UP_MAX_DEALS  # thrown-in deals are unbounded by the rules (README, "Limits")

    # ---- deal ------------------------------------------------------------------------------------

    def next_dealer(self, state: StateT) -> int:
        """Who deals next: the same dealer after a throw-in, else the seat left of the dealer."""
        if state.deals and state.deals[-1].outcome is THROWN_IN:
            return state.dealer
        return (state.dealer + 1) % len(state.hands)

    def build_state(self, **fields: Any) -> StateT:
        """A state of this game from its fields.

        Built without validation, as :func:`~sevens_rules.engine.game.updated` updates states: the engine
        computed every field of a new match from a validated request (validating the empty table again was
        about a twentieth of a ``new``), and tests/test_engine_speed.py checks that validation gives the same
        state."""
        model: Any = self.models.state
        given = {"game": self.id, **fields}
        # every field, in field order, all of them set (what model_construct makes of them, in a fraction
        # of its work); the set of set fields is the state's own (mutable) set, as model_construct's is
        values = {name: given[name] for name in model.__pydantic_fields__}
        if values.keys() != given.keys():
            raise TypeError(
                f"{model.__name__} takes exactly the fields {', '.join(model.__pydantic_fields__)}"
            )
        state: StateT = unvalidated(model, values, set(values))
        return state

    def start(self, request: NewMatch[OptionsT]) -> tuple[StateT, list[SevenUpEvent]]:
        players, options, seeding, dealer = request.players, request.options, request.seeding, request.dealer
        cut: list[SevenUpCutRound] = []
        if dealer is None:
            cut, dealer = cut_for_dealer(seeding, self.id, players)
        empty = self.build_state(
            options=options,
            dealer=dealer,
            deal_number=1,
            **seeding.state_fields(),
            phase=DEAL_OVER,
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
        return self.deal(DealSetup(players, options, seeding, dealer, 1, request.deck, [], empty))

    def deal(self, setup: DealSetup[OptionsT, StateT]) -> tuple[StateT, list[SevenUpEvent]]:
        # the state dealt into: the previous deal's, or the empty table of start (with the cut)
        state = setup.previous
        assert state is not None
        n, dealer, deal_number, deck = setup.players, setup.dealer, setup.deal_number, setup.deck
        cards = list(deck) if deck is not None else setup.seeding.shuffled(FULL_DECK, self.id, deal_number)
        # two rounds of packets from the eldest: the seat k places after the dealer gets the k-th packet of
        # each round (one list per seat, without the round-by-round loop)
        hands: list[list[str]] = [[] for _ in range(n)]
        for k in range(n):
            first = PACKET * k
            second = PACKET * (n + k)
            hands[(dealer + 1 + k) % n] = cards[first : first + PACKET] + cards[second : second + PACKET]
        position = HAND_SIZE * n
        events = [_DEAL_STARTED_EVENTS[dealer]]
        changes: dict[str, Any] = {
            "dealer": dealer,
            "deal_number": deal_number,
            "hands": [sorted(h, key=_ORDER.__getitem__) for h in hands],  # _sorted, without a call per hand
            "set_aside": [],
            "discarded": [[] for _ in range(n)],
            "trick": [],
            "tricks": [],
            "points": [],
        }
        # the trump's fields join the deal's, so that the state is copied once
        self.reveal_trump(changes, cards[position:], events)
        after = updated(state, **changes)
        turned = changes["turned"]
        if turned is not None and turned[0] == "J":
            # the turned card of Seven-Up scores its Jack at once
            after, _ = self._award(after, [(self._seat_points[TURNED_JACK_KEY][dealer], turned)], events)
        return after, events

    def reveal_trump(self, changes: dict[str, Any], rest: list[str], events: list[SevenUpEvent]) -> None:
        """After the hands are dealt: the trump of the deal from the ``rest`` of the pack, as fields added to
        the deal's ``changes`` (which name the ``dealer``) and its events (Seven-Up turns the next card for
        the eldest to stand or beg on; the deal scores a turned Jack once the fields are set)."""
        dealer = changes["dealer"]
        turned = rest[0]
        changes.update(
            phase=STAND_OR_BEG, stock=rest[1:], turned=turned, trump=SUIT_OF[turned[1]], leader=None
        )
        events.append(_TURNED_EVENTS[dealer][turned])

    # ---- to act and legal moves ------------------------------------------------------------------

    def seat_to_play(self, state: StateT) -> int:
        """The seat whose card comes next in the trick (``play`` phase): clockwise from the leader."""
        leader: int = state.leader  # type: ignore[assignment]  # (a deal in play has a leader)
        return (leader + len(state.trick)) % len(state.hands)

    def to_act(self, state: StateT) -> list[int]:
        phase = state.phase
        hands = state.hands
        n = len(hands)
        if phase is PLAYING:
            # seat_to_play written out: a Python call costs more than the sum it makes, at every step
            return [(state.leader + len(state.trick)) % n]  # type: ignore[operator]
        if phase is STAND_OR_BEG:
            return [(state.dealer + 1) % n]
        if phase is GIVE_OR_RUN:
            return [state.dealer]
        if phase is DISCARDING:
            eldest = state.dealer + 1
            for k in range(n):
                seat = (eldest + k) % n
                if len(hands[seat]) > HAND_SIZE:
                    return [seat]
            return []
        if phase is DEAL_OVER:
            return [self.next_dealer(state)]
        return []

    def next_deal_move(self, player: int, deck: list[str] | None = None) -> SevenUpMove:
        if deck is None:
            return _NEXT_DEAL_MOVES[player]
        return SevenUpMove(type=NEXT_DEAL, player=player, deck=deck)

    def card_choices(self, state: StateT, player: int) -> tuple[Mapping[str, SevenUpMove], Sequence[str]]:
        """The moves of this phase that name a card, by card, and the cards ``player`` may name now: the
        cards the following rule allows in ``play``, each card of a hand still above six in ``discard``
        (one card per move, see the module notes), none in other phases. The move list and the legality
        check are both built from it."""
        phase = state.phase
        if phase is PLAYING:
            trick = state.trick
            led = trick[0][1] if trick else None
            trump = state.trump
            # the option only matters when following a suit that is not trump: a lead or a trump led
            # leaves it unread
            may_trump = led is not None and led != trump and state.options.may_trump_when_able_to_follow
            cards = legal_follows(state.hands[player], led, trump, may_trump)
            return _PLAY_MOVES[player], cards
        if phase is DISCARDING:
            hand = state.hands[player]
            return _DISCARD_MOVES[player], (_sorted(hand) if len(hand) > HAND_SIZE else ())
        return _NO_MOVES, ()

    def deal_moves(self, state: StateT, player: int) -> list[SevenUpMove]:
        phase = state.phase
        if phase is PLAYING or phase is DISCARDING:
            moves, cards = self.card_choices(state, player)
            return list(map(moves.__getitem__, cards))
        if phase is STAND_OR_BEG or phase is GIVE_OR_RUN:
            return list(_DECISION_MOVES[phase][player])
        return []

    def is_legal_in_deal(self, state: StateT, move: SevenUpMove) -> bool:
        # A play or a discard is checked without building the move list (that was half the cost of a
        # random playout): it is legal when it is exactly the listed move of its card and the card is
        # among those the phase allows (``card_choices``, which the list is built from too).
        kind = move.type
        if kind is PLAY or kind is DISCARD:
            if kind is PLAY:
                card_ = move.card
            else:
                discards = move.cards
                card_ = discards[0] if discards else None
            moves, cards = self.card_choices(state, move.player)
            listed_move = moves.get(card_) if card_ is not None else None
            # ``is`` first: a move picked from a listed move list is the very same object
            return listed_move is not None and same_model(listed_move, move) and card_ in cards
        return move in self.deal_moves(state, move.player)

    # ---- resolve ---------------------------------------------------------------------------------

    def resolve_in_deal(self, state: StateT, move: SevenUpMove) -> tuple[StateT, list[SevenUpEvent]]:
        player = move.player
        kind = move.type
        if kind is PLAY:
            assert move.card is not None  # (a legal play names its card)
            return self._play_card(state, player, move.card)
        if kind is STAND:
            events = [_STOOD_EVENTS[player]]
            return self._start_play(state), events
        if kind is BEG:
            events = [_BEGGED_EVENTS[player]]
            return updated(state, phase=GIVE_OR_RUN), events
        if kind is GIVE:
            events = [_GAVE_EVENTS[player]]
            eldest = (state.dealer + 1) % len(state.hands)
            after, ended = self._award(state, [(self._seat_points[GIFT_KEY][eldest], None)], events)
            return (after if ended else self._start_play(after)), events
        if kind is RUN:
            return self._run(state, player)
        if kind is DISCARD:
            discards = move.cards
            assert discards is not None and len(discards) == 1
            return self._discard(state, player, discards[0])
        raise AssertionError(f"{kind} is not a move inside a deal")

    def draw_after_trick(
        self, state: StateT, winner: int, changes: dict[str, Any], events: list[SevenUpEvent]
    ) -> None:
        """What else changes when ``winner`` gathers the trick just completed in ``state``, before the next
        lead (Seven-Up: nobody draws). ``changes`` are the fields the end of the trick sets (``hands`` after
        the trick, ``tricks``, ``leader``...); a game adds or replaces fields in it, so that the end of a
        trick copies the state once."""

    def _start_play(self, state: StateT) -> StateT:
        return updated(state, phase=PLAYING, leader=(state.dealer + 1) % len(state.hands))

    def _run(self, state: StateT, player: int) -> tuple[StateT, list[SevenUpEvent]]:
        n = len(state.hands)
        dealer = state.dealer
        events = [_RAN_EVENTS[player]]
        assert state.turned is not None
        refused = state.turned[1]
        set_aside = [*state.set_aside, state.turned]
        stock = list(state.stock)
        hands = [list(h) for h in state.hands]
        events.append(_SET_ASIDE_EVENTS[dealer][state.turned])
        while True:
            if len(stock) < PACKET * n + 1:
                thrown = updated(
                    state,
                    set_aside=set_aside,
                    stock=stock,
                    hands=[_sorted(h) for h in hands],
                    turned=None,
                    trump=None,
                )
                events.append(_THROWN_IN_EVENTS[dealer])
                return self._close(thrown, THROWN_IN, events), events
            for k in range(n):
                seat = (state.dealer + 1 + k) % n
                hands[seat] += stock[:PACKET]
                del stock[:PACKET]
            turned = stock.pop(0)
            events.append(_TURNED_EVENTS[dealer][turned])
            if turned[1] == refused:
                set_aside.append(turned)
                events.append(_SET_ASIDE_EVENTS[dealer][turned])
                continue
            after = updated(
                state,
                phase=DISCARDING,
                set_aside=set_aside,
                stock=stock,
                hands=[_sorted(h) for h in hands],
                turned=turned,
                trump=SUIT_OF[turned[1]],
            )
            if turned[0] == "J":
                after, _ = self._award(
                    after, [(self._seat_points[TURNED_JACK_KEY][state.dealer], turned)], events
                )
            return after, events

    def _discard(self, state: StateT, player: int, card_: str) -> tuple[StateT, list[SevenUpEvent]]:
        """``player`` discards ``card_`` (one card per ``discard`` move, see the module notes)."""
        hands = list(state.hands)
        hand = hands[player] = list(hands[player])
        hand.remove(card_)  # a hand holds each card once
        discarded: list[list[str]] = list(state.discarded)
        discarded[player] = _sorted([*discarded[player], card_])
        events = [_DISCARDED_ONE_EVENTS[player]]
        changes: dict[str, Any] = {"hands": hands, "discarded": discarded}
        if len(hand) <= HAND_SIZE and all(len(h) <= HAND_SIZE for h in hands):
            # the last discard: play starts, in the same copy of the state
            changes.update(phase=PLAYING, leader=(state.dealer + 1) % len(hands))
        return updated_from(state, changes), events

    def _play_card(self, state: StateT, player: int, card_: str) -> tuple[StateT, list[SevenUpEvent]]:
        hands = list(state.hands)
        n = len(hands)
        hand = hands[player] = list(hands[player])
        hand.remove(card_)  # a hand holds each card once
        trick = [*state.trick, card_]
        events = [_PLAYED_EVENTS[player][card_]]
        if len(trick) < n:
            return updated(state, hands=hands, trick=trick), events
        leader: int = state.leader  # type: ignore[assignment]  # (a trick in play has a leader)
        trump = state.trump
        # trick_winner's sum written out: a Python call costs more than the sum, at every trick
        winner: int = (leader + trick_winner_index(trick, trump)) % n
        # the trick's ``trick_won`` event (with a list of its own) and its record (which keeps ``trick``),
        # made here without validation (see seven_up_points._EVENT_DEFAULTS) rather than by a helper call each
        won_values = {**_EVENT_DEFAULTS, "type": TRICK_WON, "player": winner, "cards": list(trick)}
        events.append(unvalidated(SevenUpEvent, won_values, set(_TRICK_WON_FIELDS)))
        record_values = {"leader": leader, "cards": trick, "trump": trump, "winner": winner}
        changes: dict[str, Any] = {
            "hands": hands,
            "trick": [],
            "tricks": [*state.tricks, unvalidated(SevenUpTrick, record_values, set(_TRICK_FIELDS))],
            "leader": winner,
        }
        if type(self).draw_after_trick is not SevenUpRules.draw_after_trick:
            # only a game overriding the hook draws (California Jack): the others skip a call doing nothing
            self.draw_after_trick(state, winner, changes, events)
        if any(changes["hands"]):  # the hands after the trick (and after drawing, in California Jack)
            return updated_from(state, changes), events
        # the hand is over: High, Low, Jack, Game, one at a time, and the deal closes, scored from the fields
        # the trick sets and copied once with them (the state after the trick alone would be dropped)
        hand_points = self._hand_points(changes["tricks"], changes.get("trump", trump), n, state.options)
        after, _ = self._award(state, hand_points, events, end_of_hand=True, changes=changes)
        return after, events

    # ---- view ------------------------------------------------------------------------------------

    def trump_settled(self, state: StateT) -> bool:
        """Whether the deal the state holds has settled its trump: the eldest stood, the dealer gave, or
        a run turned a new suit. Never after a throw-in, nor when the first turned Jack won the match
        before anyone stood or begged (California Jack: always)."""
        if state.phase in (DISCARDING, PLAYING):
            return True
        if state.phase in _UNSETTLED:
            return False
        if not state.deals:
            return True
        last = state.deals[-1]
        if last.outcome is THROWN_IN:
            return False
        if last.outcome is MATCH_WON and not state.set_aside:
            return any(p.reason is Reason.gift for p in last.points)
        return True

    def hand_hidden(self, state: StateT, player: int) -> bool:
        """Whether ``player`` may not look at their own hand now (Four-handed, seats dealer+2 and
        dealer+3 while the trump of the deal is not settled, see :meth:`trump_settled`)."""
        return False

    def stock_top(self, state: StateT) -> str | None:
        """The stock card a seat sees face up (none: Seven-Up's stock is face down)."""
        return None

    def seat_view(self, state: StateT, player: int) -> dict[str, object]:
        hidden = self.hand_hidden(state, player)
        return dict(
            to_act=self.to_act(state),
            hand=[] if hidden else state.hands[player],
            hand_hidden=hidden,
            stock_size=len(state.stock),
            stock_top=self.stock_top(state),
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
        )
