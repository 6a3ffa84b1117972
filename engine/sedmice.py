"""Sedmice (RULINGS §5, text 004): a Serbian trick game of answering the led rank, sevens wild.

Two players, or four in partnerships: seat ``s`` is on side ``s % 2`` (seats 0+2 against 1+3; with two
players each seat is its own side). The 32-card deck is used; rank order and suits do not matter.

A trick: the leader plays any card, then each other player clockwise plays any card. A card *answers*
when it has the led card's rank or is a 7 (a led 7 is answered by 7s only). After each full round the
leader either ends the trick (``end_trick``) or extends it (``extend``) with another card of the led rank
or a 7, and every other player plays one more card. The trick goes to the last player who answered in any
of its rounds; the leader's own led and extension cards answer, so nobody answering leaves it to the
leader. Then the taker, and clockwise from them the others, draw one card at a time from the stock until
each holds four or the stock is empty; the taker leads next. The deal ends when hands and stock are empty.

Aces and tens are worth 10 points each (80 per deal). The deal's hits go to one side: 3 for every trick,
else 2 for all 80 points, else 1 for more points (at 40-40, to the side of the last trick's taker). The
match ends when a side reaches ``target_hits``.

Decisions where the rulings and the text are silent (also in the README):

- Cards are dealt one at a time clockwise from the dealer's left, four each; the rest is the stock, top
  card first. The player left of the dealer leads the first trick. The dealer moves left each deal.
- The leader's extension is its own move type, ``extend``; ``end_trick`` ends the trick. Both are the
  leader's only moves after a full round, and ``end_trick`` is always among them, even when the leader
  holds no card to extend with -- so the flow of the game never tells the table what the leader holds.
- The one exception: when a round completes with every hand empty, no extension is possible for anybody
  (hands are equal), so the trick ends at once without an ``end_trick`` move.
- With ``extend_only_when_losing`` the leader may extend only while a seat of the other side would take
  the trick (a partner winning counts as not losing).
- The refill is reported as one ``drew`` event per card in drawing order.
- A finished deal leaves the taken piles in the state (phase ``deal_over``) until the next dealer (left of
  the last one) sends ``next_deal``; ``leader`` then names the last trick's taker.
- A view shows each side's points, tricks and number of cards taken, not the taken cards themselves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from ..schema.common import GameModels, Outcome
from ..schema.scalars import PiquetDeckOrder
from ..schema.sedmice import (
    SedmiceDeal,
    SedmiceEvent,
    SedmiceMove,
    SedmiceOptions,
    SedmiceScore,
    SedmiceState,
    SedmiceView,
)
from .card_sets import bits_of
from .cards import PIQUET_DECK
from .dealing import DEAL, shuffled
from .game import drawn_card_for_seat, standings
from .match import DEAL_OVER_PHASE, MATCH_OVER_PHASE, PLAY_PHASE, DealSetup
from .positions import PositionWire
from .sedmice_checks import SedmiceChecks
from .sedmice_position import (
    ANSWERING,
    CARD_BIT,
    CARD_INDEX,
    END_TRICK,
    EXTEND,
    NEXT_DEAL,
    DealResult,
    SedmiceMatch,
    SedmicePosition,
    card_set,
    points_in,
    read_position,
    write_state,
)
from .sedmice_tricks import HAND_SIZE, hits_of, points
from .sedmice_tricks import (
    trick_winner as trick_winner,  # (named here too: the bots read a trick's taker from this module)
)
from .sedmice_wire import (
    DEAL_STARTED,
    END_TRICKS,
    EXTENDS,
    MOST_PLAYERS,
    NEXT_DEALS,
    PLAYS,
    WIRE_MOVES,
    move_code,
    write_move,
)


class Sedmice(PositionWire[SedmicePosition], SedmiceChecks):
    """Sedmice: answer the led rank (sevens wild); the last to answer takes the trick; aces and tens count.

    The rules run on :class:`~sevens_rules.engine.sedmice_position.SedmicePosition`; the wire hooks at the
    end convert a state to its position and back and ask the rules."""

    id = "sedmice"
    name = "Sedmice"
    min_players = 2
    max_players = MOST_PLAYERS
    player_counts: ClassVar[tuple[int, ...]] = (2, MOST_PLAYERS)
    """The table sizes allowed: 2, or 4 in partnerships (3 is inside the range but refused by ``new``)."""
    deck = PIQUET_DECK
    wire_moves = WIRE_MOVES
    next_deals = NEXT_DEALS
    move_code = staticmethod(move_code)
    hidden_piles = ("stock",)
    """The 32-card deck, 7 to Ace."""
    models = GameModels(
        SedmiceOptions, SedmiceState, SedmiceMove, SedmiceEvent, SedmiceView, SedmiceScore, PiquetDeckOrder
    )

    # ---- deal ------------------------------------------------------------------------------------

    def deal_position(
        self,
        players: int,
        options: SedmiceOptions,
        seed: str,
        entropy: Sequence[str],
        commitment: str,
        dealer: int,
        deal_number: int,
        deck: Sequence[str] | None,
        recorded: Sequence[SedmiceDeal],
        finished: tuple[DealResult, ...],
        hits: tuple[int, int],
    ) -> SedmicePosition:
        """A freshly dealt deal: from ``deck`` (top first), or from the seeded shuffle of the deal. Cards
        are dealt one at a time clockwise from the dealer's left, four each; the rest is the stock."""
        if deck is None:
            deck = shuffled(PIQUET_DECK, seed, self.id, deal_number, DEAL, entropy)
        first = (dealer + 1) % players
        hands = [0] * players
        for offset in range(players):  # the seat ``offset`` places left of the first takes every n-th card
            hands[(first + offset) % players] = card_set(
                deck[offset : offset + players * HAND_SIZE : players]
            )
        match = SedmiceMatch(
            players, dealer, deal_number, recorded, finished, hits, options, seed, entropy, commitment
        )
        return SedmicePosition(
            tuple(hands),
            deck[players * HAND_SIZE :],
            (),
            0,
            first,
            first,
            first,
            ((), ()),
            (0, 0),
            PLAY_PHASE,
            match,
        )

    # ---- to act and legal moves ------------------------------------------------------------------

    def position_moves_to_act(self, position: SedmicePosition) -> list[int]:
        """The move codes of the seat to act, in the order the seat's hand lists its cards (canonical
        order): ``next_deal`` between deals; after a full round, the leader's extensions then
        ``end_trick``; else a play of every card in hand; none once the match is over. (Made afresh:
        every caller asks once per position, the wire API checks a move without a list.)"""
        turn = position.turn
        if turn is None:
            return [NEXT_DEAL] if position.phase is DEAL_OVER_PHASE else []
        if turn == position.leader and position.played:  # (round_complete, inline)
            listed = [EXTEND + card for card in bits_of(extension_set(position))]
            listed.append(END_TRICK)
            return listed
        return bits_of(position.hands[turn])  # every card in hand, lowest first

    # ---- resolve ---------------------------------------------------------------------------------

    def position_apply(self, position: SedmicePosition, move: int) -> SedmicePosition:
        """The position after ``move``, a move code :meth:`position_moves` listed for the seat to act."""
        if move < EXTEND:  # a card played (the commonest move)
            player: int = position.turn  # type: ignore[assignment]  # (a seat is to act in a deal)
            match = position.match
            hands = list(position.hands)
            hands[player] ^= 1 << move  # (a listed card is in the hand)
            played = position.played
            if played:  # a card answering the led card takes the trick over
                answering = position.answering
                winner = player if answering >> move & 1 else position.winner
                played = (*played, move)
                if not len(played) % match.players and not any(hands):
                    # the round is complete and nobody holds a card, so nobody could extend: the trick
                    # ends without a choice
                    return _take_trick(position, hands, played, winner)
            else:  # the lead answers itself
                answering = ANSWERING[move]
                winner = player
                played = (move,)
            return SedmicePosition(
                tuple(hands),
                position.stock,
                played,
                answering,
                winner,
                position.leader,
                (player + 1) % match.players,  # after a full round, the leader (the seat after the last)
                position.taken,
                position.tricks,
                PLAY_PHASE,
                match,
            )
        if move < END_TRICK:  # the leader extends the trick with a card (which answers)
            player = position.turn  # type: ignore[assignment]
            match = position.match
            card = move - EXTEND
            hands = list(position.hands)
            hands[player] ^= 1 << card
            return SedmicePosition(
                tuple(hands),
                position.stock,
                (*position.played, card),
                position.answering,
                player,
                position.leader,
                (player + 1) % match.players,
                position.taken,
                position.tricks,
                PLAY_PHASE,
                match,
            )
        if move == END_TRICK:
            return _take_trick(position, list(position.hands), position.played, position.winner)
        match = position.match
        players = match.players
        return self.deal_position(
            players,
            match.options,
            match.seed,
            match.entropy,
            match.commitment,
            (match.dealer + 1) % players,
            match.deal_number + 1,
            None,
            match.recorded,
            match.finished,
            match.hits,
        )

    def position_outcome(self, position: SedmicePosition) -> Outcome:
        """Whether the match is over, its winners (the side that reached the target) and each seat's total
        (its side's hits) and place."""
        totals = self.position_totals(position)
        over = position.phase is MATCH_OVER_PHASE
        return standings(totals, _winners(position.match) if over else [], over, False)

    def position_totals(self, position: SedmicePosition) -> list[int]:
        """Each seat's total: its side's hits over the finished deals."""
        match = position.match
        hits = match.hits
        return [hits[seat % 2] for seat in range(match.players)]

    # ---- the wire side: a state's position, and the state of a position --------------------------

    def read(self, state: SedmiceState) -> SedmicePosition:
        return read_position(state)

    def state_of(self, position: SedmicePosition) -> SedmiceState:
        """The wire state of ``position``, kept with its position as the last state."""
        state = write_state(position)
        self.remember(state, position)
        return state

    def deal(self, setup: DealSetup[SedmiceOptions, SedmiceState]) -> tuple[SedmiceState, list[SedmiceEvent]]:
        previous = setup.previous
        seeding = setup.seeding
        if previous is None:
            hits = (0, 0)
            commitment = seeding.commitment
        else:
            match = self.position(previous).match
            hits, commitment = match.hits, match.commitment
        # the finished deals as the wire holds them (the rules add their records after these)
        position = self.deal_position(
            setup.players,
            setup.options,
            seeding.seed,
            seeding.entropy,
            commitment,
            setup.dealer,
            setup.deal_number,
            setup.deck,
            setup.deals,
            (),
            hits,
        )
        state = write_state(position)
        self.remember(state, position)
        return state, [DEAL_STARTED[setup.dealer]]

    def deal_moves(self, state: SedmiceState, player: int) -> list[SedmiceMove]:
        """The moves of :meth:`position_moves_to_act` as wire moves, in the order the state lists the
        seat's hand (the canonical order in every state the engine writes; a posted state may list a hand
        otherwise, and its moves follow it)."""
        position = self.position(state)
        turn = position.turn
        if turn is None:
            return []
        hand = state.hands[player]
        if turn == position.leader and position.played:  # (round_complete, inline)
            allowed = extension_set(position)
            extends = EXTENDS[player]
            moves = [extends[c] for c in hand if allowed >> CARD_INDEX[c] & 1] if allowed else []
            moves.append(END_TRICKS[player])
            return moves
        plays = PLAYS[player]
        return [plays[c] for c in hand]

    def is_listed(self, position: SedmicePosition, move: int) -> bool:
        return is_listed(position, move)

    def write_step(
        self, state: SedmiceState, position: SedmicePosition, move: int, after: SedmicePosition
    ) -> tuple[SedmiceState, list[SedmiceEvent]]:
        written, events = write_move(state, position, move, after)
        self.remember(written, after)
        return written, events

    # ---- score and view --------------------------------------------------------------------------

    def score(self, state: SedmiceState) -> SedmiceScore:
        return SedmiceScore(
            hits=list(self.position(state).match.hits),
            points=[points(state.taken[0]), points(state.taken[1])],
            deals=state.deals,
        )

    def seat_totals(self, state: SedmiceState) -> list[int]:
        return self.position_totals(self.position(state))

    def match_winners(self, state: SedmiceState, totals: Sequence[int]) -> list[int]:
        return _winners(self.position(state).match)

    def event_for_seat(self, event: SedmiceEvent, seat: int) -> SedmiceEvent:
        """A card drawn in the refill is seen by its drawer only."""
        return drawn_card_for_seat(event, seat)

    def seat_view(self, state: SedmiceState, player: int) -> dict[str, object]:
        position = self.position(state)
        return dict(
            leader=state.leader,
            turn=position.turn,
            winning=position.winner if position.played else None,
            hand=state.hands[player],
            stock_size=len(state.stock),
            trick=state.trick,
            points=[points(state.taken[0]), points(state.taken[1])],
            tricks=state.tricks,
            taken_sizes=[len(state.taken[0]), len(state.taken[1])],
        )


