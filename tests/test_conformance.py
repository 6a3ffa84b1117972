"""Registry-wide conformance: seeded random playouts of every game, player count and option set.

For every reachable state: it passes the consistency check (so every card is present exactly once), and at
sampled states every listed move applies, unlisted moves (another card, another seat) are refused with the
right error, the JSON round trip is exact, no input is mutated, and each seat's view hides the other hands.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from sevens_rules.engine.errors import IllegalMoveError, InvalidRequestError, MoveError, NotYourTurnError
from sevens_rules.engine.models import updated
from sevens_rules.engine.registry import GAMES
from tests.playout import AnyGame, playout
from tests.seeds import seeding

SAMPLE_EVERY = 9
DECK_CARDS = [r + s for s in "CDHS" for r in "A23456789TJQK"]


def option_sets(game: AnyGame) -> list[Any]:
    """The default options, and each boolean option flipped alone (nullable limits set small)."""
    model = game.models.options
    base: dict[str, Any] = {}
    for name, field in model.model_fields.items():
        if field.default is None:
            base[name] = 30  # e.g. max_exchanges: keep random matches short
    variants = [model(**base)]
    for name, field in model.model_fields.items():
        if isinstance(field.default, bool):
            variants.append(model(**{**base, name: not field.default}))
    return variants


CASES = [
    pytest.param(game_id, players, index, id=f"{game_id}-{players}p-options{index}")
    for game_id, game in GAMES.items()
    for players in game.table_sizes()
    for index in range(len(option_sets(game)))
]


def _dump(model: Any) -> bytes:
    return bytes(model.__pydantic_serializer__.to_json(model))


def check_listed_and_unlisted(game: AnyGame, state: Any) -> None:
    """Every listed move applies; a move with another card, or by a seat not to act, is refused."""
    to_act, listed = game.moves(state)
    for move in listed:
        game.apply(state, move)
    for move in listed[:3]:
        if getattr(move, "card", None) is not None:
            for card in DECK_CARDS:
                variant = updated(move, card=card)
                if variant in listed:
                    continue
                with pytest.raises(MoveError):
                    game.apply(state, variant)
        for seat in range(game.players(state)):
            if seat not in to_act:
                with pytest.raises(NotYourTurnError):
                    game.apply(state, updated(move, player=seat))
    with pytest.raises(InvalidRequestError):
        if listed:
            game.apply(state, updated(listed[0], player=game.players(state)))
        else:
            raise InvalidRequestError("no move to probe")


def check_views_hide_other_hands(game: AnyGame, state: Any, rng: random.Random) -> None:
    """No card of another seat's hand appears in a seat's view, and permuting those cards among the
    other hands (same sizes) leaves the view unchanged whenever the permuted state is consistent."""
    hands = getattr(state, "hands", None)
    n = game.players(state)
    for seat in range(n):
        view = game.view(state, seat)
        text = view.model_dump_json()
        if hands is not None:
            for other in range(n):
                if other != seat:
                    for card in hands[other]:
                        assert f'"{card}"' not in text, f"{game.id}: seat {seat} sees {card} of seat {other}"
            others = [o for o in range(n) if o != seat]
            pool = [c for o in others for c in hands[o]]
            rng.shuffle(pool)
            new_hands = list(hands)
            for o in others:
                new_hands[o], pool = pool[: len(hands[o])], pool[len(hands[o]) :]
                new_hands[o] = sorted(new_hands[o], key=DECK_CARDS.index)
            permuted = updated(state, hands=new_hands)
            if not game.consistency_issues(permuted):
                assert game.view(permuted, seat) == view


@pytest.mark.parametrize(("game_id", "players", "options_index"), CASES)
def test_random_playouts_reach_the_end_with_consistent_states(
    game_id: str, players: int, options_index: int
) -> None:
    game = GAMES[game_id]
    options = option_sets(game)[options_index]
    rng = random.Random(players * 100 + options_index)
    for seed in (1, 2):
        last = None
        for steps, (state, _move) in enumerate(playout(game, players, seed + 1000 * options_index, options)):
            assert not game.consistency_issues(state), (steps, game.consistency_issues(state))
            if steps % SAMPLE_EVERY == 0:
                before = _dump(state)
                assert type(state).model_validate_json(before) == state
                check_listed_and_unlisted(game, state)
                check_views_hide_other_hands(game, state, rng)
                assert _dump(state) == before, "an engine function mutated its input"
            last = state
        assert last is not None
        to_act, moves = game.moves(last)
        assert to_act == [] and moves == []
        assert game.outcome(last).over


@pytest.mark.parametrize("game_id", list(GAMES))
def test_same_seed_gives_the_same_match(game_id: str) -> None:
    game = GAMES[game_id]
    options = option_sets(game)[0]
    first = [(_dump(s), m) for s, m in playout(game, game.min_players, 7, options)]
    second = [(_dump(s), m) for s, m in playout(game, game.min_players, 7, options)]
    assert first == second


@pytest.mark.parametrize("game_id", list(GAMES))
def test_an_explicit_deck_of_the_wrong_size_is_refused(game_id: str) -> None:
    game = GAMES[game_id]
    with pytest.raises(InvalidRequestError) as error:
        game.new(game.min_players, game.models.options(), seeding(0), ["AC", "2C"], None)
    assert error.value.argument == "deck"


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_move_in_a_finished_match_is_refused(game_id: str) -> None:
    game = GAMES[game_id]
    *_, (last, _) = playout(game, game.min_players, 3, option_sets(game)[0])
    probe = next(m for s, m in playout(game, game.min_players, 3, option_sets(game)[0]) if m is not None)
    with pytest.raises(MoveError) as error:
        game.apply(last, probe)
    assert not isinstance(error.value, IllegalMoveError | NotYourTurnError)
