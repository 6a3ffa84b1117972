"""Provably fair dealing: the README's shuffle specification and vectors, seeds, commitment, entropy,
the seed kept from the seats until the match is over, and verification.

The vectors are read from the README and recomputed by :func:`spec_shuffle`, written from the README's
steps with hashlib alone (it shares no code with ``engine/dealing.py``), then checked against the
service's own answers.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import re
import struct
import warnings
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette asks for httpx2, which its test client does not need yet
    from starlette.testclient import TestClient

from sevens_rules.api.app import create_app
from sevens_rules.api.limits import Settings
from sevens_rules.engine.dealing import DEAL, Seeding, shuffle_context, shuffled, uniform_below, words
from sevens_rules.engine.models import updated
from sevens_rules.engine.registry import GAMES
from sevens_rules.engine.verification import verify_deal
from sevens_rules.schema.common import Phase
from tests.largest_states import largest_sjuan_state
from tests.playout import playout
from tests.seeds import seed_hex, seeding
from tests.test_conformance import option_sets

README = Path(__file__).resolve().parents[1] / "README.md"
RANKS = "A23456789TJQK"
DECKS = {
    52: [r + s for s in "CDHS" for r in RANKS],
    32: [r + s for s in "CDHS" for r in "789TJQKA"],
}
DECK_SIZE = {"sedmice": 32}

# ---- an implementation of the README's specification, and nothing else ---------------------------------


def _u32(n: int) -> bytes:
    return struct.pack(">I", n)


def _str(text: str) -> bytes:
    data = text.encode()
    return _u32(len(data)) + data


def spec_commitment(seed_hex_: str) -> str:
    return hashlib.sha256(b"sevens-rules/v1/commitment\x00" + bytes.fromhex(seed_hex_)).hexdigest()


def spec_words(seed_hex_: str, game: str, purpose: str, deal: int, entropy: Sequence[str]) -> Iterator[int]:
    context = _str("sevens-rules/v1/shuffle") + _str(game) + _str(purpose) + _u32(deal) + _u32(len(entropy))
    context += b"".join(_str(e) for e in entropy)
    k = 0
    while True:
        block = hmac.new(bytes.fromhex(seed_hex_), _u32(k) + context, hashlib.sha256).digest()
        yield from struct.unpack(">8I", block)
        k += 1


def spec_shuffle(seed_hex_: str, game: str, purpose: str, deal: int, entropy: Sequence[str]) -> list[str]:
    deck = list(DECKS[DECK_SIZE.get(game, 52)])
    words = spec_words(seed_hex_, game, purpose, deal, entropy)
    for i in range(len(deck) - 1, 0, -1):
        w = next(words)
        while w >= 2**32 - (2**32 % (i + 1)):
            w = next(words)
        j = w % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


# ---- the published vectors ---------------------------------------------------------------------------


def readme_vectors() -> tuple[str, str, list[tuple[str, str, int, list[str], list[str]]]]:
    """The seed, commitment and (game, purpose, deal, entropy, cards) vectors of the README."""
    text = README.read_text()
    block = text.split("```text\nseed ", 1)[1].split("```", 1)[0]
    lines = ("seed " + block).replace("\n  ", " ").strip().splitlines()
    seed = lines[0].split()[1]
    commitment = lines[1].split()[1]
    vectors = []
    for line in lines[2:]:
        match = re.fullmatch(r"(\S+) (deal|cut) (\d+) (\[.*?\]): (.*)", line)
        assert match, line
        game, purpose, deal, entropy, cards = match.groups()
        vectors.append((game, purpose, int(deal), json.loads(entropy), cards.split()))
    return seed, commitment, vectors


SEED, COMMITMENT, VECTORS = readme_vectors()


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings()), raise_server_exceptions=False) as test_client:
        yield test_client


def test_the_readme_publishes_two_deals_of_two_games_and_a_cut() -> None:
    assert bytes(range(32)).hex() == SEED
    kinds = {(game, purpose, deal) for game, purpose, deal, _, _ in VECTORS}
    assert {
        ("sjuan", "deal", 1),
        ("sjuan", "deal", 2),
        ("sedmice", "deal", 1),
        ("sedmice", "deal", 2),
    } <= kinds
    assert ("seven-up", "cut", 1) in kinds
    assert any(entropy for *_, entropy, _ in VECTORS)


def test_the_vectors_follow_from_the_specification() -> None:
    assert spec_commitment(SEED) == COMMITMENT
    for game, purpose, deal, entropy, cards in VECTORS:
        assert spec_shuffle(SEED, game, purpose, deal, entropy) == cards, (game, purpose, deal)


def test_vector_values_checked_by_hand() -> None:
    # Computed outside Python: `sha256sum` of the label, a zero byte and the seed bytes; `openssl dgst
    # -sha256 -mac HMAC -macopt hexkey:SEED` of block 0's message (u32(0) then the context) for sjuan deal 1.
    assert COMMITMENT == "cb3c22e0a488bd2e9f9eecac56fb99ca01594a64884a08869d242649e09c0f6a"
    words = spec_words(SEED, "sjuan", "deal", 1, [])
    assert [next(words) for _ in range(3)] == [0x3A4D33D7, 0x0A12F635, 0x2D45486F]
    # 0x3A4D33D7 mod 52 = 27: KS (position 51) swaps with 2H (position 27), so 2H ends last; then
    # 0x0A12F635 mod 51 = 21 puts 9D at 50 and 0x2D45486F mod 50 = 47 puts 9S at 49.
    sjuan_first = next(cards for game, _, deal, _, cards in VECTORS if (game, deal) == ("sjuan", 1))
    assert sjuan_first[-3:] == ["9S", "9D", "2H"]


def test_the_engine_reproduces_every_vector(client: TestClient) -> None:
    for game, purpose, deal, entropy, cards in VECTORS:
        deck = DECKS[DECK_SIZE.get(game, 52)]
        assert shuffled(deck, SEED, game, deal, purpose, entropy) == cards
        if purpose == DEAL:
            body = {"seed": SEED, "commitment": COMMITMENT, "entropy": entropy, "players": 4}
            body |= {"deal_number": deal, "dealer": 0}
            answer = client.post(f"/v1/games/{game}/verify", json=body)
            assert answer.status_code == 200, answer.text
            assert answer.json()["deck"] == cards and answer.json()["commitment_matches"]


def test_the_seven_up_cut_comes_from_the_cut_vector(client: TestClient) -> None:
    cut = next(cards for game, purpose, *_, cards in VECTORS if (game, purpose) == ("seven-up", "cut"))
    state = client.post("/v1/games/seven-up/new", json={"players": 2, "seed": SEED}).json()["state"]
    assert state["cut"][0] == {"seats": [0, 1], "cards": cut[:2]}
    assert cut[:2] == ["KC", "3S"] and state["dealer"] == 0  # as the README says
    # the first deal is the deal vector's order for this game, not the cut pack
    assert state["commitment"] == COMMITMENT


def test_the_vector_deals_are_the_hands_new_deals(client: TestClient) -> None:
    cards = next(c for game, _, deal, entropy, c in VECTORS if (game, deal) == ("sedmice", 1))
    body = {"players": 2, "seed": SEED, "entropy": ["alice", "bob"], "dealer": 0}
    state = client.post("/v1/games/sedmice/new", json=body).json()["state"]
    order = {c: i for i, c in enumerate(DECKS[32])}
    # four cards each, one at a time from the dealer's left: seat 1 takes the 1st, 3rd, 5th and 7th
    assert state["hands"][1] == sorted(cards[0:8:2], key=order.__getitem__)
    assert state["stock"] == cards[8:]


# ---- the shuffle's properties ---------------------------------------------------------------------------


def test_fisher_yates_is_unbiased_over_many_seeds() -> None:
    # all 6 orders of 3 cards from 6,000 fixed seeds: each expected 1,000 times. A chi-square of 25 with 5
    # degrees of freedom has probability below 0.0002 for a fair shuffle; the seeds are fixed, so the
    # outcome never changes from run to run.
    counts = Counter(tuple(shuffled(["a", "b", "c"], seed_hex(n), "sjuan", 1)) for n in range(6000))
    assert len(counts) == 6
    assert sum((c - 1000) ** 2 / 1000 for c in counts.values()) < 25


def test_rejection_sampling_skips_words_above_the_last_multiple() -> None:
    # With a bound just above 2^31 about half of all words are refused; the engine must skip exactly the
    # words the specification skips.
    bound = 2**31 + 1
    spec = spec_words(SEED, "sjuan", "deal", 1, [])
    stream = words(SEED, shuffle_context("sjuan", 1, "deal", []))
    skipped = 0
    for _ in range(40):
        w = next(spec)
        while w >= 2**32 - 2**32 % bound:
            w, skipped = next(spec), skipped + 1
        assert uniform_below(stream, bound) == w % bound
    assert skipped > 0


def test_games_deals_purposes_and_entropy_give_different_streams() -> None:
    base = shuffled(DECKS[52], SEED, "sjuan", 1)
    assert shuffled(DECKS[52], SEED, "fan-tan", 1) != base
    assert shuffled(DECKS[52], SEED, "sjuan", 2) != base
    assert shuffled(DECKS[52], SEED, "sjuan", 1, "cut") != base
    assert shuffled(DECKS[52], SEED, "sjuan", 1, DEAL, ["x"]) != base
    assert shuffled(DECKS[52], SEED, "sjuan", 1, DEAL, ["x", "y"]) != shuffled(
        DECKS[52], SEED, "sjuan", 1, DEAL, ["y", "x"]
    )
    # length prefixes: moving a character between two contributions changes the stream
    assert shuffled(DECKS[52], SEED, "sjuan", 1, DEAL, ["ab", "c"]) != shuffled(
        DECKS[52], SEED, "sjuan", 1, DEAL, ["a", "bc"]
    )


def test_entropy_reaches_every_deal() -> None:
    game = GAMES["sjuan"]
    options = game.models.options()
    plain = game.new(4, options, seeding(3), None, 0)
    mixed = game.new(4, options, seeding(3, ["seat 2 says hi"]), None, 0)
    assert plain.hands != mixed.hands and mixed.entropy == ["seat 2 says hi"]
    assert mixed.commitment == plain.commitment  # the commitment is to the seed alone
    # the second deal (seat 1 deals next) with and without the entropy
    second = game.models.move.model_validate({"type": "next_deal", "player": 1}, strict=False)
    over = updated(mixed, phase=Phase.deal_over, turn=None)
    after, _ = game.apply(over, second)
    without, _ = game.apply(updated(over, entropy=[]), second)
    assert after.deal_number == without.deal_number == 2 and after.hands != without.hands


# ---- seeds on the wire ------------------------------------------------------------------------------


def test_two_seedless_new_calls_deal_differently_with_full_size_seeds(client: TestClient) -> None:
    states = [client.post("/v1/games/sjuan/new", json={"players": 4}).json()["state"] for _ in range(2)]
    assert states[0]["seed"] != states[1]["seed"] and states[0]["hands"] != states[1]["hands"]
    for state in states:
        assert re.fullmatch("[0-9a-f]{64}", state["seed"])  # 256 bits
        assert state["commitment"] == spec_commitment(state["seed"])


def test_an_explicit_seed_reproduces_the_match_byte_for_byte(client: TestClient) -> None:
    body = {"players": 5, "seed": SEED, "entropy": ["a", "b"]}
    first = client.post("/v1/games/fan-tan/new", json=body)
    assert (
        first.status_code == 200 and client.post("/v1/games/fan-tan/new", json=body).content == first.content
    )


def test_the_seed_operation_gives_a_fresh_seed_and_its_commitment(client: TestClient) -> None:
    answers = [client.post("/v1/games/sjuan/seed", json={}).json() for _ in range(2)]
    assert answers[0]["seed"] != answers[1]["seed"]
    for answer in answers:
        assert set(answer) == {"seed", "commitment"}
        assert answer["commitment"] == spec_commitment(answer["seed"])
    query = "{ sjuanSeed { __typename ... on SjuanSeedResponse { seed commitment } } }"
    fresh = client.post("/graphql", json={"query": query}).json()["data"]["sjuanSeed"]
    assert fresh["__typename"] == "SjuanSeedResponse" and fresh["commitment"] == spec_commitment(
        fresh["seed"]
    )


def test_a_state_whose_commitment_is_not_its_seeds_is_inconsistent(client: TestClient) -> None:
    state = client.post("/v1/games/sjuan/new", json={"players": 4}).json()["state"]
    forged = {**state, "seed": seed_hex(1)}
    answer = client.post("/v1/games/sjuan/moves", json={"state": forged})
    assert answer.status_code == 422 and answer.json()["code"] == "state/inconsistent"
    assert [e["path"] for e in answer.json()["errors"]] == ["/state/commitment"]
    assert seed_hex(1) not in answer.text and state["seed"] not in answer.text


# ---- what a seat sees --------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", list(GAMES))
def test_no_view_shows_the_seed_before_the_match_is_over_and_all_do_after(game_id: str) -> None:
    game = GAMES[game_id]
    players = game.table_sizes()[0]
    last: Any = None
    for index, (state, move) in enumerate(playout(game, players, 7, option_sets(game)[0])):
        over = move is None
        if index % 3 and not over:
            continue  # every third state and the last one keep the test fast
        assert state.commitment == spec_commitment(state.seed)
        for seat in range(players):
            view = game.view(state, seat)
            assert view.commitment == state.commitment
            assert (state.seed in view.model_dump_json()) is over, (game_id, seat, over)
        assert (game.revealed_seed(state) == state.seed) is over
        assert state.seed not in game.score(state).model_dump_json()  # the seed sits beside the score
        if move is not None:
            _, events = game.apply(state, move)
            assert all(state.seed not in e.model_dump_json() for e in events)
        last = state
    assert last is not None and game.view(last, 0).seed == last.seed


def test_graphql_views_follow_the_same_rule(client: TestClient) -> None:
    state = client.post("/v1/games/sjuan/new", json={"players": 3, "entropy": ["e"]}).json()["state"]
    query = """query($s: SjuanStateInput!) { sjuanView(state: $s, player: 1) {
      ... on SjuanViewResponse { commitment entropy seed } } }"""
    view = client.post("/graphql", json={"query": query, "variables": {"s": state}}).json()["data"][
        "sjuanView"
    ]
    assert view == {"commitment": state["commitment"], "entropy": ["e"], "seed": None}


# ---- verification ------------------------------------------------------------------------------------


def test_verify_recomputes_every_deal_of_a_played_match() -> None:
    game = GAMES["sevens"]
    entropy = ("north", "east", "south", "west")
    state = game.new(4, game.models.options(), seeding(77, entropy), None, None)
    dealt = {state.deal_number: (state.dealer, state.hands)}
    # play the match out with random legal moves, remembering each deal's first hands and dealer
    rng = random.Random(5)
    while True:
        seats, moves = game.moves(state)
        if not seats:
            break
        before = state.deal_number
        state, _ = game.apply(state, rng.choice(moves))
        if state.deal_number != before:
            dealt[state.deal_number] = (state.dealer, state.hands)
    assert len(dealt) >= 2 and game.revealed_seed(state) == state.seed
    for number, (dealer, hands) in dealt.items():
        check = verify_deal(
            "sevens", 4, state.seed, state.commitment, state.entropy, number, dealer if number > 1 else None
        )
        assert check.commitment_matches and check.dealer == dealer and check.hands == hands, number


def test_verify_reports_a_wrong_commitment_and_needs_the_dealer_of_later_deals(client: TestClient) -> None:
    body = {"seed": SEED, "commitment": "0" * 64, "players": 3}
    answer = client.post("/v1/games/sjuan/verify", json=body).json()
    assert answer["commitment_matches"] is False and answer["commitment"] == COMMITMENT
    problem = client.post("/v1/games/sjuan/verify", json={**body, "deal_number": 2})
    assert problem.status_code == 422 and problem.json()["code"] == "request/invalid"
    assert [e["path"] for e in problem.json()["errors"]] == ["/dealer"]
    query = """query($seed: String!, $c: String!) { sjuanVerify(seed: $seed, commitment: $c, players: 3) {
      ... on SjuanVerifyResponse { commitment_matches commitment deal_number dealer deck hands } } }"""
    variables = {"seed": SEED, "c": COMMITMENT}
    data = client.post("/graphql", json={"query": query, "variables": variables}).json()["data"][
        "sjuanVerify"
    ]
    rest = client.post("/v1/games/sjuan/verify", json={**body, "commitment": COMMITMENT}).json()
    assert data == rest and data["commitment_matches"] is True


def test_verify_refuses_a_deal_no_match_reaches(client: TestClient) -> None:
    body = {"seed": SEED, "commitment": COMMITMENT, "dealer": 0}
    # (game, players, options, the last deal a match with them reaches)
    cases = [
        ("sevens", 4, {}, 5),  # the text's five deals
        ("sevens", 4, {"deals": 7}, 7),
        ("sedmice", 2, {"target_hits": 1}, 1),  # one deal decides a match to one hit
        ("sedmice", 4, {}, 9),  # to five hits: four each after eight deals, the ninth decides
        ("my-ship-sails", 4, {}, 5),
        ("california-jack", 2, {}, 100),  # the service's deal cap (thrown-in deals are unbounded)
    ]
    # the Sjuan family: the slowest match leaves one card with every loser (tests/largest_states.py
    # plays it deal by deal to the last finished deal before a total can reach 100); one deal follows
    for game, players in [("sjuan", 3), ("fan-tan", 4), ("free-fan-tan", 8), ("domino-fan-tan", 2)]:
        slowest = largest_sjuan_state(game, players)
        cases.append((game, players, {}, len(slowest["deals"]) + 1))
    assert [last for game, _, _, last in cases if game == "sjuan"] == [149]  # (148 deals of 2 cards: 296)
    for game, players, options, last in cases:
        request = {**body, "players": players, "options": options}
        reached = client.post(f"/v1/games/{game}/verify", json={**request, "deal_number": last})
        assert reached.status_code == 200 and reached.json()["deal_number"] == last, (game, options)
        beyond = client.post(f"/v1/games/{game}/verify", json={**request, "deal_number": last + 1})
        assert beyond.status_code == 422 and beyond.json()["code"] == "request/invalid", (game, options)
        assert [e["path"] for e in beyond.json()["errors"]] == ["/deal_number"], (game, options)
    query = """query($seed: String!, $c: String!) {
      sevensVerify(seed: $seed, commitment: $c, players: 4, deal_number: 6, dealer: 0) {
        ... on SevensProblem { code errors { path } } } }"""
    answer = client.post("/graphql", json={"query": query, "variables": {"seed": SEED, "c": COMMITMENT}})
    assert answer.json()["data"]["sevensVerify"] == {
        "code": "request/invalid",
        "errors": [{"path": "/deal_number"}],
    }


def test_verify_of_the_first_deal_matches_new_for_every_game(client: TestClient) -> None:
    for game_id, game in GAMES.items():
        players = game.table_sizes()[-1]
        body = {"players": players, "seed": SEED, "entropy": ["x"]}
        state = client.post(f"/v1/games/{game_id}/new", json=body).json()["state"]
        check = client.post(f"/v1/games/{game_id}/verify", json={**body, "commitment": COMMITMENT}).json()
        assert check["hands"] == state["hands"] and check["dealer"] == state["dealer"], game_id
        assert sorted(check["deck"]) == sorted(game.deck)
        assert Seeding(SEED, ("x",)).shuffled(game.deck, game_id, 1) == check["deck"]


def test_a_seeding_never_prints_its_seed() -> None:
    assert SEED not in repr(Seeding(SEED, ("x",))) and SEED not in str(Seeding(SEED))
