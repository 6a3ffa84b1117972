"""Consistency checks of Sevens: what makes a posted state impossible in play (RULINGS §2; the rules are
:mod:`sevens_rules.engine.sevens`, which builds on :class:`SevensChecks`)."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence

from ..schema.common import Phase
from ..schema.sevens import (
    SEVENS_PASSES,
    SEVENS_PLAYERS,
    SevensDeal,
    SevensEvent,
    SevensMove,
    SevensOptions,
    SevensRow,
    SevensScore,
    SevensState,
    SevensView,
)
from .card_sets import ALL_CARDS
from .cards import FULL_DECK, SUITS
from .errors import IssueAt
from .game import conservation_issues, length_issues, seat_issues
from .match import DealtMatch, RecordCheck
from .sevens_position import SevensPosition, wire_row
from .sevens_table import (
    _POINTS_BY_PLACES,
    _RANK,
    _RUN_ROWS,
    _SEVEN,
    CARDS_EACH,
    POINTS,
    _active,
    _row,
    _row_ranks,
    deal_places,
)


class SevensChecks(DealtMatch[SevensOptions, SevensState, SevensMove, SevensEvent, SevensView, SevensScore]):
    """The checks a posted Sevens state goes through (the rules: :class:`.sevens.Sevens`)."""

    @abstractmethod
    def position(self, state: SevensState) -> SevensPosition:
        """The position of ``state``, read once (:func:`~sevens_rules.engine.sevens_position.read_position`;
        asked before the state is checked, its sets of cards are sums of card bits)."""

    def last_deal_number(self, options: SevensOptions, players: int) -> int:
        """A match has exactly ``options.deals`` deals."""
        return options.deals

    def state_issues(self, state: SevensState) -> list[IssueAt]:
        n = len(state.hands)
        issues = length_issues(("table",), state.table, SEVENS_PLAYERS)
        issues += length_issues(("passes",), state.passes, n)
        issues += seat_issues(("dealer",), state.dealer, n)
        issues += seat_issues(("turn",), state.turn, n)
        for name, seats in (("out", state.out), ("bust", state.bust)):
            for i, seat in enumerate(seats):
                issues += seat_issues((name, i), seat, n)
        if issues:
            return issues
        for i, row in enumerate(state.table):
            if row.suit != SUITS[i]:
                issues.append(
                    IssueAt(("table", i, "suit"), f"must be {SUITS[i]} (rows in the order C, D, H, S)")
                )
        # The state's position is read first (the rules ask it next), and the common, consistent case is
        # settled on its sets of cards; the wire lists are looked at one by one only when it is not.
        position = self.position(state)
        hands, table = state.hands, state.table
        # every card once: 52 cards whose bits add up to the whole deck (a repeated card would carry into
        # a higher bit, or be counted once in the table's set: either leaves a bit of the deck unset)
        count = sum(map(len, hands)) + sum([len(row.run) + len(row.laid) for row in table])
        if count != len(FULL_DECK) or sum(position.hands) + position.table != ALL_CARDS:
            locations: list[tuple[tuple[str | int, ...], Sequence[str]]] = [
                (("hands", i), h) for i, h in enumerate(hands)
            ]
            for i, row in enumerate(table):
                locations += [(("table", i, "run"), row.run), (("table", i, "laid"), row.laid)]
            issues += conservation_issues(locations, FULL_DECK)
        if issues:
            return issues
        for i, row in enumerate(table):
            # a row as play lays out its suit's cards on the table (the same rows the rules write) passes
            # every check of _row_issues
            laid_out = wire_row(i, position.table)
            if row.suit != laid_out.suit or row.run != laid_out.run or row.laid != laid_out.laid:
                issues += _row_issues(("table", i), row)
        issues += self._seat_status_issues(state)
        issues += self.deal_history_issues(state)
        if issues:
            return issues
        if state.deal_number > state.options.deals:
            issues.append(IssueAt(("deal_number",), f"a match has {state.options.deals} deals"))
        active = _active(state.out, state.bust)
        if state.phase is Phase.play:
            if len(state.deals) != state.deal_number - 1:
                issues.append(IssueAt(("deals",), "a deal in play must follow exactly deal_number - 1 deals"))
            if len(active) < 2:
                issues.append(IssueAt(("out",), "the deal ends when only one player is neither out nor bust"))
            if state.turn is None:
                issues.append(IssueAt(("turn",), "a deal in play must have a seat to act"))
            elif state.turn not in active:
                issues.append(IssueAt(("turn",), "a player who is out or bust has no turn"))
            elif len(active) == n:
                issues += _turn_order_issues(state)
        else:
            if state.turn is not None:
                issues.append(IssueAt(("turn",), "no seat is to act once the deal is over"))
            if len(state.deals) != state.deal_number:
                issues.append(IssueAt(("deals",), "a finished deal must be the last of deal_number deals"))
            elif len(active) != 1:
                issues.append(IssueAt(("out",), "a finished deal leaves one player neither out nor bust"))
            elif state.deals[-1].places != deal_places(state.out, state.bust, active[0]):
                path = ("deals", len(state.deals) - 1, "places")
                issues.append(IssueAt(path, "does not match the order of out and bust"))
            last = state.deal_number == state.options.deals
            if last != (state.phase is Phase.match_over):
                issues.append(IssueAt(("phase",), "the match is over exactly when the last deal has ended"))
        return issues

    def _seat_status_issues(self, state: SevensState) -> list[IssueAt]:
        issues = []
        for name, seats in (("out", state.out), ("bust", state.bust)):
            if len(set(seats)) != len(seats):
                issues.append(IssueAt((name,), "a seat appears twice"))
        for i, seat in enumerate(state.bust):
            if seat in state.out:
                issues.append(IssueAt(("bust", i), f"seat {seat} cannot be both out and bust"))
            if state.passes[seat] != SEVENS_PASSES:
                issues.append(IssueAt(("passes", seat), "a bust player has used all 3 passes"))
        gone = set(state.out) | set(state.bust)
        for seat, hand in enumerate(state.hands):
            if len(hand) > CARDS_EACH:
                issues.append(IssueAt(("hands", seat), f"a hand never holds more than {CARDS_EACH} cards"))
            if seat in gone and hand:
                issues.append(IssueAt(("hands", seat), "a player who is out or bust holds no cards"))
            if seat not in gone and not hand:
                issues.append(IssueAt(("hands", seat), "an empty hand means the player is out or bust"))
        if not state.bust and any(row.laid for row in state.table):
            issues.append(IssueAt(("table",), "cards lie apart from a run only after a bust"))
        return issues

    def deal_record_check(self, state: SevensState) -> RecordCheck:
        def check(index: int, clean: bool) -> list[IssueAt]:
            deal = state.deals[index]
            # the dealer moves one seat left each deal, up to the current deal's dealer
            dealer = (state.dealer - (state.deal_number - 1 - index)) % SEVENS_PLAYERS
            if deal.dealer == dealer and deal.points == _POINTS_BY_PLACES.get(tuple(deal.places)):
                return []  # the usual record, settled at once: it passes every check of the slow way
            return _deal_record_problems(("deals", index), deal, dealer, clean)

        return check


def _turn_order_issues(state: SevensState) -> list[IssueAt]:
    """While nobody is out or bust, every turn is one action (a card or a pass) going round all four
    seats from the holder of 7D, so the cards played and the passes fix whose turns came: the first seat
    is the seat to act less the actions so far. No seat has passed more often than its turns came, and
    each holds its 13 cards less the 7s it laid down as the deal began and a card for each turn it did not
    pass: between none and four 7s, the first seat at least one (7D)."""
    n = len(state.hands)
    passes = state.passes
    actions = sum(len(row.run) for row in state.table) - len(SUITS) + sum(passes)
    first = (state.turn - actions) % n  # type: ignore[operator]  # (a deal in play has a seat to act)
    for seat, hand in enumerate(state.hands):
        turns = max(0, (actions - (seat - first) % n + n - 1) // n)
        if passes[seat] > turns:
            return [IssueAt(("passes", seat), f"seat {seat} has had {turns} turns since the deal began")]
        sevens = CARDS_EACH - len(hand) - (turns - passes[seat])
        if not (seat == first) <= sevens <= len(SUITS):
            message = "the seat to act does not follow the cards and passes so far round the table from 7D"
            return [IssueAt(("turn",), message)]
    return []


def _deal_record_problems(
    path: tuple[str | int, ...], deal: SevensDeal, dealer: int, clean: bool
) -> list[IssueAt]:
    """What exactly is wrong with a finished deal's record, check by check (``dealer``: the seat that dealt
    it; ``clean``: no issue was found before it)."""
    n = SEVENS_PLAYERS
    issues = seat_issues((*path, "dealer"), deal.dealer, n)
    issues += length_issues((*path, "places"), deal.places, n)
    issues += length_issues((*path, "points"), deal.points, n)
    if issues or not clean:
        return issues
    if deal.dealer != dealer:
        issues.append(IssueAt((*path, "dealer"), "the dealer moves one seat left each deal"))
    if sorted(deal.places) != [1, 2, 3, 4]:
        issues.append(IssueAt((*path, "places"), "must give places 1 to 4, one each"))
    elif deal.points != [POINTS[p - 1] for p in deal.places]:
        issues.append(IssueAt((*path, "points"), "must be 3, 2, 1, 0 for places 1 to 4"))
    return issues


def _laid_out(row: SevensRow) -> SevensRow:
    """The row holding the cards of ``row`` as play lays them out (:func:`_row`): the unbroken run through
    the 7, the other cards apart, ascending, all in the row's suit."""
    suit = str(row.suit)
    if not row.laid:
        run_row = _RUN_ROWS.get((suit, _RANK[row.run[0][0]], _RANK[row.run[-1][0]]))
        if run_row is not None:
            return run_row
    return _row(suit, _row_ranks(row))


