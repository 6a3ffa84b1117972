"""The sampler and the bots: consistency with a seat's view, uniformity by exhaustive enumeration, no
information beyond the seat's, legal answers, bounded budgets and refusals."""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import random
from collections import Counter
from typing import Any

import pytest
from starlette.testclient import TestClient

from sevens_rules.api.bots import answer_reserve_ms, max_budget_ms
from sevens_rules.api.limits import Settings, SettingsError
from sevens_rules.engine.bots import position, search
from sevens_rules.engine.bots.allocation import ConstrainedDeal
from sevens_rules.engine.bots.equity import CHANCES, deal_chances, equity_rewards, match_equity
from sevens_rules.engine.bots.levels import SEEDED_ITERATIONS_PER_MS, choose
from sevens_rules.engine.bots.rules import (
    _layout,
    mss_lot,
    playout_heuristic,
    position_chooser,
    rules_chooser,
    rules_move,
)
from sevens_rules.engine.bots.sampler import Sampler, rng_for, sample_states
from sevens_rules.engine.bots.search import _chosen, search_move
from sevens_rules.engine.card_sets import CARD_INDEX as CARD_CODE
from sevens_rules.engine.dealing import Seeding
from sevens_rules.engine.errors import InconsistentStateError
from sevens_rules.engine.registry import GAMES
from sevens_rules.engine.simulate import position_rules
from sevens_rules.schema.bots import BotLevel
from tests.sealed_helpers import call, dealt, keyring

AnyGame = Any
SEED = "5e" * 32
CHI_SQUARE_999: dict[int, float] = {
    1: 10.83,
    2: 13.82,
    3: 16.27,
    4: 18.47,
    5: 20.52,
    9: 27.88,
    14: 36.12,
    19: 43.82,
}
"""The chi-square distribution's 99.9% points by degrees of freedom (statistics tables)."""


def positions(game_id: str, players: int, every: int = 4, most: int = 60) -> list[Any]:
    """States of a seeded match of random moves, one every ``every`` moves, first deal first."""
    game = GAMES[game_id]
    rng = random.Random(7)
    state = game.new(players, game.models.options(), Seeding(SEED), None, None)
    found = []
    for step in range(most):
        seats, moves = game.moves(state)
        if not seats:
            break
        if step % every == 0:
            found.append(state)
        state = game.apply(state, moves[rng.randrange(len(moves))])[0]
    return found


def public_view(game: AnyGame, state: Any, seat: int) -> dict[str, Any]:
    """What ``seat`` sees, but the seed's commitment (a sample has a fresh seed) and Seven-Up's cut,
    which a fresh seed cannot draw again (the sampler leaves it empty)."""
    view: dict[str, Any] = game.view(state, seat).model_dump()
    for name in ("commitment", "seed", "cut"):
        view.pop(name, None)
    return view


TABLES = [
    (game_id, n)
    for game_id, game in GAMES.items()
    for n in sorted({game.table_sizes()[0], game.table_sizes()[-1]})
]


@pytest.mark.parametrize(("game_id", "players"), TABLES)
def test_sampled_states_are_consistent_and_show_the_seat_the_same_view(game_id: str, players: int) -> None:
    game = GAMES[game_id]
    for state in positions(game_id, players):
        for seat in range(players):
            for sample in sample_states(game, state, seat, 2, "view"):
                game.check(sample)  # a state the engine accepts
                assert public_view(game, sample, seat) == public_view(game, state, seat)
                assert sample.seed != state.seed


def test_a_sample_hides_the_real_seed_and_the_other_hands() -> None:
    game = GAMES["sjuan"]
    state = positions("sjuan", 4)[1]
    samples = sample_states(game, state, 0, 16, "x")
    assert all(s.seed != state.seed for s in samples)
    # the other seats' hands are redrawn: some sample differs from the real deal
    assert any(s.hands[1:] != state.hands[1:] for s in samples)
    assert all(s.hands[0] == state.hands[0] for s in samples)


def test_samples_are_reproducible_for_a_sample_seed() -> None:
    game = GAMES["sevens"]
    state = positions("sevens", 4)[2]
    assert sample_states(game, state, 1, 3, "same") == sample_states(game, state, 1, 3, "same")
    assert sample_states(game, state, 1, 3, "same") != sample_states(game, state, 1, 3, "other")


def enumerate_assignments(
    cards: list[str], sizes: list[int], allowed: list[Any]
) -> list[tuple[frozenset[str], ...]]:
    """Every assignment of ``cards`` to piles of ``sizes`` that ``allowed`` permits, by brute force."""
    found = []
    for labels in itertools.product(range(len(sizes)), repeat=len(cards)):
        if any(labels.count(i) != size for i, size in enumerate(sizes)):
            continue
        if any(
            allowed[pile] is not None and not allowed[pile](card)
            for card, pile in zip(cards, labels, strict=True)
        ):
            continue
        found.append(
            tuple(
                frozenset(c for c, p in zip(cards, labels, strict=True) if p == i) for i in range(len(sizes))
            )
        )
    return found


def no_hearts(card: str) -> bool:
    return card[1] != "H"


def only_points(card: str) -> bool:
    return card[0] in "AT"


CONSTRAINED_CASES = [
    # free cards into three piles
    (["2C", "3C", "4D", "5D", "6S"], [2, 2, 1], [None, None, None]),
    # a void: pile 0 holds no hearts (Seven-Up's failure to follow)
    (["2H", "3H", "4H", "5D", "6S", "7C"], [3, 2, 1], [no_hearts, None, None]),
    # a quota: pile 2 holds exactly the aces and tens it is told (Sedmice's won points)
    (
        ["AC", "TD", "5D", "6S", "AH", "9C"],
        [2, 2, 1, 1],
        [None, None, only_points, lambda c: not only_points(c)],
    ),
    # two voids at once
    (["2H", "3H", "4S", "5S", "6D", "7D", "8C"], [2, 3, 2], [no_hearts, lambda c: c[1] != "S", None]),
]


@pytest.mark.parametrize(("cards", "sizes", "allowed"), CONSTRAINED_CASES)
def test_constrained_deals_count_every_assignment(
    cards: list[str], sizes: list[int], allowed: list[Any]
) -> None:
    assert ConstrainedDeal(cards, sizes, allowed).total == len(enumerate_assignments(cards, sizes, allowed))


@pytest.mark.parametrize(("cards", "sizes", "allowed"), CONSTRAINED_CASES)
def test_constrained_deals_are_uniform_over_the_enumerated_assignments(
    cards: list[str], sizes: list[int], allowed: list[Any]
) -> None:
    expected = enumerate_assignments(cards, sizes, allowed)
    deal = ConstrainedDeal(cards, sizes, allowed)
    rng = rng_for("uniform")
    draws = 200 * len(expected)
    seen = Counter(tuple(frozenset(pile) for pile in deal.assignment(rng)) for _ in range(draws))
    assert set(seen) == set(expected)  # only consistent assignments, and every one of them
    mean = draws / len(expected)
    chi_square = sum((seen[a] - mean) ** 2 / mean for a in expected)
    degrees = len(expected) - 1
    limit = CHI_SQUARE_999.get(degrees) or degrees + 4 * (2 * degrees) ** 0.5  # normal approximation
    assert chi_square < limit


