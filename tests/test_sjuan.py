"""Rule tests of the Sjuan family (RULINGS §1), one per ruling, plus the Swedish text's example deal."""

from __future__ import annotations

import random
from typing import Any

import pytest

from sevens_rules.engine.bots.sampler import sample_states
from sevens_rules.engine.cards import FULL_DECK, sort_cards
from sevens_rules.engine.dealing import Seeding
from sevens_rules.engine.errors import IllegalMoveError, NotYourTurnError
from sevens_rules.engine.registry import GAMES
from sevens_rules.schema.sjuan import DominoFanTanOptions, SjuanDeal, SjuanMove
from tests.seeds import seeding
from tests.sjuan_helpers import cards_of, family_state, kinds_of

SJUAN = GAMES["sjuan"]
FAN_TAN = GAMES["fan-tan"]
FREE = GAMES["free-fan-tan"]
DOMINO = GAMES["domino-fan-tan"]


def move(kind: str, player: int, card: str | None = None, deck: list[str] | None = None) -> SjuanMove:
    return SjuanMove.model_validate(
        {"type": kind, "player": player, "card": card, "deck": deck}, strict=False
    )


def moves_of(game: Any, state: Any) -> list[SjuanMove]:
    moves: list[SjuanMove] = game.moves(state)[1]
    return moves


# ---- the deal ------------------------------------------------------------------


def test_whole_deck_is_dealt_and_the_first_seats_from_the_dealers_left_get_one_more() -> None:
    # 52 = 5 * 10 + 2: the two seats left of the dealer (seat 3) are seats 4 and 0.
    state = SJUAN.new(5, SJUAN.models.options(), seeding(9), None, 3)
    assert [len(h) for h in state.hands] == [11, 10, 10, 10, 11]
    assert sum(len(h) for h in state.hands) == 52


def test_deal_goes_one_card_at_a_time_clockwise_from_the_dealers_left() -> None:
    deck = list(FULL_DECK)
    state = SJUAN.new(4, SJUAN.models.options(), seeding(0), deck, 0)
    assert state.hands[1] == sort_cards(deck[0::4])
    assert state.hands[0] == sort_cards(deck[3::4])


def test_each_player_dealt_a_short_hand_pays_one_chip_at_the_deal() -> None:
    state = SJUAN.new(5, SJUAN.models.options(), seeding(9), None, 3)
    assert state.chips == [0, 1, 1, 1, 0]
    assert SJUAN.score(state).pot == 3
    even = SJUAN.new(4, SJUAN.models.options(), seeding(9), None, 0)
    assert even.chips == [0, 0, 0, 0]
    _, events = SJUAN.new_match(5, SJUAN.models.options(), seeding(9), None, 3)
    paid = [(e.type, e.player, e.chips, e.reason) for e in events if e.type == "chip_paid"]
    assert paid == [("chip_paid", seat, 1, "short_hand") for seat in (1, 2, 3)]


# ---- Sjuan play ---------------------------------------------------------------------------------


def test_the_seven_of_hearts_holder_opens_and_it_is_the_only_legal_first_move() -> None:
    state = SJUAN.new(4, SJUAN.models.options(), seeding(5), None, 0)
    holder = next(s for s, h in enumerate(state.hands) if "7H" in h)
    assert SJUAN.to_act(state) == [holder]
    assert cards_of(moves_of(SJUAN, state)) == ["7H"]
    other_seven = next((c for c in state.hands[holder] if c[0] == "7" and c != "7H"), None)
    if other_seven:
        with pytest.raises(IllegalMoveError):
            SJUAN.apply(state, move("play", holder, other_seven))


def test_play_goes_left_after_the_opening() -> None:
    state = family_state("sjuan", [["7H", "2C"], ["8H", "3C"], ["4C"]], turn=0)
    after, _ = SJUAN.apply(state, move("play", 0, "7H"))
    assert SJUAN.to_act(after) == [1]


def test_a_legal_card_is_a_seven_or_the_card_just_outside_a_rows_end() -> None:
    table = ["7H", "8H", "6H", "7S"]
    state = family_state(
        "sjuan", [["5H", "9H", "7C", "6S", "8S", "4H", "TH", "2C"], ["3C"], ["4C"]], table=table
    )
    assert cards_of(moves_of(SJUAN, state)) == ["7C", "5H", "9H", "6S", "8S"]


def test_rows_exist_only_in_suits_whose_seven_is_on_the_table() -> None:
    state = family_state("sjuan", [["6D", "8D", "6H", "2C"], ["3C"], ["4C"]], table=["7H"])
    assert cards_of(moves_of(SJUAN, state)) == ["6H"]


def test_ace_is_low_king_is_high_and_there_is_no_ace_king_link() -> None:
    low_row = ["7H", "6H", "5H", "4H", "3H", "2H"]
    state = family_state("sjuan", [["AH", "KH", "2C"], ["3C"], ["4C"]], table=low_row)
    assert cards_of(moves_of(SJUAN, state)) == ["AH"]  # the King is not next to the Ace
    high_row = ["7H", "7S", "8S", "9S", "TS", "JS", "QS"]
    state = family_state("sjuan", [["KS", "AS", "2C"], ["3C"], ["4C"]], table=high_row)
    assert cards_of(moves_of(SJUAN, state)) == ["KS"]


