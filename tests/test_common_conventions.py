"""Rule tests of RULINGS.md's common conventions, for every game: the table sizes each game's ruling
names, the card notation (no jokers), the first dealer, and the dealer moving one seat left for each new
deal. The expected values are written here from RULINGS.md, not read from the engine."""

from __future__ import annotations

import random

import pytest
from starlette.testclient import TestClient

from sevens_rules.engine.registry import GAMES
from sevens_rules.engine.simulate import Simulation
from tests.seeds import seed_hex

RULED_TABLE_SIZES = {
    "sjuan": [3, 4, 5, 6, 7, 8],
    "fan-tan": [3, 4, 5, 6, 7, 8],
    "free-fan-tan": [3, 4, 5, 6, 7, 8],
    "domino-fan-tan": [2],
    "sevens": [4],
    "seven-up": [2, 3],
    "four-handed-seven-up": [4],
    "california-jack": [2],
    "my-ship-sails": [4, 5, 6, 7],
    "sedmice": [2, 4],
}
"""The players each game's section of RULINGS.md names."""

SEVEN_UP_FAMILY = ("seven-up", "four-handed-seven-up", "california-jack")
"""The games whose first dealer a cut decides (RULINGS §3) unless the request names one."""


def test_the_rulings_name_every_game() -> None:
    assert sorted(RULED_TABLE_SIZES) == sorted(GAMES)


@pytest.mark.parametrize("game", sorted(RULED_TABLE_SIZES))
def test_each_game_seats_the_players_its_ruling_names(client: TestClient, game: str) -> None:
    listed = next(entry for entry in client.get("/v1/games").json()["games"] if entry["id"] == game)
    assert listed["player_counts"] == RULED_TABLE_SIZES[game]
    for players in range(1, 10):
        response = client.post(f"/v1/games/{game}/new", json={"players": players})
        if players in RULED_TABLE_SIZES[game]:
            assert response.status_code == 200, response.text
            assert len(response.json()["state"]["hands"]) == players
        else:
            assert response.status_code == 422
            assert [error["path"] for error in response.json()["errors"]] == ["/players"]


@pytest.mark.parametrize("game", sorted(RULED_TABLE_SIZES))
@pytest.mark.parametrize("card", ["JK", "XX", "10H", "th", "1S", "AE", "A"])
def test_cards_are_rank_then_suit_and_there_are_no_jokers(client: TestClient, game: str, card: str) -> None:
    # a deck of every card of the game but its first, with something else in that card's place
    players = RULED_TABLE_SIZES[game][0]
    dealt = client.post(f"/v1/games/{game}/new", json={"players": players, "seed": seed_hex(1)})
    deck = sorted(_cards_of(dealt.json()["state"]))
    response = client.post(f"/v1/games/{game}/new", json={"players": players, "deck": [card, *deck[1:]]})
    assert response.status_code == 422
    assert response.json()["errors"][0]["path"] == "/deck/0"


def _cards_of(value: object) -> list[str]:
    """Every card written anywhere in a new match's state (its hands, stock, turned card or table)."""
    if isinstance(value, str):
        return [value] if len(value) == 2 and value[0] in "A23456789TJQK" and value[1] in "CDHS" else []
    if isinstance(value, list):
        return [card for item in value for card in _cards_of(item)]
    if isinstance(value, dict):
        return [card for key, item in value.items() if key != "cut" for card in _cards_of(item)]
    return []


@pytest.mark.parametrize("game", sorted(RULED_TABLE_SIZES))
def test_a_new_match_holds_each_card_of_its_deck_once_in_the_one_notation(
    client: TestClient, game: str
) -> None:
    players = RULED_TABLE_SIZES[game][-1]
    state = client.post(f"/v1/games/{game}/new", json={"players": players, "seed": seed_hex(2)}).json()[
        "state"
    ]
    cards = _cards_of(state)
    ranks = "789TJQKA" if game == "sedmice" else "A23456789TJQK"  # Sedmice plays 7 to A (RULINGS §5)
    assert sorted(cards) == sorted(rank + suit for rank in ranks for suit in "CDHS")


@pytest.mark.parametrize("game", sorted(set(RULED_TABLE_SIZES) - set(SEVEN_UP_FAMILY)))
def test_the_first_dealer_is_seat_0_unless_the_request_names_another(client: TestClient, game: str) -> None:
    players = RULED_TABLE_SIZES[game][-1]
    unnamed = client.post(f"/v1/games/{game}/new", json={"players": players, "seed": seed_hex(3)})
    assert unnamed.json()["state"]["dealer"] == 0
    for dealer in range(players):
        named = client.post(f"/v1/games/{game}/new", json={"players": players, "dealer": dealer})
        assert named.json()["state"]["dealer"] == dealer


@pytest.mark.parametrize("game", SEVEN_UP_FAMILY)
def test_a_named_first_dealer_deals_in_the_seven_up_family(client: TestClient, game: str) -> None:
    players = RULED_TABLE_SIZES[game][-1]
    for dealer in range(players):
        named = client.post(f"/v1/games/{game}/new", json={"players": players, "dealer": dealer})
        assert named.json()["state"]["dealer"] == dealer


def _ended_quickly(game: str) -> dict[str, object]:
    # players choosing at random may never collect a suit in My Ship Sails: its deals are bounded
    return {"max_exchanges": 3} if game == "my-ship-sails" else {}


@pytest.mark.parametrize("game", sorted(RULED_TABLE_SIZES))
def test_the_dealer_moves_one_seat_left_for_each_new_deal(game: str) -> None:
    # random matches to their end; each deal's dealer is the previous deal's plus one, mod the players,
    # except after a Seven-Up-family deal thrown in, which the same dealer deals again (RULINGS §3)
    rng = random.Random(game)
    deals_seen = 0
    for number in range(3):
        players = RULED_TABLE_SIZES[game][number % len(RULED_TABLE_SIZES[game])]
        options = GAMES[game].models.options.model_validate(_ended_quickly(game))
        sim = Simulation.new(game, players, seed_hex(100 + number), options=options)
        dealer, deal_number = sim.state.dealer, sim.state.deal_number
        for _ in range(20_000):
            moves = sim.legal_moves()
            if not moves:
                break
            thrown_in = (
                game in SEVEN_UP_FAMILY and sim.state.deals and sim.state.deals[-1].outcome == "thrown_in"
            )
            sim.apply(rng.choice(moves))
            if sim.state.deal_number != deal_number:
                assert sim.state.deal_number == deal_number + 1
                assert sim.state.dealer == (dealer if thrown_in else (dealer + 1) % players)
                dealer, deal_number = sim.state.dealer, sim.state.deal_number
                deals_seen += 1
        assert sim.finished()
    assert deals_seen >= 3
