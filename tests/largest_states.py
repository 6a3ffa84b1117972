"""The largest states real matches can reach, built per game, to size the limits (README, "Limits").

A match's state grows with its deal records. Each builder fills them up to the most the rules (or, for
the Seven-Up family's thrown-in deals, the service's deal cap) allow, with the widest records, and then
puts a freshly dealt deal in play. Every state built here passes the game's consistency check.
"""

from __future__ import annotations

from typing import Any

import orjson

from sevens_rules.engine.game import Game
from sevens_rules.engine.registry import GAMES
from sevens_rules.schema.seven_up import SEVEN_UP_MAX_DEALS
from sevens_rules.schema.sevens import SevensOptions
from sevens_rules.schema.sjuan import SJUAN_MATCH_TARGET
from tests.playout import playout
from tests.seeds import seeding

AnyGame = Game[Any, Any, Any, Any, Any, Any]
Json = dict[str, Any]


def as_json(model: Any) -> Json:
    """A wire model as plain JSON data."""
    data: Json = orjson.loads(model.__pydantic_serializer__.to_json(model))
    return data


def _with_deals(game: AnyGame, players: int, options: Any, dealer: int, deals: list[Json]) -> Json:
    """A new deal dealt by ``dealer`` in play after the finished ``deals``."""
    state = as_json(game.new(players, options, seeding(0), None, dealer))
    state.update(deals=deals, deal_number=len(deals) + 1)
    game.check(game.models.state.model_validate_json(orjson.dumps(state)))
    return state


def largest_sjuan_state(game_id: str, players: int) -> Json:
    """A Sjuan-family match after the most deals: each deal is won by the next seat and every other seat
    keeps one card (the least a loser keeps), so the totals grow as slowly as the rules allow until one
    more deal could reach the target."""
    game: AnyGame = GAMES[game_id]
    deals: list[Json] = []
    totals = [0] * players
    while True:
        index = len(deals)
        cards_left = [0 if seat == index % players else 1 for seat in range(players)]
        totals = [t + c for t, c in zip(totals, cards_left, strict=True)]
        if max(totals) >= SJUAN_MATCH_TARGET:
            break
        deals.append(
            {
                "number": index + 1,
                "dealer": index % players,
                "winner": index % players,
                "blocked": False,
                "cards_left": cards_left,
                "chips": [0] * players,
                "penalties": cards_left,
                "pot": 0,
            }
        )
    return _with_deals(game, players, game.models.options(), len(deals) % players, deals)


def largest_seven_up_state(game_id: str, players: int) -> Json:
    """A Seven-Up or Four-handed Seven-Up match in the last deal the service allows, after thrown-in
    deals (the only kind the rules do not bound) each holding its turned Jack, the dealer dealing again."""
    game: AnyGame = GAMES[game_id]
    dealer = 0
    deals = [
        {
            "number": index + 1,
            "dealer": dealer,
            "outcome": "thrown_in",
            "trump": None,
            "points": [{"reason": "turned_jack", "seat": dealer, "side": dealer}],
            "by_side": [0] * (2 if game_id == "four-handed-seven-up" else players),
        }
        for index in range(SEVEN_UP_MAX_DEALS - 1)
    ]
    return _with_deals(game, players, game.models.options(), dealer, deals)


def longest_sevens_state() -> Json:
    """A Sevens match of the most deals the ``deals`` option allows, played to its end."""
    game: AnyGame = GAMES["sevens"]
    options = SevensOptions(deals=100)
    *_, (state, _) = playout(game, 4, 1, options)
    return as_json(state)


def graphql_literal(value: Any, enum_keys: frozenset[str] = frozenset()) -> str:
    """``value`` written as a GraphQL input literal; strings under ``enum_keys`` become enum values."""
    if isinstance(value, dict):
        fields = [
            f"{key}: {item}"
            if key in enum_keys and isinstance(item, str)
            else f"{key}: " + graphql_literal(item, enum_keys)
            for key, item in value.items()
        ]
        return "{" + " ".join(fields) + "}"
    if isinstance(value, list):
        return "[" + " ".join(graphql_literal(item, enum_keys) for item in value) + "]"
    return orjson.dumps(value).decode()
