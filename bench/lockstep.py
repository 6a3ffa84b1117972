"""Two checkouts' answers compared step by step: ``python -m bench.lockstep [GAME] FIRST COUNT``.

Plays the seeded random matches of ``GAME`` (``sevens`` when left out; also ``seven-up``,
``four-handed-seven-up`` and ``california-jack``) numbered ``FIRST`` to ``FIRST + COUNT - 1`` through the
wire API and prints, per match, its number, its steps and a SHA-256 of everything the engine answered on
the way.
Run it with two checkouts' venvs and compare the outputs: equal lines mean equal answers. The file needs
nothing of ``bench``, so a checkout without it runs this copy with its own python (which imports that
checkout's ``sevens_rules``)::

    .venv/bin/python -m bench.lockstep seven-up 0 300 > mine.txt
    (cd /tmp && /path/to/other/.venv/bin/python /path/to/this/bench/lockstep.py seven-up 0 300 > other.txt)
    diff other.txt mine.txt

A match is dealt with a random seed, entropy, table size, options, first dealer and sometimes an exact
deck. At
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
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ValidationError

from sevens_rules.api.operations import all_operations
from sevens_rules.api.problems import from_rules_error
from sevens_rules.engine.cards import FULL_DECK
from sevens_rules.engine.dealing import Seeding
from sevens_rules.engine.errors import RulesError
from sevens_rules.engine.registry import GAMES
from sevens_rules.schema.seven_up import SevenUpMove, SevenUpMoveType
from sevens_rules.schema.sevens import SevensMove, SevensMoveType, SevensState

GAME: Any = GAMES["sevens"]
"""The game played (set by :func:`main`)."""
OPERATIONS: dict[str, dict[str, Any]] = {}
"""Each game's plain REST operations by name, made when first asked."""
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


def operation_answer(game: Any, name: str, body: str) -> str:
    """``game``'s REST operation's answer to a JSON body (its problem for an engine error)."""
    operations = OPERATIONS.get(game.id)
    if operations is None:
        operations = OPERATIONS[game.id] = {
            op.name: op for op in all_operations() if op.game.id == game.id and not op.sealed
        }
    operation = operations[name]
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


def posted_again(rng: random.Random, state: Any) -> Any:
    """``state``, or sometimes the state a client posts again: a JSON round trip, now and then with one
    hand shuffled out of canonical order."""
    model = GAME.models.state
    roll = rng.random()
    if roll < 0.15:
        return model.model_validate_json(state.model_dump_json())
    if roll < 0.18:
        data = json.loads(state.model_dump_json())
        rng.shuffle(data["hands"][rng.randrange(len(data["hands"]))])
        SEEN["shuffled hand"] += 1
        return model.model_validate_json(json.dumps(data))
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


def seven_up_odd_moves(rng: random.Random, state: Any, to_act: list[int], moves: list[Any]) -> list[Any]:
    """The Seven-Up family's moves to try besides the listed ones: any seat's plays of cards held or not,
    discards of no, one or two cards, the decisions out of turn or phase, ``next_deal`` with and without a
    deck, a listed move naming a deck, a play naming cards, a listed move posted again."""
    seats = len(state.hands)
    tries = []
    kinds = ["play", "play", "discard", "stand", "beg", "give", "run", "next_deal"]
    for _ in range(3):
        seat = rng.choice([*range(seats), seats, rng.choice(to_act) if to_act else 0])
        kind = SevenUpMoveType(rng.choice(kinds))
        held = state.hands[seat] if seat < seats else []
        if kind is SevenUpMoveType.play:
            card = rng.choice([*held, *rng.sample(FULL_DECK, 3)])
            tries.append(SevenUpMove(type=kind, player=seat, card=card))
        elif kind is SevenUpMoveType.discard:
            cards = rng.choice([[], rng.sample(FULL_DECK, 1), rng.sample(FULL_DECK, 2)])
            if held and rng.random() < 0.6:
                cards = rng.sample(list(held), min(len(held), rng.choice([1, 1, 2])))
            tries.append(SevenUpMove(type=kind, player=seat, cards=cards))
        elif kind is SevenUpMoveType.next_deal:
            tries.append(SevenUpMove(type=kind, player=seat, deck=rng.choice([None, list(FULL_DECK)])))
        else:
            tries.append(SevenUpMove(type=kind, player=seat, card=rng.choice([None, None, "7H"])))
    if moves:
        listed = rng.choice(moves)
        if listed.type is not SevenUpMoveType.next_deal:
            tries.append(listed.model_copy(update={"deck": list(FULL_DECK)}))
        if listed.type is SevenUpMoveType.play:
            tries.append(listed.model_copy(update={"cards": [listed.card]}))
        tries.append(SevenUpMove.model_validate_json(listed.model_dump_json()))
    return tries


