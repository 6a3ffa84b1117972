"""Sevens (RULINGS §2, text 001): four players, all 7s on the table, three passes a deal, busting.

The whole deck is dealt, 13 cards each, one at a time from the dealer's left. Every 7 then goes from its
holder's hand to the table, opening one row per suit; the player who held 7♦ moves first and play goes
left, skipping players who are out or bust. A legal card lies one rank outside the unbroken run through
its suit's 7 (the Ace below the 2, the King above the Queen, no Ace-King link). On a turn a player plays
a legal card or passes; every pass counts. With fewer than 3 passes used in the deal a player may pass
even holding a legal card; with 3 used a player holding a legal card must play, and a player holding
none passes a fourth time and is bust: their cards go to their places on the table. Players take places
1, 2, ... as they go out; when only one player is neither out nor bust, that player takes the next place
and the deal ends at once; bust players come last, the first to bust last of all. Places score 3, 2, 1,
0; after 5 deals the highest total wins, ties shared.

Decisions where the rulings and the text are silent:

- **Laid cards and the run.** The text lays a bust player's cards "in their places" (*nos lugares
  delas*) and lets the others play "only next to the ends of a row". A bust happens only when the player
  holds no card at either end of any run (holding one, they must play it), so no laid card is ever next
  to a run when laid: there is always a gap. The laid card creates no end (the card beside it on the far
  side is not playable); the play that fills the gap extends the run through it and through every laid
  card chained to it, and the row's ends then lie beyond them. Were a laid card ever next to the run, it
  would have no gap to fill and be part of the run at once; the state can express only that reading:
  each suit is shown as ``run`` (the unbroken run through the 7) and ``laid`` (cards lying apart), and a
  laid card next to the run is inconsistent.
- **The fourth pass.** ``passes`` counts the passes of the allowance (0-3); the fourth pass is the move
  ``pass`` itself, which is legal only with 3 passes used and no legal card. It is reported as a
  ``passed`` event with ``passes: 4`` followed by a ``bust`` event, and recorded by the seat's entry in
  ``bust`` (its ``passes`` stays 3).
- **The last player left** keeps the cards in hand: the deal is over, nothing more is played.
- **Events name joins**: a play that connects laid cards to a run lists them in ``joined``.
- **Option ``deals`` (default 5).** The rulings name no option for Sevens, but an options model without
  fields cannot become a GraphQL input type, so the match length (the text's 5 deals) is the option.
- The first dealer is seat 0 unless the new-match request names one; hands are kept in canonical order.
- A deal ends with phase ``deal_over``; the next dealer (left of the last) starts the next deal with a
  ``next_deal`` move, optionally naming the exact deck order. After the last deal the phase is
  ``match_over``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from sevens_rules.engine.cards import FULL_DECK, SUITS, deal_round_robin
from sevens_rules.engine.game import (
    best_seats,
    event_of,
    unvalidated,
    updated,
    updated_from,
)
from sevens_rules.engine.match import DEAL_OVER_PHASE, MATCH_OVER_PHASE, PLAY_PHASE, DealSetup
from sevens_rules.engine.sevens_checks import SevensChecks
from sevens_rules.engine.sevens_table import (
    _RANK,
    _RUN_ROWS,
    _RUN_WITH_END,
    _SEVEN,
    _SUIT_INDEX,
    CARDS_EACH,
    POINTS,
    _active,
    _is_playable_on,
    _playable_by_pairs,
    _playable_on,
    _row,
    _row_ranks,
    _totals,
    deal_places,
)
from sevens_rules.schema.common import GameModels
from sevens_rules.schema.sevens import (
    SEVENS_PASSES,
    SEVENS_PLAYERS,
    SevensDeal,
    SevensEvent,
    SevensEventType,
    SevensMove,
    SevensMoveType,
    SevensOptions,
    SevensScore,
    SevensState,
    SevensView,
)

_HAND_ORDER = {c: i + (len(FULL_DECK) if c[0] == "7" else 0) for i, c in enumerate(FULL_DECK)}
"""A dealt hand's sort key: canonical order, the 7s after every other card."""

PLAY = SevensMoveType.play
PASS = SevensMoveType("pass")
NEXT_DEAL = SevensMoveType.next_deal


_event = event_of(SevensEvent, SevensEventType)