def late_sjuan() -> tuple[Any, int]:
    """A three-seat Sjuan state late in the deal (the seat to act sees few hidden cards)."""
    game = GAMES["sjuan"]
    rng = random.Random(3)
    state = game.new(3, game.models.options(), Seeding(SEED), None, 0)
    while True:
        seats, moves = game.moves(state)
        seat = seats[0]
        if sum(len(h) for i, h in enumerate(state.hands) if i != seat) <= 6:
            return state, seat
        state = game.apply(state, moves[rng.randrange(len(moves))])[0]


def test_sjuan_samples_are_uniform_over_every_consistent_deal() -> None:
    game = GAMES["sjuan"]
    state, seat = late_sjuan()
    others = [i for i in range(3) if i != seat]
    hidden = sorted(c for i in others for c in state.hands[i])
    sizes = [len(state.hands[i]) for i in others]
    # every split of the hidden cards between the two other hands is consistent: nothing is inferred
    expected: set[tuple[frozenset[str], ...]] = {
        (frozenset(first), frozenset(hidden) - frozenset(first))
        for first in itertools.combinations(hidden, sizes[0])
    }
    assert_uniform_over(Sampler(game, state, seat), rng_for("sjuan"), others, expected)


def assert_uniform_over(
    sampler: Sampler, rng: random.Random, others: list[int], expected: set[tuple[frozenset[str], ...]]
) -> None:
    """The sampler's hands of ``others`` are exactly the ``expected`` splits, each as often (chi-square at
    99.9%, 150 draws per split)."""
    draws = 150 * len(expected)
    seen: Counter[tuple[frozenset[str], ...]] = Counter()
    for _ in range(draws):
        sample = sampler.draw(rng)
        seen[tuple(frozenset(sample.hands[i]) for i in others)] += 1
    assert set(seen) == expected
    mean = draws / len(expected)
    degrees = len(expected) - 1
    chi_square = sum((seen[a] - mean) ** 2 / mean for a in expected)
    assert chi_square < CHI_SQUARE_999.get(degrees, degrees + 4 * (2 * degrees) ** 0.5)


def seven_up_with_a_void() -> tuple[Any, int, str, int]:
    """A two-seat Seven-Up state in play where seat 1 - seat failed to follow a led suit."""
    game = GAMES["seven-up"]
    for seed_byte in range(1, 60):
        rng = random.Random(seed_byte)
        state = game.new(2, game.models.options(), Seeding(f"{seed_byte:064x}"), None, 0)
        for _ in range(40):
            seats, moves = game.moves(state)
            if not seats or state.phase == "deal_over":
                break
            for trick in state.tricks:
                led = trick.cards[0][1]
                follower = (trick.leader + 1) % 2
                if trick.cards[1][1] != led:
                    return state, 1 - follower, led, follower
            state = game.apply(state, moves[rng.randrange(len(moves))])[0]
    raise AssertionError("no seeded deal had a failure to follow")


def test_seven_up_samples_keep_a_seat_void_in_a_suit_it_did_not_follow() -> None:
    game = GAMES["seven-up"]
    state, seat, led, void_seat = seven_up_with_a_void()
    for sample in sample_states(game, state, seat, 16, "void"):
        assert all(card[1] != led for card in sample.hands[void_seat])
        assert public_view(game, sample, seat) == public_view(game, state, seat)


def test_sedmice_samples_keep_each_sides_points() -> None:
    game = GAMES["sedmice"]
    state = positions("sedmice", 2, every=1)[-1]
    assert any(state.taken)
    for sample in sample_states(game, state, 0, 8, "points"):
        for side in range(2):
            assert sum(c[0] in "AT" for c in sample.taken[side]) == sum(
                c[0] in "AT" for c in state.taken[side]
            )
            assert len(sample.taken[side]) == len(state.taken[side])


def my_ship_sails_declared(auto_declare: bool) -> dict[str, Any]:
    """As posted: a four-seat My Ship Sails deal just won by seat 1's seven hearts, declared at once.
    Seat 0 holds four clubs and three diamonds, so from its seat 9 clubs, 10 diamonds and 13 hearts and
    spades are hidden (the other hands and the unused cards)."""
    game = GAMES["my-ship-sails"]
    order = {card: i for i, card in enumerate(game.deck)}
    own = ["2C", "3C", "4C", "5C", "2D", "3D", "4D"]
    winner = ["2H", "3H", "4H", "5H", "6H", "7H", "8H"]
    rest = sorted(set(game.deck) - set(own) - set(winner), key=order.__getitem__)
    rng = random.Random(5)
    rng.shuffle(rest)
    hands = [own, winner, sorted(rest[:7], key=order.__getitem__), sorted(rest[7:14], key=order.__getitem__)]
    options = game.models.options.model_validate({"auto_declare": auto_declare})
    posted: dict[str, Any] = game.new(4, options, Seeding(SEED), None, None).model_dump(mode="json")
    posted.update(
        phase="deal_over",
        hands=hands,
        unused=sorted(rest[14:], key=order.__getitem__),
        deals=[{"number": 1, "dealer": posted["dealer"], "exchanges": 0, "winners": [1]}],
    )
    return posted


@pytest.mark.parametrize("auto_declare", [False, True])
def test_my_ship_sails_samples_after_a_declaration_give_each_winner_one_suit(auto_declare: bool) -> None:
    game = GAMES["my-ship-sails"]
    state = game.models.state.model_validate_json(json.dumps(my_ship_sails_declared(auto_declare)))
    game.check(state)
    draws = 3000
    suits: Counter[str] = Counter()
    for sample in sample_states(game, state, 0, draws, "declared"):
        assert not game.consistency_issues(sample)
        assert public_view(game, sample, 0) == public_view(game, state, 0)
        (suit,) = {card[1] for card in sample.hands[1]}
        suits[suit] += 1
    # the winner's seven cards are any seven of its suit's hidden cards, the rest dealt as before: each
    # suit in proportion to the ways to choose them (with auto_declare, the few draws that also give
    # another seat a one-suit hand are drawn again, too few to move the proportions)
    ways = {"C": math.comb(9, 7), "D": math.comb(10, 7), "H": math.comb(13, 7), "S": math.comb(13, 7)}
    expected = {suit: draws * w / sum(ways.values()) for suit, w in ways.items()}
    chi_square = sum((suits[suit] - mean) ** 2 / mean for suit, mean in expected.items())
    assert chi_square < CHI_SQUARE_999[3]


def test_my_ship_sails_sample_after_a_declaration_answers_over_http(client: TestClient) -> None:
    body = {"state": my_ship_sails_declared(True), "player": 0, "count": 4, "sample_seed": "declared"}
    response = client.post("/v1/games/my-ship-sails/sample", json=body)
    assert response.status_code == 200, response.text
    for sample in response.json()["states"]:
        assert len({card[1] for card in sample["hands"][1]}) == 1


