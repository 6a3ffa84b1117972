"""Sevens' wire moves and events by move code: what the wire side of a step
(:class:`~sevens_rules.engine.sevens.Sevens`'s ``deal_moves``, ``listed_code``, ``wire_step``)
reads a move from and writes its events with, every one made and validated once."""

from __future__ import annotations

from collections.abc import Sequence

from ..schema.sevens import (
    SEVENS_PASSES,
    SEVENS_PLAYERS,
    SevensDeal,
    SevensEvent,
    SevensEventType,
    SevensMove,
    SevensMoveType,
    SevensState,
)
from .card_sets import CARD_INDEX, card_names
from .cards import FULL_DECK
from .game import best_seats
from .match import MATCH_OVER_PHASE, PLAY_PHASE
from .models import event_of, updated
from .sevens_position import (
    NEXT_DEAL,
    PASS,
    SevensPosition,
)

PLAY = SevensMoveType.play
_PASS_TYPE = SevensMoveType("pass")
_NEXT_DEAL_TYPE = SevensMoveType.next_deal

_event = event_of(SevensEvent, SevensEventType)

_SEATS = range(SEVENS_PLAYERS)
PLAYS = tuple({c: SevensMove(type=PLAY, player=seat, card=c) for c in FULL_DECK} for seat in _SEATS)
"""``PLAYS[seat][card]``: the move playing ``card``."""
PASSES = tuple(SevensMove(type=_PASS_TYPE, player=seat) for seat in _SEATS)
"""``PASSES[seat]``: the seat's pass."""
NEXT_DEALS = tuple(SevensMove(type=_NEXT_DEAL_TYPE, player=seat, deck=None) for seat in _SEATS)
"""``NEXT_DEALS[seat]``: the seat's ``next_deal`` move as the move list shows it (no deck)."""
WIRE_MOVES = tuple(
    {
        **{code: PLAYS[seat][c] for code, c in enumerate(FULL_DECK)},
        PASS: PASSES[seat],
        NEXT_DEAL: NEXT_DEALS[seat],
    }
    for seat in _SEATS
)
"""``WIRE_MOVES[seat][code]``: the wire move of a move code."""

PLAYED = tuple(
    {c: SevensEvent(type=SevensEventType.played, player=seat, card=c, joined=None) for c in FULL_DECK}
    for seat in _SEATS
)
"""``PLAYED[seat][card]``: the event of ``seat`` playing ``card`` (joining no laid card)."""
PASSED = {
    (seat, used): SevensEvent(type=SevensEventType.passed, player=seat, passes=used)
    for seat in _SEATS
    for used in range(1, SEVENS_PASSES + 2)
}
"""The ``passed`` event by seat and passes used, this one included (1 to 3, and 4 for the bust)."""
DEAL_STARTED = tuple(SevensEvent(type=SevensEventType.deal_started, player=seat) for seat in _SEATS)
"""``DEAL_STARTED[seat]``: the event of ``seat`` dealing."""
_DEAL_ENDED = SevensEvent(
    type=SevensEventType.deal_ended,
    deal=SevensDeal(number=1, dealer=0, places=[1, 2, 3, 4], points=[3, 2, 1, 0]),
)
"""A validated ``deal_ended`` event, copied with each finished deal's record (validating it afresh was most
of the cost of ending a deal)."""
_BUST = SevensEvent(type=SevensEventType.bust, player=0, cards=["AC"])
"""A validated ``bust`` event, copied with each bust's player and cards."""


def move_code(move: SevensMove) -> int | None:
    """The code of a wire move (None: a play naming no card, or no card of the deck, which is never legal)."""
    kind = move.type
    if kind is PLAY:
        return CARD_INDEX.get(move.card)  # type: ignore[arg-type]  # (None is no key)
    return PASS if kind is _PASS_TYPE else NEXT_DEAL


def in_hand_order(codes: list[int], hand: Sequence[str]) -> list[int]:
    """``codes`` (plays, then perhaps the pass) with the plays in the order of ``hand``, a wire hand not
    in canonical order: the wire lists a seat's plays in its hand's order."""
    listed = set(codes)
    ordered = [code for code in map(CARD_INDEX.__getitem__, hand) if code in listed]
    if PASS in listed:
        ordered.append(PASS)
    return ordered


def move_events(
    state: SevensState, code: int, before: SevensPosition, after: SevensPosition, written: SevensState
) -> list[SevensEvent]:
    """The events of the move ``code`` of the seat to act in ``state`` (whose position is ``before``),
    which made ``after`` (whose wire state is ``written``): the play and the laid cards it joined, and
    going out; the pass, or the fourth pass and the bust; then the deal's end and the match's when the
    move ended them."""
    player: int = before.turn  # type: ignore[assignment]  # (a move inside a deal has a mover)
    if code < PASS:
        played = PLAYED[player][FULL_DECK[code]]
        joined = after.runs & ~before.runs & ~(1 << code)
        events = [updated(played, joined=card_names(joined)) if joined else played]
        if not after.hands[player]:
            events.append(_event(SevensEventType.went_out, player=player, place=len(after.out)))
    else:
        used = before.passes[player] + 1
        events = [PASSED[player, used]]
        if used > SEVENS_PASSES:
            events.append(updated(_BUST, player=player, cards=list(state.hands[player])))
    if after.phase is not PLAY_PHASE:
        events.append(updated(_DEAL_ENDED, deal=written.deals[-1]))
        if after.phase is MATCH_OVER_PHASE:
            events.append(_event(SevensEventType.match_ended, winners=best_seats(after.match.totals)))
    return events