# Moves and events made once per seat and card (both frozen, so shared by every list holding them).
_PLAY_MOVES = [
    {c: SevensMove(type=PLAY, player=seat, card=c) for c in FULL_DECK} for seat in range(SEVENS_PLAYERS)
]
_PASS_MOVES = [SevensMove(type=PASS, player=seat) for seat in range(SEVENS_PLAYERS)]
_PLAYED_EVENTS = [
    {c: SevensEvent(type=SevensEventType.played, player=seat, card=c, joined=None) for c in FULL_DECK}
    for seat in range(SEVENS_PLAYERS)
]
_PASSED_EVENTS = {
    (seat, used): SevensEvent(type=SevensEventType.passed, player=seat, passes=used)
    for seat in range(SEVENS_PLAYERS)
    for used in range(1, SEVENS_PASSES + 2)
}
"""The ``passed`` event by seat and passes used, this one included (1 to 3, and 4 for the bust)."""
_NEXT_DEAL_MOVES = [SevensMove(type=NEXT_DEAL, player=seat, deck=None) for seat in range(SEVENS_PLAYERS)]
"""Each seat's ``next_deal`` move without a deck, as :meth:`Sevens.next_deal_move` makes it."""
_DEAL_STARTED_EVENTS = [
    SevensEvent(type=SevensEventType.deal_started, player=seat) for seat in range(SEVENS_PLAYERS)
]
"""Each seat's ``deal_started`` event (as :func:`_event` makes it)."""
_DEAL_RECORD = SevensDeal(number=1, dealer=0, places=[1, 2, 3, 4], points=[3, 2, 1, 0])
"""A validated deal record, with every field set, copied with each finished deal's values."""
_DEAL_ENDED_EVENT = SevensEvent(type=SevensEventType.deal_ended, deal=_DEAL_RECORD)
"""A validated ``deal_ended`` event (as :func:`_event` makes it), copied with each finished deal's record."""
_BUST_EVENT = SevensEvent(type=SevensEventType.bust, player=0, cards=["AC"])
"""A validated ``bust`` event (as :func:`_event` makes it), copied with each bust's player and cards."""
_DEALT_TABLE = tuple(_RUN_ROWS[s, _SEVEN, _SEVEN] for s in SUITS)
"""The table of a fresh deal: the four 7s."""
_STATE_FIELDS = frozenset(SevensState.model_fields)
"""The fields of a state: a dealt state sets them all."""
_SEATS_LEFT_OF = [
    [(seat + k) % SEVENS_PLAYERS for k in range(1, SEVENS_PLAYERS + 1)] for seat in range(SEVENS_PLAYERS)
]
"""The seats in turn order after each seat, ending with the seat itself."""
_LEFT_OF = [seats[0] for seats in _SEATS_LEFT_OF]
"""The seat on the left of each seat: the next to act while nobody is out or bust (:func:`_turn_after`)."""


def playable(state: SevensState) -> set[str]:
    """Every card that may be played on the table now (whoever holds it)."""
    return _playable_on(state.table)


def _is_playable(state: SevensState, card: str) -> bool:
    """Whether ``card`` may be played on the table now: whether it is in :func:`playable`, read off the row
    of its suit alone (rows are in the order of ``SUITS``)."""
    return _is_playable_on(state.table, card)


def _plays(state: SevensState, player: int) -> list[str]:
    """The cards of ``player``'s hand that may be played now, in hand order."""
    ends = playable(state)
    return [c for c in state.hands[player] if c in ends]


def _may_pass(state: SevensState, player: int, has_play: bool | None = None) -> bool:
    """Whether ``player`` may pass: while passes remain even with a legal card; with none left only
    without one (that pass is the fourth, the bust). ``has_play``: whether the player holds a legal card
    (:func:`_plays`), when already known; otherwise it is found only when the passes are used up."""
    if state.passes[player] < SEVENS_PASSES:
        return True
    if has_play is None:
        ends = _playable_on(state.table)
        has_play = any(c in ends for c in state.hands[player])
    return not has_play


@lru_cache(maxsize=1024)
def _turn_after(player: int, out: tuple[int, ...], bust: tuple[int, ...]) -> tuple[bool, int]:
    """After ``player``'s move, with these seats out and bust: ``(True, survivor)`` when one seat is left
    neither out nor bust (the deal ends), else ``(False, seat)`` for the next such seat on the left.

    A function of its arguments' values alone, remembered (bounded): every move asks it, and a deal
    reaches only a few dozen combinations."""
    active = _active(out, bust)
    if len(active) == 1:
        return True, active[0]
    return False, next(seat for seat in _SEATS_LEFT_OF[player] if seat in active)


def _moves_on_turn(state: SevensState, player: int) -> list[SevensMove]:
    """The legal moves of ``player`` in play: a play of each card of :func:`_plays`, in hand order, then
    the pass if :func:`_may_pass` allows it."""
    moves_of_seat = _PLAY_MOVES[player]
    clubs_and_diamonds, hearts_and_spades = _playable_by_pairs(state.table)
    moves = [
        moves_of_seat[c]
        for c in state.hands[player]
        if c in clubs_and_diamonds or c in hearts_and_spades  # (in playable(state))
    ]
    if _may_pass(state, player, bool(moves)):
        moves.append(_PASS_MOVES[player])
    return moves


