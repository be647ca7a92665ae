"""Floor files as people save them: with Notepad's byte-order mark, empty, or short of what a mission needs;
and the documented example floor, which must start a game."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.rules import decode_state
from tests.support.cli_run import refused, run

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "docs" / "example.floor"


def test_a_floor_saved_with_a_byte_order_mark_is_read(capsys, tmp_path):
    floor = tmp_path / "notepad.floor"
    floor.write_bytes(b"\xef\xbb\xbf" + EXAMPLE.read_bytes())
    code, out, err = run(capsys, "validate", floor)
    assert code == 0 and "valid floor 'Example annex'" in out, err
    assert run(capsys, "new-game", "--floor", floor, "--out", tmp_path / "s.json")[0] == 0


@pytest.mark.parametrize("text", ["", "\n\n", "   \n\t\n", "\ufeff"])
def test_an_empty_floor_says_so_on_line_1(capsys, tmp_path, text):
    floor = tmp_path / "empty.floor"
    floor.write_text(text, encoding="utf-8")
    line = refused(capsys, "validate", floor)
    assert line == (f"burncycle-table: {floor}:1: the floor file is empty: a floor has 'name:' and 'level:' "
                    f"lines, a 'grid:' and an 'areas:' section (docs/floor-format.md)")


def test_a_custom_floor_short_of_what_the_mission_needs_names_its_file(capsys, tmp_path):
    floor = tmp_path / "annex.floor"
    floor.write_text(EXAMPLE.read_text().replace("|E . E C . E .|", "|. . . C . . .|"))
    for command in ("new-game", "selfplay"):
        line = refused(capsys, command, "--floor", floor, "--players", 3)
        assert f"{floor} (Example annex) has 2 free entrance spaces for 4 bots" in line  # the module too


def test_one_free_entrance_space_is_said_in_the_singular(capsys, tmp_path):
    """The engine's own note: "1 free entrance spaces"."""
    floor = tmp_path / "annex.floor"
    floor.write_text(EXAMPLE.read_text().replace("|E . E C . E .|", "|. . . C . . .|")
                     .replace("|E . 1 . . * E|", "|E . 1 . . * .|"))
    line = refused(capsys, "new-game", "--floor", floor, "--players", 1)
    assert f"{floor} (Example annex) has 1 free entrance space for 2 bots" in line


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_example_floor_starts_a_game(capsys, tmp_path, players):
    out = tmp_path / "s.json"
    code, _, err = run(capsys, "new-game", "--floor", EXAMPLE, "--players", players, "--out", out)
    assert code == 0, err
    state = decode_state(out.read_bytes())
    assert state.floor.name == "Example annex" and len(state.floor.terminals) >= 2  # Data Heist's 2 terminals
    code, _, err = run(capsys, "validate", out)
    assert code == 0, err


def test_the_floor_format_shows_the_example_floor_as_it_is():
    assert EXAMPLE.read_text() in (ROOT / "docs" / "floor-format.md").read_text()
