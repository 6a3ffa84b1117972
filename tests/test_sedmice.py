"""Rules of Sedmice (RULINGS §5, text 004), one test per ruling and per scenario of the issue.

States are built by hand with :func:`make_state`; expectations are derived from the rules, not from the
engine's output. Four-player tables are seated 0, 1, 2, 3 clockwise with sides 0+2 against 1+3.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest
from pydantic import ValidationError

from sevens_rules.engine.cards import PIQUET_DECK
from sevens_rules.engine.errors import IllegalMoveError, InvalidRequestError, NotYourTurnError
from sevens_rules.engine.models import updated
from sevens_rules.engine.sedmice import Sedmice
from sevens_rules.schema.common import Phase
from sevens_rules.schema.sedmice import (
    SedmiceDeal,
    SedmiceEvent,
    SedmiceHitReason,
    SedmiceMove,
    SedmiceMoveType,
    SedmiceOptions,
    SedmiceState,
)
from tests.seeds import seeding

GAME = Sedmice()
POINT_CARDS = [c for c in PIQUET_DECK if c[0] in "AT"]


def order(cards: Sequence[str]) -> list[str]:
    """Cards in canonical deck order (the order hands are kept in)."""
    return sorted(cards, key=PIQUET_DECK.index)


def make_state(
    hands: Sequence[Sequence[str]],
    *,
    leader: int,
    stock: Sequence[str] | None = None,
    trick: Sequence[Sequence[str]] = (),
    taken: Sequence[Sequence[str]] | None = None,
    tricks: Sequence[int] | None = None,
    dealer: int = 0,
    deals: Sequence[SedmiceDeal] = (),
    deal_number: int | None = None,
    phase: str = "play",
    options: SedmiceOptions | None = None,
    seed: int = 0,
    check: bool = True,
) -> SedmiceState:
    """A state from its parts. ``stock=None`` puts every card not placed elsewhere in the stock (canonical
    order); ``taken=None`` with an explicit stock puts them in side 1's pile."""
    placed = {c for h in hands for c in h} | {c for r in trick for c in r}
    if stock is not None:
        placed |= set(stock)
    if taken is not None:
        placed |= {c for pile in taken for c in pile}
    rest = [c for c in PIQUET_DECK if c not in placed]
    if stock is None:
        stock, rest = rest, []
    if taken is None:
        taken = [[], rest]
    else:
        assert not rest, f"cards not placed: {rest}"
    if tricks is None:
        tricks = [1 if pile else 0 for pile in taken]
    state = SedmiceState(
        game="sedmice",
        options=options or SedmiceOptions(),
        dealer=dealer,
        deal_number=deal_number or len(deals) + (1 if phase == "play" else 0),
        **seeding(seed).state_fields(),
        phase=Phase(phase),
        leader=leader,
        hands=[list(h) for h in hands],
        stock=list(stock),
        trick=[list(r) for r in trick],
        taken=[list(p) for p in taken],
        tricks=list(tricks),
        deals=list(deals),
    )
    if check:
        assert GAME.consistency_issues(state) == []
    return state


def mv(player: int, kind: str, card: str | None = None) -> SedmiceMove:
    """A move."""
    return SedmiceMove(player=player, type=SedmiceMoveType(kind), card=card)


def run(state: SedmiceState, *moves: SedmiceMove) -> tuple[SedmiceState, list[SedmiceEvent]]:
    """Apply moves in order (each checked by ``apply``); return the last state and all events."""
    events: list[SedmiceEvent] = []
    for move in moves:
        state, new = GAME.apply(state, move)
        assert GAME.consistency_issues(state) == []
        events += new
    return state, events


def of_type(events: list[SedmiceEvent], kind: str) -> list[SedmiceEvent]:
    """The events of one type."""
    return [e for e in events if e.type.value == kind]


# ---- the example table of the text: four players, dealer 0, seat 1 leads the first trick ------------------

EX_HANDS = [
    ["TS", "JS", "QS", "KS"],
    ["9C", "8D", "9H", "7S"],
    ["8C", "JC", "7D", "AH"],
    ["9D", "JD", "QD", "KD"],
]
EX_STOCK = [c for c in PIQUET_DECK if not any(c in h for h in EX_HANDS)]


def example(options: SedmiceOptions | None = None) -> SedmiceState:
    """The first trick of a four-player deal: 16 cards in hand, 16 in the stock, nothing taken."""
    return make_state(EX_HANDS, leader=1, stock=EX_STOCK, taken=[[], []], options=options)


def example_round(second: str = "AH", third: str = "9D", fourth: str = "KS", **kw: Any) -> SedmiceState:
    """The example's first full round: 9, A, 9, K unless other cards are named."""
    state, _ = run(
        example(**kw), mv(1, "play", "9C"), mv(2, "play", second), mv(3, "play", third), mv(0, "play", fourth)
    )
    return state


