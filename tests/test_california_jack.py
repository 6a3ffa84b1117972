"""Rule tests of California Jack (RULINGS §3): rolling trump from the face-up stock, draws after each trick,
High/Low/Jack of the final trump suit, race to 10, options ``fixed_trump`` and ``game_point``."""

from __future__ import annotations

import random
from typing import Any

from sevens_rules.engine.bots.sampler import sample_states
from sevens_rules.engine.cards import FULL_DECK
from sevens_rules.engine.models import updated
from sevens_rules.engine.seven_up import CaliforniaJack
from sevens_rules.engine.tricks import card_points
from sevens_rules.schema.common import Suit
from sevens_rules.schema.seven_up import (
    CaliforniaJackOptions,
    CaliforniaJackState,
    SevenUpDealOutcome,
    SevenUpEventType,
    SevenUpPhase,
    SevenUpPointReason,
)
from tests.seeds import seeding
from tests.test_seven_up import build, deck_at, history, kinds, mv, point_list, trick

CJ = CaliforniaJack()
R = SevenUpPointReason
E = SevenUpEventType


def _play_deal(state: CaliforniaJackState, pick: int = 0) -> tuple[CaliforniaJackState, list[Any], list[str]]:
    """Play the deal out choosing the ``pick``-th listed move (first/last); returns the final state, all
    events and the stock's face-up top card seen before each trick (None once the stock is empty)."""
    events: list[Any] = []
    tops: list[Any] = []
    while state.phase is SevenUpPhase.play:
        if not state.trick:
            tops.append(state.stock[0] if state.stock else None)
        seat = CJ.to_act(state)[0]
        moves = CJ.legal_moves(state, seat)
        state, more = CJ.apply(state, moves[0] if pick == 0 else moves[-1])
        events += more
        assert CJ.consistency_issues(state) == []
    return state, events, tops


def test_six_cards_each_in_two_packets_of_three_and_the_stocks_top_card_sets_trump() -> None:
    # dealt as in Seven-Up: eldest (seat 1) gets cards 0-2 and 6-8, the dealer 3-5 and 9-11
    state = CJ.new(2, CaliforniaJackOptions(), seeding(0), list(FULL_DECK), 0)
    assert state.hands[1] == ["AC", "2C", "3C", "7C", "8C", "9C"]
    assert state.hands[0] == ["4C", "5C", "6C", "TC", "JC", "QC"]
    assert state.stock == list(FULL_DECK[12:]) and state.trump == "C"
    assert state.phase is SevenUpPhase.play and CJ.to_act(state) == [1] and state.turned is None
    view = CJ.view(state, 0)
    assert view.stock_top == "KC" and view.stock_size == 40 and '"AD"' not in view.model_dump_json()


def test_winner_draws_the_face_up_card_then_the_loser_and_the_next_card_sets_trump() -> None:
    state = CJ.new(2, CaliforniaJackOptions(), seeding(0), list(FULL_DECK), 0)
    state, _ = CJ.apply(state, mv("play", 1, card="AC"))
    assert [m.card for m in CJ.legal_moves(state, 0)] == ["4C", "5C", "6C", "TC", "JC", "QC"]  # follow suit
    after, events = CJ.apply(state, mv("play", 0, card="4C"))
    assert kinds(events) == ["played", "trick_won", "drew", "drew", "trump_turned"]
    assert events[2].player == 1 and events[2].card == "KC"  # the winner takes the face-up card
    assert events[3].player == 0 and events[3].card is None  # the loser's card is not shown
    assert "KC" in after.hands[1] and "AD" in after.hands[0]
    assert after.stock[0] == "2D" and after.trump == "D" and events[4].card == "2D"
    assert after.leader == 1 and [len(h) for h in after.hands] == [6, 6]


