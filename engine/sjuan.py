"""The Sjuan family (RULINGS §1, text 000): Sjuan, Fan Tan, free fan tan and Domino fan tan.

All four are layout games on one table of suit rows. They differ in who opens and with what, in how a
row grows (both ways from the 7, or upward only from a start rank), and in whether there is a stock.

Decisions where the texts are silent (RULINGS §1 settles the first two; also in the README):

- Domino fan tan with 7♥ in the stock: the player left of the dealer moves first and may open with any
  7 (after the opening every 7 is legal in Sjuan too); holding no 7, they draw.
- A drawn card that cannot be played ends the turn without a chip; the chip is paid only for a pass,
  which happens when the stock is empty at the start of a turn.
- Free fan tan's blocked deal is detected right after the play that leaves nobody a playable card, so
  nobody pays for passes in a deal that cannot continue.
- A deal ends with phase ``deal_over``; the next dealer (left of the last) starts the next deal with a
  ``next_deal`` move, optionally naming the exact deck order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import add
from typing import ClassVar, cast

from ..schema.common import GameModels, Outcome
from ..schema.sjuan import (
    SJUAN_MATCH_TARGET,
    DominoFanTanOptions,
    DominoFanTanState,
    DominoFanTanView,
    FanTanState,
    FanTanView,
    FreeFanTanOptions,
    FreeFanTanState,
    FreeFanTanView,
    SjuanEvent,
    SjuanFamilyState,
    SjuanMove,
    SjuanOptions,
    SjuanScore,
    SjuanState,
    SjuanView,
)
from .card_sets import ALL_CARDS, CARD_INDEX, RANK_ROW, SUIT_SIZE, bits_of, card_codes, card_names, card_set
from .cards import FULL_DECK, RANKS, deal_round_robin
from .dealing import Seeding
from .errors import IssueAt
from .game import drawn_card_for_seat, standings
from .match import DEAL_OVER_PHASE, MATCH_OVER_PHASE, PLAY_PHASE, DealSetup
from .positions import PositionWire
from .sjuan_checks import KING, RANK_OF, SjuanChecks
from .sjuan_position import (
    ACES,
    DRAW,
    KINGS,
    NEXT_DEAL,
    PASS,
    SEVEN_OF_HEARTS,
    SEVENS,
    DealResult,
    SjuanMatch,
    SjuanPosition,
    hand_counts,
    read_position,
    write_move,
    write_state,
)
from .sjuan_wire import NEXT_DEALS, WIRE_MOVES, deal_events, move_code, move_events

MATCH_TARGET = SJUAN_MATCH_TARGET
"""A match ends after a deal in which some penalty total reaches this."""

_NOT_ACES = ALL_CARDS & ~ACES
_NOT_KINGS = ALL_CARDS & ~KINGS


class SjuanFamily(PositionWire[SjuanPosition], SjuanChecks):
    """Rules shared by the four games, on :class:`~sevens_rules.engine.sjuan_position.SjuanPosition`;
    subclasses set the opening, the row shape and the stock. The wire hooks at the end convert a state to
    its position and back and ask the rules."""

    min_players = 3
    max_players = 8
    has_stock: ClassVar[bool] = False
    lowest_total_wins = True
    wire_moves = WIRE_MOVES
    match_type = SjuanMatch
    next_deals = NEXT_DEALS
    move_code = staticmethod(move_code)

    # ---- the games' differences (hooks, on positions) ------------------------------------------------

    def first_turn(self, hands: Sequence[int], dealer: int) -> int:
        """Who moves first in a new deal: the player left of the dealer unless a game says otherwise."""
        return (dealer + 1) % len(hands)

    def opening(self, position: SjuanPosition) -> int:
        """The cards that may start the table while it is empty: any 7 unless a game says otherwise."""
        return SEVENS

    def playable_set(self, position: SjuanPosition) -> int:
        """Every card that could be played on the table now, whoever holds it: while the table is empty an
        opening card; then a 7 that is not out yet, or a card next in rank to one of its suit on the table
        (the rows run unbroken through their 7, so that is the card below each row and the card above it).

        The one statement of what may be played: the move list, a drawn card, a blocked deal and what a
        pass rules out (:meth:`cards_passes_rule_out`) ask it.
        """
        table = position.on_table
        if not table:
            return self.opening(position)
        # a card's neighbours are one bit up and one bit down, but not across a suit's end
        return ((table << 1) & _NOT_ACES | (table >> 1) & _NOT_KINGS | SEVENS) & ~table

    def is_blocked(self, position: SjuanPosition) -> bool:
        """Whether nobody holds a playable card (only possible in free fan tan without wrap)."""
        return False

    def hand_size(self, options: SjuanOptions) -> int:
        """Cards dealt to each player when the game has a stock; 0 (the games without one): the whole deck,
        as :func:`hand_counts` deals it."""
        return 0

    def draws_until_playable(self, options: SjuanOptions) -> bool:
        """Whether a player who drew an unplayable card draws again (while the stock lasts)."""
        return False

    # ---- deal ------------------------------------------------------------------------------------

    def deal_position(self, match: SjuanMatch, seeding: Seeding, deck: Sequence[str] | None) -> SjuanPosition:
        """The first position of the deal of ``match``: dealt from ``deck`` (top first), or from the seeded
        shuffle of the deal (``seeding``: the match's)."""
        players, dealer, options = match.players, match.dealer, match.options
        cards = list(deck) if deck is not None else seeding.shuffled(FULL_DECK, self.id, match.deal_number)
        counts, chips = hand_counts(players, dealer, self.hand_size(options))
        hands = tuple(map(card_set, deal_round_robin(cards, players, (dealer + 1) % players, counts)))
        return SjuanPosition(
            hands,
            (),
            0,
            card_codes(cards[sum(counts) :]),
            chips,
            self.first_turn(hands, dealer),
            PLAY_PHASE,
            match,
        )

    # ---- to act and legal moves ------------------------------------------------------------------

    def position_moves_to_act(self, position: SjuanPosition) -> list[int]:
        """The move codes of the seat to act, in a stable order: ``next_deal`` between deals, else the
        plays of the playable cards it holds (lowest card first), else a draw while there is a stock, else
        a pass; none once the match is over. The list is the position's own (kept for the next question):
        not to be changed."""
        listed = position.listed
        if listed is None:
            listed = position.listed = self._listed(position)
        return listed

    def _listed(self, position: SjuanPosition) -> list[int]:
        turn = position.turn
        if turn is None:
            return [NEXT_DEAL] if position.phase is DEAL_OVER_PHASE else []
        playable = position.playable
        if playable is None:
            playable = self.playable_set(position)
        plays = position.hands[turn] & playable
        if not plays:
            return [DRAW] if position.stock else [PASS]
        return bits_of(plays)

    # ---- resolve ---------------------------------------------------------------------------------

    def position_apply(self, position: SjuanPosition, move: int) -> SjuanPosition:
        """The position after ``move``, a move code :meth:`position_moves` listed for the seat to act."""
        if move < PASS:  # a play (the commonest move)
            player: int = position.turn  # type: ignore[assignment]  # (a seat is to act in a deal)
            hands = list(position.hands)
            hand = hands[player] = hands[player] & ~(1 << move)
            after = SjuanPosition(
                tuple(hands),
                (*position.table, FULL_DECK[move]),
                position.on_table | 1 << move,
                position.stock,
                position.chips,
                (player + 1) % len(hands),
                PLAY_PHASE,
                position.match,
            )
            if not hand:
                return _end_deal(after, winner=player)
            if self.is_blocked(after):
                return _end_deal(after, winner=None)
            return after
        if move == PASS:
            player = position.turn  # type: ignore[assignment]
            chips = list(position.chips)
            chips[player] += 1
            return SjuanPosition(
                position.hands,
                position.table,
                position.on_table,
                position.stock,
                tuple(chips),
                (player + 1) % len(chips),
                PLAY_PHASE,
                position.match,
            )
        if move == DRAW:
            return self._draw(position)
        match = position.match
        return self.deal_position(match.following((match.dealer + 1) % match.players), match.seeding, None)

    def _draw(self, position: SjuanPosition) -> SjuanPosition:
        """The seat to act draws the top card of the stock: they keep the turn when it is playable (asked
        of the position after the draw: on an empty table a drawn 7H may open), or while they draw until
        they can play and the stock lasts."""
        player: int = position.turn  # type: ignore[assignment]  # (a seat is to act in a deal)
        stock = position.stock
        drawn = stock[0]
        hands = list(position.hands)
        hands[player] |= 1 << drawn
        after = SjuanPosition(
            tuple(hands),
            position.table,
            position.on_table,
            stock[1:],
            position.chips,
            (player + 1) % len(hands),
            PLAY_PHASE,
            position.match,
        )
        if self.playable_set(after) >> drawn & 1 or (
            len(stock) > 1 and self.draws_until_playable(position.match.options)
        ):
            return SjuanPosition(
                after.hands,
                after.table,
                after.on_table,
                after.stock,
                after.chips,
                player,
                PLAY_PHASE,
                after.match,
            )
        return after

    def position_outcome(self, position: SjuanPosition) -> Outcome:
        """Whether the match is over, its winners (the lowest totals) and each seat's total and place."""
        totals = position.match.totals
        over = position.phase is MATCH_OVER_PHASE
        winners = self.match_winners(position, totals) if over else []
        return standings(totals, winners, over, self.lowest_total_wins)

    def position_totals(self, position: SjuanPosition) -> list[int]:
        """Each seat's penalty total over the finished deals."""
        return list(position.match.totals)

    # ---- the wire side: a state's position, and the state of a position --------------------------

    def read(self, state: SjuanFamilyState) -> SjuanPosition:
        return read_position(state, self.stock(state))

    def state_of(
        self, position: SjuanPosition, before: tuple[SjuanFamilyState, SjuanPosition] | None = None
    ) -> SjuanFamilyState:
        """The wire state of ``position`` (see :func:`~sevens_rules.engine.sjuan_position.write_state` for
        ``before``), kept with its position as the last state."""
        state = write_state(
            cast(type[SjuanFamilyState], self.models.state), self.id, position, self.has_stock, before
        )
        self.remember(state, position)
        return state

    def deal(
        self, setup: DealSetup[SjuanOptions, SjuanFamilyState]
    ) -> tuple[SjuanFamilyState, list[SjuanEvent]]:
        match, before = self.deal_match(setup)
        position = self.deal_position(match, setup.seeding, setup.deck)
        state = self.state_of(position, before)
        return state, deal_events(state)

    def deal_moves(self, state: SjuanFamilyState, player: int) -> list[SjuanMove]:
        wire = WIRE_MOVES[player]
        return [wire[code] for code in self.position_moves(self.position(state), player)]

    def write_step(
        self, state: SjuanFamilyState, position: SjuanPosition, move: int, after: SjuanPosition
    ) -> tuple[SjuanFamilyState, list[SjuanEvent]]:
        if after.match is position.match:  # the deal goes on: only what the move changed is written
            written = write_move(after, state, position, self.has_stock)
            self.remember(written, after)
        else:
            written = self.state_of(after, (state, position))
        return written, move_events(position.turn, move, position, after, written)  # type: ignore[arg-type]

    def playable(self, state: SjuanFamilyState) -> set[str]:
        """Every card that could be played on the table of ``state`` now (whoever holds it)."""
        return set(card_names(self.playable_set(self.position(state))))

    def playable_cards(self, state: SjuanFamilyState, cards: Sequence[str]) -> list[str]:
        """Those of ``cards`` that could be played on the table of ``state`` now, in their order."""
        playable = self.playable_set(self.position(state))
        return [c for c in cards if playable >> CARD_INDEX[c] & 1]

    def blocked(self, state: SjuanFamilyState) -> bool:
        """Whether nobody holds a playable card in ``state`` (:meth:`is_blocked`)."""
        return self.is_blocked(self.position(state))

    def stock(self, state: SjuanFamilyState) -> list[str]:
        """The face-down stock of ``state`` (empty unless the game has one)."""
        return []

    # ---- score and view --------------------------------------------------------------------------

    def score(self, state: SjuanFamilyState) -> SjuanScore:
        return SjuanScore(totals=self.seat_totals(state), pot=sum(state.chips), deals=state.deals)

    def seat_totals(self, state: SjuanFamilyState) -> list[int]:
        return list(self.position(state).match.totals)

    def event_for_seat(self, event: SjuanEvent, seat: int) -> SjuanEvent:
        """A card drawn from the Domino fan tan stock is seen by its drawer only."""
        return drawn_card_for_seat(event, seat)

    def seat_view(self, state: SjuanFamilyState, player: int) -> dict[str, object]:
        return dict(
            turn=state.turn,
            hand=state.hands[player],
            table=state.table,
            stock_size=len(self.stock(state)),
            chips=state.chips,
        )


def _end_deal(position: SjuanPosition, winner: int | None) -> SjuanPosition:
    """``position`` with its deal over: the deal recorded (cards left, chips, penalties: cards left, plus
    chips when they count), nobody to act, and the match over once a total reaches the target."""
    match = position.match
    cards_left = tuple(hand.bit_count() for hand in position.hands)
    chips = position.chips
    penalties = tuple(map(add, cards_left, chips)) if match.options.chips_count else cards_left
    deal = DealResult(match.deal_number, match.dealer, winner, cards_left, chips, penalties)
    recorded = match.recorded(deal, penalties)
    return SjuanPosition(
        position.hands,
        position.table,
        position.on_table,
        position.stock,
        chips,
        None,
        MATCH_OVER_PHASE if max(recorded.totals) >= MATCH_TARGET else DEAL_OVER_PHASE,
        recorded,
    )


class Sjuan(SjuanFamily):
    """Swedish Sjuan: the 7♥ holder opens with 7♥, the only legal first move."""

    id = "sjuan"
    name = "Sjuan"
    models = GameModels(SjuanOptions, SjuanState, SjuanMove, SjuanEvent, SjuanView, SjuanScore)

    def first_turn(self, hands: Sequence[int], dealer: int) -> int:
        return next(seat for seat, hand in enumerate(hands) if hand & SEVEN_OF_HEARTS)

    def opening(self, position: SjuanPosition) -> int:
        return SEVEN_OF_HEARTS

    def table_issues(self, state: SjuanFamilyState) -> list[IssueAt]:
        issues = super().table_issues(state)
        table = state.table
        if table and table[0] != "7H":
            issues.append(IssueAt(("table", 0), "Sjuan opens with 7H"))
        return issues


class FanTan(SjuanFamily):
    """Fan Tan: the player left of the dealer opens with any 7 or passes and pays."""

    id = "fan-tan"
    name = "Fan Tan"
    models = GameModels(SjuanOptions, FanTanState, SjuanMove, SjuanEvent, FanTanView, SjuanScore)
    passes_before_first_card = 1


class FreeFanTan(SjuanFamily):
    """Free fan tan: any first card; its rank starts every suit's row, which builds upward only."""

    id = "free-fan-tan"
    name = "Free fan tan"
    models = GameModels(FreeFanTanOptions, FreeFanTanState, SjuanMove, SjuanEvent, FreeFanTanView, SjuanScore)

    def opening(self, position: SjuanPosition) -> int:
        return ALL_CARDS

    def playable_set(self, position: SjuanPosition) -> int:
        """Every card that could be played now: any card on an empty table, then the next card up of each
        suit's row. Every row starts at the first card's rank; without wrap it ends at the King, with wrap
        it goes on from the Ace up to the rank below the start."""
        table = position.on_table
        if not table:
            return ALL_CARDS
        up = (table << 1) & _NOT_ACES  # the card above each card, but none above a King
        options: FreeFanTanOptions = position.match.options  # type: ignore[assignment]  # (this game's)
        if options.wrap:
            up |= (table & KINGS) >> (SUIT_SIZE - 1)  # the Ace of its suit above a King
        # every row starts at the start rank, so a suit has started exactly when its card of that rank is
        # on the table: the start rank's cards not on the table start the other suits
        up |= RANK_ROW[CARD_INDEX[position.table[0]] % SUIT_SIZE]
        return up & ~table

    def may_block(self, options: SjuanOptions) -> bool:
        return not options.wrap  # type: ignore[attr-defined]  # (free fan tan's options)

    def is_blocked(self, position: SjuanPosition) -> bool:
        # Nobody holds a playable card exactly when there is no next card at all: free fan tan has no
        # stock, so every card off the table is in a hand, and a next card is never on the table.
        if not position.on_table:
            return False
        playable = position.playable = self.playable_set(position)
        return not playable

    def earlier_cards(self, state: SjuanFamilyState) -> Mapping[str, str]:
        """Each card's card one rank below it in its suit (from the Ace, the King: only a row that wraps
        reaches an Ace from below), but for the cards of the start rank, which start their rows."""
        return _BELOW_FROM_START[RANK_OF[state.table[0][0]]]

    def table_issues(self, state: SjuanFamilyState) -> list[IssueAt]:
        if not state.table:
            return []
        start = RANK_OF[state.table[0][0]]
        ranks_by_suit: dict[str, set[int]] = {s: set() for s in "CDHS"}
        for c in state.table:
            ranks_by_suit[c[1]].add(RANK_OF[c[0]])
        issues = []
        for s, ranks in ranks_by_suit.items():
            row = {(start + k) % 13 for k in range(len(ranks))}
            if ranks != row or (
                not cast(FreeFanTanOptions, state.options).wrap and start + len(ranks) - 1 > KING
            ):
                issues.append(
                    IssueAt(
                        ("table",), f"the {s} cards on the table are not one row up from {RANKS[start]}{s}"
                    )
                )
        return issues


_BELOW_FROM_START = [
    {card: card if RANK_OF[card[0]] == start else RANKS[RANK_OF[card[0]] - 1] + card[1] for card in FULL_DECK}
    for start in range(len(RANKS))
]
"""Free fan tan's :meth:`~FreeFanTan.earlier_cards`, by start rank (``RANKS[-1]``, the King, below the
Ace)."""


def first_seat(state: SjuanFamilyState) -> int:
    """The seat left of the dealer: Domino fan tan's opener when 7H is in the stock."""
    return (state.dealer + 1) % len(state.hands)


class DominoFanTan(SjuanFamily):
    """Domino fan tan: two players, hands of ``hand_size``, a face-down stock to draw from."""

    id = "domino-fan-tan"
    name = "Domino fan tan"
    min_players = 2
    max_players = 2
    has_stock = True
    hidden_piles = ("stock",)
    models = GameModels(
        DominoFanTanOptions, DominoFanTanState, SjuanMove, SjuanEvent, DominoFanTanView, SjuanScore
    )

    def first_turn(self, hands: Sequence[int], dealer: int) -> int:
        return next(
            (seat for seat, hand in enumerate(hands) if hand & SEVEN_OF_HEARTS), (dealer + 1) % len(hands)
        )

    def opening(self, position: SjuanPosition) -> int:
        if any(hand & SEVEN_OF_HEARTS for hand in position.hands):
            return SEVEN_OF_HEARTS
        return SEVENS

    def stock(self, state: SjuanFamilyState) -> list[str]:
        return cast(DominoFanTanState, state).stock

    def hand_size(self, options: SjuanOptions) -> int:
        return cast(DominoFanTanOptions, options).hand_size

    def draws_until_playable(self, options: SjuanOptions) -> bool:
        return cast(DominoFanTanOptions, options).draw_until_playable

    def state_issues(self, state: SjuanFamilyState) -> list[IssueAt]:
        issues = super().state_issues(state)
        if not issues and any(state.chips) and self.stock(state):
            # every hand is dealt the same size, so the only chip is a pass's, and a seat passes only
            # once the stock is empty (the stock only shrinks in a deal)
            issues.append(IssueAt(("chips",), "no chip is paid in a deal while the stock holds a card"))
        dealt = len(FULL_DECK) - len(state.hands) * self.hand_size(state.options)
        if not issues and state.phase == PLAY_PHASE and len(self.stock(state)) > dealt:
            message = f"the deal leaves {dealt} cards in the stock, and it only shrinks"
            issues.append(IssueAt(("stock",), message))
        return issues

    def cards_passes_rule_out(self, state: SjuanFamilyState) -> list[int]:
        """As the family's, and a draw rules out as a pass does: a seat holding more cards than it was
        dealt has drawn, which it does only with no legal card (any 7 is one, and before the first card a
        draw looks for a 7), and it plays a drawn legal card at once, so, not to act, it holds no 7 (the
        checks do not refuse such a hand: a position set up by hand may have any hand sizes)."""
        ruled_out = super().cards_passes_rule_out(state)
        if not state.table or state.phase != PLAY_PHASE:
            return ruled_out
        size = self.hand_size(state.options)
        return [
            rule | SEVENS if len(hand) > size and seat != state.turn else rule
            for seat, (rule, hand) in enumerate(zip(ruled_out, state.hands, strict=True))
        ]

    def opening_issues(self, state: SjuanFamilyState) -> list[IssueAt]:
        """Before the first card: no chip paid, the turn and the 7s the opening's draws allow
        (:meth:`sevens_after_draws`), and the 7H holder to open when nobody has drawn (the seat left of the
        dealer when 7H is in the stock)."""
        hands, turn = state.hands, state.turn
        size = self.hand_size(state.options)
        if any(len(hand) < size for hand in hands):
            return [IssueAt(("hands",), "before the first card no hand is smaller than the deal's")]
        if any(state.chips):  # drawing costs none, and the stock cannot run out before a 7 is drawn
            return [IssueAt(("chips",), "before the first card nobody has paid a chip")]
        if all(len(hand) == size for hand in hands):
            if turn != self.first_turn(self.position(state).hands, state.dealer):
                return [
                    IssueAt(
                        ("turn",), "the 7H holder opens, or the seat left of the dealer if 7H is in the stock"
                    )
                ]
            return []
        allowed = self.sevens_after_draws(state)
        if allowed is None:
            message = "before the first card the seats take turns drawing, from the dealer's left"
            return [IssueAt(("turn",), message)]
        issues = []
        for seat, hand in enumerate(hands):
            sevens = [card for card in hand if card[0] == "7"]
            counts = allowed[seat]
            if counts is None:
                if "7H" in sevens:
                    issues.append(
                        IssueAt(("hands", seat), "7H was in the stock: a seat yet to move holds it not")
                    )
            elif len(sevens) not in counts:
                if counts == (1,) and not sevens:
                    issues.append(IssueAt(("turn",), "a drawn card that is not a 7 passes the turn"))
                else:
                    message = "a seat that drew before the first card holds no 7 but one just drawn"
                    issues.append(IssueAt(("hands", seat), message))
        return issues

    def sevens_after_draws(self, state: SjuanFamilyState) -> list[tuple[int, ...] | None] | None:
        """Before the first card of a deal in which a seat has drawn, how many 7s each seat may hold (None:
        any number, but not 7H); None when the draws do not reach the turn.

        The 7H holder opens at once and the seat left of the dealer opens with any 7 when 7H is in the
        stock, so a draw means 7H was in the stock. A seat with no 7 to open draws a card; a 7 drawn is
        played at once (the turn stays with the seat until it plays it), any other card passes the turn.
        So the seats take turns from the dealer's left, a turn drawing one card, and a seat that drew
        holds no 7 but the one it has just drawn; a seat yet to move may hold any 7 but 7H. Drawing until
        playable, the first seat draws until a 7 comes (7H is in the stock): only it draws, and it holds
        none, or the last it drew."""
        size = self.hand_size(state.options)
        drawn = [len(hand) - size for hand in state.hands]
        first, turn = first_seat(state), state.turn
        second = 1 - first
        if self.draws_until_playable(state.options):
            if turn != first or drawn[second]:
                return None
            return [(0, 1) if seat == first else None for seat in range(2)]
        lead = drawn[first] - drawn[second]
        if lead not in (0, 1) or (turn == second and not drawn[first]):
            return None
        just_drew = lead == (1 if turn == first else 0)  # the seat to act drew a 7 and must play it
        return [((1,) if seat == turn and just_drew else (0,)) if drawn[seat] else None for seat in range(2)]
