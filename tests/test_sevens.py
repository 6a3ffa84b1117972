"""Rules of Sevens (RULINGS §2, text 001), one test per rule, on hand-built states.

Expected values are derived by hand from the rules, never copied from the engine's output.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest
from pydantic import ValidationError

from sevens_rules.engine.cards import FULL_DECK, sort_cards
from sevens_rules.engine.errors import IllegalMoveError, InvalidRequestError, NotYourTurnError
from sevens_rules.engine.models import updated
from sevens_rules.engine.registry import GAMES
from sevens_rules.engine.sevens import Sevens
from sevens_rules.schema.common import Phase, Suit
from sevens_rules.schema.sevens import (
    SevensDeal,
    SevensMove,
    SevensMoveType,
    SevensOptions,
    SevensRow,
    SevensState,
)
from tests.seeds import seeding

GAME = Sevens()
FULL = "A23456789TJQK"
PLAY = SevensMoveType.play
PASS = SevensMoveType("pass")
NEXT_DEAL = SevensMoveType.next_deal


def cards(text: str) -> list[str]:
    """``"4S TS"`` -> ``["4S", "TS"]``."""
    return text.split()


def build(
    hands: dict[int, str],
    runs: dict[str, str] | None = None,
    laid: dict[str, str] | None = None,
    *,
    turn: int | None = 0,
    passes: Sequence[int] = (0, 0, 0, 0),
    out: Sequence[int] = (),
    bust: Sequence[int] = (),
    filler: Sequence[int] = (),
    dealer: int = 0,
    deal_number: int = 1,
    deals: Sequence[SevensDeal] = (),
    phase: Phase = Phase.play,
) -> SevensState:
    """A state from explicit hands and rows; every other card is dealt round-robin to ``filler`` seats.

    ``runs`` maps a suit to the ranks of its run (default ``"7"``), ``laid`` to its laid bust cards.
    """
    runs = runs or {}
    laid = laid or {}
    table = [
        SevensRow(
            suit=Suit(s),
            run=[r + s for r in runs.get(s, "7")],
            laid=[r + s for r in laid.get(s, "")],
        )
        for s in "CDHS"
    ]
    seat_hands = [cards(hands.get(seat, "")) for seat in range(4)]
    used = {c for h in seat_hands for c in h} | {c for row in table for c in [*row.run, *row.laid]}
    rest = [c for c in FULL_DECK if c not in used]
    sizes = None if out or bust else _filler_sizes(seat_hands, table, turn, passes, filler, len(rest))
    if sizes is None:
        for i, c in enumerate(rest):
            seat_hands[filler[i % len(filler)]].append(c)
    else:
        for seat in filler:
            taken = sizes[seat] - len(seat_hands[seat])
            seat_hands[seat] += rest[:taken]
            rest = rest[taken:]
    seat_hands = [sort_cards(h) for h in seat_hands]
    return SevensState(
        game="sevens",
        options=SevensOptions(),
        dealer=dealer,
        deal_number=deal_number,
        **seeding(7).state_fields(),
        phase=phase,
        turn=turn,
        hands=seat_hands,
        table=table,
        passes=list(passes),
        out=list(out),
        bust=list(bust),
        deals=list(deals),
    )


def _filler_sizes(
    hands: list[list[str]],
    table: list[SevensRow],
    turn: int | None,
    passes: Sequence[int],
    filler: Sequence[int],
    rest: int,
) -> dict[int, int] | None:
    """Hand sizes for the ``filler`` seats that share out ``rest`` more cards so that every hand is what
    play leaves it (13 cards less its 7s and a card for each turn it did not pass, turns going round from
    the holder of 7D, who is the seat to act less the turns so far); None when no sizes do."""
    if turn is None or not filler:
        return None
    actions = sum(len(row.run) for row in table) - 4 + sum(passes)
    first = (turn - actions) % 4
    played = [max(0, (actions - (seat - first) % 4 + 3) // 4) - passes[seat] for seat in range(4)]
    total = rest + sum(len(hands[seat]) for seat in filler)
    for sevens in itertools.product(range(5), repeat=len(filler)):
        sizes = {seat: 13 - played[seat] - count for seat, count in zip(filler, sevens, strict=True)}
        held = {seat: sizes[seat] if seat in sizes else len(hands[seat]) for seat in range(4)}
        if (
            sum(sizes.values()) == total
            and all(sizes[seat] >= len(hands[seat]) for seat in filler)
            and 13 - played[first] - held[first] >= 1
        ):
            return sizes
    return None


def checked(state: SevensState) -> SevensState:
    """The state, after asserting that it is consistent (every hand-built state must be)."""
    assert GAME.consistency_issues(state) == []
    return state


def plays(state: SevensState, player: int) -> list[str]:
    return [m.card for m in GAME.legal_moves(state, player) if m.type == PLAY]  # type: ignore[misc]


def can_pass(state: SevensState, player: int) -> bool:
    return any(m.type == PASS for m in GAME.legal_moves(state, player))


def play(state: SevensState, player: int, card: str) -> tuple[SevensState, list]:  # type: ignore[type-arg]
    after, events = GAME.apply(state, SevensMove(type=PLAY, player=player, card=card))
    assert GAME.consistency_issues(after) == []
    return after, events


def pass_(state: SevensState, player: int) -> tuple[SevensState, list]:  # type: ignore[type-arg]
    after, events = GAME.apply(state, SevensMove(type=PASS, player=player))
    assert GAME.consistency_issues(after) == []
    return after, events


def row(state: SevensState, suit: str) -> SevensRow:
    return state.table["CDHS".index(suit)]


# ---- the deal ---------------------------------------------------------------------------------------


def test_all_sevens_go_to_the_table_and_the_seven_of_diamonds_holder_moves_first() -> None:
    # the canonical deck dealt one at a time from seat 1 (dealer 0): position p goes to seat (1 + p) % 4.
    # 7C is position 6 -> seat 3, 7D is 19 -> seat 0, 7H is 32 -> seat 1, 7S is 45 -> seat 2.
    state = checked(GAME.new(4, SevensOptions(), seeding(0), list(FULL_DECK), 0))
    assert state.turn == 0
    assert [r.run for r in state.table] == [["7C"], ["7D"], ["7H"], ["7S"]]
    assert all(r.laid == [] for r in state.table)
    assert [len(h) for h in state.hands] == [12, 12, 12, 12]
    assert state.hands[1][:3] == ["AC", "5C", "9C"]  # positions 0, 4, 8
    assert not any(c[0] == "7" for h in state.hands for c in h)
    assert state.passes == [0, 0, 0, 0] and state.out == [] and state.bust == []
    # with dealer 1 the deal starts at seat 2, so 7D (position 19) goes to seat (2 + 19) % 4 = 1
    assert GAME.new(4, SevensOptions(), seeding(0), list(FULL_DECK), 1).turn == 1


def test_sevens_is_for_exactly_four_players() -> None:
    with pytest.raises(InvalidRequestError):
        GAME.new(3, SevensOptions(), seeding(0), None, None)
    assert GAMES["sevens"].min_players == GAMES["sevens"].max_players == 4


def test_seeded_deal_uses_the_documented_shuffle() -> None:
    assert GAME.new(4, SevensOptions(), seeding(42), None, None) == GAME.new(
        4, SevensOptions(), seeding(42), seeding(42).shuffled(FULL_DECK, "sevens", 1), None
    )


# ---- legal cards ------------------------------------------------------------------------------------


def test_row_ends_of_a_run_five_to_nine_of_spades_are_exactly_four_and_ten() -> None:
    # the text's example: with 5♠ to 9♠ on the table only 4♠ and 10♠ may be played in spades
    state = checked(
        build(
            {0: "AS 2S 3S 4S TS JS QS KS AH"},
            runs={"S": "56789", "C": FULL, "D": "78"},
            filler=(1, 2, 3),
        )
    )
    assert plays(state, 0) == ["4S", "TS"]


def test_ace_lies_below_the_two() -> None:
    state = checked(
        build({0: "AH KD"}, runs={"H": "234567", "C": FULL, "D": "789TJQ", "S": FULL}, filler=(1, 2, 3))
    )
    assert plays(state, 0) == ["KD", "AH"]


def test_no_ace_king_link() -> None:
    # clubs run 7..K: the Ace does not follow the King; hearts run A..7: the King does not precede the Ace
    state = checked(
        build(
            {0: "AC KH 2D"},
            runs={"C": "789TJQK", "H": "A234567", "D": "789TJQK", "S": FULL},
            filler=(1, 2, 3),
        )
    )
    assert plays(state, 0) == []
    assert GAME.legal_moves(state, 0) == [SevensMove(type=PASS, player=0)]


def test_only_run_ends_are_playable_not_cards_of_a_full_suit() -> None:
    state = checked(build({0: "6C 8C"}, runs={"D": FULL, "H": FULL, "S": FULL}, filler=(1, 2, 3)))
    assert plays(state, 0) == ["6C", "8C"]
    after, events = play(state, 0, "8C")
    assert row(after, "C").run == ["7C", "8C"]
    assert plays(updated(after, turn=0), 0) == ["6C"]
    assert events[0].type == "played" and events[0].card == "8C" and events[0].joined is None


# ---- passes -----------------------------------------------------------------------------------------


def test_pass_with_a_legal_card_is_allowed_while_passes_remain() -> None:
    runs = {"C": "456789TJQK", "D": FULL, "S": FULL, "H": "67"}
    state = checked(build({0: "8H 2C"}, runs=runs, passes=(2, 0, 0, 0), filler=(1, 2, 3)))
    assert plays(state, 0) == ["8H"]
    assert can_pass(state, 0)
    after, events = pass_(state, 0)
    assert after.passes == [3, 0, 0, 0]
    assert after.turn == 1
    assert after.hands[0] == ["2C", "8H"]
    assert [(e.type, e.player, e.passes) for e in events] == [("passed", 0, 3)]


def test_pass_with_a_legal_card_is_refused_after_three_passes() -> None:
    runs = {"C": "456789TJQK", "D": FULL, "S": FULL, "H": "34567"}
    state = checked(build({0: "8H 2C"}, runs=runs, passes=(3, 0, 0, 0), filler=(1, 2, 3)))
    assert GAME.legal_moves(state, 0) == [SevensMove(type=PLAY, player=0, card="8H")]
    with pytest.raises(IllegalMoveError):
        GAME.apply(state, SevensMove(type=PASS, player=0))


def test_forced_pass_counts_like_a_voluntary_one() -> None:
    state = checked(
        build({0: "2C"}, runs={"D": FULL, "H": FULL[1:], "S": FULL}, passes=(1, 0, 0, 0), filler=(1, 2, 3))
    )
    assert GAME.legal_moves(state, 0) == [SevensMove(type=PASS, player=0)]
    after, events = pass_(state, 0)
    assert after.passes == [2, 0, 0, 0]
    assert events[0].passes == 2


def test_turn_goes_left_skipping_players_who_are_out_or_bust() -> None:
    state = checked(
        build(
            {0: "2C 3C", 1: "", 2: ""},
            runs={"D": FULL, "H": FULL, "S": FULL},
            passes=(0, 0, 3, 0),
            out=(1,),
            bust=(2,),
            filler=(3,),
            turn=0,
        )
    )
    after, _ = pass_(state, 0)
    assert after.turn == 3
    with pytest.raises(NotYourTurnError):
        GAME.apply(state, SevensMove(type=PASS, player=1))


# ---- busting ----------------------------------------------------------------------------------------


def test_fourth_pass_when_forced_is_a_bust_and_lays_the_cards_in_place() -> None:
    # spades run 5..9: the bust player's J♠ and A♠ lie apart, 3♠ too; 2H lies apart from hearts 6..8
    state = checked(
        build(
            {0: "AS 3S JS 2H"},
            runs={"S": "56789", "C": FULL[2:], "D": FULL, "H": "678"},
            passes=(3, 1, 0, 0),
            filler=(1, 2, 3),
        )
    )
    assert GAME.legal_moves(state, 0) == [SevensMove(type=PASS, player=0)]
    after, events = pass_(state, 0)
    assert [(e.type, e.player) for e in events] == [("passed", 0), ("bust", 0)]
    assert events[0].passes == 4
    assert events[1].cards == ["2H", "AS", "3S", "JS"]
    assert after.hands[0] == []
    assert after.bust == [0]
    assert after.passes == [3, 1, 0, 0]
    assert after.turn == 1
    assert row(after, "S").run == ["5S", "6S", "7S", "8S", "9S"]
    assert row(after, "S").laid == ["AS", "3S", "JS"]
    assert row(after, "H").laid == ["2H"]


def test_bust_cards_do_not_create_row_ends() -> None:
    # run 5♠..9♠ and a laid J♠: 10♠ is playable (beside the run's 9), Q♠ is not (beside the laid J only);
    # a laid 3♠ does not make 2♠ playable either
    state = checked(
        build(
            {0: "", 1: "2S 4S TS QS"},
            runs={"S": "56789", "C": FULL, "D": FULL},
            laid={"S": "3J"},
            passes=(3, 0, 0, 0),
            bust=(0,),
            turn=1,
            filler=(2, 3),
        )
    )
    assert plays(state, 1) == ["4S", "TS"]


def test_bust_cards_join_the_run_when_the_gap_is_filled() -> None:
    state = checked(
        build(
            {0: "", 1: "2S 4S TS QS KS"},
            runs={"S": "56789", "C": FULL, "D": FULL},
            laid={"S": "3J"},
            passes=(3, 0, 0, 0),
            bust=(0,),
            turn=1,
            filler=(2, 3),
        )
    )
    after, events = play(state, 1, "TS")
    assert row(after, "S").run == ["5S", "6S", "7S", "8S", "9S", "TS", "JS"]
    assert row(after, "S").laid == ["3S"]
    assert events[0].joined == ["JS"]
    # the run now ends at J♠, so Q♠ is playable; below, 4♠ fills the gap to the laid 3♠, then 2♠ follows
    after = updated(after, turn=1)
    assert plays(after, 1) == ["4S", "QS"]
    after, events = play(after, 1, "4S")
    assert row(after, "S").run[0] == "3S" and row(after, "S").laid == []
    assert events[0].joined == ["3S"]
    assert plays(updated(after, turn=1), 1) == ["2S", "QS"]


def test_filling_the_gap_joins_every_laid_card_chained_to_it() -> None:
    # laid J♠ and Q♠ above the run 5..9: playing 10♠ joins both, so the run's upper end is K♠
    state = checked(
        build(
            {0: "", 1: "4S TS KS"},
            runs={"S": "56789", "C": FULL, "D": FULL},
            laid={"S": "JQ"},
            passes=(3, 0, 0, 0),
            bust=(0,),
            turn=1,
            filler=(2, 3),
        )
    )
    assert plays(state, 1) == ["4S", "TS"]
    after, events = play(state, 1, "TS")
    assert row(after, "S").run == ["5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS"]
    assert row(after, "S").laid == []
    assert events[0].joined == ["JS", "QS"]
    assert plays(updated(after, turn=1), 1) == ["4S", "KS"]


def test_a_player_holding_a_card_at_a_run_end_cannot_bust_so_laid_cards_never_touch_the_run() -> None:
    # with 3 passes used and 10♠ playable the only move is to play it: busting (and laying 10♠ next to the
    # run) is impossible; a state showing a laid card next to the run is refused as inconsistent
    state = checked(
        build(
            {0: "TS KS"},
            runs={"S": "56789", "C": FULL, "D": FULL, "H": "3456789TJQ"},
            passes=(3, 0, 0, 0),
            filler=(1, 2, 3),
        )
    )
    assert GAME.legal_moves(state, 0) == [SevensMove(type=PLAY, player=0, card="TS")]
    touching = build(
        {0: "", 1: "KS"},
        runs={"S": "56789", "C": FULL, "D": FULL},
        laid={"S": "T"},
        passes=(3, 0, 0, 0),
        bust=(0,),
        turn=1,
        filler=(1, 2, 3),
    )
    assert any(i.path == ("table", 3, "laid") for i in GAME.consistency_issues(touching))


# ---- places and the end of a deal -------------------------------------------------------------------


def test_a_player_who_goes_out_takes_the_next_place() -> None:
    state = checked(build({0: "8H"}, runs={"C": FULL, "D": FULL, "S": "3456789TJ"}, filler=(1, 2, 3)))
    after, events = play(state, 0, "8H")
    assert after.out == [0]
    assert after.phase is Phase.play
    assert after.turn == 1
    assert [(e.type, e.player, e.place) for e in events][1:] == [("went_out", 0, 1)]


def test_deal_ends_at_once_when_one_player_is_left_and_bust_players_place_last() -> None:
    # seat 2 went out first, seat 1 is bust; seat 0 goes out second, so only seat 3 is left: it is third
    state = checked(
        build(
            {0: "8H", 1: "", 2: "", 3: "9H TH 6H 5H"},
            runs={"C": FULL, "D": FULL, "S": FULL, "H": "7"},
            laid={"H": "AJQK"},
            passes=(0, 3, 1, 2),
            out=(2,),
            bust=(1,),
            filler=(3,),
        )
    )
    after, events = play(state, 0, "8H")
    assert after.phase is Phase.deal_over
    assert after.turn is None
    assert GAME.to_act(after) == [1]  # the next dealer starts the next deal
    assert after.deals[-1].places == [2, 4, 1, 3]
    assert after.deals[-1].points == [2, 0, 3, 1]
    assert [e.type for e in events] == ["played", "went_out", "deal_ended"]
    assert events[1].place == 2
    assert events[2].deal == after.deals[-1]


def test_bust_players_place_after_everyone_the_first_bust_last() -> None:
    # seat 1 busts first, seat 2 second; seat 0 goes out; seat 3 is left: places 1, 4, 3, 2
    state = checked(
        build(
            {0: "8H", 1: "", 2: "", 3: "9H 6H 5H 4H 3H"},
            runs={"C": FULL, "D": FULL, "S": FULL},
            laid={"H": "2JQK"},
            passes=(2, 3, 3, 0),
            bust=(1, 2),
            filler=(3,),
        )
    )
    after, _ = play(state, 0, "8H")
    assert after.deals[-1].places == [1, 4, 3, 2]
    assert after.deals[-1].points == [3, 0, 1, 2]


def test_when_three_players_bust_the_survivor_is_first() -> None:
    # seats 1 and 2 are bust; seat 3 has used 3 passes and holds no legal card: its fourth pass busts it
    # and leaves seat 0 alone, who takes place 1 although still holding cards
    state = checked(
        build(
            {0: "AS 2S 3S 4S TS", 1: "", 2: "", 3: "JS QS KS"},
            runs={"C": FULL, "D": FULL, "H": FULL, "S": "56789"},
            passes=(0, 3, 3, 3),
            bust=(1, 2),
            turn=3,
        )
    )
    after, events = pass_(state, 3)
    assert [e.type for e in events] == ["passed", "bust", "deal_ended"]
    assert after.bust == [1, 2, 3]
    assert row(after, "S").laid == ["JS", "QS", "KS"]
    assert after.hands[0] == ["AS", "2S", "3S", "4S", "TS"]
    assert after.deals[-1].places == [1, 4, 3, 2]
    assert after.deals[-1].points == [3, 0, 1, 2]
    assert after.phase is Phase.deal_over


# ---- the match --------------------------------------------------------------------------------------


def _history() -> list[SevensDeal]:
    # dealers 0, 1, 2, 3 for deals 1..4, so deal 5 is dealt by seat 0 again
    places = [[1, 2, 3, 4], [2, 1, 4, 3], [4, 3, 2, 1], [2, 4, 1, 3]]
    points = [[3, 2, 1, 0], [2, 3, 0, 1], [0, 1, 2, 3], [2, 0, 3, 1]]
    return [
        SevensDeal(number=i + 1, dealer=i, places=p, points=q)
        for i, (p, q) in enumerate(zip(places, points, strict=True))
    ]


def test_five_deals_then_the_highest_total_wins_ties_shared() -> None:
    # totals after four deals: 7, 6, 6, 5. In deal 5 seat 1 is out first (3), seat 0 goes out second (2),
    # seat 3 is left (1), seat 2 is bust (0): totals 9, 9, 6, 6, so seats 0 and 1 share the win.
    state = checked(
        build(
            {0: "6S", 1: "", 2: "", 3: "AS 2S 3S 4S 5S"},
            runs={"C": FULL, "D": FULL, "H": FULL, "S": "789TJQK"},
            passes=(0, 0, 3, 0),
            out=(1,),
            bust=(2,),
            deal_number=5,
            deals=_history(),
        )
    )
    after, events = play(state, 0, "6S")
    assert after.phase is Phase.match_over
    assert after.deals[-1].points == [2, 3, 0, 1]
    assert [e.type for e in events][-2:] == ["deal_ended", "match_ended"]
    assert events[-1].winners == [0, 1]
    score = GAME.score(after)
    assert score.totals == [9, 9, 6, 6]
    outcome = GAME.outcome(after)
    assert outcome.over and outcome.winners == [0, 1] and not outcome.lowest_total_wins
    assert [s.place for s in outcome.seats] == [1, 1, 3, 3]
    assert GAME.to_act(after) == []
    assert GAME.moves(after) == ([], [])


def test_a_deal_before_the_fifth_does_not_end_the_match() -> None:
    state = checked(
        build(
            {0: "6S", 1: "", 2: "", 3: "AS 2S 3S 4S 5S"},
            runs={"C": FULL, "D": FULL, "H": FULL, "S": "789TJQK"},
            passes=(0, 0, 3, 0),
            out=(1,),
            bust=(2,),
            deal_number=4,
            dealer=3,
            deals=_history()[:3],
        )
    )
    after, events = play(state, 0, "6S")
    assert after.phase is Phase.deal_over
    assert events[-1].type == "deal_ended"
    assert GAME.outcome(after).over is False and GAME.outcome(after).winners == []


def test_next_deal_moves_the_dealer_left_and_resets_passes_and_places() -> None:
    state = checked(
        build(
            {0: "6S", 1: "", 2: "", 3: "AS 2S 3S 4S 5S"},
            runs={"C": FULL, "D": FULL, "H": FULL, "S": "789TJQK"},
            passes=(0, 0, 3, 0),
            out=(1,),
            bust=(2,),
            deal_number=4,
            dealer=3,
            deals=_history()[:3],
        )
    )
    over, _ = play(state, 0, "6S")
    assert GAME.legal_moves(over, 0) == [SevensMove(type=NEXT_DEAL, player=0)]
    after, events = GAME.apply(over, SevensMove(type=NEXT_DEAL, player=0))
    assert checked(after).dealer == 0 and after.deal_number == 5
    assert after.passes == [0, 0, 0, 0] and after.out == [] and after.bust == []
    assert [e.type for e in events] == ["deal_started"]
    expected = GAME.new(4, SevensOptions(), seeding(0), seeding(7).shuffled(FULL_DECK, "sevens", 5), 0)
    assert after.hands == expected.hands and after.turn == expected.turn
    # an explicit deck is used as given; a bad one is refused
    dealt, _ = GAME.apply(over, SevensMove(type=NEXT_DEAL, player=0, deck=list(FULL_DECK)))
    assert dealt.hands == GAME.new(4, SevensOptions(), seeding(0), list(FULL_DECK), 0).hands
    with pytest.raises(InvalidRequestError):
        GAME.apply(over, SevensMove(type=NEXT_DEAL, player=0, deck=[*FULL_DECK[:51], FULL_DECK[0]]))


# ---- views ------------------------------------------------------------------------------------------


def test_view_hides_other_hands_but_shows_passes_places_and_table() -> None:
    state = checked(
        build(
            {0: "", 1: "8H 3H"},
            runs={"C": FULL, "D": FULL, "S": "56789"},
            laid={"S": "J"},
            passes=(3, 2, 1, 0),
            bust=(0,),
            turn=1,
            filler=(2, 3),
        )
    )
    view = GAME.view(state, 1)
    assert view.hand == ["3H", "8H"]
    assert view.hand_sizes == [len(h) for h in state.hands]
    assert view.passes == [3, 2, 1, 0]
    assert view.bust == [0] and view.out == []
    assert view.table == state.table
    assert view.seed is None
    # swapping cards between two other hands changes nothing seat 1 can see
    h2, h3 = state.hands[2], state.hands[3]
    swapped = updated(state, hands=[[], state.hands[1], [*h2[1:], h3[0]], [h2[0], *h3[1:]]])
    other_seed = updated(swapped, **seeding(99).state_fields())
    # only the (public) commitment follows the seed
    assert GAME.view(other_seed, 1) == updated(view, commitment=seeding(99).commitment)
    assert GAME.view(state, 2) != view


# ---- consistency ------------------------------------------------------------------------------------


def _base() -> SevensState:
    runs = {"C": FULL[2:], "D": FULL, "S": "56789", "H": "567"}
    return checked(build({0: "8H 2C"}, runs=runs, filler=(1, 2, 3)))


def test_the_holder_of_7d_takes_the_first_turn_and_play_goes_left() -> None:
    # every turn is a card or a pass, so the cards and passes so far say who went first: the seat to act
    # less that many turns, which held 7D (fewer than 13 cards now); nobody passed more than its turns
    state = GAME.new(4, SevensOptions(), seeding(3), None, 0)
    first = state.turn
    assert first is not None and len(state.hands[first]) < 13 and not GAME.consistency_issues(state)
    without_7 = next(seat for seat, hand in enumerate(state.hands) if len(hand) == 13)
    issues = GAME.consistency_issues(updated(state, turn=without_7))
    assert [issue.path for issue in issues] == [("turn",)]
    after, _ = pass_(state, first)  # one pass: the next seat is to act
    assert after.turn == (first + 1) % 4 and not GAME.consistency_issues(after)
    passed_twice = list(after.passes)
    passed_twice[first] = 2
    issues = GAME.consistency_issues(updated(after, passes=passed_twice, turn=(first + 2) % 4))
    assert [issue.path for issue in issues] == [("passes", first)]


def test_consistency_passes_are_zero_to_three() -> None:
    data = _base().model_dump()
    data["passes"] = [4, 0, 0, 0]
    with pytest.raises(ValidationError):
        SevensState.model_validate(data)


def test_consistency_a_bust_player_has_used_three_passes_and_holds_nothing() -> None:
    state = build(
        {0: "", 1: "8H"}, runs={"D": FULL, "S": FULL}, passes=(2, 0, 0, 0), bust=(0,), filler=(1, 2, 3)
    )
    assert any(i.path == ("passes", 0) for i in GAME.consistency_issues(state))
    state = build(
        {0: "2C", 1: "8H"}, runs={"D": FULL, "S": FULL}, passes=(3, 0, 0, 0), bust=(0,), filler=(2, 3)
    )
    assert any(i.path == ("hands", 0) for i in GAME.consistency_issues(state))


def test_consistency_places_are_unique() -> None:
    base = build({0: "", 1: "8H"}, runs={"D": FULL, "S": FULL}, out=(0,), turn=1, filler=(1, 2, 3))
    assert GAME.consistency_issues(base) == []
    assert GAME.consistency_issues(updated(base, out=[0, 0]))
    assert GAME.consistency_issues(updated(base, bust=[0], passes=[3, 0, 0, 0]))
    assert GAME.consistency_issues(updated(base, out=[0, 5]))


def test_consistency_out_and_bust_players_hold_no_turn() -> None:
    base = build({0: "", 1: "8H"}, runs={"D": FULL, "S": FULL}, out=(0,), turn=1, filler=(1, 2, 3))
    assert [i.path for i in GAME.consistency_issues(updated(base, turn=0))] == [("turn",)]
    bust = updated(base, out=[], bust=[0], passes=[3, 0, 0, 0])
    assert GAME.consistency_issues(bust) == []
    assert [i.path for i in GAME.consistency_issues(updated(bust, turn=0))] == [("turn",)]


def test_consistency_table_runs_match_the_cards() -> None:
    base = _base()
    spades = row(base, "S")

    def with_spades(run: list[str], laid: list[str]) -> SevensState:
        table = list(base.table)
        table[3] = updated(spades, run=run, laid=laid)
        return updated(base, table=table)

    # a broken run (6♠ moved to laid, leaving 5♠ cut off from the 7)
    assert GAME.consistency_issues(with_spades(["5S", "7S", "8S", "9S"], ["6S"]))
    # a laid card next to the run end would have joined it
    broken = with_spades(["6S", "7S", "8S", "9S"], ["5S"])
    assert any(i.path == ("table", 3, "laid") for i in GAME.consistency_issues(broken))
    # a run without its 7
    assert GAME.consistency_issues(with_spades(["8S", "9S"], ["5S", "6S", "7S"]))
    # a card of another suit in the row (taken from the hand that held it), and rows out of order
    holder = next(seat for seat, hand in enumerate(base.hands) if "TH" in hand)
    hands = [[c for c in h if c != "TH"] for h in base.hands]
    foreign = updated(with_spades(spades.run, ["TH"]), hands=hands, bust=[holder])
    assert any(i.path == ("table", 3, "laid", 0) for i in GAME.consistency_issues(foreign))
    swapped = updated(base, table=[base.table[1], base.table[0], *base.table[2:]])
    assert GAME.consistency_issues(swapped)
    # a card twice or missing
    dup = updated(base, hands=[[*base.hands[0], "5S"], *base.hands[1:]])
    assert GAME.consistency_issues(dup)


def test_consistency_deal_history_and_phase() -> None:
    base = _base()
    assert GAME.consistency_issues(updated(base, deal_number=2))  # missing deal record
    assert GAME.consistency_issues(updated(base, phase=Phase.deal_over, turn=None))
    bad = SevensDeal(number=1, dealer=3, places=[1, 1, 3, 4], points=[3, 3, 1, 0])
    assert GAME.consistency_issues(updated(base, deal_number=2, deals=[bad]))


# ---- playouts ---------------------------------------------------------------------------------------


def test_seeded_random_playouts_reach_the_end_of_a_five_deal_match() -> None:
    for seed in range(12):
        rng = random.Random(seed)
        state = GAME.new(4, SevensOptions(), seeding(seed), None, seed % 4)
        steps = 0
        while True:
            assert GAME.consistency_issues(state) == [], seed
            seats, moves = GAME.moves(state)
            if not seats:
                break
            dumped = state.model_dump_json()
            move = rng.choice(moves)
            after, _ = GAME.apply(state, move)
            assert state.model_dump_json() == dumped  # the input is not mutated
            assert SevensState.model_validate_json(after.model_dump_json()) == after
            # a card not listed for the player is refused
            unlisted = [
                c for c in FULL_DECK if SevensMove(type=PLAY, player=move.player, card=c) not in moves
            ]
            with pytest.raises(IllegalMoveError):
                GAME.apply(state, SevensMove(type=PLAY, player=move.player, card=unlisted[0]))
            state = after
            steps += 1
            assert steps < 5 * 60
        assert len(state.deals) == 5
        assert sum(GAME.score(state).totals) == 5 * (3 + 2 + 1 + 0)
        assert all(sorted(d.places) == [1, 2, 3, 4] for d in state.deals)
