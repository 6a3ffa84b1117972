"""Sedmice's wire moves and events by move code, and the write of one move: what the wire side of a step
(:class:`~sevens_rules.engine.sedmice.Sedmice`'s ``deal_moves``, ``is_legal_in_deal``,
``resolve_in_deal``) reads a move from and writes its state and events with. Every move and every event
that can be shared is made and validated once."""

from __future__ import annotations

from ..schema.sedmice import (
    SedmiceDeal,
    SedmiceEvent,
    SedmiceEventType,
    SedmiceHitReason,
    SedmiceMove,
    SedmiceMoveType,
    SedmiceState,
)
from .cards import PIQUET_DECK
from .match import MATCH_OVER_PHASE, PLAY_PHASE
from .models import event_of, updated, updated_from
from .sedmice_position import (
    CARD_INDEX,
    END_TRICK,
    EXTEND,
    NEXT_DEAL,
    SedmicePosition,
    card_names,
    wire_deal,
)

MOST_PLAYERS = 4
"""The larger of the two table sizes."""

PLAY_TYPE = SedmiceMoveType.play
EXTEND_TYPE = SedmiceMoveType.extend
END_TRICK_TYPE = SedmiceMoveType.end_trick
NEXT_DEAL_TYPE = SedmiceMoveType.next_deal

_event = event_of(SedmiceEvent, SedmiceEventType)

_SEATS = range(MOST_PLAYERS)
PLAYS = tuple({c: SedmiceMove(type=PLAY_TYPE, player=seat, card=c) for c in PIQUET_DECK} for seat in _SEATS)
"""``PLAYS[seat][card]``: the move playing ``card``."""
EXTENDS = tuple(
    {c: SedmiceMove(type=EXTEND_TYPE, player=seat, card=c) for c in PIQUET_DECK} for seat in _SEATS
)
"""``EXTENDS[seat][card]``: the move extending the trick with ``card``."""
END_TRICKS = tuple(SedmiceMove(type=END_TRICK_TYPE, player=seat) for seat in _SEATS)
NEXT_DEALS = tuple(SedmiceMove(type=NEXT_DEAL_TYPE, player=seat, deck=None) for seat in _SEATS)
"""``NEXT_DEALS[seat]``: the seat's ``next_deal`` move as the move list shows it (no deck, set as such)."""
WIRE_MOVES = tuple(
    (
        *(PLAYS[seat][c] for c in PIQUET_DECK),
        *(EXTENDS[seat][c] for c in PIQUET_DECK),
        END_TRICKS[seat],
        NEXT_DEALS[seat],
    )
    for seat in _SEATS
)
"""``WIRE_MOVES[seat][code]``: the wire move of a move code (:mod:`~sevens_rules.engine.sedmice_position`)."""

PLAYED = tuple(
    tuple(
        {c: SedmiceEvent(type=SedmiceEventType.played, player=seat, card=c, answers=a) for c in PIQUET_DECK}
        for a in (False, True)
    )
    for seat in _SEATS
)
"""``PLAYED[seat][answers][card]``: the event of ``seat`` playing ``card``, answering the led card or not."""
EXTENDED = tuple(
    {c: SedmiceEvent(type=SedmiceEventType.extended, player=seat, card=c, answers=True) for c in PIQUET_DECK}
    for seat in _SEATS
)
"""``EXTENDED[seat][card]``: the event of ``seat`` extending the trick with ``card`` (which answers)."""
DREW = tuple(
    {c: SedmiceEvent(type=SedmiceEventType.drew, player=seat, card=c) for c in PIQUET_DECK} for seat in _SEATS
)
"""``DREW[seat][card]``: the event of ``seat`` drawing ``card``."""
DEAL_STARTED = tuple(SedmiceEvent(type=SedmiceEventType.deal_started, player=seat) for seat in _SEATS)
"""``DEAL_STARTED[seat]``: the event of ``seat`` dealing."""

