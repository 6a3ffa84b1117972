"""My Ship Sails (RULINGS §4, text 003): collect seven cards of one suit by passing cards left.

Four to seven players get seven cards each, dealt one at a time clockwise from the dealer's left; the
rest of the deck is unused for the whole deal. The deal runs in **steps**. In a step every seat chooses
in secret: ``pass`` one of its cards, or ``declare`` (legal only with all seven cards of one suit, which
includes a dealt one-suit hand in the first step). Choices arrive one seat at a time: ``to_act`` lists
the seats that have not chosen yet, and a choice is recorded in ``pending`` until the last seat has
chosen. Then the step resolves: if anybody declared, the deal ends and every declarer of that step
scores one win; otherwise every chosen card moves one seat left at once (an *exchange*). Five deals make
a match, the dealer moving one seat left for each; the most wins takes the match, ties shared.

Decisions where the rulings and the text are silent (the README refers here):

- **A choice is final.** A seat that has chosen leaves ``to_act``; a second choice before the step
  resolves is refused as not that seat's turn (``move/not-your-turn``, HTTP 409). The text has the
  outgoing card laid face down for the neighbour and wants results independent of the speed of hands;
  final choices make the outcome independent of the order in which choices arrive, and a seat cannot
  wait to see who has chosen and then revise.
- A seat with a one-suit hand may still pass instead of declaring (without ``auto_declare``).
- ``auto_declare``: right after the deal and right after each exchange, every one-suit hand declares
  automatically. The deal then ends at once, without asking the other seats: nobody else could declare
  in that step and passed cards do not move when somebody declares, so their choices could not matter.
  With ``auto_declare``, ``declare`` is therefore never a move a client sends.
- ``max_exchanges``: when the exchange of that number resolves, the deal ends with no winner, so a hand
  completed by the last exchange cannot be declared by hand. With ``auto_declare`` such a hand still
  declares, since the automatic declaration is part of the exchange that completed it.
- A finished deal goes to phase ``deal_over`` with the final hands still in the state; the next dealer
  (left of the last) starts the next deal with ``next_deal``, optionally naming the exact deck order.
  After the fifth deal the phase is ``match_over`` and nobody is to act.
- The text has the declarer show the hand: the ``declared`` event carries it. Deal records keep only
  the winners, so that views of later deals never repeat cards that may now lie in other hands.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from sevens_rules.engine.cards import FULL_DECK, deal_round_robin
from sevens_rules.engine.game import best_seats
from sevens_rules.engine.match import DealSetup
from sevens_rules.engine.models import event_of, updated
from sevens_rules.engine.my_ship_sails_checks import (
    CHOICE_PASS,
    HAND_SIZE,
    MATCH_OVER,
    STEP,
    MyShipSailsChecks,
)
from sevens_rules.engine.my_ship_sails_checks import (
    one_suit as one_suit,  # (named here too: the rules' readers and tests ask it of this module)
)
from sevens_rules.schema.common import INT32_MAX, MAX_SEATS, GameModels, model_json
from sevens_rules.schema.my_ship_sails import (
    DEALS_PER_MATCH,
    MyShipSailsChoice,
    MyShipSailsChoiceType,
    MyShipSailsDeal,
    MyShipSailsEvent,
    MyShipSailsEventType,
    MyShipSailsMove,
    MyShipSailsMoveType,
    MyShipSailsOptions,
    MyShipSailsPhase,
    MyShipSailsScore,
    MyShipSailsState,
    MyShipSailsView,
)

PASS = MyShipSailsMoveType("pass")
DECLARE = MyShipSailsMoveType.declare
NEXT_DEAL = MyShipSailsMoveType.next_deal
CHOICE_DECLARE = MyShipSailsChoiceType.declare
DEAL_OVER = MyShipSailsPhase.deal_over

_CARD_ORDER = {c: i for i, c in enumerate(FULL_DECK)}
# Moves and choices are frozen, so one instance of each can be shared by every list that holds it;
# building them once keeps listing moves cheap (pydantic construction dominates otherwise).
_PASS_MOVES = [
    {c: MyShipSailsMove(type=PASS, player=seat, card=c) for c in FULL_DECK} for seat in range(MAX_SEATS)
]
_DECLARE_MOVES = [MyShipSailsMove(type=DECLARE, player=seat) for seat in range(MAX_SEATS)]
_NEXT_DEAL_MOVES = [MyShipSailsMove(type=NEXT_DEAL, player=seat) for seat in range(MAX_SEATS)]
_PASS_CHOICES = {c: MyShipSailsChoice(type=CHOICE_PASS, card=c) for c in FULL_DECK}
_DECLARE_CHOICE = MyShipSailsChoice(type=CHOICE_DECLARE)
# A pending choice's JSON length tells a pass from a declaration (its card is as long as "null", its type
# is not): a sealed token pads each one to the longest, so that its length shows only who has chosen.
_DECLARE_LENGTH = len(model_json(_DECLARE_CHOICE))
_PASS_LENGTH = len(model_json(_PASS_CHOICES[FULL_DECK[0]]))
_LONGEST_CHOICE = max(_DECLARE_LENGTH, _PASS_LENGTH)


_event = event_of(MyShipSailsEvent, MyShipSailsEventType)


_CHOSEN_EVENTS = [
    MyShipSailsEvent(type=MyShipSailsEventType.chosen, player=seat) for seat in range(MAX_SEATS)
]
"""The ``chosen`` event of each seat (every move reports one)."""


_EXCHANGED_EVENT = MyShipSailsEvent(type=MyShipSailsEventType.exchanged, exchange=1)
"""A validated ``exchanged`` event, copied with each exchange's number (as
:func:`~sevens_rules.engine.game.updated` copies states): the number grows through a deal, and
:func:`~sevens_rules.engine.game.listed` validates afresh every number it has not made yet (each one, in a
long deal)."""


@cache
def _received_event(seat: int, card: str, giver: int) -> MyShipSailsEvent:
    """The ``received`` event of ``seat`` getting ``card`` from ``giver``, made once and then shared (every
    exchange reports one per seat; the event is frozen)."""
    return MyShipSailsEvent(type=MyShipSailsEventType.received, player=seat, card=card, from_player=giver)


def _in_deck_order(cards: Sequence[str]) -> list[str]:
    # sort_cards would build its order table again at every call (five calls a deal)
    return sorted(cards, key=_CARD_ORDER.__getitem__)


@lru_cache(maxsize=4096)
def _seat_moves(hand: tuple[str, ...], seat: int) -> tuple[MyShipSailsMove, ...]:
    """The moves of ``seat``, to choose in a step with ``hand``: pass any card, in hand order, then
    declare when the hand is one suit.

    A function of its arguments' values alone, remembered (bounded; the moves are frozen and shared):
    every move of a step lists again the moves of every seat still to choose, with the same hands."""
    passes = _PASS_MOVES[seat]
    if one_suit(hand):
        return (*(passes[c] for c in hand), _DECLARE_MOVES[seat])
    return tuple(passes[c] for c in hand)


def _is_legal_choice(
    move_type: MyShipSailsMoveType, card: str | None, deck: list[str] | None, hand: Sequence[str]
) -> bool:
    """Whether a seat that has not chosen in this step, holding ``hand``, may make the move of this type,
    card and deck (not ``next_deal``): pass a card of its hand, or declare a one-suit hand."""
    if deck is not None:
        return False
    if move_type == PASS:
        return card in hand
    return card is None and one_suit(hand)


class MyShipSails(MyShipSailsChecks):
    """My Ship Sails: simultaneous steps of passing one card left until someone holds one suit."""

    id = "my-ship-sails"
    name = "My Ship Sails"
    min_players = 4
    max_players = 7
    simultaneous = True
    hidden_piles = ("unused",)
    models = GameModels(
        MyShipSailsOptions,
        MyShipSailsState,
        MyShipSailsMove,
        MyShipSailsEvent,
        MyShipSailsView,
        MyShipSailsScore,
    )

    # ---- deal ------------------------------------------------------------------------------------

    def deal(
        self, setup: DealSetup[MyShipSailsOptions, MyShipSailsState]
    ) -> tuple[MyShipSailsState, list[MyShipSailsEvent]]:
        """Deal seven each from the dealer's left; with auto_declare a dealt one-suit hand ends the deal."""
        players, options, dealer, deck = setup.players, setup.options, setup.dealer, setup.deck
        cards = (
            list(deck) if deck is not None else setup.seeding.shuffled(FULL_DECK, self.id, setup.deal_number)
        )
        dealt = deal_round_robin(cards, players, (dealer + 1) % players, [HAND_SIZE] * players)
        state = MyShipSailsState(
            game="my-ship-sails",
            options=options,
            dealer=dealer,
            deal_number=setup.deal_number,
            **setup.seeding.state_fields(),
            phase=STEP,
            hands=[_in_deck_order(h) for h in dealt],
            unused=_in_deck_order(cards[HAND_SIZE * players :]),
            pending=[None] * players,
            exchanges=0,
            deals=setup.deals,
        )
        events = [_event(MyShipSailsEventType.deal_started, player=dealer)]
        if options.auto_declare:
            return self._auto_declare(state, events)
        return state, events

    def next_deal_move(self, player: int, deck: list[str] | None = None) -> MyShipSailsMove:
        if deck is None:
            return _NEXT_DEAL_MOVES[player]
        return MyShipSailsMove(type=NEXT_DEAL, player=player, deck=deck)

    # ---- to act and legal moves ------------------------------------------------------------------

    def to_act(self, state: MyShipSailsState) -> list[int]:
        if state.phase is STEP:
            return [seat for seat, choice in enumerate(state.pending) if choice is None]
        if state.phase is DEAL_OVER:
            return [(state.dealer + 1) % len(state.hands)]
        return []

    def deal_moves(self, state: MyShipSailsState, player: int) -> list[MyShipSailsMove]:
        if state.phase is not STEP or state.pending[player] is not None:
            return []
        return list(_seat_moves(tuple(state.hands[player]), player))

    def is_legal_in_deal(self, state: MyShipSailsState, move: MyShipSailsMove) -> bool:
        if state.phase is not STEP:
            return False
        player = move.player
        if state.pending[player] is not None:
            return False
        return _is_legal_choice(move.type, move.card, move.deck, state.hands[player])

    def not_to_act(self, state: MyShipSailsState, player: int, seats: list[int]) -> tuple[str, str]:
        """A seat that has chosen in this step is told so: its choice is final until the step resolves."""
        if state.phase is STEP and state.pending[player] is not None:
            return (
                f"Seat {player} has already chosen in this step; a choice is final until the step "
                f"resolves. Still to choose: {', '.join(map(str, seats))}.",
                "this seat has already chosen in this step",
            )
        return super().not_to_act(state, player, seats)

    # ---- resolve ---------------------------------------------------------------------------------

    def resolve_in_deal(
        self, state: MyShipSailsState, move: MyShipSailsMove
    ) -> tuple[MyShipSailsState, list[MyShipSailsEvent]]:
        return self._choose(state, move.player, move.type, move.card, state.pending)

    def _choose(
        self,
        state: MyShipSailsState,
        player: int,
        move_type: MyShipSailsMoveType,
        card: str | None,
        pending: list[MyShipSailsChoice | None],
    ) -> tuple[MyShipSailsState, list[MyShipSailsEvent]]:
        """:meth:`resolve_in_deal` of a legal choice of ``player`` (its type and card, and the state's
        pending choices, as the caller read them): recorded, and the step resolved when it was
        the last."""
        pending = list(pending)
        pending[player] = _DECLARE_CHOICE if move_type == DECLARE else _PASS_CHOICES[card or ""]
        events = [_CHOSEN_EVENTS[player]]
        if any(choice is None for choice in pending):
            return updated(state, pending=pending), events
        return self._resolve_step(state, pending, events)

    def _auto_declare(
        self, state: MyShipSailsState, events: list[MyShipSailsEvent]
    ) -> tuple[MyShipSailsState, list[MyShipSailsEvent]]:
        """With auto_declare: if any hand is one suit, those seats declare and the deal ends now."""
        declarers = [seat for seat, hand in enumerate(state.hands) if one_suit(hand)]
        if not declarers:
            return state, events
        return self._end_deal(state, declarers, auto=True, events=events)

    def _resolve_step(
        self,
        state: MyShipSailsState,
        pending: list[MyShipSailsChoice | None],
        events: list[MyShipSailsEvent],
    ) -> tuple[MyShipSailsState, list[MyShipSailsEvent]]:
        """Every seat has chosen: declarations end the deal, otherwise all chosen cards move left at once."""
        declarers = [
            seat for seat, choice in enumerate(pending) if choice is not None and choice.card is None
        ]
        if declarers:
            return self._end_deal(state, declarers, auto=False, events=events)
        state_hands = state.hands
        n = len(state_hands)
        # every choice is a pass here (no declarer), so every card is set
        passed = [choice.card or "" for choice in pending if choice is not None]
        hands = []
        for seat, hand in enumerate(state_hands):
            kept = [c for c in hand if c != passed[seat]]
            kept.append(passed[seat - 1])  # seat - 1 is the right-hand neighbour (-1 wraps to n - 1)
            kept.sort(key=_CARD_ORDER.__getitem__)
            hands.append(kept)
        exchanges = state.exchanges + 1
        events.append(updated(_EXCHANGED_EVENT, exchange=exchanges))
        events += [_received_event(seat, passed[seat - 1], (seat - 1) % n) for seat in range(n)]
        after = updated(state, hands=hands, pending=[None] * n, exchanges=exchanges)
        if state.options.auto_declare:
            after, events = self._auto_declare(after, events)
            if after.phase is not STEP:
                return after, events
        limit = state.options.max_exchanges
        if (limit is not None and exchanges >= limit) or exchanges >= INT32_MAX:
            # the hard stop at 2**31 - 1 keeps the counter a 32-bit integer; unreachable in practice
            return self._end_deal(after, [], auto=False, events=events)
        return after, events

    def _end_deal(
        self, state: MyShipSailsState, declarers: list[int], auto: bool, events: list[MyShipSailsEvent]
    ) -> tuple[MyShipSailsState, list[MyShipSailsEvent]]:
        n = len(state.hands)
        for seat in declarers:
            events.append(
                _event(MyShipSailsEventType.declared, player=seat, cards=state.hands[seat], auto=auto)
            )
        deal = MyShipSailsDeal(
            number=state.deal_number,
            dealer=state.dealer,
            exchanges=state.exchanges,
            winners=declarers,
        )
        deals = [*state.deals, deal]
        events.append(_event(MyShipSailsEventType.deal_ended, deal=deal))
        phase = DEAL_OVER
        if state.deal_number >= DEALS_PER_MATCH:
            phase = MATCH_OVER
            events.append(_event(MyShipSailsEventType.match_ended, winners=best_seats(_totals(deals, n))))
        return updated(state, deals=deals, phase=phase, pending=[None] * n), events

    # ---- score and view --------------------------------------------------------------------------

    def score(self, state: MyShipSailsState) -> MyShipSailsScore:
        return MyShipSailsScore(totals=_totals(state.deals, len(state.hands)), deals=state.deals)

    def seat_totals(self, state: MyShipSailsState) -> list[int]:
        return _totals(state.deals, len(state.hands))

    def hidden_length_slack(self, state: MyShipSailsState) -> int:
        """Spaces that make the state's JSON as long whatever the pending choices are (a pass and a
        declaration are written with lengths of their own; whether a seat has chosen is public)."""
        return sum(
            _LONGEST_CHOICE - (_DECLARE_LENGTH if choice.type == CHOICE_DECLARE else _PASS_LENGTH)
            for choice in state.pending
            if choice is not None
        )

    def event_for_seat(self, event: MyShipSailsEvent, seat: int) -> MyShipSailsEvent | None:
        """A passed card (``received``) is seen by its giver and its receiver only."""
        if event.type is MyShipSailsEventType.received and seat not in (event.player, event.from_player):
            return None
        return event

    def seat_view(self, state: MyShipSailsState, player: int) -> dict[str, object]:
        return dict(
            hand=state.hands[player],
            choice=state.pending[player],
            chosen=[choice is not None for choice in state.pending],
            unused_size=len(state.unused),
            exchanges=state.exchanges,
        )


def _totals(deals: Sequence[MyShipSailsDeal], players: int) -> list[int]:
    totals = [0] * players
    for deal in deals:
        for seat in deal.winners:
            totals[seat] += 1
    return totals
