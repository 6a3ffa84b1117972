"""The bench's fixed playout and fixed search (the units of work instruction counts are taken over)."""

from __future__ import annotations

import pytest

from bench.fixed_playout import fixed_internal_playout, fixed_playout, main
from bench.fixed_search import fixed_search
from bench.fixed_search import main as search_main
from sevens_rules.engine.registry import GAMES


@pytest.mark.parametrize("game_id", list(GAMES))
def test_fixed_playout_applies_exactly_the_moves_asked_across_matches(game_id: str) -> None:
    # 400 moves run past the end of a short match (Seven-Up's) into the next one
    assert fixed_playout(game_id, 400) == 400
    assert fixed_playout(game_id, 0) == 0
    assert fixed_internal_playout(game_id, 400) == 400
    assert fixed_internal_playout(game_id, 0) == 0


def test_fixed_playout_refuses_an_unknown_game_or_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["chess", "10"]) == 2
    assert main(["sevens", "ten"]) == 2
    assert "usage" in capsys.readouterr().err
    assert main(["sevens", "3"]) == 0
    assert capsys.readouterr().out.strip() == "3"
    assert main(["seven-up", "30", "--internal"]) == 0
    assert capsys.readouterr().out.strip() == "30"


@pytest.mark.parametrize("game_id", list(GAMES))
def test_fixed_search_runs_exactly_the_playouts_asked(game_id: str) -> None:
    assert fixed_search(game_id, 30) == 30
    assert fixed_search(game_id, 0) == 0


def test_fixed_search_refuses_an_unknown_game_or_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert search_main(["chess", "10"]) == 2
    assert search_main(["sevens", "ten"]) == 2
    assert "usage" in capsys.readouterr().err
    assert search_main(["sevens", "4"]) == 0
    assert capsys.readouterr().out.strip() == "4"
