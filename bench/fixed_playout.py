"""A fixed amount of engine work, for counting instructions: ``python -m bench.fixed_playout GAME MOVES
[--internal]``.

Plays seeded random playouts of ``GAME`` (matches numbered 0, 1, 2, ... dealt as :mod:`bench.inprocess`
deals them, each move picked by ``random.Random(match number)``) until ``MOVES`` moves are applied, and
prints that number. Wall time on a shared machine varies by half from one run to the next; the number of
CPU instructions this command executes does not, so two versions of the engine compare exactly with::

    PYTHONHASHSEED=0 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        python -m bench.fixed_playout sevens 3000

minus the same command with ``0`` moves (imports and setup), divided by 3000: instructions per move.
With ``--internal`` the same matches are played on the game's internal representation, as the in-process
bench's *internal* column plays them (each match dealt through the service's ``new``, then move codes
listed and applied on a :class:`~sevens_rules.engine.simulate.PositionSimulation`).
"""

from __future__ import annotations

import random
import sys

from bench.inprocess import new_state, table_size
from sevens_rules.engine.registry import GAMES
from sevens_rules.engine.simulate import PositionSimulation, position_rules


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


def fixed_internal_playout(game_id: str, moves: int) -> int:
    """:func:`fixed_playout` on the game's internal representation (the same matches and picks)."""
    game = GAMES[game_id]
    players = table_size(game)
    PositionSimulation.of(game, new_state(game, players, 0))  # models and tables built before counting
    applied = 0
    number = 0
    while applied < moves:
        rng = random.Random(number)
        simulation = PositionSimulation.of(game, new_state(game, players, number))
        assert simulation is not None  # (main refuses a game without an internal representation)
        number += 1
        legal = simulation.legal_moves()
        while legal and applied < moves:
            simulation.apply(rng.choice(legal))
            applied += 1
            legal = simulation.legal_moves()
    return applied


def main(argv: list[str]) -> int:
    """Run :func:`fixed_playout` (or :func:`fixed_internal_playout`) from the command line."""
    internal = "--internal" in argv
    arguments = [argument for argument in argv if argument != "--internal"]
    if (
        len(arguments) != 2
        or arguments[0] not in GAMES
        or not arguments[1].isdigit()
        or (internal and position_rules(GAMES[arguments[0]]) is None)
    ):
        usage = f"usage: python -m bench.fixed_playout {{{','.join(GAMES)}}} MOVES [--internal]"
        print(usage, file=sys.stderr)
        return 2
    play = fixed_internal_playout if internal else fixed_playout
    print(play(arguments[0], int(arguments[1])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
