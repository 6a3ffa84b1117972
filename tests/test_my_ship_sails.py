"""Rules of My Ship Sails (RULINGS §4, text 003), one test per rule, on hand-built states.

Expected values are derived by hand from the rules, never copied from the engine's output. Seats are
numbered clockwise and "left" is the next seat, so seat ``i`` passes to ``i + 1`` and receives from
``i - 1`` (its right-hand neighbour).
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from sevens_rules.engine.cards import FULL_DECK, sort_cards
from sevens_rules.engine.errors import IllegalMoveError, InvalidRequestError, NotYourTurnError, RulesError
from sevens_rules.engine.models import updated
from sevens_rules.engine.my_ship_sails import MyShipSails, one_suit
from sevens_rules.engine.registry import GAMES
from sevens_rules.schema.my_ship_sails import (
    MyShipSailsChoice,
    MyShipSailsChoiceType,
    MyShipSailsDeal,
    MyShipSailsEvent,
    MyShipSailsMove,
    MyShipSailsMoveType,
    MyShipSailsOptions,
    MyShipSailsPhase,
    MyShipSailsState,
)
from tests.seeds import seeding

GAME = MyShipSails()
PASS = MyShipSailsMoveType("pass")
DECLARE = MyShipSailsMoveType.declare
NEXT_DEAL = MyShipSailsMoveType.next_deal
STEP = MyShipSailsPhase.step
DEAL_OVER = MyShipSailsPhase.deal_over
MATCH_OVER = MyShipSailsPhase.match_over

# The text's example (section 05): A holds five hearts, a club and a spade; the right-hand neighbour
# (seat 3 at a table of four, A being seat 0) passes 9H in the first exchange and JH in the second.
EXAMPLE = [
    "AH KH 8H 5H 2H QC 4S",  # A
    "2C 3C 4D 5D 6S 7S 8C",
    "9C TC 2D 3D 9S TS JC",
    "9H JH AC 5C 6C 7C KC",  # A's right-hand neighbour
]

# Two seats one card short of a one-suit hand, each getting its missing card in the same exchange:
# seat 3 passes 8H to seat 0 (six hearts + 2S), seat 0 passes 2S to seat 1 (six spades + 3C).
TWO_COMPLETE = [
    "2H 3H 4H 5H 6H 7H 2S",
    "3S 4S 5S 6S 7S 8S 3C",
    "4C 5C 6C 7C 8C 9D TD",
    "8H 9H AD 2D 3D 4D 5D",
]
TWO_COMPLETE_PASSES = ["2S", "3C", "9D", "8H"]


def cards(text: str) -> list[str]:
    """``"4S TS"`` -> ``["4S", "TS"]``."""
    return text.split()


def build(
    hands: Sequence[str],
    *,
    pending: dict[int, str] | None = None,
    options: MyShipSailsOptions | None = None,
    exchanges: int = 0,
    dealer: int = 0,
    deals: Sequence[MyShipSailsDeal] = (),
    phase: MyShipSailsPhase = STEP,
    deal_number: int | None = None,
    seed: int = 7,
) -> MyShipSailsState:
    """A state from explicit seven-card hands (the rest of the deck is unused).

    ``pending`` maps a seat to its choice: a card to pass, or ``"declare"``.
    """
    seat_hands = [sort_cards(cards(h)) for h in hands]
    used = {c for h in seat_hands for c in h}
    choices: list[MyShipSailsChoice | None] = [None] * len(hands)
    for seat, choice in (pending or {}).items():
        if choice == "declare":
            choices[seat] = MyShipSailsChoice(type=MyShipSailsChoiceType.declare)
        else:
            choices[seat] = MyShipSailsChoice(type=MyShipSailsChoiceType("pass"), card=choice)
    return MyShipSailsState(
        game="my-ship-sails",
        options=options or MyShipSailsOptions(),
        dealer=dealer,
        deal_number=deal_number or len(deals) + 1,
        **seeding(seed).state_fields(),
        phase=phase,
        hands=seat_hands,
        unused=[c for c in FULL_DECK if c not in used],
        pending=choices,
        exchanges=exchanges,
        deals=list(deals),
    )


def checked(state: MyShipSailsState) -> MyShipSailsState:
    """The state, after asserting that it is consistent (every hand-built state must be)."""
    assert GAME.consistency_issues(state) == []
    return state


def move(player: int, choice: str) -> MyShipSailsMove:
    """A pass of ``choice`` (a card) or, for ``"declare"``, a declaration."""
    if choice == "declare":
        return MyShipSailsMove(type=DECLARE, player=player)
    return MyShipSailsMove(type=PASS, player=player, card=choice)


def step(
    state: MyShipSailsState, choices: Sequence[str], order: Sequence[int] | None = None
) -> tuple[MyShipSailsState, list[MyShipSailsEvent]]:
    """Every seat makes its choice (in ``order``); returns the final state and all events."""
    events: list[MyShipSailsEvent] = []
    for seat in order or range(len(choices)):
        state, caused = GAME.apply(state, move(seat, choices[seat]))
        assert GAME.consistency_issues(state) == []
        events += caused
    return state, events


def kinds(events: Sequence[MyShipSailsEvent]) -> list[str]:
    return [e.type.value for e in events]


def deck_dealing(hands: Sequence[str], dealer: int) -> list[str]:
    """A deck that, dealt one at a time from the dealer's left, gives ``hands`` (rest in canonical order)."""
    n = len(hands)
    seat_hands = [cards(h) for h in hands]
    deck = [seat_hands[(dealer + 1 + j) % n][k] for k in range(7) for j in range(n)]
    return deck + [c for c in FULL_DECK if c not in deck]