# ---- deck, deal, lead ----------------------------------------------------------------------------


def test_thirty_two_cards_four_each_dealt_one_at_a_time_from_the_dealers_left_rest_is_stock() -> None:
    deck = list(PIQUET_DECK)
    state = GAME.new(4, SedmiceOptions(), seeding(0), deck, 2)
    # dealer 2: seat 3 gets the first card, then 0, 1, 2, and round again
    assert state.hands[3] == order(deck[0:16:4])
    assert state.hands[0] == order(deck[1:16:4])
    assert state.hands[1] == order(deck[2:16:4])
    assert state.hands[2] == order(deck[3:16:4])
    assert state.stock == deck[16:]
    two = GAME.new(2, SedmiceOptions(), seeding(5), None, None)
    assert [len(h) for h in two.hands] == [4, 4] and len(two.stock) == 24
    assert set(two.stock) | {c for h in two.hands for c in h} == set(PIQUET_DECK)
    assert len(PIQUET_DECK) == 32 and {c[0] for c in PIQUET_DECK} == set("789TJQKA")


def test_two_players_or_four_in_partnerships_only() -> None:
    with pytest.raises(InvalidRequestError) as error:
        GAME.new(3, SedmiceOptions(), seeding(0), None, None)
    assert error.value.argument == "players"
    assert GAME.player_counts == (2, 4)
    state = GAME.new(4, SedmiceOptions(), seeding(0), None, None)
    three = updated(state, hands=state.hands[:3], stock=[*state.stock, *state.hands[3]])
    assert GAME.consistency_issues(three)


def test_player_left_of_dealer_leads_any_card() -> None:
    state = GAME.new(4, SedmiceOptions(), seeding(9), None, 3)
    assert state.leader == 0
    assert GAME.to_act(state) == [0]
    assert GAME.legal_moves(state, 0) == [mv(0, "play", c) for c in state.hands[0]]


def test_each_other_player_plays_any_card_in_turn() -> None:
    state, _ = run(example(), mv(1, "play", "9C"))
    assert GAME.to_act(state) == [2]
    # no obligation to follow suit or rank: every card of the hand is legal
    assert GAME.legal_moves(state, 2) == [mv(2, "play", c) for c in ["8C", "JC", "7D", "AH"]]
    with pytest.raises(NotYourTurnError):
        GAME.apply(state, mv(3, "play", "9D"))


# ---- answering and taking ------------------------------------------------------------------------


def test_a_card_answers_with_the_led_rank_or_a_seven() -> None:
    _, events = run(
        example(), mv(1, "play", "9C"), mv(2, "play", "7D"), mv(3, "play", "9D"), mv(0, "play", "KS")
    )
    assert [(e.player, e.card, e.answers) for e in of_type(events, "played")] == [
        (1, "9C", True),
        (2, "7D", True),
        (3, "9D", True),
        (0, "KS", False),
    ]


def test_example_trick_nine_ace_nine_king_goes_to_the_third_player() -> None:
    state = example_round()
    assert GAME.view(state, 0).winning == 3
    after, events = run(state, mv(1, "end_trick"))
    [taken] = of_type(events, "trick_taken")
    assert (taken.player, taken.side, taken.rounds, taken.points) == (3, 1, 1, 10)
    assert taken.cards == ["9C", "AH", "9D", "KS"]
    assert after.taken == [[], ["9C", "AH", "9D", "KS"]]
    assert after.tricks == [0, 1]


def test_the_trick_goes_to_the_leader_when_nobody_answered() -> None:
    state = example_round(second="AH", third="JD", fourth="KS")
    _, events = run(state, mv(1, "end_trick"))
    assert of_type(events, "trick_taken")[0].player == 1


def test_the_last_answer_wins_not_the_first() -> None:
    # 9 led, 7 (wild) from seat 2, 9 from seat 3: seat 3 answered last
    state = example_round(second="7D", third="9D", fourth="TS")
    _, events = run(state, mv(1, "end_trick"))
    assert of_type(events, "trick_taken")[0].player == 3


def test_a_led_seven_is_answered_only_by_sevens() -> None:
    hands = [["9C", "7D", "AD", "KS"], ["7C", "8C", "9D", "TH"]]
    state = make_state(hands, leader=1)
    _, events = run(state, mv(1, "play", "7C"), mv(0, "play", "9C"), mv(1, "end_trick"))
    assert of_type(events, "played")[1].answers is False
    assert of_type(events, "trick_taken")[0].player == 1
    _, events = run(state, mv(1, "play", "7C"), mv(0, "play", "7D"), mv(1, "end_trick"))
    assert of_type(events, "trick_taken")[0].player == 0


# ---- extending -----------------------------------------------------------------------------------


