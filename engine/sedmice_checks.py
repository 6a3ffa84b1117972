"""Consistency checks of Sedmice: what makes a posted state impossible in play (RULINGS §5; the rules are
:mod:`sevens_rules.engine.sedmice`, whose game class builds on :class:`SedmiceChecks`)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from ..schema.sedmice import (
    SedmiceEvent,
    SedmiceHitReason,
    SedmiceMove,
    SedmiceOptions,
    SedmiceScore,
    SedmiceState,
    SedmiceView,
    most_deals,
)
from .cards import PIQUET_DECK
from .errors import IssueAt
from .game import conservation_issues, length_issues, seat_issues
from .match import MATCH_OVER_PHASE, PLAY_PHASE, DealtMatch, RecordCheck
from .sedmice_tricks import (
    DEAL_POINTS,
    HAND_SIZE,
    SIDES,
    answers,
    hit_totals,
    hits_of,
    points,
    trick_winner,
)


class SedmiceChecks(
    DealtMatch[SedmiceOptions, SedmiceState, SedmiceMove, SedmiceEvent, SedmiceView, SedmiceScore]
):
    """The checks a posted Sedmice state goes through, one part of it after another (seats, cards, the
    taken piles, then the trick in play or the finished deal); :class:`.sedmice.Sedmice` adds the rules.
    """

    def last_deal_number(self, options: SedmiceOptions, players: int) -> int:
        """A match to ``options.target_hits`` hits ends by deal :func:`most_deals` at the latest."""
        return most_deals(options.target_hits)

    def state_issues(self, state: SedmiceState) -> list[IssueAt]:
        n = len(state.hands)
        issues = length_issues(("taken",), state.taken, SIDES)
        issues += length_issues(("tricks",), state.tricks, SIDES)
        issues += seat_issues(("dealer",), state.dealer, n)
        issues += seat_issues(("leader",), state.leader, n)
        if issues:
            return issues
        issues = conservation_issues(
            [(("hands", i), h) for i, h in enumerate(state.hands)]
            + [(("stock",), state.stock)]
            + [(("trick", r), round_) for r, round_ in enumerate(state.trick)]
            + [(("taken", s), pile) for s, pile in enumerate(state.taken)],
            PIQUET_DECK,
        )
        issues += self.deal_history_issues(state)
        issues += self._taken_issues(state)
        if issues:
            return issues
        if state.phase is PLAY_PHASE:
            issues += self._play_issues(state)
        else:
            issues += self._finished_deal_issues(state)
        if not issues:
            reached = max(hit_totals(state.deals)) >= state.options.target_hits
            if reached != (state.phase is MATCH_OVER_PHASE):
                issues.append(
                    IssueAt(
                        ("phase",),
                        "the match is over exactly when a side has reached target_hits after a deal",
                    )
                )
        return issues

    def _taken_issues(self, state: SedmiceState) -> list[IssueAt]:
        # Every trick is whole rounds of one card per seat, so a pile holds a multiple of n cards, at least
        # n per trick, and a side has cards exactly when it has taken a trick.
        n = len(state.hands)
        issues = []
        for side in range(SIDES):
            size, count = len(state.taken[side]), state.tricks[side]
            if size % n:
                issues.append(IssueAt(("taken", side), f"a side takes whole rounds of {n} cards"))
            if size < n * count:
                issues.append(IssueAt(("tricks", side), f"each trick holds at least {n} cards"))
            if (size == 0) != (count == 0):
                issues.append(
                    IssueAt(("tricks", side), "a side has taken cards exactly when it has taken tricks")
                )
        if sum(state.tricks) == 0:
            if state.leader != (state.dealer + 1) % n:
                issues.append(IssueAt(("leader",), "the player left of the dealer leads the first trick"))
        elif state.tricks[state.leader % SIDES] == 0:
            # one side has taken every trick so far, the last one too, and its taker leads
            issues.append(IssueAt(("leader",), "the last trick's taker leads, and its side has taken tricks"))
        return issues

    def _play_issues(self, state: SedmiceState) -> list[IssueAt]:
        n = len(state.hands)
        issues = []
        if len(state.deals) != state.deal_number - 1:
            issues.append(IssueAt(("deals",), "a deal in play must follow exactly deal_number - 1 deals"))
        trick = state.trick
        for r, round_ in enumerate(trick):
            if not round_:
                issues.append(IssueAt(("trick", r), "a round holds at least the leader's card"))
            elif len(round_) > n:
                issues.append(IssueAt(("trick", r), f"a round holds at most {n} cards"))
            elif r < len(trick) - 1 and len(round_) != n:
                issues.append(IssueAt(("trick", r), "only the last round may be incomplete"))
        if issues:
            return issues
        # Hand sizes at the start of the current round: equal for every seat.
        played = len(trick[-1]) if trick and len(trick[-1]) < n else 0
        full_rounds = len(trick) - (1 if played else 0)
        start_sizes = [
            len(h) + (1 if (seat - state.leader) % n < played else 0) for seat, h in enumerate(state.hands)
        ]
        size = start_sizes[0]
        if any(s != size for s in start_sizes):
            issues.append(
                IssueAt(("hands",), "all hands hold the same number of cards at the start of a round")
            )
            return issues
        if size + full_rounds > HAND_SIZE:
            issues.append(IssueAt(("hands",), f"a trick starts with at most {HAND_SIZE} cards in each hand"))
        elif state.stock and size + full_rounds != HAND_SIZE:
            issues.append(
                IssueAt(("hands",), f"while the stock lasts a trick starts with {HAND_SIZE} cards a hand")
            )
        if size == 0:  # (a round under way means its players had a card, so size > 0 then)
            issues.append(
                IssueAt(
                    ("hands",), "with every hand empty and no round under way the trick (or deal) is over"
                )
            )
        if issues:
            return issues
        # Every extension was a card answering the led card, and allowed by the option when it was made.
        if trick:
            led_rank = trick[0][0][0]
            for r in range(1, len(trick)):
                if not answers(trick[r][0], led_rank):
                    issues.append(IssueAt(("trick", r, 0), "an extension must be of the led rank or a 7"))
                elif self._extension_refused(state, trick[:r]):
                    issues.append(
                        IssueAt(("trick", r, 0), "extend_only_when_losing: the leader's side was winning")
                    )
        return issues

    def _extension_refused(self, state: SedmiceState, rounds: Sequence[Sequence[str]]) -> bool:
        if not state.options.extend_only_when_losing:
            return False
        return trick_winner(rounds, state.leader, len(state.hands)) % 2 == state.leader % 2

    def _finished_deal_issues(self, state: SedmiceState) -> list[IssueAt]:
        issues = []
        for seat, hand in enumerate(state.hands):
            if hand:
                issues.append(IssueAt(("hands", seat), "hands are empty once the deal is over"))
        if state.stock:
            issues.append(IssueAt(("stock",), "the stock is empty once the deal is over"))
        if state.trick:
            issues.append(IssueAt(("trick",), "no trick is on the table once the deal is over"))
        if len(state.deals) != state.deal_number:
            issues.append(IssueAt(("deals",), "a finished deal must be the last of deal_number deals"))
        if issues:
            return issues
        last = state.deals[-1]
        path = ("deals", len(state.deals) - 1)
        if last.last_trick != state.leader:
            issues.append(IssueAt((*path, "last_trick"), "must be the leader (the last trick's taker)"))
        if last.points != [points(state.taken[0]), points(state.taken[1])]:
            issues.append(IssueAt((*path, "points"), "does not match the taken cards"))
        if last.tricks != state.tricks:
            issues.append(IssueAt((*path, "tricks"), "does not match the state's tricks"))
        return issues

    def deal_record_check(self, state: SedmiceState) -> RecordCheck:
        n = len(state.hands)
        target = state.options.target_hits
        totals = [0, 0]

        def check(index: int, clean: bool) -> list[IssueAt]:
            deal = state.deals[index]
            path = ("deals", index)
            issues: list[IssueAt] = []
            expected_dealer = (state.dealer - (state.deal_number - deal.number)) % n
            if deal.dealer != expected_dealer:
                issues.append(
                    IssueAt((*path, "dealer"), f"the dealer moves left each deal: must be {expected_dealer}")
                )
            misshapen, found = _record_issues(
                tuple(deal.points),
                tuple(deal.tricks),
                tuple(deal.hits),
                deal.last_trick,
                deal.side,
                deal.reason,
                n,
            )
            issues += [IssueAt((*path, *issue.path), issue.message) for issue in found]
            if misshapen:
                return issues
            if max(totals) >= target:
                issues.append(IssueAt(path, "the match ended at an earlier deal"))
            totals[0] += deal.hits[0]
            totals[1] += deal.hits[1]
            return issues

        return check


@lru_cache(maxsize=1024)
def _record_issues(
    points: tuple[int, ...],
    tricks: tuple[int, ...],
    hits: tuple[int, ...],
    last_trick: int,
    side: int,
    reason: SedmiceHitReason,
    players: int,
) -> tuple[bool, tuple[IssueAt, ...]]:
    """What is wrong with the numbers of a finished deal's record, whichever deal it is (paths within the
    record), and whether it is misshapen (a list of the wrong length, a seat not at the table).

    A function of these numbers alone, so it is worked out once for each record and then remembered:
    every request posts the whole history of its match, so the same records come again and again.
    """
    found: list[IssueAt] = []
    for name, values in (("points", points), ("tricks", tricks), ("hits", hits)):
        found += length_issues((name,), values, SIDES)
    found += seat_issues(("last_trick",), last_trick, players)
    if found:
        return True, tuple(found)
    if sum(points) != DEAL_POINTS or any(p % 10 for p in points):
        found.append(IssueAt(("points",), "the sides share 80 points in tens"))
    elif any(t == 0 and p for t, p in zip(tricks, points, strict=True)):
        found.append(IssueAt(("points",), "a side without a trick has no points"))
    elif sum(tricks) > len(PIQUET_DECK) // players:
        found.append(
            IssueAt(
                ("tricks",), f"every trick takes a card from each seat: {len(PIQUET_DECK) // players} at most"
            )
        )
    elif sum(tricks) < (least := len(PIQUET_DECK) // (HAND_SIZE * players)):
        message = f"a trick takes at most {HAND_SIZE} cards from each seat: {least} tricks at least"
        found.append(IssueAt(("tricks",), message))
    elif tricks[last_trick % 2] == 0:
        found.append(IssueAt(("last_trick",), "the last trick's taker's side took no trick"))
    else:
        expected_side, expected_hits, expected_reason = hits_of(points, tricks, last_trick % 2)
        side_hits = [0, 0]
        side_hits[expected_side] = expected_hits
        if (side, list(hits), reason) != (expected_side, side_hits, expected_reason):
            found.append(
                IssueAt(("hits",), f"must be {side_hits} to side {expected_side} ({expected_reason.value})")
            )
    return False, tuple(found)