# ---- the deal -----------------------------------------------------------------------------------


def test_seven_cards_each_dealt_one_at_a_time_from_the_dealers_left() -> None:
    # canonical deck, dealer 2 at a table of four: position p goes to seat (3 + p) % 4
    state = checked(GAME.new(4, MyShipSailsOptions(), seeding(0), list(FULL_DECK), 2))
    assert [len(h) for h in state.hands] == [7, 7, 7, 7]
    assert state.hands[3] == ["AC", "5C", "9C", "KC", "4D", "8D", "QD"]  # positions 0, 4, ..., 24
    assert state.hands[0] == ["2C", "6C", "TC", "AD", "5D", "9D", "KD"]  # positions 1, 5, ..., 25
    assert state.dealer == 2 and state.deal_number == 1 and state.exchanges == 0
    assert state.pending == [None] * 4 and state.phase is STEP


def test_the_rest_of_the_deck_is_unused_for_the_whole_deal() -> None:
    for players in (4, 5, 6, 7):
        state = checked(GAME.new(players, MyShipSailsOptions(), seeding(3), None, None))
        assert len(state.unused) == 52 - 7 * players
    # four players: 28 dealt, 24 unused (as the text counts); the unused cards are positions 28..51
    state = GAME.new(4, MyShipSailsOptions(), seeding(0), list(FULL_DECK), 0)
    assert sorted(state.unused) == sorted(FULL_DECK[28:])
    # an unused card can never be passed, and an exchange leaves the unused cards alone
    with pytest.raises(IllegalMoveError):
        GAME.apply(state, move(0, state.unused[0]))
    after, _ = step(state, [h[0] for h in state.hands])
    assert after.unused == state.unused


def test_seeded_deals_use_the_documented_shuffle() -> None:
    state = GAME.new(5, MyShipSailsOptions(), seeding(12345), None, 1)
    deck = seeding(12345).shuffled(FULL_DECK, "my-ship-sails", 1)
    assert state.hands[2] == sort_cards(deck[0:35:5])  # seat 2 is left of dealer 1
    assert state.unused == sort_cards(deck[35:])


def test_four_to_seven_players() -> None:
    for players in (3, 8):
        with pytest.raises(InvalidRequestError):
            GAME.new(players, MyShipSailsOptions(), seeding(0), None, None)
    with pytest.raises(InvalidRequestError):
        GAME.new(4, MyShipSailsOptions(), seeding(0), None, 4)  # no seat 4 at a table of four


# ---- steps: simultaneous secret choices -----------------------------------------------------------


def test_every_seat_that_has_not_chosen_is_to_act_with_its_choices() -> None:
    state = checked(build(EXAMPLE))
    to_act, moves = GAME.moves(state)
    assert to_act == [0, 1, 2, 3]
    assert GAME.simultaneous is True and GAMES["my-ship-sails"].simultaneous is True
    # one pass per card of each hand, no declaration (no hand is one suit)
    assert len(moves) == 28
    assert {(m.player, m.card) for m in moves} == {(s, c) for s in range(4) for c in cards(EXAMPLE[s])}
    assert all(m.type == PASS for m in moves)


def test_a_choice_is_recorded_and_hidden_until_the_last_seat_has_chosen() -> None:
    state = checked(build(EXAMPLE))
    after, events = GAME.apply(state, move(2, "JC"))
    assert after.pending[2] == MyShipSailsChoice(type=MyShipSailsChoiceType("pass"), card="JC")
    assert after.hands == state.hands  # nothing moves yet
    assert GAME.to_act(after) == [0, 1, 3]
    assert [e.model_dump(exclude_none=True) for e in events] == [{"type": "chosen", "player": 2}]
    assert GAME.moves(after, 2) == ([0, 1, 3], [])
    # seats choose in any order; the step resolves only with the last of them
    after, _ = GAME.apply(after, move(0, "4S"))
    after, _ = GAME.apply(after, move(3, "9H"))
    assert after.exchanges == 0 and GAME.to_act(after) == [1]


