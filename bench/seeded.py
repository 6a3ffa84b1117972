"""``python -m bench.seeded [BUDGET_MS]``: how long the service's seeded searches take, per game.

A ``bot`` request with a ``bot_seed`` searches for a fixed amount of work
(``engine/bots/levels.py``: ``SEEDED_ITERATIONS_PER_MS``, ``SEEDED_PLAYOUT_MOVES_PER_MS``), so that the
same view, seed and budget give the same move on any machine that does that work within the budget.
This measures the margin: for every game at its smallest and largest table, eight seeded matches of
random moves, a seeded ``search`` (budget ``BUDGET_MS``, default 100, the service's default) every sixth
move where the seat has a choice, in process as the service's worker thread runs it (``choose``, wall
time). It prints, per game, the longest search with where it was (seats, match seed, move) and its
iterations, the median and least iterations over its searches, and the host's reference rate
(bench/README.md, "The reference workload"): a search stops 15 ms before a 100 ms budget ends, so a
seeded search must finish well within 85 ms on the slowest host it should be reproducible on.
"""

from __future__ import annotations

import gc
import random
import statistics
import sys

from bench.reference import reference_rate
from sevens_rules.engine.bots import position
from sevens_rules.engine.bots.levels import choose
from sevens_rules.engine.dealing import Seeding
from sevens_rules.engine.registry import GAMES
from sevens_rules.schema.bots import BotLevel

MATCHES = 8
MOVES = 60
EVERY = 6


def main(argv: list[str]) -> int:
    if len(argv) > 1 or (argv and not argv[0].isdigit()):
        print("usage: python -m bench.seeded [BUDGET_MS]", file=sys.stderr)
        return 2
    budget = int(argv[0]) if argv else 100
    # what the imports built frozen out of the collector's reach, as a worker does at startup
    # (api/telemetry.py, lifespan): a full collection would otherwise walk it all, tens of milliseconds
    gc.collect()
    gc.freeze()
    print(f"seeded searches, budget {budget} ms; reference {reference_rate():,.0f} rounds/s")
    print("| game | searches | longest (ms) | where (seats, seed, move) | its iterations | median | least |")
    print("|---|---:|---:|---|---:|---:|---:|")
    for game_id, game in GAMES.items():
        longest, where, iterations = 0.0, "", []
        for players in sorted({game.min_players, game.max_players}):
            for seed in range(1, MATCHES + 1):
                state = game.new(players, game.models.options(), Seeding(f"{seed:064x}"), None, None)
                rng = random.Random(seed)
                for step in range(MOVES):
                    acting = position.to_act(game, state)
                    if not acting:
                        break
                    seat = acting[0]
                    moves = position.legal_moves(game, state, seat)
                    if len(moves) > 1 and step % EVERY == 0:
                        searched = choose(game, state, seat, BotLevel.search, budget, "bench/seeded")
                        iterations.append(searched.iterations)
                        if searched.elapsed_ms > longest:
                            longest = searched.elapsed_ms
                            where = f"{players}, {seed}, {step} | {searched.iterations}"
                    state = position.play(game, state, moves[rng.randrange(len(moves))])
        median, least = statistics.median(iterations), min(iterations)
        print(f"| {game_id} | {len(iterations)} | {longest:.1f} | {where} | {median:.0f} | {least} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