def test_a_player_with_a_legal_card_must_play_one() -> None:
    state = family_state("sjuan", [["8H", "2C"], ["3C"], ["4C"]], table=["7H"])
    assert kinds_of(moves_of(SJUAN, state)) == ["play"]
    with pytest.raises(IllegalMoveError) as error:
        SJUAN.apply(state, move("pass", 0))
    assert cards_of(error.value.legal_moves) == ["8H"]


def test_a_player_without_a_legal_card_passes_and_pays_one_chip() -> None:
    state = family_state("sjuan", [["2C"], ["3C"], ["4C"]], table=["7H"], chips=[0, 1, 0])
    assert kinds_of(moves_of(SJUAN, state)) == ["pass"]
    after, events = SJUAN.apply(state, move("pass", 0))
    assert after.chips == [1, 1, 0]
    assert after.turn == 1
    assert [(e.type, e.player, e.chips) for e in events] == [("passed", 0, 1)]


def test_a_move_by_a_seat_not_to_act_is_refused() -> None:
    state = family_state("sjuan", [["8H", "2C"], ["3C"], ["4C"]], table=["7H"])
    with pytest.raises(NotYourTurnError):
        SJUAN.apply(state, move("pass", 1))


def test_the_deal_ends_the_moment_a_hand_is_empty_and_that_player_wins_it() -> None:
    state = family_state("sjuan", [["8H"], ["3C", "5C"], ["4C"]], table=["7H"], chips=[0, 1, 0])
    after, events = SJUAN.apply(state, move("play", 0, "8H"))
    assert after.phase == "deal_over"
    assert after.turn is None
    deal = after.deals[-1]
    assert deal.winner == 0 and not deal.blocked
    assert [e.type for e in events] == ["played", "deal_ended"]


def test_penalty_is_cards_left_plus_chips_paid_and_the_chips_are_the_pot() -> None:
    # (seat 0 to act has paid a chip since 7H at most as a short hand: it has not passed since the card)
    state = family_state("sjuan", [["8H"], ["3C", "5C"], ["4C"]], table=["7H"], chips=[1, 1, 0])
    after, _ = SJUAN.apply(state, move("play", 0, "8H"))
    deal = after.deals[-1]
    third_hand = len(state.hands[2])
    assert deal.cards_left == [0, 2, third_hand]
    assert deal.penalties == [1, 3, third_hand]
    assert deal.pot == 2
    assert SJUAN.score(after).pot == 2


def test_the_pot_is_the_finished_deals_chips_as_its_record_lists_them() -> None:
    # between deals the state's chips are the finished deal's, which its record lists: a pot that the
    # record does not show is an inconsistent state
    state = family_state("sjuan", [["8H"], ["3C", "5C"], ["4C"]], table=["7H"], chips=[1, 1, 0])
    after, _ = SJUAN.apply(state, move("play", 0, "8H"))
    assert after.phase == "deal_over" and after.chips == after.deals[-1].chips == [1, 1, 0]
    assert not SJUAN.consistency_issues(after)
    issues = SJUAN.consistency_issues(after.model_copy(update={"chips": [2, 2, 3]}))
    assert [issue.path for issue in issues] == [("chips",)]


def test_chips_count_false_counts_cards_only() -> None:
    state = family_state(
        "sjuan", [["8H"], ["3C", "5C"], ["4C"]], table=["7H"], chips=[1, 1, 0], options={"chips_count": False}
    )
    after, _ = SJUAN.apply(state, move("play", 0, "8H"))
    assert after.deals[-1].penalties == [0, 2, len(state.hands[2])]
    assert after.deals[-1].pot == 2


