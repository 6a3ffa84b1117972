"""The ``search`` level: single-observer Information Set Monte Carlo Tree Search (Cowling, Powley and
Whitehouse, 2012) over states drawn by the sampler, its tree :data:`TREE_DEPTH` levels deep.

Each iteration draws a full state consistent with the bot's information (a *determinization*), walks
the one tree of the bot's information set down the moves that determinization allows, choosing by UCB1
with availability counts (a move's parent visits are the times it was available), adds one node, plays
the deal out (each seat following the rules heuristic, or a uniform move with chance
:data:`RANDOM_PLAYOUT_MOVES`), and credits each node's reward to the seat that moved there. The reward is
the deal's ranking (:func:`position.rewards`): a playout ends when the deal does, or after
:data:`PLAYOUT_MOVES` moves. The move answered is the root move visited most (ties: the engine's order of
the legal moves), unless the rules heuristic's move is not clearly worse (:func:`_preferred`).

Every engine call goes through :mod:`sevens_rules.engine.bots.position`.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from sevens_rules.engine.bots import position
from sevens_rules.engine.bots.position import AnyGame
from sevens_rules.engine.bots.rules import rules_move
from sevens_rules.engine.bots.sampler import Sampler

EXPLORATION = 0.7
"""UCB1's exploration constant for rewards in 0..1."""

RANDOM_PLAYOUT_MOVES = 0.1
"""The chance that a playout move is uniform random rather than the rules heuristic's."""

CLEARLY_WORSE = 1.0
"""Standard errors by which the heuristic's move must trail the search's best to be overruled."""

TREE_DEPTH = 1
"""Levels of the information-set tree grown below the root. One (flat UCB over the seat's moves): at the
budgets the service allows, a few hundred iterations spread over deeper levels leave the root's means
noisier, and the deeper tree did not measure stronger (bench/README.md)."""

PLAYOUT_MOVES = 200
"""The most moves a playout makes: a My Ship Sails deal of random passes may last thousands of moves; a
playout cut short is judged by :func:`position.progress`."""


class Node:
    """A node of the information-set tree: reached by a move of ``actor``."""

    __slots__ = ("actor", "available", "children", "reward", "visits")

    def __init__(self, actor: int) -> None:
        self.actor = actor
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0


def search_move(
    game: AnyGame,
    state: Any,
    seat: int,
    moves: list[Any],
    rng: random.Random,
    deadline: float,
    iterations: int | None,
) -> tuple[Any, int]:
    """The root move visited most within ``deadline`` (a ``time.perf_counter`` value) or ``iterations``,
    and the iterations run. ``moves`` are ``seat``'s legal moves in ``state``."""
    sampler = Sampler(game, state, seat)
    before = position.totals(game, state)
    key = position.move_key
    root = Node(seat)
    for move in moves:
        root.children[key(move)] = Node(seat)
    ran = 0
    clock = time.perf_counter
    while (iterations is None or ran < iterations) and clock() < deadline:
        _iterate(game, sampler.draw(rng, fresh_seed=False), seat, root, before, rng)
        ran += 1
    best = max(moves, key=lambda move: root.children[key(move)].visits)
    return _preferred(root, best, rules_move(game, state, seat, moves, rng), key), ran


def _preferred(root: Node, best: Any, heuristic: Any, key: Any) -> Any:
    """The search's most visited move, unless the rules heuristic's move is not clearly worse: its mean
    reward must trail by more than :data:`CLEARLY_WORSE` standard errors (rewards lie in 0..1, so a
    mean's variance is at most 1/4 over its visits). Few iterations leave the means noisy, and the
    heuristic is the better guess until the search has evidence against it."""
    if best is heuristic:
        return best
    chosen, kept = root.children[key(best)], root.children[key(heuristic)]
    if not chosen.visits or not kept.visits:
        return heuristic
    margin = CLEARLY_WORSE * math.sqrt(0.25 / chosen.visits + 0.25 / kept.visits)
    if chosen.reward / chosen.visits - kept.reward / kept.visits > margin:
        return best
    return heuristic


def _iterate(game: AnyGame, state: Any, seat: int, root: Node, before: list[int], rng: random.Random) -> None:
    to_act, legal_moves, play, key = position.to_act, position.legal_moves, position.play, position.move_key
    node = root
    path: list[Node] = []
    actor = seat  # at the root the bot chooses, even where other seats choose in the same step
    expanded = False
    while True:
        legal = legal_moves(game, state, actor)
        children = node.children
        untried = []
        keys = [key(move) for move in legal]
        for index, move_id in enumerate(keys):
            child = children.get(move_id)
            if child is None:
                untried.append(index)
            else:
                child.available += 1
        if untried:
            index = untried[rng.randrange(len(untried))]
            child = children[keys[index]] = Node(actor)
            child.available = 1
            expanded = True
        else:
            index = _ucb_choice(children, keys)
            child = children[keys[index]]
        move = legal[index]
        path.append(child)
        state = play(game, state, move)
        node = child
        acting = to_act(game, state)
        if not acting or expanded or len(path) >= TREE_DEPTH:
            break
        actor = acting[0]
    # playout to the end of the deal (or PLAYOUT_MOVES): each seat plays the rules heuristic's move,
    # or with chance RANDOM_PLAYOUT_MOVES a uniform random one
    acting = to_act(game, state)
    for _ in range(PLAYOUT_MOVES):
        if not acting:
            break
        mover = acting[0]
        legal = legal_moves(game, state, mover)
        if len(legal) == 1:
            move = legal[0]
        elif rng.random() < RANDOM_PLAYOUT_MOVES:
            move = legal[rng.randrange(len(legal))]
        else:
            move = rules_move(game, state, mover, legal, rng)
        state = play(game, state, move)
        acting = to_act(game, state)
    rewards = position.rewards(game, before, state)
    for visited in path:
        visited.visits += 1
        visited.reward += rewards[visited.actor]


def _ucb_choice(children: dict[Any, Node], keys: list[Any]) -> int:
    """The index in ``keys`` of the child with the best UCB1 value (an unvisited one first)."""
    best_index = 0
    best_value = -1.0
    for index, move_id in enumerate(keys):
        child = children[move_id]
        if child.visits == 0:
            return index
        value = child.reward / child.visits + EXPLORATION * math.sqrt(
            math.log(child.available) / child.visits
        )
        if value > best_value:
            best_value, best_index = value, index
    return best_index
