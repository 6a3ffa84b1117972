"""Two checkouts' Sevens answers compared step by step: ``python -m bench.lockstep FIRST COUNT``.

Plays the seeded random Sevens matches numbered ``FIRST`` to ``FIRST + COUNT - 1`` through the wire API
and prints, per match, its number, its steps and a SHA-256 of everything the engine answered on the way.
Run it with two checkouts' venvs and compare the outputs: equal lines mean equal answers. The file needs
nothing of ``bench``, so a checkout without it runs this copy with its own python (which imports that
checkout's ``sevens_rules``)::

    .venv/bin/python -m bench.lockstep 0 300 > mine.txt
    (cd /tmp && /path/to/other/.venv/bin/python /path/to/this/bench/lockstep.py 0 300 > other.txt)
    diff other.txt mine.txt

A match is dealt with a random seed, entropy, match length, first dealer and sometimes an exact deck. At
every step some states are posted again (a JSON round trip, some with a hand shuffled out of canonical
order) and some are posted with something wrong (the checks' answer goes in), and the digest takes in
the seats to act, every seat's moves (and ``moves`` of seats not at the table), views, the score and
outcome, odd and illegal moves tried (their new states or errors, with the legal moves an error lists),
the applied move's state and events and each seat's events, and now and then the REST operations'
answers to the posted JSON. Models are digested as JSON twice: whole, and with only the fields set. What
the matches met (event types, joins, errors, inconsistent states) goes to stderr.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections import Counter
from typing import Any

from pydantic import BaseModel, ValidationError

from sevens_rules.api.operations import all_operations
from sevens_rules.api.problems import from_rules_error
from sevens_rules.engine.cards import FULL_DECK
from sevens_rules.engine.dealing import Seeding
from sevens_rules.engine.errors import RulesError
from sevens_rules.engine.registry import GAMES
from sevens_rules.schema.sevens import SevensMove, SevensMoveType, SevensOptions, SevensState

GAME: Any = GAMES["sevens"]
OPERATIONS = {op.name: op for op in all_operations() if op.game.id == "sevens" and not op.sealed}
SEEN: Counter[str] = Counter()
"""What the matches met (event types, joins, errors, shuffled hands), printed to stderr at the end."""


def dumped(model: BaseModel) -> str:
    """A model's JSON, whole and with only the fields set."""
    return model.model_dump_json() + "|" + model.model_dump_json(exclude_unset=True)


def error_text(error: RulesError) -> str:
    """Everything a caller reads of an engine error."""
    legal = getattr(error, "legal_moves", None)
    issues = [(list(issue.path), issue.message) for issue in error.issues]
    listed = None if legal is None else [dumped(move) for move in legal]
    return json.dumps([type(error).__name__, error.detail, issues, error.argument, listed])


def operation_answer(name: str, body: str) -> str:
    """The REST operation's answer to a JSON body (its problem for an engine error)."""
    operation = OPERATIONS[name]
    try:
        request = operation.request.model_validate_json(body)
    except ValidationError as error:
        return "invalid " + json.dumps(error.errors(include_url=False), default=str)
    try:
        return dumped(operation.run(request))
    except RulesError as error:
        return dumped(from_rules_error(error, operation.problem))


def odd_moves(
    rng: random.Random, state: SevensState, to_act: list[int], moves: list[Any]
) -> list[SevensMove]:
    """Moves to try besides the listed ones: other seats', cards not held or not playable, a pass naming a
    card, ``next_deal`` with and without a deck, a listed play naming a deck, a listed move posted again."""
    tries = []
    for _ in range(3):
        seat = rng.choice([0, 1, 2, 3, rng.choice(to_act) if to_act else 0])
        kind = SevensMoveType(rng.choice(["play", "pass", "next_deal"]))
        if kind is SevensMoveType.play:
            card = rng.choice([*state.hands[seat], *rng.sample(FULL_DECK, 3)])
            tries.append(SevensMove(type=kind, player=seat, card=card))
        elif kind is SevensMoveType.next_deal:
            tries.append(SevensMove(type=kind, player=seat, deck=rng.choice([None, list(FULL_DECK)])))
        else:
            tries.append(SevensMove(type=kind, player=seat, card=rng.choice([None, None, "7H"])))
    if moves:
        listed = rng.choice(moves)
        if listed.type is SevensMoveType.play:
            tries.append(
                SevensMove(type=listed.type, player=listed.player, card=listed.card, deck=list(FULL_DECK))
            )
        tries.append(SevensMove.model_validate_json(listed.model_dump_json()))
    return tries


def posted_again(rng: random.Random, state: SevensState) -> SevensState:
    """``state``, or sometimes the state a client posts again: a JSON round trip, now and then with one
    hand shuffled out of canonical order."""
    roll = rng.random()
    if roll < 0.15:
        return SevensState.model_validate_json(state.model_dump_json())
    if roll < 0.18:
        data = json.loads(state.model_dump_json())
        rng.shuffle(data["hands"][rng.randrange(4)])
        SEEN["shuffled hand"] += 1
        return SevensState.model_validate_json(json.dumps(data))
    return state


