"""The shortcuts the engine takes for speed give the answers of the slow ways they replace."""

from __future__ import annotations

from itertools import islice
from typing import Any

import pytest
from pydantic import ValidationError

from sevens_rules.engine import seven_up_rules
from sevens_rules.engine.cards import FULL_DECK, RANKS
from sevens_rules.engine.game import listed, updated
from sevens_rules.engine.registry import GAMES
from sevens_rules.engine.seven_up import SevenUpFamily
from sevens_rules.engine.sjuan import SjuanFamily
from sevens_rules.schema.common import MAX_SEATS, Suit
from sevens_rules.schema.seven_up import SevenUpEvent, SevenUpEventType, SevenUpMove, SevenUpMoveType
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


# ---- Seven-Up family ---------------------------------------------------------------------------------

SEVEN_UP_GAMES = ["seven-up", "four-handed-seven-up", "california-jack"]


def test_seven_up_move_and_event_tables_are_the_validated_models() -> None:
    for seat in range(MAX_SEATS):
        for card in FULL_DECK:
            play = SevenUpMove(type=SevenUpMoveType.play, player=seat, card=card)
            discard = SevenUpMove(type=SevenUpMoveType.discard, player=seat, cards=[card])
            played = SevenUpEvent(type=SevenUpEventType.played, player=seat, card=card)
            assert seven_up_rules._PLAY_MOVES[seat][card] == play
            assert seven_up_rules._DISCARD_MOVES[seat][card] == discard
            assert seven_up_rules._PLAYED_EVENTS[seat][card] == played
    assert dict(seven_up_rules.SUIT_OF) == {s.value: Suit(s.value) for s in Suit}


def _seven_up_probes(players: int) -> list[SevenUpMove]:
    """Moves to ask the legality check about, validated afresh (not the shared listed ones): every card
    played and discarded by every seat, and moves of the right kind with a field too many or a card too
    many, and each decision."""
    probes = []
    for seat in range(players):
        for card in FULL_DECK:
            probes.append(SevenUpMove(type=SevenUpMoveType.play, player=seat, card=card))
            probes.append(SevenUpMove(type=SevenUpMoveType.discard, player=seat, cards=[card]))
        for kind in ("stand", "beg", "give", "run"):
            probes.append(SevenUpMove(type=SevenUpMoveType(kind), player=seat))
        probes += [
            SevenUpMove(type=SevenUpMoveType.play, player=seat, card="AS", cards=["AS"]),
            SevenUpMove(type=SevenUpMoveType.play, player=seat, card="AS", deck=list(FULL_DECK)),
            SevenUpMove(type=SevenUpMoveType.play, player=seat),
            SevenUpMove(type=SevenUpMoveType.discard, player=seat, cards=["AS", "KS"]),
            SevenUpMove(type=SevenUpMoveType.discard, player=seat, cards=[]),
            SevenUpMove(type=SevenUpMoveType.discard, player=seat, cards=["AS"], card="AS"),
            SevenUpMove(type=SevenUpMoveType.discard, player=seat),
        ]
    return probes


@pytest.mark.parametrize("game_id", SEVEN_UP_GAMES)
def test_seven_up_legality_check_is_membership_in_the_move_list(game_id: str) -> None:
    game = GAMES[game_id]
    assert isinstance(game, SevenUpFamily)
    players = max(game.table_sizes())
    probes = _seven_up_probes(players)
    # the check must have said yes and no to every kind of move made inside a deal
    kinds = ("play",) if game_id == "california-jack" else ("play", "discard", "stand", "beg", "give", "run")
    wanted = {(kind, answer) for kind in kinds for answer in (True, False)}
    seen: set[tuple[str, bool]] = set()
    seed = 0
    while seed < 3 or (not wanted <= seen and seed < 30):
        for step, (state, move) in enumerate(playout(game, players, seed)):
            if step % 5 and move is not None and move.type is not SevenUpMoveType.discard:
                continue  # every discard state, every fifth of the rest
            candidates = [*probes, *(m for seat in range(players) for m in game.deal_moves(state, seat))]
            for probe in candidates:
                legal = probe in game.deal_moves(state, probe.player)
                assert game.is_legal_in_deal(state, probe) == legal, (state, probe)
                seen.add((probe.type.value, legal))
        seed += 1
    assert wanted <= seen, wanted - seen