def test_after_a_full_round_the_leader_may_extend_with_the_led_rank_or_a_seven_or_end() -> None:
    state = example_round()
    assert GAME.to_act(state) == [1]
    assert GAME.legal_moves(state, 1) == [mv(1, "extend", "9H"), mv(1, "extend", "7S"), mv(1, "end_trick")]


def test_example_extension_nobody_answers_so_the_leader_takes_both_rounds() -> None:
    state, events = run(example_round(), mv(1, "extend", "9H"))
    assert of_type(events, "extended")[0].card == "9H"
    assert state.trick == [["9C", "AH", "9D", "KS"], ["9H"]]
    # every other player must still play one more card, in order
    state, _ = run(state, mv(2, "play", "JC"), mv(3, "play", "JD"), mv(0, "play", "TS"))
    assert state.trick[1] == ["9H", "JC", "JD", "TS"]
    _, events = run(state, mv(1, "end_trick"))
    [taken] = of_type(events, "trick_taken")
    assert (taken.player, taken.rounds, taken.points) == (1, 2, 20)
    assert len(taken.cards or []) == 8


def test_an_extension_answered_by_a_seven_goes_to_that_player() -> None:
    state = example_round(second="AH", third="9D", fourth="KS")
    state, _ = run(
        state, mv(1, "extend", "9H"), mv(2, "play", "7D"), mv(3, "play", "JD"), mv(0, "play", "TS")
    )
    assert GAME.view(state, 1).winning == 2
    # the leader may extend again with the other answering card
    assert GAME.legal_moves(state, 1) == [mv(1, "extend", "7S"), mv(1, "end_trick")]
    _, events = run(state, mv(1, "end_trick"))
    [taken] = of_type(events, "trick_taken")
    assert (taken.player, taken.side, taken.points) == (2, 0, 20)


def test_an_extension_with_a_card_that_does_not_answer_is_refused() -> None:
    state = example_round()
    with pytest.raises(IllegalMoveError):
        GAME.apply(state, mv(1, "extend", "8D"))
    with pytest.raises(IllegalMoveError):
        GAME.apply(state, mv(1, "play", "9H"))  # after a full round the leader extends, not plays
    with pytest.raises(IllegalMoveError):
        GAME.apply(state, mv(1, "extend", "9S"))  # answers, but not in the hand


def test_the_leader_may_extend_while_winning_by_default() -> None:
    state = example_round(second="AH", third="JD", fourth="KS")  # nobody answered: the leader is winning
    assert mv(1, "extend", "9H") in GAME.legal_moves(state, 1)


def test_extend_only_when_losing_allows_extension_only_while_an_opponent_would_take_it() -> None:
    losing = SedmiceOptions(extend_only_when_losing=True)
    # the partner (seat 3) is winning: no extension
    assert GAME.legal_moves(example_round(options=losing), 1) == [mv(1, "end_trick")]
    # the leader is winning: no extension
    assert GAME.legal_moves(example_round(third="JD", options=losing), 1) == [mv(1, "end_trick")]
    # an opponent (seat 2, with a 7) is winning: extension allowed
    state = example_round(second="7D", third="JD", options=losing)
    assert GAME.legal_moves(state, 1) == [mv(1, "extend", "9H"), mv(1, "extend", "7S"), mv(1, "end_trick")]


def test_all_hands_are_equal_before_a_trick_is_taken() -> None:
    state, _ = run(example(), mv(1, "play", "9C"), mv(2, "play", "AH"))
    # mid-round the leader is not to act: the trick cannot end until every player has played
    with pytest.raises(NotYourTurnError):
        GAME.apply(state, mv(1, "end_trick"))
    assert all(m.type is SedmiceMoveType.play for m in GAME.legal_moves(state, 3))
    state, _ = run(state, mv(3, "play", "9D"), mv(0, "play", "KS"))
    assert [len(h) for h in state.hands] == [3, 3, 3, 3]


def test_end_trick_is_offered_even_when_the_leader_cannot_extend() -> None:
    hands = [["9C", "7D", "AD", "KS"], ["8C", "9D", "TH", "JH"]]  # no other 8 and no 7 for seat 1
    state, _ = run(make_state(hands, leader=1), mv(1, "play", "8C"), mv(0, "play", "AD"))
    assert GAME.legal_moves(state, 1) == [mv(1, "end_trick")]


def test_a_trick_ends_by_itself_when_a_round_empties_every_hand() -> None:
    hands = [["7C", "7D", "7H", "7S"], ["8C", "8D", "8H", "8S"]]
    state = make_state(hands, leader=1)
    stock = state.stock
    state, _ = run(state, mv(1, "play", "8C"), mv(0, "play", "7C"))
    assert GAME.legal_moves(state, 1) == [
        mv(1, "extend", "8D"),
        mv(1, "extend", "8H"),
        mv(1, "extend", "8S"),
        mv(1, "end_trick"),
    ]
    state, events = run(
        state,
        mv(1, "extend", "8D"),
        mv(0, "play", "7D"),
        mv(1, "extend", "8H"),
        mv(0, "play", "7H"),
        mv(1, "extend", "8S"),
        mv(0, "play", "7S"),
    )
    [taken] = of_type(events, "trick_taken")
    assert (taken.player, taken.rounds, taken.points) == (0, 4, 0)
    assert state.trick == [] and state.leader == 0
    assert state.hands == [order(stock[0:8:2]), order(stock[1:8:2])]


