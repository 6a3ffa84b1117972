"""Matches dealt from patterned decks: every listed move is accepted, and so is every bot's answer.

A seeded shuffle almost never deals the extreme hands a client can ask for with an explicit deck (a
pack sorted by suit or by rank, reversed, suits in blocks, a sorted head): one seat holding a whole
suit, every turned card a trump, the 7s in one hand. Matches of every game and option variant are dealt
so, at ``new`` and at most ``next_deal`` moves, then played with random legal moves. At each step every
listed move (a few, when there are many) is applied to the state and accepted; every few steps the
``random`` and ``rules`` bots answer for a seat to act and their moves are accepted, and a sample of that
seat's information is a state the service accepts, showing that seat what the true state shows it.

``RULES_FUZZ_PROFILE=long`` plays more matches, further (README, "Conformance suite").
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from typing import Any

import pytest

from sevens_rules.api.app import create_app
from sevens_rules.api.limits import Settings
from sevens_rules.api.operations import games_response
from sevens_rules.conformance.playthroughs import option_variants
from sevens_rules.conformance.transport import AsgiTransport

PROFILES = {"bounded": {"matches": 1, "moves": 60}, "long": {"matches": 6, "moves": 2000}}
PROFILE = PROFILES[os.environ.get("RULES_FUZZ_PROFILE", "bounded")]
HTTP = AsgiTransport(create_app(Settings()))
GAMES = games_response().model_dump(mode="json")["games"]
LISTED_TRIED = 6
"""Listed moves applied at each step (all of them when there are no more)."""
BOTS_EVERY = 5
"""Steps between two rounds of bot answers and samples."""
SEED_FIELDS = frozenset({"commitment", "seed", "cut"})
"""View fields a sample draws afresh (a sampled state has its own seed, and so its own cut)."""


def suits_then_ranks(ranks: str, rng: random.Random) -> list[str]:
    return [rank + suit for suit in "CDHS" for rank in ranks]


def ranks_then_suits(ranks: str, rng: random.Random) -> list[str]:
    return [rank + suit for rank in ranks for suit in "CDHS"]


def reversed_by_suit(ranks: str, rng: random.Random) -> list[str]:
    return suits_then_ranks(ranks, rng)[::-1]


def reversed_by_rank(ranks: str, rng: random.Random) -> list[str]:
    return ranks_then_suits(ranks, rng)[::-1]


def suit_blocks(ranks: str, rng: random.Random) -> list[str]:
    """Each suit in one block, the blocks in a random order, each up or down."""
    blocks = [ranks if rng.random() < 0.5 else ranks[::-1] for _ in range(4)]
    return [rank + suit for suit, block in zip(rng.sample("CDHS", 4), blocks, strict=True) for rank in block]


def sorted_head(ranks: str, rng: random.Random) -> list[str]:
    """A shuffled pack whose first cards, as many as chance says, are sorted by name."""
    cards = suits_then_ranks(ranks, rng)
    rng.shuffle(cards)
    cut = rng.randrange(len(cards))
    return sorted(cards[:cut]) + cards[cut:]


PATTERNS: dict[str, Callable[[str, random.Random], list[str]]] = {
    "suits then ranks": suits_then_ranks,
    "ranks then suits": ranks_then_suits,
    "reversed by suit": reversed_by_suit,
    "reversed by rank": reversed_by_rank,
    "suit blocks": suit_blocks,
    "sorted head": sorted_head,
}


def answered(game_id: str, operation: str, body: dict[str, Any]) -> Any:
    """The answer to a request the service must accept."""
    status, answer = HTTP.post(f"/v1/games/{game_id}/{operation}", body)
    assert status == 200, (operation, status, answer, body)
    return answer


def seat_view(game_id: str, state: dict[str, Any], seat: int) -> dict[str, Any]:
    view = answered(game_id, "view", {"state": state, "player": seat})
    return {key: value for key, value in view.items() if key not in SEED_FIELDS}


@pytest.mark.parametrize("game", GAMES, ids=[game["id"] for game in GAMES])
@pytest.mark.parametrize("pattern", PATTERNS)
def test_every_listed_move_and_bot_answer_of_a_patterned_deal_is_accepted(
    game: dict[str, Any], pattern: str
) -> None:
    game_id = game["id"]
    ranks = "789TJQKA" if game_id == "sedmice" else "A23456789TJQK"
    rng = random.Random(f"{game_id} {pattern}")
    variants = option_variants(game)
    for match in range(PROFILE["matches"]):
        players = rng.choice(game["player_counts"])
        body = {
            "players": players,
            "seed": f"{rng.getrandbits(256):064x}",
            "options": variants[match % len(variants)],
            "deck": PATTERNS[pattern](ranks, rng),
            "dealer": rng.randrange(players),
        }
        state = answered(game_id, "new", body)["state"]
        for step in range(PROFILE["moves"]):
            listed = answered(game_id, "moves", {"state": state})
            moves = listed["moves"]
            if not moves:
                break
            tried = moves if len(moves) <= LISTED_TRIED else rng.sample(moves, LISTED_TRIED)
            for move in tried:
                answered(game_id, "apply", {"state": state, "move": move})
            if step % BOTS_EVERY == 0:
                seat = rng.choice(listed["to_act"])
                for level in ("random", "rules"):
                    bot = {"state": state, "player": seat, "level": level, "bot_seed": str(step)}
                    move = answered(game_id, "bot", bot)["move"]
                    answered(game_id, "apply", {"state": state, "move": move})
                sampled = answered(game_id, "sample", {"state": state, "player": seat, "sample_seed": "s"})
                for other in sampled["states"]:
                    answered(game_id, "moves", {"state": other})
                    assert seat_view(game_id, other, seat) == seat_view(game_id, state, seat)
            move = rng.choice(moves)
            if move["type"] == "next_deal":
                move = {**move, "deck": PATTERNS[pattern](ranks, rng)}
            state = answered(game_id, "apply", {"state": state, "move": move})["state"]