def test_follow_suit_as_in_seven_up_with_the_same_option() -> None:
    # eldest (seat 1) holds AC 2C 3C 7D 8D 9D, the dealer 4C 5H 6H TS JS QS; the face-up KH makes hearts trump
    deck = deck_at(
        dict(enumerate(["AC", "2C", "3C", "4C", "5H", "6H", "7D", "8D", "9D", "TS", "JS", "QS", "KH"]))
    )
    for may_trump, answers in ((False, ["4C"]), (True, ["4C", "5H", "6H"])):
        options = CaliforniaJackOptions(may_trump_when_able_to_follow=may_trump)
        state = CJ.new(2, options, seeding(0), deck, 0)
        assert state.trump == "H" and CJ.to_act(state) == [1]
        state, _ = CJ.apply(state, mv("play", 1, card="AC"))
        assert [move.card for move in CJ.legal_moves(state, 0)] == answers
    # a seat void in the led suit may play any card
    state = CJ.new(2, CaliforniaJackOptions(), seeding(0), deck, 0)
    state, _ = CJ.apply(state, mv("play", 1, card="7D"))
    assert [move.card for move in CJ.legal_moves(state, 0)] == ["4C", "5H", "6H", "TS", "JS", "QS"]


def test_rolling_trump_over_all_26_tricks_and_final_suit_scoring() -> None:
    for seed in range(6):
        start = CJ.new(2, CaliforniaJackOptions(), seeding(seed), None, seed % 2)
        done, events, tops = _play_deal(start, pick=seed % 2)
        record = done.deals[-1]
        tricks = done.tricks
        assert len(tricks) == 26 and len(tops) == 26
        # while the stock lasts the face-up top card sets each trick's trump; then the last suit holds
        last = None
        for t, top in zip(tricks, tops, strict=True):
            if top is not None:
                last = top[1]
            assert t.trump == last
        assert tops[19] is not None and tops[20] is None  # 40 stock cards: 20 tricks draw
        final = tricks[-1].trump
        assert done.trump == final and record.trump == final
        # High (A), Low (2), Jack of the final suit to whoever won the trick holding each, in that order
        expected = []
        for reason, rank in (("high", "A"), ("low", "2"), ("jack", "J")):
            holder = next(t for t in tricks if rank + final in t.cards)
            expected.append((reason, holder.winner))
        assert point_list(record.points) == expected
        assert record.outcome is SevenUpDealOutcome.played and done.phase is SevenUpPhase.deal_over
        assert sum(1 for e in events if e.type is E.trump_turned) == 19  # turned after 19 of 20 draws


def test_the_last_trump_suit_holds_once_the_stock_is_empty() -> None:
    state = CJ.new(2, CaliforniaJackOptions(), seeding(11), None, 0)
    while state.stock:
        seat = CJ.to_act(state)[0]
        state, _ = CJ.apply(state, CJ.legal_moves(state, seat)[0])
    held = state.trump
    assert len(state.tricks) == 20 and [len(h) for h in state.hands] == [6, 6]
    while state.phase is SevenUpPhase.play:
        seat = CJ.to_act(state)[0]
        state, events = CJ.apply(state, CJ.legal_moves(state, seat)[0])
        assert E.drew not in [e.type for e in events]
    assert all(t.trump == held for t in state.tricks[20:])


def test_a_posted_trick_after_the_stock_is_spent_keeps_the_last_trump() -> None:
    # 40 cards in the stock, two drawn after each trick: the draw after trick 18 turns the last new top
    # card, so tricks 19 to 25 share its suit. Trick 21 of this deal (3C led, KC wins on suit) read as a
    # diamond trick keeps its winner but breaks that (an outside probe: 63 of 77 such states accepted)
    state = CJ.new(2, CaliforniaJackOptions(), seeding(0), None, None)
    rng = random.Random(0)
    while len(state.tricks) < 23:
        state, _ = CJ.apply(state, rng.choice(CJ.moves(state)[1]))
    assert [t.trump for t in state.tricks[19:]] == [Suit.S] * 4 and state.tricks[21].cards == ["3C", "KC"]
    assert CJ.consistency_issues(state) == []
    tricks = list(state.tricks)
    tricks[21] = tricks[21].model_copy(update={"trump": Suit.D})
    issues = CJ.consistency_issues(updated(state, tricks=tricks))
    assert [issue.path for issue in issues] == [("tricks", 21, "trump")]