def corrupted(rng: random.Random, state: SevensState) -> str:
    """The JSON of ``state`` with one or two things wrong (a card moved, repeated, lost or swapped, a row
    relabelled or reversed, counts, seats, phase or a deal record changed): what the checks are given."""
    data = json.loads(state.model_dump_json())
    hands, rows = data["hands"], data["table"]
    for _ in range(rng.choice([1, 1, 2])):
        kind = rng.randrange(11)
        seat, row = rng.randrange(4), rows[rng.randrange(4)]
        held = [hand for hand in hands if hand]
        if kind == 0 and held:  # a card from a hand to a row
            hand = rng.choice(held)
            row[rng.choice(["run", "laid"])].append(hand.pop(rng.randrange(len(hand))))
        elif kind == 1 and held:  # a card twice
            hands[seat].append(rng.choice(rng.choice(held)))
        elif kind == 2 and held:  # a card lost
            hand = rng.choice(held)
            hand.pop(rng.randrange(len(hand)))
        elif kind == 3 and held:  # a hand's card and a run's card swapped
            hand = rng.choice(held)
            i, j = rng.randrange(len(hand)), rng.randrange(len(row["run"]))
            hand[i], row["run"][j] = row["run"][j], hand[i]
        elif kind == 4:
            row["suit"] = rng.choice("CDHS")
        elif kind == 5:
            row["run"].reverse()
        elif kind == 6:
            data["passes"][seat] = rng.randrange(4)
        elif kind == 7:
            data[rng.choice(["out", "bust"])].append(seat)
        elif kind == 8:
            data["turn"] = rng.choice([None, 0, 1, 2, 3])
        elif kind == 9:
            data["phase"] = rng.choice(["play", "deal_over", "match_over"])
        elif data["deals"]:
            deal = rng.choice(data["deals"])
            deal[rng.choice(["points", "places"])][rng.randrange(4)] = rng.randrange(5)
        elif row["laid"] or row["run"]:  # a laid card into the run, or a run card laid
            source, target = ("laid", "run") if row["laid"] else ("run", "laid")
            row[target].append(row[source].pop())
    return json.dumps(data)


def check_answer(posted: str) -> str:
    """What the checks answer a posted state: the schema's refusal, the inconsistencies, or none."""
    try:
        state = SevensState.model_validate_json(posted)
    except ValidationError as error:
        return "invalid " + json.dumps(error.errors(include_url=False), default=str)
    try:
        GAME.check(state)
    except RulesError as error:
        SEEN["inconsistent"] += 1
        return error_text(error)
    return "consistent"


def play_match(number: int) -> tuple[int, str]:
    """Match ``number`` played to its end: its steps and the digest of every answer."""
    rng = random.Random(number)
    digest = hashlib.sha256()

    def note(*parts: object) -> None:
        digest.update(repr(parts).encode())

    seeding = Seeding(
        f"{rng.getrandbits(256):064x}", tuple(f"e{rng.randrange(100)}" for _ in range(rng.randrange(3)))
    )
    options = SevensOptions(deals=rng.choice([1, 2, 3, 5, 5, 5, 7]))
    deck = rng.sample(FULL_DECK, 52) if rng.random() < 0.3 else None
    state, events = GAME.new_match(4, options, seeding, deck, rng.choice([None, 0, 1, 2, 3]))
    note("new", dumped(state), [dumped(event) for event in events])
    steps = 0
    while True:
        steps += 1
        if rng.random() < 0.2:
            note("corrupted", check_answer(corrupted(rng, state)))
        state = posted_again(rng, state)
        GAME.check(state)
        to_act = GAME.to_act(state)
        seats, moves = GAME.moves(state)
        note("moves", to_act, seats, [dumped(move) for move in moves])
        for player in rng.sample(range(-1, 5), 2):
            try:
                asked = GAME.moves(state, player)
                note("moves of", player, asked[0], [dumped(move) for move in asked[1]])
            except RulesError as error:
                note("moves error", player, error_text(error))
        for seat in range(4):
            note("legal", seat, [dumped(move) for move in GAME.legal_moves(state, seat)])
            note("view", seat, dumped(GAME.view(state, seat)))
        note("score", dumped(GAME.score(state)), dumped(GAME.outcome(state)), GAME.seat_totals(state))
        note("over", GAME.over(state), GAME.revealed_seed(state))
        if rng.random() < 0.05:
            posted = json.loads(state.model_dump_json())
            note("api moves", operation_answer("moves", json.dumps({"state": posted})))
            note("api score", operation_answer("score", json.dumps({"state": posted})))
            note(
                "api view",
                operation_answer("view", json.dumps({"state": posted, "player": rng.randrange(4)})),
            )
            if moves:
                move = json.loads(rng.choice(moves).model_dump_json())
                note("api apply", operation_answer("apply", json.dumps({"state": posted, "move": move})))
        for move in odd_moves(rng, state, to_act, moves):
            try:
                after, events = GAME.apply(state, move)
                note("try", dumped(move), dumped(after), [dumped(event) for event in events])
            except RulesError as error:
                SEEN[type(error).__name__] += 1
                note("try error", dumped(move), error_text(error))
        if not moves:
            return steps, digest.hexdigest()
        move = rng.choice(moves)
        if move.type is SevensMoveType.next_deal and rng.random() < 0.4:
            move = SevensMove(type=move.type, player=move.player, deck=rng.sample(FULL_DECK, 52))
        state, events = GAME.apply(state, move)
        note("applied", dumped(move), dumped(state), [dumped(event) for event in events])
        for seat in range(4):
            shown = [GAME.event_for_seat(event, seat) for event in events]
            note("seat events", seat, [None if event is None else dumped(event) for event in shown])
        for event in events:
            SEEN[str(event.type)] += 1
            SEEN["joined"] += bool(event.joined)


def main(argv: list[str]) -> int:
    if len(argv) != 2 or not all(arg.isdigit() for arg in argv):
        print("usage: python -m bench.lockstep FIRST COUNT", file=sys.stderr)
        return 2
    first, count = map(int, argv)
    total = 0
    for number in range(first, first + count):
        steps, hexdigest = play_match(number)
        total += steps
        print(number, steps, hexdigest, flush=True)
    print("steps", total)
    print(sorted(SEEN.items()), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
