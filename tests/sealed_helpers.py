"""Helpers for referee-mode tests: keyrings, sealed calls in process, and what a seat may not see."""

from __future__ import annotations

import asyncio
import base64
import re
from collections.abc import Coroutine, Iterable
from typing import Any

import orjson
from pydantic import ValidationError

from sevens_rules.api.match_store import MatchStore
from sevens_rules.api.openapi import openapi_document
from sevens_rules.api.operations import Operation, all_operations
from sevens_rules.api.problems import as_game_problem, dump, from_rules_error, from_validation_error
from sevens_rules.api.sealing import Keyring
from sevens_rules.engine.errors import RulesError
from sevens_rules.engine.game import Game

AnyGame = Game[Any, Any, Any, Any, Any, Any]
CARD = re.compile(r"^[A2-9TJQK][CDHS]$")


def keyring(spec: str) -> Keyring:
    """A keyring of ``id=byte`` entries, each key 32 copies of that byte (``"k1=1,k0=2"``)."""
    entries = []
    for entry in spec.split(","):
        key_id, byte = entry.split("=")
        entries.append(f"{key_id}:{base64.b64encode(bytes([int(byte)]) * 32).decode()}")
    ring = Keyring.parse(",".join(entries))
    assert ring is not None
    return ring


def call(
    ring: Keyring | None, game_id: str, name: str, body: dict[str, Any], store: MatchStore | None = None
) -> tuple[int, Any]:
    """One sealed operation, in process, exactly as the REST endpoint runs it: ``(status, JSON body)``
    (with ``store``, the match store it claims versions in)."""
    op = _operation(ring, game_id, name, store)
    try:
        result: Any = op.run(op.request.model_validate_json(orjson.dumps(body)))
        if isinstance(result, Coroutine):
            result = asyncio.run(result)
    except ValidationError as error:
        result = as_game_problem(from_validation_error(error), op.problem)
    except RulesError as error:
        result = from_rules_error(error, op.problem)
    data = orjson.loads(dump(result))
    return (data["status"] if "code" in data and "status" in data else 200), data


def dealt(
    ring: Keyring, game_id: str, players: int, store: MatchStore | None = None, **extra: Any
) -> dict[str, Any]:
    """A sealed match dealt at once: ``new``'s answer with the token and the seat keys of the host's
    ``fill`` of every seat (as the old ``new`` answered)."""
    status, table = call(ring, game_id, "new", {"players": players, **extra}, store)
    assert status == 200, table
    status, filled = call(
        ring, game_id, "fill", {"token": table["token"], "host_key": table["host_key"]}, store
    )
    assert status == 200, filled
    return {**table, **filled}


def _operation(ring: Keyring | None, game_id: str, name: str, store: MatchStore | None = None) -> Operation:
    for op in all_operations(ring, store):
        if op.sealed and op.game.id == game_id and op.name == name:
            return op
    raise KeyError((game_id, name))


def cards_in(data: Any) -> set[str]:
    """Every card named anywhere in a JSON value."""
    if isinstance(data, str):
        return {data} if CARD.match(data) else set()
    if isinstance(data, list):
        return set().union(*map(cards_in, data)) if data else set()
    if isinstance(data, dict):
        return set().union(*map(cards_in, data.values())) if data else set()
    return set()


def hidden_from(game: AnyGame, state: Any, seat: int) -> set[str]:
    """The cards ``seat`` may not see in ``state``: every card of the game that its plain view (the
    engine's definition of what a seat sees) does not name."""
    view = orjson.loads(dump(game.view(state, seat)))
    return set(game.deck) - cards_in(view)


def event_leaks(
    game: AnyGame, before: Any, after: Any, played: str | None, seat: int, events: Iterable[dict[str, Any]]
) -> set[str]:
    """The cards that events of the move from ``before`` to ``after`` show ``seat`` but it may not see.

    ``played`` is the card the move played face up (None for a pass, a discard...): every seat sees it.
    Within a deal, a card is secret when hidden from the seat both before and after the move. Across a new
    deal, events from the last ``deal_started`` on are checked against the new deal; those before it
    against the old deal. A declaration shows the declarer's hand by rule (My Ship Sails).
    """
    events = [e for e in events if e.get("type") != "declared"]
    if before.deal_number == after.deal_number:
        secret = hidden_from(game, before, seat) & hidden_from(game, after, seat)
        return cards_in(events) & secret - {played}
    starts = [i for i, e in enumerate(events) if e.get("type") == "deal_started"]
    split = starts[-1] if starts else len(events)
    old = hidden_from(game, before, seat) - {played}
    return (cards_in(events[:split]) & old) | (cards_in(events[split:]) & hidden_from(game, after, seat))


def documented(path: str, status: int) -> bool:
    """Whether the OpenAPI document lists ``status`` among the answers of ``POST path``: a generated
    client knows every problem an operation may answer."""
    return str(status) in openapi_document()["paths"][path]["post"]["responses"]