def test_option_fixed_trump_keeps_the_first_turned_suit() -> None:
    start = CJ.new(2, CaliforniaJackOptions(fixed_trump=True), seeding(0), list(FULL_DECK), 0)
    done, events, _ = _play_deal(start)
    assert all(t.trump == "C" for t in done.tricks)
    assert sum(1 for e in events if e.type is E.trump_turned) == 0
    holders = [next(t.winner for t in done.tricks if c in t.cards) for c in ("AC", "2C", "JC")]
    assert point_list(done.deals[-1].points) == list(zip(("high", "low", "jack"), holders, strict=True))


def test_option_game_point_adds_game_after_high_low_jack() -> None:
    start = CJ.new(2, CaliforniaJackOptions(game_point=True), seeding(4), None, 0)
    done, _, _ = _play_deal(start)
    won = [sum(card_points(t.cards) for t in done.tricks if t.winner == seat) for seat in (0, 1)]
    points = point_list(done.deals[-1].points)
    assert [r for r, _ in points[:3]] == ["high", "low", "jack"]
    if won[0] == won[1]:
        assert len(points) == 3
    else:
        assert points[3] == ("game", 0 if won[0] > won[1] else 1)
    plain, _, _ = _play_deal(CJ.new(2, CaliforniaJackOptions(), seeding(4), None, 0))
    assert len(plain.deals[-1].points) == 3  # no Game by default


def test_race_to_ten_counts_high_first() -> None:
    deals = history(
        [(R.high, 0), (R.low, 0), (R.jack, 0)],
        [(R.high, 1), (R.low, 1), (R.jack, 1)],
        [(R.high, 0), (R.low, 0), (R.jack, 0)],
        [(R.high, 1), (R.low, 1), (R.jack, 1)],
        [(R.high, 0), (R.low, 0), (R.jack, 0)],
        [(R.high, 1), (R.low, 1), (R.jack, 1)],
    )
    start = CJ.new(2, CaliforniaJackOptions(), seeding(8), None, 0)
    start = updated(start, deals=deals, deal_number=7)
    assert CJ.consistency_issues(start) == [] and CJ.score(start).totals == [9, 9]
    done, events, _ = _play_deal(start)
    final = done.tricks[-1].trump
    assert final is not None
    high_winner = next(t.winner for t in done.tricks if "A" + final in t.cards)
    # both at 9: High is counted first and wins; Low and Jack are never counted
    assert point_list(done.deals[-1].points) == [("high", high_winner)]
    assert done.phase is SevenUpPhase.match_over and CJ.outcome(done).winners == [high_winner]
    assert kinds(events)[-3:] == ["point", "deal_ended", "match_ended"]


def test_california_jack_consistency_checks() -> None:
    state = CJ.new(2, CaliforniaJackOptions(), seeding(0), list(FULL_DECK), 0)
    assert CJ.consistency_issues(state) == []
    assert CJ.consistency_issues(updated(state, trump="H"))  # top card sets trump
    moved = updated(state, stock=state.stock[1:], set_aside=state.stock[:1])
    assert CJ.consistency_issues(moved)  # nothing is ever set aside
    built = build(
        CaliforniaJackState,
        CaliforniaJackOptions(),
        dealer=0,
        phase=SevenUpPhase.play,
        trump="C",
        leader=1,
        hands=[["2S", "3S", "4S", "5S", "6S"], ["7S", "8S", "9S", "TS", "JS"]],
        tricks=[trick(1, ["AH", "KH"], "H", 1)],
    )
    assert CJ.consistency_issues(built)  # after a trick each player drew back to six


def test_california_jack_view_hides_the_stock_below_its_top() -> None:
    state = CJ.new(2, CaliforniaJackOptions(), seeding(21), None, 1)
    view = CJ.view(state, 0)
    text = view.model_dump_json()
    assert view.stock_top == state.stock[0]
    assert not any(f'"{c}"' in text for c in state.stock[1:] + state.hands[1])
    shuffled_below = updated(state, stock=[state.stock[0], *reversed(state.stock[1:])])
    assert CJ.view(shuffled_below, 0) == view


