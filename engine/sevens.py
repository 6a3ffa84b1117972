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

from ..schema.common import GameModels, Outcome
from ..schema.sevens import (
    SEVENS_PASSES,
    SEVENS_PLAYERS,
    SevensEvent,
    SevensMove,
    SevensOptions,
    SevensScore,
    SevensState,
    SevensView,
)
from .card_sets import bits_of, card_names, card_set
from .cards import FULL_DECK, deal_round_robin
from .dealing import Seeding
from .game import standings
from .match import DEAL_OVER_PHASE, MATCH_OVER_PHASE, PLAY_PHASE, DealSetup
from .positions import PositionWire
from .sevens_checks import SevensChecks
from .sevens_position import (
    NEXT_DEAL,
    PASS,
    SEVEN_OF_DIAMONDS,
    SEVENS,
    DealResult,
    SevensMatch,
    SevensPosition,
    hand_in_order,
    joined_runs,
    read_position,
    run_ends,
    write_move,
    write_state,
)
from .sevens_table import CARDS_EACH, POINTS, _active, _totals, deal_places
from .sevens_wire import (
    DEAL_STARTED,
    NEXT_DEALS,
    WIRE_MOVES,
    in_hand_order,
    move_code,
    move_events,
)

_SEATS_LEFT_OF = [
    [(seat + k) % SEVENS_PLAYERS for k in range(1, SEVENS_PLAYERS + 1)] for seat in range(SEVENS_PLAYERS)
]
"""The seats in turn order after each seat, ending with the seat itself."""
_LEFT_OF = [seats[0] for seats in _SEATS_LEFT_OF]
"""The seat on the left of each seat: the next to act while nobody is out or bust."""


@lru_cache(maxsize=1024)
def _turn_after(player: int, out: tuple[int, ...], bust: tuple[int, ...]) -> tuple[bool, int]:
    """After ``player``'s move, with these seats out and bust: ``(True, survivor)`` when one seat is left
    neither out nor bust (the deal ends), else ``(False, seat)`` for the next such seat on the left.

    A function of its arguments' values alone, remembered (bounded): a deal reaches only a few dozen
    combinations."""
    active = _active(out, bust)
    if len(active) == 1:
        return True, active[0]
    return False, next(seat for seat in _SEATS_LEFT_OF[player] if seat in active)