_TRICK_TAKEN = SedmiceEvent(
    type=SedmiceEventType.trick_taken, player=0, side=0, cards=["7C"], rounds=1, points=0
)
"""A validated ``trick_taken`` event, with every field that event sets: copied with each trick's values
(its list of cards makes it unshareable), it is the event validation makes."""
_DEAL_ENDED = SedmiceEvent(
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
"""A validated ``deal_ended`` event, with every field that event sets, copied with each deal's values."""


_POINT_NAMES = frozenset(c for c in PIQUET_DECK if c[0] in "TA")
"""The tens and the Aces, 10 points each."""


def move_code(move: SedmiceMove) -> int | None:
    """The code of a wire move (None: a play or an extension naming no card, or a card not of the 32-card
    deck, which is never legal: a move made in process is not validated as a posted one is)."""
    kind = move.type
    if kind is PLAY_TYPE or kind is EXTEND_TYPE:
        index = CARD_INDEX.get(move.card)  # type: ignore[arg-type]  # (None is no key)
        if index is None:
            return None
        return index if kind is PLAY_TYPE else EXTEND + index
    return END_TRICK if kind is END_TRICK_TYPE else NEXT_DEAL


def write_move(
    state: SedmiceState, before: SedmicePosition, code: int, after: SedmicePosition
) -> tuple[SedmiceState, list[SedmiceEvent]]:
    """The wire state and the events of move ``code`` of the seat to act from ``before`` (the position of
    ``state``) to ``after``, inside a deal: the state's fields with those the move changed written anew.

    A played or extended card leaves its seat's hand as the state lists it (the cards keep their order)
    and joins the trick; a trick taken (``end_trick``, or the last card of a round that empties every
    hand) is reported with its cards, each card drawn in the refill, and the deal's end and the match's
    when it ended them."""
    player: int = before.turn  # type: ignore[assignment]  # (a seat is to act in a deal)
    events: list[SedmiceEvent] = []
    trick = state.trick
    hands = state.hands
    if code < END_TRICK:
        card = PIQUET_DECK[code % EXTEND]
        hands = list(hands)
        held = hands[player] = list(hands[player])
        held.remove(card)
        if code >= EXTEND:
            trick = [*trick, [card]]
            events.append(EXTENDED[player][card])
        elif not trick:
            trick = [[card]]
            events.append(PLAYED[player][True][card])
        else:
            trick = [*trick[:-1], [*trick[-1], card]]
            events.append(PLAYED[player][before.answering >> code & 1][card])
        if after.played:  # the trick goes on
            return updated_from(state, {"hands": hands, "trick": trick}), events
    # the trick was taken: the taker's side gets its cards, and the hands are refilled from the stock
    players = len(hands)
    taker = after.leader
    side = taker % 2
    cards = [c for round_ in trick for c in round_]
    taken = list(state.taken)
    taken[side] = [*taken[side], *cards]
    events.append(
        updated(
            _TRICK_TAKEN,
            player=taker,
            side=side,
            cards=cards,
            rounds=len(trick),
            points=10 * len(_POINT_NAMES.intersection(cards)),
        )
    )
    stock = state.stock
    drawn = len(stock) - len(after.stock)
    events += [DREW[(taker + index) % players][card] for index, card in enumerate(stock[:drawn])]
    changes: dict[str, object] = {
        "hands": [card_names(hand) for hand in after.hands],
        "stock": stock[drawn:],
        "trick": [],
        "taken": taken,
        "tricks": list(after.tricks),
        "leader": taker,
    }
    if after.phase is not PLAY_PHASE:  # the deal is over
        match = after.match
        deal = wire_deal(match.finished[-1])
        changes["deals"] = [*state.deals, deal]
        changes["phase"] = after.phase
        events.append(updated(_DEAL_ENDED, player=taker, side=deal.side, deal=deal))
        if after.phase is MATCH_OVER_PHASE:
            winners = list(range(deal.side, players, 2))
            events.append(_event(SedmiceEventType.match_ended, side=deal.side, winners=winners))
    return updated_from(state, changes), events