def test_when_all_have_chosen_every_chosen_card_moves_one_seat_left_at_once() -> None:
    state = checked(build(EXAMPLE))
    after, events = step(state, ["4S", "8C", "JC", "9H"], order=[3, 1, 0, 2])
    assert after.hands == [
        sort_cards(cards("AH KH 9H 8H 5H 2H QC")),
        sort_cards(cards("2C 3C 4D 5D 6S 7S 4S")),
        sort_cards(cards("9C TC 2D 3D 9S TS 8C")),
        sort_cards(cards("JH AC 5C 6C 7C KC JC")),
    ]
    assert after.pending == [None] * 4 and after.exchanges == 1 and after.phase is STEP
    assert GAME.to_act(after) == [0, 1, 2, 3]
    # after a completed exchange everybody again holds seven cards
    assert all(len(h) == 7 for h in after.hands)
    assert kinds(events) == ["chosen"] * 4 + ["exchanged"] + ["received"] * 4


def test_the_example_of_the_text_five_hearts_become_seven() -> None:
    state = checked(build(EXAMPLE))
    # first exchange: A passes 4S and receives 9H from the right
    state, _ = step(state, ["4S", "8C", "JC", "9H"])
    assert state.hands[0] == sort_cards(cards("AH KH 9H 8H 5H 2H QC"))  # six hearts
    # second exchange: A passes QC and receives JH
    state, _ = step(state, ["QC", "4D", "2D", "JH"])
    assert state.hands[0] == sort_cards(cards("AH KH JH 9H 8H 5H 2H"))
    assert MyShipSailsMove(type=DECLARE, player=0) in GAME.legal_moves(state, 0)
    # A declares and shows the hand; the deal ends with A's win
    state, events = step(state, ["declare", "QC", "TC", "AC"])
    assert state.phase is DEAL_OVER
    assert state.deals == [MyShipSailsDeal(number=1, dealer=0, exchanges=2, winners=[0])]
    declared = [e for e in events if e.type.value == "declared"]
    assert [(e.player, e.cards, e.auto) for e in declared] == [(0, state.hands[0], False)]
    assert GAME.score(state).totals == [1, 0, 0, 0]


def test_a_declaration_ends_the_deal_and_no_passed_card_moves() -> None:
    state = checked(build(TWO_COMPLETE))
    state, _ = step(state, TWO_COMPLETE_PASSES)
    before = state.hands
    after, events = step(state, ["declare", "8S", "3C", "9H"])
    assert after.hands == before
    assert after.phase is DEAL_OVER and after.deals[-1].winners == [0]
    assert "exchanged" not in kinds(events)


def test_two_seats_completing_in_the_same_step_both_score_a_win() -> None:
    state = checked(build(TWO_COMPLETE))
    state, _ = step(state, TWO_COMPLETE_PASSES)
    assert state.hands[0] == sort_cards(cards("2H 3H 4H 5H 6H 7H 8H"))
    assert state.hands[1] == sort_cards(cards("2S 3S 4S 5S 6S 7S 8S"))
    after, events = step(state, ["declare", "declare", "3C", "9H"], order=[1, 2, 3, 0])
    assert after.deals[-1].winners == [0, 1]
    assert GAME.score(after).totals == [1, 1, 0, 0]
    assert [e.player for e in events if e.type.value == "declared"] == [0, 1]


def test_a_one_suit_hand_may_pass_instead_of_declaring() -> None:
    state = checked(build(TWO_COMPLETE))
    state, _ = step(state, TWO_COMPLETE_PASSES)
    # seat 1 holds seven spades but passes; only seat 0 declared, so only seat 0 wins
    after, _ = step(state, ["declare", "8S", "3C", "9H"])
    assert after.deals[-1].winners == [0]
    # nobody declares: seat 0 gets 9D from seat 3 and seat 1 gets 8H from seat 0
    after, _ = step(state, ["8H", "8S", "3C", "9D"])
    assert after.phase is STEP and not one_suit(after.hands[0]) and not one_suit(after.hands[1])


def test_a_dealt_one_suit_hand_may_declare_in_the_first_step() -> None:
    hands = ["AC 2C 3C 4C 5C 6C 7C", "AS 2S 3S 4S 5S 6S 7S", "AD 2D 3D 8C 9C TC JC", "AH 2H 3H 4D 5D 6D QC"]
    state = checked(GAME.new(4, MyShipSailsOptions(), seeding(0), deck_dealing(hands, 3), 3))
    assert state.hands[1] == cards("AS 2S 3S 4S 5S 6S 7S") and state.exchanges == 0
    assert MyShipSailsMove(type=DECLARE, player=1) in GAME.legal_moves(state, 1)
    after, _ = step(state, ["declare", "declare", "8C", "4D"])
    assert after.deals == [MyShipSailsDeal(number=1, dealer=3, exchanges=0, winners=[0, 1])]