def domino_after_draws(stock_top: list[str]) -> Any:
    """Domino fan tan, hands of five, dealt by seat 1 with no 7 in either hand and 7H at the bottom of the
    stock; seat 0 (left of the dealer) draws the first of ``stock_top`` (the stock's top cards)."""
    game = GAMES["domino-fan-tan"]
    plain = [card for card in game.deck if card[0] != "7" and card not in stock_top]
    deck = [*plain[:10], *stock_top, *plain[10:]]
    deck += [card for card in ("7C", "7D", "7S", "7H") if card not in deck]
    state = game.new(2, game.models.options.model_validate({"hand_size": 5}), Seeding(SEED), deck, 1)
    return game.apply(state, game.moves(state)[1][0])[0]  # seat 0's draw


def test_domino_fan_tan_samples_after_a_draw_keep_the_opening_s_sevens() -> None:
    game = GAMES["domino-fan-tan"]
    passed = domino_after_draws(["2C"])  # seat 0 drew 2C and passed: seat 1 is to act
    assert passed.turn == 1 and not game.consistency_issues(passed)
    # every draw is a state the engine accepts: the sampler infers what the check asks, nothing to reject
    in_hand = Counter[str]()
    draws = 2000
    rng = rng_for("drawn")
    for seat, sampler in enumerate((Sampler(game, passed, 0), Sampler(game, passed, 1))):
        for _ in range(draws):
            sample = sampler.draw(rng)
            assert not game.consistency_issues(sample)
            if seat == 0:  # seat 1, yet to move, may hold any 7 but 7H, as likely as any other card
                in_hand.update(card for card in sample.hands[1] if card in ("7C", "7H", "2D"))
            else:  # seat 0 drew and passed: it holds no 7
                assert not any(card[0] == "7" for card in sample.hands[0])
    assert in_hand["7H"] == 0
    # 7H lies in the stock; the other 45 hidden cards fill seat 1's five places and the stock's forty
    mean, deviation = draws * 5 / 45, (draws * 5 / 45 * 40 / 45) ** 0.5
    for card in ("7C", "2D"):
        assert abs(in_hand[card] - mean) < 4.5 * deviation, (card, in_hand[card], mean)


def test_domino_fan_tan_samples_give_a_seat_that_drew_a_7_that_one_7() -> None:
    game = GAMES["domino-fan-tan"]
    drew = domino_after_draws(["7C"])  # seat 0 drew 7C and must play it
    assert drew.turn == 0 and not game.consistency_issues(drew)
    sampler, rng = Sampler(game, drew, 1), rng_for("seven")
    sevens = Counter[str]()
    for _ in range(400):
        sample = sampler.draw(rng)
        assert not game.consistency_issues(sample)
        (seven,) = [card for card in sample.hands[0] if card[0] == "7"]
        sevens[seven] += 1
    assert set(sevens) == {"7C", "7D", "7H", "7S"}  # seat 1 cannot tell which 7 it drew


def fan_tan_opening(first_move: str) -> tuple[Any, list[int], list[Any]]:
    """The first seeded four-seat Fan Tan deal whose first seat's first listed move is of type
    ``first_move`` (``pass``: it holds no 7): the state, the seats to act and their moves."""
    game = GAMES["fan-tan"]
    for seed_byte in range(1, 100):
        state = game.new(4, game.models.options(), Seeding(f"{seed_byte:064x}"), None, None)
        seats, moves = game.moves(state)
        if moves[0].type == first_move:
            return state, seats, moves
    raise AssertionError(f"no seeded deal opened with a {first_move}")


def test_fan_tan_samples_before_the_first_card_give_a_seat_that_passed_no_seven() -> None:
    game = GAMES["fan-tan"]
    state, seats, moves = fan_tan_opening("pass")
    passed = game.apply(state, moves[0])[0]
    passer = seats[0]
    for seat in range(4):
        sampler, rng = Sampler(game, passed, seat), rng_for(f"passed{seat}")
        for _ in range(200):
            sample = sampler.draw(rng)
            assert not game.consistency_issues(sample)
            assert not any(card[0] == "7" for card in sample.hands[passer])


def short_hand_chips(players: int, dealer: int) -> list[int]:
    """The chip each seat paid when dealt (RULINGS 1: the first ``52 mod n`` seats from the dealer's left get
    one card more; the others are short and pay one), worked out here from the text."""
    extra = 52 % players
    return [
        0 if extra and (seat - dealer - 1) % players < extra else int(bool(extra)) for seat in range(players)
    ]


@pytest.mark.parametrize("game_id", ["sjuan", "fan-tan", "free-fan-tan", "domino-fan-tan"])
def test_a_seat_that_passed_holds_no_card_it_had_to_play_in_random_play(game_id: str) -> None:
    # The inference the sampler draws from a pass, checked against the true hands of played deals: a
    # seat whose chips count a pass never holds a card the game says its passes rule out.
    game = GAMES[game_id]
    ruled = 0
    for seed_byte in range(1, 13):
        players = 2 if game_id == "domino-fan-tan" else 3 + seed_byte % 3
        rng = random.Random(seed_byte)
        state = game.new(players, game.models.options(), Seeding(f"{seed_byte:064x}"), None, None)
        for _ in range(300):
            seats, moves = game.moves(state)
            if not seats or state.phase != "play":
                break
            for seat, out in enumerate(game.cards_passes_rule_out(state)):  # type: ignore[attr-defined]
                assert not any(out >> CARD_CODE[card] & 1 for card in state.hands[seat])
                ruled += bool(out)
            state = game.apply(state, moves[rng.randrange(len(moves))])[0]
    assert ruled or game_id == "domino-fan-tan"  # (two-seat deals rarely empty the stock)


SJUAN_ALWAYS_PLAYABLE = {"7C", "7D", "7S", "6H", "8H"}
"""RULINGS 1: after 7H opens, every 7 and the cards next to a row are legal, and a row only grows: these
cards are legal at every turn since the first card, as long as they are off the table."""


def late_sjuan_after_a_pass() -> tuple[Any, int, int]:
    """A three-seat Sjuan state late in a deal where another seat than the one to act has passed and a card
    of :data:`SJUAN_ALWAYS_PLAYABLE` is hidden: the state, the seat to act and the seat that passed."""
    game = GAMES["sjuan"]
    for seed_byte in range(1, 200):
        rng = random.Random(seed_byte)
        state = game.new(3, game.models.options(), Seeding(f"{seed_byte:064x}"), None, 0)
        short = short_hand_chips(3, 0)
        while state.phase == "play":
            seats, moves = game.moves(state)
            seat = seats[0]
            hidden = [c for i, h in enumerate(state.hands) if i != seat for c in h]
            if len(hidden) <= 9:
                passers = [i for i in range(3) if i != seat and state.chips[i] > short[i]]
                if passers and set(hidden) & SJUAN_ALWAYS_PLAYABLE:
                    return state, seat, passers[0]
                break
            state = game.apply(state, moves[rng.randrange(len(moves))])[0]
    raise AssertionError("no seeded deal had a late pass")