# ---- refill --------------------------------------------------------------------------------------


def test_the_refill_starts_with_the_taker_one_card_at_a_time() -> None:
    state, _ = run(
        example_round(), mv(1, "extend", "9H"), mv(2, "play", "JC"), mv(3, "play", "JD"), mv(0, "play", "TS")
    )
    state, events = run(state, mv(1, "end_trick"))
    drew = of_type(events, "drew")
    assert [e.player for e in drew] == [1, 2, 3, 0, 1, 2, 3, 0]
    assert [e.card for e in drew] == EX_STOCK[:8]
    assert state.hands[1] == order(["8D", "7S", EX_STOCK[0], EX_STOCK[4]])
    assert state.hands[0] == order(["JS", "QS", EX_STOCK[3], EX_STOCK[7]])
    assert state.stock == EX_STOCK[8:]
    # events come in order: the trick is taken, then the refill
    assert [e.type.value for e in events] == ["trick_taken"] + ["drew"] * 8


def test_the_taker_leads_the_next_trick() -> None:
    state, _ = run(example_round(), mv(1, "end_trick"))
    assert state.leader == 3 and GAME.to_act(state) == [3]
    assert [len(h) for h in state.hands] == [4, 4, 4, 4]
    assert [e for e in GAME.legal_moves(state, 3)] == [mv(3, "play", c) for c in state.hands[3]]


def test_the_refill_stops_when_the_stock_is_exhausted() -> None:
    hands = [["8C", "8D", "7H", "QS"], ["9C", "JD", "KH", "AS"]]
    stock = ["TC", "TD"]
    rest = [c for c in PIQUET_DECK if c not in {*hands[0], *hands[1], *stock}]
    state = make_state(hands, leader=0, stock=stock, taken=[rest[:12], rest[12:]], tricks=[2, 2])
    state, events = run(
        state,
        mv(0, "play", "8C"),
        mv(1, "play", "9C"),
        mv(0, "extend", "8D"),
        mv(1, "play", "JD"),
        mv(0, "end_trick"),
    )
    assert [(e.player, e.card) for e in of_type(events, "drew")] == [(0, "TC"), (1, "TD")]
    assert state.stock == []
    assert state.hands == [["TC", "7H", "QS"], ["TD", "KH", "AS"]]
    # play goes on with three cards each until the hands are empty
    assert GAME.to_act(state) == [0] and len(GAME.legal_moves(state, 0)) == 3


# ---- scoring -------------------------------------------------------------------------------------


