"""My Ship Sails' wire moves and events by move code: what the wire side of a step
(:class:`~sevens_rules.engine.my_ship_sails.MyShipSails`'s ``deal_moves``, ``is_legal_in_deal``,
``resolve_in_deal``) reads a move from and writes its events with, every one made and validated once."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from ..schema.my_ship_sails import (
    MyShipSailsDeal,
    MyShipSailsEvent,
    MyShipSailsEventType,
    MyShipSailsMove,
    MyShipSailsMoveType,
    MyShipSailsState,
)
from ..schema.scalars import MAX_SEATS
from .card_sets import CARD_INDEX, card_set
from .cards import FULL_DECK
from .game import best_seats
from .models import event_of, updated
from .my_ship_sails_position import (
    CHOICE_MASK,
    DECLARE,
    MATCH_OVER,
    NEXT_DEAL,
    SEAT_SHIFT,
    MyShipSailsPosition,
    seat_codes,
)

PASS = MyShipSailsMoveType("pass")
_DECLARE_TYPE = MyShipSailsMoveType.declare
_NEXT_DEAL_TYPE = MyShipSailsMoveType.next_deal

_event = event_of(MyShipSailsEvent, MyShipSailsEventType)

_SEATS = range(MAX_SEATS)
PASSES = tuple({c: MyShipSailsMove(type=PASS, player=seat, card=c) for c in FULL_DECK} for seat in _SEATS)
"""``PASSES[seat][card]``: the move passing ``card``."""
DECLARES = tuple(MyShipSailsMove(type=_DECLARE_TYPE, player=seat) for seat in _SEATS)
"""``DECLARES[seat]``: the seat's declaration."""
NEXT_DEALS = tuple(MyShipSailsMove(type=_NEXT_DEAL_TYPE, player=seat) for seat in _SEATS)
"""``NEXT_DEALS[seat]``: the seat's ``next_deal`` move as the move list shows it (no deck)."""
WIRE_MOVES = tuple(
    {
        **{seat << SEAT_SHIFT | code: PASSES[seat][c] for code, c in enumerate(FULL_DECK)},
        seat << SEAT_SHIFT | DECLARE: DECLARES[seat],
        NEXT_DEAL: NEXT_DEALS[seat],
    }
    for seat in _SEATS
)
"""``WIRE_MOVES[seat][code]``: the wire move of a move code."""

CHOSEN = tuple(MyShipSailsEvent(type=MyShipSailsEventType.chosen, player=seat) for seat in _SEATS)
"""``CHOSEN[seat]``: the event of ``seat`` choosing (every choice reports one)."""
_EXCHANGED = MyShipSailsEvent(type=MyShipSailsEventType.exchanged, exchange=1)
"""A validated ``exchanged`` event, copied with each exchange's number (validating each number afresh
would cost every exchange of a long deal)."""
_DEAL_ENDED = MyShipSailsEvent(
    type=MyShipSailsEventType.deal_ended,
    deal=MyShipSailsDeal(number=1, dealer=0, exchanges=0, winners=[]),
)
"""A validated ``deal_ended`` event, copied with each finished deal's record."""


_RECEIVED: list[list[list[MyShipSailsEvent | None]]] = [
    [[None] * len(FULL_DECK) for _giver in _SEATS] for _seat in _SEATS
]
"""``_RECEIVED[seat][giver][card]``: the ``received`` event once made (every exchange reports one per
seat; the event is frozen, so one is shared)."""


def received_event(seat: int, card: int, giver: int) -> MyShipSailsEvent:
    """The ``received`` event of ``seat`` getting the card ``card`` (a code) from ``giver``."""
    event = _RECEIVED[seat][giver][card]
    if event is None:
        event = _RECEIVED[seat][giver][card] = MyShipSailsEvent(
            type=MyShipSailsEventType.received, player=seat, card=FULL_DECK[card], from_player=giver
        )
    return event