def test_sjuan_samples_give_a_seat_that_passed_no_card_it_had_to_play() -> None:
    # A seat holding a legal card must play (RULINGS 1), so a seat that has paid for a pass holds none of
    # SJUAN_ALWAYS_PLAYABLE. The samples are uniform over the splits of the hidden cards that respect
    # that, and only those.
    game = GAMES["sjuan"]
    state, seat, passer = late_sjuan_after_a_pass()
    others = [i for i in range(3) if i != seat]
    short = short_hand_chips(3, 0)
    passed = {i for i in others if state.chips[i] > short[i]}
    always = SJUAN_ALWAYS_PLAYABLE - set(state.table)
    hidden = sorted(c for i in others for c in state.hands[i])
    sizes = [len(state.hands[i]) for i in others]
    expected: set[tuple[frozenset[str], ...]] = set()
    for first in itertools.combinations(hidden, sizes[0]):
        split = (frozenset(first), frozenset(hidden) - frozenset(first))
        if all(not (hand & always) for i, hand in zip(others, split, strict=True) if i in passed):
            expected.add(split)
    assert expected and len(expected) < math.comb(len(hidden), sizes[0])  # the pass rules some out
    assert passer in passed
    assert_uniform_over(Sampler(game, state, seat), rng_for("passed"), others, expected)


def test_fan_tan_reads_a_single_pass_as_one_that_may_have_come_before_the_first_card() -> None:
    # RULINGS 1: Fan Tan's first seat may pass before any card is down, holding no 7; a later pass also
    # means none of the first card's neighbours. One pass rules out the 7s, two rule out the neighbours.
    game = GAMES["fan-tan"]
    state, seats, moves = fan_tan_opening("play")
    state = game.apply(state, moves[0])[0]
    first = state.table[0]
    short = short_hand_chips(4, state.dealer)
    sevens = {f"7{suit}" for suit in "CDHS"} - {first}
    neighbours = {f"6{first[1]}", f"8{first[1]}"}
    for chips, ruled_out in ((1, sevens), (2, sevens | neighbours)):
        seat = (seats[0] + 1) % 4
        posted = state.model_copy(
            update={"chips": [short[i] + (chips if i == seat else 0) for i in range(4)]}
        )
        out = game.cards_passes_rule_out(posted)  # type: ignore[attr-defined]
        assert {card for card in CARD_CODE if out[seat] >> CARD_CODE[card] & 1} == ruled_out
        assert not any(out[i] for i in range(4) if i != seat)


def test_passes_the_hands_cannot_explain_are_not_read() -> None:
    # A position set up by hand may deal other short hands than the rules do, and its chips then read as
    # passes no arrangement of the hidden cards fits: the sampler reads no pass rather than refuse it.
    game = GAMES["sjuan"]
    state, seat, _ = late_sjuan_after_a_pass()
    others = [i for i in range(3) if i != seat]
    always = SJUAN_ALWAYS_PLAYABLE - set(state.table)
    holders = [i for i in others if set(state.hands[i]) & always]
    posted = state.model_copy(update={"chips": [state.chips[i] + (i in others) for i in range(3)]})
    game.check(posted)
    assert holders  # the cards the passes would rule out lie in the other hands: nobody may hold them
    sampler, rng = Sampler(game, posted, seat), rng_for("by hand")
    assert any(set(sampler.draw(rng).hands[holders[0]]) & always for _ in range(200))


def test_a_sampler_that_finds_no_arrangement_refuses_the_state_as_inconsistent() -> None:
    # Domino fan tan with 7H in the stock and nobody having drawn: the seat left of the dealer opens.
    # Posted with the dealer to act, the sampler of the dealer's seat finds no hand that could hold 7H
    # (the engine's check refuses the state first; the sampler does not rely on it).
    game = GAMES["domino-fan-tan"]
    deck = [*(card for card in game.deck if card[0] != "7"), "7C", "7D", "7S", "7H"]
    state = game.new(2, game.models.options.model_validate({"hand_size": 5}), Seeding(SEED), deck, 1)
    assert state.turn == 0 and "7H" in state.stock
    impossible = state.model_copy(update={"turn": 1})
    with pytest.raises(InconsistentStateError):
        Sampler(game, impossible, 1)


def hidden_twin(game: AnyGame, state: Any, seat: int) -> Any:
    """A state that differs from ``state`` only in what ``seat`` cannot see (other hands, stock, seed)."""
    for attempt in range(20):
        twin = sample_states(game, state, seat, 1, f"twin{attempt}")[0]
        if twin.hands != state.hands or getattr(twin, "stock", None) != getattr(state, "stock", None):
            return twin
    raise AssertionError("no different hidden cards found")


@pytest.mark.parametrize("game_id", list(GAMES))
@pytest.mark.parametrize("level", list(BotLevel))
def test_a_bot_decides_from_its_seats_information_only(game_id: str, level: BotLevel) -> None:
    game = GAMES[game_id]
    players = game.table_sizes()[0]
    checked = 0
    for state in positions(game_id, players, every=3, most=30):
        seat = game.to_act(state)[0]
        if len(game.moves(state, seat)[1]) < 2:
            continue
        twin = hidden_twin(game, state, seat)
        assert public_view(game, twin, seat) == public_view(game, state, seat)
        first = choose(game, state, seat, level, 10_000, "leak", iterations=30)
        second = choose(game, twin, seat, level, 10_000, "leak", iterations=30)
        assert first.move == second.move
        checked += 1
        if checked == 2:
            break
    assert checked


def test_sample_answers_the_same_for_states_differing_in_hidden_cards() -> None:
    game = GAMES["domino-fan-tan"]
    state = positions("domino-fan-tan", 2)[3]
    seat = 0
    twin = hidden_twin(game, state, seat)
    assert sample_states(game, state, seat, 4, "s") == sample_states(game, twin, seat, 4, "s")


# ---- over HTTP -----------------------------------------------------------------------------------


def new_state(client: TestClient, game_id: str, players: int) -> dict[str, Any]:
    answer = client.post(f"/v1/games/{game_id}/new", json={"players": players, "seed": SEED})
    assert answer.status_code == 200
    state: dict[str, Any] = answer.json()["state"]
    return state


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_bot_answer_is_a_legal_move(client: TestClient, game_id: str) -> None:
    game = GAMES[game_id]
    players = game.table_sizes()[0]
    state = new_state(client, game_id, players)
    levels = ["random", "rules", "search"]
    for step in range(24):
        to_act = client.post(f"/v1/games/{game_id}/moves", json={"state": state}).json()["to_act"]
        if not to_act:
            break
        body = {
            "state": state,
            "player": to_act[0],
            "level": levels[step % 3],
            "budget_ms": 5,
            "bot_seed": str(step),
        }
        answer = client.post(f"/v1/games/{game_id}/bot", json=body)
        assert answer.status_code == 200, answer.text
        bot = answer.json()
        assert bot["level"] == levels[step % 3]
        assert bot["elapsed_ms"] >= 0 and bot["iterations"] >= 0
        applied = client.post(f"/v1/games/{game_id}/apply", json={"state": state, "move": bot["move"]})
        assert applied.status_code == 200, applied.text
        state = applied.json()["state"]