def test_a_false_declaration_is_refused_as_an_illegal_move() -> None:
    state = checked(build(EXAMPLE))
    with pytest.raises(IllegalMoveError) as error:
        GAME.apply(state, move(0, "declare"))
    assert error.value.code == "move/illegal"
    assert error.value.legal_moves == GAME.legal_moves(state, 0)
    # six hearts and a club is still not one suit
    state, _ = step(state, ["4S", "8C", "JC", "9H"])
    with pytest.raises(IllegalMoveError):
        GAME.apply(state, move(0, "declare"))


def test_a_pass_names_a_card_of_the_own_hand() -> None:
    state = checked(build(EXAMPLE))
    for bad in (MyShipSailsMove(type=PASS, player=0, card="9H"), MyShipSailsMove(type=PASS, player=0)):
        with pytest.raises(IllegalMoveError):
            GAME.apply(state, bad)
    with pytest.raises(IllegalMoveError):
        GAME.apply(state, MyShipSailsMove(type=PASS, player=0, card="4S", deck=list(FULL_DECK)))
    with pytest.raises(IllegalMoveError):
        GAME.apply(state, MyShipSailsMove(type=NEXT_DEAL, player=0))


def test_a_seat_that_has_chosen_cannot_choose_again_before_the_step_resolves() -> None:
    # decision: a choice is final; the seat leaves to_act and a second choice is refused as not its turn
    state = checked(build(EXAMPLE))
    state, _ = GAME.apply(state, move(3, "9H"))
    for second in ("JH", "9H", "AC"):
        with pytest.raises(NotYourTurnError) as error:
            GAME.apply(state, move(3, second))
        assert error.value.code == "move/not-your-turn"
        assert "already chosen" in error.value.detail
        assert {m.player for m in error.value.legal_moves} == {0, 1, 2}
    assert state.pending[3] == MyShipSailsChoice(type=MyShipSailsChoiceType("pass"), card="9H")
    # the original choice is the one that moves
    state, _ = step(state, ["4S", "8C", "JC"])
    assert "9H" in state.hands[0] and "9H" not in state.hands[3]


# ---- options --------------------------------------------------------------------------------------


def test_auto_declare_declares_a_dealt_one_suit_hand_at_once() -> None:
    hands = ["AS 2S 3S 4S 5S 6S 7S", "AD 2D 3D 8C 9C TC JC", "AC 2C 3C 4C 5C 6C QH", "AH 2H 3H 4D 5D 6D QC"]
    options = MyShipSailsOptions(auto_declare=True)
    state = checked(GAME.new(4, options, seeding(0), deck_dealing(hands, 0), 0))
    assert state.phase is DEAL_OVER and GAME.to_act(state) == [1]
    assert state.deals == [MyShipSailsDeal(number=1, dealer=0, exchanges=0, winners=[0])]
    _, events = GAME.new_match(4, options, seeding(0), deck_dealing(hands, 0), 0)
    assert str(events[0].type) == "deal_started"
    assert "declared" in [str(e.type) for e in events]  # the first deal's declaration is not lost
    # without the option the same deal waits for seat 0 to declare
    manual = checked(GAME.new(4, MyShipSailsOptions(), seeding(0), deck_dealing(hands, 0), 0))
    assert manual.phase is STEP and GAME.to_act(manual) == [0, 1, 2, 3]


def test_auto_declare_declares_after_an_exchange_without_asking_the_others() -> None:
    state = checked(build(TWO_COMPLETE, options=MyShipSailsOptions(auto_declare=True)))
    after, events = step(state, TWO_COMPLETE_PASSES)
    assert after.phase is DEAL_OVER
    assert after.deals == [MyShipSailsDeal(number=1, dealer=0, exchanges=1, winners=[0, 1])]
    declared = [(e.player, e.auto) for e in events if e.type.value == "declared"]
    assert declared == [(0, True), (1, True)]
    assert kinds(events) == ["chosen"] * 4 + ["exchanged"] + ["received"] * 4 + ["declared"] * 2 + [
        "deal_ended"
    ]


def test_auto_declare_leaves_no_one_suit_hand_waiting() -> None:
    # with auto_declare a one-suit hand in a step could only mean the automatic declaration was skipped
    state, _ = step(build(TWO_COMPLETE), TWO_COMPLETE_PASSES)
    waiting = updated(state, options=MyShipSailsOptions(auto_declare=True))
    assert any("auto_declare" in issue.message for issue in GAME.consistency_issues(waiting))


