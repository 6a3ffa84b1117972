"""In-process part of the bench: random playouts of every game through the public engine API (and on the
internal representation of the games that have one), and the
median time of one ``moves`` and one ``apply`` on a mid-deal state."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from bench.reference import (
    CI_REFERENCE_ROUNDS_PER_SECOND,
    at_reference_speed,
    host_rate_now,
)
from sevens_rules.api.operations import Operation, all_operations
from sevens_rules.engine.game import Game
from sevens_rules.engine.simulate import PositionSimulation, Simulation, position_rules

AnyGame = Game[Any, Any, Any, Any, Any, Any]

MATCH_SEED = 2024
"""Deal seed number of every mid-deal state (see :func:`match_seed`)."""
MOVES_SEED = 20
"""Seed of the RNG that picks the moves leading to a mid-deal state."""
MID_DEAL_MOVES = 20
"""Random legal moves from the first deal to the mid-deal state."""
WIRE_API_TARGET = 100_000
"""Moves per CPU-second every game should reach through the public wire-model API, at the reference
speed (:mod:`bench.reference`)."""
INTERNAL_TARGET = 300_000
"""Moves per CPU-second every game should reach on its internal representation (issue 34), at the
reference speed."""


def match_seed(number: int) -> str:
    """The deal seed numbered ``number``: ``number`` written as the 64 hex digits a seed is."""
    return f"{number:064x}"


@cache
def _new_operation(game_id: str) -> Operation:
    return next(op for op in all_operations() if op.game.id == game_id and op.name == "new")


def new_state(game: AnyGame, players: int, number: int) -> Any:
    """A new match of ``game`` dealt from seed ``number`` (:func:`match_seed`), made as the service makes
    it from a ``new`` request."""
    new = _new_operation(game.id)
    made: Any = new.run(new.request.model_validate({"players": players, "seed": match_seed(number)}))
    return made.state


def table_size(game: AnyGame) -> int:
    """The table size a game is benched at: four when allowed, else the largest allowed."""
    sizes = game.table_sizes()
    return 4 if 4 in sizes else max(sizes)


def mid_deal(game: AnyGame, players: int) -> tuple[Any, list[Any]]:
    """A state ``MID_DEAL_MOVES`` random legal moves into a seeded match, never one without moves, and
    the moves that led there."""
    rng = random.Random(MOVES_SEED)
    state = new_state(game, players, MATCH_SEED)
    path = []
    for _ in range(MID_DEAL_MOVES):
        _, moves = game.moves(state)
        move = rng.choice(moves)
        following, _ = game.apply(state, move)
        if not game.moves(following)[1]:
            break
        state = following
        path.append(move)
    return state, path


class PairedClock:
    """Times playouts in slices of about :data:`SLICE_SECONDS`, each slice right after one run of the
    reference workload, and reads every slice's rate at the host's speed of that moment.

    A shared host's speed changes within seconds, and a virtual machine's CPU clock runs on while its
    core serves a neighbour, so a reference timed once per bench run (or once per game) can be timed at
    another speed than the playouts it scales. Paired slices cancel that: the rate at reference speed is
    the median over slices of each slice's moves/CPU-s scaled by the reference run just before it. The
    reference runs are left out of the playouts' clocks; the playouts get their ``seconds`` in full.
    """

    def __init__(self, seconds: float) -> None:
        self.moves = 0
        """Moves applied in the finished slices."""
        self.cpu = 0.0
        """CPU seconds of the finished slices (reference runs left out)."""
        self.wall = 0.0
        """Wall seconds of the finished slices."""
        self.scaled: list[float] = []
        """Each finished slice's moves/CPU-s at reference speed."""
        self.references: list[float] = []
        """The reference rate (rounds/CPU-s) timed before each slice."""
        self._seconds = seconds
        self._begin(0)

    def _begin(self, applied: int) -> None:
        self.references.append(host_rate_now())
        self._applied_at = applied
        self._cpu_at = time.process_time()
        self._wall_at = time.perf_counter()
        self._slice_end = self._wall_at + min(SLICE_SECONDS, self._seconds - self.wall)

    def going(self, applied: int) -> bool:
        """Whether to play on, given ``applied``, the moves applied so far; closes the slice when its time
        is up (and starts the next after a reference run, while time is left)."""
        now = time.perf_counter()
        if now < self._slice_end:
            return True
        cpu = time.process_time() - self._cpu_at
        moves = applied - self._applied_at
        self.moves += moves
        self.cpu += cpu
        self.wall += now - self._wall_at
        if moves and cpu > 0:
            self.scaled.append(at_reference_speed(moves / cpu, self.references[-1]))
        if self.wall >= self._seconds:
            return False
        self._begin(applied)
        return True

    def result(self) -> PairedRate:
        """The rates of the finished slices."""
        return PairedRate(
            self.moves / self.cpu,
            statistics.median(self.scaled),
            statistics.median(self.references),
            self.moves / self.wall,
        )