def test_bot_refuses_a_seat_not_to_act(client: TestClient) -> None:
    state = new_state(client, "sjuan", 4)
    body = {"state": state, "player": (state["turn"] + 1) % 4, "level": "random"}
    problem = client.post("/v1/games/sjuan/bot", json=body).json()
    assert (problem["status"], problem["code"]) == (409, "move/not-your-turn")
    assert problem["errors"][0]["path"] == "/player"
    assert problem["legal_moves"] == []


def finished_match(game_id: str, players: int, number: int) -> Any:
    """A match of ``game_id`` played to its end by random moves drawn from ``random.Random(number)``."""
    game = GAMES[game_id]
    state = game.new(players, game.models.options(), Seeding(SEED), None, None)
    rng = random.Random(number)
    while game.to_act(state):
        state = game.apply(state, rng.choice(game.moves(state)[1]))[0]
    return state


def test_bot_refuses_a_finished_match(client: TestClient) -> None:
    state = finished_match("sevens", 4, 1)
    body = {"state": state.model_dump(mode="json"), "player": 0, "level": "rules"}
    problem = client.post("/v1/games/sevens/bot", json=body).json()
    assert (problem["status"], problem["code"]) == (409, "match/over")


def test_sample_refuses_a_finished_match_whose_seed_every_view_shows(client: TestClient) -> None:
    # once the match is over every view shows the seed, from which the cards dealt follow: a state drawn
    # with another seed, or with other hidden cards, is one the seat could tell from the real one
    state = finished_match("seven-up", 2, 2)
    assert GAMES["seven-up"].view(state, 0).seed == state.seed
    body = {"state": state.model_dump(mode="json"), "player": 0, "count": 2}
    problem = client.post("/v1/games/seven-up/sample", json=body).json()
    assert (problem["status"], problem["code"], problem["errors"]) == (409, "match/over", [])


@pytest.mark.parametrize(
    ("budget", "status", "path"),
    [(0, 422, "/budget_ms"), (201, 422, "/budget_ms"), (10_001, 422, "/budget_ms")],
)
def test_bot_refuses_a_budget_out_of_range(client: TestClient, budget: int, status: int, path: str) -> None:
    state = new_state(client, "fan-tan", 3)
    body = {"state": state, "player": state["turn"], "level": "search", "budget_ms": budget}
    problem = client.post("/v1/games/fan-tan/bot", json=body).json()
    assert problem["status"] == status
    assert problem["errors"][0]["path"] == path


def test_bot_refuses_an_unknown_level_and_a_seat_off_the_table(client: TestClient) -> None:
    state = new_state(client, "sjuan", 3)
    unknown = client.post("/v1/games/sjuan/bot", json={"state": state, "player": 0, "level": "genius"}).json()
    assert (unknown["status"], unknown["errors"][0]["path"]) == (422, "/level")
    absent = client.post("/v1/games/sjuan/bot", json={"state": state, "player": 5, "level": "random"}).json()
    assert (absent["status"], absent["errors"][0]["path"]) == (422, "/player")


def test_search_answer_reports_its_iterations_within_the_budget(client: TestClient) -> None:
    state = new_state(client, "sevens", 4)
    to_act = client.post("/v1/games/sevens/moves", json={"state": state}).json()["to_act"]
    body = {"state": state, "player": to_act[0], "level": "search", "budget_ms": 20, "bot_seed": "n"}
    bot = client.post("/v1/games/sevens/bot", json=body).json()
    assert bot["level"] == "search"
    # a seeded search runs at most budget_ms x 2 iterations (fewer when its playouts are long)
    assert 0 < bot["iterations"] <= 40


def test_sample_over_http_answers_count_states_the_seat_cannot_tell_apart(client: TestClient) -> None:
    state = new_state(client, "sedmice", 4)
    body = {"state": state, "player": 2, "count": 3, "sample_seed": "http"}
    answer = client.post("/v1/games/sedmice/sample", json=body)
    assert answer.status_code == 200
    states = answer.json()["states"]
    assert len(states) == 3
    assert answer.json() == client.post("/v1/games/sedmice/sample", json=body).json()
    view = client.post("/v1/games/sedmice/view", json={"state": state, "player": 2}).json()
    for sample in states:
        sampled_view = client.post("/v1/games/sedmice/view", json={"state": sample, "player": 2}).json()
        for name in ("commitment",):
            sampled_view.pop(name), view.pop(name, None)
        assert sampled_view == view
    too_many = client.post("/v1/games/sedmice/sample", json={**body, "count": 17}).json()
    assert (too_many["status"], too_many["errors"][0]["path"]) == (422, "/count")


def test_graphql_twins_answer_as_rest(client: TestClient) -> None:
    state = new_state(client, "sjuan", 3)
    bot_query = """query($s: SjuanStateInput!, $p: Int!) {
      sjuanBot(state: $s, player: $p, level: rules, bot_seed: "g") {
        ... on SjuanBotResponse { move { player type card } level iterations }
      }
    }"""
    sample_query = """query($s: SjuanStateInput!) {
      sjuanSample(state: $s, player: 1, sample_seed: "g") { ... on SjuanSampleResponse { states { hands } } }
    }"""
    variables = {"s": state, "p": state["turn"]}
    bot = client.post("/graphql", json={"query": bot_query, "variables": variables}).json()
    assert "errors" not in bot, bot
    rest = client.post(
        "/v1/games/sjuan/bot",
        json={"state": state, "player": state["turn"], "level": "rules", "bot_seed": "g"},
    ).json()
    assert bot["data"]["sjuanBot"]["move"]["card"] == rest["move"]["card"]
    assert bot["data"]["sjuanBot"]["level"] == "rules"
    sample = client.post("/graphql", json={"query": sample_query, "variables": {"s": state}}).json()
    assert "errors" not in sample, sample
    rest_sample = client.post(
        "/v1/games/sjuan/sample", json={"state": state, "player": 1, "sample_seed": "g"}
    ).json()
    assert sample["data"]["sjuanSample"]["states"][0]["hands"] == rest_sample["states"][0]["hands"]


# ---- sealed --------------------------------------------------------------------------------------


def test_sealed_bot_and_sample_answer_for_the_callers_seat_only() -> None:
    ring = keyring("k=3")
    match = dealt(ring, "sjuan", 3)
    token, keys = match["token"], match["seat_keys"]
    status, moves = call(ring, "sjuan", "moves", {"token": token, "seat": 0, "seat_key": keys[0]})
    seat = moves["to_act"][0]
    body = {"token": token, "seat": seat, "seat_key": keys[seat], "level": "search", "budget_ms": 10}
    status, bot = call(ring, "sjuan", "bot", body)
    assert status == 200, bot
    status, applied = call(
        ring, "sjuan", "apply", {"token": token, "seat": seat, "seat_key": keys[seat], "move": bot["move"]}
    )
    assert status == 200, applied
    status, sample = call(
        ring, "sjuan", "sample", {"token": token, "seat": 1, "seat_key": keys[1], "count": 2}
    )
    assert status == 200
    status, seen = call(ring, "sjuan", "view", {"token": token, "seat": 1, "seat_key": keys[1]})
    for state in sample["states"]:
        assert state["hands"][1] == seen["view"]["hand"]
    # another seat's key opens nothing; a seat not to act gets no move
    status, refused = call(ring, "sjuan", "bot", {**body, "seat_key": keys[(seat + 1) % 3]})
    assert status == 403
    other = (seat + 1) % 3
    status, refused = call(ring, "sjuan", "bot", {**body, "seat": other, "seat_key": keys[other]})
    assert (status, refused["errors"][0]["path"]) == (409, "/seat")


