"""Semantic mutations of states met deep in matches, posted to every plain endpoint: never a 5xx.

A match of each game is played with random legal moves (every option variant in turn); every few moves,
and wherever the phase changes, the state is changed the way a careless or hostile client changes one,
keeping it well typed: a card moved or swapped between two places, a counter or seat number shifted,
the phase replaced, an entry dropped, a field emptied, a deal record repeated. The changed state goes to
``moves``, ``view``, ``score``, ``apply`` (with a move listed for the true state), ``sample`` and ``bot``
(each level in turn): each answers 200 or a 4xx problem with a code, never a 5xx; ``sample`` answers the
true state. A state the mutation leaves consistent is answered like any other (``sample`` and ``bot``
included), which is where a rule the checks miss shows; and the state ``apply`` answers for it is accepted
back.

``RULES_FUZZ_PROFILE=long`` plays more matches, further (README, "Conformance suite").
"""

from __future__ import annotations

import copy
import os
import random
from collections.abc import Iterator
from typing import Any

import pytest

from sevens_rules.api.app import create_app
from sevens_rules.api.limits import Settings
from sevens_rules.api.operations import games_response
from sevens_rules.conformance.playthroughs import option_variants
from sevens_rules.conformance.transport import AsgiTransport

PROFILES = {"bounded": {"matches": 1, "moves": 400}, "long": {"matches": 20, "moves": 3000}}
PROFILE = PROFILES[os.environ.get("RULES_FUZZ_PROFILE", "bounded")]
HTTP = AsgiTransport(create_app(Settings()))
GAMES = games_response().model_dump(mode="json")["games"]
CARDS = frozenset(rank + suit for suit in "CDHS" for rank in "A23456789TJQK")
MUTATE_EVERY = 7
"""Moves between two mutations."""
LEVELS = ("random", "rules", "search")


def card_lists(node: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    """The paths of every non-empty list of card names in a JSON value."""
    if isinstance(node, list) and node and all(isinstance(item, str) and item in CARDS for item in node):
        yield path
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        yield from card_lists(value, (*path, key))


def at(node: Any, path: tuple[str | int, ...]) -> Any:
    for key in path:
        node = node[key]
    return node


def mutated(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """``state`` changed in one place, still well typed."""
    changed = copy.deepcopy(state)
    piles = [path for path in card_lists(changed) if path[0] not in ("cut", "deals", "options")]
    counters = [key for key, value in changed.items() if type(value) is int]
    kind = rng.choice(("move a card", "swap cards", "counter", "phase", "drop", "empty", "repeat a deal"))
    if kind in ("move a card", "swap cards") and len(piles) >= 2:
        source, target = (at(changed, path) for path in rng.sample(piles, 2))
        if kind == "move a card":
            target.insert(rng.randrange(len(target) + 1), source.pop(rng.randrange(len(source))))
        else:
            i, j = rng.randrange(len(source)), rng.randrange(len(target))
            source[i], target[j] = target[j], source[i]
    elif kind == "counter" and counters:
        key = rng.choice(counters)
        changed[key] = rng.choice((changed[key] + 1, changed[key] - 1, 0, changed[key] + 7))
    elif kind == "phase" and "phase" in changed:
        phases = ("play", "deal_over", "match_over", "step", "stand_or_beg", "give_or_run", "discard")
        changed["phase"] = rng.choice(phases)
    elif kind == "drop":
        lists = [key for key, value in changed.items() if isinstance(value, list) and value]
        if lists:
            entries = changed[rng.choice(lists)]
            entries.pop(rng.randrange(len(entries)))
    elif kind == "empty":
        key = rng.choice(sorted(changed))
        changed[key] = [] if isinstance(changed[key], list) else None
    elif kind == "repeat a deal" and changed.get("deals"):
        changed["deals"].append(copy.deepcopy(changed["deals"][-1]))
    return changed


def answered(game_id: str, operation: str, body: dict[str, Any]) -> tuple[int, Any]:
    """The service's answer, which is a 200 or a 4xx problem with a code."""
    status, answer = HTTP.post(f"/v1/games/{game_id}/{operation}", body)
    assert status < 500, (operation, status, answer, body)
    if status != 200:
        assert 400 <= status < 500 and "/" in answer["code"], (operation, status, answer)
    return status, answer


@pytest.mark.parametrize("game", GAMES, ids=[game["id"] for game in GAMES])
def test_mutated_states_are_answered_or_refused_never_a_server_error(game: dict[str, Any]) -> None:
    game_id = game["id"]
    rng = random.Random(game_id)
    variants = option_variants(game)
    for match in range(PROFILE["matches"] * len(variants)):
        players = rng.choice(game["player_counts"])
        body = {
            "players": players,
            "seed": f"{rng.getrandbits(256):064x}",
            "options": variants[match % len(variants)],
        }
        state = answered(game_id, "new", body)[1]["state"]
        phase = None
        for step in range(PROFILE["moves"]):
            moves = answered(game_id, "moves", {"state": state})[1]["moves"]
            if not moves:
                break
            # every few moves, and wherever the phase changes (a deal's start and end are where most rules
            # about turns and hands meet)
            if step % MUTATE_EVERY == 0 or state.get("phase") != phase:
                seat = rng.randrange(players)
                assert answered(game_id, "sample", {"state": state, "player": seat})[0] == 200
                changed = mutated(state, rng)
                answered(game_id, "moves", {"state": changed})
                answered(game_id, "view", {"state": changed, "player": seat})
                answered(game_id, "score", {"state": changed})
                status, applied = answered(game_id, "apply", {"state": changed, "move": rng.choice(moves)})
                if status == 200:  # every state the service answers is accepted back (README, "The contract")
                    assert answered(game_id, "moves", {"state": applied["state"]})[0] == 200, changed
                answered(game_id, "sample", {"state": changed, "player": seat, "count": 2})
                level = LEVELS[step // MUTATE_EVERY % len(LEVELS)]
                answered(game_id, "bot", {"state": changed, "player": seat, "level": level, "budget_ms": 5})
            phase = state.get("phase")
            state = answered(game_id, "apply", {"state": state, "move": rng.choice(moves)})[1]["state"]