def test_max_exchanges_ends_the_deal_with_no_winner() -> None:
    options = MyShipSailsOptions(max_exchanges=2)
    state = checked(build(EXAMPLE, options=options, exchanges=1))
    after, events = step(state, ["4S", "8C", "JC", "9H"])
    assert after.phase is DEAL_OVER
    assert after.deals == [MyShipSailsDeal(number=1, dealer=0, exchanges=2, winners=[])]
    assert kinds(events)[-1] == "deal_ended" and "declared" not in kinds(events)
    assert GAME.score(after).totals == [0, 0, 0, 0]
    # below the limit the deal goes on
    assert step(build(EXAMPLE, options=options), ["4S", "8C", "JC", "9H"])[0].phase is STEP


def test_a_hand_completed_by_the_last_allowed_exchange_cannot_declare_by_hand() -> None:
    # decision: the deal ends as the max_exchanges-th exchange resolves; no step follows it
    after, _ = step(build(TWO_COMPLETE, options=MyShipSailsOptions(max_exchanges=1)), TWO_COMPLETE_PASSES)
    assert one_suit(after.hands[0]) and one_suit(after.hands[1])
    assert after.deals[-1].winners == []
    # with auto_declare the declaration is part of that exchange, so it still counts
    options = MyShipSailsOptions(max_exchanges=1, auto_declare=True)
    after, _ = step(build(TWO_COMPLETE, options=options), TWO_COMPLETE_PASSES)
    assert after.deals[-1].winners == [0, 1]


def test_max_exchanges_is_null_or_1_to_1000() -> None:
    assert MyShipSailsOptions().max_exchanges is None and MyShipSailsOptions().auto_declare is False
    for bad in (0, 1001, -1):
        with pytest.raises(ValidationError):
            MyShipSailsOptions(max_exchanges=bad)
    assert MyShipSailsOptions.model_validate_json(b'{"max_exchanges": 3.0}').max_exchanges == 3


# ---- the match ------------------------------------------------------------------------------------


def test_five_deals_with_the_dealer_moving_left() -> None:
    state = GAME.new(5, MyShipSailsOptions(max_exchanges=1), seeding(99), None, 3)
    dealers = []
    while GAME.to_act(state):
        if state.phase is STEP:
            state, _ = step(state, [h[0] for h in state.hands])
            continue
        dealers.append(state.dealer)
        next_dealer = (state.dealer + 1) % 5
        assert GAME.to_act(state) == [next_dealer]
        assert GAME.legal_moves(state, next_dealer) == [MyShipSailsMove(type=NEXT_DEAL, player=next_dealer)]
        number = state.deal_number
        state, events = GAME.apply(state, MyShipSailsMove(type=NEXT_DEAL, player=next_dealer))
        assert kinds(events) == ["deal_started"] and events[0].player == state.dealer
        assert state.deal_number == number + 1 and state.exchanges == 0 and state.pending == [None] * 5
        # later deals come from the seeded shuffle of the deal's number
        deck = seeding(99).shuffled(FULL_DECK, "my-ship-sails", number + 1)
        assert state.hands[(state.dealer + 1) % 5] == sort_cards(deck[0:35:5])
    dealers.append(state.dealer)
    assert dealers == [3, 4, 0, 1, 2]
    assert state.phase is MATCH_OVER and [d.number for d in state.deals] == [1, 2, 3, 4, 5]
    assert GAME.moves(state) == ([], [])
    assert GAME.outcome(state).over and GAME.outcome(state).winners == [0, 1, 2, 3, 4]  # no wins: all tie


def test_next_deal_may_name_the_deck_and_only_the_next_dealer_starts_it() -> None:
    state, _ = step(build(EXAMPLE, options=MyShipSailsOptions(max_exchanges=1)), ["4S", "8C", "JC", "9H"])
    assert state.phase is DEAL_OVER
    with pytest.raises(NotYourTurnError):
        GAME.apply(state, MyShipSailsMove(type=NEXT_DEAL, player=0))
    with pytest.raises(InvalidRequestError) as error:
        GAME.apply(state, MyShipSailsMove(type=NEXT_DEAL, player=1, deck=[*FULL_DECK[:-1], "AC"]))
    assert error.value.argument == "move"
    after, _ = GAME.apply(state, MyShipSailsMove(type=NEXT_DEAL, player=1, deck=list(FULL_DECK)))
    assert after.dealer == 1 and after.hands[2][:2] == ["AC", "5C"]  # seat 2 is left of dealer 1


