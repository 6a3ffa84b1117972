"""``python -m bench bots``: tournaments between the bot levels, a table per game and table size.

Every game is dealt from seeded deals (deal k from seed k written as 64 hex digits) and each deal is
played once per seat rotation, so every level sits in every seat of the same cards:

- two sides (two seats, or partners in Four-handed Seven-Up and four-seat Sedmice): the tested level
  holds one side, the opponent level the other, then the sides swap;
- three seats or more: the tested level holds one seat, the opponent level every other one, and the
  tested seat goes round the table.

A game is a deal by default (``--unit deal``: the deal's points decide, penalty games lowest) or a whole
match (``--unit match``). A win counts 1, a tie for first 1/k among the k tied. The table gives the win
rate with a 95% confidence interval, the chance share (1/n seats, or 1/2 sides) and the issue's target.

The interval is over seeded deals, not games: the games of one seed (its rotations) share the cards, so
they are not independent draws, and the cards' luck, which one seat's result mostly follows, cancels
between them (a two-seat deal whose cards decide it gives each level one win). Each seed's share of
wins (over its rotations) is one observation; the interval is their mean ± Student's t (95%, degrees of
freedom one less than the seeds) times their standard error, clipped to 0..1 (:meth:`Tally.interval`). A
binomial interval over the games would treat the rotations as independent: on the runs of 6 December
with 50 to 330 seeds it came out 1.35 to 2.45 times as wide as this one per deal and 1.09 to 1.29 times
per match (a match's later deals part ways between the rotations, so less of the luck cancels), and
where the rotations' results went together it would be too narrow; with a handful of seeds the t
quantile makes this one the wider.

Search thinks as the service lets it: for ``--budget-ms`` per move (default 200, the service's default
maximum), measured in CPU time of this process (``--clock cpu``) so that the other processes of a shared
machine do not shorten its thinking, and with no cap on its iterations (the service caps a seeded request
at ``budget_ms`` x ``SEEDED_ITERATIONS_PER_MS`` iterations and ``budget_ms`` x
``SEEDED_PLAYOUT_MOVES_PER_MS`` playout moves; the bench seeds its bots only to choose reproducibly
between equal moves).
``--iterations N`` runs a fixed number instead, for a run that does not depend on speed at all.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.reference import at_reference_speed, host_rate_now
from sevens_rules.engine.bots import position
from sevens_rules.engine.bots.levels import choose
from sevens_rules.engine.bots.search import REWARDS, Reward
from sevens_rules.engine.dealing import Seeding
from sevens_rules.engine.registry import GAMES
from sevens_rules.schema.bots import BotLevel

AnyGame = Any

TEAM_GAMES = {("four-handed-seven-up", 4), ("sedmice", 4)}
"""The tables played by two sides of partners (seats 0+2 and 1+3)."""

PAIRINGS: tuple[tuple[BotLevel, BotLevel], ...] = (
    (BotLevel.search, BotLevel.random),
    (BotLevel.search, BotLevel.rules),
    (BotLevel.rules, BotLevel.random),
)
"""Tested level against opponent level."""


_T_975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228)
"""Student's t two-sided 95% quantiles for 1 to 10 degrees of freedom (standard tables)."""


def t_975(freedom: int) -> float:
    """Student's t 97.5% quantile for ``freedom`` degrees of freedom (at least 1): the table above, then
    the Cornish-Fisher expansion around the normal quantile (three terms), within 0.001 of the tables
    from 11 on."""
    if freedom <= len(_T_975):
        return _T_975[freedom - 1]
    z, v = 1.959964, freedom
    return (
        z
        + (z**3 + z) / (4 * v)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3)
    )


@dataclass
class Tally:
    """Wins (ties shared) over games played, and each seeded deal's share of its games won."""

    wins: float = 0.0
    games: int = 0
    search_moves: int = 0
    search_iterations: int = 0
    search_seconds: float = 0.0
    seed_shares: list[float] = field(default_factory=list)
    """For each seed played, the share of its rotations' games won (one observation per seed)."""

    def add_seed(self, wins: float, games: int) -> None:
        """Count the ``games`` (rotations) of one seed, of which the tested level won ``wins``."""
        self.wins += wins
        self.games += games
        self.seed_shares.append(wins / games)

    def interval(self) -> tuple[float, float, float]:
        """The win rate and its 95% confidence interval over the seeds (see the module's documentation);
        0 to 1 with fewer than two seeds, where no spread can be measured."""
        if not self.games:
            return 0.0, 0.0, 0.0
        rate = self.wins / self.games
        seeds = len(self.seed_shares)
        if seeds < 2:
            return rate, 0.0, 1.0
        half = t_975(seeds - 1) * statistics.stdev(self.seed_shares) / math.sqrt(seeds)
        return rate, max(0.0, rate - half), min(1.0, rate + half)


