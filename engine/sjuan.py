"""The Sjuan family (RULINGS §1): Sjuan, Fan Tan, free fan tan and Domino fan tan.

All four are layout games on one table of suit rows. They differ in who opens and with what, in how a
row grows (both ways from the 7, or upward only from a start rank), and in whether there is a stock.

Decisions where the rulings are silent (also in the README):

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

from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from functools import lru_cache
from operator import add
from typing import Any, ClassVar, cast

from sevens_rules.engine.cards import FULL_DECK, RANKS, deal_round_robin
from sevens_rules.engine.errors import IssueAt
from sevens_rules.engine.game import (
    best_seats,
    constructed,
    drawn_card_for_seat,
    event_of,
    same_model,
    updated,
)
from sevens_rules.engine.match import (
    DEAL_OVER_PHASE,
    MATCH_OVER_PHASE,
    PLAY_PHASE,
    DealSetup,
)
from sevens_rules.engine.sjuan_checks import SjuanChecks
from sevens_rules.schema.common import MAX_SEATS, GameModels
from sevens_rules.schema.sjuan import (
    SJUAN_MATCH_TARGET,
    DominoFanTanOptions,
    DominoFanTanState,
    DominoFanTanView,
    FanTanState,
    FanTanView,
    FreeFanTanOptions,
    FreeFanTanState,
    FreeFanTanView,
    SjuanDeal,
    SjuanEvent,
    SjuanEventType,
    SjuanFamilyState,
    SjuanMove,
    SjuanMoveType,
    SjuanOptions,
    SjuanScore,
    SjuanState,
    SjuanView,
)

MATCH_TARGET = SJUAN_MATCH_TARGET
"""A match ends after a deal in which some penalty total reaches this."""

SEVEN = RANKS.index("7")
KING = RANKS.index("K")
_SEVENS = frozenset("7" + s for s in "CDHS")
_BELOW = {r + s: RANKS[i - 1] + s if i > 0 else "" for i, r in enumerate(RANKS) for s in "CDHS"}
"""The card next below each card in its suit ("", which is no card, below the Ace)."""
_ABOVE = {r + s: RANKS[i + 1] + s if i < KING else "" for i, r in enumerate(RANKS) for s in "CDHS"}
"""The card next above each card in its suit ("", which is no card, above the King)."""
_NEIGHBOURS = {c: tuple(n for n in (_BELOW[c], _ABOVE[c]) if n) for c in FULL_DECK}
"""The cards next in rank to each card in its suit (below, then above; one for an Ace or a King)."""
_CARD_ORDER = {c: i for i, c in enumerate(FULL_DECK)}
_RANK = {r: i for i, r in enumerate(RANKS)}
_TOWARD_SEVEN = {
    c: _ABOVE[c] if _RANK[c[0]] < SEVEN else _BELOW[c] if _RANK[c[0]] > SEVEN else c for c in FULL_DECK
}
"""The card next in rank toward its suit's 7 of each card (a 7 itself): a suit's cards on the table are
one unbroken row through its 7 exactly when each of them has this card on the table too."""
_SUIT_TWICE_ROUND = {s: tuple(RANKS[i % 13] + s for i in range(26)) for s in "CDHS"}
"""Each suit's cards by rank index from the Ace, twice round: a wrapped free fan tan row runs on past the
King to the Ace."""


PLAY = SjuanMoveType.play
PASS = SjuanMoveType("pass")
DRAW = SjuanMoveType.draw
NEXT_DEAL = SjuanMoveType.next_deal
# (module names, as the phases in engine/match.py: an enum member is slow to read off its class)


_event = event_of(SjuanEvent, SjuanEventType)


# Every step of a deal lists the moves of the seat to act and makes one event: the moves and events of
# every seat and card are made (and validated) once here, like ``listed`` would share them, but found
# with a plain lookup instead of hashing their fields each time.
_SEATS = range(MAX_SEATS)
_PLAYS = tuple({c: SjuanMove(type=PLAY, player=seat, card=c) for c in FULL_DECK} for seat in _SEATS)
"""``_PLAYS[seat][card]``: the move playing ``card``."""
_PASSES = tuple(SjuanMove(type=PASS, player=seat) for seat in _SEATS)
"""``_PASSES[seat]``: the seat's pass."""
_DRAWS = tuple(SjuanMove(type=DRAW, player=seat) for seat in _SEATS)
"""``_DRAWS[seat]``: the seat's draw from the stock."""
_NEXT_DEALS = tuple(SjuanMove(type=NEXT_DEAL, player=seat) for seat in _SEATS)
"""``_NEXT_DEALS[seat]``: the seat's ``next_deal`` move as the move list shows it (no deck)."""
_PLAYED = tuple(
    {c: SjuanEvent(type=SjuanEventType.played, player=seat, card=c) for c in FULL_DECK} for seat in _SEATS
)
"""``_PLAYED[seat][card]``: the event of ``seat`` playing ``card``."""
_DREW = tuple(
    {c: SjuanEvent(type=SjuanEventType.drew, player=seat, card=c) for c in FULL_DECK} for seat in _SEATS
)
"""``_DREW[seat][card]``: the event of ``seat`` drawing ``card``."""
CHIP_PAID = SjuanEventType.chip_paid
_DEAL_STARTED = tuple(SjuanEvent(type=SjuanEventType.deal_started, player=seat) for seat in _SEATS)
"""``_DEAL_STARTED[seat]``: the event of ``seat`` dealing."""
_SHORT_HAND_CHIP = tuple(
    SjuanEvent(type=CHIP_PAID, player=seat, chips=1, reason="short_hand") for seat in _SEATS
)
"""``_SHORT_HAND_CHIP[seat]``: the event of ``seat`` paying a chip for a short hand (one chip is all a
short hand pays when dealt)."""
_PASSED = tuple(
    SjuanEvent(type=SjuanEventType.passed, player=seat, chips=1, reason="pass") for seat in _SEATS
)
"""``_PASSED[seat]``: the event of ``seat`` passing and paying a chip."""