def move_code(move: MyShipSailsMove) -> int | None:
    """The code of a wire move (None: a pass naming no card, or no card of the deck, which is never
    legal)."""
    kind = move.type
    if kind is PASS:
        card = CARD_INDEX.get(move.card)  # type: ignore[arg-type]  # (None is no key)
        return None if card is None else move.player << SEAT_SHIFT | card
    if kind is _DECLARE_TYPE:
        return move.player << SEAT_SHIFT | DECLARE
    return NEXT_DEAL


@lru_cache(maxsize=4096)
def seat_moves(hand: tuple[str, ...], seat: int) -> tuple[MyShipSailsMove, ...]:
    """The wire moves of ``seat``, to choose in a step with ``hand`` (a wire hand: seven distinct cards of
    the deck), as the wire lists them: the wire moves of the rules' codes
    (:func:`~sevens_rules.engine.my_ship_sails_position.seat_codes`: pass any card, declare a one-suit
    hand), the passes in the hand's own order (a posted hand need not be in canonical order).

    A function of its arguments' values alone, remembered (bounded; the moves are frozen and shared): the
    wire API lists the moves of every seat still to choose at every move of a step, with the same hands,
    and each request posts the state afresh."""
    wire = WIRE_MOVES[seat]
    moves = [wire[code] for code in seat_codes(card_set(hand), seat)]
    if any(move.card != card for move, card in zip(moves, hand, strict=False)):  # not in canonical order
        by_card = {move.card: move for move in moves}
        moves = [by_card[card] for card in hand] + moves[len(hand) :]
    return tuple(moves)


def move_events(
    state: MyShipSailsState,
    code: int,
    before: MyShipSailsPosition,
    after: MyShipSailsPosition,
    written: MyShipSailsState,
) -> list[MyShipSailsEvent]:
    """The events of the choice ``code`` in ``state`` (whose position is ``before``), which made ``after``
    (whose wire state is ``written``): the choice; when it was the last of the step, the exchange and
    each seat's received card, or the declarations; the automatic declarations after an exchange; then
    the deal's end and the match's when the step ended them."""
    events = [CHOSEN[code >> SEAT_SHIFT]]
    if after.chosen:  # the step goes on
        return events
    exchanged = after.exchanges != before.exchanges
    if exchanged:
        n = len(after.hands)
        # every card passed: the cards chosen before and this one (a seat passes its card among them)
        passed = before.passed | 1 << (code & CHOICE_MASK)
        given = [(hand & passed).bit_length() - 1 for hand in before.hands]
        events.append(updated(_EXCHANGED, exchange=after.exchanges))
        # each seat receives from seat - 1, its right-hand neighbour (-1 wraps to the last seat)
        events += [received_event(seat, given[seat - 1], (seat - 1) % n) for seat in range(n)]
    match = after.match
    if match is before.match:
        return events
    deal = written.deals[-1]
    hands = written.hands if exchanged else state.hands  # (a declared hand as the state shows it)
    events += declared_events(hands, deal.winners, exchanged)
    return ended_events(events, deal, after)


def ended_events(
    events: list[MyShipSailsEvent], deal: MyShipSailsDeal, after: MyShipSailsPosition
) -> list[MyShipSailsEvent]:
    """``events`` with the end of the deal recorded as ``deal``, and of the match when ``after`` ends it."""
    events.append(updated(_DEAL_ENDED, deal=deal))
    if after.phase is MATCH_OVER:
        events.append(_event(MyShipSailsEventType.match_ended, winners=best_seats(after.match.totals)))
    return events


def declared_events(
    hands: Sequence[Sequence[str]], winners: Sequence[int], auto: bool
) -> list[MyShipSailsEvent]:
    """The ``declared`` event of each of ``winners``, showing its hand."""
    return [
        _event(MyShipSailsEventType.declared, player=seat, cards=hands[seat], auto=auto) for seat in winners
    ]
