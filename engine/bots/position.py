"""The one adapter between the bots and the engine: everything a bot does to a state goes through here.

Today it drives the public engine API on wire states (``Game.moves``, ``Game.resolve``, ``Game.score``'s
totals); when the engine gains a fast internal representation with a ``simulate``-style entry point, only
this module changes. A search clones nothing: wire states are immutable, and every move makes a new one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from typing import Any

from sevens_rules.engine.game import Game
from sevens_rules.engine.match import DEAL_OVER, MATCH_OVER

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
        return tuple(tuple(v) if isinstance(v, list) else v for v in move.__dict__.values())
    hashable: Hashable = move
    return hashable


def play(game: AnyGame, state: Any, move: Any) -> Any:
    """The state after ``move``, a move :func:`legal_moves` listed (not checked again)."""
    return game.resolve(state, move)[0]


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
    return [max(Counter(card[1] for card in hand).values()) for hand in state.hands]


MATCH_WON = 1000.0
"""The margin a playout that ends the match adds for each of its winners: more than any deal's points."""


def gains(game: AnyGame, before: Sequence[int], state: Any) -> Sequence[int]:
    """Each seat's gain from totals ``before`` to ``state`` (penalties count negative, partners gain
    alike); for a deal not over, :func:`progress` where the game has one."""
    if not deal_finished(state):
        progress_made = progress(game, state)
        if progress_made is not None:
            return progress_made
    after = totals(game, state)
    return [after[seat] - before[seat] for seat in range(len(before))]


def margins(game: AnyGame, before: Sequence[int], state: Any) -> list[float]:
    """Each seat's margin for a playout that went from totals ``before`` to ``state``: its gain in the
    deal (penalties count negative) less the mean gain of the other seats, partners gaining alike; plus
    :data:`MATCH_WON` for a winner of a match the playout finished. A playout cut short (the deal not
    over) compares :func:`progress` where the game has one, else the totals so far."""
    n = len(before)
    gained = gains(game, before, state)
    total = sum(gained)
    result = [gain - (total - gain) / (n - 1) for gain in gained]
    if state.phase == MATCH_OVER:
        for winner in game.outcome(state).winners:
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
        winners = game.outcome(state).winners
        for winner in winners:
            result[winner] += 1 / len(winners)
    return result
