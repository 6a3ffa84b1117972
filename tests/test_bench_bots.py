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


def test_the_interval_is_over_seeds_with_students_t() -> None:
    # six seeds of two rotations: won 1, 2, 1, 1, 2, 1 of 2. Shares 0.5, 1, 0.5, 0.5, 1, 0.5: mean 2/3,
    # sample variance (4 * (1/6)^2 + 2 * (1/3)^2) / 5 = 1/15, standard error sqrt(1/15 / 6) = 0.105409;
    # t for 5 degrees of freedom 2.571, so half a width of 0.271007 (worked by hand)
    tally = bots.Tally()
    for won in (1, 2, 1, 1, 2, 1):
        tally.add_seed(won, 2)
    rate, low, high = tally.interval()
    assert tally.games == 12 and tally.wins == 8
    assert rate == pytest.approx(2 / 3)
    assert low == pytest.approx(0.39566, abs=1e-5)
    assert high == pytest.approx(0.93767, abs=1e-5)


def test_seeds_whose_cards_decide_them_give_an_interval_of_no_width() -> None:
    # a two-seat deal the cards decide: each level wins it once, whichever seat it holds
    tally = bots.Tally()
    for _ in range(30):
        tally.add_seed(1, 2)
    assert tally.interval() == (0.5, 0.5, 0.5)


def test_one_seed_measures_no_spread() -> None:
    tally = bots.Tally()
    tally.add_seed(3, 4)
    assert tally.interval() == (0.75, 0.0, 1.0)


def test_t_quantiles_match_the_standard_tables() -> None:
    tables = {1: 12.706, 4: 2.776, 10: 2.228, 11: 2.201, 20: 2.086, 30: 2.042, 60: 2.000, 120: 1.980}
    for freedom, quantile in tables.items():
        assert bots.t_975(freedom) == pytest.approx(quantile, abs=0.001)


def test_a_tournament_counts_every_rotation_of_every_seed(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--games", "california-jack", "--pairings", "rules-random", "--deals", "3", "--unit", "deal"]
    assert bots.main(argv) == 0
    row = capsys.readouterr().out.strip().splitlines()[-1]
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[:4] == ["rules", "random", "3", "6"]  # three seeds, each side held by each level
