"""Consistency checks of My Ship Sails: what makes a posted state impossible in play (RULINGS §4; the rules
are :mod:`sevens_rules.engine.my_ship_sails`, whose game class builds on :class:`MyShipSailsChecks`).
What a winning hand is (:func:`one_suit`) is stated here, and the rules ask it too."""

from __future__ import annotations

from collections.abc import Sequence

from ..schema import my_ship_sails as wire
from ..schema.my_ship_sails import (
    DEALS_PER_MATCH,
    MyShipSailsChoiceType,
    MyShipSailsPhase,
    MyShipSailsState,
)
from ..schema.my_ship_sails import MyShipSailsScore as Score
from ..schema.my_ship_sails import MyShipSailsView as View
from ..schema.scalars import INT32_MAX
from .cards import FULL_DECK
from .errors import IssueAt
from .game import conservation_issues, length_issues, seat_issues
from .match import DealtMatch, RecordCheck

HAND_SIZE = 7
"""Cards dealt to each player."""

CHOICE_PASS = MyShipSailsChoiceType("pass")
STEP = MyShipSailsPhase.step
MATCH_OVER = MyShipSailsPhase.match_over


def one_suit(hand: Sequence[str]) -> bool:
    """Whether ``hand`` is seven cards of one suit (the only hand that may declare)."""
    if len(hand) != HAND_SIZE:
        return False
    suit = hand[0][1]
    # Hands are kept in deck order, suit by suit, so the last card settles nearly every hand at once.
    return hand[-1][1] == suit and all(c[1] == suit for c in hand)


class MyShipSailsChecks(
    DealtMatch[
        wire.MyShipSailsOptions, MyShipSailsState, wire.MyShipSailsMove, wire.MyShipSailsEvent, View, Score
    ]
):
    """The checks a posted My Ship Sails state goes through; :class:`.my_ship_sails.MyShipSails` adds the
    rules."""

    def state_issues(self, state: MyShipSailsState) -> list[IssueAt]:
        n = len(state.hands)
        issues = conservation_issues(
            [(("hands", i), h) for i, h in enumerate(state.hands)] + [(("unused",), state.unused)], FULL_DECK
        )
        for seat, hand in enumerate(state.hands):
            if len(hand) != HAND_SIZE:
                issues.append(
                    IssueAt(("hands", seat), f"every hand holds {HAND_SIZE} cards, not {len(hand)}")
                )
        issues += length_issues(("pending",), state.pending, n)
        issues += seat_issues(("dealer",), state.dealer, n)
        if issues:
            return issues
        issues += self._deal_history_issues(state)
        if issues:
            return issues
        limit = state.options.max_exchanges
        auto = state.options.auto_declare
        if state.phase is STEP:
            if len(state.deals) != state.deal_number - 1:
                issues.append(IssueAt(("deals",), "a deal in play must follow exactly deal_number - 1 deals"))
            if all(choice is not None for choice in state.pending):
                issues.append(IssueAt(("pending",), "every seat has chosen; the step would have resolved"))
            for seat, choice in enumerate(state.pending):
                if choice is None:
                    continue
                path = ("pending", seat)
                if choice.type == CHOICE_PASS:
                    if choice.card is None or choice.card not in state.hands[seat]:
                        issues.append(IssueAt((*path, "card"), "a pass names a card of the seat's hand"))
                elif choice.card is not None:
                    issues.append(IssueAt((*path, "card"), "a declaration names no card"))
                elif not one_suit(state.hands[seat]):
                    issues.append(IssueAt(path, "only a one-suit hand may declare"))
            if auto:
                for seat, hand in enumerate(state.hands):
                    if one_suit(hand):
                        issues.append(
                            IssueAt(("hands", seat), "with auto_declare a one-suit hand has declared")
                        )
            if limit is not None and state.exchanges >= limit:
                issues.append(IssueAt(("exchanges",), "max_exchanges is reached; the deal is over"))
            if state.exchanges >= INT32_MAX:
                issues.append(IssueAt(("exchanges",), "a deal ends after 2**31 - 1 exchanges"))
        else:
            for seat, choice in enumerate(state.pending):
                if choice is not None:
                    issues.append(IssueAt(("pending", seat), "no choice is pending between deals"))
            if len(state.deals) != state.deal_number:
                issues.append(IssueAt(("deals",), "a finished deal must be the last of deal_number deals"))
            elif (state.deal_number == DEALS_PER_MATCH) != (state.phase is MATCH_OVER):
                issues.append(IssueAt(("phase",), f"the match is over exactly after deal {DEALS_PER_MATCH}"))
            else:
                issues += self._last_deal_issues(state)
        return issues

    def _last_deal_issues(self, state: MyShipSailsState) -> list[IssueAt]:
        """Issues unless the finished deal's record matches the hands and counters still in the state."""
        index = len(state.deals) - 1
        deal = state.deals[index]
        path = ("deals", index)
        issues = []
        if deal.dealer != state.dealer:
            issues.append(IssueAt((*path, "dealer"), "must be the state's dealer"))
        if deal.exchanges != state.exchanges:
            issues.append(IssueAt((*path, "exchanges"), "must be the state's exchanges"))
        for k, seat in enumerate(deal.winners):
            if not one_suit(state.hands[seat]):
                issues.append(IssueAt((*path, "winners", k), "a winner's hand is seven cards of one suit"))
        one_suit_seats = [seat for seat, hand in enumerate(state.hands) if one_suit(hand)]
        if state.options.auto_declare and deal.winners != one_suit_seats:
            issues.append(IssueAt((*path, "winners"), "with auto_declare exactly the one-suit hands declare"))
        return issues

    def _deal_history_issues(self, state: MyShipSailsState) -> list[IssueAt]:
        issues = self.deal_history_issues(state)
        if state.deals:
            last = state.deals[-1]
            n = len(state.hands)
            expected = last.dealer if state.phase is not STEP else (last.dealer + 1) % n
            if state.dealer != expected:
                issues.append(IssueAt(("dealer",), "the dealer moves one seat left each deal"))
        return issues

    def deal_record_check(self, state: MyShipSailsState) -> RecordCheck:
        n = len(state.hands)
        limit = state.options.max_exchanges

        def check(index: int, clean: bool) -> list[IssueAt]:
            deal = state.deals[index]
            path = ("deals", index)
            issues = seat_issues((*path, "dealer"), deal.dealer, n)
            if index and deal.dealer != (state.deals[index - 1].dealer + 1) % n:
                issues.append(IssueAt((*path, "dealer"), "the dealer moves one seat left each deal"))
            if deal.winners != sorted(set(deal.winners)):
                issues.append(IssueAt((*path, "winners"), "each winner once, in seat order"))
            for k, seat in enumerate(deal.winners):
                issues += seat_issues((*path, "winners", k), seat, n)
            if limit is not None and deal.exchanges > limit:
                issues.append(IssueAt((*path, "exchanges"), "exceeds max_exchanges"))
            # without max_exchanges only the 32-bit hard stop ends a deal with no winner
            if not deal.winners and deal.exchanges != (INT32_MAX if limit is None else limit):
                issues.append(IssueAt((*path, "winners"), "a deal without a winner ends at max_exchanges"))
            if (
                deal.winners
                and not state.options.auto_declare
                and limit is not None
                and deal.exchanges >= limit
            ):
                issues.append(IssueAt((*path, "exchanges"), "no step follows the last allowed exchange"))
            return issues

        return check
