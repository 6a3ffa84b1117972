"""Referee mode against plain mode, in process: one ``apply`` request as the REST endpoint runs it (parse
the body, run the operation, write the answer; no HTTP), and the size of tokens.

Plain ``apply`` parses and checks the posted state for consistency; sealed ``apply`` opens the token
(base64, AES-GCM), parses the state without the check, and seals the next one. A worker remembers the
tokens it sealed or opened last (``OpenedTokens``), so a repeated token is opened once: the table shows
sealed ``apply`` both ways, with the token remembered and opened afresh.
"""

from __future__ import annotations

import base64
import os
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson
from pydantic import TypeAdapter

from bench.endpoints import dumped
from bench.inprocess import MATCH_SEED, AnyGame, match_seed, median_us, mid_deal
from sevens_rules.api.operations import Operation, all_operations
from sevens_rules.api.problems import dump
from sevens_rules.api.sealed import LOG_VERSIONS, sealed_runs
from sevens_rules.api.sealing import Keyring, Sealed, new_match_id, seal, seat_key
from sevens_rules.engine.dealing import Seeding
from sevens_rules.schema.common import model_json

LARGEST_MOVES = 5000
"""Moves of the match whose longest token is reported (random My Ship Sails matches last far longer)."""


@dataclass(frozen=True)
class SealedResult:
    """One game's numbers."""

    game: str
    players: int
    plain_us: float
    sealed_us: float
    """With the token remembered, as when a seat moves with the token the last move produced."""
    afresh_us: float
    """With the token opened and its state parsed on every request."""
    state_bytes: int
    token_chars: int
    largest_token_chars: int


def _operation(ring: Keyring, game_id: str, name: str, sealed: bool) -> Operation:
    return next(
        op for op in all_operations(ring) if op.game.id == game_id and op.name == name and op.sealed == sealed
    )


def _request(op: Operation, body: bytes) -> Any:
    return lambda: dump(op.run(op.request.model_validate_json(body)))


def _token(ring: Keyring, game: AnyGame, match_id: bytes, state: Any, log: list[bytes]) -> str:
    """The token of ``state`` whose log holds the last of ``log`` (events JSON per version, 1 first)."""
    entries = log[-LOG_VERSIONS:]
    return seal(ring, game.id, Sealed.of(match_id, len(log), ring.current.id, model_json(state), entries))


def _events_json(game: AnyGame) -> Callable[[list[Any]], bytes]:
    adapter: TypeAdapter[list[Any]] = TypeAdapter(list[game.models.event])  # type: ignore[name-defined]
    return lambda events: adapter.dump_json(events, exclude_defaults=True)


def mid_deal_path(game: AnyGame, players: int) -> tuple[Any, list[list[Any]]]:
    """The bench's mid-deal state and the events of the first deal and of every move that led to it."""
    _, path = mid_deal(game, players)
    seeding = Seeding(match_seed(MATCH_SEED))
    state, first = game.new_match(players, game.models.options(), seeding, None, None)
    events = [first]
    for move in path:
        state, caused = game.apply(state, move)
        events.append(caused)
    return state, events


def bench_sealed(game: AnyGame, players: int, seconds: float) -> SealedResult:
    """Median plain and sealed ``apply`` on the bench's mid-deal state, and token sizes."""
    ring = Keyring.parse("bench:" + base64.b64encode(os.urandom(32)).decode())
    assert ring is not None
    state, events = mid_deal_path(game, players)
    move = game.moves(state)[1][0]
    match_id = new_match_id()
    token = _token(ring, game, match_id, state, list(map(_events_json(game), events)))
    opened = Sealed.of(match_id, len(events), ring.current.id, b"", ())
    plain = orjson.dumps({"state": dumped(state), "move": dumped(move)})
    sealed = orjson.dumps(
        {
            "token": token,
            "seat": move.player,
            "seat_key": seat_key(ring, game.id, opened, move.player),
            "move": dumped(move),
        }
    )
    plain_us = median_us(_request(_operation(ring, game.id, "apply", False), plain), seconds)
    sealed_op = _operation(ring, game.id, "apply", True)
    sealed_us = median_us(_request(sealed_op, sealed), seconds)
    afresh = sealed_runs(game, ring, opened_tokens=0)["apply"]
    afresh_us = median_us(lambda: dump(afresh(sealed_op.request.model_validate_json(sealed))), seconds)
    return SealedResult(
        game.id,
        players,
        plain_us,
        sealed_us,
        afresh_us,
        len(model_json(state)),
        len(token),
        _largest(ring, game, players),
    )


def _largest(ring: Keyring, game: AnyGame, players: int) -> int:
    """The longest token of one random match played to its end or ``LARGEST_MOVES`` moves (every state)."""
    rng = random.Random(0)
    events_json = _events_json(game)
    state, first = game.new_match(players, game.models.options(), Seeding(f"{0:064x}"), None, None)
    log, match_id, largest = [events_json(first)], new_match_id(), 0
    for _ in range(LARGEST_MOVES):
        largest = max(largest, len(_token(ring, game, match_id, state, log)))
        _, moves = game.moves(state)
        if not moves:
            break
        state, caused = game.apply(state, rng.choice(moves))
        log.append(events_json(caused))
    return largest


def sealed_table(results: list[SealedResult]) -> str:
    """The markdown table of :func:`bench_sealed` results."""
    lines = [
        "| game | players | plain apply µs | sealed apply µs | sealed / plain | sealed, opened afresh µs "
        "| afresh / plain | state JSON bytes | token chars (mid-deal) | largest token chars (≤ 5000 moves) |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in results:
        lines.append(
            f"| {r.game} | {r.players} | {r.plain_us:.0f} | {r.sealed_us:.0f} "
            f"| {r.sealed_us / r.plain_us:.2f} | {r.afresh_us:.0f} | {r.afresh_us / r.plain_us:.2f} "
            f"| {r.state_bytes:,} | {r.token_chars:,} "
            f"| {r.largest_token_chars:,} |"
        )
    return "\n".join(lines)