def round_complete(position: SedmicePosition) -> bool:
    """Whether every seat has played to the trick's last round: the leader then ends or extends it (the
    turn is back with the leader, and the trick has cards)."""
    return position.turn == position.leader and bool(position.played)


def is_listed(position: SedmicePosition, move: int) -> bool:
    """Whether move code ``move`` is among :meth:`Sedmice.position_moves_to_act` of ``position`` in a
    deal, read off the same rules without listing them."""
    turn = position.turn
    if turn is None:
        return False
    deciding = turn == position.leader and bool(position.played)  # (round_complete, inline)
    if move < EXTEND:
        return not deciding and bool(position.hands[turn] >> move & 1)
    if not deciding:
        return False
    return move == END_TRICK or (move < END_TRICK and bool(extension_set(position) >> (move - EXTEND) & 1))


def extension_set(position: SedmicePosition) -> int:
    """The cards the leader may extend the trick with after a full round: those of its hand answering the
    led card, when the option allows an extension at all (with ``extend_only_when_losing``, only while a
    seat of the other side would take the trick)."""
    leader = position.leader
    if position.match.losing_only and position.winner % 2 == leader % 2:
        return 0
    return position.hands[leader] & position.answering


def _take_trick(
    position: SedmicePosition, hands: list[int], played: tuple[int, ...], taker: int
) -> SedmicePosition:
    """The trick ``played`` taken by ``taker`` (``hands``: the hands after its last card, a list this
    changes), then the refill: the taker first, then clockwise, one card at a time, until four each or no
    stock (every hand holds as many cards after a full round); the taker leads next. With every hand
    empty the deal is over."""
    match = position.match
    players = match.players
    side = taker % 2
    taken = position.taken
    tricks = position.tricks
    cards = tuple(map(PIQUET_DECK.__getitem__, played))
    if side:
        taken = (taken[0], (*taken[1], *cards))
        tricks = (tricks[0], tricks[1] + 1)
    else:
        taken = ((*taken[0], *cards), taken[1])
        tricks = (tricks[0] + 1, tricks[1])
    stock = position.stock
    drawn = min(len(stock), (HAND_SIZE - hands[0].bit_count()) * players)
    for index in range(drawn):
        hands[(taker + index) % players] |= CARD_BIT[stock[index]]
    if drawn:
        stock = stock[drawn:]
    if any(hands):
        return SedmicePosition(
            tuple(hands), stock, (), 0, taker, taker, taker, taken, tricks, PLAY_PHASE, match
        )
    return _end_deal(position, hands, taken, tricks, taker)


