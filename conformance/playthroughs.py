"""The golden playthrough files: what they hold, which ones exist, and how ``--update`` writes them.

One xz-compressed JSON file per game, table size and option variant under ``playthroughs/``::

    {"format": 1, "name": "sevens-4p-deals1", "game": "sevens", "players": 4,
     "options": {...}, "seed": "<64 hex>", "entropy": [...],
     "steps": [{"op": "new", "request": {...}, "status": 200, "answer": {...}},
               {"op": "moves", "request": {"state": {"$ref": "/steps/0/answer/state"}}, ...}, ...]}

Each step is one request to ``POST /v1/games/{game}/{op}`` and the whole answer the contract demands,
with its HTTP status. A request value ``{"$ref": "<JSON pointer>"}`` stands for the value at that pointer
in the same file (nearly always the state of an earlier answer), so each state is written once. The
steps play a complete match from ``new`` to its end with moves taken from the service's own legal
lists: every move is ``moves`` (no ``player``: every seat to act), ``apply`` and ``score``; every seat's
``view`` at the start and end of each deal, every :data:`VIEW_EVERY` moves and at the end. Refused
requests are steps too: a move for a seat not to act and a move not listed (409, with the legal moves),
an inconsistent state (422, with the offending path) and a move after the match is over.
"""

from __future__ import annotations

import hashlib
import lzma
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from .transport import Transport

FORMAT = 1
FOLDER = Path(__file__).resolve().parent / "playthroughs"
VIEW_EVERY = 40
"""Moves between two rounds of every seat's view (besides each deal's start and end)."""
REFUSALS_AFTER = 1
"""The refused requests are sent after this many moves, again at the first move of the second deal, and
at the end of the match."""

SHORT_OPTIONS: dict[str, dict[str, Any]] = {
    "sevens": {"deals": 1},
    "sedmice": {"target_hits": 1},
    "my-ship-sails": {"max_exchanges": 3},
    "domino-fan-tan": {"hand_size": 5},
}
"""Option values that keep a match short, where the game has an option for its length; the default
values are played in variants of their own."""


@dataclass(frozen=True)
class Variant:
    """One playthrough file's game, table size and options."""

    game: str
    players: int
    options: dict[str, Any]
    label: str

    @property
    def name(self) -> str:
        return f"{self.game}-{self.players}p-{self.label}"

    @property
    def path(self) -> Path:
        return FOLDER / f"{self.name}.json.xz"

    @property
    def seed(self) -> str:
        return hashlib.sha256(f"conformance:{self.name}".encode()).hexdigest()


def _label(options: dict[str, Any], base: dict[str, Any]) -> str:
    changed = [(k, v) for k, v in options.items() if base.get(k) != v]
    if not changed:
        return "base"
    return "-".join(f"{k.replace('_', '')}{str(v).lower()}" for k, v in changed)


def option_variants(game: dict[str, Any]) -> list[dict[str, Any]]:
    """The option sets of one game as ``GET /v1/games`` lists it: a short base (defaults, with
    :data:`SHORT_OPTIONS`), then each boolean flipped alone, each listed choice and each default the base
    replaced, so every documented value is played at least once."""
    defaults = {option["name"]: option["default"] for option in game["options"]}
    base = defaults | SHORT_OPTIONS.get(game["id"], {})
    variants = [base]
    for option in game["options"]:
        name = option["name"]
        values: list[Any] = []
        if option["type"] == "boolean":
            values = [not base[name]]
        else:
            values = [v for v in (option["choices"] or []) if v != base[name]]
            # a null default is "no limit": a random match without one may never end
            if defaults[name] not in (base[name], None) and defaults[name] not in values:
                values.append(defaults[name])
        variants += [base | {name: value} for value in values]
    return variants


def variants(games: list[dict[str, Any]]) -> list[Variant]:
    """Every playthrough: each game at each table size it allows with the base options, and each other
    option variant once, at the table sizes in turn (the smallest first), so every size and every
    documented option value is played without multiplying the long matches."""
    result = []
    for game in games:
        base, *others = option_variants(game)
        sizes = game["player_counts"]
        for players in sizes:
            result.append(Variant(game["id"], players, base, "base"))
        for index, option_set in enumerate(others):
            result.append(
                Variant(game["id"], sizes[index % len(sizes)], option_set, _label(option_set, base))
            )
    return result


def load(path: Path) -> dict[str, Any]:
    """A playthrough file's contents."""
    contents: dict[str, Any] = orjson.loads(lzma.decompress(path.read_bytes()))
    return contents


def dump(path: Path, contents: dict[str, Any]) -> None:
    """Write a playthrough file: canonical JSON (sorted keys, one step a line), compressed with xz
    (whose window spans a whole match, so the states of consecutive moves cost little: gzip's 32 KiB
    window made the files three to four times larger)."""
    head = {k: v for k, v in contents.items() if k != "steps"}
    lines = [orjson.dumps(head, option=orjson.OPT_SORT_KEYS)[:-1] + b', "steps": [']
    steps = [orjson.dumps(step, option=orjson.OPT_SORT_KEYS) for step in contents["steps"]]
    text = lines[0] + b"\n" + b",\n".join(steps) + b"\n]}\n"
    path.write_bytes(lzma.compress(text, preset=9))


def resolve(value: Any, document: dict[str, Any]) -> Any:
    """``value`` with every ``{"$ref": pointer}`` replaced by what the pointer reaches in ``document``."""
    if isinstance(value, dict):
        if set(value) == {"$ref"} and isinstance(value["$ref"], str):
            return pointed(document, value["$ref"])
        return {k: resolve(v, document) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve(v, document) for v in value]
    return value