PHASES = ("stand_or_beg", "give_or_run", "discard", "play", "deal_over", "match_over")


def seven_up_corrupted(rng: random.Random, state: Any) -> str:
    """The JSON of a Seven-Up family ``state`` with one or two things wrong (a card moved, repeated or
    lost, trump, turned card, phase, leader, dealer, a trick's winner or trump, points or a deal record
    changed)."""
    data = json.loads(state.model_dump_json())
    hands = data["hands"]
    seats = len(hands)
    for _ in range(rng.choice([1, 1, 2])):
        kind = rng.randrange(12)
        held = [hand for hand in hands if hand]
        if kind == 0 and held:  # a card from a hand to the stock, or back
            hand = rng.choice(held)
            data["stock"].append(hand.pop(rng.randrange(len(hand))))
        elif kind == 1 and held:
            hands[rng.randrange(seats)].append(rng.choice(rng.choice(held)))
        elif kind == 2 and held:
            hand = rng.choice(held)
            hand.pop(rng.randrange(len(hand)))
        elif kind == 3:
            data["trump"] = rng.choice([None, "C", "D", "H", "S"])
        elif kind == 4:
            data["turned"] = rng.choice([None, *rng.sample(FULL_DECK, 2)])
        elif kind == 5:
            data["phase"] = rng.choice(
                ["stand_or_beg", "give_or_run", "discard", "play", "deal_over", "match_over"]
            )
        elif kind == 6:
            data["leader"] = rng.choice([None, *range(seats)])
        elif kind == 7:
            data["dealer"] = rng.randrange(seats)
        elif kind == 8 and data["tricks"]:
            trick = rng.choice(data["tricks"])
            trick[rng.choice(["winner", "leader"])] = rng.randrange(seats)
        elif kind == 9 and data["points"]:
            data["points"].pop(rng.randrange(len(data["points"])))
        elif kind == 9:
            data["points"].append(
                {"reason": rng.choice(["gift", "turned_jack", "high"]), "seat": 0, "side": 0}
            )
        elif kind == 10 and data["deals"]:
            deal = rng.choice(data["deals"])
            deal["by_side"][rng.randrange(len(deal["by_side"]))] = rng.randrange(5)
        elif data["stock"]:  # a stock card into the set-aside cards or a discard pile
            card = data["stock"].pop()
            target = rng.choice([data["set_aside"], data["discarded"][rng.randrange(seats)]])
            target.append(card)
    return json.dumps(data)


def seven_up_options(rng: random.Random) -> Any:
    """Random options of the game played (every option of the Seven-Up family is a flag)."""
    fields = GAME.models.options.model_fields
    return GAME.models.options(**{name: rng.random() < 0.5 for name in fields})


def check_answer(game: Any, posted: str) -> str:
    """What ``game``'s checks answer a posted state: the schema's refusal, the inconsistencies, or none."""
    try:
        state = game.models.state.model_validate_json(posted)
    except ValidationError as error:
        return "invalid " + json.dumps(error.errors(include_url=False), default=str)
    try:
        game.check(state)
    except RulesError as error:
        SEEN["inconsistent"] += 1
        return error_text(error)
    return "consistent"


