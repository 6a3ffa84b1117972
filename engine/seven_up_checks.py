"""Consistency checks of the Seven-Up family: what makes a posted state impossible in play.

The checks derive what they can from the cards the state still holds (see the "Consistency of points"
notes of :mod:`sevens_rules.engine.seven_up`); the variants change them through the same hooks as the
rules (:meth:`SevenUpFamily.honour_sequences`, :meth:`SevenUpFamily.card_issues`, ...).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..schema.seven_up import (
    SevenUpDeal,
    SevenUpPoint,
)
from .cards import FULL_DECK
from .dealing import Seeding
from .errors import IssueAt
from .game import conservation_issues, length_issues, seat_issues
from .match import RecordCheck
from .seven_up_points import _UNSETTLED, HAND_SIZE, PACKET, OptionsT, StateT, ViewT
from .seven_up_position import ACTIVE as _ACTIVE
from .seven_up_position import Outcome, Phase, Reason
from .seven_up_rules import SevenUpRules, cut_for_dealer
from .tricks import (
    trick_winner,
)


def shows_void(led: str, played: str, trump: str | None, may_trump: bool) -> bool:
    """Whether a card of suit ``played`` to a trick led in suit ``led`` shows that its seat held none of
    ``led``: a seat follows the led suit if able (RULINGS §3), or, with ``may_trump_when_able_to_follow``,
    may trump instead."""
    return played != led and not (may_trump and played == trump and led != trump)


class SevenUpFamily(SevenUpRules[OptionsT, StateT, ViewT]):
    """The Seven-Up family: its rules and the consistency checks of a posted state."""

    # ---- consistency --------------------------------------------------------------------------

    def state_issues(self, state: StateT) -> list[IssueAt]:
        n = len(state.hands)
        issues = length_issues(("discarded",), state.discarded, n)
        issues += seat_issues(("dealer",), state.dealer, n)
        issues += seat_issues(("leader",), state.leader, n)
        if len(state.trick) >= n:
            issues.append(IssueAt(("trick",), f"a trick in progress holds fewer than {n} cards"))
        if len(state.tricks) > self.tricks_per_deal():
            issues.append(IssueAt(("tricks",), f"a deal has at most {self.tricks_per_deal()} tricks"))
        for i, trick in enumerate(state.tricks):
            if len(trick.cards) != n:
                issues.append(IssueAt(("tricks", i, "cards"), f"a completed trick holds {n} cards"))
            issues += seat_issues(("tricks", i, "leader"), trick.leader, n)
            issues += seat_issues(("tricks", i, "winner"), trick.winner, n)
        if issues:
            return issues
        locations: list[tuple[tuple[str | int, ...], Sequence[str]]] = [
            *((("hands", i), h) for i, h in enumerate(state.hands)),
            (("stock",), state.stock),
            (("set_aside",), state.set_aside),
            *((("discarded", i), d) for i, d in enumerate(state.discarded)),
            (("trick",), state.trick),
            *((("tricks", i, "cards"), t.cards) for i, t in enumerate(state.tricks)),
        ]
        if state.turned is not None:
            locations.append((("turned",), [state.turned]))
        issues = conservation_issues(locations, FULL_DECK)
        issues += self._points_issues(("points",), state.points, n)
        issues += self.deal_history_issues(state)
        issues += self._cut_issues(state)
        if issues:
            return issues
        issues += self._dealer_issues(state)
        for i, trick in enumerate(state.tricks):
            if trick_winner(trick.cards, trick.leader, n, trick.trump) != trick.winner:
                issues.append(
                    IssueAt(("tricks", i, "winner"), "is not the seat that played the winning card")
                )
            if i and trick.leader != state.tricks[i - 1].winner:
                issues.append(IssueAt(("tricks", i, "leader"), "the winner of the previous trick leads"))
        if state.tricks and state.tricks[0].leader != (state.dealer + 1) % n:
            issues.append(IssueAt(("tricks", 0, "leader"), "the eldest (left of the dealer) leads first"))
        if state.turned is not None and state.trump != state.turned[1]:
            issues.append(IssueAt(("trump",), "must be the suit of the turned card"))
        issues += self._phase_issues(state, n)
        if not issues:
            issues += self._revoke_issues(state) or self.drawn_card_issues(state)
        if not issues:
            issues += self._history_points_issues(state)
        if not issues:
            issues += self._match_issues(state)
        if not issues:
            issues += self._dealt_points_issues(state)
        return issues

    def _points_issues(
        self, path: tuple[str | int, ...], points: Sequence[SevenUpPoint], n: int
    ) -> list[IssueAt]:
        issues = []
        for i, point in enumerate(points):
            issues += seat_issues((*path, i, "seat"), point.seat, n)
            seatless_game = point.reason is Reason.game and self.game_point_seat(point.side) is None
            if point.seat is None:
                if not seatless_game:
                    issues.append(IssueAt((*path, i, "seat"), "only a partnership's Game point has no seat"))
                if point.side >= self.side_count(n):
                    issues.append(IssueAt((*path, i, "side"), "no such side"))
            elif point.seat < n and point.side != self.side_of(point.seat):
                issues.append(IssueAt((*path, i, "side"), "is not the side of the seat"))
            elif seatless_game:
                issues.append(IssueAt((*path, i, "seat"), "a partnership's Game point has no seat"))
        return issues

    def honour_sequences(self) -> list[tuple[Reason, ...]]:
        """The High/Low/Jack reasons a played hand can give, in counting order: High and Low together or
        neither (no trump played), Jack only with them."""
        return [(), (Reason.high, Reason.low), (Reason.high, Reason.low, Reason.jack)]

    def during_deal_sequences(self) -> set[tuple[Reason, ...]]:
        """The point reasons a deal can score before its hand is played, in order: the first turned card's
        Jack, a gift, and the Jack of a new trump turned in a run."""
        tj, gift = Reason.turned_jack, Reason.gift
        return {(), (tj,), (gift,), (tj, gift), (tj, tj)}

    def _end_of_hand_sequences(self, options: Any) -> list[tuple[Reason, ...]]:
        """The end-of-hand point reasons a complete count can give, in counting order (see
        :meth:`hand_points`): Seven-Up has High and Low together or neither, Jack only with them; all 52
        cards of California Jack are played, so its High, Low and Jack are always there."""
        hand: list[tuple[Reason, ...]] = self.honour_sequences()
        if not self.game_point(options):
            return hand
        return [*hand, *(tuple([*reasons, Reason.game]) for reasons in hand)]

    def _history_points_issues(self, state: StateT) -> list[IssueAt]:
        """Each recorded deal's points are a sequence the engine can produce for its outcome: first the
        points scored during the deal (the first turned card's Jack, then a gift or the Jack of a new
        trump turned in a run), then the end-of-hand points in counting order. A thrown-in deal can only
        hold the first turned card's Jack; a deal cut short by the match end (``match_won``) holds only
        points scored during the deal and is the last deal; only the last deal of a finished match may
        stop counting early."""
        n = len(state.hands)
        complete = self._end_of_hand_sequences(state.options)
        during_ok = self.during_deal_sequences()
        issues: list[IssueAt] = []
        last = len(state.deals) - 1
        for i, deal in enumerate(state.deals):
            path: tuple[str | int, ...] = ("deals", i, "points")
            reasons = tuple(p.reason for p in deal.points)
            split = next(
                (j for j, r in enumerate(reasons) if r not in (Reason.turned_jack, Reason.gift)), len(reasons)
            )
            during, hand = reasons[:split], reasons[split:]
            if deal.outcome is Outcome.thrown_in:
                if during not in ((), (Reason.turned_jack,)) or hand:
                    issues.append(
                        IssueAt(
                            path, "a thrown-in deal can only hold the turned Jack of its first turned card"
                        )
                    )
            elif deal.outcome is Outcome.match_won:
                if i != last:
                    issues.append(
                        IssueAt(("deals", i, "outcome"), "a deal that ended the match is the last deal")
                    )
                if during not in during_ok or not during or hand:
                    issues.append(
                        IssueAt(
                            path,
                            "a deal cut short by the match end holds only points scored during it "
                            "(turned Jacks, a gift), the last of them the winning point",
                        )
                    )
            else:
                stopped = i == last and state.phase is Phase.match_over
                fits = hand in complete or (stopped and any(h[: len(hand)] == hand for h in complete))
                if during not in during_ok or not fits:
                    issues.append(
                        IssueAt(
                            path,
                            "a played deal holds the points scored during it (turned Jacks, a gift), "
                            "then the end-of-hand points in the order High, Low, Jack, Game",
                        )
                    )
            if (deal.trump is None) != (deal.outcome is Outcome.thrown_in):
                issues.append(IssueAt(("deals", i, "trump"), "null exactly when the deal was thrown in"))
            eldest = (deal.dealer + 1) % n
            for j, point in enumerate(deal.points):
                if point.reason is Reason.turned_jack and point.seat != deal.dealer:
                    issues.append(IssueAt((*path, j, "seat"), "a turned Jack scores for the deal's dealer"))
                elif point.reason is Reason.gift and point.seat != eldest:
                    issues.append(IssueAt((*path, j, "seat"), "a gift scores for the deal's eldest"))
        return issues

    def turned_jack_points(self, state: StateT) -> list[SevenUpPoint]:
        """The turned-Jack points the turned cards of the deal the state holds give: the first turned card
        (the first card set aside after a run) and the new trump a run turned, each when it is a Jack.
        Cards of the refused suit turned during a run are set aside and score nothing."""
        turned = [state.set_aside[0]] if state.set_aside else []
        if state.turned is not None:
            turned.append(state.turned)
        return [self._seat_point(Reason.turned_jack, state.dealer) for c in turned if c[0] == "J"]

    def _dealt_points_issues(self, state: StateT) -> list[IssueAt]:
        """The points of the deal whose cards the state still holds (the deal in progress, or the last one
        in ``deal_over``/``match_over``) against those cards: turned Jacks match the Jacks turned, a gift
        comes once, only after the dealer gave (no run, trump settled), and the end-of-hand points of a
        played deal are exactly those :meth:`hand_points` gives for its tricks, counted one at a time
        until the winning point (:meth:`counted`)."""
        phase = state.phase
        if phase in _ACTIVE:
            path: tuple[str | int, ...] = ("points",)
            points = state.points
            outcome: Outcome | None = None
        else:
            path = ("deals", len(state.deals) - 1, "points")
            points = state.deals[-1].points
            outcome = state.deals[-1].outcome
        eldest = (state.dealer + 1) % len(state.hands)
        expected: list[SevenUpPoint] = self.turned_jack_points(state)
        settled_without_run = phase is Phase.play or outcome in (Outcome.played, Outcome.match_won)
        allowed: list[list[SevenUpPoint]] = [expected]
        gift_scored = any(Reason.gift in reasons for reasons in self.during_deal_sequences())
        if gift_scored and not state.set_aside and settled_without_run:
            allowed.append([*expected, self._seat_point(Reason.gift, eldest)])
        split = next(
            (j for j, p in enumerate(points) if p.reason not in (Reason.turned_jack, Reason.gift)),
            len(points),
        )
        during, rest = list(points[:split]), list(points[split:])
        issues: list[IssueAt] = []
        if during not in allowed:
            jacks = sum(1 for p in during if p.reason is Reason.turned_jack)
            if jacks != len(expected):
                message = (
                    f"{len(expected)} turned_jack point(s) expected: one for the dealer per Jack turned "
                    "(the first turned card, a new trump turned in a run), none for the refused suit"
                )
            elif any(p.reason is Reason.gift for p in during):
                message = (
                    "a gift scores once, for the eldest, when the dealer gives: never before the dealer "
                    "decides nor after a run"
                )
            else:
                message = (
                    "turned Jacks score for the dealer, a gift for the eldest, in the order they happened"
                )
            issues.append(IssueAt(path, message))
        if outcome is not Outcome.played:
            if rest:
                issues.append(IssueAt((*path, split, "reason"), "end-of-hand points close a played deal"))
            return issues
        totals = [0] * self.side_count(len(state.hands))
        for deal in state.deals[:-1]:
            for side, count in enumerate(deal.by_side):
                totals[side] += count
        for point in during:
            totals[point.side] += 1
        hand = [point for point, _ in self.hand_points(state)]
        hand = hand[: self.counted(totals, hand)[0]]
        if rest != hand:
            shown = ", ".join(f"{p.reason.value} {p.seat if p.seat is not None else 'side'}" for p in hand)
            issues.append(
                IssueAt(
                    path,
                    "the end-of-hand points must be those the tricks give, counted until the winning point: "
                    f"[{shown}]",
                )
            )
        return issues

    def deal_record_check(self, state: StateT) -> RecordCheck:
        n = len(state.hands)

        def check(index: int, clean: bool) -> list[IssueAt]:
            deal = state.deals[index]
            path: tuple[str | int, ...] = ("deals", index)
            issues = seat_issues((*path, "dealer"), deal.dealer, n)
            issues += self._points_issues((*path, "points"), deal.points, n)
            issues += length_issues((*path, "by_side"), deal.by_side, self.side_count(n))
            # a misnumbered record is not checked further (the shared check has reported its number)
            if issues or deal.number != index + 1:
                return issues
            expected = [0] * self.side_count(n)
            if deal.outcome is not Outcome.thrown_in:
                for point in deal.points:
                    expected[point.side] += 1
            if deal.by_side != expected:
                issues.append(
                    IssueAt((*path, "by_side"), "must count the deal's points per side (0 when thrown in)")
                )
            return issues + self.outcome_issues(path, deal)

        return check

    def outcome_issues(self, path: tuple[str | int, ...], deal: SevenUpDeal) -> list[IssueAt]:
        """Issues with a recorded deal's outcome beyond its points (Seven-Up: any outcome may happen)."""
        return []

    def _cut_issues(self, state: StateT) -> list[IssueAt]:
        if not state.cut:
            return []
        rounds, dealer = cut_for_dealer(Seeding.of(state), self.id, len(state.hands))
        if state.cut != rounds:
            return [IssueAt(("cut",), "is not the cut drawn from this seed (see the documented cut)")]
        first = state.deals[0].dealer if state.deals else state.dealer
        if first != dealer:
            return [IssueAt(("cut",), f"the cut makes seat {dealer} the first dealer")]
        return []

    def _dealer_issues(self, state: StateT) -> list[IssueAt]:
        """The deal passes left after each deal, and stays after a throw-in."""
        n = len(state.hands)
        dealers = [d.dealer for d in state.deals]
        if state.phase in _ACTIVE:
            dealers.append(state.dealer)
        elif state.deals and state.dealer != state.deals[-1].dealer:
            return [IssueAt(("dealer",), "a finished deal's dealer stays the dealer until the next deal")]
        for i in range(1, len(dealers)):
            stays = state.deals[i - 1].outcome is Outcome.thrown_in
            expected = dealers[i - 1] if stays else (dealers[i - 1] + 1) % n
            if dealers[i] != expected:
                where: tuple[str | int, ...] = ("deals", i, "dealer") if i < len(state.deals) else ("dealer",)
                return [
                    IssueAt(where, f"must be seat {expected}: the deal passes left (stays after a throw-in)")
                ]
        return []

    def tricks_from_hands(self, state: StateT) -> list[tuple[int, Sequence[str], str | None]]:
        """The tricks of this deal played from the hands as they are now (each hand having only lost cards
        since), as (leader, cards, trump): every completed trick and the trick in progress."""
        tricks: list[tuple[int, Sequence[str], str | None]] = [
            (t.leader, t.cards, t.trump) for t in state.tricks
        ]
        if state.trick and state.leader is not None:
            tricks.append((state.leader, state.trick, state.trump))
        return tricks

    def voids_shown(self, state: StateT) -> list[frozenset[str]]:
        """Per seat, the suits it has shown it holds none of: the led suit of a trick of
        :meth:`tricks_from_hands` it did not follow (nor trump, where trumping instead of following is
        allowed), since a seat must follow the led suit if able (RULINGS §3). The sampler draws the other
        hands without them; a posted state whose hand holds one revoked."""
        return self._voids_walked(state)[0]

    def _voids_walked(self, state: StateT) -> tuple[list[frozenset[str]], list[IssueAt]]:
        """:meth:`voids_shown`, walking the tricks in order, and an issue at the first card a seat played
        of a suit it had shown in an earlier trick it held none of (no card comes into a hand between
        the tricks of :meth:`tricks_from_hands`)."""
        n = len(state.hands)
        may_trump = state.options.may_trump_when_able_to_follow
        tricks = self.tricks_from_hands(state)
        first = len(state.tricks) + bool(state.trick and state.leader is not None) - len(tricks)
        voids: list[set[str]] = [set() for _ in range(n)]
        issues: list[IssueAt] = []
        for index, (leader, cards, trump) in enumerate(tricks, first):
            for offset, card in enumerate(cards):
                seat = (leader + offset) % n
                if not issues and card[1] in voids[seat]:
                    done = index < len(state.tricks)
                    where = ("tricks", index, "cards", offset) if done else ("trick", offset)
                    message = f"seat {seat} did not follow {card[1]} in an earlier trick: it held none"
                    issues.append(IssueAt(where, message))
            led = cards[0][1]
            for offset, card in enumerate(cards[1:], 1):
                if shows_void(led, card[1], trump, may_trump):
                    voids[(leader + offset) % n].add(led)
        return [frozenset(suits) for suits in voids], issues

    def drawn_card_issues(self, state: StateT) -> list[IssueAt]:
        """Issues with the cards the hands took from the stock during this deal, once the tricks are known
        to be sound (Seven-Up and Four-handed Seven-Up: nobody draws once play starts)."""
        return []

    def _revoke_issues(self, state: StateT) -> list[IssueAt]:
        """An issue for a card played to a later trick of :meth:`tricks_from_hands` in a suit its seat had
        shown it held none of, else for each hand holding such a suit (:meth:`voids_shown`)."""
        if not state.tricks and not state.trick:
            return []
        voids, played_issues = self._voids_walked(state)
        if played_issues:
            return played_issues
        return [
            IssueAt(
                ("hands", seat),
                f"seat {seat} did not follow {', '.join(sorted(held))} in this deal: it holds none",
            )
            for seat, (hand, void) in enumerate(zip(state.hands, voids, strict=True))
            if (held := void & {card[1] for card in hand})
        ]

    def _phase_issues(self, state: StateT, n: int) -> list[IssueAt]:
        issues: list[IssueAt] = []
        phase = state.phase
        deals = len(state.deals)
        sizes = [len(h) for h in state.hands]
        if phase in _ACTIVE:
            if state.deal_number != deals + 1:
                issues.append(
                    IssueAt(("deal_number",), "a deal in progress follows deal_number - 1 finished deals")
                )
        else:
            if state.deal_number != deals or not deals:
                issues.append(
                    IssueAt(("deal_number",), "a finished deal must be the last of deal_number deals")
                )
            if state.points:
                issues.append(IssueAt(("points",), "a finished deal's points are in its record"))
        if issues:
            return issues
        if phase is not Phase.play and (state.leader is not None or state.trick):
            issues.append(IssueAt(("leader",), "only a deal in play has a leader and a trick in progress"))
        if phase not in _ACTIVE:
            last = state.deals[-1]
            if phase is Phase.deal_over and last.outcome is Outcome.match_won:
                issues.append(
                    IssueAt(("phase",), "a deal that ended the match leaves the phase 'match_over'")
                )
            elif phase is Phase.match_over and last.outcome is Outcome.thrown_in:
                issues.append(
                    IssueAt(("deals", deals - 1, "outcome"), "a thrown-in deal never ends the match")
                )
            if last.trump != state.trump:
                issues.append(
                    IssueAt(("deals", deals - 1, "trump"), "the finished deal's trump is the state's trump")
                )
        if issues:
            return issues
        return issues + self.card_issues(state, n, sizes)

    def card_issues(self, state: StateT, n: int, sizes: list[int]) -> list[IssueAt]:
        """Issues with where the cards of the deal lie for its phase: turned, set aside, discarded, in
        hands and tricks."""
        issues: list[IssueAt] = []
        phase = state.phase
        eldest = (state.dealer + 1) % n
        if state.set_aside and {c[1] for c in state.set_aside} != {state.set_aside[0][1]}:
            issues.append(IssueAt(("set_aside",), "only cards of the refused suit are set aside"))
        k = len(state.set_aside)
        if phase in _UNSETTLED:
            if state.turned is None or k or any(state.discarded) or state.tricks:
                issues.append(
                    IssueAt(("phase",), "before trump is settled there is a turned card and nothing else")
                )
            if sizes != [HAND_SIZE] * n:
                issues.append(
                    IssueAt(("hands",), f"every hand holds {HAND_SIZE} cards before trump is settled")
                )
            if any(p.reason is Reason.gift for p in state.points):
                issues.append(IssueAt(("points",), "no gift before the dealer gives"))
        elif phase is Phase.discard:
            if state.turned is None or not k or state.tricks:
                issues.append(IssueAt(("phase",), "discarding follows a run that turned a new trump"))
            elif state.turned[1] == state.set_aside[0][1]:
                issues.append(IssueAt(("turned",), "a run ends on a suit other than the refused one"))
            full = HAND_SIZE + PACKET * k
            # seats discard in turn from the eldest: finished seats, then the seat discarding, then the rest
            stage = 0
            for step in range(n):
                seat = (eldest + step) % n
                have, gone = sizes[seat], len(state.discarded[seat])
                if stage == 0 and (have, gone) == (HAND_SIZE, PACKET * k):
                    continue
                if have + gone != full or have <= HAND_SIZE or (stage == 1 and gone):
                    issues.append(
                        IssueAt(
                            ("hands", seat),
                            f"holds {full} cards before discarding, {HAND_SIZE} after, discarding in turn",
                        )
                    )
                stage = 1
            if stage == 0:
                issues.append(IssueAt(("phase",), "everyone has discarded; the phase is 'play'"))
        elif phase is Phase.play:
            if state.turned is None or state.leader is None:
                issues.append(IssueAt(("phase",), "play needs a turned trump and a leader"))
                return issues
            if k and state.turned[1] == state.set_aside[0][1]:
                issues.append(IssueAt(("turned",), "a run ends on a suit other than the refused one"))
            if [len(d) for d in state.discarded] != [PACKET * k] * n:
                issues.append(IssueAt(("discarded",), "after a run everyone discarded down to six"))
            issues += self._play_sizes(state, n, sizes, HAND_SIZE - len(state.tricks))
            for i, trick in enumerate(state.tricks):
                if trick.trump != state.trump:
                    issues.append(IssueAt(("tricks", i, "trump"), "must be the deal's trump"))
        else:  # deal_over or match_over: the finished deal's cards stay as they were
            last = state.deals[-1]
            if last.outcome is Outcome.thrown_in:
                if (
                    state.turned is not None
                    or state.trump is not None
                    or state.tricks
                    or any(state.discarded)
                ):
                    issues.append(IssueAt(("phase",), "a thrown-in deal has no trump, tricks or discards"))
                if not k or sizes != [HAND_SIZE + PACKET * (k - 1)] * n or len(state.stock) >= PACKET * n + 1:
                    issues.append(IssueAt(("stock",), "a deal is thrown in only when the pack runs short"))
                return issues
            if state.turned is None:
                return [*issues, IssueAt(("turned",), "a deal that was not thrown in has a turned trump")]
            if k and state.turned[1] == state.set_aside[0][1]:
                issues.append(IssueAt(("turned",), "a run ends on a suit other than the refused one"))
            if last.outcome is Outcome.match_won:
                # cut short by a turned Jack or a gift: before any discard or trick
                if state.tricks or any(state.discarded) or sizes != [HAND_SIZE + PACKET * k] * n:
                    issues.append(
                        IssueAt(
                            ("phase",), "a deal won by a turned Jack or a gift ends before discards and play"
                        )
                    )
                return issues
            if any(sizes) or len(state.tricks) != HAND_SIZE:
                issues.append(IssueAt(("hands",), "a played deal ends with every card played"))
            if [len(d) for d in state.discarded] != [PACKET * k] * n:
                issues.append(IssueAt(("discarded",), "after a run everyone discarded down to six"))
            for i, trick in enumerate(state.tricks):
                if trick.trump != state.trump:
                    issues.append(IssueAt(("tricks", i, "trump"), "must be the deal's trump"))
        return issues

    def _play_sizes(self, state: StateT, n: int, sizes: list[int], base: int) -> list[IssueAt]:
        """Hand sizes in play: ``base`` cards each, one fewer for seats already in the current trick."""
        assert state.leader is not None
        in_trick = {(state.leader + i) % n for i in range(len(state.trick))}
        expected = [base - (1 if s in in_trick else 0) for s in range(n)]
        if sizes != expected or base <= 0:
            return [
                IssueAt(("hands",), f"hand sizes {sizes} do not fit the tricks played (expected {expected})")
            ]
        if state.tricks and state.tricks[-1].winner != state.leader:
            return [IssueAt(("leader",), "the winner of the last trick leads")]
        if not state.tricks and state.leader != (state.dealer + 1) % n:
            return [IssueAt(("leader",), "the eldest leads the first trick")]
        return []

    def _match_issues(self, state: StateT) -> list[IssueAt]:
        sides = self.side_count(len(state.hands))
        totals = [0] * sides
        history: list[tuple[tuple[str | int, ...], list[SevenUpPoint], Outcome | None]] = [
            (("deals", i), d.points, d.outcome) for i, d in enumerate(state.deals)
        ]
        history.append((("points",), state.points, None))
        reached_at: tuple[str | int, ...] | None = None
        last_point: tuple[str | int, ...] | None = None
        for entry in history:
            where: tuple[str | int, ...] = entry[0]
            outcome = entry[2]
            running = list(totals)
            for j, point in enumerate(entry[1]):
                running[point.side] += 1
                last_point = (*where, j)
                if reached_at is None and running[point.side] >= self.target:
                    reached_at = last_point
                    if outcome is Outcome.thrown_in:
                        return [IssueAt(last_point, "this point would have ended the match; no throw-in")]
            if outcome is not Outcome.thrown_in:
                totals = running
        over = state.phase is Phase.match_over
        if reached_at is not None and reached_at != last_point:
            return [IssueAt(reached_at, "the match ended at this point; nothing follows it")]
        if reached_at is not None and reached_at[0] == "deals" and reached_at[1] != len(state.deals) - 1:
            return [IssueAt(reached_at, "the match ended in this deal; no deal follows it")]
        if state.deals and state.deals[-1].outcome is Outcome.match_won and reached_at is None:
            return [IssueAt(("deals", len(state.deals) - 1, "outcome"), "'match_won' needs a winning point")]
        if over != (reached_at is not None):
            return [IssueAt(("phase",), f"the match is over exactly when a side has reached {self.target}")]
        return []
