"""The ``search`` level: determinized Monte Carlo search with paired playouts, over states drawn by the
sampler.

Each round draws a full state consistent with the bot's information (a *determinization*) and plays
every legal move of the seat in it, each followed by a playout to the end of the deal (every seat
following the rules heuristic, or a uniform move with chance :data:`RANDOM_PLAYOUT_MOVES`). Every move
thus meets the same hidden hands: the luck of the draw, which decides most
of a single playout's result, is common to the moves compared and cancels in their difference (paired
comparison), where Information Set MCTS's UCB1 compares each move over different draws. A playout's
reward is the seat's margin (:func:`position.margins`): its gain in the deal less the others' mean gain,
which tells more per playout than win or loss; in Seven-Up's races of two sides to 7 (two seats, and
the Four-handed sides) it is the match equity of the totals reached (:mod:`.equity`). An iteration is
one playout.

The move answered is the one of highest mean reward, unless the rules heuristic's move trails it by no
more than :data:`CLEARLY_WORSE` standard errors of their paired difference: the heuristic is the better
guess until the search has evidence against it.

Every engine call goes through :mod:`sevens_rules.engine.bots.position`, or the game hooks a playout binds
once (:func:`playout`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from ..match import DEAL_OVER, MATCH_OVER
from . import position
from .equity import equity_rewards, has_equity
from .position import AnyGame
from .rules import playout_heuristic, rules_move
from .sampler import Sampler

RANDOM_PLAYOUT_MOVES = 0.1
"""The chance that a playout move is uniform random rather than the rules heuristic's."""

CLEARLY_WORSE = 1.0
"""Standard errors of the paired difference by which the heuristic's move must trail the search's best
to be overruled."""

PLAYOUT_MOVES = 200
"""The most moves a playout makes: a My Ship Sails deal of random passes may last thousands of moves; a
playout cut short is judged by :func:`position.progress`."""


class Draws(Protocol):
    """What the search draws its states from (a :class:`Sampler`)."""

    def draw(self, rng: random.Random, fresh_seed: bool = True) -> Any: ...


Reward = Callable[[AnyGame, Sequence[int], Any], list[float]]
"""A playout's reward per seat: the game, the totals before the search, the playout's last state."""

REWARDS: dict[str, Reward] = {
    "margin": position.margins,
    "win": position.win_shares,
    "equity": equity_rewards,
}
"""The rewards a search may score its playouts with, by name (the bench's ``--reward``)."""


def reward_of(game: AnyGame, players: int) -> Reward:
    """The reward the search scores ``game``'s playouts with at ``players`` seats: the match equity of
    the totals a playout reached in the tables :mod:`.equity` lists, the margin elsewhere."""
    return equity_rewards if has_equity(game, players) else position.margins


def search_move(
    game: AnyGame,
    state: Any,
    seat: int,
    moves: list[Any],
    rng: random.Random,
    deadline: float,
    iterations: int | None,
    clock: Callable[[], float] = time.perf_counter,
    sampler: Draws | None = None,
    reward: Reward | None = None,
    playout_moves: int | None = None,
    between_playouts: Callable[[], object] = lambda: None,
) -> tuple[Any, int]:
    """The move chosen within ``deadline`` (a value of ``clock``), ``iterations`` playouts or
    ``playout_moves`` moves made in all the playouts (a fixed amount of work, whatever the clock, for as
    long as the deadline allows: a seeded search), and the playouts run. ``moves`` are ``seat``'s legal
    moves in ``state`` (at least two). ``sampler`` draws the states searched (default: the sampler of
    ``seat``'s information; the bench's ``--sees-all`` passes one that answers the true state); ``reward``
    scores a playout (default: :func:`reward_of`). ``between_playouts`` is called before every playout,
    before the deadline is read: the caller may hold the search there (the service holds an unseeded
    search while a seeded one runs)."""
    if sampler is None:
        sampler = Sampler(game, state, seat)
    if reward is None:
        reward = reward_of(game, len(state.hands))
    before = position.totals(game, state)
    heuristic = rules_move(game, state, seat, moves, rng)
    kept = next(index for index, move in enumerate(moves) if move is heuristic)
    count = len(moves)
    sums = [0.0] * count
    squares = [0.0] * count  # sums of the squared differences to the heuristic's move, draw by draw
    draws = ran = made = 0
    most_playouts = math.inf if iterations is None else iterations
    most_moves = math.inf if playout_moves is None else playout_moves
    play = position.play_out_from
    while True:
        world = sampler.draw(rng, fresh_seed=False)
        values: list[float] = []
        for move in moves:
            between_playouts()
            if ran >= most_playouts or made >= most_moves or clock() >= deadline:
                break
            end, length = playout(game, play(game, world, move), rng)
            values.append(reward(game, before, end)[seat])
            ran += 1
            made += length
        if len(values) < count:
            break  # a draw cut short by the budget is left out: its moves would not be paired
        draws += 1
        base = values[kept]
        for index, value in enumerate(values):
            sums[index] += value
            squares[index] += (value - base) ** 2
    return moves[_chosen(sums, squares, draws, kept)], ran


def _chosen(sums: list[float], squares: list[float], draws: int, kept: int) -> int:
    """The index of the move answered: the best mean, unless the heuristic's move (index ``kept``) trails
    it by at most :data:`CLEARLY_WORSE` standard errors of the mean paired difference (two draws at least
    to estimate one)."""
    if draws < 2:
        return kept
    best = max(range(len(sums)), key=lambda index: (sums[index], index == kept, -index))
    lead = (sums[best] - sums[kept]) / draws
    variance = max(squares[best] / draws - lead * lead, 0.0) * draws / (draws - 1)
    return best if lead > CLEARLY_WORSE * math.sqrt(variance / draws) else kept


def playout(game: AnyGame, state: Any, rng: random.Random) -> tuple[Any, int]:
    """``state``, a bots' state (:func:`position.play_out_from`), played on to the end of its deal, or for
    :data:`PLAYOUT_MOVES` moves: each seat plays the rules heuristic's move, or with chance
    :data:`RANDOM_PLAYOUT_MOVES` a uniform legal one. The state reached, and the moves made."""
    # the engine's functions bound once (position.py: on the game's positions when it has them, the state
    # being the position play() made then): a playout makes a few dozen moves
    steps = position.playout_steps(game)
    to_act, acting_moves, apply = steps.to_act, steps.moves, steps.apply
    heuristic = playout_heuristic(game, steps)
    chance, randrange, epsilon = rng.random, rng.randrange, RANDOM_PLAYOUT_MOVES
    over = (DEAL_OVER, MATCH_OVER)
    made = 0
    while made < PLAYOUT_MOVES:
        if state.phase in over:
            break
        acting = to_act(state)
        if not acting:
            break
        mover = acting[0]  # a simultaneous step (My Ship Sails): its seats choose one after another
        if chance() < epsilon:
            legal = acting_moves(state, mover)
            move = legal[randrange(len(legal))]
        else:
            move = heuristic(state, mover)  # (it lists the seat's moves where it needs them)
        state = apply(state, move)
        made += 1
    return state, made
