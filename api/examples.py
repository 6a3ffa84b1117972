"""The documentation's examples, made by the service itself from real deals.

Every example request is one the service accepts and every example answer is what it answered: a seeded
deal of each game (:data:`EXAMPLE_SEED`, the README's worked example), then its legal moves, the first of
them applied, its scores, a seat's view and the deal verified. They run through the same
:func:`~sevens_rules.api.problems.runner` as REST and GraphQL, so an example the rules would refuse stops
the export instead of reaching the docs.

Plain operations' examples are fixed (a seed and no entropy deal the same cards every time), so the
committed ``openapi/openapi.json`` stays stable. Sealed operations other than ``new`` need a token, and a
token opens only on a service holding the key that sealed it: a token in the committed document would need
a key every reader knows, which would open every match sealed with it. A service with ``RULES_SEAL_KEYS``
therefore fills those examples when it first serves ``/openapi.json``, from a sealed match of each game it
deals for the purpose (:func:`sealed_examples`); that match is no one's, like any other a client may start.
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Iterable
from contextlib import suppress
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

import orjson
import strawberry
from graphql import GraphQLField, GraphQLObjectType, GraphQLUnionType, get_named_type

from ..engine.dealing import commitment
from ..engine.registry import GAMES
from ..schema.common import Problem
from .graphql import whole_fragment
from .library_internals import core_schema
from .limits import Settings, timeout_detail, too_large_detail
from .match_store import (
    UNAVAILABLE_DETAIL,
    UNKNOWN_DETAIL,
    MatchStore,
    StoreFullError,
    StoreUnavailableError,
    UnknownMatchError,
)
from .operations import AnyGame, Operation, all_operations, games_response
from .problems import dump, from_rules_error, problem, runner
from .rest import unsupported_media_type
from .sealing import DISABLED_DETAIL, Keyring, SealedModeDisabledError, SealError, open_token

EXAMPLE_SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
"""The seed of every plain example's deal (the README's worked example)."""


@dataclass(frozen=True)
class Example:
    """One operation's example: a request body the service accepts and the answer it gave."""

    request: dict[str, Any]
    response: dict[str, Any]


STORE_OPERATIONS = ("new", "join", "fill", "apply")
"""The sealed operations that ask the match store: ``new`` opens a table in it, the others claim a version
(and an ``apply`` refused asks the store which version is the latest)."""


