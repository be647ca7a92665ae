"""Floor files as people save them: with Notepad's byte-order mark, empty, or short of what a mission needs;
and the documented example floor, which must start a game."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from controller.rules import decode_state
from controller.rules.board.floor_text import MAX_FLOOR_SIDE
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


def open_floor(side: int) -> str:
    """A floor `side` spaces wide and high: one open hallway, two entrances and a post (the costliest shape to
    compile: every sight line runs across the whole floor)."""
    lines = ["name: Hall", "level: 1", "grid:", "+" + "-+" * side]
    for row in range(side):
        spaces = ["E" if row == 0 and col < 2 else "1" if (row, col) == (2, 2) else "." for col in range(side)]
        lines.append("|" + " ".join(spaces) + "|")
        lines.append("+" + (" +" * side if row < side - 1 else "-+" * side))
    return "\n".join([*lines, "areas:", '  A1 hallway "Hall"']) + "\n"


def test_a_floor_too_big_for_the_table_is_refused_at_once_for_its_size(capsys, tmp_path):
    """A 200x200 floor once took 7-12 s to validate (its sight lines alone are millions of spaces)."""
    floor = tmp_path / "huge.floor"
    floor.write_text(open_floor(200))
    began = time.process_time()  # CPU, not the wall clock: a busy machine slows the clock, not the work
    line = refused(capsys, "validate", floor)
    assert time.process_time() - began < 1.0
    assert line == (f"burncycle-table: {floor}:4: the grid is 200 spaces wide and 200 high: a floor is at most "
                    f"{MAX_FLOOR_SIDE} by {MAX_FLOOR_SIDE} spaces (docs/floor-format.md)")


def test_the_largest_floor_allowed_is_checked_within_a_second(capsys, tmp_path):
    floor = tmp_path / "largest.floor"
    floor.write_text(open_floor(MAX_FLOOR_SIDE))
    began = time.process_time()  # CPU, not the wall clock: a busy machine slows the clock, not the work
    code, out, err = run(capsys, "validate", floor)
    assert time.process_time() - began < 1.0
    assert code == 0 and f"{MAX_FLOOR_SIDE * MAX_FLOOR_SIDE} spaces" in out, err
