"""Constructing Sjuan-family states by hand for rule tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sevens_rules.engine.cards import FULL_DECK, sort_cards
from sevens_rules.engine.registry import GAMES
from tests.seeds import seeding


def family_state(
    game_id: str,
    hands: Sequence[Sequence[str]],
    table: Sequence[str] = (),
    turn: int = 0,
    dealer: int = 0,
    chips: Sequence[int] | None = None,
    stock: Sequence[str] | None = None,
    options: dict[str, Any] | None = None,
    deals: Sequence[Any] = (),
    deal_number: int | None = None,
) -> Any:
    """A state in play. Cards placed nowhere go to the stock of Domino fan tan when no ``stock`` is given,
    otherwise to the last hand."""
    game = GAMES[game_id]
    placed = {c for h in hands for c in h} | set(table) | set(stock or ())
    rest = [c for c in FULL_DECK if c not in placed]
    hands = [sort_cards(h) for h in hands]
    if game_id == "domino-fan-tan" and stock is None:
        stock, rest = rest, []
    hands[-1] = sort_cards([*hands[-1], *rest])
    fields: dict[str, Any] = {
        "game": game_id,
        "options": game.models.options(**(options or {})),
        "dealer": dealer,
        "deal_number": deal_number or len(deals) + 1,
        **seeding(0).state_fields(),
        "phase": "play",
        "turn": turn,
        "hands": hands,
        "table": list(table),
        "chips": list(chips) if chips is not None else [0] * len(hands),
        "deals": list(deals),
    }
    if game_id == "domino-fan-tan":
        fields["stock"] = list(stock or ())
    state = game.models.state.model_validate(fields, strict=False)
    assert not game.consistency_issues(state), game.consistency_issues(state)
    return state


def cards_of(moves: Sequence[Any]) -> list[str | None]:
    """The cards of a list of moves (None for pass/draw)."""
    return [m.card for m in moves]


def kinds_of(moves: Sequence[Any]) -> list[str]:
    """The move types of a list of moves."""
    return [str(m.type) for m in moves]
