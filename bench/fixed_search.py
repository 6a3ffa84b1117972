"""A fixed amount of search work, for counting instructions: ``python -m bench.fixed_search GAME ITERATIONS``.

Runs one ``search`` of ``ITERATIONS`` playouts (``random.Random(3)``, no deadline) on the mid-deal state
that ``python -m bench bots --speed`` times (:func:`bench.bots.mid_deal`, four seats where the game is
played), and prints the playouts run. Wall time on a shared machine varies by half from one run to the
next; the instructions this command executes do not, so two versions of the search compare exactly with::

    PYTHONHASHSEED=0 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        python -m bench.fixed_search my-ship-sails 2000

less the same command with ``0`` (imports, setup and the mid-deal state: it runs no playout), divided by
2000: instructions per search iteration.
"""

from __future__ import annotations

import math
import random
import sys

from bench.bots import mid_deal
from sevens_rules.engine.bots.search import search_move
from sevens_rules.engine.registry import GAMES


def fixed_search(game_id: str, iterations: int) -> int:
    """Search ``game_id``'s mid-deal state for ``iterations`` playouts; the playouts run (none for 0)."""
    game = GAMES[game_id]
    sizes = game.table_sizes()
    found = mid_deal(game_id, 4 if 4 in sizes else sizes[-1])
    assert found is not None  # (every game has a mid-deal choice in its first seeded deals)
    state, seat = found
    if iterations == 0:
        return 0
    moves = game.moves(state, seat)[1]
    return search_move(game, state, seat, moves, random.Random(3), math.inf, iterations)[1]


def main(argv: list[str]) -> int:
    """Run :func:`fixed_search` from the command line."""
    if len(argv) != 2 or argv[0] not in GAMES or not argv[1].isdigit():
        print(f"usage: python -m bench.fixed_search {{{','.join(GAMES)}}} ITERATIONS", file=sys.stderr)
        return 2
    print(fixed_search(argv[0], int(argv[1])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
