"""``python -m bench.deal_lengths``: how long deals last between bots, and how many never end.

For each game and table size, seeded first deals (seed k written as 64 hex digits, the dealer rotating)
are played on the game's positions (:class:`~sevens_rules.engine.simulate.PositionSimulation`) with the
`rules` heuristic at every seat, then with it at seat 0 against `random` seats, until the deal ends or
``--cap`` rounds pass (a round: one move per seat). Prints, per table and line-up, the deals that did
not end and the median, 90th percentile and longest deal in rounds (My Ship Sails: exchanges). A deal
that never ends is a bug of the heuristics, which the tests check on whole matches
(``tests/test_bots.py``); this shows the distribution behind it::

    python -m bench.deal_lengths --games my-ship-sails --deals 300
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Callable, Sequence
from typing import Any

from sevens_rules.engine.bots.rules import position_chooser
from sevens_rules.engine.dealing import Seeding
from sevens_rules.engine.match import DEAL_OVER, MATCH_OVER
from sevens_rules.engine.registry import GAMES
from sevens_rules.engine.simulate import PositionSimulation

Chooser = Callable[[Any, int, list[int]], int]


def deal_rounds(game_id: str, players: int, seed: int, choosers: Sequence[Chooser], cap: int) -> int | None:
    """The rounds (moves divided by seats) the first deal of seed ``seed`` lasts with ``choosers[seat]``
    at each seat, or None when it has not ended after ``cap`` rounds."""
    game = GAMES[game_id]
    state = game.new(players, game.models.options(), Seeding(f"{seed:064x}"), None, seed % players)
    sim = PositionSimulation.of(game, state)
    assert sim is not None
    for moves_made in range(cap * players):
        if sim.position.phase in (DEAL_OVER, MATCH_OVER):  # every game's phases compare by these values
            return moves_made // players
        seat = sim.to_act()[0]
        sim.apply(choosers[seat](sim.position, seat, sim.legal_moves(seat)))
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.deal_lengths", description=__doc__.split("\n")[0])
    parser.add_argument("--games", nargs="*", default=list(GAMES), help="game ids (default: all)")
    parser.add_argument("--deals", type=int, default=100, help="seeded deals per table and line-up")
    parser.add_argument("--cap", type=int, default=1000, help="rounds after which a deal counts as stuck")
    args = parser.parse_args(argv)
    print("| game | seats | line-up | deals | did not end | median rounds | p90 | longest |")
    print("|---|---|---|---|---|---|---|---|")
    uniform = uniform_chooser(random.Random(0))
    for game_id in args.games:
        game = GAMES[game_id]
        heuristic = position_chooser(game)
        for players in sorted(set(game.table_sizes())):
            for line_up, choosers in (
                ("all rules", [heuristic] * players),
                ("rules against random", [heuristic] + [uniform] * (players - 1)),
            ):
                seeds = range(1, args.deals + 1)
                lengths = [deal_rounds(game_id, players, seed, choosers, args.cap) for seed in seeds]
                ended = sorted(length for length in lengths if length is not None)
                shown = "- | - | -"
                if ended:
                    p90 = ended[int(0.9 * (len(ended) - 1))]
                    shown = f"{statistics.median(ended):g} | {p90} | {ended[-1]}"
                stuck = len(lengths) - len(ended)
                print(f"| {game_id} | {players} | {line_up} | {args.deals} | {stuck} | {shown} |", flush=True)
    return 0


def uniform_chooser(rng: random.Random) -> Chooser:
    """A `random` seat: a uniform legal move."""

    def choose(position: Any, seat: int, moves: list[int]) -> int:
        return moves[rng.randrange(len(moves))]

    return choose


if __name__ == "__main__":
    raise SystemExit(main())