def test_the_first_trick_is_played_in_the_suit_of_the_face_up_card() -> None:
    for options in (CaliforniaJackOptions(), CaliforniaJackOptions(fixed_trump=True)):
        state = CJ.new(2, options, seeding(0), list(FULL_DECK), 0)
        assert state.stock[0] == "KC" and state.trump == "C" and CJ.consistency_issues(state) == []
        assert CJ.consistency_issues(updated(state, trump=Suit.S))  # fixed_trump too
        started, _ = CJ.apply(state, mv("play", 1, card="AC"))  # a trick in progress: still no trick done
        assert CJ.consistency_issues(updated(started, trump=Suit.S))


def test_every_california_jack_trick_has_a_trump() -> None:
    state = CJ.new(2, CaliforniaJackOptions(), seeding(0), list(FULL_DECK), 0)
    state, _ = CJ.apply(state, mv("play", 1, card="AC"))
    state, _ = CJ.apply(state, mv("play", 0, card="4C"))
    assert state.tricks[0].trump == "C" and CJ.consistency_issues(state) == []
    untrumped = [updated(state.tricks[0], trump=None)]  # AC still wins: only the trump differs
    assert CJ.consistency_issues(updated(state, tricks=untrumped))
    done, _, _ = _play_deal(CJ.new(2, CaliforniaJackOptions(), seeding(3), None, 0))
    assert CJ.consistency_issues(done) == []
    tricks = list(done.tricks)
    tricks[0] = updated(tricks[0], trump=None)
    assert CJ.consistency_issues(updated(done, tricks=tricks))


def test_california_jack_recorded_points_are_those_the_tricks_give() -> None:
    done, _, _ = _play_deal(CJ.new(2, CaliforniaJackOptions(), seeding(5), None, 0))
    record = done.deals[-1]
    flipped = [updated(p, seat=1 - p.side, side=1 - p.side) for p in record.points]
    by_side = [sum(1 for p in flipped if p.side == side) for side in (0, 1)]
    wrong = updated(record, points=flipped, by_side=by_side)
    assert CJ.consistency_issues(updated(done, deals=[wrong]))
    other = Suit("S" if done.trump != "S" else "H")
    final = updated(done, trump=other, deals=[updated(record, trump=other)])
    assert [i.message for i in CJ.consistency_issues(final)] == ["the final trump suit is the last trick's"]


def test_the_winner_of_a_trick_keeps_or_plays_the_face_up_card_it_took() -> None:
    # RULINGS 3: after each trick the winner takes the stock's face-up card, whose suit was that trick's
    # trump. So the winner holds a card of that suit still, or played one to a later trick: a posted
    # state whose winner did neither is refused, and samples never give the winner such a hand.
    game = CaliforniaJack()
    for number in range(40):
        rng = random.Random(number)
        state = game.new(2, CaliforniaJackOptions(), seeding(number), None, None)
        while len(state.tricks) < 4:
            state = game.apply(state, rng.choice(game.moves(state)[1]))[0]
        winner, suit = state.tricks[-1].winner, state.tricks[-1].trump
        held = [card for card in state.hands[winner] if card[1] == suit]
        other = 1 - winner
        swap = [card for card in state.hands[other] if card[1] != suit][: len(held)]
        if not state.trick and held and len(swap) == len(held):
            break
    else:
        raise AssertionError("no seeded deal gave the position this test needs")
    assert not game.consistency_issues(state)
    hands = [list(hand) for hand in state.hands]
    hands[winner] = sorted([c for c in hands[winner] if c not in held] + swap, key=FULL_DECK.index)
    hands[other] = sorted([c for c in hands[other] if c not in swap] + held, key=FULL_DECK.index)
    emptied = updated(state, hands=hands)
    assert [issue.path for issue in game.consistency_issues(emptied)] == [("hands", winner)]
    for sample in sample_states(game, state, other, 40, "face-up"):
        assert any(card[1] == suit for card in sample.hands[winner])