def _is_legal_on_turn(
    state: SevensState,
    player: int,
    move_type: SevensMoveType,
    card: str | None,
    deck: list[str] | None,
) -> bool:
    """Whether the move of ``player``, whose turn it is in play, is legal (its type, card and deck, as the
    caller read them): a card of the hand that is playable, or a pass that :func:`_may_pass` allows."""
    if deck is not None:
        return False
    if move_type == PLAY:
        return card is not None and card in state.hands[player] and _is_playable_on(state.table, card)
    return card is None and _may_pass(state, player)


def _bust_event(player: int, cards: list[str]) -> SevensEvent:
    """The ``bust`` event of ``player`` laying ``cards`` (the event's own list): a copy of a validated one
    (validating the event afresh, as :func:`_event` does for an event holding a list, was most of a bust)."""
    return updated(_BUST_EVENT, player=player, cards=cards)


class Sevens(SevensChecks):
    """Sevens with three passes a deal and busting, four players, a match of five deals."""

    id = "sevens"
    name = "Sevens"
    min_players = SEVENS_PLAYERS
    max_players = SEVENS_PLAYERS
    models = GameModels(SevensOptions, SevensState, SevensMove, SevensEvent, SevensView, SevensScore)

    # ---- deal ------------------------------------------------------------------------------------

    def deal(self, setup: DealSetup[SevensOptions, SevensState]) -> tuple[SevensState, list[SevensEvent]]:
        dealer, deal_number, deck = setup.dealer, setup.deal_number, setup.deck
        cards = list(deck) if deck is not None else setup.seeding.shuffled(FULL_DECK, self.id, deal_number)
        dealt = deal_round_robin(cards, SEVENS_PLAYERS, (dealer + 1) % SEVENS_PLAYERS, [CARDS_EACH] * 4)
        # every 7 goes to the table at once; the 7♦ holder moves first
        first = next(seat for seat, hand in enumerate(dealt) if "7D" in hand)
        hands = [sorted(hand, key=_HAND_ORDER.__getitem__) for hand in dealt]
        for hand in hands:
            while hand and hand[-1][0] == "7":  # (sorted last of all: the 7s, which go to the table)
                hand.pop()
        # Built without validation, as updated() updates states: every field comes from a checked request
        # or state or is computed here, and validating them again would run on every deal; the test suite
        # checks that validation accepts the state and gives the same one, with every field set.
        # (unvalidated() rather than model_construct, which looks for defaults and aliases field by field)
        values = {
            "game": "sevens",
            "options": setup.options,
            "dealer": dealer,
            "deal_number": deal_number,
            **setup.seeding.state_fields(),  # seed, commitment, entropy
            "phase": PLAY_PHASE,
            "turn": first,
            "hands": hands,
            "table": list(_DEALT_TABLE),
            "passes": [0] * SEVENS_PLAYERS,
            "out": [],
            "bust": [],
            "deals": setup.deals,
        }
        # (a set of its own, as model_construct gives: pydantic's model_copy adds to a copy's set in place)
        return unvalidated(SevensState, values, set(_STATE_FIELDS)), [_DEAL_STARTED_EVENTS[dealer]]

    def next_deal_move(self, player: int, deck: list[str] | None = None) -> SevensMove:
        if deck is None and 0 <= player < SEVENS_PLAYERS:
            return _NEXT_DEAL_MOVES[player]  # (the move listed between deals, and the move usually played)
        return SevensMove(type=NEXT_DEAL, player=player, deck=deck)

    # ---- to act and legal moves ------------------------------------------------------------------

    def to_act(self, state: SevensState) -> list[int]:
        phase = state.phase
        if phase is PLAY_PHASE:
            turn = state.turn
            return [turn] if turn is not None else []
        if phase is DEAL_OVER_PHASE:
            return [(state.dealer + 1) % SEVENS_PLAYERS]
        return []

    def deal_moves(self, state: SevensState, player: int) -> list[SevensMove]:
        return _moves_on_turn(state, player)

    def is_legal_in_deal(self, state: SevensState, move: SevensMove) -> bool:
        # (in play, to_act is [turn], or nobody when turn is None)
        player = move.player
        if state.phase is not PLAY_PHASE or player != state.turn:
            return False
        return _is_legal_on_turn(state, player, move.type, move.card, move.deck)

    # ---- resolve ---------------------------------------------------------------------------------

    def resolve_in_deal(self, state: SevensState, move: SevensMove) -> tuple[SevensState, list[SevensEvent]]:
        return self._resolve_on_turn(state, move.player, move.type, move.card)

    def _resolve_on_turn(
        self,
        state: SevensState,
        player: int,
        move_type: SevensMoveType,
        card: str | None,
    ) -> tuple[SevensState, list[SevensEvent]]:
        """:meth:`resolve_in_deal` of a legal move of ``player`` (its type and card, as the caller read
        them)."""
        if move_type == PASS:
            passes = list(state.passes)
            used = passes[player] + 1
            events = [_PASSED_EVENTS[player, used]]
            if used <= SEVENS_PASSES:
                passes[player] = used
                return self._continue(state, player, events, {"passes": passes}, state.out, state.bust)
            return self._bust(state, player, events)
        assert card is not None
        hands = list(state.hands)
        # the hand without the card: a hand holds each card once (its check refuses a card twice)
        hand = hands[player] = list(hands[player])
        hand.remove(card)
        index = _SUIT_INDEX[card[1]]
        table = list(state.table)
        old = table[index]
        old_run = old.run
        # the usual play: a card at an end of a run with no laid cards, which it cannot join
        new = None if old.laid else _RUN_WITH_END.get((old_run[0], old_run[-1], card))
        if new is not None:
            events = [_PLAYED_EVENTS[player][card]]
        else:
            new = _row(card[1], [*_row_ranks(old), _RANK[card[0]]])
            joined = [c for c in new.run if c not in old_run and c != card]
            # the played event with its joined cards, if any: a copy of the validated event without
            # them (listed() cannot share an event holding a list, and would validate it afresh)
            played = _PLAYED_EVENTS[player][card]
            events = [updated(played, joined=joined) if joined else played]
        table[index] = new
        update: dict[str, object] = {"hands": hands, "table": table}
        out = state.out
        if not hand:
            out = update["out"] = [*out, player]
            events.append(_event(SevensEventType.went_out, player=player, place=len(out)))
        return self._continue(state, player, events, update, out, state.bust)

    def _bust(
        self, state: SevensState, player: int, events: list[SevensEvent]
    ) -> tuple[SevensState, list[SevensEvent]]:
        """The fourth pass: the player's cards go to their places on the table."""
        hands = list(state.hands)
        cards = hands[player]
        hands[player] = []
        # a row of a suit the player holds none of stays as it is: the rows of a state are laid out as _row
        # lays them out (its check, _row_issues, refuses any other row)
        suits = {c[1] for c in cards}
        table = [
            _row(suit, [*_row_ranks(row), *(_RANK[c[0]] for c in cards if c[1] == suit)])
            if (suit := row.run[0][1]) in suits
            else row
            for row in state.table
        ]
        events.append(_bust_event(player, list(cards)))
        bust = [*state.bust, player]
        update: dict[str, object] = {"hands": hands, "table": table, "bust": bust}
        return self._continue(state, player, events, update, state.out, bust)

    def _continue(
        self,
        state: SevensState,
        player: int,
        events: list[SevensEvent],
        update: dict[str, object],
        out: Sequence[int],
        bust: Sequence[int],
    ) -> tuple[SevensState, list[SevensEvent]]:
        """``state`` with ``update``, the turn given to the next active seat on
        the left, or the deal ended when one is left (``out`` and ``bust``: the seats out and bust after the
        move)."""
        if not out and not bust:
            # most moves of a deal: all four seats still play, the turn goes to the seat on the left
            update["turn"] = _LEFT_OF[player]
            return updated_from(state, update), events
        ended, seat = _turn_after(player, tuple(out), tuple(bust))
        if ended:
            return self._end_deal(updated_from(state, update), seat, events)
        update["turn"] = seat
        return updated_from(state, update), events

    def _end_deal(
        self, state: SevensState, survivor: int, events: list[SevensEvent]
    ) -> tuple[SevensState, list[SevensEvent]]:
        places = deal_places(state.out, state.bust, survivor)
        deal_number = state.deal_number
        # the record and its event: copies of validated ones holding the values computed here (as updated()
        # copies states), since validating them again was most of the cost of ending a deal
        deal = updated(
            _DEAL_RECORD,
            number=deal_number,
            dealer=state.dealer,
            places=places,
            points=[POINTS[p - 1] for p in places],
        )
        deals = [*state.deals, deal]
        events.append(updated(_DEAL_ENDED_EVENT, deal=deal))
        phase = DEAL_OVER_PHASE
        if deal_number >= state.options.deals:
            phase = MATCH_OVER_PHASE
            events.append(_event(SevensEventType.match_ended, winners=best_seats(_totals(deals))))
        return updated(state, deals=deals, phase=phase, turn=None), events

    # ---- score and view --------------------------------------------------------------------------

    def score(self, state: SevensState) -> SevensScore:
        return SevensScore(totals=self.seat_totals(state), deals=state.deals)

    def seat_totals(self, state: SevensState) -> list[int]:
        return _totals(state.deals)

    def seat_view(self, state: SevensState, player: int) -> dict[str, object]:
        return dict(
            turn=state.turn,
            hand=state.hands[player],
            table=state.table,
            passes=state.passes,
            out=state.out,
            bust=state.bust,
        )