class Sevens(PositionWire[SevensPosition], SevensChecks):
    """Sevens with three passes a deal and busting, four players, a match of five deals: the rules on
    :class:`~sevens_rules.engine.sevens_position.SevensPosition`; the wire hooks at the end convert a state
    to its position and back and ask the rules."""

    id = "sevens"
    name = "Sevens"
    min_players = SEVENS_PLAYERS
    max_players = SEVENS_PLAYERS
    models = GameModels(SevensOptions, SevensState, SevensMove, SevensEvent, SevensView, SevensScore)
    wire_moves = WIRE_MOVES
    next_deals = NEXT_DEALS
    match_type = SevensMatch
    move_code = staticmethod(move_code)

    # ---- deal ------------------------------------------------------------------------------------

    def deal_position(
        self, match: SevensMatch, seeding: Seeding, deck: Sequence[str] | None
    ) -> SevensPosition:
        """The first position of the deal of ``match``, dealt from ``deck`` (top first) or from the seeded
        shuffle of the deal (``seeding``: the match's): 13 cards each from the dealer's left, every 7 on the
        table, the 7♦ holder to move first."""
        cards = list(deck) if deck is not None else seeding.shuffled(FULL_DECK, self.id, match.deal_number)
        dealt = [
            card_set(hand)
            for hand in deal_round_robin(
                cards, SEVENS_PLAYERS, (match.dealer + 1) % SEVENS_PLAYERS, [CARDS_EACH] * 4
            )
        ]
        first = next(seat for seat, hand in enumerate(dealt) if hand & SEVEN_OF_DIAMONDS)
        return SevensPosition(
            tuple([hand & ~SEVENS for hand in dealt]),
            SEVENS,
            SEVENS,
            (0,) * SEVENS_PLAYERS,
            (),
            (),
            first,
            PLAY_PHASE,
            match,
        )

    # ---- to act and legal moves ------------------------------------------------------------------

    def position_moves_to_act(self, position: SevensPosition) -> list[int]:
        """The move codes of the seat to act: ``next_deal`` between deals; in play a play of each card of
        its hand one rank outside a run (lowest card first), then the pass while fewer than 3 passes are
        used or when it holds no such card (the fourth pass, the bust); none once the match is over. The
        list is the position's own (kept for the next question): not to be changed."""
        listed = position.listed
        if listed is None:
            listed = position.listed = _listed(position)
        return listed

    # ---- resolve ---------------------------------------------------------------------------------

    def position_apply(self, position: SevensPosition, move: int) -> SevensPosition:
        """The position after ``move``, a move code :meth:`position_moves` listed for the seat to act."""
        if move < PASS:  # a play (the commonest move)
            player: int = position.turn  # type: ignore[assignment]  # (a seat is to act in a deal)
            bit = 1 << move
            hands = list(position.hands)
            hand = hands[player] = hands[player] ^ bit
            table = position.table | bit
            runs = position.runs | bit
            if runs != table:  # cards lie apart after a bust: the play may fill the gap to them
                runs = joined_runs(runs, table & ~runs)
            out, bust = position.out, position.bust
            if not out and not bust and hand:  # most plays: all four seats play on, the next on the left
                return SevensPosition(
                    tuple(hands),
                    table,
                    runs,
                    position.passes,
                    out,
                    bust,
                    _LEFT_OF[player],
                    PLAY_PHASE,
                    position.match,
                )
            if not hand:
                out = (*out, player)
            return _after_move(position, player, tuple(hands), table, runs, position.passes, out, bust)
        if move == PASS:
            player = position.turn  # type: ignore[assignment]
            used = position.passes[player] + 1
            if used <= SEVENS_PASSES:
                passes = list(position.passes)
                passes[player] = used
                out, bust = position.out, position.bust
                if not out and not bust:  # the turn to the seat on the left, as after most plays
                    return SevensPosition(
                        position.hands,
                        position.table,
                        position.runs,
                        tuple(passes),
                        out,
                        bust,
                        _LEFT_OF[player],
                        PLAY_PHASE,
                        position.match,
                    )
                return _after_move(
                    position,
                    player,
                    position.hands,
                    position.table,
                    position.runs,
                    tuple(passes),
                    position.out,
                    position.bust,
                )
            # the fourth pass: the player is bust, their cards go to their places on the table (holding
            # no card next to a run, they lie apart from the runs)
            hands = list(position.hands)
            table = position.table | hands[player]
            hands[player] = 0
            runs = joined_runs(position.runs, table & ~position.runs)
            bust = (*position.bust, player)
            return _after_move(
                position, player, tuple(hands), table, runs, position.passes, position.out, bust
            )
        match = position.match
        return self.deal_position(match.following((match.dealer + 1) % SEVENS_PLAYERS), match.seeding, None)

    def position_outcome(self, position: SevensPosition) -> Outcome:
        """Whether the match is over, its winners (the highest totals) and each seat's total and place."""
        totals = position.match.totals
        over = position.phase is MATCH_OVER_PHASE
        winners = self.match_winners(position, totals) if over else []  # type: ignore[arg-type]
        return standings(totals, winners, over, self.lowest_total_wins)

    def position_totals(self, position: SevensPosition) -> list[int]:
        """Each seat's points over the finished deals."""
        return list(position.match.totals)

    # ---- the wire side: a state's position, and the state of a position --------------------------

    def read(self, state: SevensState) -> SevensPosition:
        return read_position(state)

    def state_of(
        self, position: SevensPosition, before: tuple[SevensState, SevensPosition] | None = None
    ) -> SevensState:
        """The wire state of ``position`` (see :func:`~sevens_rules.engine.sevens_position.write_state` for
        ``before``), kept with its position as the last state."""
        state = write_state(position, before)
        self.remember(state, position)
        return state

    def deal(self, setup: DealSetup[SevensOptions, SevensState]) -> tuple[SevensState, list[SevensEvent]]:
        match, before = self.deal_match(setup)
        position = self.deal_position(match, setup.seeding, setup.deck)
        return self.state_of(position, before), [DEAL_STARTED[setup.dealer]]

    def deal_moves(self, state: SevensState, player: int) -> list[SevensMove]:
        position = self.position(state)
        codes = position.listed
        if codes is None:
            codes = position.listed = _listed(position)
        if len(codes) > 1 and not hand_in_order(position.match, player):  # (a posted hand out of order)
            codes = in_hand_order(codes, state.hands[player])
        wire = WIRE_MOVES[player]
        return [wire[code] for code in codes]

    def write_step(
        self, state: SevensState, position: SevensPosition, move: int, after: SevensPosition
    ) -> tuple[SevensState, list[SevensEvent]]:
        if after.match is position.match:  # the deal goes on: only what the move changed is written
            written = write_move(after, state, position)
            self.remember(written, after)
        else:
            written = self.state_of(after, (state, position))
        return written, move_events(state, move, position, after, written)

    def playable(self, state: SevensState) -> set[str]:
        """Every card that may be played on the table of ``state`` now (whoever holds it)."""
        position = self.position(state)
        return set(card_names(run_ends(position.runs) & ~position.table))

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


def _listed(position: SevensPosition) -> list[int]:
    """:meth:`Sevens.position_moves_to_act`, computed."""
    turn = position.turn
    if turn is None:
        return [NEXT_DEAL] if position.phase is DEAL_OVER_PHASE else []
    # a hand holds no card of the table, so its cards next to a run are its plays
    plays = position.hands[turn] & run_ends(position.runs)
    if not plays:  # the pass alone (the fourth pass, the bust, when 3 are used)
        return [PASS]
    codes = bits_of(plays)
    if position.passes[turn] < SEVENS_PASSES:
        codes.append(PASS)
    return codes


def _after_move(
    position: SevensPosition,
    player: int,
    hands: tuple[int, ...],
    table: int,
    runs: int,
    passes: tuple[int, ...],
    out: tuple[int, ...],
    bust: tuple[int, ...],
) -> SevensPosition:
    """The position after ``player``'s move in ``position``, which left these hands, table, runs, passes
    and seats out and bust: the turn given to the next seat on the left neither out nor bust, or the deal
    ended when only one such seat is left."""
    match = position.match
    if not out and not bust:  # most moves of a deal: all four seats still play
        return SevensPosition(hands, table, runs, passes, out, bust, _LEFT_OF[player], PLAY_PHASE, match)
    ended, seat = _turn_after(player, out, bust)
    if not ended:
        return SevensPosition(hands, table, runs, passes, out, bust, seat, PLAY_PHASE, match)
    # the last player left takes the next place, the bust players the last places, first bust last
    places = tuple(deal_places(out, bust, seat))
    points = tuple(POINTS[place - 1] for place in places)
    recorded = match.recorded(DealResult(match.deal_number, match.dealer, places, points), points)
    phase = MATCH_OVER_PHASE if match.deal_number >= match.options.deals else DEAL_OVER_PHASE
    return SevensPosition(hands, table, runs, passes, out, bust, None, phase, recorded)