SLICE_SECONDS = 0.15
"""Playout time between two reference runs (:class:`PairedClock`)."""


@dataclass(frozen=True)
class PairedRate:
    """A playout rate measured by :class:`PairedClock`."""

    per_cpu_second: float
    """Moves per CPU-second over every slice."""
    at_reference_speed: float
    """The median slice's moves/CPU-s at reference speed."""
    host_reference: float
    """The median reference rate (rounds/CPU-s) timed before the slices."""
    per_second: float
    """Moves per second of wall time over every slice."""


def playout_rate(game: AnyGame, players: int, seconds: float) -> tuple[PairedRate, int, int]:
    """Random seeded playouts (list moves, pick one, apply) for about ``seconds`` of playout time.

    Returns their :class:`PairedRate` (moves per second of wall time and of this process's CPU time, the
    steadier number on a crowded machine, and at reference speed), moves applied and matches finished. The
    clocks include dealing each match.
    """
    moves_of, apply = game.moves, game.apply
    new_state(game, players, 0)  # outside the clock: the first call builds the service's models once
    applied = finished = number = 0
    clock = PairedClock(seconds)
    going = True
    while going:
        rng = random.Random(number)
        state = new_state(game, players, number)
        number += 1
        while going:
            _, moves = moves_of(state)
            if not moves:
                finished += 1
                break
            state, _ = apply(state, rng.choice(moves))
            applied += 1
            going = clock.going(applied)
    return clock.result(), applied, finished


def simulation_rate(game: AnyGame, players: int, seconds: float) -> PairedRate:
    """The rate of the same playouts as :func:`playout_rate` through the bots' entry point
    (:class:`~sevens_rules.engine.simulate.Simulation`: legal moves, then the chosen move applied without
    the public checks), dealing included."""
    return _simulated_rate(game, players, seconds, lambda state: Simulation(game, state))


def internal_rate(game: AnyGame, players: int, seconds: float) -> PairedRate | None:
    """The rate of the same playouts as :func:`playout_rate` on the game's internal representation
    (:class:`~sevens_rules.engine.simulate.PositionSimulation`: each match dealt as the service deals it
    and converted once, then move codes listed and applied until the match is over), dealing and the
    conversion included; None for a game without one."""
    if position_rules(game) is None:
        return None

    def start(state: Any) -> Any:
        sim = PositionSimulation.of(game, state)
        assert sim is not None
        return sim

    return _simulated_rate(game, players, seconds, start)


def _simulated_rate(game: AnyGame, players: int, seconds: float, start: Callable[[Any], Any]) -> PairedRate:
    """The rate of seeded random matches played to the end on the simulation ``start`` makes of each
    newly dealt state (its ``legal_moves()`` and ``apply(move)``), dealing included; the slices of the
    :class:`PairedClock` end between matches."""
    new_state(game, players, 0)
    applied = number = 0
    clock = PairedClock(seconds)
    while clock.going(applied):
        rng = random.Random(number)
        sim = start(new_state(game, players, number))
        number += 1
        legal, apply, choice = sim.legal_moves, sim.apply, rng.choice
        moves = legal()
        while moves:
            apply(choice(moves))
            applied += 1
            moves = legal()
    return clock.result()


def median_us(call: Callable[[], object], seconds: float, min_calls: int = 200) -> float:
    """Median wall time of one ``call`` in microseconds, over about ``seconds`` of calls."""
    for _ in range(20):
        call()
    samples: list[int] = []
    clock = time.perf_counter_ns
    deadline = clock() + int(seconds * 1e9)
    while len(samples) < min_calls or (clock() < deadline and len(samples) < 1_000_000):
        t0 = clock()
        call()
        samples.append(clock() - t0)
    return statistics.median(samples) / 1000


