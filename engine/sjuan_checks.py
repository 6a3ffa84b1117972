"""What a posted state of the Sjuan family tells beyond its cards (RULINGS §1; the rules are
:mod:`sevens_rules.engine.sjuan`, whose family class builds on :class:`SjuanChecks`): the consistency
checks, which refuse a state impossible in play, and the cards its passes rule out of each hand, which
the bots' sampler reads."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import replace
from operator import add
from typing import Any, ClassVar

from ..schema.sjuan import SJUAN_MATCH_TARGET as MATCH_TARGET
from ..schema.sjuan import SjuanEvent, SjuanFamilyState, SjuanMove, SjuanOptions, SjuanScore
from .card_sets import ALL_CARDS, CARD_INDEX, card_set
from .cards import FULL_DECK, RANKS
from .errors import IssueAt
from .game import bound_issues, conservation_issues, length_issues, seat_issues
from .match import MATCH_OVER_PHASE, PLAY_PHASE, DealtMatch, RecordCheck
from .sjuan_position import SjuanPosition, hand_counts

SEVEN = RANKS.index("7")
KING = RANKS.index("K")
_BELOW = {r + s: RANKS[i - 1] + s if i > 0 else "" for i, r in enumerate(RANKS) for s in "CDHS"}
"""The card next below each card in its suit ("", which is no card, below the Ace)."""
_ABOVE = {r + s: RANKS[i + 1] + s if i < KING else "" for i, r in enumerate(RANKS) for s in "CDHS"}
"""The card next above each card in its suit ("", which is no card, above the King)."""
RANK_OF = {r: i for i, r in enumerate(RANKS)}
_TOWARD_SEVEN = {
    c: _ABOVE[c] if RANK_OF[c[0]] < SEVEN else _BELOW[c] if RANK_OF[c[0]] > SEVEN else c for c in FULL_DECK
}
"""The card next in rank toward its suit's 7 of each card (a 7 itself): a suit's cards on the table are
one unbroken row through its 7 exactly when each of them has this card on the table too."""
_BELOW_SEVEN = sum(1 << (suit * 13 + rank) for suit in range(4) for rank in range(SEVEN))
"""The cards ranked below their suit's 7 (a card's bit is ``suit * 13 + rank``)."""
_ABOVE_SEVEN = sum(1 << (suit * 13 + rank) for suit in range(4) for rank in range(SEVEN + 1, KING + 1))
"""The cards ranked above their suit's 7."""