def test_a_sealed_search_answers_at_its_budgets_end_whatever_the_seats_moves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the other seats may see when a bot's move comes: a search with one legal move (Sjuan's first, 7H)
    # must not answer sooner than one that thinks, so its answer waits, on the event loop, for its budget's
    # end less the reserve; the other levels answer at once
    waits: list[float] = []

    async def recorded(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr(asyncio, "sleep", recorded)
    ring = keyring("k=3")
    match = dealt(ring, "sjuan", 3)
    token, keys = match["token"], match["seat_keys"]
    status, moves = call(ring, "sjuan", "moves", {"token": token, "seat": 0, "seat_key": keys[0]})
    seat = moves["to_act"][0]
    body = {"token": token, "seat": seat, "seat_key": keys[seat], "budget_ms": 50}
    status, moves = call(ring, "sjuan", "moves", {key: body[key] for key in ("token", "seat", "seat_key")})
    assert [move["card"] for move in moves["moves"]] == ["7H"]
    status, bot = call(ring, "sjuan", "bot", {**body, "level": "search"})
    assert (status, bot["move"]["card"], bot["iterations"]) == (200, "7H", 0)
    assert len(waits) == 1 and 0 < waits[0] <= (50 - answer_reserve_ms(50)) / 1000
    for level in ("rules", "random"):
        status, bot = call(ring, "sjuan", "bot", {**body, "level": level})
        assert status == 200
    assert len(waits) == 1


def test_the_configured_budget_maximum_is_checked_at_startup() -> None:
    assert Settings.from_env({"RULES_BOT_MAX_BUDGET_MS": "500"}).bot_max_budget_ms == 500
    with pytest.raises(SettingsError, match="RULES_BOT_MAX_BUDGET_MS"):
        Settings.from_env({"RULES_BOT_MAX_BUDGET_MS": "0"})
    assert max_budget_ms({"RULES_BOT_MAX_BUDGET_MS": "50"}) == 50
    assert max_budget_ms({}) == 200


# ---- the search's own parts ----------------------------------------------------------------------


def test_margins_are_each_seats_gain_less_the_mean_gain_of_the_others() -> None:
    game = GAMES["sjuan"]
    state = game.new(3, game.models.options(), Seeding(SEED), None, None)
    # a deal not over: the totals so far (all 0) less the totals before
    assert position.margins(game, [3, 0, -6], state) == [-6.0, -1.5, 7.5]
    rng = random.Random(3)
    while position.to_act(game, state):
        moves = position.legal_moves(game, state, position.to_act(game, state)[0])
        state = position.play(game, state, moves[rng.randrange(len(moves))])
    first, second, third = state.deals[-1].penalties  # penalties count against a seat
    assert position.margins(game, [0, 0, 0], state) == [
        -first + (second + third) / 2,
        -second + (first + third) / 2,
        -third + (first + second) / 2,
    ]


def test_win_shares_give_the_deal_to_its_lowest_penalty_ties_shared() -> None:
    game = GAMES["sjuan"]
    for seed in range(1, 6):
        state = game.new(3, game.models.options(), Seeding(f"{seed:064x}"), None, None)
        rng = random.Random(seed)
        while position.to_act(game, state):
            moves = position.legal_moves(game, state, position.to_act(game, state)[0])
            state = position.play(game, state, moves[rng.randrange(len(moves))])
        penalties = state.deals[-1].penalties
        lowest = [seat for seat in range(3) if penalties[seat] == min(penalties)]
        expected = [1 / len(lowest) if seat in lowest else 0.0 for seat in range(3)]
        assert position.win_shares(game, [0, 0, 0], state) == expected


def test_match_equity_of_a_race_of_single_points_at_even_odds() -> None:
    # each deal gives one point to one side or the other, even odds: to 2 points from 0-0 a side wins
    # when it takes two of the next three points (1/2); from 1-0 unless it loses the next two (3/4)
    even = deal_chances({(1, 0): 1, (0, 1): 1})
    assert match_equity(even, 2, 0, 0, True) == 0.5
    assert match_equity(even, 2, 1, 0, False) == 0.75
    assert match_equity(even, 2, 0, 1, True) == 0.25
    assert match_equity(even, 2, 1, 1, True) == 0.5


def test_match_equity_follows_the_deal_from_side_to_side() -> None:
    # the dealer's side always takes the one point: to 2, the side dealing first gets there first
    dealers = deal_chances({(1, 0): 3})
    assert match_equity(dealers, 2, 0, 0, True) == 1.0
    assert match_equity(dealers, 2, 0, 0, False) == 0.0
    # the side not dealing takes two points at once: from 1-1 the next deal decides
    others = deal_chances({(0, 2): 1})
    assert match_equity(others, 3, 1, 1, True) == 0.0
    assert match_equity(others, 3, 1, 1, False) == 1.0
    # both sides reach the target in one deal: half
    both = deal_chances({(2, 2): 1})
    assert match_equity(both, 2, 0, 0, True) == 0.5


@pytest.mark.parametrize("table", sorted(CHANCES))
def test_match_equity_of_both_sides_adds_up_to_one_and_grows_with_points(table: tuple[str, int]) -> None:
    chances = CHANCES[table]
    target = GAMES[table[0]].target  # type: ignore[attr-defined]
    for ours, theirs, dealing in itertools.product(range(target), range(target), (True, False)):
        equity = match_equity(chances, target, ours, theirs, dealing)
        assert 0 < equity < 1
        assert math.isclose(equity + match_equity(chances, target, theirs, ours, not dealing), 1)
        assert match_equity(chances, target, ours + 1, theirs, dealing) > equity
        assert match_equity(chances, target, ours, theirs + 1, dealing) < equity


@pytest.mark.parametrize(("game_id", "players"), sorted(CHANCES))
def test_equity_rewards_score_a_playout_by_what_it_did_to_the_match(game_id: str, players: int) -> None:
    game = GAMES[game_id]
    assert search.reward_of(game, players) is equity_rewards
    rules = position_rules(game)
    assert rules is not None
    chooser = position_chooser(game)
    for seed in range(1, 4):
        state = rules.position(game.new(players, game.models.options(), Seeding(f"{seed:064x}"), None, None))
        while state.phase != "match_over":  # every deal's end, then the match's
            legal = rules.position_moves(state, rules.position_to_act(state)[0])
            state = rules.position_apply(state, chooser(state, rules.position_to_act(state)[0], legal))
            rewards = equity_rewards(game, [0] * players, state)
            if state.phase == "deal_over":
                totals = rules.position_totals(state)
                dealing = (state.match.dealer + 1) % 2  # the seat (and side) of the next dealer
                chances = CHANCES[game_id, players]
                for seat in range(players):
                    rival = totals[(seat + 1) % players]
                    expected = match_equity(chances, game.target, totals[seat], rival, seat % 2 == dealing)  # type: ignore[attr-defined]
                    assert rewards[seat] == expected
                assert math.isclose(rewards[0] + rewards[1], 1)
        winners = rules.position_outcome(state).winners
        assert rewards == [float(seat in winners) for seat in range(players)]
    assert search.reward_of(GAMES["seven-up"], 3) is position.margins
    assert search.reward_of(GAMES["california-jack"], 2) is position.margins
    assert search.reward_of(GAMES["sjuan"], 2) is position.margins


def test_a_search_given_a_sampler_draws_its_states_from_it() -> None:
    # the bench's --sees-all: a sampler that answers the true state (counted here)
    game = GAMES["sjuan"]

    class TrueState:
        def __init__(self, state: Any) -> None:
            self.state, self.draws = state, 0

        def draw(self, rng: random.Random, fresh_seed: bool = True) -> Any:
            self.draws += 1
            return self.state

    for state in positions("sjuan", 4, every=5, most=20):
        seat = game.to_act(state)[0]
        moves = game.moves(state, seat)[1]
        if len(moves) < 2:
            continue
        sampler = TrueState(state)
        searched = choose(game, state, seat, BotLevel.search, 10_000, "all", iterations=40, sampler=sampler)
        assert sampler.draws > 0 and searched.iterations == 40
        assert searched.move in moves


def test_a_seeded_search_does_a_fixed_amount_of_work_whatever_the_clock_reads() -> None:
    # two clocks that never reach the deadline, one frozen, one ticking: the same work, the same move;
    # early in a seven-seat My Ship Sails deal the playouts are long, and the cap on their moves
    # (budget_ms x SEEDED_PLAYOUT_MOVES_PER_MS) stops the search before budget_ms x 2 iterations
    game = GAMES["my-ship-sails"]
    ticks = itertools.count()
    for state in positions("my-ship-sails", 7, every=7, most=15):
        seat = game.to_act(state)[0]
        moves = game.moves(state, seat)[1]
        if len(moves) < 2:
            continue
        frozen = choose(game, state, seat, BotLevel.search, 100, "work", clock=lambda: 0.0)
        ticking = choose(game, state, seat, BotLevel.search, 100, "work", clock=lambda: next(ticks) * 1e-6)
        assert (frozen.move, frozen.iterations) == (ticking.move, ticking.iterations)
        assert 0 < frozen.iterations < 100 * SEEDED_ITERATIONS_PER_MS


def test_the_search_keeps_the_heuristics_move_unless_the_paired_lead_is_clear() -> None:
    # four draws, the heuristic's move (index 0) scoring 0 in each: a move scoring 1 in each leads with
    # no spread, and is chosen
    assert _chosen([0.0, 4.0], [0.0, 4.0], 4, 0) == 1
    # scoring 2, -1, 2, -1: a mean lead of 0.5 with a sample variance of (2.5 - 0.25) x 4/3 = 3, a
    # standard error of sqrt(3/4) = 0.87: not clear, the heuristic's move stays
    assert _chosen([0.0, 2.0], [0.0, 10.0], 4, 0) == 0
    # a lead, however clear, is not trusted from fewer than two draws
    assert _chosen([0.0, 4.0], [0.0, 16.0], 1, 0) == 0


def test_a_search_without_two_full_draws_answers_the_heuristics_move() -> None:
    game = GAMES["sevens"]
    for state in positions("sevens", 4, every=3, most=30):
        seat = game.to_act(state)[0]
        moves = game.moves(state, seat)[1]
        if len(moves) < 2:
            continue
        searched = choose(game, state, seat, BotLevel.search, 10_000, "few", iterations=len(moves))
        assert searched.iterations == len(moves)
        assert searched.move == rules_move(game, state, seat, moves, random.Random(0))
        # one playout move allowed in all: the first playout makes it and more, and no other starts
        move, ran = search_move(game, state, seat, moves, random.Random(0), math.inf, None, playout_moves=1)
        assert (move, ran) == (searched.move, 1)


@pytest.mark.parametrize("game_id", ["sjuan", "fan-tan", "free-fan-tan", "domino-fan-tan", "sevens"])
def test_the_layout_heuristic_plays_the_first_of_its_best_scored_moves(game_id: str) -> None:
    # a playout asks the layout heuristic through a chooser that scores moves inline: it must answer
    # what the documented scorer ranks first (the first of equal scores, in the engine's order)
    game = GAMES[game_id]
    for players in game.table_sizes()[:2]:
        for state in positions(game_id, players, every=1, most=80):
            seats = position.to_act(game, state)
            if not seats:
                continue
            moves = position.legal_moves(game, state, seats[0])
            scorer = _layout(game, state, seats[0])
            best = max(scorer(move) for move in moves)
            first_best = next(move for move in moves if scorer(move) == best)
            assert rules_move(game, state, seats[0], moves, random.Random(0)) is first_best


@pytest.mark.parametrize(("reserve_ms", "most"), [(0, 3), (2_000, 1)])
def test_a_search_measures_its_budget_with_the_clock_it_is_given(reserve_ms: int, most: int) -> None:
    # a clock that advances a second at every reading, however fast the machine (the bench passes CPU
    # time this way): read for the deadline, before the search and before each playout, a budget of
    # five seconds allows three playouts, and a reserve of two seconds (the service keeps one to write
    # its answer) leaves one
    game = GAMES["sevens"]
    readings = itertools.count()

    def clock() -> float:
        return float(next(readings))

    for state in positions("sevens", 4, every=3, most=30):
        seat = game.to_act(state)[0]
        if len(game.moves(state, seat)[1]) < 2:
            continue
        searched = choose(game, state, seat, BotLevel.search, 5_000, None, clock=clock, reserve_ms=reserve_ms)
        assert 0 < searched.iterations <= most


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_playout_asks_the_heuristic_for_the_move_it_chooses_among_the_listed_moves(game_id: str) -> None:
    # a playout asks the heuristic without listing the moves first (My Ship Sails' reads the hand alone):
    # it must answer what the heuristic chooses among the seat's listed moves, declarations included
    game = GAMES[game_id]
    rules = position_rules(game)
    assert rules is not None
    steps = position.playout_steps(game)
    asked, chooser = playout_heuristic(game, steps), position_chooser(game)
    compared = 0
    for players in game.table_sizes()[:2]:
        for state in positions(game_id, players, every=1, most=400):
            placed = rules.position(state)
            for seat in rules.position_to_act(placed):
                listed = rules.position_moves(placed, seat)
                expected = listed[0] if len(listed) == 1 else chooser(placed, seat, listed)
                assert asked(placed, seat) == expected
                compared += 1
    assert compared > 50


@pytest.mark.parametrize(
    "game_id", ["sjuan", "fan-tan", "free-fan-tan", "domino-fan-tan", "sevens", "sedmice"]
)
def test_the_heuristic_on_positions_chooses_the_move_it_chooses_on_wire_states(game_id: str) -> None:
    # a search plays its playouts on the game's positions: the heuristic there must pick the same move
    game = GAMES[game_id]
    wire, on_positions = rules_chooser(game), position_chooser(game)
    rules = position_rules(game)
    assert rules is not None
    compared = 0
    for players in game.table_sizes()[:2]:
        for state in positions(game_id, players, every=1, most=300):
            seats, moves = game.moves(state)
            if state.phase != "play" or len(moves) < 2:
                continue
            seat = seats[0]
            placed = rules.position(state)
            codes = rules.position_moves(placed, seat)
            chosen = on_positions(placed, seat, codes)
            assert rules.wire_move(seat, chosen) == wire(state, seat, moves)
            compared += 1
    assert compared > 50


@pytest.mark.parametrize("game_id", ["seven-up", "four-handed-seven-up", "california-jack"])
def test_the_seven_up_heuristic_on_positions_chooses_the_move_it_chooses_on_wire_states(game_id: str) -> None:
    # the search's playouts run on positions from any phase: standing or begging, giving or running,
    # discarding and playing (leading, following, a partner winning), with random options
    game = GAMES[game_id]
    wire, on_positions = rules_chooser(game), position_chooser(game)
    rules = position_rules(game)
    assert rules is not None
    phases: Counter[str] = Counter()
    for players in game.table_sizes():
        for seed in range(40):
            rng = random.Random(seed)
            flags = {name: rng.random() < 0.5 for name in game.models.options.model_fields}
            state = game.new(players, game.models.options(**flags), Seeding(f"{seed:064x}"), None, None)
            while game.moves(state)[0] and len(state.deals) < 2:
                seats, moves = game.moves(state)
                if state.phase != "deal_over" and len(moves) > 1:
                    placed = rules.position(state)
                    chosen = on_positions(placed, seats[0], rules.position_moves(placed, seats[0]))
                    assert rules.wire_move(seats[0], chosen) == wire(state, seats[0], moves)
                    phases[state.phase] += 1
                state = game.apply(state, moves[rng.randrange(len(moves))])[0]
    assert phases["play"] > 200
    if game_id != "california-jack":
        assert min(phases[phase] for phase in ("stand_or_beg", "give_or_run", "discard")) > 5


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_my_ship_sails_deals_between_rules_bots_end(players: int) -> None:
    # Seats that each collect a suit nobody can complete pass the same cards round for ever unless one of
    # them gives its suit up: before the lot, 30% of four-seat deals between `rules` seats never ended.
    # The service's `rules` level plays every seat here, as a table of its bots would.
    game = GAMES["my-ship-sails"]
    exchanges = []
    for deal in range(40 if players == 4 else 15):
        state = game.new(players, game.models.options(), Seeding(f"{deal + 1:064x}"), None, deal % players)
        while state.phase == "step" and state.exchanges < 1000:
            seat = position.to_act(game, state)[0]
            state = game.apply(state, choose(game, state, seat, BotLevel.rules, 200, None).move)[0]
        assert state.phase != "step", f"deal {deal + 1} still running after 1000 exchanges"
        exchanges.append(state.deals[-1].exchanges)
    assert max(exchanges) < 1000


def test_my_ship_sails_lot_draws_one_exchange_in_ten_after_four_rounds() -> None:
    for players in (4, 7):
        for seat in range(players):
            assert all(mss_lot(seat, exchanges, players) is None for exchanges in range(4 * players))
            drawn = [mss_lot(seat, exchanges, players) for exchanges in range(4 * players, 10_000)]
            lots = [place for place in drawn if place is not None]
            assert 0.08 < len(lots) / len(drawn) < 0.12
            assert set(lots) == set(range(7))  # any card of the hand, the collected suit's too


def my_ship_sails_lot_falling() -> tuple[Any, int, int]:
    """A four-seat My Ship Sails state where a seat yet to choose passes by lot, with no hand of one suit;
    that seat and the lot's place in its hand."""
    game = GAMES["my-ship-sails"]
    state = game.new(4, game.models.options(), Seeding(SEED), None, 0)
    rng = random.Random(3)
    while True:  # random passes until some seat's lot falls at an exchange
        seats, moves = game.moves(state)
        lots = [(seat, mss_lot(seat, state.exchanges, 4)) for seat in seats]
        drawn = [(seat, place) for seat, place in lots if place is not None]
        if drawn and state.pending[drawn[0][0]] is None:
            return state, *drawn[0]
        state = game.apply(state, rng.choice(moves))[0]


def test_my_ship_sails_heuristic_passes_the_card_drawn_by_lot() -> None:
    game = GAMES["my-ship-sails"]
    state, seat, place = my_ship_sails_lot_falling()
    seat_moves = game.moves(state, seat)[1]
    chosen = rules_move(game, state, seat, seat_moves, random.Random(0))
    assert chosen.type == "pass" and chosen.card == state.hands[seat][place]
    # the search plays the drawn card too: its draws of the other hands would keep a blocked collection
    searched = choose(game, state, seat, BotLevel.search, 50, "lot")
    assert searched.move == chosen and searched.iterations == 0


def test_my_ship_sails_lot_draws_the_same_card_whatever_order_a_hand_is_posted_in() -> None:
    # the lot's place counts in canonical order (as on positions): a posted hand may list its cards in any
    game = GAMES["my-ship-sails"]
    state, seat, place = my_ship_sails_lot_falling()
    hands = [list(hand) for hand in state.hands]
    hands[seat].reverse()
    reversed_hand = game.models.state.model_validate({**state.model_dump(), "hands": hands})
    assert not game.consistency_issues(reversed_hand)
    for posted in (state, reversed_hand):
        chosen = rules_move(game, posted, seat, game.moves(posted, seat)[1], random.Random(0))
        assert chosen.card == state.hands[seat][place]


@pytest.mark.parametrize(("game_id", "players"), TABLES)
def test_whole_matches_between_rules_bots_end(game_id: str, players: int) -> None:
    # a table of the service's `rules` bots must finish its match: My Ship Sails' did not before its lot
    game = GAMES[game_id]
    rules = position_rules(game)
    assert rules is not None
    choose_on_position = position_chooser(game)
    for match in range(10):
        state = game.new(players, game.models.options(), Seeding(f"{match + 1:064x}"), None, None)
        placed = rules.position(state)
        for _ in range(20_000):
            seats = rules.position_to_act(placed)
            if not seats:
                break
            moves = rules.position_moves(placed, seats[0])
            move = moves[0] if len(moves) == 1 else choose_on_position(placed, seats[0], moves)
            placed = rules.position_apply(placed, move)
        assert not rules.position_to_act(placed), f"match {match + 1} still running after 20,000 moves"
