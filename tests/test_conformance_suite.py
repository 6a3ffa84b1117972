"""The golden playthroughs (``conformance/playthroughs/``) and their runner.

The in-process service answers every file's steps as the file says, over REST and over GraphQL; a changed
answer in a copy of a file is reported with its file, step and JSON path; the files cover every game,
table size and documented option value, each with a whole match and refused requests; and a file is
what ``--update`` writes from the engine today.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from sevens_rules.api.app import create_app
from sevens_rules.api.limits import Settings
from sevens_rules.api.operations import games_response
from sevens_rules.conformance.__main__ import main, update
from sevens_rules.conformance.playthroughs import FOLDER, dump, load, variants
from sevens_rules.conformance.replay import Replayer
from sevens_rules.conformance.transport import AsgiTransport

SAMPLE_EVERY = 400
"""In the test command one step in this many is replayed (with every refusal and each file's last
step); ``python -m sevens_rules.conformance`` replays them all."""
FILES = sorted(FOLDER.glob("*.json.xz"))
GAMES = games_response().model_dump(mode="json")["games"]


@pytest.fixture(scope="module")
def replayer() -> Replayer:
    return Replayer(AsgiTransport(create_app(Settings(), None)))


def test_every_file_replays_without_a_difference_over_rest_and_graphql(replayer: Replayer) -> None:
    found = [difference for path in FILES for difference in replayer.replay(path, every=SAMPLE_EVERY)]
    assert [str(d) for d in found[:20]] == []


def test_the_files_are_one_per_game_table_size_and_option_variant() -> None:
    planned = variants(GAMES)
    assert sorted(v.path.name for v in planned) == [path.name for path in FILES]
    for game in GAMES:
        played = [v for v in planned if v.game == game["id"]]
        assert {v.players for v in played} == set(game["player_counts"]), game["id"]
        for option in game["options"]:
            values = {v.options[option["name"]] for v in played}
            documented = {option["default"], *(option["choices"] or [])} - {None}
            if option["type"] == "boolean":
                documented |= {True, False}
            assert documented <= values, (game["id"], option["name"], values)


@pytest.mark.parametrize("path", FILES[::9], ids=lambda p: p.name)
def test_a_file_plays_a_whole_match_and_holds_refusals(path: Path) -> None:
    contents = load(path)
    variant = next(v for v in variants(GAMES) if v.path.name == path.name)
    assert (contents["game"], contents["players"], contents["options"]) == (
        variant.game,
        variant.players,
        variant.options,
    )
    steps = contents["steps"]
    scores = [s for s in steps if s["op"] == "score" and s["status"] == 200]
    assert scores[-1]["answer"]["outcome"]["over"] is True
    refused = {(s["status"], s["answer"]["code"]): s["answer"] for s in steps if s["status"] >= 400}
    assert refused[(409, "move/not-your-turn")]["legal_moves"], refused.keys()
    assert refused[(422, "state/inconsistent")]["errors"][0]["path"].startswith("/state")
    assert (409, "match/over") in refused
    seats = {s["request"]["player"] for s in steps if s["op"] == "view"}
    assert seats == set(range(contents["players"]))


def test_a_file_is_what_update_writes_from_the_engine_today(tmp_path: Path) -> None:
    variant = next(v for v in variants(GAMES) if v.name == "sevens-4p-base")
    # --update --files writes the files named and no other (nor removes the others)
    assert update(tmp_path, [Path("conformance/playthroughs") / variant.path.name]) == 0
    assert [path.name for path in tmp_path.iterdir()] == [variant.path.name]
    assert load(tmp_path / variant.path.name) == load(variant.path)
    assert update(tmp_path, [Path("no-such-game-4p-base.json.xz")]) == 1


def mutated_copy(tmp_path: Path, op: str, change: Any) -> tuple[Path, int]:
    """A copy of a file with one answer changed (one no later request refers to)."""
    source = FOLDER / "sevens-4p-base.json.xz"
    contents = load(source)
    index = next(i for i, s in enumerate(contents["steps"]) if s["op"] == op and i > 20)
    change(contents["steps"][index]["answer"])
    target = tmp_path / "sevens-4p-mutated.json.xz"
    shutil.copy(source, target)
    dump(target, contents)
    return target, index


def test_a_changed_answer_is_reported_with_its_file_step_and_path(replayer: Replayer, tmp_path: Path) -> None:
    def change(answer: dict[str, Any]) -> None:
        answer["totals"][1] += 1

    target, index = mutated_copy(tmp_path, "score", change)
    found = replayer.replay(target)
    reported = {(d.file, d.step, d.surface, d.path) for d in found}
    assert reported == {
        ("sevens-4p-mutated", index, "rest", "/totals/1"),
        ("sevens-4p-mutated", index, "graphql", "/totals/1"),
    }


def test_the_command_prints_the_difference_and_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def change(answer: dict[str, Any]) -> None:
        answer["events"].append({"type": "played", "player": 0, "card": "7D"})

    target, index = mutated_copy(tmp_path, "apply", change)
    assert main(["--in-process", "--surface", "rest", "--files", str(target)]) == 1
    out = capsys.readouterr().out
    assert f"sevens-4p-mutated: step {index} (apply, rest): /events/length:" in out
    assert "1 files, " in out and ", 1 differences, " in out
