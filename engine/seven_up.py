"""The Seven-Up family (RULINGS §3, text 002): Seven-Up, Four-handed Seven-Up and California Jack.

Trick taking with a 52-card pack, Ace high; the trick, following and card-point rules live in
:mod:`engine.tricks`. Seven-Up turns a card for trump, lets the eldest stand or beg and the dealer give or
run the cards; California Jack rolls the trump with the face-up top card of the stock.

Decisions where the texts are silent (also in the README):

- **The cut** for the first dealer (all three games, skipped when the request names a dealer) is drawn
  from the documented shuffle with purpose ``cut`` and deal number 1 (a stream of its own, see
  ``engine/dealing.py``). Seats cut in seat order taking cards from the
  top; the highest rank (Ace high, suits equal) deals; the tied seats cut again with the next cards. If
  that pack ran out (possible only in theory) the lowest tied seat deals. The rounds are kept in the
  state's ``cut`` field (``new`` has no events, so the state is where the cut shows).
- **Dealing**: two packets of three to each seat, clockwise from the eldest (dealer + 1); the next card
  is turned. A run deals one packet of three to each seat, from the eldest, then turns the next card.
  The run first sets the refused card aside; if fewer than ``3 * players + 1`` cards are left at any
  turn of the run, the deal is thrown in (its points cancelled) and the same dealer deals the next deal
  (a new deal number, so a new shuffle).
- **Four-handed**: all four seats receive the run's cards and discard; only the eldest stands or begs and
  only the dealer gives or runs. Seats dealer+2 and dealer+3 see their hand only as a count
  (``hand_hidden``) as long as the deal's trump is not settled: in ``stand_or_beg`` and ``give_or_run``,
  and also when the deal ends without a settled trump — after a throw-in (``deal_over`` until the next
  deal) and when the first turned Jack wins the match before anyone stood or begged (``match_over``).
  Their cards stay in the state (a finished deal keeps its cards, as every finished deal does); only
  the view hides them. A gift or a run that turns a new suit settles trump, so after them the hands show.
- **Discarding** after a run happens in turn from the eldest, **one card per ``discard`` move**
  (``cards`` holds exactly one card): the seat keeps the turn until it holds six, then the next seat
  discards. Listing every combination at once would mean up to C(21,15) = 54,264 moves after repeated
  runs (and C(15,9) = 5,005 routinely with three players), which a random playout cannot afford; card by
  card, every legal move is listed (at most 21) and the result is the same set of discards.
- **High and Low** go to whoever *played* the highest/lowest trump; Jack to the winner of the trick
  holding the trump Jack; if no trump was played there is no High, Low or Jack. **Game** goes to the
  side with the unique most card points; for partners its ``seat`` is null.
- **Match end**: the moment a side reaches the target (7; California Jack 10). Points scored during a deal
  (turned Jack, gift) count at once; end-of-hand points are added one at a time, High, Low, Jack, Game,
  and counting stops at the winning point. A deal cut short by the match end is recorded with outcome
  ``match_won``. Points of a thrown-in deal never end the match (they are cancelled).
- **California Jack**: after each trick the winner draws the face-up top card, the loser the next, and
  the new top card is turned (setting trump unless ``fixed_trump``). High/Low/Jack are the A, 2 and J of
  the final trump suit, to whoever won the trick holding them (all 52 cards are played).
- **Views** show completed tricks (they were played face up), never the stock order or others' hands or
  discards; the cut is left out of views (its cards come from another pack). Point records name reason,
  seat and side; the card behind a point (High, Low, Jack, turned Jack) is in its ``point`` event.
- **Consistency of points** (what ``consistency_issues`` derives from the cards the state still holds):
  the turned-Jack points of the deal in progress (or of the finished deal in ``deal_over``/``match_over``)
  are exactly one per Jack among the first turned card (``set_aside[0]`` after a run) and the new trump
  a run turned (``turned``); refused-suit cards turned in a run score nothing. A gift needs a settled
  trump without a run; in ``play`` a stand and a give leave the same cards, so there a gift (at most one,
  for the eldest, after the first card's Jack) may or may not be present. A played deal whose tricks are
  still in the state must record exactly the points :meth:`SevenUpFamily.hand_points` gives, counted
  until the winning point (:meth:`SevenUpFamily.counted`, the function the rules count with). Older deal
  records are checked by shape: a thrown-in deal holds at most its first card's turned Jack (trump null),
  a ``match_won`` deal holds only points scored during it and is the last deal, a played deal holds
  during-deal points, then High and Low (together), Jack, Game in that order, cut short only by the end
  of the match.
- ``deal_over``: the next dealer (the same one after a throw-in) sends ``next_deal``. Every deal,
  thrown-in ones included, gets a new deal number and so a new shuffle (``deal_number - 1``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..schema.common import GameModels
from ..schema.seven_up import (
    CaliforniaJackOptions,
    CaliforniaJackState,
    CaliforniaJackView,
    FourHandedSevenUpState,
    FourHandedSevenUpView,
    SevenUpCutRound,
    SevenUpDeal,
    SevenUpEvent,
    SevenUpMove,
    SevenUpOptions,
    SevenUpPoint,
    SevenUpScore,
    SevenUpState,
    SevenUpView,
)
from .card_sets import CARD_INDEX, SUIT_SIZE, SUITS, card_names
from .cards import FULL_DECK
from .errors import IssueAt
from .game import NewMatch
from .match import DealSetup
from .models import updated
from .seven_up_checks import SevenUpFamily, shows_void
from .seven_up_points import (
    _UNSETTLED,
    HAND_SIZE,
    HIGH_KEY,
    JACK_KEY,
    LOW_KEY,
    OptionsT,
    Scored,
    StateT,
    ViewT,
)
from .seven_up_position import (
    ACE,
    DISCARDING,
    GIVE_OR_RUN,
    JACK,
    MATCH_WON,
    PLAYING,
    STAND_OR_BEG,
    SUIT_INDEX,
    THROWN_IN,
    TWO,
    Outcome,
    Phase,
    Reason,
    SevenUpMatch,
    SevenUpPosition,
    Trick,
    read_position,
    write_state,
)
from .seven_up_rules import (
    GIVE_OR_RUN_CODES,
    STAND_OR_BEG_CODES,
    Log,
    cut_for_dealer,
)
from .seven_up_wire import (
    DISCARDS,
    DREW,
    DREW_UNSEEN,
    PLAYS,
    STOCK_TOP_TURNED,
    WIRE_MOVES,
    write_move,
)

__all__ = ["CaliforniaJack", "FourHandedSevenUp", "SevenUp", "SevenUpFamily", "SevenUpWire", "cut_for_dealer"]

_HONOUR_RANKS: tuple[tuple[str, int], ...] = ((HIGH_KEY, ACE), (LOW_KEY, TWO), (JACK_KEY, JACK))
"""California Jack's High, Low and Jack (by their reasons' values) with the rank of the final trump suit
behind each."""


SUIT_NAMES = {
    letter: frozenset(FULL_DECK[suit * SUIT_SIZE : (suit + 1) * SUIT_SIZE])
    for suit, letter in enumerate("CDHS")
}
"""``SUIT_NAMES[suit letter]``: the names of that suit's cards."""


