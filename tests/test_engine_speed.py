"""The shortcuts the engine takes for speed give the answers of the slow ways they replace."""

from __future__ import annotations

from itertools import islice
from typing import Any

import pytest
from pydantic import ValidationError

from sevens_rules.engine.cards import RANKS
from sevens_rules.engine.game import listed, updated
from sevens_rules.engine.registry import GAMES
from sevens_rules.engine.sjuan import SjuanFamily
from sevens_rules.schema.sjuan import SjuanMove, SjuanMoveType
from tests.playout import playout


def states_of(game_id: str, seed: int, count: int) -> list[Any]:
    """The first ``count`` states of a random playout of ``game_id`` at its largest table."""
    game = GAMES[game_id]
    return [state for state, _ in islice(playout(game, max(game.table_sizes()), seed), count)]


@pytest.mark.parametrize("game_id", list(GAMES))
def test_updated_is_model_copy(game_id: str) -> None:
    state = states_of(game_id, 3, 5)[-1]
    fields = type(state).model_fields
    name = "dealer" if "dealer" in fields else next(iter(fields))
    value = getattr(state, name)
    copy = updated(state, **{name: value})
    expected = state.model_copy(update={name: value})
    assert copy == expected == state
    assert copy is not state
    assert copy.model_fields_set == expected.model_fields_set
    assert copy.model_dump_json() == state.model_dump_json()
    with pytest.raises(ValidationError):  # still frozen
        copy.dealer = 1


def test_updated_changes_only_the_named_fields_and_refuses_unknown_ones() -> None:
    state = states_of("sjuan", 1, 3)[-1]
    changed = updated(state, turn=(state.turn + 1) % 4, chips=[5, 5, 5, 5])
    assert changed.turn == (state.turn + 1) % 4 and changed.chips == [5, 5, 5, 5]
    assert state.chips != [5, 5, 5, 5]  # the original is untouched
    assert changed.model_dump(exclude={"turn", "chips"}) == state.model_dump(exclude={"turn", "chips"})
    with pytest.raises(TypeError, match="trun"):
        updated(state, trun=1)


def test_listed_moves_are_the_validated_moves_shared() -> None:
    play = SjuanMoveType("play")
    first = listed(SjuanMove, type=play, player=2, card="8H")
    assert first == SjuanMove(type=play, player=2, card="8H")
    assert listed(SjuanMove, type=play, player=2, card="8H") is first
    assert listed(SjuanMove, type=play, player=3, card="8H") != first
    with pytest.raises(ValidationError):  # made through validation, like any move
        listed(SjuanMove, type=play, player=2, card="8X")


def row_ends_by_scanning(table: list[str]) -> set[str]:
    """The Sjuan rule read off the table suit by suit: the 7 of a suit not yet started, else the card
    below and the card above its row."""
    cards = set()
    for suit in "CDHS":
        ranks = sorted(RANKS.index(c[0]) for c in table if c[1] == suit)
        if not ranks:
            cards.add("7" + suit)
            continue
        if ranks[0] > 0:
            cards.add(RANKS[ranks[0] - 1] + suit)
        if ranks[-1] < len(RANKS) - 1:
            cards.add(RANKS[ranks[-1] + 1] + suit)
    return cards


@pytest.mark.parametrize("game_id", ["sjuan", "fan-tan", "domino-fan-tan"])
def test_playable_cards_are_the_row_ends(game_id: str) -> None:
    game = GAMES[game_id]
    assert isinstance(game, SjuanFamily)
    checked = 0
    for seed in range(3):
        for state in states_of(game_id, seed, 200):
            if state.table:
                assert game.playable(state) == row_ends_by_scanning(state.table)
                checked += 1
    assert checked > 100