def final_trick(
    hands: Sequence[Sequence[str]],
    leader: int,
    side0: Sequence[str],
    side1: Sequence[str] | None = None,
    **kw: Any,
) -> SedmiceState:
    """The last trick of a deal: one card each, empty stock. ``side0`` are cards side 0 has taken; side 1
    has the others unless given; non-point cards are moved over so that each pile holds whole rounds."""
    n = len(hands)
    in_hand = {c for h in hands for c in h}
    pile0 = list(side0)
    if side1 is None:
        pile1 = [c for c in PIQUET_DECK if c not in in_hand and c not in pile0]
        while len(pile0) % n:
            filler = next(c for c in pile1 if c[0] not in "AT")
            pile1.remove(filler)
            pile0.append(filler)
    else:
        pile1 = list(side1)
    tricks = kw.pop("tricks", [len(pile0) // n, len(pile1) // n])
    return make_state(hands, leader=leader, stock=[], taken=[pile0, pile1], tricks=tricks, **kw)


def test_aces_and_tens_score_ten_points_each() -> None:
    state = final_trick([["TS"], ["8S"]], 0, ["AC", "AD", "AH", "TC", "TD"])
    assert GAME.score(state).points == [50, 20]
    state, events = run(state, mv(0, "play", "TS"), mv(1, "play", "8S"))
    assert of_type(events, "trick_taken")[0].points == 10
    assert GAME.score(state).points == [60, 20]
    assert sum(GAME.score(state).points) == 80


def test_play_continues_until_all_hands_are_empty_then_the_deal_is_scored() -> None:
    state = final_trick([["TS"], ["8S"]], 0, ["AC", "AD", "AH", "TC", "TD"])
    state, events = run(state, mv(0, "play", "TS"))
    assert state.phase is Phase.play
    state, events = run(state, mv(1, "play", "8S"))
    assert state.phase is Phase.deal_over
    assert [e.type.value for e in events] == ["played", "trick_taken", "deal_ended"]
    assert state.hands == [[], []] and state.stock == [] and state.trick == []


def test_more_points_gives_one_hit() -> None:
    state = final_trick([["TS"], ["8S"]], 0, ["AC", "AD", "AH", "TC", "TD"])
    state, events = run(state, mv(0, "play", "TS"), mv(1, "play", "8S"))
    [deal] = state.deals
    assert (deal.points, deal.hits, deal.side, deal.reason) == (
        [60, 20],
        [1, 0],
        0,
        SedmiceHitReason.more_points,
    )
    assert of_type(events, "deal_ended")[0].deal == deal
    assert GAME.score(state).hits == [1, 0]


def test_a_forty_forty_tie_goes_to_the_side_that_took_the_last_trick() -> None:
    state = final_trick([["8S"], ["8H"]], 0, ["AC", "AD", "TC", "TD"])
    assert GAME.score(state).points == [40, 40]
    # seat 1 answers the 8 and takes the last trick
    after, _ = run(state, mv(0, "play", "8S"), mv(1, "play", "8H"))
    [deal] = after.deals
    assert (deal.last_trick, deal.hits, deal.reason) == (1, [0, 1], SedmiceHitReason.tie_last_trick)
    state = final_trick([["8S"], ["9H"]], 0, ["AC", "AD", "TC", "TD"])
    after, _ = run(state, mv(0, "play", "8S"), mv(1, "play", "9H"))
    [deal] = after.deals
    assert (deal.last_trick, deal.hits, deal.reason) == (0, [1, 0], SedmiceHitReason.tie_last_trick)


def test_all_eighty_points_give_two_hits() -> None:
    state = final_trick([["8S"], ["9H"]], 0, POINT_CARDS)
    assert state.tricks[1] > 0
    after, _ = run(state, mv(0, "play", "8S"), mv(1, "play", "9H"))
    [deal] = after.deals
    assert (deal.points, deal.hits, deal.reason) == ([80, 0], [2, 0], SedmiceHitReason.all_points)


def test_every_trick_gives_three_hits_the_largest_case_not_the_sum() -> None:
    hands = [["8S"], ["9H"]]
    others = [c for c in PIQUET_DECK if c not in ("8S", "9H")]
    state = final_trick(hands, 0, others, [], tricks=[9, 0])
    after, _ = run(state, mv(0, "play", "8S"), mv(1, "play", "9H"))
    [deal] = after.deals
    assert (deal.points, deal.tricks, deal.hits, deal.reason) == (
        [80, 0],
        [10, 0],
        [3, 0],
        SedmiceHitReason.all_tricks,
    )
    # had side 1 answered with a 7 and taken the last trick, side 0 would have only all the points
    state = final_trick(
        [["8S"], ["7H"]], 0, [c for c in PIQUET_DECK if c not in ("8S", "7H")], [], tricks=[9, 0]
    )
    after, _ = run(state, mv(0, "play", "8S"), mv(1, "play", "7H"))
    assert (after.deals[0].hits, after.deals[0].reason) == ([2, 0], SedmiceHitReason.all_points)


def test_partners_score_together() -> None:
    hands = [["8S"], ["9S"], ["TS"], ["JS"]]
    state = final_trick(hands, 0, ["AC", "AD", "TC"])
    # seat 2 (side 0) plays the ten, nobody answers the 8: seat 0 takes it for side 0
    after, events = run(
        state, mv(0, "play", "8S"), mv(1, "play", "9S"), mv(2, "play", "TS"), mv(3, "play", "JS")
    )
    assert of_type(events, "trick_taken")[0].side == 0
    assert after.deals[0].points == [40, 40]
    assert after.deals[0].hits == [1, 0]


# ---- match ---------------------------------------------------------------------------------------


def test_the_match_ends_when_a_side_reaches_target_hits() -> None:
    one = SedmiceOptions(target_hits=1)
    hands = [["8S"], ["9S"], ["TS"], ["JS"]]
    state = final_trick(hands, 0, ["AC", "AD", "TC"], options=one)
    after, events = run(
        state, mv(0, "play", "8S"), mv(1, "play", "9S"), mv(2, "play", "TS"), mv(3, "play", "JS")
    )
    assert after.phase is Phase.match_over
    assert of_type(events, "match_ended")[0].winners == [0, 2]
    assert GAME.moves(after) == ([], [])
    outcome = GAME.outcome(after)
    assert outcome.over and outcome.winners == [0, 2] and GAME.score(after).hits == [1, 0]
    # each seat carries its side's hits; the winning side shares first place
    assert [(s.total, s.place) for s in outcome.seats] == [(1, 1), (0, 3), (1, 1), (0, 3)]


def test_hits_accumulate_over_deals_to_the_target() -> None:
    history = [
        SedmiceDeal(
            number=1,
            dealer=0,
            points=[20, 60],
            tricks=[2, 4],
            last_trick=1,
            hits=[0, 1],
            side=1,
            reason=SedmiceHitReason.more_points,
        ),
        SedmiceDeal(
            number=2,
            dealer=1,
            points=[0, 80],
            tricks=[0, 6],
            last_trick=1,
            hits=[0, 3],
            side=1,
            reason=SedmiceHitReason.all_tricks,
        ),
    ]
    state = final_trick([["8S"], ["9S"]], 1, ["AC"], deals=history, dealer=0, deal_number=3)
    assert GAME.score(state).hits == [0, 4]
    after, _ = run(state, mv(1, "play", "9S"), mv(0, "play", "8S"))
    assert after.deals[2].hits == [0, 1]
    assert after.phase is Phase.match_over
    assert GAME.outcome(after).winners == [1]


def test_target_hits_is_one_five_or_ten() -> None:
    assert SedmiceOptions().target_hits == 5
    for value in (1, 5, 10):
        assert SedmiceOptions.model_validate_json(json.dumps({"target_hits": value})).target_hits == value
    for value in (0, 2, 3, 4, 6, 9, 11, 15):
        with pytest.raises(ValidationError):
            SedmiceOptions.model_validate_json(json.dumps({"target_hits": value}))
    schema = SedmiceOptions.model_json_schema()["properties"]["target_hits"]
    assert schema["enum"] == [1, 5, 10] and schema["minimum"] == 1 and schema["maximum"] == 10


def test_after_a_deal_the_next_dealer_deals_and_the_player_to_his_left_leads() -> None:
    state = final_trick([["TS"], ["8S"]], 0, ["AC", "AD", "AH", "TC", "TD"], seed=77)
    over, _ = run(state, mv(0, "play", "TS"), mv(1, "play", "8S"))
    assert GAME.moves(over) == ([1], [mv(1, "next_deal")])
    deck = list(reversed(PIQUET_DECK))
    nxt, events = GAME.apply(over, SedmiceMove(player=1, type=SedmiceMoveType.next_deal, deck=deck))
    assert [(e.type.value, e.player) for e in events] == [("deal_started", 1)]
    assert (nxt.dealer, nxt.deal_number, nxt.leader, nxt.phase) == (1, 2, 0, Phase.play)
    assert nxt.hands == [order(deck[0:8:2]), order(deck[1:8:2])]
    assert nxt.stock == deck[8:] and nxt.taken == [[], []] and nxt.tricks == [0, 0]
    assert nxt.deals == over.deals
    seeded, _ = GAME.apply(over, mv(1, "next_deal"))
    cards = seeding(77).shuffled(PIQUET_DECK, "sedmice", 2)  # the second deal
    assert seeded.hands == [order(cards[0:8:2]), order(cards[1:8:2])] and seeded.stock == cards[8:]
    with pytest.raises(InvalidRequestError):
        GAME.apply(over, SedmiceMove(player=1, type=SedmiceMoveType.next_deal, deck=[*deck[:31], deck[0]]))


# ---- views ---------------------------------------------------------------------------------------


def test_a_view_hides_other_hands_and_the_stock_order_but_shows_the_trick() -> None:
    state, _ = run(example(), mv(1, "play", "9C"), mv(2, "play", "AH"))
    view = GAME.view(state, 0)
    assert view.hand == EX_HANDS[0]
    assert view.hand_sizes == [4, 3, 3, 4]
    assert view.trick == [["9C", "AH"]]
    assert (view.turn, view.winning, view.leader, view.stock_size) == (3, 1, 1, 16)
    text = view.model_dump_json()
    for card in PIQUET_DECK:
        if card not in (*EX_HANDS[0], "9C", "AH"):
            assert f'"{card}"' not in text
    assert json.loads(text)["seed"] is None
    # other hands reshuffled among themselves and with the stock, a different stock order and seed
    hidden = [*state.hands[1], *state.hands[2], *state.hands[3], *state.stock]
    random.Random(3).shuffle(hidden)
    other = updated(
        state,
        hands=[state.hands[0], order(hidden[0:3]), order(hidden[3:6]), order(hidden[6:10])],
        stock=hidden[10:],
        **seeding(12345).state_fields(),
    )
    assert GAME.consistency_issues(other) == []
    # only the commitment (public) follows the seed
    assert GAME.view(other, 0) == updated(view, commitment=seeding(12345).commitment)


# ---- consistency of posted states ----------------------------------------------------------------


def test_hand_sizes_must_be_equal_at_the_start_of_each_round() -> None:
    hands = [["9C", "7D", "AD", "KS"], ["7C", "8C", "9D"]]
    state = make_state(hands, leader=1, check=False)
    assert any(i.path == ("hands",) for i in GAME.consistency_issues(state))
    # mid-round, the seats that have played hold one card fewer: consistent
    played = make_state([["9C", "7D", "AD", "KS"], ["8C", "9D", "TH"]], leader=1, trick=[["7C"]])
    assert GAME.to_act(played) == [0]


def test_every_one_of_the_32_cards_exactly_once() -> None:
    state = example()
    missing = updated(state, stock=state.stock[1:])
    assert GAME.consistency_issues(missing)
    twice = updated(state, stock=[*state.stock[1:], "9C"])
    assert GAME.consistency_issues(twice)
    foreign = updated(state, stock=[*state.stock[1:], "2C"])
    assert GAME.consistency_issues(foreign)


def test_sides_lists_hold_two_entries_and_whole_rounds() -> None:
    state, _ = run(example_round(), mv(1, "end_trick"))
    assert GAME.consistency_issues(updated(state, tricks=[0, 1, 0]))
    assert GAME.consistency_issues(updated(state, taken=[state.taken[1], state.taken[0], []]))
    # three cards in a pile cannot be whole rounds of four
    uneven = updated(state, taken=[state.taken[1][:1], state.taken[1][1:]], tricks=[1, 1])
    assert GAME.consistency_issues(uneven)
    assert GAME.consistency_issues(updated(state, tricks=[0, 2]))  # 2 tricks need 8 cards
    assert GAME.consistency_issues(updated(state, tricks=[0, 0]))


def test_a_posted_extension_that_does_not_answer_is_inconsistent() -> None:
    state = example_round()
    bad = updated(state, trick=[*state.trick, ["8D"]], hands=[state.hands[0], ["9H", "7S"], *state.hands[2:]])
    assert any(i.path == ("trick", 1, 0) for i in GAME.consistency_issues(bad))
    losing = example_round(options=SedmiceOptions(extend_only_when_losing=True))
    extended = updated(
        losing, trick=[*losing.trick, ["9H"]], hands=[losing.hands[0], ["8D", "7S"], *losing.hands[2:]]
    )
    assert any(i.path == ("trick", 1, 0) for i in GAME.consistency_issues(extended))


def test_hands_are_full_while_the_stock_lasts() -> None:
    hands = [["9C", "7D", "AD"], ["7C", "8C", "9D"]]
    state = make_state(hands, leader=1, stock=PIQUET_DECK[24:], check=False)
    assert GAME.consistency_issues(state)


def test_a_posted_deal_record_must_match_the_hit_rules() -> None:
    wrong = SedmiceDeal(
        number=1,
        dealer=0,
        points=[40, 40],
        tricks=[3, 3],
        last_trick=1,
        hits=[1, 0],
        side=0,
        reason=SedmiceHitReason.tie_last_trick,
    )
    state = updated(GAME.new(2, SedmiceOptions(), seeding(0), None, 1), deals=[wrong], deal_number=2)
    assert any(i.path == ("deals", 0, "hits") for i in GAME.consistency_issues(state))
    right = updated(wrong, hits=[0, 1], side=1)
    assert GAME.consistency_issues(updated(state, deals=[right])) == []


@pytest.mark.parametrize(("players", "most"), [(2, 16), (4, 8)])
def test_a_deal_record_holds_no_more_tricks_than_the_deck_makes(players: int, most: int) -> None:
    # every trick takes a card from each seat (an extended trick more): 32 cards make 32 / players tricks
    record = SedmiceDeal(
        number=1,
        dealer=0,
        points=[40, 40],
        tricks=[most // 2, most - most // 2],
        last_trick=1,
        hits=[0, 1],
        side=1,
        reason=SedmiceHitReason.tie_last_trick,
    )
    state = updated(GAME.new(players, SedmiceOptions(), seeding(0), None, 1), deals=[record], deal_number=2)
    assert GAME.consistency_issues(state) == []
    too_many = updated(record, tricks=[most // 2, most - most // 2 + 1])
    issues = GAME.consistency_issues(updated(state, deals=[too_many]))
    assert [issue.path for issue in issues] == [("deals", 0, "tricks")]


@pytest.mark.parametrize(("players", "least"), [(2, 4), (4, 2)])
def test_a_deal_record_holds_no_fewer_tricks_than_full_hands_make(players: int, least: int) -> None:
    # a trick takes at most four rounds (a hand holds four cards), so 32 cards are 32 / (4 * players)
    # tricks at least
    record = SedmiceDeal(
        number=1,
        dealer=0,
        points=[0, 80],
        tricks=[0, least],
        last_trick=1,
        hits=[0, 3],
        side=1,
        reason=SedmiceHitReason.all_tricks,
    )
    state = updated(GAME.new(players, SedmiceOptions(), seeding(0), None, 1), deals=[record], deal_number=2)
    assert GAME.consistency_issues(state) == []
    too_few = updated(record, tricks=[0, least - 1])
    issues = GAME.consistency_issues(updated(state, deals=[too_few]))
    assert [issue.path for issue in issues] == [("deals", 0, "tricks")]


@pytest.mark.parametrize("players", [2, 4])
def test_the_taker_leads_next(players: int) -> None:
    # while one side has taken every trick of the deal, the last one too, a seat of that side leads
    rng = random.Random(players)
    state = GAME.new(players, SedmiceOptions(), seeding(players), None, 1)
    while sum(state.tricks) == 0:
        _, legal = GAME.moves(state)
        state, _ = GAME.apply(state, rng.choice(legal))
    taker = 0 if state.tricks[0] else 1
    assert state.leader % 2 == taker and not GAME.consistency_issues(state)
    other = (state.leader + 1) % players
    issues = GAME.consistency_issues(updated(state, leader=other))
    assert ("leader",) in [issue.path for issue in issues]


def test_the_first_trick_is_led_by_the_player_left_of_the_dealer() -> None:
    state = example()
    assert GAME.consistency_issues(updated(state, leader=2))


# ---- random playouts -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize(
    "options", [SedmiceOptions(), SedmiceOptions(extend_only_when_losing=True, target_hits=1)]
)
def test_random_playouts_keep_states_consistent_and_end(players: int, options: SedmiceOptions) -> None:
    for seed in range(6):
        rng = random.Random(seed)
        state = GAME.new(players, options, seeding(seed), None, None)
        for _ in range(20_000):
            assert GAME.consistency_issues(state) == []
            _, moves = GAME.moves(state)
            if not moves:
                break
            for seat in range(players):
                GAME.view(state, seat)
            before = state.model_dump_json()
            state, _ = GAME.apply(state, rng.choice(moves))
            assert SedmiceState.model_validate_json(before).model_dump_json() == before
        else:
            raise AssertionError("the match did not end")
        score = GAME.score(state)
        assert GAME.outcome(state).over and max(score.hits) >= options.target_hits
        assert all(sum(d.points) == 80 for d in score.deals)


# ---- the internal representation (engine/sedmice_position.py) ----------------------------------------


def played_states(players: int, options: SedmiceOptions, seed: int) -> list[SedmiceState]:
    """Every state of one seeded random match, each a fresh copy read from JSON (not the engine's own
    object, so that each is read into a position afresh)."""
    rng = random.Random(seed)
    state = GAME.new(players, options, seeding(seed), None, None)
    states = []
    while True:
        states.append(SedmiceState.model_validate_json(state.model_dump_json()))
        _, moves = GAME.moves(state)
        if not moves:
            return states
        state, _ = GAME.apply(state, rng.choice(moves))


@pytest.mark.parametrize(("players", "losing"), [(2, False), (4, True)])
def test_a_state_read_into_a_position_is_written_back_unchanged(players: int, losing: bool) -> None:
    options = SedmiceOptions(extend_only_when_losing=losing)
    phases = set()
    for state in played_states(players, options, seed=players):
        assert GAME.state_of(GAME.position(state)).model_dump_json() == state.model_dump_json()
        phases.add(state.phase.value)
    assert phases == {"play", "deal_over", "match_over"}


@pytest.mark.parametrize("players", [2, 4])
def test_every_move_code_stands_for_the_wire_move_listed_in_its_place(players: int) -> None:
    for state in played_states(players, SedmiceOptions(extend_only_when_losing=True), seed=7):
        seats, moves = GAME.moves(state)
        position = GAME.position(state)
        codes = GAME.position_moves_to_act(position)
        assert GAME.position_to_act(position) == seats
        assert [GAME.wire_move(seats[0], code) for code in codes] == moves
        assert [GAME.move_code(move) for move in moves] == codes


def test_a_hand_posted_out_of_order_lists_its_plays_in_that_order_and_keeps_it() -> None:
    # the engine keeps hands in canonical order; a client may post them in any order, and the moves follow
    hands = [*EX_HANDS[:1], ["9H", "7S", "9C", "8D"], *EX_HANDS[2:]]
    state = make_state(hands, leader=1, stock=EX_STOCK, taken=[[], []])
    assert [move.card for move in GAME.moves(state)[1]] == ["9H", "7S", "9C", "8D"]
    after, _ = GAME.apply(state, mv(1, "play", "7S"))
    assert after.hands[1] == ["9H", "9C", "8D"]
    assert after.hands[:1] + after.hands[2:] == state.hands[:1] + state.hands[2:]


def test_a_position_never_changes_when_a_move_is_applied_to_it() -> None:
    state = example_round()
    position = GAME.position(state)
    before = GAME.state_of(position).model_dump_json()
    for code in GAME.position_moves_to_act(position):
        GAME.position_apply(position, code)
    assert GAME.state_of(position).model_dump_json() == before