def test_the_most_wins_takes_the_match_and_ties_are_shared() -> None:
    deals = [
        MyShipSailsDeal(number=1, dealer=0, exchanges=4, winners=[0]),
        MyShipSailsDeal(number=2, dealer=1, exchanges=9, winners=[1]),
        MyShipSailsDeal(number=3, dealer=2, exchanges=2, winners=[0, 2]),
        MyShipSailsDeal(number=4, dealer=3, exchanges=0, winners=[3]),
    ]
    state = checked(build(TWO_COMPLETE, dealer=0, deals=deals))
    assert GAME.score(state).totals == [2, 1, 1, 1] and not GAME.outcome(state).over
    state, _ = step(state, TWO_COMPLETE_PASSES)
    # seat 1 completes its spades and declares: 2 wins for seats 0 and 1, who share the match
    after, events = step(state, ["8H", "declare", "3C", "9H"])
    assert after.phase is MATCH_OVER and GAME.to_act(after) == []
    score = GAME.score(after)
    outcome = GAME.outcome(after)
    assert score.totals == [2, 2, 1, 1] and outcome.over and outcome.winners == [0, 1]
    assert kinds(events)[-3:] == ["declared", "deal_ended", "match_ended"]
    assert events[-1].winners == [0, 1]
    # one seat ahead takes the match alone
    after, _ = step(state, ["declare", "8S", "3C", "9H"])
    assert GAME.outcome(after).winners == [0]


# ---- views and events ------------------------------------------------------------------------------


def test_a_view_shows_the_own_hand_and_choice_and_only_whether_others_have_chosen() -> None:
    state = checked(build(EXAMPLE, pending={0: "4S", 3: "9H"}))
    view = GAME.view(state, 0)
    assert view.hand == state.hands[0]
    assert view.choice == MyShipSailsChoice(type=MyShipSailsChoiceType("pass"), card="4S")
    assert view.chosen == [True, False, False, True]
    assert view.hand_sizes == [7, 7, 7, 7] and view.unused_size == 24
    text = view.model_dump_json()
    assert not {c for s in (1, 2, 3) for c in state.hands[s]} & set(text.split('"'))
    assert view.seed is None and view.commitment == state.commitment
    assert GAME.view(state, 1).choice is None


def test_the_incoming_card_is_not_visible_before_the_step_resolves() -> None:
    state = checked(build(EXAMPLE, pending={3: "9H", 1: "8C", 2: "JC"}))
    assert '"9H"' not in GAME.view(state, 0).model_dump_json()
    # another incoming card gives seat 0 the same view
    other = checked(build(EXAMPLE, pending={3: "KC", 1: "8C", 2: "JC"}))
    assert GAME.view(other, 0) == GAME.view(state, 0)
    after, _ = GAME.apply(state, move(0, "4S"))
    assert "9H" in GAME.view(after, 0).hand


def test_events_chosen_without_the_card_then_what_each_seat_received() -> None:
    state = checked(build(EXAMPLE))
    _, events = step(state, ["4S", "8C", "JC", "9H"])
    chosen = [e for e in events if e.type.value == "chosen"]
    assert all(e.card is None and e.cards is None for e in chosen)
    exchanged = [e for e in events if e.type.value == "exchanged"]
    assert [e.exchange for e in exchanged] == [1]
    received = [(e.player, e.card, e.from_player) for e in events if e.type.value == "received"]
    assert received == [(0, "9H", 3), (1, "4S", 0), (2, "8C", 1), (3, "JC", 2)]


def test_events_of_a_declaration_deal_end_and_match_end() -> None:
    state, _ = step(build(TWO_COMPLETE), TWO_COMPLETE_PASSES)
    _, events = step(state, ["declare", "declare", "3C", "9H"])
    assert kinds(events) == ["chosen"] * 4 + ["declared", "declared", "deal_ended"]
    assert events[4].cards == cards("2H 3H 4H 5H 6H 7H 8H")
    assert events[-1].deal == MyShipSailsDeal(number=1, dealer=0, exchanges=1, winners=[0, 1])


def _hidden_variant(state: MyShipSailsState, seat: int, rng: random.Random) -> MyShipSailsState:
    """Deal the other hands and the unused cards anew, and give every other seat that has chosen a new
    choice from its new hand; what ``seat`` may see (its hand, its choice, who has chosen) is kept."""
    n = len(state.hands)
    others = [o for o in range(n) if o != seat]
    pool = [c for o in others for c in state.hands[o]] + list(state.unused)
    rng.shuffle(pool)
    hands = list(state.hands)
    for o in others:
        hands[o], pool = sort_cards(pool[:7]), pool[7:]
    pending = list(state.pending)
    for o in others:
        if pending[o] is not None:
            pending[o] = MyShipSailsChoice(type=MyShipSailsChoiceType("pass"), card=rng.choice(hands[o]))
    return updated(state, hands=hands, unused=sort_cards(pool), pending=pending)


@settings(max_examples=80, deadline=None, derandomize=True)
@given(
    players=st.integers(4, 7),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 400),
    seat=st.integers(0, 6),
    variant_seed=st.integers(0, 2**32),
)
def test_no_leak_states_differing_in_hidden_cards_and_choices_give_identical_views(
    players: int, seed: int, steps: int, seat: int, variant_seed: int
) -> None:
    rng = random.Random(seed)
    state = GAME.new(players, MyShipSailsOptions(max_exchanges=30), seeding(seed), None, None)
    for _ in range(steps):
        _, moves = GAME.moves(state)
        if not moves:
            break
        state, _ = GAME.apply(state, rng.choice(moves))
    seat %= players
    variant = _hidden_variant(state, seat, random.Random(variant_seed))
    if GAME.consistency_issues(variant):
        return  # e.g. with auto_declare a new one-suit hand; such a state cannot be posted
    assert GAME.view(variant, seat) == GAME.view(state, seat)


