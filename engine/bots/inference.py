"""What the others' play says of their hands, in the Sjuan family (Sjuan, Fan Tan, free fan tan): a weight
for each state the sampler draws.

The sampler draws the hidden cards uniformly among the states consistent with the rules (the hand sizes,
the opening card). The table keeps its cards in the order they were played and each seat's chips count
its passes, so the deal's turns can be replayed: turns go round from the first player, each a play (the
table's next card) or a pass. Which of a seat's turns were its passes is not kept; every arrangement of
them (up to :data:`MOST_ARRANGEMENTS`) is tried. For a drawn state and one arrangement, each seat's hand
at each of its turns is its hand now plus the cards it played later, and:

- a pass where that hand held a playable card is impossible (a seat with a playable card must play);
- a play among two or more playable cards is as likely as the others' policy makes it: the rules
  heuristic's choice with chance ``1 - EPSILON`` (shared among equally scored cards), any playable card
  with chance ``EPSILON`` (a seat that does not play by the heuristic).

A drawn state's weight is the sum over arrangements of the product of these chances over the others'
turns (the seat's own passes only rule arrangements out: its hand is known). Drawn uniformly and weighted
so, the states follow the posterior given the deal's public history under that model of the others. The
seat to move reads only public fields (the table, the chips, the hand sizes, the dealer and the turn) and
its own hand.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations, product
from typing import Any

from sevens_rules.engine.bots import position
from sevens_rules.engine.bots.position import AnyGame
from sevens_rules.engine.bots.rules import layout_best_plays

EPSILON = 0.1
"""The chance that another seat plays any playable card rather than the rules heuristic's choice."""

MOST_ARRANGEMENTS = 128
"""The most arrangements of the passes among the turns weighed; with more, no inference (uniform)."""

GAMES = frozenset({"sjuan", "fan-tan", "free-fan-tan"})
"""The games whose history the table and chips keep (Domino fan tan's draws are not counted)."""


class Turn:
    """One turn of an arrangement: the seat, the card it played (None: a pass), the cards playable then,
    and the cards it played later in the deal."""

    __slots__ = ("card", "later", "playable", "seat")

    def __init__(self, seat: int, card: str | None, playable: frozenset[str], later: frozenset[str]) -> None:
        self.seat, self.card, self.playable, self.later = seat, card, playable, later


class History:
    """The deal's possible histories for ``seat`` in ``state``: built once a search, asked per draw."""

    def __init__(self, game_id: str, table: list[str], arrangements: list[list[Turn]], seat: int) -> None:
        self.game_id, self.table, self.arrangements, self.seat = game_id, table, arrangements, seat

    def weight(self, hands: Sequence[Sequence[str]]) -> float:
        """The weight of a drawn state's ``hands`` (the seat's own as it is)."""
        total = 0.0
        game_id, table, seat = self.game_id, self.table, self.seat
        held = [frozenset(hand) for hand in hands]
        for turns in self.arrangements:
            chance = 1.0
            played = 0
            for turn in turns:
                if turn.seat == seat:
                    played += turn.card is not None
                    continue
                hand = held[turn.seat] | turn.later
                if turn.card is None:
                    if not hand.isdisjoint(turn.playable):
                        chance = 0.0
                        break
                    continue
                legal = [card for card in hand if card in turn.playable]
                if len(legal) > 1:
                    best = layout_best_plays(game_id, table if played else (), hand, legal)
                    chance *= EPSILON / len(legal) + ((1 - EPSILON) / len(best) if turn.card in best else 0.0)
                played += 1
            total += chance
        return total


def history(game: AnyGame, state: Any, seat: int) -> History | None:
    """The deal's possible histories as ``seat`` knows them, or None where nothing is inferred (another
    game, an option that changes the turns, too many arrangements, nothing played by the others with a
    choice)."""
    if game.id not in GAMES or state.phase != "play" or state.turn is None:
        return None
    n = len(state.hands)
    table = list(state.table)
    if not table:
        return None
    dealt = _dealt(n, state.dealer)
    largest = max(dealt)
    passes = [chips - (1 if size < largest else 0) for chips, size in zip(state.chips, dealt, strict=True)]
    played = [size - len(hand) for size, hand in zip(dealt, state.hands, strict=True)]
    if min(passes) < 0 or min(played) < 0 or sum(played) != len(table):
        return None
    turns = len(table) + sum(passes)
    first = (state.turn - turns) % n
    if game.id != "sjuan" and first != (state.dealer + 1) % n:
        return None
    if game.id == "sjuan" and table[0] != "7H":
        return None
    # the turns of each seat, in order; which of them were passes is what the arrangements choose
    own_turns: list[list[int]] = [[] for _ in range(n)]
    for index in range(turns):
        own_turns[(first + index) % n].append(index)
    count = 1
    for other in range(n):
        if len(own_turns[other]) != played[other] + passes[other]:
            return None
        count *= math.comb(len(own_turns[other]), passes[other])
    if count > MOST_ARRANGEMENTS:
        return None
    choices = [list(combinations(own_turns[other], passes[other])) for other in range(n)]
    playable_after = [position.playable_on(game, state, table[:k]) for k in range(len(table) + 1)]
    own_hand = frozenset(state.hands[seat])
    arrangements: list[list[Turn]] = []
    for chosen in product(*choices):
        passed = set().union(*chosen)
        if game.id == "sjuan" and 0 in passed:
            continue  # Sjuan opens with 7H: the first turn is a play
        sequence: list[tuple[int, str | None, frozenset[str]]] = []
        card_index = 0
        for index in range(turns):
            mover = (first + index) % n
            if index in passed:
                sequence.append((mover, None, playable_after[card_index]))
            else:
                sequence.append((mover, table[card_index], playable_after[card_index]))
                card_index += 1
        later: list[set[str]] = [set() for _ in range(n)]
        built: list[Turn] = []
        for mover, card, playable in reversed(sequence):
            built.append(Turn(mover, card, playable, frozenset(later[mover])))
            if card is not None:
                later[mover].add(card)
        built.reverse()
        # the seat's own passes: its hand then (its hand now and its later plays) held no playable card
        if any(
            turn.seat == seat and turn.card is None and not (own_hand | turn.later).isdisjoint(turn.playable)
            for turn in built
        ):
            continue
        arrangements.append(built)
    if not arrangements:
        return None
    return History(game.id, table, arrangements, seat)


def _dealt(n: int, dealer: int) -> list[int]:
    """Each seat's cards at the deal: the whole deck, the first ``52 mod n`` seats left of the dealer one
    more (RULINGS 1)."""
    extra = 52 % n
    return [52 // n + (1 if (seat - dealer - 1) % n < extra else 0) for seat in range(n)]