def target(tested: BotLevel, opponent: BotLevel, sides: int) -> float:
    """The issue's strength target for a tested level against an opponent level."""
    chance = 1 / sides
    if tested is BotLevel.rules:
        return chance  # rules beats random: better than the chance share
    if sides == 2:
        return 0.8 if opponent is BotLevel.random else 0.6
    return 2 * chance if opponent is BotLevel.random else 1.25 * chance


def play_deal(
    game: AnyGame,
    state: Any,
    levels: Sequence[BotLevel],
    seed: str,
    iterations: int | None,
    budget_ms: int,
    tally: Tally,
    until_match_end: bool,
    clock: Callable[[], float] = time.process_time,
    sees_all: bool = False,
    reward: Reward | None = None,
) -> Any:
    """Play ``state`` to the end of its deal (or match) with each seat's level; the final state. A search
    runs ``iterations`` playouts, or with None as many as ``budget_ms`` of ``clock`` allows; with
    ``sees_all`` it searches the true state instead of draws from its seat's information (a cheat: how
    far knowing every card takes it), with ``reward`` instead of its own playout reward."""
    most = iterations if iterations is not None else UNCAPPED
    step = 0
    while True:
        seats = position.to_act(game, state)
        if not seats:
            if not until_match_end or state.phase == "match_over":
                return state
            seats = game.to_act(state)  # next_deal
        seat = seats[0]
        level = levels[seat]
        searching = level is BotLevel.search
        choice = choose(
            game,
            state,
            seat,
            level,
            budget_ms,
            f"{seed}/{step}",
            most,
            clock=clock,
            sampler=SeesAll(state) if searching and sees_all else None,
            reward=reward if searching else None,
        )
        if level is BotLevel.search and choice.iterations:
            tally.search_moves += 1
            tally.search_iterations += choice.iterations
            tally.search_seconds += choice.elapsed_ms / 1000
        state = game.apply(state, choice.move)[0]
        step += 1


class SeesAll:
    """A cheating search's sampler: every draw is the true state (``--sees-all``)."""

    def __init__(self, state: Any) -> None:
        self.state = state

    def draw(self, rng: random.Random, fresh_seed: bool = True) -> Any:
        return self.state


UNCAPPED = 10**9
"""The iterations a budgeted search is allowed: more than any budget reaches, so that the budget decides."""

CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}
"""What ``--clock`` measures a search's budget with."""


def score_seats(game: AnyGame, start: Any, end: Any, until_match_end: bool) -> list[float]:
    """Each seat's share of the win: 1/k for each of the k best (deal gain, or match winners)."""
    n = len(start.hands)
    if until_match_end:
        winners = set(game.outcome(end).winners)
        return [1 / len(winners) if seat in winners else 0.0 for seat in range(n)]
    before, after = position.totals(game, start), position.totals(game, end)
    gains = [after[s] - before[s] for s in range(n)]
    best = max(gains)
    tied = [s for s in range(n) if gains[s] == best]
    return [1 / len(tied) if s in tied else 0.0 for s in range(n)]