def test_no_leak_covers_pending_choices_mid_step() -> None:
    # a state mid-step with others' choices pending, varied many times: the view never changes
    state = checked(build(EXAMPLE, pending={1: "8C", 2: "JC", 3: "9H"}))
    rng = random.Random(5)
    for _ in range(200):
        variant = _hidden_variant(state, 0, rng)
        assert GAME.consistency_issues(variant) == []
        assert variant.pending != state.pending or variant.hands != state.hands
        assert GAME.view(variant, 0) == GAME.view(state, 0)


# ---- consistency -----------------------------------------------------------------------------------


def test_consistency_every_hand_holds_seven_and_every_card_is_somewhere_once() -> None:
    state = build(EXAMPLE)
    short = updated(state, hands=[state.hands[0][:6], *state.hands[1:]])
    assert GAME.consistency_issues(short)
    twice = updated(state, unused=[*state.unused, "AH"])
    assert any("twice" in i.message for i in GAME.consistency_issues(twice))
    three = updated(state, hands=state.hands[:3], pending=[None] * 3)
    assert GAME.consistency_issues(three)


def test_consistency_pending_choices_fit_the_hands_and_the_phase() -> None:
    assert GAME.consistency_issues(build(EXAMPLE, pending={0: "9H"}))  # not in seat 0's hand
    assert GAME.consistency_issues(build(EXAMPLE, pending={0: "declare"}))  # not one suit
    everyone = build(EXAMPLE, pending={0: "4S", 1: "8C", 2: "JC", 3: "9H"})
    assert any("resolved" in i.message for i in GAME.consistency_issues(everyone))
    wrong_length = updated(build(EXAMPLE), pending=[None] * 5)
    assert GAME.consistency_issues(wrong_length)
    declare_with_card = updated(
        build(EXAMPLE),
        pending=[MyShipSailsChoice(type=MyShipSailsChoiceType.declare, card="AH"), None, None, None],
    )
    assert GAME.consistency_issues(declare_with_card)
    over, _ = step(build(EXAMPLE, options=MyShipSailsOptions(max_exchanges=1)), ["4S", "8C", "JC", "9H"])
    assert GAME.consistency_issues(over) == []
    choice = MyShipSailsChoice(type=MyShipSailsChoiceType("pass"), card=over.hands[0][0])
    assert GAME.consistency_issues(updated(over, pending=[choice, None, None, None]))


def test_consistency_exchanges_deals_and_winners() -> None:
    limited = MyShipSailsOptions(max_exchanges=3)
    assert GAME.consistency_issues(build(EXAMPLE, options=limited, exchanges=3))
    assert GAME.consistency_issues(build(EXAMPLE, exchanges=2**31 - 1))
    bad_deals = [
        [MyShipSailsDeal(number=2, dealer=0, exchanges=1, winners=[0])],  # wrong number
        [MyShipSailsDeal(number=1, dealer=0, exchanges=1, winners=[5])],  # no such seat
        [MyShipSailsDeal(number=1, dealer=0, exchanges=1, winners=[1, 1])],  # twice
        [MyShipSailsDeal(number=1, dealer=0, exchanges=1, winners=[])],  # no winner without a limit
        [MyShipSailsDeal(number=1, dealer=2, exchanges=1, winners=[0])],  # dealer 2 then dealer 0
    ]
    for deals in bad_deals:
        assert GAME.consistency_issues(build(EXAMPLE, dealer=0, deals=deals)), deals
    # finished deal: the winner's hand must be one suit, the record must match the state
    over = build(
        TWO_COMPLETE, phase=DEAL_OVER, deals=[MyShipSailsDeal(number=1, dealer=0, exchanges=0, winners=[0])]
    )
    assert GAME.consistency_issues(over)
    assert GAME.consistency_issues(build(EXAMPLE, phase=MATCH_OVER, deal_number=1, deals=[]))