def _end_deal(
    position: SedmicePosition,
    hands: list[int],
    taken: tuple[Sequence[str], Sequence[str]],
    tricks: tuple[int, int],
    last_taker: int,
) -> SedmicePosition:
    """The deal over: scored and recorded (its hits to one side), nobody to act, and the match over once
    a side's hits reach the target."""
    match = position.match
    deal_points = (points_in(taken[0]), points_in(taken[1]))
    side, hits, reason = hits_of(deal_points, tricks, last_taker % 2)
    side_hits = (0, hits) if side else (hits, 0)
    deal = DealResult(
        match.deal_number, match.dealer, deal_points, tricks, last_taker, side_hits, side, reason
    )
    totals = (match.hits[0] + side_hits[0], match.hits[1] + side_hits[1])
    recorded = SedmiceMatch(
        match.players,
        match.dealer,
        match.deal_number,
        match.recorded,
        (*match.finished, deal),
        totals,
        match.options,
        match.seed,
        match.entropy,
        match.commitment,
    )
    phase = MATCH_OVER_PHASE if max(totals) >= match.target else DEAL_OVER_PHASE
    return SedmicePosition(
        tuple(hands), (), (), 0, last_taker, last_taker, None, taken, tricks, phase, recorded
    )


def _winners(match: SedmiceMatch) -> list[int]:
    """The seats of the side that reached the target (a finished match)."""
    side = 0 if match.hits[0] >= match.target else 1
    return list(range(side, match.players, 2))
