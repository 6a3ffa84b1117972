"""The bots bench's search speed: each search is read at the host speed of its own moment."""

from __future__ import annotations

import pytest

from bench import bots
from bench.reference import CI_REFERENCE_ROUNDS_PER_SECOND


def test_search_speed_reads_each_search_at_the_host_speed_just_before_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = bots.parse_args(
        ["--speed", "--speed-seconds", "0.05", "--speed-repeats", "1", "--games", "california-jack"]
    )
    bots.search_speed(args)
    row = capsys.readouterr().out.strip().splitlines()[-1]
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[:4] == ["california-jack", "2", "3", "3"]  # two seats, three cards, three legal moves
    assert int(cells[4]) > 0  # iterations
    per_cpu, host, at_reference = (float(cell.replace(",", "")) for cell in cells[6:9])
    # the rate per CPU second scaled as the CI machine would measure it; each cell is rounded to a whole
    # number, so the product may be off by half a unit of each factor's relative size (a crowded host's
    # few hundred iterations a second make that more than a thousandth)
    expected = per_cpu * CI_REFERENCE_ROUNDS_PER_SECOND / host
    rounding = expected * (0.5 / per_cpu + 0.5 / host) + 0.5
    assert at_reference == pytest.approx(expected, abs=rounding)
