"""The Sjuan family's wire moves and events by move code: what the wire side of a step
(:class:`~sevens_rules.engine.sjuan.SjuanFamily`'s ``deal_moves``, ``is_legal_in_deal``,
``resolve_in_deal``) reads a move from and writes its events with, every one made and validated once."""

from __future__ import annotations

from ..schema.scalars import MAX_SEATS
from ..schema.sjuan import (
    SjuanDeal,
    SjuanEvent,
    SjuanEventType,
    SjuanFamilyState,
    SjuanMove,
    SjuanMoveType,
)
from .card_sets import CARD_INDEX
from .cards import FULL_DECK
from .game import best_seats
from .match import MATCH_OVER_PHASE, PLAY_PHASE
from .models import event_of, updated
from .sjuan_position import DRAW, NEXT_DEAL, PASS, SjuanPosition

PLAY = SjuanMoveType.play


_event = event_of(SjuanEvent, SjuanEventType)


# The moves and events of every seat and card, made (and validated) once: the wire side of a step finds
# them with a plain lookup.
_SEATS = range(MAX_SEATS)
PLAYS = tuple({c: SjuanMove(type=PLAY, player=seat, card=c) for c in FULL_DECK} for seat in _SEATS)
"""``PLAYS[seat][card]``: the move playing ``card``."""
PASSES = tuple(SjuanMove(type=SjuanMoveType("pass"), player=seat) for seat in _SEATS)
"""``PASSES[seat]``: the seat's pass."""
DRAWS = tuple(SjuanMove(type=SjuanMoveType.draw, player=seat) for seat in _SEATS)
"""``DRAWS[seat]``: the seat's draw from the stock."""
NEXT_DEALS = tuple(SjuanMove(type=SjuanMoveType.next_deal, player=seat) for seat in _SEATS)
"""``NEXT_DEALS[seat]``: the seat's ``next_deal`` move as the move list shows it (no deck)."""
WIRE_MOVES = tuple(
    (*(PLAYS[seat][c] for c in FULL_DECK), PASSES[seat], DRAWS[seat], NEXT_DEALS[seat]) for seat in _SEATS
)
"""``WIRE_MOVES[seat][code]``: the wire move of a move code (:mod:`~sevens_rules.engine.sjuan_position`)."""
_CODE_OF_TYPE = {SjuanMoveType("pass"): PASS, SjuanMoveType.draw: DRAW, SjuanMoveType.next_deal: NEXT_DEAL}
"""The move code of each move type but ``play`` (whose code is its card's)."""
PLAYED = tuple(
    {c: SjuanEvent(type=SjuanEventType.played, player=seat, card=c) for c in FULL_DECK} for seat in _SEATS
)
"""``PLAYED[seat][card]``: the event of ``seat`` playing ``card``."""
DREW = tuple(
    {c: SjuanEvent(type=SjuanEventType.drew, player=seat, card=c) for c in FULL_DECK} for seat in _SEATS
)
"""``DREW[seat][card]``: the event of ``seat`` drawing ``card``."""
CHIP_PAID = SjuanEventType.chip_paid
DEAL_STARTED = tuple(SjuanEvent(type=SjuanEventType.deal_started, player=seat) for seat in _SEATS)
"""``DEAL_STARTED[seat]``: the event of ``seat`` dealing."""
SHORT_HAND_CHIP = tuple(
    SjuanEvent(type=CHIP_PAID, player=seat, chips=1, reason="short_hand") for seat in _SEATS
)
"""``SHORT_HAND_CHIP[seat]``: the event of ``seat`` paying a chip for a short hand (one chip is all a
short hand pays when dealt)."""
PASSED = tuple(SjuanEvent(type=SjuanEventType.passed, player=seat, chips=1, reason="pass") for seat in _SEATS)
"""``PASSED[seat]``: the event of ``seat`` passing and paying a chip."""

DEAL_ENDED = SjuanEvent(
    type=SjuanEventType.deal_ended,
    player=None,
    deal=SjuanDeal(
        number=1, dealer=0, winner=None, blocked=True, cards_left=[], chips=[], penalties=[], pot=0
    ),
)
"""A validated ``deal_ended`` event, given the fields every one is given (type, player, deal): copied with
its player and deal replaced, it is the event validation makes."""


def move_code(move: SjuanMove) -> int | None:
    """The code of a wire move (None: a play naming no card, or no card of the deck, which is never legal)."""
    if move.type is PLAY:
        return CARD_INDEX.get(move.card)  # type: ignore[arg-type]  # (None is no key)
    return _CODE_OF_TYPE[move.type]


def deal_events(state: SjuanFamilyState) -> list[SjuanEvent]:
    """The events of a fresh deal: who dealt, and the chips short hands paid."""
    events = [DEAL_STARTED[state.dealer]]
    events += [
        SHORT_HAND_CHIP[seat]
        if paid == 1
        else _event(CHIP_PAID, player=seat, chips=paid, reason="short_hand")
        for seat, paid in enumerate(state.chips)
        if paid
    ]
    return events


def move_events(
    player: int, code: int, before: SjuanPosition, after: SjuanPosition, written: SjuanFamilyState
) -> list[SjuanEvent]:
    """The events of ``player``'s move ``code`` from ``before`` to ``after`` (whose wire state is
    ``written``): the pass and its chip, the draw and its card, or the play, then the deal's end and the
    match's when the play ended them."""
    if code == PASS:
        return [PASSED[player]]
    if code == DRAW:
        return [DREW[player][FULL_DECK[before.stock[0]]]]
    events = [PLAYED[player][FULL_DECK[code]]]
    if after.phase is not PLAY_PHASE:
        match = after.match
        events.append(updated(DEAL_ENDED, player=match.deals[-1].winner, deal=written.deals[-1]))
        if after.phase is MATCH_OVER_PHASE:
            winners = best_seats(match.totals, lowest=True)
            events.append(_event(SjuanEventType.match_ended, winners=winners))
    return events