def _row_issues(path: tuple[str | int, ...], row: SevensRow) -> list[IssueAt]:
    """Issues unless the run is unbroken through the 7, ascending, and the laid cards lie apart from it."""
    # A row laid out as play lays it out passes every check of _row_problems, and every posted state goes
    # through here: settle that common case with two list comparisons.
    laid_out = _laid_out(row)
    if row.run == laid_out.run and row.laid == laid_out.laid:
        return []
    return _row_problems(path, row)


def _row_problems(path: tuple[str | int, ...], row: SevensRow) -> list[IssueAt]:
    """What exactly is wrong with a row (:func:`_row_issues`), check by check."""
    suit = str(row.suit)
    issues = []
    for name, cards in (("run", row.run), ("laid", row.laid)):
        for i, c in enumerate(cards):
            if c[1] != suit:
                issues.append(IssueAt((*path, name, i), f"card {c} is not of suit {suit}"))
    if issues:
        return issues
    run = [_RANK[c[0]] for c in row.run]
    if run != list(range(run[0], run[0] + len(run))) or not run[0] <= _SEVEN <= run[-1]:
        issues.append(IssueAt((*path, "run"), "must be an unbroken run through the 7, ascending"))
        return issues
    laid = [_RANK[c[0]] for c in row.laid]
    if laid != sorted(laid):
        issues.append(IssueAt((*path, "laid"), "must be ascending"))
    if run[0] - 1 in laid or run[-1] + 1 in laid:
        issues.append(IssueAt((*path, "laid"), "a laid card next to the run is part of the run"))
    return issues
