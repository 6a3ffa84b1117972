"""Every game's engine answers compared step by step between two checkouts:
``python -m bench.lockstep_all GAME FIRST COUNT [STEPS]``.

Plays the seeded random matches of ``GAME`` numbered ``FIRST`` to ``FIRST + COUNT - 1`` through the
engine's public API (``new_match``, ``check``, ``moves``, ``apply``, ``view``, ``score``,
``event_for_seat``), at most ``STEPS`` moves each (default 3,000), and prints per match its number, its
steps and a SHA-256 of everything the engine answered. It reads only what every game offers, so it runs
for any game of the registry; :mod:`bench.lockstep` (Sevens, the Seven-Up family) and
:mod:`bench.lockstep_mss` (My Ship Sails) try more of their own games' odd moves and the REST answers.
Run it with two checkouts' venvs, from a directory where ``bench`` is not importable, and compare::

    (cd /tmp && /path/to/one/.venv/bin/python /path/to/bench/lockstep_all.py sjuan 0 12 > one.txt)
    (cd /tmp && /path/to/other/.venv/bin/python /path/to/bench/lockstep_all.py sjuan 0 12 > other.txt)
    diff one.txt other.txt

Each match draws a table size, its boolean options, a seed, entropy and a first dealer. At every step the
digest takes in the seats to act and their moves, every seat's moves (and those of the seats -1 and
``players``, which do not exist: their errors), some seats' views, the score, a legal move given to
another seat (its state or its error), the move applied (sometimes after a JSON round trip), its events
and each seat's view of them. Some states are posted again after a JSON round trip and checked, and some
corrupted copies (a card moved or doubled, another seat to act) are checked: the errors go in.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

from sevens_rules.engine.dealing import Seeding
from sevens_rules.engine.errors import RulesError
from sevens_rules.engine.registry import GAMES


def error_text(error: RulesError) -> str:
    """Everything a caller reads of an engine error: its type, message, issues and legal moves."""
    issues = [(issue.path, issue.message) for issue in getattr(error, "issues", [])]
    legal = [move.model_dump_json() for move in getattr(error, "legal_moves", None) or []]
    return f"{type(error).__name__}:{error}:{issues}:{legal}"


def corrupted(state: Any, players: int, rng: random.Random) -> dict[str, Any]:
    """``state`` as JSON with a card moved to another hand (sometimes also doubled) and a seat to act
    drawn anew."""
    data: dict[str, Any] = json.loads(state.model_dump_json())
    hands = data.get("hands") or []
    if len(hands) > 1 and hands[0]:
        card = hands[0].pop(rng.randrange(len(hands[0])))
        hands[rng.randrange(len(hands))].append(card)
        if rng.random() < 0.3:
            hands[-1].append(card)
    data["turn"] = rng.choice([data.get("turn"), 0, players - 1, None])
    return data


def play(game_id: str, number: int, steps: int) -> tuple[int, str]:
    """Match ``number`` of ``game_id``: the moves applied and the digest of every answer."""
    game: Any = GAMES[game_id]
    rng = random.Random(f"{game_id}-{number}")
    digest = hashlib.sha256()

    def put(value: object) -> None:
        digest.update(str(value).encode())
        digest.update(b"\0")

    players = rng.choice(list(game.table_sizes()))
    flags = {
        name: rng.random() < 0.5
        for name, field in game.models.options.model_fields.items()
        if field.annotation is bool
    }
    seed = f"{rng.getrandbits(256):064x}"
    entropy = tuple(f"{rng.getrandbits(64):016x}" for _ in range(rng.randrange(3)))
    dealer = rng.choice([None, *range(players)])
    options = game.models.options(**flags)
    state, events = game.new_match(players, options, Seeding(seed, entropy), None, dealer)
    put([event.model_dump_json() for event in events])
    put(state.model_dump_json())
    applied = 0
    while applied < steps:
        if rng.random() < 0.3:  # the state posted again
            state = type(state).model_validate_json(state.model_dump_json())
            game.check(state)
        if rng.random() < 0.1:  # a corrupted copy: what its check answers
            try:
                game.check(type(state).model_validate(corrupted(state, players, rng)))
                put("consistent")
            except RulesError as error:
                put(error_text(error))
            except ValueError as error:  # refused by the schema
                put(type(error).__name__)
        seats, legal = game.moves(state)
        put(seats)
        put([move.model_dump_json() for move in legal])
        for seat in range(-1, players + 1):
            try:
                put([move.model_dump_json() for move in game.moves(state, seat)[1]])
            except RulesError as error:
                put(error_text(error))
            if 0 <= seat < players and rng.random() < 0.3:
                put(game.view(state, seat).model_dump_json())
        put(game.score(state).model_dump_json())
        if not legal:
            break
        odd = rng.choice(legal).model_copy(update={"player": rng.randrange(-1, players + 1)})
        try:
            after, odd_events = game.apply(state, odd)
            put(after.model_dump_json())
            put([event.model_dump_json() for event in odd_events])
        except RulesError as error:
            put(error_text(error))
        move = rng.choice(legal)
        if rng.random() < 0.3:
            move = type(move).model_validate_json(move.model_dump_json())
        state, events = game.apply(state, move)
        applied += 1
        put(state.model_dump_json())
        put([event.model_dump_json() for event in events])
        for seat in range(players):
            shown = [game.event_for_seat(event, seat) for event in events]
            put([None if event is None else event.model_dump_json() for event in shown])
    return applied, digest.hexdigest()[:16]


def main(arguments: list[str]) -> None:
    """``GAME FIRST COUNT [STEPS]``: one line per match."""
    game_id, first, count = arguments[0], int(arguments[1]), int(arguments[2])
    steps = int(arguments[3]) if len(arguments) > 3 else 3000
    for number in range(first, first + count):
        applied, digest = play(game_id, number, steps)
        print(number, applied, digest)


if __name__ == "__main__":
    main(sys.argv[1:])