def run_table(
    game_id: str, players: int, tested: BotLevel, opponent: BotLevel, args: argparse.Namespace
) -> tuple[Tally, int]:
    """Play ``args.deals`` seeded deals with every rotation; the tally and the number of sides."""
    game = GAMES[game_id]
    teams = (game_id, players) in TEAM_GAMES
    sides = 2 if teams else players
    tally = Tally()
    for k in range(args.deals):
        seed = f"{k + args.first_seed:064x}"
        won = 0.0
        for rotation in range(sides):
            if teams:
                levels = [tested if seat % 2 == rotation else opponent for seat in range(players)]
                mine = [seat for seat in range(players) if seat % 2 == rotation]
            else:
                levels = [tested if seat == rotation else opponent for seat in range(players)]
                mine = [rotation]
            start = game.new(players, game.models.options(), Seeding(seed), None, k % players)
            end = play_deal(
                game,
                start,
                levels,
                f"{seed}/{rotation}",
                args.iterations,
                args.budget_ms,
                tally,
                args.unit == "match",
                CLOCKS[args.clock],
                args.sees_all,
                REWARDS[args.reward] if args.reward else None,
            )
            shares = score_seats(game, start, end, args.unit == "match")
            # a side's share of the win is the sum of its seats' shares (partners score alike)
            won += sum(shares[seat] for seat in mine)
        tally.add_seed(won, sides)
        # progress on stderr (stdout holds the tables only): a slow table shows how far it is, and the
        # exact games won, which runs of the same cell on other seeds are pooled with
        print(
            f"{game_id}, {players} seats, {tested} against {opponent}: deal {k + 1} of {args.deals}, "
            f"{tally.games} games, win share so far {tally.wins / tally.games:.0%} ({tally.wins:g} won)",
            file=sys.stderr,
            flush=True,
        )
    return tally, sides


MID_DEAL_STEPS = 4
"""Moves per seat that make a deal whose hands keep their size (My Ship Sails) mid-deal."""


def mid_deal(game_id: str, players: int) -> tuple[Any, int] | None:
    """A seeded state halfway through a first deal (the seat to act holds about half its cards, or in a
    game whose hands keep their size, :data:`MID_DEAL_STEPS` moves per seat were made; and the seat has a
    choice), and the seat to act; the first of seeds 1, 2, ... that reaches one (None after 20)."""
    game = GAMES[game_id]
    for seed in range(1, 21):
        state = game.new(players, game.models.options(), Seeding(f"{seed:064x}"), None, 0)
        dealt = [len(hand) for hand in state.hands]
        full = max(dealt)
        rng = random.Random(seed)
        for made in range(2000):
            seats = position.to_act(game, state)
            if not seats:
                break
            seat = seats[0]
            moves = game.moves(state, seat)[1]
            halfway = len(state.hands[seat]) <= (full + 1) // 2 or (
                made >= MID_DEAL_STEPS * players and [len(hand) for hand in state.hands] == dealt
            )
            if halfway and len(moves) > 1:
                return state, seat
            if [len(hand) for hand in state.hands] != dealt:
                dealt = []  # the hands change size: only the first test says mid-deal
            state = game.apply(state, moves[rng.randrange(len(moves))])[0]
    return None


