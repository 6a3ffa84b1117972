"""Rule tests of Seven-Up and Four-handed Seven-Up (RULINGS §3), one per ruling and per issue scenario.

Expected values are derived by hand from the rules; constructed states place every card explicitly (the
stock gets whatever is left, in canonical order).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from sevens_rules.engine.cards import FULL_DECK
from sevens_rules.engine.dealing import CUT, Seeding
from sevens_rules.engine.errors import IllegalMoveError, InvalidRequestError, NotYourTurnError
from sevens_rules.engine.models import updated
from sevens_rules.engine.registry import GAMES
from sevens_rules.engine.seven_up import FourHandedSevenUp, SevenUp, cut_for_dealer
from sevens_rules.engine.tricks import card_points, legal_follows, trick_winner
from sevens_rules.schema.common import Suit
from sevens_rules.schema.seven_up import (
    FourHandedSevenUpState,
    SevenUpDeal,
    SevenUpDealOutcome,
    SevenUpEventType,
    SevenUpMove,
    SevenUpMoveType,
    SevenUpOptions,
    SevenUpPhase,
    SevenUpPoint,
    SevenUpPointReason,
    SevenUpState,
    SevenUpTrick,
)
from tests.seeds import seeding

R = SevenUpPointReason
E = SevenUpEventType
SU = SevenUp()
FOUR = FourHandedSevenUp()


# ---- builders (also used by tests/test_california_jack.py) -------------------------------------------


def deck_at(placed: Mapping[int, str]) -> list[str]:
    """A full deck with the given cards at the given positions, the rest in canonical order."""
    rest = [c for c in FULL_DECK if c not in placed.values()]
    return [placed[p] if p in placed else rest.pop(0) for p in range(52)]


def trick(leader: int, cards: Sequence[str], trump: str | None, winner: int) -> SevenUpTrick:
    """A completed trick; the winner is written by hand, never computed."""
    return SevenUpTrick(
        leader=leader, cards=list(cards), trump=None if trump is None else Suit(trump), winner=winner
    )


def history(*per_deal: Sequence[tuple[SevenUpPointReason, int]], partners: bool = False) -> list[SevenUpDeal]:
    """Finished, played deals with the given (reason, seat) points; dealers alternate from seat 0."""
    deals = []
    for index, points in enumerate(per_deal):
        by_side = [0, 0]
        records = []
        for reason, seat in points:
            side = seat % 2 if partners else seat
            by_side[side] += 1
            records.append(SevenUpPoint(reason=reason, seat=seat, side=side))
        deals.append(
            SevenUpDeal(
                number=index + 1,
                dealer=index % 2,
                outcome=SevenUpDealOutcome.played,
                trump=Suit.H,
                points=records,
                by_side=by_side,
            )
        )
    return deals


def build(model: Any, options: Any, **fields: Any) -> Any:
    """A state of ``model``; the stock holds every card not placed elsewhere (canonical order)."""
    n = len(fields["hands"])
    defaults: dict[str, Any] = {
        "cut": [],
        "set_aside": [],
        "discarded": [[] for _ in range(n)],
        "leader": None,
        "trick": [],
        "tricks": [],
        "points": [],
        "deals": [],
        **seeding(0).state_fields(),
        "turned": None,
    }
    for key, value in defaults.items():
        fields.setdefault(key, value)
    fields.setdefault("deal_number", len(fields["deals"]) + 1)
    if isinstance(fields.get("trump"), str):
        fields["trump"] = Suit(fields["trump"])
    if "stock" not in fields:
        used = {c for h in fields["hands"] for c in h} | set(fields["set_aside"]) | set(fields["trick"])
        used |= {c for d in fields["discarded"] for c in d} | {c for t in fields["tricks"] for c in t.cards}
        if fields["turned"]:
            used.add(fields["turned"])
        fields["stock"] = [c for c in FULL_DECK if c not in used]
    game = model.model_fields["game"].annotation.__args__[0]
    return model(game=game, options=options, **fields)


def mv(kind: str, player: int, **fields: Any) -> SevenUpMove:
    """A move of the given type."""
    return SevenUpMove(type=SevenUpMoveType(kind), player=player, **fields)


def seven_up(**fields: Any) -> SevenUpState:
    """A consistent two- or three-player Seven-Up state (checked)."""
    options = fields.pop("options", SevenUpOptions())
    state: SevenUpState = build(SevenUpState, options, **fields)
    assert SU.consistency_issues(state) == []
    return state


def kinds(events: Sequence[Any]) -> list[str]:
    """Event types in order."""
    return [e.type.value for e in events]


def point_list(points: Sequence[SevenUpPoint]) -> list[tuple[str, int | None]]:
    """(reason, seat) pairs."""
    return [(p.reason.value, p.seat) for p in points]


# ---- shared trick helpers --------------------------------------------------------------------------


def test_highest_trump_wins_else_highest_card_of_the_led_suit() -> None:
    assert trick_winner(["KC", "2H"], 1, 2, "H") == 0  # the trump by seat 0 beats the led King
    assert trick_winner(["KC", "AC"], 1, 2, "H") == 0  # Ace high
    assert trick_winner(["5C", "AD"], 0, 2, "H") == 0  # an off-suit Ace does not win
    assert trick_winner(["5C", "3H", "QH"], 2, 3, "H") == 1  # highest of two trumps (seat 2+2)
    assert trick_winner(["TS", "9S", "JS", "2S"], 3, 4, None) == 1  # no trump: highest spade, seat 3+2


def test_card_points_of_game() -> None:
    assert card_points(["AC", "KD", "QH", "JS", "TC", "9C", "2D"]) == 4 + 3 + 2 + 1 + 10


def test_following_rule_helper() -> None:
    hand = ["2C", "4C", "5H", "9D"]
    assert legal_follows(hand, None, "H") == hand
    assert legal_follows(hand, "C", "H") == ["2C", "4C"]
    assert legal_follows(hand, "C", "H", True) == ["2C", "4C", "5H"]
    assert legal_follows(hand, "S", "H") == hand


# ---- the cut and the deal --------------------------------------------------------------------------


def test_cut_highest_card_deals_reproducibly_from_the_seed() -> None:
    rank = "23456789TJQKA"
    for seed in range(40):
        pack = seeding(seed).shuffled(FULL_DECK, "seven-up", 1, CUT)  # the documented cut pack
        rounds, dealer = cut_for_dealer(seeding(seed), "seven-up", 3)
        assert rounds[0].seats == [0, 1, 2] and rounds[0].cards == pack[:3]
        final = rounds[-1]
        best = max(rank.index(c[0]) for c in final.cards)
        assert [s for s, c in zip(final.seats, final.cards, strict=True) if rank.index(c[0]) == best] == [
            dealer
        ]
        state = SU.new(3, SevenUpOptions(), seeding(seed), None, None)
        assert state.cut == rounds and state.dealer == dealer


def test_cut_ties_cut_again() -> None:
    rank = "23456789TJQKA"
    seed = next(s for s in range(500) if len(cut_for_dealer(seeding(s), "seven-up", 2)[0]) > 1)
    rounds, _ = cut_for_dealer(seeding(seed), "seven-up", 2)
    pack = seeding(seed).shuffled(FULL_DECK, "seven-up", 1, CUT)
    first = rounds[0]
    assert rank.index(first.cards[0][0]) == rank.index(first.cards[1][0])  # a tie on top
    assert rounds[1].seats == [0, 1] and rounds[1].cards == pack[2:4]  # cut again with the next cards


def test_named_dealer_skips_the_cut() -> None:
    state = SU.new(2, SevenUpOptions(), seeding(5), None, 1)
    assert state.cut == [] and state.dealer == 1


def test_six_cards_each_in_two_packets_of_three_and_the_next_card_turned() -> None:
    deck = list(FULL_DECK)
    state = SU.new(2, SevenUpOptions(), seeding(0), deck, 0)
    # eldest (seat 1) gets cards 0-2 and 6-8, the dealer 3-5 and 9-11; card 12 is turned
    assert state.hands[1] == ["AC", "2C", "3C", "7C", "8C", "9C"]
    assert state.hands[0] == ["4C", "5C", "6C", "TC", "JC", "QC"]
    assert state.turned == "KC" and state.trump == "C"
    assert state.stock == deck[13:]
    assert state.phase is SevenUpPhase.stand_or_beg and state.points == []


def test_turned_jack_scores_one_for_the_dealer_at_once() -> None:
    state = SU.new(2, SevenUpOptions(), seeding(0), deck_at({12: "JD"}), 0)
    assert point_list(state.points) == [("turned_jack", 0)]
    assert SU.score(state).totals == [1, 0]


def test_the_first_deals_turned_trump_and_jack_point_are_events_of_new() -> None:
    _, events = SU.new_match(2, SevenUpOptions(), seeding(0), deck_at({12: "JD"}), 0)
    kinds = [str(e.type) for e in events]
    assert kinds[0] == "deal_started"
    assert "trump_turned" in kinds and "point" in kinds
    assert kinds.index("trump_turned") < kinds.index("point")


# ---- stand, beg, give, run -------------------------------------------------------------------------


def test_only_the_eldest_stands_or_begs_once() -> None:
    state = SU.new(3, SevenUpOptions(), seeding(0), None, 1)
    assert SU.to_act(state) == [2]
    assert SU.legal_moves(state, 2) == [mv("stand", 2), mv("beg", 2)]
    with pytest.raises(NotYourTurnError):
        SU.apply(state, mv("stand", 1))
    after, events = SU.apply(state, mv("stand", 2))
    assert kinds(events) == ["stood"]
    assert after.phase is SevenUpPhase.play and SU.to_act(after) == [2]  # the eldest leads
    assert all(m.type is SevenUpMoveType.play for m in SU.legal_moves(after, 2))


def test_after_a_beg_the_dealer_gives_and_the_eldest_scores_one() -> None:
    state = SU.new(2, SevenUpOptions(), seeding(0), list(FULL_DECK), 0)
    begged, events = SU.apply(state, mv("beg", 1))
    assert kinds(events) == ["begged"] and SU.to_act(begged) == [0]
    assert SU.legal_moves(begged, 0) == [mv("give", 0), mv("run", 0)]
    given, events = SU.apply(begged, mv("give", 0))
    assert kinds(events) == ["gave", "point"] and events[1].reason is R.gift and events[1].player == 1
    assert given.trump == "C" and given.turned == "KC"  # this trump stands
    assert given.phase is SevenUpPhase.play and SU.to_act(given) == [1]
    assert point_list(given.points) == [("gift", 1)]


def test_run_sets_the_card_aside_deals_three_more_and_turns_a_new_trump() -> None:
    deck = deck_at({12: "2H", 19: "4S"})
    state = SU.new(2, SevenUpOptions(), seeding(0), deck, 0)
    state, _ = SU.apply(state, mv("beg", 1))
    ran, events = SU.apply(state, mv("run", 0))
    assert ran.set_aside == ["2H"] and ran.turned == "4S" and ran.trump == "S"
    assert set(deck[13:16]) <= set(ran.hands[1]) and set(deck[16:19]) <= set(ran.hands[0])
    assert [len(h) for h in ran.hands] == [9, 9] and ran.stock == deck[20:]
    assert kinds(events) == ["ran", "set_aside", "trump_turned"]
    assert ran.phase is SevenUpPhase.discard and ran.points == []


def test_run_of_the_same_suit_is_set_aside_and_repeats() -> None:
    deck = deck_at({12: "2H", 19: "3H", 26: "4S"})
    state = SU.new(2, SevenUpOptions(), seeding(0), deck, 0)
    state, _ = SU.apply(state, mv("beg", 1))
    ran, events = SU.apply(state, mv("run", 0))
    assert ran.set_aside == ["2H", "3H"] and ran.turned == "4S" and ran.trump == "S"
    assert [len(h) for h in ran.hands] == [12, 12]
    assert set(deck[20:23]) <= set(ran.hands[1]) and set(deck[23:26]) <= set(ran.hands[0])
    assert kinds(events) == ["ran", "set_aside", "trump_turned", "set_aside", "trump_turned"]


def test_jack_turned_during_a_run_scores_for_the_dealer() -> None:
    state = SU.new(2, SevenUpOptions(), seeding(0), deck_at({12: "2H", 19: "JS"}), 0)
    state, _ = SU.apply(state, mv("beg", 1))
    ran, events = SU.apply(state, mv("run", 0))
    assert ran.trump == "S" and point_list(ran.points) == [("turned_jack", 0)]
    assert events[-1].type is E.point and events[-1].card == "JS"


def test_jack_of_the_refused_suit_turned_during_a_run_scores_nothing() -> None:
    state = SU.new(2, SevenUpOptions(), seeding(0), deck_at({12: "2H", 19: "JH", 26: "5C"}), 0)
    state, _ = SU.apply(state, mv("beg", 1))
    ran, _ = SU.apply(state, mv("run", 0))
    assert ran.set_aside == ["2H", "JH"] and ran.trump == "C" and ran.points == []


def test_throw_in_when_the_pack_runs_short_cancels_points_and_the_same_dealer_deals() -> None:
    # hearts at every turn: 12 (a Jack: 1 point), then 19, 26, 33, 40, 47; after that 4 cards are left
    deck = deck_at({12: "JH", 19: "2H", 26: "3H", 33: "4H", 40: "5H", 47: "6H"})
    state = SU.new(2, SevenUpOptions(), seeding(0), deck, 0)
    assert point_list(state.points) == [("turned_jack", 0)]
    state, _ = SU.apply(state, mv("beg", 1))
    thrown, events = SU.apply(state, mv("run", 0))
    assert kinds(events)[-2:] == ["thrown_in", "deal_ended"]
    assert thrown.phase is SevenUpPhase.deal_over
    deal = thrown.deals[-1]
    assert deal.outcome is SevenUpDealOutcome.thrown_in and deal.by_side == [0, 0]
    assert point_list(deal.points) == [("turned_jack", 0)]  # recorded, but cancelled
    assert SU.score(thrown).totals == [0, 0] and not SU.score(thrown).deals[0].counted
    assert (
        len(thrown.set_aside) == 6 and [len(h) for h in thrown.hands] == [21, 21] and len(thrown.stock) == 4
    )
    assert SU.consistency_issues(thrown) == []
    assert SU.to_act(thrown) == [0]  # the same dealer deals again
    again, _ = SU.apply(thrown, mv("next_deal", 0))
    assert again.dealer == 0 and again.deal_number == 2 and again.phase is SevenUpPhase.stand_or_beg


def test_throw_in_with_three_players() -> None:
    # three players: 19 cards dealt and turned, 10 per run step; turns at 18, 28, 38, 48 then 3 cards left
    deck = deck_at({18: "2H", 28: "3H", 38: "4H", 48: "5H"})
    state = SU.new(3, SevenUpOptions(), seeding(0), deck, 0)
    state, _ = SU.apply(state, mv("beg", 1))
    thrown, _ = SU.apply(state, mv("run", 0))
    assert thrown.deals[-1].outcome is SevenUpDealOutcome.thrown_in
    assert [len(h) for h in thrown.hands] == [15, 15, 15] and len(thrown.stock) == 3


def test_after_a_run_each_player_discards_to_six_in_turn_from_the_eldest() -> None:
    state = SU.new(2, SevenUpOptions(), seeding(0), deck_at({12: "2H", 19: "4S"}), 0)
    state, _ = SU.apply(state, mv("beg", 1))
    state, _ = SU.apply(state, mv("run", 0))
    assert SU.to_act(state) == [1]
    moves = SU.legal_moves(state, 1)
    assert moves == [mv("discard", 1, cards=[c]) for c in state.hands[1]]  # one card per move
    with pytest.raises(IllegalMoveError):
        SU.apply(state, mv("discard", 1, cards=state.hands[0][:1]))  # not in this hand
    for _ in range(3):
        assert SU.to_act(state) == [1]
        state, events = SU.apply(state, SU.legal_moves(state, 1)[-1])
        assert kinds(events) == ["discarded"] and events[0].count == 1
    assert SU.to_act(state) == [0] and len(state.hands[1]) == 6 and len(state.discarded[1]) == 3
    for _ in range(3):
        state, _ = SU.apply(state, SU.legal_moves(state, 0)[0])
    assert state.phase is SevenUpPhase.play and SU.to_act(state) == [1]
    assert [len(h) for h in state.hands] == [6, 6] and [len(d) for d in state.discarded] == [3, 3]
    assert SU.consistency_issues(state) == []


# ---- play ------------------------------------------------------------------------------------------


def _follow_state(hand0: list[str], options: SevenUpOptions | None = None) -> SevenUpState:
    return seven_up(
        options=options or SevenUpOptions(),
        dealer=0,
        phase=SevenUpPhase.play,
        turned="9H",
        trump="H",
        leader=1,
        trick=["KC"],
        hands=[hand0, ["3S", "4S", "5S", "6S", "7S"]],
    )


def test_must_follow_the_led_suit_when_able() -> None:
    state = _follow_state(["2C", "4C", "5H", "6H", "9D", "TD"])
    assert [m.card for m in SU.legal_moves(state, 0)] == ["2C", "4C"]
    with pytest.raises(IllegalMoveError):
        SU.apply(state, mv("play", 0, card="5H"))


def test_option_may_trump_when_able_to_follow() -> None:
    state = _follow_state(
        ["2C", "4C", "5H", "6H", "9D", "TD"], SevenUpOptions(may_trump_when_able_to_follow=True)
    )
    assert [m.card for m in SU.legal_moves(state, 0)] == ["2C", "4C", "5H", "6H"]
    after, events = SU.apply(state, mv("play", 0, card="5H"))
    assert kinds(events) == ["played", "trick_won"] and events[1].player == 0  # the trump wins
    assert after.leader == 0 and after.tricks[0].winner == 0


def test_a_player_void_in_the_led_suit_may_play_any_card() -> None:
    state = _follow_state(["5H", "6H", "9D", "TD", "2S", "8S"])
    assert [m.card for m in SU.legal_moves(state, 0)] == ["5H", "6H", "9D", "TD", "2S", "8S"]
    after, _ = SU.apply(state, mv("play", 0, card="9D"))
    assert after.tricks[0].winner == 1  # a discard of another suit never wins


def test_the_winner_of_a_trick_leads_the_next() -> None:
    for card, winner in (("5H", 0), ("9D", 1)):  # a trump takes the led King of clubs; a diamond does not
        state = _follow_state(["5H", "6H", "9D", "TD", "2S", "8S"])
        after, _ = SU.apply(state, mv("play", 0, card=card))
        assert after.tricks[-1].winner == winner
        assert after.leader == winner and after.trick == [] and SU.to_act(after) == [winner]


def test_discarded_cards_are_out_of_play() -> None:
    state = SU.new(2, SevenUpOptions(), seeding(0), deck_at({12: "2H", 19: "4S"}), 0)
    state, _ = SU.apply(state, mv("beg", 1))
    state, _ = SU.apply(state, mv("run", 0))
    while state.phase is SevenUpPhase.discard:
        seat = SU.to_act(state)[0]
        state, _ = SU.apply(state, SU.legal_moves(state, seat)[0])
    out = {card for pile in state.discarded for card in pile}
    assert len(out) == 6
    while state.phase is SevenUpPhase.play:
        seat = SU.to_act(state)[0]
        moves = SU.legal_moves(state, seat)
        assert not out & {move.card for move in moves}
        state, _ = SU.apply(state, moves[-1])
    played = {card for done in state.tricks for card in done.cards}
    assert len(played) == 12 and not out & played


# ---- end-of-hand points ----------------------------------------------------------------------------


def _last_trick(tricks: list[SevenUpTrick], hands: list[list[str]], **fields: Any) -> SevenUpState:
    """Two players, dealer 1 (eldest 0 led first), trump hearts, five tricks played."""
    return seven_up(
        dealer=1, phase=SevenUpPhase.play, turned="9H", trump="H", tricks=tricks, hands=hands, **fields
    )


def _finish(state: SevenUpState) -> tuple[SevenUpState, list[Any]]:
    events: list[Any] = []
    while state.phase is SevenUpPhase.play:
        seat = SU.to_act(state)[0]
        state, more = SU.apply(state, SU.legal_moves(state, seat)[0])
        events += more
    return state, events


def test_high_low_jack_and_game_in_order() -> None:
    state = _last_trick(
        [
            trick(0, ["JH", "QH"], "H", 1),  # seat 0 plays the Jack, seat 1 wins it with the Queen
            trick(1, ["AC", "3C"], "H", 1),
            trick(1, ["4C", "KC"], "H", 0),
            trick(0, ["5D", "6D"], "H", 1),
            trick(1, ["7D", "8D"], "H", 0),
        ],
        [["2S"], ["3S"]],
        leader=0,
    )
    done, events = _finish(state)
    # High QH (seat 1), Low JH (seat 0), Jack to the winner of its trick (seat 1), Game: seat 1 has
    # J1 + Q2 + A4 + 0 = 7 against K3 = 3
    assert point_list(done.deals[-1].points) == [("high", 1), ("low", 0), ("jack", 1), ("game", 1)]
    assert [e.card for e in events if e.type is E.point] == ["QH", "JH", "JH", None]
    assert done.phase is SevenUpPhase.deal_over and done.deals[-1].by_side == [1, 3]
    score = SU.score(done)
    assert score.totals == [1, 3]
    side1 = score.deals[-1].sides[1]
    assert (side1.high, side1.low, side1.jack, side1.game, side1.total) == (1, 0, 1, 1, 3)


def test_one_trump_played_alone_takes_high_and_low() -> None:
    state = _last_trick(
        [
            trick(0, ["TC", "2C"], "H", 0),
            trick(0, ["3D", "TD"], "H", 1),
            trick(1, ["4S", "5S"], "H", 0),
            trick(0, ["6S", "5H"], "H", 1),
            trick(1, ["8D", "9D"], "H", 0),
        ],
        [["2S"], ["4C"]],  # (seat 1 trumped a spade: it holds none, and leads none after)
        leader=0,
    )
    done, _ = _finish(state)
    # 5H alone: High and Low to seat 1; JH never played: no Jack; Game 10 against 10: a tie, no point
    assert point_list(done.deals[-1].points) == [("high", 1), ("low", 1)]


def test_game_tie_gives_nobody_the_point() -> None:
    state = _last_trick(
        [
            trick(0, ["TC", "2C"], "H", 0),
            trick(0, ["3D", "TD"], "H", 1),
            trick(1, ["4S", "5S"], "H", 0),
            trick(0, ["6S", "7S"], "H", 1),
            trick(1, ["8S", "9S"], "H", 0),
        ],
        [["2S"], ["3S"]],
        leader=0,
    )
    done, _ = _finish(state)
    assert done.deals[-1].points == [] and done.deals[-1].by_side == [0, 0]


def _count_out_at_six_to_five() -> SevenUpState:
    """Seat 0 at 6 and seat 1 at 5 before the last trick of a deal in which seat 1 played AH and won JH
    (High, Jack, Game) and seat 0 played 2H (Low)."""
    deals = history(
        [(R.high, 0), (R.low, 0), (R.jack, 0), (R.game, 0)],
        [(R.high, 0), (R.low, 0), (R.jack, 1), (R.game, 1)],
        [(R.high, 1), (R.low, 1), (R.jack, 1)],
    )
    state = _last_trick(
        [
            trick(0, ["2H", "AH"], "H", 1),
            trick(1, ["JH", "3C"], "H", 1),
            trick(1, ["TS", "4S"], "H", 1),
            trick(1, ["KS", "5S"], "H", 1),
            trick(1, ["QD", "6D"], "H", 1),
        ],
        [["7D"], ["AD"]],
        leader=1,
        deals=deals,
    )
    return state


def test_count_out_low_wins_before_the_opponents_jack_and_game() -> None:
    state = _count_out_at_six_to_five()
    assert SU.score(state).totals == [6, 5]
    done, events = _finish(state)
    # High: seat 1 reaches 6; Low: seat 0 reaches 7 and wins; Jack and Game are never counted
    assert point_list(done.deals[-1].points) == [("high", 1), ("low", 0)]
    assert kinds(events)[-4:] == ["point", "point", "deal_ended", "match_ended"]
    assert done.phase is SevenUpPhase.match_over and done.deals[-1].outcome is SevenUpDealOutcome.played
    score = SU.score(done)
    outcome = SU.outcome(done)
    assert score.totals == [7, 6] and score.winning_side == 0 and outcome.over and outcome.winners == [0]
    assert [(s.total, s.place) for s in outcome.seats] == [(7, 1), (6, 2)]
    assert SU.to_act(done) == [] and SU.consistency_issues(done) == []


def test_first_to_seven_wins_at_once_with_a_turned_jack() -> None:
    # deal 2: seat 0 played the only trump (High and Low), seat 1 won 11 card points against 5 (Game)
    deals = history(
        [(R.high, 0), (R.low, 0), (R.jack, 0), (R.game, 0)],
        [(R.high, 0), (R.low, 0), (R.game, 1)],
    )
    state = seven_up(
        dealer=1,
        deal_number=2,
        deals=deals,
        phase=SevenUpPhase.deal_over,
        turned="9H",
        trump="H",
        hands=[[], []],
        tricks=[
            trick(0, ["2C", "3C"], "H", 1),
            trick(1, ["4C", "KC"], "H", 0),
            trick(0, ["6C", "7C"], "H", 1),
            trick(1, ["8C", "9C"], "H", 0),
            trick(0, ["TC", "JC"], "H", 1),
            trick(1, ["QC", "5H"], "H", 0),  # (seat 0 renounces clubs in the last trick only)
        ],
    )
    assert SU.to_act(state) == [0]  # the dealer moves left
    over, events = SU.apply(state, mv("next_deal", 0, deck=deck_at({12: "JS"})))
    assert over.phase is SevenUpPhase.match_over and SU.to_act(over) == []
    assert over.deals[-1].outcome is SevenUpDealOutcome.match_won
    assert point_list(over.deals[-1].points) == [("turned_jack", 0)]
    assert kinds(events)[-3:] == ["point", "deal_ended", "match_ended"] and events[-1].winners == [0]
    assert SU.consistency_issues(over) == []


def test_a_gift_can_win_the_match() -> None:
    deals = history([(R.high, 1), (R.low, 1), (R.jack, 1), (R.game, 1)], [(R.high, 1), (R.low, 1)])
    state = seven_up(
        dealer=0,
        deals=deals,
        phase=SevenUpPhase.give_or_run,
        turned="9H",
        trump="H",
        hands=[["2C", "3C", "4C", "5C", "6C", "7C"], ["2D", "3D", "4D", "5D", "6D", "7D"]],
    )
    over, events = SU.apply(state, mv("give", 0))
    assert over.phase is SevenUpPhase.match_over and SU.outcome(over).winners == [1]
    assert kinds(events) == ["gave", "point", "deal_ended", "match_ended"]


# ---- consistency, views, scores --------------------------------------------------------------------


def _issues(state: SevenUpState, **update: Any) -> list[str]:
    return [i.message for i in SU.consistency_issues(updated(state, **update))]


def test_consistency_checks_catch_impossible_states() -> None:
    state = SU.new(2, SevenUpOptions(), seeding(0), list(FULL_DECK), 0)
    assert SU.consistency_issues(state) == []
    assert _issues(state, hands=[state.hands[0], [*state.hands[1][:5], state.hands[0][0]]])  # a card twice
    assert _issues(state, trump="S")  # trump must match the turned card
    assert _issues(state, hands=[state.hands[0][:5], state.hands[1]])  # a hand of 5 before trump
    assert _issues(state, leader=1)  # no leader before play
    assert _issues(state, phase=SevenUpPhase.discard)  # no run happened
    assert _issues(state, discarded=[[]])  # one list per seat
    playing = _follow_state(["2C", "4C", "5H", "6H", "9D", "TD"])
    assert _issues(playing, trick=["KC", "2C"], hands=[playing.hands[0][1:], playing.hands[1]])  # full trick
    assert _issues(playing, tricks=[trick(1, ["AS"], "H", 1)])  # a trick of one card
    assert _issues(playing, leader=0)  # the first trick is led by the eldest


def test_view_shows_own_hand_and_hides_others_and_the_stock() -> None:
    state = SU.new(2, SevenUpOptions(), seeding(3), None, 0)
    view = SU.view(state, 1)
    assert view.hand == state.hands[1] and view.hand_sizes == [6, 6] and view.stock_size == 39
    text = view.model_dump_json()
    assert not any(f'"{c}"' in text for c in state.hands[0] + state.stock)
    assert view.seed is None and view.commitment == state.commitment
    swapped = updated(state, hands=[state.stock[:6], state.hands[1]], stock=state.hands[0] + state.stock[6:])
    assert SU.view(swapped, 1) == view


def test_next_deal_moves_the_dealer_left() -> None:
    state = seven_up(
        dealer=1,
        deal_number=1,
        deals=[updated(history([(R.game, 1)])[0], dealer=1)],  # no trump played; 11 to 5
        phase=SevenUpPhase.deal_over,
        turned="9H",
        trump="H",
        hands=[[], []],
        tricks=[
            trick(0, ["2C", "3C"], "H", 1),
            trick(1, ["4C", "5C"], "H", 0),
            trick(0, ["6C", "7C"], "H", 1),
            trick(1, ["8C", "9C"], "H", 0),
            trick(0, ["TC", "JC"], "H", 1),
            trick(1, ["QC", "KC"], "H", 0),
        ],
    )
    assert SU.to_act(state) == [0]
    after, events = SU.apply(state, mv("next_deal", 0))
    assert after.dealer == 0 and after.deal_number == 2 and kinds(events)[0] == "deal_started"
    assert len(after.stock) == 39 and [len(h) for h in after.hands] == [6, 6]
    assert after.turned is not None
    assert sorted([*after.hands[0], *after.hands[1], after.turned, *after.stock]) == sorted(FULL_DECK)
    expected = Seeding.of(state).shuffled(FULL_DECK, "seven-up", 2)  # the second deal
    assert after.turned == expected[12]


# ---- points checked against the cards (consistency) -------------------------------------------------


def _point(reason: SevenUpPointReason, seat: int) -> SevenUpPoint:
    return SevenUpPoint(reason=reason, seat=seat, side=seat)


def _recorded(state: Any, index: int, points: Sequence[tuple[SevenUpPointReason, int]], **update: Any) -> Any:
    """``state`` with deal ``index`` recording ``points`` (two players; by_side recounted)."""
    deal = state.deals[index]
    records = [_point(reason, seat) for reason, seat in points]
    counted = (update.get("outcome") or deal.outcome) is not SevenUpDealOutcome.thrown_in
    by_side = [sum(1 for p in records if p.side == side) if counted else 0 for side in (0, 1)]
    deals = list(state.deals)
    deals[index] = updated(deal, points=records, by_side=by_side, **update)
    return updated(state, deals=deals)


def _ran(placed: Mapping[int, str]) -> SevenUpState:
    """Two players, dealer 0: the eldest begs, the dealer runs (a new trump is turned)."""
    state = SU.new(2, SevenUpOptions(), seeding(0), deck_at(placed), 0)
    state, _ = SU.apply(state, mv("beg", 1))
    state, _ = SU.apply(state, mv("run", 0))
    return state


def _played_deal_over() -> SevenUpState:
    """Deal 1 played out by the engine: High QH seat 1, Low JH seat 0, Jack seat 1, Game seat 1."""
    state = _last_trick(
        [
            trick(0, ["JH", "QH"], "H", 1),
            trick(1, ["AC", "3C"], "H", 1),
            trick(1, ["4C", "KC"], "H", 0),
            trick(0, ["5D", "6D"], "H", 1),
            trick(1, ["7D", "8D"], "H", 0),
        ],
        [["2S"], ["3S"]],
        leader=0,
    )
    done, _ = _finish(state)
    assert point_list(done.deals[-1].points) == [("high", 1), ("low", 0), ("jack", 1), ("game", 1)]
    assert done.phase is SevenUpPhase.deal_over and SU.consistency_issues(done) == []
    return done


def test_a_turned_jack_point_needs_a_turned_jack() -> None:
    state = SU.new(2, SevenUpOptions(), seeding(0), deck_at({12: "5H"}), 0)
    assert SU.consistency_issues(state) == []
    assert _issues(state, points=[_point(R.turned_jack, 0)])  # 5H turned: no Jack
    jack = SU.new(2, SevenUpOptions(), seeding(0), deck_at({12: "JH"}), 0)
    assert _issues(jack, points=[_point(R.turned_jack, 0)] * 2)  # one Jack, one point
    # a Jack of the refused suit turned during a run is set aside and scores nothing
    refused = _ran({12: "2H", 19: "JH", 26: "5C"})
    assert refused.set_aside == ["2H", "JH"] and SU.consistency_issues(refused) == []
    assert _issues(refused, points=[_point(R.turned_jack, 0)])
    # the first turned card (set aside by the run) and the new trump may each be a Jack: two points
    both = _ran({12: "JH", 19: "JS"})
    assert point_list(both.points) == [("turned_jack", 0), ("turned_jack", 0)]
    assert SU.consistency_issues(both) == []
    assert _issues(both, points=both.points[:1])


def test_a_turned_jack_scores_for_the_dealer_at_once() -> None:
    state = SU.new(2, SevenUpOptions(), seeding(0), deck_at({12: "JD"}), 0)
    assert _issues(state, points=[])  # the Jack was turned: its point is there at once
    assert _issues(state, points=[_point(R.turned_jack, 1)])  # for the dealer, not the eldest
    ran = _ran({12: "2H", 19: "JS"})
    assert _issues(ran, points=[])  # the new trump turned in the run is a Jack
    thrown = _ran({12: "JH", 19: "2H", 26: "3H", 33: "4H", 40: "5H", 47: "6H"})
    assert thrown.deals[-1].outcome is SevenUpDealOutcome.thrown_in and SU.consistency_issues(thrown) == []
    assert SU.consistency_issues(_recorded(thrown, 0, []))  # the first turned JH scored (then cancelled)


def test_a_gift_comes_only_after_the_dealer_gives() -> None:
    state = SU.new(2, SevenUpOptions(), seeding(0), list(FULL_DECK), 0)
    gift = [_point(R.gift, 1)]
    assert _issues(state, points=gift)  # stand_or_beg: nobody has begged
    begged, _ = SU.apply(state, mv("beg", 1))
    assert [i.message for i in SU.consistency_issues(updated(begged, points=gift))]
    given, _ = SU.apply(begged, mv("give", 0))
    assert point_list(given.points) == [("gift", 1)] and SU.consistency_issues(given) == []
    assert _issues(given, points=[_point(R.gift, 0)])  # the gift goes to the eldest


def test_at_most_one_gift_per_deal() -> None:
    state = SU.new(2, SevenUpOptions(), seeding(0), list(FULL_DECK), 0)
    given, _ = SU.apply(SU.apply(state, mv("beg", 1))[0], mv("give", 0))
    assert _issues(given, points=[_point(R.gift, 1)] * 2)
    assert _issues(given, points=[_point(R.gift, 1)] * 4)


def test_no_gift_after_a_run() -> None:
    ran = _ran({12: "5H", 25: "5S"})
    assert ran.phase is SevenUpPhase.discard and ran.set_aside == ["5H"]
    assert _issues(ran, points=[_point(R.gift, 1)])
    while ran.phase is SevenUpPhase.discard:
        seat = SU.to_act(ran)[0]
        ran, _ = SU.apply(ran, SU.legal_moves(ran, seat)[0])
    assert ran.phase is SevenUpPhase.play and SU.consistency_issues(ran) == []
    assert _issues(ran, points=[_point(R.gift, 1)])


def test_the_recorded_end_of_hand_points_are_those_the_tricks_give() -> None:
    done = _played_deal_over()
    swapped = _recorded(done, 0, [(R.high, 0), (R.low, 0), (R.jack, 1), (R.game, 1)])
    assert SU.consistency_issues(swapped)  # QH was played by seat 1: High is seat 1's
    assert SU.consistency_issues(_recorded(done, 0, [(R.high, 1), (R.low, 0), (R.game, 1)]))  # Jack missing
    assert SU.consistency_issues(_recorded(done, 0, [(R.high, 1), (R.low, 0), (R.jack, 1), (R.game, 0)]))
    # the points scored during the deal come first and are checked too: 9H was turned, no Jack
    assert SU.consistency_issues(
        _recorded(done, 0, [(R.turned_jack, 1), (R.high, 1), (R.low, 0), (R.jack, 1), (R.game, 1)])
    )


def test_the_recorded_end_of_hand_points_stop_at_the_winning_point() -> None:
    state = _count_out_at_six_to_five()
    done, _ = _finish(state)
    assert done.phase is SevenUpPhase.match_over and point_list(done.deals[-1].points) == [
        ("high", 1),
        ("low", 0),
    ]
    assert SU.consistency_issues(done) == []
    assert SU.consistency_issues(_recorded(done, 3, [(R.high, 1), (R.low, 0), (R.jack, 1)]))  # counted on
    assert SU.consistency_issues(_recorded(done, 3, [(R.high, 0), (R.low, 0)]))  # not the tricks' High
    tricks = list(done.tricks)
    tricks[2] = updated(tricks[2], trump=Suit.C)  # TS 4S: the same winner with clubs
    assert _issues(done, tricks=tricks)  # match_over keeps the tricks: each in the deal's trump


def test_a_finished_deals_tricks_are_played_in_its_trump() -> None:
    done = _played_deal_over()
    tricks = list(done.tricks)
    tricks[1] = updated(tricks[1], trump=Suit.S)  # AC 3C: the same winner with spades
    assert _issues(done, tricks=tricks)
    deal = updated(done.deals[-1], trump=Suit.S)
    assert _issues(done, deals=[deal])  # the record keeps the deal's trump


def test_a_deal_that_ended_the_match_is_the_last_deal() -> None:
    deals = history([(R.high, 0)], [(R.low, 1)])
    deals[0] = updated(deals[0], outcome=SevenUpDealOutcome.match_won)
    state = SU.new(2, SevenUpOptions(), seeding(0), deck_at({12: "5H"}), 0)
    state = updated(state, deals=deals, deal_number=3)
    assert SU.consistency_issues(state)
    # nor does a deal follow the deal in which a side reached 7
    seven = history(
        [(R.high, 0), (R.low, 0), (R.jack, 0), (R.game, 0)], [(R.high, 0), (R.low, 0), (R.jack, 0)], []
    )
    assert SU.consistency_issues(updated(state, deals=seven, deal_number=4, dealer=1))


def test_deal_records_hold_the_points_their_outcome_allows() -> None:
    state = SU.new(2, SevenUpOptions(), seeding(0), deck_at({12: "5H"}), 0)

    def issues(*points: tuple[SevenUpPointReason, int], outcome: SevenUpDealOutcome | None = None) -> bool:
        deals = history([])
        if outcome is SevenUpDealOutcome.thrown_in:
            deals = [updated(deals[0], outcome=outcome, trump=None)]
        later = _recorded(updated(state, deals=deals), 0, points)
        dealer = 0 if outcome is SevenUpDealOutcome.thrown_in else 1  # after a throw-in the same dealer
        return bool(SU.consistency_issues(updated(later, deal_number=2, dealer=dealer)))

    thrown = SevenUpDealOutcome.thrown_in
    assert not issues((R.turned_jack, 0), outcome=thrown)  # the first turned card's Jack, cancelled
    assert issues((R.high, 0), (R.low, 0), outcome=thrown)  # a thrown-in deal is never played
    assert issues((R.turned_jack, 0), (R.gift, 1), outcome=thrown)  # a gift settles trump: no throw-in
    assert issues((R.turned_jack, 0), (R.turned_jack, 0), outcome=thrown)  # a second Jack would settle trump
    # played deals: during-deal points, then High and Low together, Jack only with them, Game last
    assert not issues((R.turned_jack, 0), (R.gift, 1), (R.high, 0), (R.low, 1), (R.jack, 0), (R.game, 1))
    assert not issues((R.turned_jack, 0), (R.turned_jack, 0), (R.game, 1))
    assert not issues((R.high, 1), (R.low, 1))
    assert issues((R.low, 1))  # Low without High: only at the winning point
    assert issues((R.jack, 0))  # the trump Jack was played: there is a High and a Low
    assert issues((R.game, 0), (R.high, 0), (R.low, 0))  # counted High, Low, Jack, Game
    assert issues((R.gift, 1), (R.gift, 1))
    assert issues((R.turned_jack, 0), (R.turned_jack, 0), (R.gift, 1))  # a run, then a gift
    assert issues((R.turned_jack, 1))  # the deal's dealer is seat 0
    assert issues((R.gift, 0))  # the deal's eldest is seat 1
    assert issues((R.high, 0), (R.low, 0), (R.turned_jack, 0))  # during-deal points come first


# ---- Four-handed Seven-Up --------------------------------------------------------------------------


def test_four_handed_seats_right_of_the_dealer_see_only_a_count_until_trump_is_settled() -> None:
    state = FOUR.new(4, SevenUpOptions(), seeding(0), list(FULL_DECK), 0)
    for seat in (2, 3):
        view = FOUR.view(state, seat)
        assert view.hand == [] and view.hand_hidden and view.hand_sizes == [6, 6, 6, 6]
    for seat in (0, 1):
        assert FOUR.view(state, seat).hand == state.hands[seat]
    # their view does not change when their own cards change (they cannot see them)
    swapped = updated(state, hands=[state.hands[0], state.hands[1], state.hands[3], state.hands[2]])
    assert FOUR.view(swapped, 2) == FOUR.view(state, 2)
    begged, _ = FOUR.apply(state, mv("beg", 1))
    assert FOUR.view(begged, 3).hand_hidden
    stood, _ = FOUR.apply(state, mv("stand", 1))
    given, _ = FOUR.apply(begged, mv("give", 0))
    for settled in (stood, given):
        for seat in (2, 3):
            view = FOUR.view(settled, seat)
            assert view.hand == settled.hands[seat] and not view.hand_hidden


def test_four_handed_hands_are_shown_once_a_run_settles_the_new_trump() -> None:
    state = FOUR.new(4, SevenUpOptions(), seeding(0), deck_at({24: "2H", 37: "3S"}), 0)
    state, _ = FOUR.apply(state, mv("beg", 1))
    ran, _ = FOUR.apply(state, mv("run", 0))
    assert ran.trump == "S" and [len(h) for h in ran.hands] == [9, 9, 9, 9]
    assert FOUR.view(ran, 2).hand == ran.hands[2] and FOUR.view(ran, 3).hand == ran.hands[3]
    # all four discard, in turn from the eldest
    order: list[int] = []
    while ran.phase is SevenUpPhase.discard:
        seat = FOUR.to_act(ran)[0]
        if not order or order[-1] != seat:
            order.append(seat)
        ran, _ = FOUR.apply(ran, FOUR.legal_moves(ran, seat)[0])
    assert order == [1, 2, 3, 0] and [len(h) for h in ran.hands] == [6, 6, 6, 6]


def test_four_handed_only_the_dealer_and_eldest_decide() -> None:
    state = FOUR.new(4, SevenUpOptions(), seeding(0), None, 2)
    assert FOUR.to_act(state) == [3]
    for seat in (0, 1, 2):
        with pytest.raises(NotYourTurnError):
            FOUR.apply(state, mv("beg", seat))
    begged, _ = FOUR.apply(state, mv("beg", 3))
    assert FOUR.to_act(begged) == [2]


def test_four_handed_points_go_to_the_side() -> None:
    state = FOUR.new(4, SevenUpOptions(), seeding(0), deck_at({24: "JD"}), 3)
    assert [(p.reason.value, p.seat, p.side) for p in state.points] == [("turned_jack", 3, 1)]
    score = FOUR.score(state)
    assert score.totals == [0, 1] and score.side_of_seat == [0, 1, 0, 1]
    assert score.deals[-1].sides[1].seats == [1, 3]


def test_four_handed_game_point_goes_to_the_side_with_most_card_points() -> None:
    state = build(
        FourHandedSevenUpState,
        SevenUpOptions(),
        dealer=3,
        phase=SevenUpPhase.play,
        turned="9H",
        trump="H",
        leader=3,
        tricks=[
            trick(0, ["2C", "3C", "4C", "5C"], "H", 3),
            trick(3, ["6C", "7C", "8C", "9C"], "H", 2),
            trick(2, ["2D", "3D", "4D", "AD"], "H", 1),
            trick(1, ["5D", "6D", "7D", "8D"], "H", 0),
            trick(0, ["2S", "3S", "4S", "5S"], "H", 3),
        ],
        hands=[["6S"], ["7S"], ["8S"], ["TS"]],
    )
    assert FOUR.consistency_issues(state) == []
    while state.phase is SevenUpPhase.play:
        seat = FOUR.to_act(state)[0]
        state, _ = FOUR.apply(state, FOUR.legal_moves(state, seat)[0])
    # no trump played; side 1 (seats 1 and 3) won AD (4) and TS (10): Game, credited to the side
    assert [(p.reason.value, p.seat, p.side) for p in state.deals[-1].points] == [("game", None, 1)]
    assert FOUR.score(state).totals == [0, 1]


def test_four_handed_consistency_checks_sides() -> None:
    state = FOUR.new(4, SevenUpOptions(), seeding(0), deck_at({24: "JD"}), 2)
    assert FOUR.consistency_issues(state) == []
    wrong = updated(state, points=[SevenUpPoint(reason=R.turned_jack, seat=2, side=1)])
    assert FOUR.consistency_issues(wrong)
    seatless = updated(state, points=[SevenUpPoint(reason=R.turned_jack, seat=None, side=0)])
    assert FOUR.consistency_issues(seatless)


def test_a_play_with_extra_arguments_or_a_bad_next_deal_deck_is_refused() -> None:
    state = _follow_state(["2C", "4C", "5H", "6H", "9D", "TD"])
    with pytest.raises(IllegalMoveError):
        SU.apply(state, mv("play", 0, card="2C", deck=list(FULL_DECK)))
    with pytest.raises(IllegalMoveError):
        SU.apply(state, mv("play", 0, card="2C", cards=["2C"]))
    thrown = SU.new(
        2,
        SevenUpOptions(),
        seeding(0),
        deck_at({12: "2H", 19: "3H", 26: "4H", 33: "5H", 40: "6H", 47: "7H"}),
        0,
    )
    thrown, _ = SU.apply(SU.apply(thrown, mv("beg", 1))[0], mv("run", 0))
    with pytest.raises(InvalidRequestError) as error:
        SU.apply(thrown, mv("next_deal", 0, deck=[*FULL_DECK[:-1], "AC"]))  # AC twice
    assert error.value.argument == "move"


def _four_with_history(*per_deal: Sequence[tuple[SevenUpPointReason, int]], placed: Mapping[int, str]) -> Any:
    """Four-handed, dealer 2 dealing deal 3 after two played deals with the given points."""
    deals = history(*per_deal, partners=True)
    state = FOUR.new(4, SevenUpOptions(), seeding(0), deck_at(placed), 2)
    state = updated(state, deals=deals, deal_number=len(deals) + 1)
    assert FOUR.consistency_issues(state) == []
    return state


def test_four_handed_hands_stay_hidden_after_a_throw_in() -> None:
    state = FOUR.new(4, SevenUpOptions(), seeding(0), deck_at({24: "5H", 37: "6H", 50: "7H"}), 0)
    state, _ = FOUR.apply(state, mv("beg", 1))
    thrown, _ = FOUR.apply(state, mv("run", 0))
    assert thrown.phase is SevenUpPhase.deal_over and thrown.deals[-1].outcome is SevenUpDealOutcome.thrown_in
    assert not FOUR.trump_settled(thrown)
    for seat in (2, 3):  # trump was never settled: they never may look
        view = FOUR.view(thrown, seat)
        assert view.hand_hidden and view.hand == [] and view.hand_sizes == [12, 12, 12, 12]
    for seat in (0, 1):
        assert FOUR.view(thrown, seat).hand == thrown.hands[seat]
    again, _ = FOUR.apply(thrown, mv("next_deal", 0, deck=list(FULL_DECK)))
    assert FOUR.view(again, 2).hand_hidden and FOUR.view(again, 3).hand_hidden  # a new unsettled deal


def test_four_handed_hands_stay_hidden_when_a_turned_jack_wins_before_trump_is_settled() -> None:
    # side 0 (seats 0 and 2) has 6; deal 3 is dealt by seat 2 and turns JD: seat 2 scores the 7th point
    # (deal 3 is thrown in, so seat 2 deals deal 4 again)
    state = _four_with_history(
        [(R.high, 0), (R.low, 0), (R.jack, 2)],
        [(R.high, 2), (R.low, 2), (R.jack, 0)],
        placed={24: "5H", 37: "6H", 50: "7H"},
    )
    state, _ = FOUR.apply(state, mv("beg", 3))
    state, _ = FOUR.apply(state, mv("run", 2))
    assert state.deals[-1].outcome is SevenUpDealOutcome.thrown_in
    over, _ = FOUR.apply(state, mv("next_deal", 2, deck=deck_at({24: "JD"})))
    assert FOUR.consistency_issues(over) == []
    assert over.phase is SevenUpPhase.match_over and over.deals[-1].outcome is SevenUpDealOutcome.match_won
    assert not FOUR.trump_settled(over)
    for seat in (0, 1):  # dealer + 2 and dealer + 3
        assert FOUR.view(over, seat).hand_hidden and FOUR.view(over, seat).hand == []
    for seat in (2, 3):
        assert FOUR.view(over, seat).hand == over.hands[seat]


def test_four_handed_hands_show_when_a_gift_wins_the_match() -> None:
    # side 1 (seats 1 and 3) has 6; the eldest of deal 3 is seat 3: the gift settles trump and wins
    state = _four_with_history(
        [(R.high, 1), (R.low, 1), (R.jack, 3)], [(R.high, 3), (R.low, 3), (R.jack, 1)], placed={24: "5D"}
    )
    state, _ = FOUR.apply(state, mv("beg", 3))
    assert FOUR.view(state, 0).hand_hidden
    over, _ = FOUR.apply(state, mv("give", 2))
    assert over.phase is SevenUpPhase.match_over and FOUR.trump_settled(over)
    assert FOUR.consistency_issues(over) == []
    for seat in range(4):
        assert not FOUR.view(over, seat).hand_hidden and FOUR.view(over, seat).hand == over.hands[seat]


# ---- a revoke is an inconsistent state ------------------------------------------------------------


def test_a_seat_that_did_not_follow_the_led_suit_plays_none_of_it_later_in_the_hand() -> None:
    # seat 1 trumped the spade seat 0 led (it held none: RULINGS §3) and no card comes into a hand once
    # play begins, so it cannot lead a spade two tricks on
    tricks = [
        trick(0, ["TC", "2C"], "H", 0),
        trick(0, ["3D", "TD"], "H", 1),
        trick(1, ["4S", "5S"], "H", 0),
        trick(0, ["6S", "5H"], "H", 1),
        trick(1, ["8D", "9D"], "H", 0),
    ]
    state = _last_trick(tricks, [["2S"], ["4C"]], leader=0)
    # the same cards, but 8S and 9S led and followed in the last trick, 8D and 9D left in the stock
    stock = [card if card not in ("8S", "9S") else {"8S": "8D", "9S": "9D"}[card] for card in state.stock]
    revoked = updated(state, tricks=[*tricks[:4], trick(1, ["8S", "9S"], "H", 0)], stock=stock)
    issues = SU.consistency_issues(revoked)
    assert [issue.path for issue in issues] == [("tricks", 4, "cards", 0)]


@pytest.mark.parametrize("game_id", ["seven-up", "four-handed-seven-up", "california-jack"])
def test_a_seat_that_did_not_follow_the_led_suit_holds_none_of_it(game_id: str) -> None:
    # a seat must follow the led suit if able (RULINGS §3), and in a deal of Seven-Up or Four-handed
    # Seven-Up its hand only loses cards once play begins (in California Jack, once the stock is spent):
    # a hand holding a suit its seat did not follow since is a revoke, an inconsistent state
    game = GAMES[game_id]
    found = 0
    for seed in range(40):
        rng = random.Random(seed)
        players = game.table_sizes()[0]
        state = game.new(players, game.models.options(), seeding(seed), None, None)
        for _ in range(200):
            seats, moves = game.moves(state)
            if not seats:
                break
            voids = game.voids_shown(state) if state.phase == "play" else []  # type: ignore[attr-defined]
            for seat, void in enumerate(voids):
                holders = [o for o in range(players) if o != seat and {c[1] for c in state.hands[o]} & void]
                other = holders[0] if holders else None
                if other is None or not state.hands[seat]:
                    continue
                card = next(c for c in state.hands[other] if c[1] in void)
                given = state.hands[seat][0]
                hands = [list(hand) for hand in state.hands]
                hands[seat] = [card, *hands[seat][1:]]
                hands[other] = [given if c == card else c for c in hands[other]]
                swapped = updated(state, hands=hands)
                assert ("hands", seat) in [issue.path for issue in game.consistency_issues(swapped)]
                found += 1
            state, _ = game.apply(state, rng.choice(moves))
    assert found > 10
