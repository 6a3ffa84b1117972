"""``python -m bench.deal_points [GAME PLAYERS]``: what the deals between ``rules`` bots score, per table
played to a target, for the search's match equity (``engine/bots/equity.py``, ``DEAL_POINTS``: the
tables it lists, or the one named).

Every seat of ``MATCHES`` seeded matches (seeds from ``FIRST_SEED``) follows the ``rules`` heuristic on
the game's positions, and each deal that ends is counted by each side's points, the dealer's side's
first, then the others' in the order the deal passes (two sides: the dealer's, the other's), deals that
scored nothing left out. A deal that ends the match counts the points counted up to the target, as the
rules count them. It prints the table as ``DEAL_POINTS`` holds it.
"""

from __future__ import annotations

import sys
from collections import Counter

from bench.inprocess import new_state
from sevens_rules.engine.bots.equity import DEAL_POINTS
from sevens_rules.engine.bots.rules import position_chooser
from sevens_rules.engine.match import DEAL_OVER, MATCH_OVER
from sevens_rules.engine.registry import GAMES
from sevens_rules.engine.seven_up_points import SevenUpPoints
from sevens_rules.engine.simulate import position_rules

MATCHES = 2000
FIRST_SEED = 100_000


def deal_points(game_id: str, players: int, matches: int = MATCHES) -> Counter[tuple[int, ...]]:
    """How many deals of ``matches`` matches between ``rules`` bots scored each tuple of points (the
    dealer's side's, then each other side's in the order the deal passes), deals that scored nothing
    left out."""
    game = GAMES[game_id]
    rules = position_rules(game)
    assert rules is not None and isinstance(game, SevenUpPoints)  # (the games of DEAL_POINTS)
    choose = position_chooser(game)
    side_of = game.side_of
    counted: Counter[tuple[int, ...]] = Counter()
    sides = game.side_count(players)
    for number in range(matches):
        position = rules.position(new_state(game, players, FIRST_SEED + number))
        while acting := rules.position_to_act(position):
            seat = acting[0]
            legal = rules.position_moves(position, seat)
            move = legal[0] if len(legal) == 1 else choose(position, seat, legal)
            after = rules.position_apply(position, move)
            if after.phase in (DEAL_OVER, MATCH_OVER) and position.phase not in (DEAL_OVER, MATCH_OVER):
                dealers = side_of(position.match.dealer)
                start = position.match.totals
                order = [(dealers + k) % sides for k in range(sides)]
                gained = tuple(after.totals[side] - start[side] for side in order)
                if any(gained):
                    counted[gained] += 1
            position = after
    return counted


def main(argv: list[str]) -> int:
    tables = [(argv[0], int(argv[1]))] if len(argv) == 2 else list(DEAL_POINTS)
    for game_id, players in tables:
        counted = deal_points(game_id, players)
        print(f"{(game_id, players)!r}: {dict(sorted(counted.items()))!r},", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