def test_mutated_states_are_refused_or_played_without_crashing() -> None:
    # a small fuzzer: any well-typed state either fails the consistency check or every operation works
    rng = random.Random(2024)
    seen = 0
    for round_ in range(300):
        players = rng.choice((4, 5, 6, 7))
        options = MyShipSailsOptions(
            auto_declare=rng.random() < 0.5, max_exchanges=rng.choice((None, 1, 2, 5))
        )
        state = GAME.new(players, options, seeding(round_), None, rng.randrange(players))
        for _ in range(rng.randrange(30)):
            _, moves = GAME.moves(state)
            if not moves:
                break
            state, _ = GAME.apply(state, rng.choice(moves))
        data: dict[str, Any] = state.model_dump(mode="json")
        for _ in range(rng.randrange(1, 4)):
            _mutate(data, rng)
        try:
            mutated = MyShipSailsState.model_validate(data, strict=False)
        except ValidationError:
            continue
        if GAME.consistency_issues(mutated):
            continue
        seen += 1
        _, moves = GAME.moves(mutated)
        for m in moves:
            GAME.apply(mutated, m)
        for seat in range(len(mutated.hands)):
            GAME.view(mutated, seat)
            for probe in (move(seat, "declare"), move(seat, rng.choice(FULL_DECK))):
                with contextlib.suppress(RulesError):
                    GAME.apply(mutated, probe)
        GAME.score(mutated)
    assert seen > 50


def _mutate(data: dict[str, Any], rng: random.Random) -> None:
    n = len(data["hands"])
    kind = rng.randrange(8)
    if kind == 0:
        seat = rng.randrange(n)
        hand = data["hands"][seat]
        data["pending"][seat] = rng.choice(
            [None, {"type": "declare", "card": None}, {"type": "pass", "card": rng.choice(hand)}]
        )
    elif kind == 1:
        data["exchanges"] = rng.choice((0, 1, 2, 5, 1000, 2**31 - 1))
    elif kind == 2:
        data["phase"] = rng.choice(("step", "deal_over", "match_over"))
    elif kind == 3:
        data["deal_number"] = rng.randint(1, 5)
    elif kind == 4:
        data["dealer"] = rng.randrange(8)
    elif kind == 5:
        data["deals"].append(
            {
                "number": len(data["deals"]) + 1,
                "dealer": rng.randrange(8),
                "exchanges": rng.randrange(4),
                "winners": sorted(rng.sample(range(8), rng.randrange(3))),
            }
        )
        data["deals"] = data["deals"][:5]
    elif kind == 6:
        # make some hand one suit by swapping in cards from elsewhere
        seat = rng.randrange(n)
        suit = rng.choice("CDHS")
        wanted = [c for c in FULL_DECK if c[1] == suit][:7]
        for card_ in wanted:
            for where in [*data["hands"], data["unused"]]:
                if card_ in where:
                    where[where.index(card_)] = None
        outgoing = [c for c in data["hands"][seat] if c is not None and c not in wanted]
        data["hands"][seat] = wanted
        for where in [*data["hands"], data["unused"]]:
            for i, c in enumerate(where):
                if c is None:
                    where[i] = outgoing.pop() if outgoing else "AC"
    else:
        data["options"] = {"auto_declare": rng.random() < 0.5, "max_exchanges": rng.choice((None, 1, 3))}


# ---- playouts --------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_seeded_random_playouts_reach_the_end_of_a_five_deal_match(players: int) -> None:
    for options in (
        MyShipSailsOptions(max_exchanges=25),
        MyShipSailsOptions(auto_declare=True, max_exchanges=25),
    ):
        rng = random.Random(players)
        state = GAME.new(players, options, seeding(players), None, None)
        for _ in range(100_000):
            assert GAME.consistency_issues(state) == []
            to_act, moves = GAME.moves(state)
            if not moves:
                break
            assert {m.player for m in moves} == set(to_act)
            chosen = rng.choice(moves)
            before = state.model_dump_json()
            state, _ = GAME.apply(state, chosen)
            assert GAME.consistency_issues(state) == []
            assert MyShipSailsState.model_validate_json(before).model_dump_json() == before
        assert state.phase is MATCH_OVER and len(state.deals) == 5
        assert MyShipSailsState.model_validate_json(state.model_dump_json()) == state


def test_a_greedy_playout_without_an_exchange_limit_finishes_with_declarations() -> None:
    # every seat declares when it can and otherwise mostly passes a card of its rarest suit (sometimes
    # any card, which breaks cycles of everybody passing on the same suit)
    rng = random.Random(11)
    state = GAME.new(4, MyShipSailsOptions(), seeding(11), None, None)
    for _ in range(50_000):
        to_act = GAME.to_act(state)
        if not to_act:
            break
        seat = rng.choice(to_act)
        moves = GAME.legal_moves(state, seat)
        declare = [m for m in moves if m.type == DECLARE]
        if declare:
            choice = declare[0]
        elif state.phase is STEP and rng.random() < 0.8:
            hand = state.hands[seat]
            counts = {s: sum(c[1] == s for c in hand) for s in "CDHS"}
            choice = min(moves, key=lambda m: (counts[m.card[1]], rng.random()))  # type: ignore[index]
        else:  # a random card (always the first listed could cycle for ever on some deals)
            choice = rng.choice(moves)
        state, _ = GAME.apply(state, choice)
    assert state.phase is MATCH_OVER
    assert sum(GAME.score(state).totals) >= 5