def problem_examples(op: Operation, illegal_move: dict[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    """Problems ``op`` answers, by status, each made as the service makes it: a body that is not JSON
    (400), one that lacks the required fields or is not an object (422), one not sent as JSON (415), one
    over the default size limit (413), one that did not arrive in the default time (408), for a sealed
    operation of a service without keys (404), for the sealed operations of :data:`STORE_OPERATIONS` a
    match store out of reach or full (503) and a match it does not remember (410), and for ``apply`` the
    ``illegal_move`` request (409)."""
    run = runner(replace(op, disabled=False), op.path)  # (the problems of a service with keys)
    made = {
        "400": run(b"{"),
        "408": problem(408, "request/timeout", timeout_detail(Settings.body_timeout)),
        "413": problem(413, "request/too-large", too_large_detail(Settings.max_body_bytes)),
        "415": unsupported_media_type(),
    }
    missing = run(b"{}")
    made["422"] = missing if isinstance(missing, Problem) else run(b"[]")  # seed takes {}, not a list
    if op.sealed:  # what every sealed operation of a service without keys answers
        made["404"] = from_rules_error(SealedModeDisabledError(DISABLED_DETAIL), op.problem)
    if op.sealed and op.name in STORE_OPERATIONS:
        refused = StoreFullError() if op.name == "new" else StoreUnavailableError(UNAVAILABLE_DETAIL)
        made["503"] = from_rules_error(refused, op.problem)
        if op.name != "new":
            made["410"] = from_rules_error(UnknownMatchError(UNKNOWN_DETAIL), op.problem)
    if illegal_move is not None:
        made["409"] = run(orjson.dumps(illegal_move))
    for status, answer in made.items():
        if not isinstance(answer, Problem) or answer.status != int(status):
            raise RuntimeError(f"the {status} example of {op.operation_id} is not a {status} problem")
    return {status: orjson.loads(dump(answer)) for status, answer in made.items()}


def example_players(game: AnyGame) -> int:
    """The table size of a game's examples: its smallest, so the examples stay short."""
    return min(game.table_sizes())


def answer(op: Operation, request: dict[str, Any]) -> dict[str, Any]:
    """``op``'s answer to ``request`` as the service writes it; a refusal is a bug in the examples."""
    result = runner(op, op.path)(orjson.dumps(request))
    if isinstance(result, Problem):
        raise RuntimeError(f"the example of {op.operation_id} was refused: {dump(result).decode()}")
    loaded: dict[str, Any] = orjson.loads(dump(result))
    return loaded


def _by_name(game: AnyGame, ops: Iterable[Operation], sealed: bool) -> dict[str, Operation]:
    return {op.name: op for op in ops if op.game is game and op.sealed == sealed}


def _examples(op: Operation, request: dict[str, Any]) -> tuple[str, Example]:
    return op.operation_id, Example(request, answer(op, request))


EXAMPLE_BOT_SEED = "example"
"""The ``sample_seed`` and ``bot_seed`` of the examples (a seeded sample and bot answer the same)."""
BOT_CHOICE = {"level": "rules", "bot_seed": EXAMPLE_BOT_SEED}


def timeless(answer: dict[str, Any]) -> dict[str, Any]:
    """A bot's answer with ``elapsed_ms`` 0: the rest of a seeded answer is the same every time, the
    time spent is not (the committed document would change with every export)."""
    return answer | {"elapsed_ms": 0.0}


def bot_example(op: Operation, request: dict[str, Any]) -> tuple[str, Example]:
    return op.operation_id, Example(request, timeless(answer(op, request)))


def game_examples(game: AnyGame) -> dict[str, Example]:
    """The examples of a game's plain operations, by operationId, from its deal with :data:`EXAMPLE_SEED`."""
    ops = _by_name(game, all_operations(), sealed=False)
    players = example_players(game)
    made = dict([_examples(ops["new"], {"players": players, "seed": EXAMPLE_SEED})])
    state = made[ops["new"].operation_id].response["state"]
    made.update([_examples(ops["moves"], {"state": state})])
    first_move = made[ops["moves"].operation_id].response["moves"][0]
    to_act = made[ops["moves"].operation_id].response["to_act"]
    made.update(
        [
            _examples(ops["apply"], {"state": state, "move": first_move}),
            _examples(ops["score"], {"state": state}),
            _examples(ops["view"], {"state": state, "player": 0}),
            _examples(ops["sample"], {"state": state, "player": 0, "sample_seed": EXAMPLE_BOT_SEED}),
            bot_example(ops["bot"], {"state": state, "player": to_act[0], **BOT_CHOICE}),
            # seed answers a fresh seed every time: the example answer is the deal's own seed
            (
                ops["seed"].operation_id,
                Example({}, {"seed": EXAMPLE_SEED, "commitment": commitment(EXAMPLE_SEED)}),
            ),
            _examples(
                ops["verify"],
                {"players": players, "seed": EXAMPLE_SEED, "commitment": commitment(EXAMPLE_SEED)},
            ),
        ]
    )
    return made


@cache
def plain_examples() -> dict[str, Example]:
    """Every plain operation's example, by operationId."""
    return {op_id: example for game in GAMES.values() for op_id, example in game_examples(game).items()}


def illegal_apply(op: Operation) -> dict[str, Any] | None:
    """For a plain ``apply``, its example's move made by a seat that is not to act (a 409); else None."""
    if op.sealed or op.name != "apply":
        return None
    request = plain_examples()[op.operation_id].request
    moves = _by_name(op.game, all_operations(), sealed=False)["moves"]
    to_act = plain_examples()[moves.operation_id].response["to_act"]
    idle = [seat for seat in range(example_players(op.game)) if seat not in to_act]
    return request | {"move": request["move"] | {"player": idle[0]}} if idle else None


def sealed_new_request(game: AnyGame) -> dict[str, Any]:
    """The request of a game's sealed ``new`` example (no token: the committed document has it)."""
    return {"players": example_players(game)}


JOIN_ENTROPY = "seat 0's own words"
"""The entropy seat 0 joins the example tables with."""


class StoreRefusedExamples(Exception):
    """The match store could not hold the sealed examples' tables: full, or out of reach (a 503 problem,
    ``store/full`` or ``store/unavailable``). Not a bug in the examples: the service serves its document
    without them and tries again later."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(f"{problem.code}: {problem.detail}")
        self.problem = problem


async def _sealed_answer(op: Operation, request: dict[str, Any]) -> tuple[str, Example]:
    """A sealed operation's example: ``request`` and the answer (awaited where the operation claims
    versions in a match store). A refusal by the match store raises :class:`StoreRefusedExamples`; any
    other refusal is a bug in the examples."""
    result = runner(op, op.path)(orjson.dumps(request))
    if inspect.isawaitable(result):
        result = await result
    if isinstance(result, Problem):
        if result.status == 503:
            raise StoreRefusedExamples(result)
        raise RuntimeError(f"the example of {op.operation_id} was refused: {dump(result).decode()}")
    return op.operation_id, Example(request, orjson.loads(dump(result)))


async def sealed_game_examples(
    game: AnyGame, keyring: Keyring, store: MatchStore | None, opened: list[tuple[str, str]]
) -> dict[str, Example]:
    """The examples of a game's sealed operations, by operationId, from a match it opens and seals now
    with ``keyring`` (and remembers in ``store``, as the service's own matches): seat 0 joins, the host
    fills the other seats (which deals), then ``moves`` and ``apply`` for a seat to act, ``view`` for
    seat 0 and ``score``. The example ``apply`` and ``fill`` are made here, so sending either again is a
    retry, which answers the same. A seat joins a table once: the join request shown is for one more
    table left open, and its answer example is the join made here (another table's token, match id and
    commitment). Every table opened is added to ``opened`` (game id and token)."""
    ops = _by_name(game, all_operations(keyring, store), sealed=True)
    made = dict([await _sealed_answer(ops["new"], sealed_new_request(game))])
    table = made[ops["new"].operation_id].response
    opened.append((game.id, table["token"]))
    _, joined = await _sealed_answer(
        ops["join"], {"token": table["token"], "seat": 0, "entropy": JOIN_ENTROPY}
    )
    fill = {"token": joined.response["token"], "host_key": table["host_key"]}
    _, filled = await _sealed_answer(ops["fill"], fill)
    # the host's fill sent again is a retry, answered as the first time (whatever was played since): the
    # request made here is the example; a seat joins once, and a join is never answered twice (anyone who
    # read the table's token and the entropy the views show could take the seat's key), so the join
    # request shown is for a table of its own, still open, answered as the join made here was
    _, for_join = await _sealed_answer(ops["new"], sealed_new_request(game))
    opened.append((game.id, for_join.response["token"]))
    join_request = {"token": for_join.response["token"], "seat": 0, "entropy": JOIN_ENTROPY}
    made[ops["join"].operation_id] = Example(join_request, joined.response)
    made[ops["fill"].operation_id] = Example(fill, filled.response)
    token = filled.response["token"]
    keys = [joined.response["seat_key"], *filled.response["seat_keys"][1:]]
    as_seat0 = {"token": token, "seat": 0, "seat_key": keys[0]}
    _, seen = await _sealed_answer(ops["moves"], as_seat0)
    to_act = seen.response["to_act"]
    seat = 0 if not to_act or 0 in to_act else to_act[0]
    as_actor = {"token": token, "seat": seat, "seat_key": keys[seat]}
    made.update([await _sealed_answer(ops["moves"], as_actor)])
    first_move = made[ops["moves"].operation_id].response["moves"][0]
    made.update(
        [await _sealed_answer(ops["view"], as_seat0), await _sealed_answer(ops["score"], {"token": token})]
    )
    made.update([await _sealed_answer(ops["sample"], as_seat0 | {"sample_seed": EXAMPLE_BOT_SEED})])
    bot_id, bot = await _sealed_answer(ops["bot"], as_actor | BOT_CHOICE)
    made[bot_id] = Example(bot.request, timeless(bot.response))
    made.update([await _sealed_answer(ops["apply"], as_actor | {"move": first_move})])
    return made


async def sealed_examples(keyring: Keyring, store: MatchStore | None) -> dict[str, Example]:
    """Every sealed operation's example, by operationId, sealed with ``keyring`` and remembered in
    ``store``. When the store refuses a table (:class:`StoreRefusedExamples`), the tables opened so far
    would serve nobody: the store forgets them (as far as it answers), so that they do not hold its room
    until they idle out."""
    made: dict[str, Example] = {}
    opened: list[tuple[str, str]] = []
    try:
        for game in GAMES.values():
            made.update(await sealed_game_examples(game, keyring, store, opened))
    except StoreRefusedExamples:
        if store is not None:
            for game_id, token in opened:
                with suppress(SealError):
                    await store.forget(open_token(keyring, game_id, token).match_id)
        raise
    return made


def games_example() -> dict[str, Any]:
    """The answer of ``GET /v1/games``."""
    loaded: dict[str, Any] = orjson.loads(dump(games_response()))
    return loaded


def with_examples(document: dict[str, Any], examples: dict[str, Example]) -> dict[str, Any]:
    """A copy of an OpenAPI document whose operations named in ``examples`` show them (the request body's
    and the 200 answer's ``example``)."""
    result = copy.deepcopy(document)
    for item in result["paths"].values():
        operation = item.get("post")
        if operation is None or operation["operationId"] not in examples:
            continue
        example = examples[operation["operationId"]]
        operation["requestBody"]["content"]["application/json"]["example"] = example.request
        operation["responses"]["200"]["content"]["application/json"]["example"] = example.response
    return result


def console_examples(schema: strawberry.Schema) -> list[dict[str, Any]]:
    """The GraphQL console's examples: for each game, its deal, its legal moves and the first of them
    applied, as documents on ``schema`` with their variables filled from the same seeded deal as the
    OpenAPI examples. Each selects the answer's fields (a state through its whole-state fragment) and the
    problem's ``code`` and ``detail``."""
    fields = core_schema(schema).query_type.fields  # type: ignore[union-attr]
    examples = plain_examples()
    made = []
    for game in GAMES.values():
        ops = _by_name(game, all_operations(), sealed=False)
        for name, title in (
            ("new", "deal"),
            ("moves", "legal moves"),
            ("apply", "apply the first legal move"),
        ):
            op = ops[name]
            field = fields[op.field_name]
            variables = examples[op.operation_id].request
            made.append(
                {
                    "title": f"{game.name}: {title}",
                    "description": f"{op.field_name}, with variables from the deal of the seed "
                    f"{EXAMPLE_SEED[:8]}…",
                    "query": _document(op, field, variables),
                    "variables": variables,
                }
            )
    return made


def _document(op: Operation, field: GraphQLField, variables: dict[str, Any]) -> str:
    """A query of ``op``'s root field taking every key of ``variables`` as a variable."""
    declared = ", ".join(f"${name}: {field.args[name].type}" for name in variables)
    passed = ", ".join(f"{name}: ${name}" for name in variables)
    result = get_named_type(field.type)
    assert isinstance(result, GraphQLUnionType), op.field_name
    answer, problem = result.types  # the answer, then the game's problem
    lines: list[str] = []
    fragments: list[str] = []
    for name, answer_field in answer.fields.items():
        inner = get_named_type(answer_field.type)
        if _is_object(answer_field) and name in ("state", "moves"):
            lines.append(f"{name} {{ ...{inner.name}Fields }}")
            fragments.append(whole_fragment(inner))
        elif isinstance(inner, GraphQLObjectType):
            # the events: every field but nested objects
            leaves = [n for n, f in inner.fields.items() if not _is_object(f)]
            lines.append(f"{name} {{ {' '.join(leaves)} }}")
        else:
            lines.append(name)
    selection = "\n      ".join(lines)
    return (
        f"query {op.operation_id[0].upper()}{op.operation_id[1:]}({declared}) {{\n"
        f"  {op.field_name}({passed}) {{\n"
        "    __typename\n"
        f"    ... on {answer.name} {{\n      {selection}\n    }}\n"
        f"    ... on {problem.name} {{ code detail }}\n"
        "  }\n}\n\n" + "\n".join(fragments)
    )


def _is_object(field: GraphQLField) -> bool:
    return isinstance(get_named_type(field.type), GraphQLObjectType)
