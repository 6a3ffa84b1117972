"""The Seven-Up family's wire moves and events by move code, and the write of one move: the wire move of
each move code and the code of a wire move, the events the rules log
(:mod:`~sevens_rules.engine.seven_up_rules`) when the wire API asks for them, and the wire state a step
made on positions writes back (:func:`write_move`).

Every move and every event that can be shared is made and validated once. The others are made without
validation from values the engine computed (tests/test_engine_speed.py compares such models with the
validated ones)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..schema.common import Suit
from ..schema.scalars import MAX_SEATS
from ..schema.seven_up import (
    SevenUpDeal,
    SevenUpEvent,
    SevenUpEventType,
    SevenUpMove,
    SevenUpMoveType,
    SevenUpPointReason,
)
from .card_sets import CARD_INDEX, card_names
from .cards import FULL_DECK
from .models import unvalidated, updated_from
from .seven_up_position import (
    BEG,
    DISCARD,
    GIVE,
    NEXT_DEAL,
    PLAYING,
    RUN,
    STAND,
    WIRE_POINTS,
    SevenUpPosition,
    suit_member,
    wire_deal,
    wire_trick,
)

PLAY_TYPE = SevenUpMoveType.play
DISCARD_TYPE = SevenUpMoveType.discard
NEXT_DEAL_TYPE = SevenUpMoveType.next_deal
_DECISION_TYPES = (SevenUpMoveType.stand, SevenUpMoveType.beg, SevenUpMoveType.give, SevenUpMoveType.run)
_DECISION_CODES = {kind: code for kind, code in zip(_DECISION_TYPES, (STAND, BEG, GIVE, RUN), strict=True)}

_SEATS = range(MAX_SEATS)
PLAYS: tuple[Mapping[str, SevenUpMove], ...] = tuple(
    {c: SevenUpMove(type=PLAY_TYPE, player=seat, card=c) for c in FULL_DECK} for seat in _SEATS
)
"""``PLAYS[seat][card]``: the ``play`` move of ``card`` by ``seat``."""
DISCARDS: tuple[Mapping[str, SevenUpMove], ...] = tuple(
    {c: SevenUpMove(type=DISCARD_TYPE, player=seat, cards=[c]) for c in FULL_DECK} for seat in _SEATS
)
"""``DISCARDS[seat][card]``: the ``discard`` move of ``card`` alone by ``seat`` (its one-card list is
shared like the move: nothing changes it)."""
NEXT_DEALS = tuple(SevenUpMove(type=NEXT_DEAL_TYPE, player=seat, deck=None) for seat in _SEATS)
"""``NEXT_DEALS[seat]``: the seat's ``next_deal`` move as the move list shows it (``deck`` set, as None)."""
WIRE_MOVES = tuple(
    (
        *(PLAYS[seat][c] for c in FULL_DECK),
        *(DISCARDS[seat][c] for c in FULL_DECK),
        *(SevenUpMove(type=kind, player=seat) for kind in _DECISION_TYPES),
        NEXT_DEALS[seat],
    )
    for seat in _SEATS
)
"""``WIRE_MOVES[seat][code]``: the wire move of a move code (see
:mod:`~sevens_rules.engine.seven_up_position`)."""


def move_code(move: SevenUpMove) -> int | None:
    """The code of a wire move (None: a play or a discard naming no card, or a card not of the deck,
    which is never legal: a move made in process is not validated as a posted one is). A discard's code
    is that of its first card; the listed move it must equal names that card alone."""
    kind = move.type
    if kind is PLAY_TYPE:
        return CARD_INDEX.get(move.card)  # type: ignore[arg-type]  # (None is no key)
    if kind is DISCARD_TYPE:
        cards = move.cards
        index = CARD_INDEX.get(cards[0]) if cards else None
        return None if index is None else DISCARD + index
    if kind is NEXT_DEAL_TYPE:
        return NEXT_DEAL
    return _DECISION_CODES.get(kind)


# ---- events ---------------------------------------------------------------------------------------