def note_answers(
    note: Callable[..., None],
    rng: random.Random,
    game: Any,
    state: Any,
    players: int,
    odd_moves_of: Callable[[random.Random, Any, list[int], list[Any]], list[Any]],
    over: tuple[object, ...] = (),
) -> list[Any]:
    """Digest (through ``note``) what ``game`` answers about ``state``: the seats to act and their moves,
    two seats' moves (the seats -1 and ``players`` included in the draw), every seat's legal moves and
    view, the score and outcome, whether the match is over (with ``over`` after it), now and then the
    REST operations' answers to the posted JSON, and the odd moves ``odd_moves_of`` tries. The moves
    listed."""
    to_act = game.to_act(state)
    seats, moves = game.moves(state)
    listed: list[Any] = moves
    note("moves", to_act, seats, [dumped(move) for move in moves])
    for player in rng.sample(range(-1, players + 1), 2):
        try:
            asked = game.moves(state, player)
            note("moves of", player, asked[0], [dumped(move) for move in asked[1]])
        except RulesError as error:
            note("moves error", player, error_text(error))
    for seat in range(players):
        note("legal", seat, [dumped(move) for move in game.legal_moves(state, seat)])
        note("view", seat, dumped(game.view(state, seat)))
    note("score", dumped(game.score(state)), dumped(game.outcome(state)), game.seat_totals(state))
    note("over", game.over(state), game.revealed_seed(state), *over)
    if rng.random() < 0.05:
        posted = json.loads(state.model_dump_json())
        note("api moves", operation_answer(game, "moves", json.dumps({"state": posted})))
        note("api score", operation_answer(game, "score", json.dumps({"state": posted})))
        view = json.dumps({"state": posted, "player": rng.randrange(players)})
        note("api view", operation_answer(game, "view", view))
        if moves:
            move = json.loads(rng.choice(moves).model_dump_json())
            note("api apply", operation_answer(game, "apply", json.dumps({"state": posted, "move": move})))
    for move in odd_moves_of(rng, state, to_act, moves):
        try:
            after, events = game.apply(state, move)
            note("try", dumped(move), dumped(after), [dumped(event) for event in events])
        except RulesError as error:
            SEEN[type(error).__name__] += 1
            note("try error", dumped(move), error_text(error))
    return listed


def play_match(number: int) -> tuple[int, str]:
    """Match ``number`` played to its end: its steps and the digest of every answer."""
    rng = random.Random(number)
    digest = hashlib.sha256()

    def note(*parts: object) -> None:
        digest.update(repr(parts).encode())

    seeding = Seeding(
        f"{rng.getrandbits(256):064x}", tuple(f"e{rng.randrange(100)}" for _ in range(rng.randrange(3)))
    )
    sevens = GAME.id == "sevens"
    # Sevens is played by four only: no draw, so that its match numbers are those the script always played
    players = 4 if sevens else rng.choice(GAME.table_sizes())
    if sevens:
        options = GAME.models.options(deals=rng.choice([1, 2, 3, 5, 5, 5, 7]))
    else:
        options = seven_up_options(rng)
    odd_moves_of = odd_moves if sevens else seven_up_odd_moves
    corrupted_of = corrupted if sevens else seven_up_corrupted
    move_model = GAME.models.move
    deck = rng.sample(FULL_DECK, 52) if rng.random() < 0.3 else None
    state, events = GAME.new_match(players, options, seeding, deck, rng.choice([None, *range(players)]))
    note("new", dumped(state), [dumped(event) for event in events])
    steps = 0
    while True:
        steps += 1
        if rng.random() < 0.2:
            note("corrupted", check_answer(GAME, corrupted_of(rng, state)))
        state = posted_again(rng, state)
        GAME.check(state)
        moves = note_answers(note, rng, GAME, state, players, odd_moves_of)
        if not moves:
            return steps, digest.hexdigest()
        move = rng.choice(moves)
        if move.type == "next_deal" and rng.random() < 0.4:
            move = move_model(type=move.type, player=move.player, deck=rng.sample(FULL_DECK, 52))
        state, events = GAME.apply(state, move)
        note("applied", dumped(move), dumped(state), [dumped(event) for event in events])
        for seat in range(players):
            shown = [GAME.event_for_seat(event, seat) for event in events]
            note("seat events", seat, [None if event is None else dumped(event) for event in shown])
        for event in events:
            SEEN[str(event.type)] += 1
            SEEN["joined"] += bool(getattr(event, "joined", False))


LOCKSTEP_GAMES = ("sevens", "seven-up", "four-handed-seven-up", "california-jack")
"""The games this script plays."""


def main(argv: list[str]) -> int:
    global GAME
    if argv and not argv[0].isdigit():
        game_id, *argv = argv
        if game_id not in LOCKSTEP_GAMES:
            print(f"games: {', '.join(LOCKSTEP_GAMES)}", file=sys.stderr)
            return 2
        GAME = GAMES[game_id]
    if len(argv) != 2 or not all(arg.isdigit() for arg in argv):
        print("usage: python -m bench.lockstep [GAME] FIRST COUNT", file=sys.stderr)
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
