"""No-leak property of views: states that differ only in what a seat cannot see give it identical views."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from sevens_rules.engine.cards import FULL_DECK, PIQUET_DECK
from sevens_rules.engine.models import updated
from sevens_rules.engine.registry import GAMES
from tests.playout import playout
from tests.seeds import seeding

ORDER = {c: i for i, c in enumerate(FULL_DECK)}


def _state_after(game_id: str, seed: int, steps: int) -> Any:
    game = GAMES[game_id]
    players = game.table_sizes()[seed % len(game.table_sizes())]
    state = None
    for index, (reached, _move) in enumerate(playout(game, players, seed)):
        state = reached
        if index == steps:
            break
    return state


def _hidden_variant(game_id: str, state: Any, seat: int, rng: random.Random) -> Any:
    """Shuffle the cards of the other hands and of face-down piles among themselves, keeping sizes."""
    hands = list(state.hands)
    others = [o for o in range(len(hands)) if o != seat]
    piles = GAMES[game_id].hidden_piles
    pool = [c for o in others for c in hands[o]] + [c for p in piles for c in getattr(state, p)]
    rng.shuffle(pool)
    update: dict[str, Any] = {}
    for o in others:
        hands[o], pool = sorted(pool[: len(hands[o])], key=ORDER.__getitem__), pool[len(hands[o]) :]
    update["hands"] = hands
    for p in piles:
        size = len(getattr(state, p))
        update[p], pool = pool[:size], pool[size:]
    return updated(state, **update)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    game_id=st.sampled_from(sorted(GAMES)),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 60),
    seat=st.integers(0, 7),
    shuffle_seed=st.integers(0, 2**32),
)
def test_states_differing_only_in_hidden_cards_give_identical_views(
    game_id: str, seed: int, steps: int, seat: int, shuffle_seed: int
) -> None:
    game = GAMES[game_id]
    state = _state_after(game_id, seed, steps)
    seat %= game.players(state)
    variant = _hidden_variant(game_id, state, seat, random.Random(shuffle_seed))
    if game.consistency_issues(variant):
        return  # the shuffle broke a rule invariant (e.g. who holds 7H); such a state cannot be posted
    assert game.view(variant, seat) == game.view(state, seat)


def test_a_view_shows_the_seats_own_hand_and_only_sizes_of_the_others() -> None:
    game = GAMES["sjuan"]
    state = game.new(4, game.models.options(), seeding(11), None, None)
    view = game.view(state, 2)
    assert view.hand == state.hands[2]
    assert view.hand_sizes == [13, 13, 13, 13]
    assert view.seed is None and view.commitment == state.commitment
    assert not {c for o in (0, 1, 3) for c in state.hands[o]} & set(view.model_dump_json().split('"'))


def test_piquet_deck_is_the_32_cards_from_seven_to_ace() -> None:
    assert len(PIQUET_DECK) == 32 and {c[0] for c in PIQUET_DECK} == set("789TJQKA")