_DEAL_RECORD = SjuanDeal(
    number=1, dealer=0, winner=None, blocked=True, cards_left=[], chips=[], penalties=[], pot=0
)
"""A validated deal record with every field given: :meth:`SjuanFamily._end_deal` copies it with every
field replaced, which is the record validation makes (no validator changes what the engine computes)."""
_DEAL_ENDED = SjuanEvent(type=SjuanEventType.deal_ended, player=None, deal=_DEAL_RECORD)
"""A validated ``deal_ended`` event, given the fields every one is given (type, player, deal): copied with
its player and deal replaced, it is the event validation makes."""


class SjuanFamily(SjuanChecks):
    """Rules shared by the four games; subclasses set the opening, the row shape and the stock."""

    min_players = 3
    max_players = 8
    has_stock: ClassVar[bool] = False
    may_block: ClassVar[bool] = False
    """Whether a deal may end blocked, nobody holding a playable card (only in free fan tan): a play asks
    :meth:`blocked_with` only then."""
    lowest_total_wins = True

    # ---- the games' differences (hooks) ----------------------------------------------------------

    def first_turn(self, hands: Sequence[Sequence[str]], dealer: int) -> int:
        """Who moves first in a new deal: the player left of the dealer unless a game says otherwise."""
        return (dealer + 1) % len(hands)

    def opening_cards(self, state: SjuanFamilyState) -> set[str]:
        """The cards that may start the table while it is empty: any 7 unless a game says otherwise."""
        return {"7" + s for s in "CDHS"}

    def playable_now(self, state: SjuanFamilyState) -> AbstractSet[str]:
        """Every card that could be played on the table now, whoever holds it: while the table is empty an
        opening card; then a 7 that is not out yet, or a card next in rank to one of its suit on the table
        (the rows run unbroken through their 7, so that is the card below each row and the card above it).

        The one statement of what may be played: the move list, the legality check, a drawn card, a
        blocked deal, :meth:`playable_cards` and :meth:`playable` all ask it.
        """
        table = state.table
        if not table:
            return self.opening_cards(state)
        return _playable_on(_table_key(table))

    def playable_cards(self, state: SjuanFamilyState, cards: Sequence[str]) -> list[str]:
        """Those of ``cards`` that could be played on the table now (:meth:`playable_now`), in their order."""
        playable = self.playable_now(state)
        return [c for c in cards if c in playable]

    def playable(self, state: SjuanFamilyState) -> set[str]:
        """Every card that could be played on the table now (whoever holds it)."""
        return set(self.playable_now(state))

    def table_issues(self, state: SjuanFamilyState) -> list[IssueAt]:
        """Issues unless every suit's cards on the table form one unbroken row through its 7 (asked once
        the state holds each card once): one issue for each suit where some card's next card toward the 7
        (:data:`_TOWARD_SEVEN`) is missing."""
        table = state.table
        on_table = set(table)
        # the common, consistent table in one subset test, without a Python loop
        if on_table.issuperset(map(_TOWARD_SEVEN.__getitem__, table)):
            return []
        broken = {c[1] for c in table if _TOWARD_SEVEN[c] not in on_table}
        return [
            IssueAt(("table",), f"the {s} cards on the table are not one row through 7{s}")
            for s in "CDHS"
            if s in broken
        ]

    def blocked(self, state: SjuanFamilyState) -> bool:
        """Whether nobody holds a playable card (only possible in free fan tan without wrap)."""
        return self.blocked_with(state, state.table, state.hands)

    def blocked_with(
        self, state: SjuanFamilyState, table: Sequence[str], hands: Sequence[Sequence[str]]
    ) -> bool:
        """:meth:`blocked` of ``state``, whose ``table`` and ``hands`` the caller already holds (a play
        asks it of the state it has just made, from the lists it made it with)."""
        return False

    def stock(self, state: SjuanFamilyState) -> list[str]:
        """The face-down stock (empty unless the game has one)."""
        return []

    def hand_size(self, options: SjuanOptions) -> int:
        """Cards dealt to each player when the game has a stock."""
        return 0

    def draws_until_playable(self, state: SjuanFamilyState) -> bool:
        """Whether a player who drew an unplayable card draws again (while the stock lasts)."""
        return False

    def build_state(self, **fields: Any) -> SjuanFamilyState:
        """A state of this game from its fields (the stock is dropped unless the game has one).

        Built without validation, as :func:`~sevens_rules.engine.game.updated` updates states: the engine
        computed every field of a deal from a checked state or request (validating them again was a fifth
        of dealing), and the test suite checks that validation accepts them and gives the same state.
        ``fields`` name every other field, in the model's order (:func:`~sevens_rules.engine.game.constructed`
        refuses one missing or extra).
        """
        if not self.has_stock:
            fields.pop("stock", None)
        return cast(SjuanFamilyState, constructed(self.models.state, game=self.id, **fields))

    # ---- deal ------------------------------------------------------------------------------------

    def deal(
        self, setup: DealSetup[SjuanOptions, SjuanFamilyState]
    ) -> tuple[SjuanFamilyState, list[SjuanEvent]]:
        players, options, dealer, deal_number, deck = (
            setup.players,
            setup.options,
            setup.dealer,
            setup.deal_number,
            setup.deck,
        )
        cards = list(deck) if deck is not None else setup.seeding.shuffled(FULL_DECK, self.id, deal_number)
        if self.has_stock:
            counts = [self.hand_size(options)] * players
        else:
            counts = [52 // players + (1 if i < 52 % players else 0) for i in range(players)]
            # counts are by position from the dealer's left; turn them into counts by seat
            counts = [counts[(seat - dealer - 1) % players] for seat in range(players)]
        dealt = deal_round_robin(cards, players, (dealer + 1) % players, counts)
        # in canonical order (as sort_cards, without building its order table again for every hand)
        hands = [sorted(hand, key=_CARD_ORDER.__getitem__) for hand in dealt]
        largest = max(counts)
        chips = [1 if count < largest else 0 for count in counts]
        state = self.build_state(
            options=options,
            dealer=dealer,
            deal_number=deal_number,
            **setup.seeding.state_fields(),
            phase=PLAY_PHASE,
            turn=self.first_turn(hands, dealer),
            hands=hands,
            table=[],
            chips=chips,
            deals=setup.deals,
            stock=cards[sum(counts) :],
        )
        return state, _deal_events(state)

    def next_deal_move(self, player: int, deck: list[str] | None = None) -> SjuanMove:
        if deck is None:
            return _NEXT_DEALS[player]
        return SjuanMove(type=NEXT_DEAL, player=player, deck=deck)

    # ---- to act and legal moves ------------------------------------------------------------------

    def to_act(self, state: SjuanFamilyState) -> list[int]:
        # A seat has the turn exactly while a deal is in play (the state check refuses a turn in any other
        # phase and a deal in play without one): the turn alone answers the common case, one model field
        # read instead of two, and every step asks this twice.
        turn = state.turn
        if turn is not None:
            return [turn]
        if state.phase is DEAL_OVER_PHASE:
            return [(state.dealer + 1) % len(state.hands)]
        return []

    def deal_moves(self, state: SjuanFamilyState, player: int) -> list[SjuanMove]:
        plays = _PLAYS[player]
        playable = self.playable_now(state)
        moves = [plays[c] for c in state.hands[player] if c in playable]
        return moves or [self._no_play_move(state, player)]

    def _no_play_move(self, state: SjuanFamilyState, player: int) -> SjuanMove:
        """The one move of a player holding no playable card: draw while there is a stock, else pass."""
        return _DRAWS[player] if self.has_stock and self.stock(state) else _PASSES[player]

    def is_legal_in_deal(self, state: SjuanFamilyState, move: SjuanMove) -> bool:
        """Exactly ``move in self.deal_moves(state, move.player)`` without listing the moves: the plays
        of a list differ in their card, and a list without plays is the one draw or pass, so only one
        listed move can equal ``move``; it is compared as ``in`` would (a move naming a deck equals none)."""
        player, card = move.player, move.card
        hand = state.hands[player]
        playable = self.playable_now(state)
        if card in playable and card in hand:
            listed_move = _PLAYS[player][card]
        elif not playable.isdisjoint(hand):
            return False
        else:
            listed_move = self._no_play_move(state, player)
        return same_model(listed_move, move)

    # ---- resolve ---------------------------------------------------------------------------------

    def resolve_in_deal(
        self, state: SjuanFamilyState, move: SjuanMove
    ) -> tuple[SjuanFamilyState, list[SjuanEvent]]:
        held = state.hands
        n = len(held)
        player, card = move.player, move.card
        if card is None:  # a legal pass or draw names no card, a legal play names its card
            if move.type == PASS:
                chips = list(state.chips)
                chips[player] += 1
                return updated(state, chips=chips, turn=(player + 1) % n), [_PASSED[player]]
            return self._draw(state, player, held)
        # a card is held once (the state check refuses a card found twice): removed as list.remove does,
        # without a comparison in Python for every card of the hand
        hands = list(held)
        hand = hands[player] = list(hands[player])
        hand.remove(card)
        events = [_PLAYED[player][card]]
        # the turn passes on unless the deal ends here (then _end_deal clears it)
        table = [*state.table, card]
        after = updated(state, hands=hands, table=table, turn=(player + 1) % n)
        if not hand:
            return self._end_deal(after, winner=player, events=events)
        if self.may_block and self.blocked_with(after, table, hands):
            return self._end_deal(after, winner=None, events=events)
        return after, events

    def _draw(
        self, state: SjuanFamilyState, player: int, held: Sequence[Sequence[str]]
    ) -> tuple[SjuanFamilyState, list[SjuanEvent]]:
        """``player`` draws the top card of the stock (``held``: the state's hands, already read)."""
        stock = self.stock(state)
        drawn = stock[0]
        hands = list(held)
        hands[player] = sorted([*hands[player], drawn], key=_CARD_ORDER.__getitem__)
        # one copy of the state in the common case, where the turn passes on; the drawn card's
        # playability is asked of the state after the draw (on an empty table a drawn 7H may open)
        after = updated(state, hands=hands, stock=stock[1:], turn=(player + 1) % len(held))
        keeps_turn = drawn in self.playable_now(after) or (
            self.draws_until_playable(after) and len(stock) > 1
        )
        if keeps_turn:
            after = updated(after, turn=player)
        return after, [_DREW[player][drawn]]

    def _end_deal(
        self, state: SjuanFamilyState, winner: int | None, events: list[SjuanEvent]
    ) -> tuple[SjuanFamilyState, list[SjuanEvent]]:
        hands = state.hands
        cards_left = [len(h) for h in hands]
        chips = list(state.chips)
        count_chips = state.options.chips_count
        # the record and its event made as validation would make them, without validating the engine's own
        # numbers again: copies of validated templates with every field the validated ones are given
        deal = updated(
            _DEAL_RECORD,
            number=state.deal_number,
            dealer=state.dealer,
            winner=winner,
            blocked=winner is None,
            cards_left=cards_left,
            chips=chips,
            penalties=[
                cards + (paid if count_chips else 0) for cards, paid in zip(cards_left, chips, strict=True)
            ],
            pot=sum(chips),
        )
        deals = [*state.deals, deal]
        events.append(updated(_DEAL_ENDED, player=winner, deal=deal))
        totals = _totals(deals, len(hands))
        phase = DEAL_OVER_PHASE
        if max(totals) >= MATCH_TARGET:
            phase = MATCH_OVER_PHASE
            events.append(_event(SjuanEventType.match_ended, winners=best_seats(totals, lowest=True)))
        return updated(state, deals=deals, phase=phase, turn=None), events

    # ---- score and view --------------------------------------------------------------------------

    def score(self, state: SjuanFamilyState) -> SjuanScore:
        return SjuanScore(totals=self.seat_totals(state), pot=sum(state.chips), deals=state.deals)

    def seat_totals(self, state: SjuanFamilyState) -> list[int]:
        return _totals(state.deals, len(state.hands))

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


_TABLE_MEMO_SIZE = 256
"""Tables each memo below keeps: a deal asks of a table and of its predecessor only, so a few matches'
worth is plenty. Kept small on purpose: while a memo grows, every new table adds objects the garbage
collector must then sweep (at 4096 the collections were some 5% of a playout); once full, a new entry
only replaces the oldest."""


_table_key: Callable[[Iterable[str]], str] = "".join
"""The memo key of a table (:func:`_playable_on`, :func:`_next_cards_up`): its cards joined into one
string, which is the table itself, since every card is two characters, a rank letter then a suit letter.
Rank and suit letters differ, so a card is found in the string only where it lies on the table.

A string is hashed in one pass over its bytes and compared with one ``memcmp`` where a tuple of the cards
was hashed and compared card by card, and every step asks a memo twice."""


@lru_cache(maxsize=_TABLE_MEMO_SIZE)
def _playable_on(table: str) -> frozenset[str]:
    """The cards not on ``table`` that are a 7 or next in rank to a card of their suit on it: what may be
    played on a table that is not empty in Sjuan, Fan Tan and Domino fan tan (on the empty table it is
    every 7, which the opening rule narrows).

    ``table`` is the table's cards joined into one string (:func:`_table_key`).

    Every step of a deal asks this of a table one card longer than the last (the move list, then the
    legality check, of the same table): memoised on the table's cards, a table's answer is its
    predecessor's with the card added taken out and that card's neighbours not on the table put in,
    which is exactly the definition (a card's own neighbours are the only cards it makes playable),
    instead of a set of the whole table built for every question. Whether a neighbour is on the table is
    a search of the joined cards (see :func:`_table_key` for why a card is found only where it is).
    """
    if not table:
        return _SEVENS
    added = table[-2:]
    before = _playable_on(table[:-2])
    neighbours = _NEIGHBOURS.get(added, ())
    return before.difference((added,)).union([n for n in neighbours if n not in table])


def _deal_events(state: SjuanFamilyState) -> list[SjuanEvent]:
    """The events of a fresh deal: who dealt, and the chips short hands paid."""
    events = [_DEAL_STARTED[state.dealer]]
    events += [
        _SHORT_HAND_CHIP[seat]
        if paid == 1
        else _event(CHIP_PAID, player=seat, chips=paid, reason="short_hand")
        for seat, paid in enumerate(state.chips)
        if paid
    ]
    return events


def _totals(deals: Sequence[SjuanDeal], players: int) -> list[int]:
    totals = [0] * players
    for deal in deals:
        penalties = deal.penalties
        if len(penalties) == players:  # every record of a checked state: added seat by seat in one map
            totals = list(map(add, totals, penalties))
        else:  # a malformed record (asked before the state is checked): as many seats as it names
            for seat, penalty in enumerate(penalties):
                totals[seat] += penalty
    return totals


class Sjuan(SjuanFamily):
    """Swedish Sjuan: the 7♥ holder opens with 7♥, the only legal first move."""

    id = "sjuan"
    name = "Sjuan"
    models = GameModels(SjuanOptions, SjuanState, SjuanMove, SjuanEvent, SjuanView, SjuanScore)

    def first_turn(self, hands: Sequence[Sequence[str]], dealer: int) -> int:
        return next(seat for seat, hand in enumerate(hands) if "7H" in hand)

    def opening_cards(self, state: SjuanFamilyState) -> set[str]:
        return {"7H"}

    def table_issues(self, state: SjuanFamilyState) -> list[IssueAt]:
        issues = super().table_issues(state)
        table = state.table
        if table:
            if table[0] != "7H":
                issues.append(IssueAt(("table", 0), "Sjuan opens with 7H"))
        elif state.phase is PLAY_PHASE and (turn := state.turn) is not None and "7H" not in state.hands[turn]:
            issues.append(IssueAt(("turn",), "the 7H holder opens"))
        return issues


class FanTan(SjuanFamily):
    """Fan Tan: the player left of the dealer opens with any 7 or passes and pays."""

    id = "fan-tan"
    name = "Fan Tan"
    models = GameModels(SjuanOptions, FanTanState, SjuanMove, SjuanEvent, FanTanView, SjuanScore)


class FreeFanTan(SjuanFamily):
    """Free fan tan: any first card; its rank starts every suit's row, which builds upward only."""

    id = "free-fan-tan"
    name = "Free fan tan"
    models = GameModels(FreeFanTanOptions, FreeFanTanState, SjuanMove, SjuanEvent, FreeFanTanView, SjuanScore)
    may_block = True

    def opening_cards(self, state: SjuanFamilyState) -> set[str]:
        return set(FULL_DECK)

    def playable_now(self, state: SjuanFamilyState) -> AbstractSet[str]:
        """Every card that could be played now: any card on an empty table, then the next card up of each
        suit's row (:meth:`next_cards`)."""
        table = state.table
        if not table:
            return self.opening_cards(state)
        options: FreeFanTanOptions = state.options  # type: ignore[assignment]  # (as in blocked_with)
        return _next_cards_up(_table_key(table), options.wrap)

    def next_cards(self, state: SjuanFamilyState) -> frozenset[str]:
        """The next card up of each suit's row on a table that is not empty (:func:`_next_cards_up`)."""
        return _next_cards_up(_table_key(state.table), cast(FreeFanTanOptions, state.options).wrap)

    def table_issues(self, state: SjuanFamilyState) -> list[IssueAt]:
        if not state.table:
            return []
        start = _RANK[state.table[0][0]]
        ranks_by_suit: dict[str, set[int]] = {s: set() for s in "CDHS"}
        for c in state.table:
            ranks_by_suit[c[1]].add(_RANK[c[0]])
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

    def blocked_with(
        self, state: SjuanFamilyState, table: Sequence[str], hands: Sequence[Sequence[str]]
    ) -> bool:
        if not table:
            return False
        # Nobody holds a playable card exactly when there is no next card at all: free fan tan has no
        # stock, so every card off the table is in a hand (the state check refuses a state where one is
        # not, before it asks this), and a next card is never on the table. Looking for the (at most
        # four) next cards in every hand was a tenth of a free fan tan playout.
        options: FreeFanTanOptions = state.options  # type: ignore[assignment]  # (no call to cast: a step)
        return not _next_cards_up(_table_key(table), options.wrap)


@lru_cache(maxsize=_TABLE_MEMO_SIZE)
def _next_cards_up(table: str, wrap: bool) -> frozenset[str]:
    """The next card up of each suit's row on a free fan tan table that is not empty: every row starts at
    the first card's rank; without wrap it ends at the King, with wrap it goes on from the Ace up to the
    rank below the start.

    Memoised on the table's cards joined into one string (:func:`_table_key`): the move list, the
    legality check and the blocked test after a play each ask it of the same table."""
    start = _RANK[table[0]]
    highest = start + 12 if wrap else KING
    # a row's length is the number of its suit's cards on the table; every card is two characters,
    # rank then suit, so the suit letters are every second character (counted without a Python loop)
    played_suits = table[1::2]
    next_cards = []
    for s in "CDHS":
        following = start + played_suits.count(s)  # the rank after the row's last card, counted on past K
        if following <= highest:
            next_cards.append(_SUIT_TWICE_ROUND[s][following])
    return frozenset(next_cards)


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

    def first_turn(self, hands: Sequence[Sequence[str]], dealer: int) -> int:
        return next((seat for seat, hand in enumerate(hands) if "7H" in hand), (dealer + 1) % len(hands))

    def opening_cards(self, state: SjuanFamilyState) -> set[str]:
        if any("7H" in hand for hand in state.hands):
            return {"7H"}
        return super().opening_cards(state)

    def stock(self, state: SjuanFamilyState) -> list[str]:
        return cast(DominoFanTanState, state).stock

    def hand_size(self, options: SjuanOptions) -> int:
        return cast(DominoFanTanOptions, options).hand_size

    def draws_until_playable(self, state: SjuanFamilyState) -> bool:
        return cast(DominoFanTanOptions, state.options).draw_until_playable