def _history(penalties: list[int], winner: int) -> list[SjuanDeal]:
    """Finished three-player deals won by ``winner`` whose penalties add up to ``penalties``: each loser's
    total spread evenly over the deals, up to 10 cards left (at least one) and the rest chips, never more
    chips than a deal allows (one per card played, plus one)."""
    count = max(-(-p // 40) for p in penalties)
    deals: list[SjuanDeal] = []
    for index in range(count):
        parts = [p // count + (1 if index < p % count else 0) for p in penalties]
        cards_left = [0 if seat == winner else min(part, 10) for seat, part in enumerate(parts)]
        chips = [part - cards for part, cards in zip(parts, cards_left, strict=True)]
        assert all(cards > 0 for seat, cards in enumerate(cards_left) if seat != winner)
        assert max(chips) <= len(FULL_DECK) - sum(cards_left) + 1
        deals.append(
            SjuanDeal(
                number=index + 1,
                dealer=index % 3,
                winner=winner,
                blocked=False,
                cards_left=cards_left,
                chips=chips,
                penalties=parts,
                pot=sum(chips),
            )
        )
    return deals


def test_the_match_ends_after_a_deal_in_which_a_total_reaches_100_and_the_lowest_total_wins() -> None:
    history = _history([0, 60, 40], 0)
    dealer = len(history) % 3
    state = family_state("sjuan", [["8H"], ["3C", "5C"], ["4C"]], table=["7H"], deals=history, dealer=dealer)
    hand = len(state.hands[2])
    after, events = SJUAN.apply(state, move("play", 0, "8H"))
    assert SJUAN.score(after).totals == [0, 62, 40 + hand]
    assert 40 + hand < 100 and after.phase == "deal_over"  # nobody reached 100: the match goes on
    history = _history([0, 98, 40], 0)
    dealer = len(history) % 3
    state = family_state("sjuan", [["8H"], ["3C", "5C"], ["4C"]], table=["7H"], deals=history, dealer=dealer)
    after, events = SJUAN.apply(state, move("play", 0, "8H"))
    score = SJUAN.score(after)
    assert after.phase == "match_over" and SJUAN.outcome(after).over
    assert score.totals[1] == 100
    assert SJUAN.outcome(after).winners == [0]
    assert events[-1].type == "match_ended" and events[-1].winners == [0]
    assert SJUAN.moves(after) == ([], [])


def test_match_winners_share_a_tied_lowest_total() -> None:
    probe = family_state("sjuan", [["8H"], ["3C", "5C"], ["4C"]], table=["7H"])
    hand = len(probe.hands[2])
    # seat 0 goes out with 0 and seat 2 keeps `hand` cards: a history that makes their totals equal
    history = _history([hand, 99, 0], 2)
    dealer = len(history) % 3
    state = family_state("sjuan", [["8H"], ["3C", "5C"], ["4C"]], table=["7H"], deals=history, dealer=dealer)
    after, _ = SJUAN.apply(state, move("play", 0, "8H"))
    score = SJUAN.score(after)
    assert score.totals[0] == score.totals[2] == hand
    outcome = SJUAN.outcome(after)
    assert outcome.winners == [0, 2] and outcome.lowest_total_wins
    assert [s.place for s in outcome.seats] == [1, 3, 1]


def test_the_next_deal_is_dealt_by_the_seat_left_of_the_last_dealer() -> None:
    state = family_state("sjuan", [["8H"], ["3C", "5C"], ["4C"]], table=["7H"], dealer=2)
    over, _ = SJUAN.apply(state, move("play", 0, "8H"))
    assert SJUAN.to_act(over) == [0]
    deck = list(reversed(FULL_DECK))
    nxt, events = SJUAN.apply(over, move("next_deal", 0, deck=deck))
    assert nxt.dealer == 0 and nxt.deal_number == 2 and nxt.phase == "play"
    assert nxt.hands[1] == sort_cards(deck[0::3])
    assert events[0].type == "deal_started"
    seeded, _ = SJUAN.apply(over, move("next_deal", 0))
    assert sorted(c for h in seeded.hands for c in h) == sorted(FULL_DECK)


def test_swedish_example_anna_bo_cilla() -> None:
    """The example deal of the Swedish text, turn by turn: Anna (0), Bo (1), Cilla (2)."""
    anna = ["7H", "9H", "TH"]
    bo_needs = ["8H", "6H", "5H", "6D", "8D", "7C", "7S", "KC", "KD", "KS", "KH"]
    rest = [c for c in FULL_DECK if c not in anna and c not in bo_needs and c != "7D"]
    cilla = ["7D", *rest[:23]]
    bo = [*bo_needs, *rest[23:]]
    state = family_state("sjuan", [anna, bo, cilla], turn=0, dealer=2)
    assert [len(h) for h in state.hands] == [3, 25, 24]
    script: list[tuple[int, str | None, list[str | None]]] = [
        (0, "7H", ["7H"]),  # 1 Anna: hjärter sju, the only opening
        (1, "8H", ["7C", "6H", "8H", "7S"]),  # 2 Bo: any 7 or next to the hearts row
        (2, "7D", ["7D"]),  # 3 Cilla: ruter sju
        (0, "9H", ["9H"]),  # 4 Anna: hjärter nio
        (1, "6H", ["7C", "6D", "8D", "6H", "7S"]),  # 5 Bo: hjärter sex
        (2, None, [None]),  # 6 Cilla: står över (no legal card)
        (0, "TH", ["TH"]),  # 7 Anna: her last card, hjärter tian
    ]
    for player, card, legal in script:
        to_act, moves = SJUAN.moves(state)
        assert to_act == [player]
        assert cards_of(moves) == legal
        state, _ = SJUAN.apply(state, move("play" if card else "pass", player, card))
    assert state.phase == "deal_over"
    deal = state.deals[-1]
    assert deal.winner == 0
    assert deal.cards_left == [0, 23, 23]
    assert deal.chips == [0, 0, 1]
    assert deal.penalties == [0, 23, 24]  # a point per card left, plus Cilla's chip for her pass
    assert SJUAN.score(state).totals == [0, 23, 24]


# ---- Fan Tan ------------------------------------------------------------------------------------


def test_fan_tan_the_player_left_of_the_dealer_opens_with_any_seven() -> None:
    state = family_state("fan-tan", [["2C"], ["7C", "7S", "3C"], ["4C"]], turn=1, dealer=0)
    assert cards_of(moves_of(FAN_TAN, state)) == ["7C", "7S"]
    new = FAN_TAN.new(4, FAN_TAN.models.options(), seeding(3), None, 2)
    assert FAN_TAN.to_act(new) == [3]


def test_fan_tan_opener_without_a_seven_passes_and_pays() -> None:
    state = family_state("fan-tan", [["2C"], ["3C"], ["4C"]], turn=1, dealer=0)
    assert kinds_of(moves_of(FAN_TAN, state)) == ["pass"]
    after, _ = FAN_TAN.apply(state, move("pass", 1))
    assert after.chips == [0, 1, 0] and after.turn == 2


def fan_tan_opener_passed() -> Any:
    """A seeded four-seat Fan Tan deal whose opener (left of the dealer) held no 7 and passed."""
    for seed in range(100):
        state = FAN_TAN.new(4, FAN_TAN.models.options(), seeding(seed), None, None)
        if kinds_of(moves_of(FAN_TAN, state)) == ["pass"]:
            return FAN_TAN.apply(state, move("pass", state.turn))[0]
    raise AssertionError("no seeded deal's opener lacked a 7")


def test_fan_tan_before_the_first_card_a_seat_that_passed_held_no_seven_and_paid() -> None:
    state = fan_tan_opener_passed()
    passer = (state.turn - 1) % 4
    assert not FAN_TAN.consistency_issues(state) and state.chips[passer] == 1
    # the passer holding a 7 (swapped with a card of the seat to act): it could have opened
    hands = [list(hand) for hand in state.hands]
    seven = next(card for card in hands[state.turn] if card[0] == "7")
    given = hands[passer][0]
    hands[passer][0], hands[state.turn][hands[state.turn].index(seven)] = seven, given
    hands = [sort_cards(hand) for hand in hands]
    assert [i.path for i in FAN_TAN.consistency_issues(state.model_copy(update={"hands": hands}))] == [
        ("turn",)
    ]
    unpaid = [0 if seat == passer else chips for seat, chips in enumerate(state.chips)]
    assert [i.path for i in FAN_TAN.consistency_issues(state.model_copy(update={"chips": unpaid}))] == [
        ("chips", passer)
    ]


def test_sjuan_and_free_fan_tan_before_the_first_card_the_turn_passes_nobody() -> None:
    # the 7H holder can always open in Sjuan, and any card opens free fan tan: nobody passes first
    for game in (SJUAN, FREE):
        state = game.new(4, game.models.options(), seeding(5), None, None)
        assert not game.consistency_issues(state)
        later = state.model_copy(update={"turn": (state.turn + 1) % 4})
        assert [i.path for i in game.consistency_issues(later)] == [("turn",), ("chips", state.turn)]


def test_fan_tan_any_seven_may_be_played_at_a_later_turn() -> None:
    state = family_state("fan-tan", [["7D", "8C", "2C"], ["3C"], ["4C"]], table=["7C"], turn=0)
    assert cards_of(moves_of(FAN_TAN, state)) == ["8C", "7D"]


# ---- free fan tan -------------------------------------------------------------------------------


# ---- the table's order ----------------------------------------------------------------------------

TABLE_ORDERS = [
    # game, a table in an order play could give, the same cards in another such order, then in an order
    # play could not give, the first card out of order there (its index) and the card it needed before it
    (
        "sjuan",
        ["7H", "7C", "8H", "6C", "5C"],
        ["7H", "8H", "7C", "6C", "5C"],
        ["7H", "6C", "7C", "8H", "5C"],
        1,
        "7C",
    ),
    (
        "fan-tan",
        ["7D", "7C", "6C", "8D", "7H"],
        ["7C", "7D", "8D", "6C", "7H"],
        ["7D", "6C", "7C", "8D", "7H"],
        1,
        "7C",
    ),
    (
        "domino-fan-tan",
        ["7H", "8H", "7S", "6S", "9H"],
        ["7H", "7S", "8H", "9H", "6S"],
        ["7H", "8H", "6S", "7S", "9H"],
        2,
        "7S",
    ),
    (
        "free-fan-tan",
        ["9C", "9D", "TC", "TD", "JC"],
        ["9C", "TC", "JC", "9D", "TD"],
        ["9C", "TD", "9D", "TC", "JC"],
        1,
        "9D",
    ),
]


@pytest.mark.parametrize(("game_id", "played", "also_played", "impossible", "index", "needed"), TABLE_ORDERS)
def test_the_table_lists_its_cards_in_the_order_they_were_played(
    game_id: str, played: list[str], also_played: list[str], impossible: list[str], index: int, needed: str
) -> None:
    # a row grows one card at a time from its start (a 7; free fan tan: the start rank), so a card on the
    # table comes after the card next to it toward its row's start: the same cards in an order play could
    # not give are an inconsistent state, another order play could give is not
    game = GAMES[game_id]
    domino = game_id == "domino-fan-tan"
    hands = [["2S"], ["3S"]] if domino else [["2S"], ["3S"], ["4S"]]
    # (Domino fan tan dealt one card each: the rest of the pack fits in the stock the deal left)
    state = family_state(game_id, hands, table=played, turn=0, options={"hand_size": 1} if domino else None)
    assert not game.consistency_issues(state.model_copy(update={"table": also_played}))
    issues = game.consistency_issues(state.model_copy(update={"table": impossible}))
    assert [(issue.path, needed in issue.message) for issue in issues] == [(("table", index), True)]


def test_free_fan_tan_a_wrapped_row_reaches_the_ace_after_the_king() -> None:
    row = ["JC", "QC", "KC", "AC"]
    state = family_state("free-fan-tan", [["2C"], ["3D"], ["4D"]], table=row, turn=0, options={"wrap": True})
    issues = FREE.consistency_issues(state.model_copy(update={"table": ["JC", "QC", "AC", "KC"]}))
    assert [issue.path for issue in issues] == [("table", 2)]


def test_free_fan_tan_first_card_may_be_any_card() -> None:
    state = family_state("free-fan-tan", [["2C", "9D", "KS"], ["3C"], ["4C"]], turn=0, dealer=2)
    assert cards_of(moves_of(FREE, state)) == ["2C", "9D", "KS"]


def test_free_fan_tan_start_rank_opens_every_suit_and_rows_build_upward_only() -> None:
    state = family_state(
        "free-fan-tan", [["8D", "TD", "9D", "9S", "8C", "AC"], ["3C"], ["4C"]], table=["9C"], turn=0
    )
    # rows: clubs 9 up (next T); other suits open with their 9; nothing below 9 is ever playable
    assert cards_of(moves_of(FREE, state)) == ["9D", "9S"]
    state = family_state(
        "free-fan-tan", [["TC", "TD", "8C", "2C"], ["3C"], ["4C"]], table=["9C", "9D"], turn=0
    )
    assert cards_of(moves_of(FREE, state)) == ["TC", "TD"]


def test_free_fan_tan_rows_end_at_the_king_without_wrap() -> None:
    row = ["JC", "QC", "KC"]
    state = family_state("free-fan-tan", [["AC", "JD"], ["3C"], ["4C"]], table=row, turn=0)
    assert cards_of(moves_of(FREE, state)) == ["JD"]


def test_free_fan_tan_wrap_continues_from_king_to_ace_up_to_below_the_start() -> None:
    row = ["JC", "QC", "KC"]
    state = family_state(
        "free-fan-tan", [["AC", "JD"], ["3C"], ["4C"]], table=row, turn=0, options={"wrap": True}
    )
    assert cards_of(moves_of(FREE, state)) == ["AC", "JD"]
    full = ["JC", "QC", "KC", "AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C"]
    state = family_state(
        "free-fan-tan", [["TC", "JD"], ["3D"], ["4D"]], table=full, turn=0, options={"wrap": True}
    )
    assert cards_of(moves_of(FREE, state)) == ["TC", "JD"]


def test_free_fan_tan_deal_is_blocked_when_nobody_holds_a_playable_card() -> None:
    # Start rank Q; after the last playable card nobody holds a card from Q up in any suit.
    table = ["QC", "KC", "QD", "KD", "QH", "KH", "QS"]
    low_cards = [c for c in FULL_DECK if c[0] not in "QK"]
    hands = [["KS", low_cards[0]], low_cards[1:22], low_cards[22:]]
    state = family_state("free-fan-tan", hands, table=table, turn=0, chips=[0, 1, 2], stock=[])
    after, events = FREE.apply(state, move("play", 0, "KS"))
    assert after.phase == "deal_over"
    deal = after.deals[-1]
    assert deal.blocked and deal.winner is None
    assert [len(h) for h in hands] == [2, 21, 22]
    assert deal.penalties == [1 + 0, 21 + 1, 22 + 2]
    assert events[-1].type == "deal_ended"


# ---- Domino fan tan ----------------------------------------------------------------------------


def test_domino_fan_tan_deals_hand_size_each_and_the_rest_is_the_stock() -> None:
    state = DOMINO.new(2, DOMINO.models.options(), seeding(4), None, None)
    assert [len(h) for h in state.hands] == [13, 13] and len(state.stock) == 26
    small = DOMINO.new(2, DominoFanTanOptions(hand_size=5), seeding(4), None, None)
    assert [len(h) for h in small.hands] == [5, 5] and len(small.stock) == 42


def test_domino_fan_tan_the_seven_of_hearts_holder_moves_first() -> None:
    deck = ["2C", "7H", *[c for c in FULL_DECK if c not in ("2C", "7H")]]
    state = DOMINO.new(2, DOMINO.models.options(), seeding(0), deck, 0)
    assert "7H" in state.hands[0]
    assert DOMINO.to_act(state) == [0]
    assert cards_of(moves_of(DOMINO, state)) == ["7H"]


def test_domino_fan_tan_with_the_seven_of_hearts_in_the_stock_left_of_the_dealer_opens() -> None:
    deck = [c for c in FULL_DECK if c != "7H"] + ["7H"]
    state = DOMINO.new(2, DOMINO.models.options(), seeding(0), deck, 1)
    assert "7H" in state.stock
    assert DOMINO.to_act(state) == [0]
    sevens = [c for c in state.hands[0] if c[0] == "7"]
    assert cards_of(moves_of(DOMINO, state)) == (sevens or [None])


def domino_before_the_first_card(
    stock_top: list[str], hand_size: int = 5, until_playable: bool = False
) -> Any:
    """A Domino fan tan deal dealt by seat 1 (seat 0 opens) with 7H in the stock and no 7 in either
    hand: ``stock_top`` is the top of the stock, then the other cards, 7H last."""
    plain = [card for card in FULL_DECK if card[0] != "7" and card not in stock_top]
    deck = [*plain[: 2 * hand_size], *stock_top, *plain[2 * hand_size :]]
    deck += [card for card in ("7C", "7D", "7S", "7H") if card not in deck]
    options = DominoFanTanOptions(hand_size=hand_size, draw_until_playable=until_playable)
    return DOMINO.new(2, options, seeding(0), deck, 1)


def turn_issues(state: Any) -> list[tuple[str | int, ...]]:
    return [issue.path for issue in DOMINO.consistency_issues(state)]


def test_domino_fan_tan_before_the_first_card_only_the_opener_is_to_act() -> None:
    state = domino_before_the_first_card([])
    assert state.turn == 0 and turn_issues(state) == []
    assert turn_issues(state.model_copy(update={"turn": 1})) == [("turn",)]  # nobody drew: seat 0 opens
    deck = ["2C", "7H", *(card for card in FULL_DECK if card not in ("2C", "7H"))]
    dealt = DOMINO.new(2, DOMINO.models.options(), seeding(0), deck, 0)
    holder = next(seat for seat, hand in enumerate(dealt.hands) if "7H" in hand)
    assert dealt.turn == holder
    assert turn_issues(dealt.model_copy(update={"turn": 1 - holder})) == [("turn",)]


def test_domino_fan_tan_before_the_first_card_the_seats_take_turns_drawing() -> None:
    state = domino_before_the_first_card(["2C", "3C", "7C"])
    state, _ = DOMINO.apply(state, move("draw", 0))  # 2C: not a 7, the turn passes
    assert state.turn == 1 and turn_issues(state) == []
    assert turn_issues(state.model_copy(update={"turn": 0})) == [("turn",)]
    state, _ = DOMINO.apply(state, move("draw", 1))  # 3C
    assert state.turn == 0 and turn_issues(state) == []
    state, _ = DOMINO.apply(state, move("draw", 0))  # 7C: seat 0 plays it at once
    assert state.turn == 0 and cards_of(moves_of(DOMINO, state)) == ["7C"] and turn_issues(state) == []
    # seat 1 to act would mean seat 0 passed holding the 7 it drew
    assert turn_issues(state.model_copy(update={"turn": 1})) == [("hands", 0)]
    # a seat that drew and passed held no 7, and drew none
    hands = [list(hand) for hand in state.hands]
    stock = list(state.stock)
    seven = next(card for card in stock if card[0] == "7")
    plain = next(card for card in hands[1] if card[0] != "7")
    hands[1][hands[1].index(plain)], stock[stock.index(seven)] = seven, plain
    hands[1] = sort_cards(hands[1])
    assert turn_issues(state.model_copy(update={"hands": hands, "stock": stock})) == [("hands", 1)]


def test_domino_fan_tan_drawing_until_playable_before_the_first_card_only_the_opener_draws() -> None:
    state = domino_before_the_first_card(["2C", "3C"], until_playable=True)
    state, _ = DOMINO.apply(state, move("draw", 0))
    assert state.turn == 0 and turn_issues(state) == []
    assert turn_issues(state.model_copy(update={"turn": 1})) == [("turn",)]


def test_domino_fan_tan_a_player_with_no_legal_card_draws_and_must_play_a_legal_draw() -> None:
    state = family_state("domino-fan-tan", [["2C"], ["3C"]], table=["7H"], turn=0, stock=["8H", "4C"])
    assert kinds_of(moves_of(DOMINO, state)) == ["draw"]
    after, events = DOMINO.apply(state, move("draw", 0))
    assert after.hands[0] == ["2C", "8H"] and after.stock == ["4C"]
    assert DOMINO.to_act(after) == [0]
    assert cards_of(moves_of(DOMINO, after)) == ["8H"]
    assert after.chips == [0, 0]
    assert [e.type for e in events] == ["drew"]


def test_domino_fan_tan_an_unplayable_draw_passes_the_turn_without_a_chip() -> None:
    state = family_state("domino-fan-tan", [["2C"], ["3C"]], table=["7H"], turn=0, stock=["4C", "8H"])
    after, _ = DOMINO.apply(state, move("draw", 0))
    assert after.turn == 1 and after.chips == [0, 0]


def test_domino_fan_tan_draw_until_playable_keeps_drawing() -> None:
    state = family_state(
        "domino-fan-tan",
        [["2C"], ["3C"]],
        table=["7H"],
        turn=0,
        stock=["4C", "5C", "8H", "6C"],
        options={"draw_until_playable": True},
    )
    state, _ = DOMINO.apply(state, move("draw", 0))
    assert state.turn == 0 and kinds_of(moves_of(DOMINO, state)) == ["draw"]
    state, _ = DOMINO.apply(state, move("draw", 0))
    state, _ = DOMINO.apply(state, move("draw", 0))
    assert state.turn == 0 and cards_of(moves_of(DOMINO, state)) == ["8H"]


def test_domino_fan_tan_with_the_stock_empty_a_player_with_no_legal_card_passes_and_pays() -> None:
    state = family_state("domino-fan-tan", [["2C"], ["3C"]], table=["7H"], turn=0, stock=[])
    assert kinds_of(moves_of(DOMINO, state)) == ["pass"]
    after, _ = DOMINO.apply(state, move("pass", 0))
    assert after.chips == [1, 0]


def test_domino_fan_tan_no_chip_is_paid_while_the_stock_holds_a_card() -> None:
    # drawing costs nothing and every hand is dealt the same size: a chip is a pass's, and a seat passes
    # only with the stock empty, which stays empty for the rest of the deal
    state = family_state("domino-fan-tan", [["2C", "8H"], ["3C"]], table=["7H"], turn=0, stock=["KS"])
    issues = DOMINO.consistency_issues(state.model_copy(update={"chips": [1, 0]}))
    assert [issue.path for issue in issues] == [("chips",)]
    emptied = family_state("domino-fan-tan", [["2C", "8H"], ["3C", "KS"]], table=["7H"], turn=0, stock=[])
    assert not DOMINO.consistency_issues(emptied.model_copy(update={"chips": [1, 0]}))


def test_domino_fan_tan_cards_left_in_the_stock_score_nothing() -> None:
    # dealt one card each (the stock only shrinks: 50 cards at most in it)
    hands = [["8H"], ["3C", "4C"]]
    state = family_state("domino-fan-tan", hands, table=["7H"], turn=0, options={"hand_size": 1})
    after, _ = DOMINO.apply(state, move("play", 0, "8H"))
    assert after.deals[-1].penalties == [0, 2]


def test_domino_fan_tan_a_seat_that_drew_not_to_act_holds_no_7() -> None:
    # RULINGS 1: a player with no legal card draws; a drawn legal card is played at once. Any 7 is legal
    # once the first card is down (and before it a draw looks for a 7), so a seat holding more cards
    # than it was dealt, not to act, holds no 7: samples for the other seat never give it one (the checks
    # accept positions set up by hand with any hand sizes, so they do not refuse one).
    game = GAMES["domino-fan-tan"]
    for number in range(40):
        rng = random.Random(number)
        state = game.new(2, DominoFanTanOptions(), seeding(number), None, None)
        for _ in range(60):
            drew = [seat for seat in (0, 1) if len(state.hands[seat]) > 13 and seat != state.turn]
            stock_sevens = [card for card in state.stock if card[0] == "7"]
            if state.table and drew and stock_sevens:
                break
            state = game.apply(state, rng.choice(game.moves(state)[1]))[0]
        else:
            continue
        break
    else:
        raise AssertionError("no seeded deal gave the position this test needs")
    (seat,) = drew
    for sample in sample_states(game, state, 1 - seat, 40, "drew"):
        assert not any(card[0] == "7" for card in sample.hands[seat])


# ---- what the chips say of the passes (RULINGS §1: a seat with a legal card must play one) ----------


def test_a_seat_that_passed_after_the_first_card_holds_no_card_playable_since() -> None:
    # Sjuan: nobody passes before 7H, so two chips are at least one pass after it (a short hand pays one
    # chip at most); seat 1 holds 3C and 5C, which no table of 7H and what followed ever let it play
    passed = family_state("sjuan", [["8H"], ["3C", "5C"], ["4C"]], table=["7H"], turn=2, chips=[0, 2, 0])
    assert not SJUAN.consistency_issues(passed)
    # the last hand holds the other 7s, playable at every turn since 7H: it cannot have passed
    issues = SJUAN.consistency_issues(passed.model_copy(update={"chips": [0, 0, 2]}))
    assert [issue.path for issue in issues] == [("chips", 2)]


def test_a_fan_tan_pass_before_the_first_card_says_only_that_the_seat_held_no_7() -> None:
    # Fan Tan: the turn may pass a seat before the first card (it holds no 7), so two chips may be a short
    # hand's and that pass; three are a pass after the first card
    fan_tan = family_state("fan-tan", [["8H"], ["3C", "5C", "6H"], ["4C"]], table=["7H"], chips=[0, 2, 0])
    assert not FAN_TAN.consistency_issues(fan_tan)
    issues = FAN_TAN.consistency_issues(fan_tan.model_copy(update={"chips": [0, 3, 0]}))
    assert [issue.path for issue in issues] == [("chips", 1)]  # 6H was playable on 7H alone
    issues = FAN_TAN.consistency_issues(fan_tan.model_copy(update={"chips": [0, 0, 2]}))
    assert [issue.path for issue in issues] == [("chips", 2)]  # the last hand holds 7s


def test_somebody_can_play_so_at_most_all_seats_but_one_pass_between_two_plays() -> None:
    # three seats, 7H alone on the table: at most two passes since, and one short hand's chip for each
    # seat but the largest hand's
    state = family_state("sjuan", [["2C"], ["3C", "5C"], ["4C"]], table=["7H"], turn=2, chips=[2, 2, 0])
    assert not SJUAN.consistency_issues(state)
    issues = SJUAN.consistency_issues(state.model_copy(update={"chips": [2, 2, 1]}))
    assert [issue.path for issue in issues] == [("chips",)]


def test_only_free_fan_tan_without_wrap_has_blocked_deals() -> None:
    history = _history([0, 60, 40], 0)
    blocked = history[0].model_copy(
        update={"winner": None, "blocked": True, "cards_left": [1, *history[0].cards_left[1:]]}
    )
    blocked = blocked.model_copy(
        update={"penalties": [c + p for c, p in zip(blocked.cards_left, blocked.chips, strict=True)]}
    )
    deals = [blocked, *history[1:]]
    hands = [["8H"], ["3C", "5C"], ["4C"]]
    dealer = len(deals) % 3
    free = family_state("free-fan-tan", hands, table=["7H"], deals=deals, dealer=dealer)
    assert not GAMES["free-fan-tan"].consistency_issues(free)
    for game_id, options in (("sjuan", {}), ("fan-tan", {}), ("free-fan-tan", {"wrap": True})):
        state = free.model_copy(update={"game": game_id, "options": GAMES[game_id].models.options(**options)})
        state = GAMES[game_id].models.state.model_validate(state.model_dump())
        issues = GAMES[game_id].consistency_issues(state)
        assert ("deals", 0, "blocked") in [issue.path for issue in issues], game_id


def test_the_seat_dealt_the_largest_hand_pays_no_short_hand_chip() -> None:
    # before the first card a chip is a pass or a short hand's, and the seat holding the largest hand (the
    # helper gives seat 2 the rest of the pack) was dealt it
    state = family_state("sjuan", [["7H", "2C"], ["3C"], ["4C"]], turn=0, chips=[1, 1, 0])
    assert not SJUAN.consistency_issues(state)
    issues = SJUAN.consistency_issues(state.model_copy(update={"chips": [1, 1, 1]}))
    assert [issue.path for issue in issues] == [("chips", 2)]


def test_a_chip_of_the_seat_dealt_the_largest_hand_is_a_pass_once_the_first_card_is_down() -> None:
    # three seats deal 18, 17 and 17: a seat holding 18 cards with one card on the table was dealt the
    # largest hand (another seat was dealt at most its 17 and that card), so its one chip is a pass made
    # with 7H down, and it holds no other 7 (an outside probe: seat 1 passed, 7D put in its hand)
    game = GAMES["sjuan"]
    state = game.new(3, game.models.options(), seeding(20), None, None)
    opener = game.to_act(state)[0]
    state, _ = game.apply(state, game.legal_moves(state, opener)[0])
    passer = game.to_act(state)[0]
    assert len(state.hands[passer]) == 18 and [move.type for move in game.legal_moves(state, passer)] == [
        "pass"
    ]
    state, _ = game.apply(state, game.legal_moves(state, passer)[0])
    assert state.chips[passer] == 1 and not game.consistency_issues(state)
    holder = next(seat for seat, hand in enumerate(state.hands) if "7D" in hand)
    hands = [list(hand) for hand in state.hands]
    swapped = hands[passer][0]
    hands[holder][hands[holder].index("7D")], hands[passer][0] = swapped, "7D"
    issues = game.consistency_issues(state.model_copy(update={"hands": hands}))
    assert [issue.path for issue in issues] == [("chips", passer)]


@pytest.mark.parametrize(("game_id", "most"), [("sjuan", 2), ("free-fan-tan", 2), ("fan-tan", 3)])
def test_a_seat_pays_at_most_a_pass_between_two_plays_and_a_short_hand(game_id: str, most: int) -> None:
    # one card down: a seat has passed at most once since it, once before it where the rules let a seat
    # pass then (Fan Tan), and paid at most one chip for a short hand (an outside probe: three chips on a
    # Sjuan seat one card after 7H were accepted, Fan Tan's bound applied to every game of the family)
    game = GAMES[game_id]
    state = game.new(4, game.models.options(), seeding(4), None, None)
    while not state.table:
        seat = game.to_act(state)[0]
        state, _ = game.apply(state, game.legal_moves(state, seat)[0])
    seat = (game.to_act(state)[0] + 1) % 4
    for chips, refused in ((most, False), (most + 1, True)):
        paid = [0] * 4
        paid[seat] = chips
        issues = game.consistency_issues(state.model_copy(update={"chips": paid}))
        bound = [issue for issue in issues if "one pass between two plays" in issue.message]
        assert [issue.path for issue in bound] == ([("chips", seat)] if refused else []), issues


def test_the_seat_to_act_has_not_passed_since_the_last_card() -> None:
    # free fan tan, three seats: seat 1 opens with 9H, seat 2 passes (its second chip: it was dealt a short
    # hand), seat 0 is to act. Seat 2 to act instead would have passed twice since the one card (an outside
    # probe: the state was accepted, and its pass answered a state the checks refuse)
    game = GAMES["free-fan-tan"]
    seed = "ab73738fcf1822ffbc6887782b491044d5e341245c6e433715ba2bdd177219d3"
    state = game.new(3, game.models.options(), Seeding(seed), None, None)
    state, _ = game.apply(state, move("play", 1, "9H"))
    state, _ = game.apply(state, move("pass", 2))
    assert state.chips == [1, 0, 2] and state.turn == 0 and not game.consistency_issues(state)
    issues = game.consistency_issues(state.model_copy(update={"turn": 2}))
    assert [issue.path for issue in issues] == [("turn",)]


@pytest.mark.parametrize("game_id", ["sjuan", "fan-tan", "free-fan-tan", "domino-fan-tan"])
def test_every_state_the_checks_accept_moves_on_to_a_state_they_accept(game_id: str) -> None:
    # states from seeded play, their seat to act or a seat's chips changed: whatever the checks accept,
    # every legal move from it answers a state they accept too (the service's answers are accepted back)
    game = GAMES[game_id]
    rng = random.Random(7)
    sizes = game.table_sizes()
    for number in range(12):
        state = game.new(sizes[number % len(sizes)], game.models.options(), seeding(number), None, None)
        while state.phase == "play":
            assert not game.consistency_issues(state), (number, state)  # honest play, first of all
            seats = len(state.hands)
            changed = [state.model_copy(update={"turn": seat}) for seat in range(seats)]
            for seat in range(seats):
                for step in (-1, 1):
                    chips = [paid + step * (other == seat) for other, paid in enumerate(state.chips)]
                    if min(chips) >= 0:
                        changed.append(state.model_copy(update={"chips": chips}))
            for edited in changed:
                if game.consistency_issues(edited):
                    continue
                for seat in game.to_act(edited):
                    for legal in game.legal_moves(edited, seat):
                        after, _ = game.apply(edited, legal)
                        assert not game.consistency_issues(after), (number, edited, legal)
            seat = game.to_act(state)[0]
            state, _ = game.apply(state, rng.choice(game.legal_moves(state, seat)))


def test_domino_fan_tan_the_stock_only_shrinks_from_what_the_deal_left() -> None:
    # 13 cards each leave 26 in the stock, and a deal only draws from it (RULINGS §1)
    state = DOMINO.new(2, DOMINO.models.options(), seeding(4), None, 0)
    assert len(state.stock) == 26 and not DOMINO.consistency_issues(state)
    holder = next(seat for seat, hand in enumerate(state.hands) if "7H" in hand)
    after, _ = DOMINO.apply(state, move("play", holder, "7H"))
    other = 1 - holder
    grown = after.model_copy(
        update={
            "hands": [hand if seat != other else hand[1:] for seat, hand in enumerate(after.hands)],
            "stock": [*after.stock, after.hands[other][0]],
        }
    )
    assert [issue.path for issue in DOMINO.consistency_issues(grown)] == [("stock",)]
