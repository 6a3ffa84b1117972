"""My Ship Sails (RULINGS §4, text 003): collect seven cards of one suit by passing cards left.

The rules run on :class:`~sevens_rules.engine.my_ship_sails_position.MyShipSailsPosition` (card bitmasks,
choices as ints); the wire hooks at the end of the class read a state's position once, ask the rules and
write the state back once (:mod:`~sevens_rules.engine.my_ship_sails_wire`: the wire moves and events).

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

from ..schema.common import GameModels, Outcome, model_json
from ..schema.my_ship_sails import (
    DEALS_PER_MATCH,
    MyShipSailsChoiceType,
    MyShipSailsEvent,
    MyShipSailsEventType,
    MyShipSailsMove,
    MyShipSailsOptions,
    MyShipSailsScore,
    MyShipSailsState,
    MyShipSailsView,
)
from ..schema.scalars import INT32_MAX, MAX_SEATS
from .cards import FULL_DECK
from .game import standings
from .match import DealSetup
from .models import same_model
from .my_ship_sails_checks import MyShipSailsChecks
from .my_ship_sails_checks import (
    one_suit as one_suit,  # (named here too: the rules' readers and tests ask it of this module)
)
from .my_ship_sails_position import (
    CHOICE_MASK,
    DEAL_OVER,
    DECLARE,
    DECLARE_CHOICE,
    MATCH_OVER,
    NEXT_DEAL,
    PASS_CHOICES,
    SEAT_SHIFT,
    STEP,
    DealResult,
    MyShipSailsMatch,
    MyShipSailsPosition,
    deal_cards,
    longest_suit,
    read_position,
    seat_codes,
    wins,
    wire_deal,
    write_move,
    write_state,
)
from .my_ship_sails_position import one_suit as one_suit_cards
from .my_ship_sails_wire import (
    NEXT_DEALS,
    WIRE_MOVES,
    declared_events,
    ended_events,
    move_code,
    move_events,
    seat_moves,
)
from .positions import PositionWire

_DEAL_STARTED = [
    MyShipSailsEvent(type=MyShipSailsEventType.deal_started, player=seat) for seat in range(MAX_SEATS)
]
"""``_DEAL_STARTED[seat]``: the event of ``seat`` dealing."""

# A pending choice's JSON length tells a pass from a declaration (its card is as long as "null", its type
# is not): a sealed token pads each one to the longest, so that its length shows only who has chosen.
_DECLARE_LENGTH = len(model_json(DECLARE_CHOICE))
_PASS_LENGTH = len(model_json(PASS_CHOICES[0]))
_LONGEST_CHOICE = max(_DECLARE_LENGTH, _PASS_LENGTH)
CHOICE_DECLARE = MyShipSailsChoiceType.declare

_WAITING = [
    [[seat for seat in range(n) if not chosen >> seat & 1] for chosen in range(1 << n)]
    for n in range(MAX_SEATS)
]
"""``_WAITING[players][chosen]``: the seats still to choose when the seats of ``chosen`` (a bit each) have."""
_SEATS_OF = [[seat for seat in range(MAX_SEATS) if seats >> seat & 1] for seats in range(1 << MAX_SEATS)]
"""``_SEATS_OF[seats]``: the seats of a set of seats (a bit each), in seat order."""


def _seat_codes(position: MyShipSailsPosition, seat: int) -> list[int]:
    """:func:`~sevens_rules.engine.my_ship_sails_position.seat_codes` of ``seat`` in ``position``,
    remembered by the positions of its step (a list the caller does not change)."""
    codes = position.codes[seat]
    if codes is None:
        codes = position.codes[seat] = seat_codes(position.hands[seat], seat)
    return codes


class MyShipSails(PositionWire[MyShipSailsPosition], MyShipSailsChecks):
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
    wire_moves = WIRE_MOVES
    next_deals = NEXT_DEALS
    match_type = MyShipSailsMatch
    move_code = staticmethod(move_code)

    # ---- deal ------------------------------------------------------------------------------------

    def deal_position(self, match: MyShipSailsMatch, deck: list[str] | None) -> MyShipSailsPosition:
        """The deal of ``match`` (just made, its cards not dealt still to set), from ``deck`` (top first)
        or from the seeded shuffle of the deal: seven cards each from the dealer's left, the rest unused;
        with auto_declare a dealt one-suit hand declares and ends the deal at once."""
        cards = deck if deck is not None else match.seeding.shuffled(FULL_DECK, self.id, match.deal_number)
        hands, match.unused = deal_cards(cards, match.players, match.dealer)
        position = MyShipSailsPosition(hands, 0, 0, 0, 0, STEP, match)
        if match.options.auto_declare:
            declarers = [seat for seat, hand in enumerate(hands) if one_suit_cards(hand)]
            if declarers:
                return _end_deal(position, hands, 0, declarers)
        return position

    # ---- to act and legal moves ------------------------------------------------------------------

    def position_to_act(self, position: MyShipSailsPosition) -> list[int]:
        """The seats still to choose in a step, the next dealer between deals, nobody once the match is
        over."""
        phase = position.phase
        match = position.match
        if phase is STEP:
            return list(_WAITING[match.players][position.chosen])
        if phase is DEAL_OVER:
            return [(match.dealer + 1) % match.players]
        return []

    def position_moves(self, position: MyShipSailsPosition, seat: int) -> list[int]:
        """The move codes of ``seat``, a seat to act: in a step, pass each card of its hand (lowest
        first), then declare when the hand is one suit; ``next_deal`` between deals."""
        if position.phase is STEP:
            codes = position.codes[seat]  # (_seat_codes without the call: a playout asks at each move)
            if codes is None:
                codes = position.codes[seat] = seat_codes(position.hands[seat], seat)
            return codes
        return [NEXT_DEAL]

    def position_moves_to_act(self, position: MyShipSailsPosition) -> list[int]:
        """The move codes of every seat to act, seat by seat (the position's own list, kept for the next
        question: not to be changed)."""
        listed = position.listed
        if listed is None:
            phase = position.phase
            if phase is STEP:
                listed = []
                for seat in _WAITING[position.match.players][position.chosen]:
                    listed += _seat_codes(position, seat)
            else:
                listed = [NEXT_DEAL] if phase is DEAL_OVER else []
            position.listed = listed
        return listed

    # ---- resolve ---------------------------------------------------------------------------------

    def position_apply(self, position: MyShipSailsPosition, move: int) -> MyShipSailsPosition:
        """The position after ``move``, a move code :meth:`position_moves` listed for a seat to act: the
        choice recorded, and the step resolved when it was the last (declarations end the deal, otherwise
        every chosen card moves one seat left at once); or the next deal dealt."""
        match = position.match
        if move == NEXT_DEAL:
            return self.deal_position(match.following((match.dealer + 1) % match.players), None)
        seat = move >> SEAT_SHIFT
        choice = move & CHOICE_MASK
        chosen = position.chosen | 1 << seat
        declared, passed = position.declared, position.passed
        if choice == DECLARE:
            declared |= 1 << seat
        else:
            passed |= 1 << choice
        if chosen != match.all_chosen:  # seats still to choose: the choice waits, hidden
            return MyShipSailsPosition(
                position.hands,
                chosen,
                declared,
                passed,
                position.exchanges,
                STEP,
                match,
                position.hands_canonical,
                position.codes,
                position.wire_lists,
            )
        if declared:
            return _end_deal(position, position.hands, position.exchanges, _SEATS_OF[declared])
        # every chosen card moves one seat left: seat s gives its card and takes the one of seat s - 1
        # (-1 wraps to the last seat); a hand's card among the passed ones is the card it passes
        given = [hand & passed for hand in position.hands]
        hands = tuple([hand ^ given[seat] | given[seat - 1] for seat, hand in enumerate(position.hands)])
        exchanges = position.exchanges + 1
        options = match.options
        if options.auto_declare:
            declarers = [seat for seat, hand in enumerate(hands) if one_suit_cards(hand)]
            if declarers:
                return _end_deal(position, hands, exchanges, declarers)
        limit = options.max_exchanges
        if (limit is not None and exchanges >= limit) or exchanges >= INT32_MAX:
            # the hard stop at 2**31 - 1 keeps the counter a 32-bit integer; unreachable in practice
            return _end_deal(position, hands, exchanges, [])
        return MyShipSailsPosition(hands, 0, 0, 0, exchanges, STEP, match)

    def position_outcome(self, position: MyShipSailsPosition) -> Outcome:
        """Whether the match is over, its winners (the most wins) and each seat's wins and place."""
        totals = position.match.totals
        over = position.phase is MATCH_OVER
        winners = self.match_winners(position, totals) if over else []  # type: ignore[arg-type]
        return standings(totals, winners, over, self.lowest_total_wins)

    def position_totals(self, position: MyShipSailsPosition) -> list[int]:
        """Each seat's wins over the finished deals."""
        return list(position.match.totals)

    def position_progress(self, position: MyShipSailsPosition) -> list[int]:
        """Each seat's most cards of one suit (seven wins): how far it is toward winning the deal."""
        return [longest_suit(hand) for hand in position.hands]

    # ---- the wire side: a state's position, and the state of a position --------------------------

    def read(self, state: MyShipSailsState) -> MyShipSailsPosition:
        return read_position(state)

    def state_of(self, position: MyShipSailsPosition) -> MyShipSailsState:
        """The wire state of ``position``, kept with its position as the last state."""
        state = write_state(position)
        self.remember(state, position)
        return state

    def to_act(self, state: MyShipSailsState) -> list[int]:
        position = self.position(state)
        if position.phase is STEP:
            return list(_WAITING[position.match.players][position.chosen])
        return self.position_to_act(position)

    def deal(
        self, setup: DealSetup[MyShipSailsOptions, MyShipSailsState]
    ) -> tuple[MyShipSailsState, list[MyShipSailsEvent]]:
        match, _ = self.deal_match(setup)
        position = self.deal_position(match, None if setup.deck is None else list(setup.deck))
        wire_deals = list(setup.deals)
        recorded = position.match.deals
        ended = len(recorded) > len(wire_deals)  # auto_declare ended the deal at once
        if ended:
            wire_deals.append(wire_deal(recorded[-1]))
        state = write_state(position, wire_deals)
        self.remember(state, position)
        events = [_DEAL_STARTED[setup.dealer]]
        if ended:
            events += declared_events(state.hands, wire_deals[-1].winners, True)
            events = ended_events(events, wire_deals[-1], position)
        return state, events

    def acting_moves(self, state: MyShipSailsState, player: int) -> list[MyShipSailsMove]:
        """``next_deal`` between deals, else the seat's choices (:meth:`deal_moves`): a list kept with the
        state's position and shared by the positions of its step (the caller does not change it)."""
        position = self.position(state)
        if position.phase is not STEP:
            return [NEXT_DEALS[player]]
        if position.chosen >> player & 1:  # (not a seat to act: nothing to remember for the step)
            return []
        lists = position.wire_lists
        if lists is None:
            lists = position.wire_lists = [None] * position.match.players
        moves = lists[player]
        if moves is None:
            moves = lists[player] = self.deal_moves(state, player)
        return moves

    def deal_moves(self, state: MyShipSailsState, player: int) -> list[MyShipSailsMove]:
        position = self.position(state)
        if position.phase is not STEP or position.chosen >> player & 1:
            return []
        if position.hands_canonical:  # the wire moves of the rules' codes, in their order
            wire = WIRE_MOVES[player]
            return [wire[code] for code in _seat_codes(position, player)]
        # a posted hand, in any order: its moves remembered by hand (each request posts its state afresh)
        return list(seat_moves(tuple(state.hands[player]), player))

    def listed_code(self, position: MyShipSailsPosition, move: MyShipSailsMove) -> int | None:
        """The code of ``move`` when it is a legal choice in the step of ``position``: its seat, one of the
        table, has not chosen (every seat still to choose acts, so no single turn is compared), its code
        is listed for the seat, and it equals the listed move of that code (a pass naming a deck, or a
        declaration naming a card, does not); None otherwise."""
        player = move.player
        if position.phase is not STEP or not 0 <= player < position.match.players:
            return None
        if position.chosen >> player & 1:
            return None
        code = move_code(move)
        # (a code of None is in no list: a pass naming no card of the deck is never legal)
        if code in _seat_codes(position, player) and same_model(WIRE_MOVES[player][code], move):
            return code
        return None

    def not_to_act(self, state: MyShipSailsState, player: int, seats: list[int]) -> tuple[str, str]:
        """A seat that has chosen in this step is told so: its choice is final until the step resolves."""
        if state.phase is STEP and state.pending[player] is not None:
            return (
                f"Seat {player} has already chosen in this step; a choice is final until the step "
                f"resolves. Still to choose: {', '.join(map(str, seats))}.",
                "this seat has already chosen in this step",
            )
        return super().not_to_act(state, player, seats)

    def write_step(
        self, state: MyShipSailsState, position: MyShipSailsPosition, move: int, after: MyShipSailsPosition
    ) -> tuple[MyShipSailsState, list[MyShipSailsEvent]]:
        """The wire state of ``after``, which the choice ``move`` made of ``state``'s ``position`` (only
        what the move changed written anew), and the move's events; the state is remembered with
        ``after``."""
        written = write_move(after, state, position, move)
        self.remember(written, after)
        return written, move_events(state, move, position, after, written)

    # ---- score and view --------------------------------------------------------------------------

    def score(self, state: MyShipSailsState) -> MyShipSailsScore:
        return MyShipSailsScore(totals=self.seat_totals(state), deals=state.deals)

    def seat_totals(self, state: MyShipSailsState) -> list[int]:
        totals = [0] * len(state.hands)
        for deal in state.deals:
            for seat in deal.winners:
                totals[seat] += 1
        return totals

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


def _end_deal(
    position: MyShipSailsPosition, hands: tuple[int, ...], exchanges: int, winners: list[int]
) -> MyShipSailsPosition:
    """The position at the end of ``position``'s deal with these hands and exchanges: each of ``winners``
    (the declarers, in seat order) scores a win; the match is over after the fifth deal."""
    match = position.match
    deal = DealResult(match.deal_number, match.dealer, exchanges, tuple(winners))
    recorded = match.recorded(deal, wins(winners))
    phase = MATCH_OVER if match.deal_number >= DEALS_PER_MATCH else DEAL_OVER
    canonical = position.hands_canonical or hands is not position.hands  # (an exchange writes them anew)
    return MyShipSailsPosition(hands, 0, 0, 0, exchanges, phase, recorded, canonical)
