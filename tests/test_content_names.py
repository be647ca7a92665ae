"""Names in content files are code the engine runs: a misspelt task or ability used to validate as fine and
then silently never complete (or never apply). `validate` names the file, the line and the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli_run import refused, run

CONTENT = Path(__file__).resolve().parents[1] / "controller" / "content"


def edited(tmp_path: Path, name: str, old: str, new: str) -> tuple[Path, int]:
    """A copy of a shipped content file with one edit, and the line the edit is on."""
    text = (CONTENT / name).read_text()
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1))
    return path, text[:text.index(old)].count("\n") + 1


@pytest.mark.parametrize("old, new, why", [
    ('task = "terminals:2"', 'task = "termnals:2"', "unknown task 'termnals:2'"),
    ('task = "safe_zones"', 'task = "safe_zone"', "unknown task 'safe_zone'"),
    ('task = "shut_down:captain"', 'task = "shut_down:capitan"', "shut_down names what is shut down"),
    ('task = "module_terminals:3"', 'task = "module_terminals:three"', "module_terminals:N with N 1 or more"),
    ('task = "terminals:1"', 'task = "terminals:0"', "terminals:N with N 1 or more"),
    ('task = "escape"', 'task = "escape:2"', "unknown task 'escape:2'"),
])
def test_a_misspelt_mission_task_names_file_line_and_field(capsys, tmp_path, old, new, why):
    path, line = edited(tmp_path, "missions.toml", old, new)
    message = refused(capsys, "validate", path)
    assert message.startswith(f"burncycle-table: {path}:{line}: mission ") and ".task: " in message
    assert why in message


@pytest.mark.parametrize("name, old, new, field", [
    ("bots.toml", '"asterisk"', '"astrisk"', "agent[4].abilities: unknown ability 'astrisk'"),
    ("captains.toml", '"next_escalation"', '"next_escalashun"', "captain[0].abilities: unknown ability "
                                                                 "'next_escalashun'"),
    ("captains.toml", '"l453r"', '"laser"', "captain[0].abilities: unknown ability 'laser'"),
])
def test_an_unknown_ability_names_file_line_and_field(capsys, tmp_path, name, old, new, field):
    path, line = edited(tmp_path, name, old, new)
    message = refused(capsys, "validate", path)
    assert message.startswith(f"burncycle-table: {path}:{line}: {field}; the engine knows ")


def test_an_unknown_guard_ability_is_refused(capsys, tmp_path):
    path, line = edited(tmp_path, "guards.toml", "[[guard]]\n", "[[guard]]\nabilities = [\"x-ray\"]\n")
    message = refused(capsys, "validate", path)
    assert message.startswith(f"burncycle-table: {path}:{line + 1}: guard[0].abilities: unknown ability 'x-ray'")


@pytest.mark.parametrize("name", ["missions.toml", "bots.toml", "captains.toml", "guards.toml"])
def test_the_shipped_names_are_all_known(capsys, name):
    code, out, err = run(capsys, "validate", CONTENT / name)
    assert code == 0 and "valid" in out, err