class SevenUpWire(SevenUpFamily[OptionsT, StateT, ViewT]):
    """The Seven-Up family on the wire: each operation reads the state's position (once per state, see
    :class:`~sevens_rules.engine.positions.PositionWire`) and asks the rules."""

    # ---- the wire side: a state's position, and the state of a position --------------------------

    def read(self, state: StateT) -> SevenUpPosition:
        return read_position(state, self._seat_sides, self._side_counts[len(state.hands)])

    def state_of(self, position: SevenUpPosition) -> StateT:
        """The wire state of ``position``, kept with its position as the last state."""
        state: StateT = write_state(position, self.models.state, self.id)
        self.remember(state, position)
        return state

    def _dealt(self, match: SevenUpMatch, deck: Sequence[str]) -> tuple[StateT, list[SevenUpEvent]]:
        log: list[SevenUpEvent] = []
        position = self.deal_position(match, deck, log)
        return self.state_of(position), log

    def start(self, request: NewMatch[OptionsT]) -> tuple[StateT, list[SevenUpEvent]]:
        players, options, seeding, dealer = request.players, request.options, request.seeding, request.dealer
        cut: list[SevenUpCutRound] = []
        if dealer is None:
            cut, dealer = cut_for_dealer(seeding, self.id, players)
        zeros = (0,) * self._side_counts[players]
        match = SevenUpMatch(
            players, dealer, 1, [], (), zeros, cut, options, seeding.seed, seeding.entropy, seeding.commitment
        )
        deck = request.deck if request.deck is not None else seeding.shuffled(FULL_DECK, self.id, 1)
        return self._dealt(match, deck)

    def sealed_state(self, state: StateT) -> StateT:
        """A sealed match keeps no cut: no answer from a token shows it (views leave it out, and a sealed
        state is never answered whole), and its rounds (one more per tie) would be the one thing in a
        token's length that no seat knows. The first dealer stays in the state, and ``verify`` recomputes
        the cut from the revealed seed."""
        return updated(state, cut=[]) if state.cut else state

    def deal(self, setup: DealSetup[OptionsT, StateT]) -> tuple[StateT, list[SevenUpEvent]]:
        previous = setup.previous
        assert previous is not None  # (start deals the first deal)
        before = self.position(previous).match
        seeding = setup.seeding
        match = SevenUpMatch(
            setup.players,
            setup.dealer,
            setup.deal_number,
            setup.deals,
            (),
            before.totals,
            before.cut,
            setup.options,
            seeding.seed,
            seeding.entropy,
            before.commitment,
        )
        deck = (
            setup.deck if setup.deck is not None else seeding.shuffled(FULL_DECK, self.id, setup.deal_number)
        )
        return self._dealt(match, deck)

    def deal_moves(self, state: StateT, player: int) -> list[SevenUpMove]:
        """The moves of :meth:`position_moves_to_act` as wire moves; plays in the order the state lists
        the seat's hand (canonical in every state the engine writes; a posted state may list it otherwise,
        and its plays follow it)."""
        position = self.position(state)
        phase = position.phase
        if phase is PLAYING:
            allowed = self.playable(position, player)
            held = state.hands[player]
            pick = PLAYS[player].__getitem__
            if allowed == position.hands[player]:  # every card (a lead, or no card of the led suit)
                return list(map(pick, held))
            if not allowed & ~SUITS[position.trick[0] // SUIT_SIZE]:  # the led suit only (picked in C)
                return list(map(pick, filter(SUIT_NAMES[state.trick[0][1]].__contains__, held)))
            index = CARD_INDEX
            return [pick(card) for card in held if allowed >> index[card] & 1]
        if phase is DISCARDING:
            hand = position.hands[player]
            discards = DISCARDS[player]
            return [discards[card] for card in card_names(hand)] if hand.bit_count() > HAND_SIZE else []
        if phase is STAND_OR_BEG or phase is GIVE_OR_RUN:
            moves = WIRE_MOVES[player]
            codes = STAND_OR_BEG_CODES if phase is STAND_OR_BEG else GIVE_OR_RUN_CODES
            return [moves[code] for code in codes]
        return []

    def wire_step(
        self, state: StateT, position: SevenUpPosition, code: int
    ) -> tuple[StateT, list[SevenUpEvent]]:
        """The position's step with its events logged (the rules log them as they go, so the family
        defines this hook rather than the shared cycle's ``write_step``), then the state written once
        (:func:`write_move`)."""
        log: list[SevenUpEvent] = []
        after = self.position_apply(position, code, log)
        written = write_move(state, position, code, after)
        self.remember(written, after)
        return written, log

    def next_dealer(self, state: StateT) -> int:
        """Who deals next: the same dealer after a throw-in, else the seat left of the dealer."""
        if state.deals and state.deals[-1].outcome is THROWN_IN:
            return state.dealer
        return (state.dealer + 1) % len(state.hands)

    # ---- view ------------------------------------------------------------------------------------

    def trump_settled(self, state: StateT) -> bool:
        """Whether the deal the state holds has settled its trump: the eldest stood, the dealer gave, or
        a run turned a new suit. Never after a throw-in, nor when the first turned Jack won the match
        before anyone stood or begged (California Jack: always)."""
        if state.phase in (DISCARDING, PLAYING):
            return True
        if state.phase in _UNSETTLED:
            return False
        if not state.deals:
            return True
        last = state.deals[-1]
        if last.outcome is THROWN_IN:
            return False
        if last.outcome is MATCH_WON and not state.set_aside:
            return any(p.reason is Reason.gift for p in last.points)
        return True

    def hand_hidden(self, state: StateT, player: int) -> bool:
        """Whether ``player`` may not look at their own hand now (Four-handed, seats dealer+2 and
        dealer+3 while the trump of the deal is not settled, see :meth:`trump_settled`)."""
        return False

    def stock_top(self, state: StateT) -> str | None:
        """The stock card a seat sees face up (none: Seven-Up's stock is face down)."""
        return None

    def seat_view(self, state: StateT, player: int) -> dict[str, object]:
        hidden = self.hand_hidden(state, player)
        return dict(
            to_act=self.to_act(state),
            hand=[] if hidden else state.hands[player],
            hand_hidden=hidden,
            stock_size=len(state.stock),
            stock_top=self.stock_top(state),
            turned=state.turned,
            trump=state.trump,
            set_aside=state.set_aside,
            discarded=state.discarded[player],
            discard_counts=[len(d) for d in state.discarded],
            leader=state.leader,
            trick=state.trick,
            tricks=state.tricks,
            points=state.points,
            totals=self.totals(state),
        )


class SevenUp(SevenUpWire[SevenUpOptions, SevenUpState, SevenUpView]):
    """Seven-Up (All Fours): 2 or 3 players, each for themself, first to 7."""

    id = "seven-up"
    name = "Seven-Up"
    min_players = 2
    max_players = 3
    models = GameModels(SevenUpOptions, SevenUpState, SevenUpMove, SevenUpEvent, SevenUpView, SevenUpScore)


class FourHandedSevenUp(SevenUpWire[SevenUpOptions, FourHandedSevenUpState, FourHandedSevenUpView]):
    """Four-handed Seven-Up: partners opposite (0+2, 1+3); seats dealer+2 and dealer+3 may not look at
    their hands until trump is settled."""

    id = "four-handed-seven-up"
    name = "Four-handed Seven-Up"
    min_players = 4
    max_players = 4
    models = GameModels(
        SevenUpOptions, FourHandedSevenUpState, SevenUpMove, SevenUpEvent, FourHandedSevenUpView, SevenUpScore
    )

    def side_count(self, players: int) -> int:
        return 2

    def side_of(self, seat: int) -> int:
        return seat % 2

    def game_point_seat(self, side: int) -> int | None:
        return None

    def hand_hidden(self, state: FourHandedSevenUpState, player: int) -> bool:
        if self.trump_settled(state):
            return False
        n = len(state.hands)
        return player in ((state.dealer + 2) % n, (state.dealer + 3) % n)


class CaliforniaJack(SevenUpWire[CaliforniaJackOptions, CaliforniaJackState, CaliforniaJackView]):
    """California Jack: 2 players, rolling trump from the face-up stock, High/Low/Jack of the final
    trump suit, first to 10."""

    id = "california-jack"
    name = "California Jack"
    min_players = 2
    max_players = 2
    target = 10
    hidden_piles = ()
    """The stock's top card is face up (its other cards stay unseen, but the test of that is the game's)."""
    models = GameModels(
        CaliforniaJackOptions,
        CaliforniaJackState,
        SevenUpMove,
        SevenUpEvent,
        CaliforniaJackView,
        SevenUpScore,
    )

    def game_point(self, options: Any) -> bool:
        return bool(options.game_point)

    def tricks_per_deal(self) -> int:
        return 26

    def draws_made(self, state: Any) -> int:
        """The tricks of this deal after which the seats drew: every seat draws one card after each trick
        while the stock lasts."""
        players = len(state.hands)
        return (len(FULL_DECK) - HAND_SIZE * players - len(state.stock)) // players

    def tricks_from_hands(self, state: Any) -> list[tuple[int, Sequence[str], str | None]]:
        """The tricks played since the last draw from the stock: both seats draw after every trick while
        the stock lasts, so the trick in progress, and once the stock is spent, the tricks after its
        last draw too."""
        return super().tricks_from_hands(state)[self.draws_made(state) :]

    def face_up_cards_taken(self, state: Any) -> list[tuple[int, int, str]]:
        """(trick, seat, suit) for each face-up stock card a trick's winner took in this deal, as far as the
        state tells its suit: the face-up card sets the trump of the trick after which the winner takes it,
        so its suit is that trick's trump (with ``fixed_trump``, the first trick's only)."""
        draws = self.draws_made(state)
        known = min(1, draws) if state.options.fixed_trump else draws
        return [(index, trick.winner, trick.trump) for index, trick in enumerate(state.tricks[:known])]

    def _spent_stock_trump_issues(self, state: Any) -> list[IssueAt]:
        """Issues for a trick whose trump changed after the stock's last face-up card set it (RULINGS:
        once the stock is empty the remaining tricks keep the last trump suit): the draw after a trick
        turns a new top card while it leaves cards in the stock, so the trick after the last such draw
        sets the trump of every trick after it."""
        players = len(state.hands)
        last_set = (len(FULL_DECK) - HAND_SIZE * players) // players - 1
        tricks = state.tricks
        if len(tricks) <= last_set + 1:
            return []
        trump = tricks[last_set].trump
        return [
            IssueAt(
                ("tricks", index, "trump"),
                f"the stock is spent: every trick from trick {last_set} keeps its trump",
            )
            for index in range(last_set + 1, len(tricks))
            if tricks[index].trump != trump
        ]

    def drawn_card_issues(self, state: Any) -> list[IssueAt]:
        """An issue for a trick's trump changed once the stock was spent
        (:meth:`_spent_stock_trump_issues`), else for a seat that cannot still hold, nor have played since,
        the face-up cards it took (:meth:`face_up_cards_taken`). A card taken after trick ``t`` is in the
        hand or was played to a later trick, before any trick in which the seat showed it held none of the
        suit. Counted from the last trick back, per seat and suit: the cards that could be those taken
        since the last such trick (the hand's, then the seat's plays) against the takings; the candidates
        of the takings between two such tricks nest (a later taking's are among an earlier one's), so
        Hall's condition is that count."""
        spent = self._spent_stock_trump_issues(state)
        if spent:
            return spent
        taken = {index: (seat, suit) for index, seat, suit in self.face_up_cards_taken(state)}
        if not taken:
            return []
        n = len(state.hands)
        may_trump = state.options.may_trump_when_able_to_follow
        candidates = [Counter(card[1] for card in hand) for hand in state.hands]
        needed: list[Counter[str]] = [Counter() for _ in range(n)]
        tricks = super().tricks_from_hands(state)  # every trick of the deal, the one in progress too
        for index in range(len(tricks) - 1, -1, -1):
            if index in taken:
                seat, suit = taken[index]
                needed[seat][suit] += 1
                if needed[seat][suit] > candidates[seat][suit]:
                    message = f"seat {seat} took a face-up {suit} after trick {index}; it holds or played it"
                    return [IssueAt(("hands", seat), message)]
            leader, cards, trump = tricks[index]
            led = cards[0][1]
            for offset, card in enumerate(cards):
                seat, played = (leader + offset) % n, card[1]
                if offset and shows_void(led, played, trump, may_trump):
                    candidates[seat][led] = needed[seat][led] = 0
                candidates[seat][played] += 1
        return []

    def reveal_trump(
        self, match: SevenUpMatch, hands: tuple[int, ...], rest: list[str], log: Log
    ) -> SevenUpPosition:
        """The rest of the pack is the stock; its face-up top card sets trump and the eldest leads."""
        top = rest[0]
        if log is not None:
            log.append(STOCK_TOP_TURNED[top])
        eldest = (match.dealer + 1) % match.players
        return SevenUpPosition(
            hands,
            rest,
            None,
            SUIT_INDEX[top[1]],
            (),
            (0,) * match.players,
            eldest,
            (),
            (),
            (),
            match.totals,
            PLAYING,
            eldest,
            match,
        )

    def draw_after_trick(
        self, position: SevenUpPosition, hands: list[int], winner: int, log: Log
    ) -> tuple[Sequence[str], int]:
        """The winner draws the face-up top card, the loser the next; the new top card sets trump unless
        ``fixed_trump``."""
        stock = position.stock
        if not stock:
            return stock, position.trump
        loser = (winner + 1) % len(hands)
        won, lost = CARD_INDEX[stock[0]], CARD_INDEX[stock[1]]
        hands[winner] |= 1 << won
        hands[loser] |= 1 << lost
        if log is not None:
            log.append(DREW[winner][won])
            log.append(DREW_UNSEEN[loser])
        trump = position.trump
        if len(stock) > 2 and not position.match.options.fixed_trump:
            top = stock[2]
            trump = SUIT_INDEX[top[1]]
            if log is not None:
                log.append(STOCK_TOP_TURNED[top])
        return stock[2:], trump

    def honours(self, tricks: Sequence[Trick], trump: int, n: int) -> Scored:
        """A, 2 and J of the final trump suit to whoever won the trick holding them."""
        points: Scored = []
        by_seat = self._points_by_seat
        for reason_key, rank in _HONOUR_RANKS:
            card = trump * SUIT_SIZE + rank
            for trick in tricks:
                if card in trick.cards:
                    points.append((by_seat[reason_key][trick.winner], FULL_DECK[card]))
                    break
        return points

    def trump_settled(self, state: CaliforniaJackState) -> bool:
        return True

    def stock_top(self, state: CaliforniaJackState) -> str | None:
        return state.stock[0] if state.stock else None

    def honour_sequences(self) -> list[tuple[Reason, ...]]:
        """All 52 cards are played, so High, Low and Jack are always there."""
        return [(Reason.high, Reason.low, Reason.jack)]

    def during_deal_sequences(self) -> set[tuple[Reason, ...]]:
        """Nothing scores before the hand is played (no turned card, no gift)."""
        return {()}

    def turned_jack_points(self, state: CaliforniaJackState) -> list[SevenUpPoint]:
        return []

    def outcome_issues(self, path: tuple[str | int, ...], deal: SevenUpDeal) -> list[IssueAt]:
        if deal.outcome is not Outcome.played:
            return [IssueAt((*path, "outcome"), "a California Jack deal is always played out")]
        return []

    def card_issues(self, state: CaliforniaJackState, n: int, sizes: list[int]) -> list[IssueAt]:
        issues: list[IssueAt] = []
        if state.turned is not None or state.set_aside or any(state.discarded):
            issues.append(
                IssueAt(("phase",), "California Jack has no turned card, set-aside cards or discards")
            )
        t = len(state.tricks)
        stock_left = 52 - HAND_SIZE * n
        fixed = state.options.fixed_trump
        for i, trick in enumerate(state.tricks):
            if trick.trump is None:
                issues.append(
                    IssueAt(("tricks", i, "trump"), "every California Jack trick is played with a trump")
                )
            elif fixed and trick.trump != state.trump:
                issues.append(
                    IssueAt(("tricks", i, "trump"), "with fixed_trump every trick has the same trump")
                )
        if state.phase is Phase.play:
            if state.leader is None or state.trump is None:
                return [*issues, IssueAt(("phase",), "play needs a leader and a trump")]
            if len(state.stock) != max(0, stock_left - n * t):
                issues.append(IssueAt(("stock",), "two cards are drawn after each trick"))
            per_seat = HAND_SIZE if t <= stock_left // n else 26 - t
            issues += self._play_sizes(state, n, sizes, per_seat)
            if state.stock and (not fixed or not t) and state.trump != state.stock[0][1]:
                # before the first trick the face-up top card sets trump, fixed_trump or not
                issues.append(IssueAt(("trump",), "the stock's face-up top card sets trump"))
            if state.tricks and (fixed or not state.stock) and state.tricks[-1].trump != state.trump:
                issues.append(IssueAt(("trump",), "the trump suit holds (fixed or once the stock is empty)"))
        elif any(sizes) or state.stock or t != 26 or state.trump is None:
            issues.append(IssueAt(("hands",), "a played deal ends with every card played"))
        elif state.tricks[-1].trump != state.trump:
            issues.append(IssueAt(("trump",), "the final trump suit is the last trick's"))
        return issues
