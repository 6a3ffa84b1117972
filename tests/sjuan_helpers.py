"""Constructing Sjuan-family states by hand for rule tests, and the slow references of the speed tests."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from sevens_rules.engine.cards import FULL_DECK, sort_cards
from sevens_rules.engine.errors import IssueAt
from sevens_rules.engine.game import bound_issues, length_issues, seat_issues
from sevens_rules.engine.registry import GAMES
from sevens_rules.schema.sjuan import SJUAN_MATCH_TARGET
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


def first_deal_history_issues(game: Any, state: Any) -> list[IssueAt]:
    """The finished deals' issues as the Sjuan family first worked them out: each deal numbered in order,
    then its record checked rule by rule through the shared issue helpers (the reference the faster
    record check is compared with)."""
    n = len(state.hands)
    running = [0] * n
    issues: list[IssueAt] = []
    for index, deal in enumerate(state.deals):
        if deal.number != index + 1:
            issues.append(IssueAt(("deals", index, "number"), f"must be {index + 1}"))
        clean = not issues
        path = ("deals", index)
        found: list[IssueAt] = []
        for name in ("cards_left", "chips", "penalties"):
            found += length_issues((*path, name), getattr(deal, name), n)
        found += seat_issues((*path, "dealer"), deal.dealer, n)
        found += seat_issues((*path, "winner"), deal.winner, n)
        if found or not clean:
            issues += found
            continue
        played = len(FULL_DECK) - sum(deal.cards_left)
        found += bound_issues((*path, "chips"), deal.chips, played + 1, "one pass between two plays")
        count_chips = state.options.chips_count
        expected = [c + (p if count_chips else 0) for c, p in zip(deal.cards_left, deal.chips, strict=True)]
        if deal.penalties != expected:
            found.append(IssueAt((*path, "penalties"), "must be cards left (+ chips when chips_count)"))
        if deal.pot != sum(deal.chips):
            found.append(IssueAt((*path, "pot"), "must be the sum of the chips paid"))
        if (deal.winner is None) != deal.blocked:
            found.append(IssueAt((*path, "blocked"), "a deal has a winner exactly when it is not blocked"))
        if deal.winner is not None and deal.cards_left[deal.winner] != 0:
            found.append(IssueAt((*path, "winner"), "the winner must have emptied their hand"))
        elif any(left == 0 for seat, left in enumerate(deal.cards_left) if seat != deal.winner):
            found.append(IssueAt((*path, "cards_left"), "only the winner's hand is empty when a deal ends"))
        if sum(deal.cards_left) > len(FULL_DECK) - 1:
            found.append(IssueAt((*path, "cards_left"), "at least one card was played in every deal"))
        if deal.dealer != (state.deals[0].dealer + index) % n:
            found.append(IssueAt((*path, "dealer"), "the deal passes to the left after every deal"))
        running = [t + p for t, p in zip(running, deal.penalties, strict=True)]
        if index < len(state.deals) - 1 and max(running) >= SJUAN_MATCH_TARGET:
            found.append(IssueAt(path, "the match ended at an earlier deal"))
        issues += found
    return issues


def with_a_corrupted_deal(state: Any, rng: random.Random) -> Any:
    """``state`` with one field of one finished deal changed at random (or None when that does not make
    a valid wire state): a list entry raised, lowered, added or dropped, or raised so that the list adds
    up to 51 or 52 (a whole deck), a seat moved, a flag flipped."""
    data = state.model_dump(mode="json")
    deal = rng.choice(data["deals"])
    name = rng.choice(["number", "dealer", "winner", "blocked", "pot", "cards_left", "chips", "penalties"])
    if name == "blocked":
        deal[name] = not deal[name]
    elif name == "winner":
        deal[name] = rng.choice([None, *range(len(data["hands"]) + 1)])
    elif name in ("number", "dealer", "pot"):
        deal[name] = max(0, deal[name] + rng.choice([-1, 1, 2]))
    else:
        values = deal[name]
        change = rng.randrange(5)
        seat = rng.randrange(len(values))
        if change == 0:
            values[seat] += rng.choice([1, 30, 60, 100])
        elif change == 1:
            values[seat] = max(0, values[seat] - rng.choice([1, 5]))
        elif change == 2:
            values.append(rng.randrange(3))
        elif change == 3:
            values.pop(seat)
        else:
            values[seat] += max(0, rng.choice([51, 52]) - sum(values))
    try:
        return type(state).model_validate_json(json.dumps(data))
    except ValidationError:
        return None