def pointed(document: Any, pointer: str) -> Any:
    """The value at a JSON pointer (RFC 6901)."""
    node = document
    for part in pointer.split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


class Recorder:
    """Plays one variant's match against a transport and records every step."""

    def __init__(self, transport: Transport, variant: Variant) -> None:
        self.transport = transport
        self.variant = variant
        self.steps: list[dict[str, Any]] = []
        self.rng = random.Random(variant.seed)

    def send(self, op: str, request: dict[str, Any], refs: dict[str, str] | None = None) -> Any:
        """Send ``request`` and record it, with ``refs`` (field -> pointer) written as references."""
        status, answer = self.transport.post(f"/v1/games/{self.variant.game}/{op}", request)
        if status >= 500:
            raise RuntimeError(f"{self.variant.name}: {op} answered {status}: {answer}")
        if isinstance(answer, dict):
            answer.pop("request_id", None)
        written = dict(request)
        for field, pointer in (refs or {}).items():
            written[field] = {"$ref": pointer}
        self.steps.append({"op": op, "request": written, "status": status, "answer": answer})
        return answer

    def views(self, state: Any, state_ref: str) -> None:
        for seat in range(self.variant.players):
            self.send("view", {"state": state, "player": seat}, {"state": state_ref})

    def refusals(self, state: Any, state_ref: str, listed: list[Any], to_act: list[int]) -> None:
        """A move for a seat not to act, a move not listed, and an inconsistent state."""
        refs = {"state": state_ref}
        if listed:
            others = [seat for seat in range(self.variant.players) if seat not in to_act]
            if others:
                self.send("apply", {"state": state, "move": listed[0] | {"player": others[0]}}, refs)
            for unlisted in _unlisted_moves(listed):
                answer = self.send("apply", {"state": state, "move": unlisted}, refs)
                if answer.get("code") == "move/illegal":
                    break
                self.steps.pop()  # refused for another reason: look for a move that is only illegal
        for tampered in _tampered_states(state):
            answer = self.send("moves", {"state": tampered})
            if answer.get("code") == "state/inconsistent":
                break
            self.steps.pop()

    def play(self) -> dict[str, Any]:
        v = self.variant
        request = {"players": v.players, "seed": v.seed, "entropy": [f"seat {i}" for i in range(v.players)]}
        request["options"] = v.options
        self.send("new", request)
        state_ref = "/steps/0/answer/state"
        state = self.steps[0]["answer"]["state"]
        self.views(state, state_ref)
        moves_made = 0
        refuse_next = False
        while True:
            moves = self.send("moves", {"state": state}, {"state": state_ref})
            if not moves["moves"]:
                break
            if moves_made == REFUSALS_AFTER or refuse_next:
                self.refusals(state, state_ref, moves["moves"], moves["to_act"])
                refuse_next = False
            move = self.rng.choice(moves["moves"])
            previous_deals = len(state.get("deals", []))
            previous_deal_number = state.get("deal_number")
            answer = self.send("apply", {"state": state, "move": move}, {"state": state_ref})
            state = answer["state"]
            state_ref = f"/steps/{len(self.steps) - 1}/answer/state"
            moves_made += 1
            self.send("score", {"state": state}, {"state": state_ref})
            deal_changed = state.get("deal_number") != previous_deal_number
            if deal_changed and state.get("deal_number") == 2:
                refuse_next = True
            if deal_changed or len(state.get("deals", [])) != previous_deals or moves_made % VIEW_EVERY == 0:
                self.views(state, state_ref)
        self.views(state, state_ref)
        self.refusals(state, state_ref, [], [])
        finished = [step for step in self.steps if step["op"] == "apply" and step["status"] == 200]
        self.send("apply", {"state": state, "move": finished[-1]["request"]["move"]}, {"state": state_ref})
        return {
            "format": FORMAT,
            "name": v.name,
            "game": v.game,
            "players": v.players,
            "options": v.options,
            "seed": v.seed,
            "entropy": request["entropy"],
            "moves": moves_made,
            "steps": self.steps,
        }


CARDS = [rank + suit for suit in "CDHS" for rank in "A23456789TJQK"]


def _unlisted_moves(listed: list[Any]) -> Iterator[Any]:
    """Moves like a listed one with another card (or another type) that the list does not hold."""
    for move in listed[:3]:
        if move.get("card") is not None:
            for card in CARDS:
                variant = move | {"card": card}
                if variant not in listed:
                    yield variant


def _tampered_states(state: Any) -> Iterator[Any]:
    """Copies of ``state`` that no match can reach: a card of one hand given to another as well, a card
    dropped from a hand, the turn at a seat the table does not have."""
    hands = state.get("hands")
    if isinstance(hands, list) and len(hands) > 1:
        donors = [i for i, hand in enumerate(hands) if hand]
        if len(donors) > 1:
            first, second = donors[0], donors[1]
            copied = [list(hand) for hand in hands]
            copied[first] = [*copied[first][:-1], hands[second][0]]
            yield state | {"hands": copied}
            dropped = [list(hand) for hand in hands]
            dropped[first] = dropped[first][1:]
            yield state | {"hands": dropped}
    if isinstance(state.get("turn"), int):
        yield state | {"turn": 40}
    for key in ("deal_number", "dealer"):
        if isinstance(state.get(key), int):
            yield state | {key: 40}