_SEAT_EVENTS = {
    kind: tuple(SevenUpEvent(type=kind, player=seat) for seat in _SEATS)
    for kind in (
        SevenUpEventType.deal_started,
        SevenUpEventType.stood,
        SevenUpEventType.begged,
        SevenUpEventType.gave,
        SevenUpEventType.ran,
        SevenUpEventType.thrown_in,
    )
}
DEAL_STARTED = _SEAT_EVENTS[SevenUpEventType.deal_started]
STOOD = _SEAT_EVENTS[SevenUpEventType.stood]
BEGGED = _SEAT_EVENTS[SevenUpEventType.begged]
GAVE = _SEAT_EVENTS[SevenUpEventType.gave]
RAN = _SEAT_EVENTS[SevenUpEventType.ran]
THROWN_IN_EVENTS = _SEAT_EVENTS[SevenUpEventType.thrown_in]
"""``X[seat]``: the event naming only ``seat`` (the dealer: dealt, ran, threw in; the eldest: stood...)."""
TURNED = tuple(
    {
        c: SevenUpEvent(type=SevenUpEventType.trump_turned, player=seat, card=c, suit=Suit(c[1]))
        for c in FULL_DECK
    }
    for seat in _SEATS
)
"""``TURNED[dealer][card]``: ``dealer`` turned ``card``, whose suit is trump."""
SET_ASIDE = tuple(
    {c: SevenUpEvent(type=SevenUpEventType.set_aside, player=seat, card=c) for c in FULL_DECK}
    for seat in _SEATS
)
"""``SET_ASIDE[dealer][card]``: ``dealer`` set the refused ``card`` aside."""
DISCARDED_ONE = tuple(SevenUpEvent(type=SevenUpEventType.discarded, player=seat, count=1) for seat in _SEATS)
"""``DISCARDED_ONE[seat]``: ``seat`` discarded one card (every ``discard`` move names one)."""
PLAYED = tuple(
    tuple(SevenUpEvent(type=SevenUpEventType.played, player=seat, card=c) for c in FULL_DECK)
    for seat in _SEATS
)
"""``PLAYED[seat][card code]``: ``seat`` played the card."""
DREW = tuple(
    tuple(SevenUpEvent(type=SevenUpEventType.drew, player=seat, card=c) for c in FULL_DECK) for seat in _SEATS
)
"""``DREW[seat][card code]``: ``seat`` drew the face-up card."""
DREW_UNSEEN = tuple(SevenUpEvent(type=SevenUpEventType.drew, player=seat) for seat in _SEATS)
"""``DREW_UNSEEN[seat]``: ``seat`` drew the next card, face down."""
STOCK_TOP_TURNED = {
    c: SevenUpEvent(type=SevenUpEventType.trump_turned, card=c, suit=Suit(c[1])) for c in FULL_DECK
}
"""``STOCK_TOP_TURNED[card]``: ``card`` is the stock's new face-up top card and sets trump."""

_DEFAULT_EVENT = SevenUpEvent(type=SevenUpEventType.point)
_EVENT_DEFAULTS: Mapping[str, Any] = {
    name: getattr(_DEFAULT_EVENT, name) for name in SevenUpEvent.model_fields
}
"""Every field of an event at its default (``type`` included, to be replaced), in field order."""
_TRICK_WON_FIELDS = frozenset({"type", "player", "cards"})
_POINT_FIELDS = frozenset({"type", "player", "side", "card", "reason", "totals"})
_DEAL_ENDED_FIELDS = frozenset({"type", "player", "deal"})
_MATCH_ENDED_FIELDS = frozenset({"type", "side", "winners"})
_TRICK_WON = SevenUpEventType.trick_won
_POINT = SevenUpEventType.point
_DEAL_ENDED = SevenUpEventType.deal_ended
_MATCH_ENDED = SevenUpEventType.match_ended


def trick_won_event(winner: int, cards: tuple[int, ...]) -> SevenUpEvent:
    """``winner`` took the trick of ``cards`` (codes, from the leader)."""
    values = {**_EVENT_DEFAULTS, "type": _TRICK_WON, "player": winner, "cards": [FULL_DECK[c] for c in cards]}
    return unvalidated(SevenUpEvent, values, set(_TRICK_WON_FIELDS))


def point_event(
    seat: int | None, side: int, card: str | None, reason: SevenUpPointReason, totals: list[int]
) -> SevenUpEvent:
    """A point for ``reason`` to ``seat`` and ``side`` (``card`` behind it, if any), with the match
    ``totals`` after it (the event's own list)."""
    values = {
        **_EVENT_DEFAULTS,
        "type": _POINT,
        "player": seat,
        "side": side,
        "card": card,
        "reason": reason,
        "totals": totals,
    }
    return unvalidated(SevenUpEvent, values, set(_POINT_FIELDS))


def deal_ended_event(dealer: int, deal: SevenUpDeal) -> SevenUpEvent:
    """The deal of ``dealer`` ended with the record ``deal``."""
    values = {**_EVENT_DEFAULTS, "type": _DEAL_ENDED, "player": dealer, "deal": deal}
    return unvalidated(SevenUpEvent, values, set(_DEAL_ENDED_FIELDS))


def match_ended_event(side: int, winners: list[int]) -> SevenUpEvent:
    """``side`` (its seats ``winners``, the event's own list) won the match."""
    values = {**_EVENT_DEFAULTS, "type": _MATCH_ENDED, "side": side, "winners": winners}
    return unvalidated(SevenUpEvent, values, set(_MATCH_ENDED_FIELDS))


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
