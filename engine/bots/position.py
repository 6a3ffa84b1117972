"""The one adapter between the bots and the engine: everything a bot does to a state goes through here.

A bot reads wire states (the state it is asked about, the states the sampler draws). What a search plays
out from them is the *bots' state*: for a game with an internal representation
(:func:`~sevens_rules.engine.simulate.position_rules`: today every game) the game's position, played with
move codes (:func:`play_out_from`, :func:`playout_steps`); for a game without one, the wire state, through
the public engine API (``Game.acting_moves``, ``Game.resolve``, ``Game.score``'s totals).
A search clones nothing: positions and wire states are immutable, and every move makes a new one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from pydantic import BaseModel

from ..game import Game
from ..match import DEAL_OVER, MATCH_OVER
from ..models import field_values
from ..my_ship_sails_position import longest_suit
from ..simulate import PositionRules, position_rules

AnyGame = Game[Any, Any, Any, Any, Any, Any]


def to_act(game: AnyGame, state: Any) -> list[int]:
    """The seats that may move now (none once the deal or the match is over: a bot plays one deal)."""
    if state.phase in (DEAL_OVER, MATCH_OVER):
        return []
    return game.to_act(state)


def legal_moves(game: AnyGame, state: Any, seat: int) -> list[Any]:
    """The legal moves of ``seat``, a seat to act, in the engine's stable order."""
    return game.acting_moves(state, seat)


def move_key(move: Any) -> Hashable:
    """A hashable key of ``move``, equal for equal moves (a move's list fields, such as a discard's
    cards, make the model itself unhashable)."""
    try:
        hash(move)
    except TypeError:
        return tuple(tuple(v) if isinstance(v, list) else v for v in field_values(move).values())
    hashable: Hashable = move
    return hashable


def play(game: AnyGame, state: Any, move: Any) -> Any:
    """The state after ``move``, a move :func:`legal_moves` listed (not checked again)."""
    return game.resolve(state, move)[0]


def play_out_from(game: AnyGame, state: Any, move: Any) -> Any:
    """The bots' state a playout starts from: wire state ``state`` after ``move`` (a wire move
    :func:`legal_moves` listed, not checked again), as the game's position when it has one (converted
    once), else as a wire state."""
    rules = position_rules(game)
    if rules is None:
        return game.resolve(state, move)[0]
    return rules.position_apply(rules.position(state), cast(int, rules.move_code(move)))


def _positions_of(game: AnyGame, state: Any) -> PositionRules[Any] | None:
    """The game's position rules when ``state`` is one of its positions (not a wire model), else None."""
    if isinstance(state, BaseModel):
        return None
    return position_rules(game)


@dataclass(frozen=True)
class PlayoutSteps:
    """What a playout asks of the bots' states of one game (see :func:`playout_steps`)."""

    to_act: Callable[[Any], list[int]]
    """The seats to act."""
    moves: Callable[[Any, int], list[Any]]
    """The legal moves of a seat to act (move codes on positions, wire moves on wire states)."""
    apply: Callable[[Any, Any], Any]
    """The bots' state after a listed move."""
    on_positions: bool
    """Whether the bots' states are the game's positions (the heuristic reads move codes then)."""


def playout_steps(game: AnyGame) -> PlayoutSteps:
    """The engine's functions a playout binds once: on the game's positions when it has them, else on
    wire states (:func:`play_out_from` makes the first bots' state of a playout)."""
    rules = position_rules(game)
    if rules is not None:
        return PlayoutSteps(rules.position_to_act, rules.position_moves, rules.position_apply, True)
    resolve = game.resolve

    def apply(state: Any, move: Any) -> Any:
        return resolve(state, move)[0]

    return PlayoutSteps(game.to_act, game.acting_moves, apply, False)


def deal_finished(state: Any) -> bool:
    """Whether the deal being played is over (or the whole match)."""
    return state.phase in (DEAL_OVER, MATCH_OVER)


def totals(game: AnyGame, state: Any) -> list[int]:
    """Each seat's match total (its side's in a team game), higher better: penalty totals are negated."""
    values = game.seat_totals(state)
    return [-value for value in values] if game.lowest_total_wins else list(values)


def progress(game: AnyGame, state: Any) -> list[int] | None:
    """How far each seat is toward winning a deal that is not over, where a game says (My Ship Sails: the
    most cards of one suit in the seat's hand, seven wins); None elsewhere."""
    if game.id != "my-ship-sails":
        return None
    if _positions_of(game, state) is not None:  # a position: hands as sets of card bits
        return [longest_suit(hand) for hand in state.hands]
    return [max(Counter(card[1] for card in hand).values()) for hand in state.hands]


MATCH_WON = 1000.0
"""The margin a playout that ends the match adds for each of its winners: more than any deal's points."""


def gains(game: AnyGame, before: Sequence[int], state: Any) -> Sequence[int]:
    """Each seat's gain from totals ``before`` (of a wire state, by :func:`totals`) to ``state``, a bots'
    state (penalties count negative, partners gain alike); for a deal not over, :func:`progress` where
    the game has one."""
    if not deal_finished(state):
        progress_made = progress(game, state)
        if progress_made is not None:
            return progress_made
    rules = _positions_of(game, state)
    if rules is None:
        after = totals(game, state)
    else:  # a position (the bots' state of such a game)
        values = rules.position_totals(state)
        after = [-value for value in values] if game.lowest_total_wins else values
    return [after[seat] - before[seat] for seat in range(len(before))]


def _winners(game: AnyGame, state: Any) -> list[int]:
    """The winners of the match a bots' state finished."""
    rules = _positions_of(game, state)
    return game.outcome(state).winners if rules is None else rules.position_outcome(state).winners


def margins(game: AnyGame, before: Sequence[int], state: Any) -> list[float]:
    """Each seat's margin for a playout that went from totals ``before`` (of a wire state, by
    :func:`totals`) to ``state``, a bots' state: its gain in the
    deal (penalties count negative) less the mean gain of the other seats, partners gaining alike; plus
    :data:`MATCH_WON` for a winner of a match the playout finished. A playout cut short (the deal not
    over) compares :func:`progress` where the game has one, else the totals so far."""
    n = len(before)
    gained = gains(game, before, state)
    total = sum(gained)
    result = [gain - (total - gain) / (n - 1) for gain in gained]
    if state.phase == MATCH_OVER:
        for winner in _winners(game, state):
            result[winner] += MATCH_WON
    return result


def win_shares(game: AnyGame, before: Sequence[int], state: Any) -> list[float]:
    """Each seat's share of the deal's win for a playout that went from totals ``before`` to ``state``,
    as the bench counts a deal: 1/k for each of the k seats of the best gain (:func:`gains`; partners
    gain alike, so a side shares its win), 0 for the others; plus its share of the match's win when the
    playout finished the match."""
    gained = gains(game, before, state)
    best = max(gained)
    tied = sum(1 for gain in gained if gain == best)
    result = [1 / tied if gain == best else 0.0 for gain in gained]
    if state.phase == MATCH_OVER:
        winners = _winners(game, state)
        for winner in winners:
            result[winner] += 1 / len(winners)
    return result