class SjuanChecks(DealtMatch[Any, Any, SjuanMove, SjuanEvent, Any, SjuanScore]):
    """The checks a posted state of the Sjuan family goes through, and what its passes tell, on the
    family's hooks (defined by :class:`~sevens_rules.engine.sjuan.SjuanFamily`, changed by each game)."""

    has_stock: ClassVar[bool]

    @abstractmethod
    def position(self, state: SjuanFamilyState) -> SjuanPosition:
        """The position of ``state``, read once (:func:`~sevens_rules.engine.sjuan_position.read_position`;
        asked before the state is checked, its sets of cards are sums of card bits)."""

    @abstractmethod
    def stock(self, state: SjuanFamilyState) -> list[str]:
        """The face-down stock (empty unless the game has one)."""

    # ---- the family's hooks these read (:class:`~sevens_rules.engine.sjuan.SjuanFamily`) -------------

    @abstractmethod
    def first_turn(self, hands: Sequence[int], dealer: int) -> int:
        """Who moves first in a new deal whose hands are ``hands`` (card sets)."""

    @abstractmethod
    def opening(self, position: SjuanPosition) -> int:
        """The cards that may start the table while it is empty."""

    @abstractmethod
    def playable_set(self, position: SjuanPosition) -> int:
        """Every card that could be played on the table now, whoever holds it."""

    def may_block(self, options: SjuanOptions) -> bool:
        """Whether a deal can end with nobody able to play (free fan tan without wrap: cards below the
        start rank are never played); every other game deals every card or draws."""
        return False

    @abstractmethod
    def hand_size(self, options: SjuanOptions) -> int:
        """Cards dealt to each player when the game has a stock (0: the whole deck is dealt)."""

    def table_issues(self, state: SjuanFamilyState) -> list[IssueAt]:
        """Issues unless every suit's cards on the table form one unbroken row through its 7 (asked once
        the state holds each card once): one issue for each suit where some card's next card toward the 7
        (:data:`_TOWARD_SEVEN`) is missing."""
        # the common, consistent table on the position's set of cards (each card on the table once, as
        # asked here): the card above each card below a 7, and the card below each card above a 7, are on
        # the table (within a suit: a shift moves a card of those ranks one rank toward its 7)
        on = self.position(state).on_table
        if not ((on & _BELOW_SEVEN) << 1 | (on & _ABOVE_SEVEN) >> 1) & ~on:
            return []
        table = state.table
        on_table = set(table)
        broken = {c[1] for c in table if _TOWARD_SEVEN[c] not in on_table}
        return [
            IssueAt(("table",), f"the {s} cards on the table are not one row through 7{s}")
            for s in "CDHS"
            if s in broken
        ]

    def earlier_cards(self, state: SjuanFamilyState) -> Mapping[str, str]:
        """For each card, the card that must be on the table before it can be played (the card itself
        when none must): in a layout game the next card toward its 7 (:data:`_TOWARD_SEVEN`), a 7 needing
        none. Asked with a table that holds each card once and forms its rows, at least one card."""
        return _TOWARD_SEVEN

    def table_order_issues(self, state: SjuanFamilyState) -> list[IssueAt]:
        """An issue unless the table lists its cards in an order they could have been played in (the
        schema's "in the order they were played": a row grows one card at a time from its start, so each
        card comes after the card :meth:`earlier_cards` names for it), at the first card out of order."""
        table = state.table
        if not table:
            return []
        earlier = self.earlier_cards(state)
        played: set[str] = set()
        for index, card in enumerate(table):
            needed = earlier[card]
            if needed != card and needed not in played:
                message = f"{card} cannot be played before {needed} (the table lists cards in play order)"
                return [IssueAt(("table", index), message)]
            played.add(card)
        return []

    # ---- before the first card -------------------------------------------------------------------

    def opening_passes(self, state: SjuanFamilyState) -> tuple[list[int], int]:
        """Before the first card of a deal in play: the seats that have passed, in turn (the first to act,
        :meth:`first_turn`, and each seat after it up to the seat to act), and the cards that could open
        (:meth:`opening`), none of which a seat that passed holds (it would have had to play one)."""
        position = self.position(state)
        n = len(state.hands)
        first: int = self.first_turn(position.hands, state.dealer)
        turn: int = state.turn  # type: ignore[assignment]  # (a deal in play has a seat to act)
        return [(first + k) % n for k in range((turn - first) % n)], self.opening(position)

    def opening_issues(self, state: SjuanFamilyState) -> list[IssueAt]:
        """Before the first card: the seats the turn has passed (:meth:`opening_passes`) held no card to open
        with, and each paid a chip for its pass; no seat paid more than that and a short hand's chip, which
        the seats holding the largest hand did not pay (:meth:`possible_short_hand_chips`). The hands need
        not be the sizes the rules deal: a position set up by hand (the Swedish text's own example deals 3,
        25 and 24 cards) is accepted, its short hands read from the hands it holds."""
        passed, opening = self.opening_passes(state)
        hands = self.position(state).hands
        issues = [
            IssueAt(("turn",), f"seat {seat} holds a card to open with: the turn cannot have passed it")
            for seat in passed
            if hands[seat] & opening
        ]
        # a short hand's chip is not required: a position set up by hand need not have paid it (the
        # Swedish text's example shows none)
        possible = self.possible_short_hand_chips(state)
        for seat, (paid, short) in enumerate(zip(state.chips, possible, strict=True)):
            passes = int(seat in passed)
            if not passes <= paid <= passes + short:
                message = (
                    "before the first card a seat has paid one chip for its pass, one for a short hand"
                    if short
                    else "before the first card a seat holding the largest hand has paid only for its pass"
                )
                issues.append(IssueAt(("chips", seat), message))
        return issues

    # ---- what a pass tells (the bots' sampler) ---------------------------------------------------

    passes_before_first_card: ClassVar[int] = 0
    """Passes a seat may make before the first card (Fan Tan: one, the turn going round once at most)."""

    def cards_passes_rule_out(self, state: SjuanFamilyState) -> list[int]:
        """Per seat, the cards off the table it cannot hold for the passes it paid for in the deal in play
        (none before the first card, where :meth:`opening_passes` tells, nor between deals): its chips less
        a short hand's chip as the rules deal (:func:`hand_counts`) count its passes. A seat that passed once
        the first card was down held no card playable on that card alone: such a card stays playable as
        the table grows (a row grows away from its start) and hands only shrink. A pass that may have come
        before the first card says only that the seat held no card to open with."""
        n = len(state.hands)
        return self._ruled_out(state, hand_counts(n, state.dealer, self.hand_size(state.options))[1])

    def cards_passes_surely_rule_out(self, state: SjuanFamilyState) -> list[int]:
        """:meth:`cards_passes_rule_out` where a seat may have paid a short hand's chip whatever hands were
        dealt (:meth:`possible_short_hand_chips`), as a position set up by hand may have dealt any hands:
        what the chips rule out whatever the deal was (the checks refuse a state that breaks it; the
        sampler falls back on it)."""
        return self._ruled_out(state, self.possible_short_hand_chips(state))

    def possible_short_hand_chips(self, state: SjuanFamilyState) -> list[int]:
        """Per seat, 1 when its first chip may be a short hand's whatever hands were dealt, else 0. Without
        a stock hands only shrink: a seat was dealt at least the cards it holds, and another at most the
        cards it holds and every card on the table, so a seat holding at least that many for every other
        seat was dealt the largest hand (or one as large) and paid no chip for it. With a stock (Domino fan
        tan) hands grow by drawing, and any seat's first chip may be a short hand's."""
        n = len(state.hands)
        if self.has_stock:
            return [1] * n
        sizes = [len(hand) for hand in state.hands]
        on_table = len(state.table)
        return [
            int(any(other + on_table > size for j, other in enumerate(sizes) if j != seat))
            for seat, size in enumerate(sizes)
        ]

    def _ruled_out(self, state: SjuanFamilyState, short_chips: Sequence[int]) -> list[int]:
        position = self.position(state)
        if not position.table or position.phase is not PLAY_PHASE:
            return [0] * len(state.hands)
        first = position.table[0]
        alone = replace(position, table=(first,), on_table=1 << CARD_INDEX[first])
        since_first = self.playable_set(alone) & ~position.on_table
        at_opening = since_first & self.opening(position)
        before = self.passes_before_first_card
        return [
            since_first if paid - chip > before else at_opening if paid > chip else 0
            for paid, chip in zip(state.chips, short_chips, strict=True)
        ]

    def pass_issues(self, state: SjuanFamilyState) -> list[IssueAt]:
        """Once the first card is down, what the chips say of the passes, whatever hands were dealt: every
        seat holds a card off the table (no stock) or the stock is empty (a pass's chip), so someone can
        play and at most ``n - 1`` seats pass between two plays (and before the first card, where a seat
        may pass then); each seat passes at most once between two plays, so its chips are at most one per
        card down, one before the first card where the rules let a seat pass then, and one for a short
        hand (:meth:`possible_short_hand_chips`); and a seat that passed holds none of the cards
        :meth:`cards_passes_surely_rule_out` names."""
        n = len(state.hands)
        gaps = len(state.table) + self.passes_before_first_card
        most = (n - 1) * gaps + (n - 1)  # and a short hand's chip for each seat but the largest hand's
        chips = state.chips
        if sum(chips) > most:
            return [IssueAt(("chips",), f"at most {n - 1} passes between two plays: {most} chips in all")]
        if not any(chips):
            return []  # no pass (the common case, asked first)
        short = self.possible_short_hand_chips(state)
        over = [
            IssueAt(
                ("chips", seat),
                f"at most {gaps + chip} chips: one pass between two plays" + ", a short hand" * chip,
            )
            for seat, (paid, chip) in enumerate(zip(chips, short, strict=True))
            if paid > gaps + chip
        ]
        if over:
            return over
        if all(paid <= chip for paid, chip in zip(chips, short, strict=True)):
            return []  # every chip may be a short hand's: no pass is sure
        position = self.position(state)
        hands = position.hands
        ruled_out = [
            IssueAt(("chips", seat), f"seat {seat} holds a card it could play at every turn since it passed")
            for seat, rule in enumerate(self._ruled_out(state, short))
            if hands[seat] & rule
        ]
        if ruled_out or self._last_card_played_by_someone(state, position, gaps, short):
            return ruled_out
        return [
            IssueAt(
                ("turn",),
                f"seat {state.turn} cannot be to act with these chips: no seat can have played the last "
                "card with every seat since it having passed and none from this one round to it",
            )
        ]

    def _last_card_played_by_someone(
        self, state: SjuanFamilyState, position: SjuanPosition, gaps: int, short: Sequence[int]
    ) -> bool:
        """Whether some seat can have played the last card, given the seat to act: the seats after that
        player and before the seat to act have each acted since without playing, so each holds no card
        playable now (and, without a stock to draw from, paid a chip); the seat to act and every seat
        after it round to that player have not passed since that card (a seat passes at most once between
        two plays), so each has at most one chip fewer than a seat that passed between every two plays.
        A state that no seat fits would reach, by the next pass, a state these checks refuse."""
        n = len(state.hands)
        turn: int = state.turn  # type: ignore[assignment]  # (a deal in play has a seat to act)
        chips, hands = state.chips, position.hands
        playable = self.playable_set(position)
        not_passed = [paid <= gaps - 1 + chip for paid, chip in zip(chips, short, strict=True)]
        acted = [
            not hand & playable and (self.has_stock or paid > 0)
            for hand, paid in zip(hands, chips, strict=True)
        ]
        for last in range(n):
            waited = (last - turn) % n + 1  # the seat to act, and the seats after it up to the last player
            if all(not_passed[(turn + k) % n] for k in range(waited)) and all(
                acted[(turn + k) % n] for k in range(waited, n)
            ):
                return True
        return False

    @abstractmethod
    def blocked(self, state: SjuanFamilyState) -> bool:
        """Whether nobody holds a playable card."""

    def last_deal_number(self, options: Any, players: int) -> int:
        """A deal ends as the first hand empties, so each other seat keeps a card at least and the totals
        grow by ``players - 1`` a deal at least: after ``d`` deals with every total under the target,
        ``d * (players - 1) <= players * (MATCH_TARGET - 1)``, and one deal more may follow."""
        return players * (MATCH_TARGET - 1) // (players - 1) + 1

    def state_issues(self, state: SjuanFamilyState) -> list[IssueAt]:
        # Every posted state comes through here: each field is read once (a model attribute read costs
        # as much as several list operations), and issues are built only when something is wrong.
        # The state's position is read first (the rules ask it next) and the common, consistent case is
        # checked on its sets of cards; the wire lists are read for the issues' paths only when one is found.
        hands, table, chips, deals = state.hands, state.table, state.chips, state.deals
        phase, turn, dealer = state.phase, state.turn, state.dealer
        n = len(hands)
        position = self.position(state)
        stock = self.stock(state) if self.has_stock else []
        # every card once: 52 cards in all whose bits add up to the whole deck (a repeated card would carry
        # into a higher bit, and 52 powers of two make 2**52 - 1 only when they are distinct)
        once = sum(map(len, hands)) + len(table) + len(stock) == len(FULL_DECK) and (
            sum(position.hands) + position.on_table + (card_set(stock) if stock else 0) == ALL_CARDS
        )
        issues = (
            []  # the common case, asked first without naming where each list is
            if once
            else conservation_issues(
                [(("hands", i), h) for i, h in enumerate(hands)] + [(("table",), table), (("stock",), stock)],
                FULL_DECK,
            )
        )
        issues += length_issues(("chips",), chips, n)
        # a seat passes at most once between two plays (a whole round of passes would mean nobody can
        # play), so in a deal it pays at most one chip per card played plus one, and one for a short hand
        issues += bound_issues(("chips",), chips, len(table) + 2, "one pass between two plays")
        issues += seat_issues(("dealer",), dealer, n)
        issues += seat_issues(("turn",), turn, n)
        if issues:
            return issues
        in_play = phase is PLAY_PHASE
        if deals:
            expected_dealer = deals[0].dealer + len(deals) - (not in_play)
            if dealer != expected_dealer % n:
                issues.append(IssueAt(("dealer",), "the deal passes to the left after every deal"))
        issues += self.table_issues(state) or self.table_order_issues(state)
        issues += self.deal_history_issues(state)
        deal_number = state.deal_number
        if in_play:
            if turn is None:
                issues.append(IssueAt(("turn",), "a deal in play must have a seat to act"))
            if len(deals) != deal_number - 1:
                issues.append(IssueAt(("deals",), "a deal in play must follow exactly deal_number - 1 deals"))
            for i, hand in enumerate(hands):
                if not hand:
                    issues.append(
                        IssueAt(("hands", i), "an empty hand ends the deal; the phase cannot be 'play'")
                    )
            if not issues:
                issues += self.pass_issues(state) if table else self.opening_issues(state)
            if not issues and self.blocked(state):
                issues.append(IssueAt(("phase",), "nobody can play; the deal is over"))
        else:
            if turn is not None:
                issues.append(IssueAt(("turn",), "no seat is to act once the deal is over"))
            if len(deals) != deal_number:
                issues.append(IssueAt(("deals",), "a finished deal must be the last of deal_number deals"))
            elif [len(h) for h in hands] != deals[-1].cards_left:
                issues.append(IssueAt(("deals", len(deals) - 1, "cards_left"), "does not match the hands"))
            elif chips != deals[-1].chips:
                message = "chips must be those of the deal just finished, as its record lists them"
                issues.append(IssueAt(("chips",), message))
        if not issues:
            reached = bool(deals) and max(position.match.totals) >= MATCH_TARGET  # (every total is 0 before)
            if reached != (phase is MATCH_OVER_PHASE):
                issues.append(
                    IssueAt(("phase",), "the match is over exactly when a total has reached 100 after a deal")
                )
        return issues

    def deal_record_check(self, state: SjuanFamilyState) -> RecordCheck:
        # A posted state carries up to 200 finished deals and every request checks them all: each check
        # below computes what it compares once and builds an issue (and its path) only when one is found.
        n = len(state.hands)
        deals = state.deals
        count_chips = state.options.chips_count
        running = [0] * n

        def check(index: int, clean: bool) -> list[IssueAt]:
            nonlocal running
            deal = deals[index]
            cards_left, chips, penalties, winner = deal.cards_left, deal.chips, deal.penalties, deal.winner
            path = ("deals", index)
            issues: list[IssueAt] = []
            # a per-seat list of the wrong length or a seat off the table, worded by the shared helpers
            # (asked only when something is off: the common record is well formed)
            seats_fit = len(cards_left) == len(chips) == len(penalties) == n and 0 <= deal.dealer < n
            if not seats_fit or (winner is not None and not 0 <= winner < n):
                for name, values in (("cards_left", cards_left), ("chips", chips), ("penalties", penalties)):
                    issues += length_issues((*path, name), values, n)
                issues += seat_issues((*path, "dealer"), deal.dealer, n)
                issues += seat_issues((*path, "winner"), winner, n)
            if issues or not clean:
                return issues
            left = sum(cards_left)
            most_chips = len(FULL_DECK) - left + 1  # one per card played, plus one
            if max(chips) > most_chips:
                issues += bound_issues((*path, "chips"), chips, most_chips, "one pass between two plays")
            if penalties != (list(map(add, cards_left, chips)) if count_chips else cards_left):
                issues.append(IssueAt((*path, "penalties"), "must be cards left (+ chips when chips_count)"))
            if deal.pot != sum(chips):
                issues.append(IssueAt((*path, "pot"), "must be the sum of the chips paid"))
            if (winner is None) != deal.blocked:
                issues.append(
                    IssueAt((*path, "blocked"), "a deal has a winner exactly when it is not blocked")
                )
            elif deal.blocked and not self.may_block(state.options):
                issues.append(IssueAt((*path, "blocked"), "somebody can always play: no deal ends blocked"))
            if winner is not None and cards_left[winner] != 0:
                issues.append(IssueAt((*path, "winner"), "the winner must have emptied their hand"))
            elif cards_left.count(0) > (winner is not None):
                # an empty hand besides the winner's (whose hand is empty here): the deal ends the moment a
                # hand is empty (this also bounds how many deals a match has)
                issues.append(
                    IssueAt((*path, "cards_left"), "only the winner's hand is empty when a deal ends")
                )
            if left > len(FULL_DECK) - 1:
                issues.append(IssueAt((*path, "cards_left"), "at least one card was played in every deal"))
            if deal.dealer != (deals[0].dealer + index) % n:
                issues.append(IssueAt((*path, "dealer"), "the deal passes to the left after every deal"))
            running = list(map(add, running, penalties))
            if index < len(deals) - 1 and max(running) >= MATCH_TARGET:
                issues.append(IssueAt(path, "the match ended at an earlier deal"))
            return issues

        return check