def search_speed(args: argparse.Namespace) -> None:
    """Search iterations per second on a mid-deal state of every game, four seats where it is played: the
    best of ``args.speed_repeats`` searches of ``args.speed_seconds`` each (on a shared machine the other
    processes slow some searches down, by cache and memory traffic, even per CPU second). Each search comes
    right after a run of the reference workload, which scales its rate per CPU second to the reference
    speed (:func:`~bench.reference.at_reference_speed`); as the in-process bench reads its slices, the
    table gives the median of the searches so scaled, and the median reference rate (the best would
    favour a search whose reference run met a slow moment)."""
    print(
        f"search speed: best of {args.speed_repeats} searches of {args.speed_seconds} s on a mid-deal state, "
        "one process; each after a reference run (the last two columns: medians over the searches)"
    )
    print(
        "\n| game | seats | hand | legal moves | iterations | it/s (wall) | it/CPU-s | host reference "
        "(rounds/CPU-s) | it/CPU-s at reference speed |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for game_id in args.games:
        sizes = GAMES[game_id].table_sizes()
        players = 4 if 4 in sizes else sizes[-1]
        found = mid_deal(game_id, players)
        if found is None:
            print(f"| {game_id} | {players} | - | - | no mid-deal choice in 20 seeded deals |{' - |' * 4}")
            continue
        state, seat = found
        moves = GAMES[game_id].moves(state, seat)[1]
        budget_ms = int(args.speed_seconds * 1000)
        best: tuple[float, float, int] = (0.0, 0.0, 0)
        hosts: list[float] = []
        scaled: list[float] = []
        for _ in range(args.speed_repeats):
            hosts.append(host_rate_now())
            wall, cpu = time.perf_counter(), time.process_time()
            choice = choose(GAMES[game_id], state, seat, BotLevel.search, budget_ms, None)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            per_cpu = choice.iterations / cpu
            scaled.append(at_reference_speed(per_cpu, hosts[-1]))
            best = max(best, (per_cpu, choice.iterations / wall, choice.iterations))
        per_cpu, per_wall, iterations = best
        print(
            f"| {game_id} | {players} | {len(state.hands[seat])} | {len(moves)} | {iterations} | "
            f"{per_wall:,.0f} | {per_cpu:,.0f} | {statistics.median(hosts):,.0f} | "
            f"{statistics.median(scaled):,.0f} |",
            flush=True,
        )


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench bots", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="*", default=list(GAMES), help="game ids (default: all)")
    parser.add_argument("--sizes", nargs="*", type=int, help="table sizes (default: smallest and four)")
    parser.add_argument("--deals", type=int, default=20, help="seeded deals per table and pairing")
    parser.add_argument("--first-seed", type=int, default=1, help="seed of the first deal")
    parser.add_argument("--iterations", type=int, help="search iterations per move (default: by budget)")
    parser.add_argument("--budget-ms", type=int, default=200, help="search budget per move (ms)")
    parser.add_argument("--clock", choices=tuple(CLOCKS), default="cpu", help="what the budget measures")
    parser.add_argument("--speed", action="store_true", help="measure search iterations per second only")
    parser.add_argument("--speed-seconds", type=float, default=2.0, help="search time per game (--speed)")
    parser.add_argument("--speed-repeats", type=int, default=3, help="searches per game, best kept (--speed)")
    parser.add_argument(
        "--sees-all", action="store_true", help="search the true state (a cheat: how much is luck)"
    )
    parser.add_argument(
        "--reward", choices=tuple(REWARDS), help="the search's playout reward (default: its own per game)"
    )
    parser.add_argument("--unit", choices=("deal", "match"), default="deal", help="what a game is")
    parser.add_argument(
        "--pairings", nargs="*", default=[f"{a}-{b}" for a, b in PAIRINGS], help="tested-opponent levels"
    )
    return parser.parse_args(argv)


def default_sizes(game_id: str) -> list[int]:
    sizes = GAMES[game_id].table_sizes()
    chosen = {sizes[0]}
    if 4 in sizes:
        chosen.add(4)
    return sorted(chosen)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.speed:
        search_speed(args)
        return 0
    mode = (
        f"{args.iterations} iterations per search move"
        if args.iterations
        else f"{args.budget_ms} ms of {args.clock} time per search move"
    )
    print(
        f"bots: {args.deals} seeded deals per table and pairing, each rotation; search {mode}; "
        f"{'matches' if args.unit == 'match' else 'deals'}"
        f"{'; search sees every card' if args.sees_all else ''}"
        f"{f'; search reward {args.reward}' if args.reward else ''}"
    )
    for game_id in args.games:
        sizes = args.sizes or default_sizes(game_id)
        for players in sizes:
            if players not in GAMES[game_id].table_sizes():
                continue
            print(f"\n### {game_id}, {players} seats\n")
            print(
                "| tested | against | seeds | games | win rate | 95% CI | chance | target | met | it/move "
                "| it/s (wall) |"
            )
            print("|---|---|---|---|---|---|---|---|---|---|---|")
            for pairing in args.pairings:
                tested, opponent = (BotLevel(level) for level in pairing.split("-"))
                tally, sides = run_table(game_id, players, tested, opponent, args)
                rate, low, high = tally.interval()
                goal = target(tested, opponent, sides)
                met = (
                    "yes"
                    if low >= goal or (tested is BotLevel.rules and low > goal)
                    else ("no" if high < goal else "unclear")
                )
                speed = (
                    f"{tally.search_iterations / tally.search_moves:,.0f} | "
                    f"{tally.search_iterations / tally.search_seconds:,.0f}"
                    if tally.search_seconds
                    else "- | -"
                )
                print(
                    f"| {tested} | {'all ' if sides > 2 else ''}{opponent} | {len(tally.seed_shares)} "
                    f"| {tally.games} | {rate:.0%} | "
                    f"{low:.0%}-{high:.0%} | {1 / sides:.0%} | {'>' if tested is BotLevel.rules else '≥'}"
                    f"{goal:.0%} | {met} | {speed} |",
                    flush=True,
                )
    return 0
