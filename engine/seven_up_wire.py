"""The wire side of the Seven-Up family: a posted state read into its position once
(:mod:`~sevens_rules.engine.seven_up_position`), the rules (:mod:`~sevens_rules.engine.seven_up_rules`)
run on it, and the state written back once, with the move's events; and what the wire API answers from
a state without moving (dealing, move lists, legality, views).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sevens_rules.engine.cards import FULL_DECK
from sevens_rules.engine.game import NewMatch
from sevens_rules.engine.match import DealSetup
from sevens_rules.engine.models import updated_from
from sevens_rules.engine.seven_up_events import DISCARDS, PLAYS, WIRE_MOVES, move_code
from sevens_rules.engine.seven_up_points import OptionsT, Reason, StateT, ViewT
from sevens_rules.engine.seven_up_position import (
    CARD_INDEX,
    DISCARD,
    DISCARDING,
    GIVE_OR_RUN,
    HAND_SIZE,
    MATCH_WON,
    NO_TRUMP,
    PLAYING,
    STAND_OR_BEG,
    SUIT_INDEX,
    SUIT_SIZE,
    SUITS,
    THROWN_IN,
    WIRE_POINTS,
    SevenUpMatch,
    SevenUpPosition,
    card_names,
    read_position,
    read_trick,
    suit_member,
    wire_deal,
    wire_trick,
    write_state,
)
from sevens_rules.engine.seven_up_rules import (
    GIVE_OR_RUN_CODES,
    STAND_OR_BEG_CODES,
    SevenUpRules,
    cut_for_dealer,
)
from sevens_rules.schema.seven_up import SevenUpCutRound, SevenUpEvent, SevenUpMove

_UNSETTLED = (STAND_OR_BEG, GIVE_OR_RUN)
SUIT_NAMES = {
    letter: frozenset(FULL_DECK[suit * SUIT_SIZE : (suit + 1) * SUIT_SIZE])
    for suit, letter in enumerate("CDHS")
}
"""``SUIT_NAMES[suit letter]``: the names of that suit's cards."""


