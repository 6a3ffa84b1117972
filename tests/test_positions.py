"""The pieces every game's position shares (``engine/positions.py``)."""

from __future__ import annotations

import random
from itertools import islice
from typing import Any

import pytest

from sevens_rules.engine.card_sets import bits_of
from sevens_rules.engine.errors import IllegalMoveError
from sevens_rules.engine.registry import GAMES
from tests.playout import playout


@pytest.mark.parametrize("size", [0, 1, 2, 6, 13, 26, 51, 52])
def test_bits_of_lists_the_codes_of_a_set_lowest_first(size: int) -> None:
    rng = random.Random(size)
    for _ in range(50):
        codes = sorted(rng.sample(range(52), size))
        assert bits_of(sum(1 << code for code in codes)) == codes


def test_bits_of_reads_the_cards_at_each_suits_edges() -> None:
    edges = [0, 12, 13, 25, 26, 38, 39, 51]
    assert bits_of(sum(1 << code for code in edges)) == edges
    for code in edges:
        assert bits_of(1 << code) == [code]


def _candidates(game: Any, state: Any, earlier: list[Any], rng: random.Random) -> list[Any]:
    """Moves to offer ``state``: every seat's listed moves, moves listed in earlier states of the match
    (mostly stale now), ``next_deal`` by every seat with and without a deck, each of those moved to
    another seat, and listed moves naming a deck."""
    players = len(state.hands)
    moves = list(game.moves(state)[1]) + earlier
    deck = list(game.deck)
    for seat in range(players):
        moves.append(game.next_deal_move(seat))
        moves.append(game.next_deal_move(seat, deck))
    for move in list(moves):
        moves.append(move.model_copy(update={"player": (move.player + rng.randrange(1, players)) % players}))
    moves.extend(move.model_copy(update={"deck": deck}) for move in game.moves(state)[1][:2])
    return moves


@pytest.mark.parametrize("game_id", list(GAMES))
def test_apply_accepts_exactly_the_moves_its_checks_accept(game_id: str) -> None:
    """``apply`` checks and steps a posted move at once (``resolve_if_legal``; on positions its code and
    the state's position are found once): it must accept exactly the moves of a seat to act that
    ``is_legal`` accepts, and answer what ``resolve`` answers for them."""
    game = GAMES[game_id]
    for seed in range(3):
        rng = random.Random(seed)
        earlier: list[Any] = []
        accepted = refused = 0
        for state, move in islice(playout(game, game.max_players if game_id != "sedmice" else 4, seed), 400):
            for offered in _candidates(game, state, earlier, rng):
                legal = offered.player in game.to_act(state) and game.is_legal(state, offered)
                resolved = game.resolve_if_legal(state, offered)
                assert (resolved is not None) == legal, (state.phase, offered)
                if resolved is not None:
                    accepted += 1
                    assert resolved == game.resolve(state, offered)
                else:
                    refused += 1
            if move is not None:
                earlier = [*earlier[-6:], move]
        assert accepted and refused


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_listed_move_naming_a_field_it_does_not_take_is_illegal(game_id: str) -> None:
    """A move equal to a listed one but for a field that move does not take (a deck on a play or a pass,
    a card on a move that names none) is not the listed move: ``apply`` refuses it as illegal."""
    game = GAMES[game_id]
    offered = 0
    for state, _ in islice(playout(game, 4 if 4 in game.table_sizes() else 2, 7), 200):
        for move in game.moves(state)[1]:
            if move.type == "next_deal":
                continue  # (the deck is next_deal's own argument)
            changes: dict[str, Any] = {"deck": list(game.deck)}
            if getattr(move, "card", "absent") is None:
                changes = {"card": game.deck[0]}
            with pytest.raises(IllegalMoveError):
                game.apply(state, move.model_copy(update=changes))
            offered += 1
    assert offered