@dataclass(frozen=True)
class EngineResult:
    """One game's in-process numbers."""

    game: str
    players: int
    wire: PairedRate
    """Playouts through the public wire-model API."""
    applied: int
    finished: int
    moves_us: float
    apply_us: float
    simulation: PairedRate
    internal: PairedRate | None
    """None: the game has no internal representation yet."""

    @property
    def host_reference(self) -> float:
        """The median reference rate of the game's three playout measurements."""
        rates = [self.wire.host_reference, self.simulation.host_reference]
        if self.internal is not None:
            rates.append(self.internal.host_reference)
        return statistics.median(rates)


def bench_game(game: AnyGame, seconds: float) -> EngineResult:
    """Playout rates and the medians of one ``moves`` and one ``apply`` on a mid-deal state."""
    players = table_size(game)
    state, _ = mid_deal(game, players)
    move = game.moves(state)[1][0]
    wire, applied, finished = playout_rate(game, players, seconds)
    timing = max(0.1, seconds / 6)
    moves_us = median_us(lambda: game.moves(state), timing)
    apply_us = median_us(lambda: game.apply(state, move), timing)
    simulated = simulation_rate(game, players, seconds / 2)
    internal = internal_rate(game, players, seconds)
    return EngineResult(game.id, players, wire, applied, finished, moves_us, apply_us, simulated, internal)


def in_process_table(results: list[EngineResult]) -> str:
    """The in-process markdown table with the target lines (every rate at reference speed is read slice
    by slice, see :class:`PairedClock`)."""
    lines = [
        "| game | players | moves/s | moves/CPU-s | at reference speed | median moves µs | median apply µs "
        "| ≥ target? | simulation, at reference speed | internal, moves/CPU-s | internal, at reference speed "
        "| internal ≥ target? | host reference, rounds/CPU-s |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- | ---: |",
    ]
    for r in results:
        met = "yes" if r.wire.at_reference_speed >= WIRE_API_TARGET else "no"
        lines.append(
            f"| {r.game} | {r.players} | {r.wire.per_second:,.0f} | {r.wire.per_cpu_second:,.0f} "
            f"| {r.wire.at_reference_speed:,.0f} | {r.moves_us:.1f} | {r.apply_us:.1f} "
            f"| {met} | {r.simulation.at_reference_speed:,.0f} | {_internal_columns(r.internal)} "
            f"| {r.host_reference:,.0f} |"
        )
    below = [r.game for r in results if r.wire.at_reference_speed < WIRE_API_TARGET]
    references = [r.host_reference for r in results]
    lines.append("")
    lines.append(
        f"Reference workload (python -m bench.reference): {min(references):,.0f} to {max(references):,.0f} "
        f"rounds/CPU-s on this host (each game's median), {CI_REFERENCE_ROUNDS_PER_SECOND:,} on the CI "
        "machine; *at reference speed* = the median over slices of a slice's moves/CPU-s times the CI "
        "machine's rate over the reference rate timed just before that slice."
    )
    lines.append(
        f"Target ≥ {WIRE_API_TARGET:,} moves/s through the public wire-model API at reference speed: met by "
        f"{len(results) - len(below)} of {len(results)} games"
        + (f" (not: {', '.join(below)})." if below else ".")
    )
    internal = [r.internal for r in results if r.internal is not None]
    internal_below = [
        r.game for r in results if r.internal is not None and r.internal.at_reference_speed < INTERNAL_TARGET
    ]
    lines.append(
        f"Target ≥ {INTERNAL_TARGET:,} moves/s on the internal representation at reference speed: met by "
        f"{len(internal) - len(internal_below)} of the {len(internal)} games that have one"
        + (f" (not: {', '.join(internal_below)})" if internal_below else "")
        + f"; {len(results) - len(internal)} games have none yet (—)."
    )
    total_moves = sum(r.applied for r in results)
    total_matches = sum(r.finished for r in results)
    lines.append(
        f"Playouts: {total_moves:,} moves, {total_matches:,} finished matches; mid-deal state = seed "
        f"{MATCH_SEED}, {MID_DEAL_MOVES} random moves (RNG seed {MOVES_SEED}); apply timed with its first "
        "legal move."
    )
    return "\n".join(lines)


def _internal_columns(rate: PairedRate | None) -> str:
    """The internal-representation cells of a row: moves/CPU-s, at reference speed, target met (— for a
    game without one)."""
    if rate is None:
        return "— | — | —"
    scaled = rate.at_reference_speed
    return f"{rate.per_cpu_second:,.0f} | {scaled:,.0f} | {'yes' if scaled >= INTERNAL_TARGET else 'no'}"
