"""The bench's deal lengths between bots (``python -m bench.deal_lengths``)."""

from __future__ import annotations

import random

import pytest

from bench.deal_lengths import deal_rounds, main, uniform_chooser
from sevens_rules.engine.bots.rules import position_chooser
from sevens_rules.engine.registry import GAMES


def test_a_deal_is_measured_to_its_end_or_reported_unfinished_at_the_cap() -> None:
    rules = position_chooser(GAMES["sjuan"])
    rounds = deal_rounds("sjuan", 4, 1, [rules] * 4, cap=1000)
    # four hands of 13 cards: the seat that empties its hand first plays 13 times, the others move between
    assert rounds is not None and rounds >= 12
    assert deal_rounds("sjuan", 4, 1, [rules] * 4, cap=rounds) is None


def test_the_table_counts_every_deal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--games", "sedmice", "--deals", "3"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| sedmice")]
    # both table sizes, two line-ups each; no deal left running
    assert [row.split(" | ")[1:5] for row in rows] == [
        ["2", "all rules", "3", "0"],
        ["2", "rules against random", "3", "0"],
        ["4", "all rules", "3", "0"],
        ["4", "rules against random", "3", "0"],
    ]


def test_a_random_seat_plays_a_listed_move() -> None:
    choose = uniform_chooser(random.Random(1))
    assert all(choose(None, 0, [5, 9, 11]) in (5, 9, 11) for _ in range(50))