class SevenUpWire(SevenUpRules[OptionsT, StateT, ViewT]):
    """The Seven-Up family on the wire: each operation reads the state's position (once per state, see
    :class:`~sevens_rules.engine.positions.PositionWire`) and asks the rules."""

    # ---- the wire side: a state's position, and the state of a position --------------------------

    def read(self, state: StateT) -> SevenUpPosition:
        return read_position(state, self._seat_sides, self._side_counts[len(state.hands)])

    def state_of(self, position: SevenUpPosition) -> StateT:
        """The wire state of ``position``, kept with its position as the last state."""
        state: StateT = write_state(position, self.models.state, self.id)
        self.remember(state, position)
        return state

    def hand_points(self, state: StateT) -> list[tuple[Any, str | None]]:
        """The end-of-hand points of a wire state's tricks (:meth:`hand_points_of`), as wire points."""
        trump = state.trump
        tricks = tuple(map(read_trick, state.tricks))
        scored = self.hand_points_of(
            tricks, NO_TRUMP if trump is None else SUIT_INDEX[trump], len(state.hands), state.options
        )
        return [(WIRE_POINTS[point], card) for point, card in scored]

    def _dealt(self, match: SevenUpMatch, deck: Sequence[str]) -> tuple[StateT, list[SevenUpEvent]]:
        log: list[SevenUpEvent] = []
        position = self.deal_position(match, deck, log)
        return self.state_of(position), log

    def start(self, request: NewMatch[OptionsT]) -> tuple[StateT, list[SevenUpEvent]]:
        players, options, seeding, dealer = request.players, request.options, request.seeding, request.dealer
        cut: list[SevenUpCutRound] = []
        if dealer is None:
            cut, dealer = cut_for_dealer(seeding, self.id, players)
        zeros = (0,) * self._side_counts[players]
        match = SevenUpMatch(
            players, dealer, 1, [], (), zeros, cut, options, seeding.seed, seeding.entropy, seeding.commitment
        )
        deck = request.deck if request.deck is not None else seeding.shuffled(FULL_DECK, self.id, 1)
        return self._dealt(match, deck)

    def deal(self, setup: DealSetup[OptionsT, StateT]) -> tuple[StateT, list[SevenUpEvent]]:
        previous = setup.previous
        assert previous is not None  # (start deals the first deal)
        before = self.position(previous).match
        seeding = setup.seeding
        match = SevenUpMatch(
            setup.players,
            setup.dealer,
            setup.deal_number,
            setup.deals,
            (),
            before.totals,
            before.cut,
            setup.options,
            seeding.seed,
            seeding.entropy,
            before.commitment,
        )
        deck = (
            setup.deck if setup.deck is not None else seeding.shuffled(FULL_DECK, self.id, setup.deal_number)
        )
        return self._dealt(match, deck)

    def deal_moves(self, state: StateT, player: int) -> list[SevenUpMove]:
        """The moves of :meth:`position_moves_to_act` as wire moves; plays in the order the state lists
        the seat's hand (canonical in every state the engine writes; a posted state may list it otherwise,
        and its plays follow it)."""
        position = self.position(state)
        phase = position.phase
        if phase is PLAYING:
            allowed = self.playable(position, player)
            held = state.hands[player]
            pick = PLAYS[player].__getitem__
            if allowed == position.hands[player]:  # every card (a lead, or no card of the led suit)
                return list(map(pick, held))
            if not allowed & ~SUITS[position.trick[0] // SUIT_SIZE]:  # the led suit only (picked in C)
                return list(map(pick, filter(SUIT_NAMES[state.trick[0][1]].__contains__, held)))
            index = CARD_INDEX
            return [pick(card) for card in held if allowed >> index[card] & 1]
        if phase is DISCARDING:
            hand = position.hands[player]
            discards = DISCARDS[player]
            return [discards[card] for card in card_names(hand)] if hand.bit_count() > HAND_SIZE else []
        if phase is STAND_OR_BEG or phase is GIVE_OR_RUN:
            moves = WIRE_MOVES[player]
            codes = STAND_OR_BEG_CODES if phase is STAND_OR_BEG else GIVE_OR_RUN_CODES
            return [moves[code] for code in codes]
        return []

    def resolve_in_deal(self, state: StateT, move: SevenUpMove) -> tuple[StateT, list[SevenUpEvent]]:
        """The position's step with its events logged (the rules log them as they go), then the state
        written once (:func:`write_move`)."""
        position = self.position(state)
        code: int = move_code(move)  # type: ignore[assignment]  # (a legal move has a code)
        log: list[SevenUpEvent] = []
        after = self._play(position, code, log) if code < DISCARD else self.step(position, code, log)
        written = write_move(state, position, code, after)
        self.remember(written, after)
        return written, log

    def write_step(
        self, state: StateT, position: SevenUpPosition, move: int, after: SevenUpPosition
    ) -> tuple[StateT, list[SevenUpEvent]]:
        """The wire state and events of a step already made on positions (:meth:`resolve_in_deal` makes
        the step and its events at once; this makes the events by stepping again with a log)."""
        log: list[SevenUpEvent] = []
        self.step(position, move, log)
        written = write_move(state, position, move, after)
        self.remember(written, after)
        return written, log

    def honour_points(self, state: StateT) -> list[tuple[Any, str | None]]:
        """High, Low and Jack of a wire state's tricks (:meth:`honours`), as wire points."""
        trump = state.trump
        scored = self.honours(
            tuple(map(read_trick, state.tricks)),
            NO_TRUMP if trump is None else SUIT_INDEX[trump],
            len(state.hands),
        )
        return [(WIRE_POINTS[point], card) for point, card in scored]

    def next_dealer(self, state: StateT) -> int:
        """Who deals next: the same dealer after a throw-in, else the seat left of the dealer."""
        if state.deals and state.deals[-1].outcome is THROWN_IN:
            return state.dealer
        return (state.dealer + 1) % len(state.hands)

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


def write_move(state: Any, before: SevenUpPosition, code: int, after: SevenUpPosition) -> Any:
    """The wire state after move ``code`` took ``state`` (whose position is ``before``) to ``after``,
    inside a deal: the state's fields with those the move changed written anew.

    A played or discarded card leaves its seat's hand as the state lists it (the other cards keep their
    order); a hand that gained cards (a run's packets, California Jack's draws) is written in canonical
    order, as are all hands after a run and a seat's discards."""
    if code < DISCARD and after.phase is PLAYING:  # a card played, and the deal goes on (most moves)
        card = FULL_DECK[code]
        hands = list(state.hands)
        seat: int = before.turn  # type: ignore[assignment]  # (a seat is to act in a deal)
        held = hands[seat] = list(hands[seat])
        held.remove(card)
        if after.trick:  # the trick goes on: two fields
            return updated_from(state, {"hands": hands, "trick": [*state.trick, card]})
        winner: int = after.leader  # type: ignore[assignment]  # (the trick's winner leads)
        changes: dict[str, object] = {
            "hands": hands,
            "trick": [],
            "tricks": [*state.tricks, wire_trick(after.tricks[-1])],
            "leader": winner,
        }
        if after.stock is not before.stock:  # California Jack's draws: the two hands that drew
            for drawer in (winner, (winner + 1) % len(hands)):
                hands[drawer] = card_names(after.hands[drawer])
            changes["stock"] = list(after.stock)
            if after.trump != before.trump:
                changes["trump"] = suit_member(after.trump)
        return updated_from(state, changes)
    changes = {}
    if after.hands is not before.hands:
        if code < DISCARD * 2:  # a card played or discarded
            player: int = before.turn  # type: ignore[assignment]  # (a seat is to act in a deal)
            card_code = code % DISCARD
            hands = list(state.hands)
            held = hands[player] = list(hands[player])
            held.remove(FULL_DECK[card_code])
            gone = 1 << card_code
            for seat, hand in enumerate(after.hands):
                expected = before.hands[seat] ^ gone if seat == player else before.hands[seat]
                if hand != expected:
                    hands[seat] = card_names(hand)
            changes["hands"] = hands
            if code >= DISCARD:
                discarded = list(state.discarded)
                discarded[player] = card_names(after.discarded[player])
                changes["discarded"] = discarded
        else:  # a run: every hand in canonical order
            changes["hands"] = [card_names(hand) for hand in after.hands]
    if after.stock is not before.stock:
        changes["stock"] = list(after.stock)
    if after.turned != before.turned:
        changes["turned"] = after.turned
    if after.trump != before.trump:
        changes["trump"] = suit_member(after.trump)
    if after.set_aside is not before.set_aside:
        changes["set_aside"] = list(after.set_aside)
    if after.leader != before.leader:
        changes["leader"] = after.leader
    if after.phase is not before.phase:
        changes["phase"] = after.phase
    if after.trick is not before.trick:
        if len(after.trick) == len(before.trick) + 1:
            changes["trick"] = [*state.trick, FULL_DECK[after.trick[-1]]]
        else:
            changes["trick"] = [FULL_DECK[c] for c in after.trick]
    if after.tricks is not before.tricks:
        changes["tricks"] = [*state.tricks, *map(wire_trick, after.tricks[len(before.tricks) :])]
    if after.points is not before.points:
        changes["points"] = [WIRE_POINTS[point] for point in after.points]
    if after.match is not before.match:
        changes["deals"] = [*state.deals, *map(wire_deal, after.match.finished[len(before.match.finished) :])]
    return updated_from(state, changes)
