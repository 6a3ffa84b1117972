"""A fixed amount of engine work, for counting instructions: ``python -m bench.fixed_playout GAME MOVES``.

Plays seeded random playouts of ``GAME`` (matches numbered 0, 1, 2, ... dealt as :mod:`bench.inprocess`
deals them, each move picked by ``random.Random(match number)``) until ``MOVES`` moves are applied, and
prints that number. Wall time on a shared machine varies by half from one run to the next; the number of
CPU instructions this command executes does not, so two versions of the engine compare exactly with::

    PYTHONHASHSEED=0 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        python -m bench.fixed_playout sevens 3000

minus the same command with ``0`` moves (imports and setup), divided by 3000: instructions per move.
"""

from __future__ import annotations

import random
import sys

from bench.inprocess import new_state, table_size
from sevens_rules.engine.registry import GAMES


def fixed_playout(game_id: str, moves: int) -> int:
    """Apply ``moves`` moves of seeded random playouts of ``game_id``; the number applied."""
    game = GAMES[game_id]
    players = table_size(game)
    game.moves(new_state(game, players, 0))  # the service's models are built before any counted move
    applied = 0
    number = 0
    while applied < moves:
        rng = random.Random(number)
        state = new_state(game, players, number)
        number += 1
        while applied < moves:
            _, legal = game.moves(state)
            if not legal:
                break
            state, _ = game.apply(state, rng.choice(legal))
            applied += 1
    return applied


def main(argv: list[str]) -> int:
    """Run :func:`fixed_playout` from the command line."""
    if len(argv) != 2 or argv[0] not in GAMES or not argv[1].isdigit():
        print(f"usage: python -m bench.fixed_playout {{{','.join(GAMES)}}} MOVES", file=sys.stderr)
        return 2
    print(fixed_playout(argv[0], int(argv[1])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
