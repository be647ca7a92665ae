"""The game commands of `burncycle-table`: new-game, corp-turn, validate, schema.

Bad input gives exit code 2, one readable line on stderr, no traceback, and writes nothing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from controller.rules import decode_events, decode_state
from tests.support.cli_run import refused, run

CONTENT = Path(__file__).resolve().parents[1] / "controller" / "content"


@pytest.fixture
def state_file(tmp_path, capsys):
    path = tmp_path / "state.json"
    code, out, _ = run(capsys, "new-game", "--floor", "meridian-lobby", "--players", 2, "--difficulty",
                       "standard", "--seed", 7, "--out", path)
    assert code == 0
    return path


@pytest.fixture
def corp_state_file(state_file):
    """The same game at the corporation's turn, which follows the player with the corporation marker."""
    data = json.loads(state_file.read_text())
    data["turn"]["step"] = "corporation"
    data["turn"]["active"] = data["turn"]["order"].index(data["turn"]["marker"])
    state_file.write_text(json.dumps(data))
    return state_file


# -- new-game -----------------------------------------------------------------------------------------
def test_new_game_writes_a_legal_state(tmp_path, capsys):
    path = tmp_path / "state.json"
    code, out, err = run(capsys, "new-game", "--floor", "meridian-labs", "--players", 3, "--difficulty",
                         "seasoned", "--captain", "overseer", "--seed", 11, "--out", path)
    assert code == 0 and err == ""
    assert f"state written to {path}" in out
    state = decode_state(path.read_bytes())
    assert state.players == 3 and state.difficulty == "seasoned" and state.seed == 11
    assert state.floor.name == "Meridian Tower, Labs"


def test_new_game_prints_state_without_out(capsys):
    code, out, _ = run(capsys, "new-game", "--players", 1, "--seed", 3)
    assert code == 0
    assert decode_state(out).players == 1


def test_new_game_adaptable_level(tmp_path, capsys):
    path = tmp_path / "s.json"
    code, _, _ = run(capsys, "new-game", "--mission", "tsm-103c", "--level", 3, "--out", path)
    assert code == 0
    state = decode_state(path.read_bytes())
    assert state.floor.level == 3 and state.threat == 6


def test_new_game_tower_run_sets_up_its_later_floor(tmp_path, capsys):
    """`--mission tower-run`: the players' floor first, the labs to climb to after it, Memory and Interface as
    chosen agents."""
    path = tmp_path / "s.json"
    code, out, _ = run(capsys, "new-game", "--mission", "tower-run", "--agents", "memory,interface", "--seed", 4,
                       "--out", path)
    assert code == 0
    assert "new game of Operation Tower Run on Meridian Tower, Lobby (level 1, floor 1 of 2)" in out
    assert "(Memory, Interface)" in out
    state = decode_state(path.read_bytes())
    assert state.mission.id == "tower-run" and state.floor_number == 1
    assert [f.name for f in state.later_floors] == ["meridian-labs.floor"]
    assert state.joan is not None and state.joan.space == state.bot("memory").space


def test_new_game_starts_the_bots_where_the_team_chose(tmp_path, capsys):
    """Rescue Rangers: "Agents start on any safe zone space." `--start` names each agent's space."""
    path = tmp_path / "s.json"
    code, _, _ = run(capsys, "new-game", "--mission", "rescue-rangers", "--level", 1, "--start", "byte=d15,casing=T6",
                     "--out", path)
    assert code == 0
    state = decode_state(path.read_bytes())
    assert {b.id: b.space for b in state.bots if b.kind == "agent"} == {"byte": "D15", "casing": "T6"}


@pytest.mark.parametrize("argv,words", [
    (["--start", "byte"], "'byte' is not bot=space pairs separated by commas, e.g. byte=Q3,casing=D15"),
    (["--start", "byte=Q3,byte=R3"], "names a bot twice"),
    (["--mission", "rescue-rangers", "--start", "byte=P4"], "--start: byte's start space P4 is not in a safe zone"),
    (["--start", "byte=Q3"], "--start: start spaces chosen for Operation Data Heist on Meridian Tower, Lobby, where "
                             "the bots start at the entrance"),
])
def test_new_game_bad_start_is_refused_naming_the_option(tmp_path, capsys, argv, words):
    out = tmp_path / "state.json"
    line = refused(capsys, "new-game", *argv, "--out", out)
    assert words in line
    assert not out.exists()


@pytest.mark.parametrize("command", ["new-game", "selfplay"])
def test_help_lists_the_shipped_missions_agents_captains_and_floors(capsys, command):
    with pytest.raises(SystemExit) as done:
        run(capsys, command, "--help")
    out = capsys.readouterr().out
    assert done.value.code == 0
    for word in ("tower-run", "Operation Tower Run (2 floors)", "preconnaissance", "(--level 1-3)",
                 "interface (Interface)", "memory (Memory)", "nano (Nano)", "overseer", "meridian-labs"):
        assert word in out


def test_help_says_so_when_the_shipped_content_does_not_load(monkeypatch):
    """The lists are read only for `--help`; a broken content file leaves a line saying how to find it."""
    from controller.cli import shipped_help
    from controller.errors import UserError

    def broken():
        raise UserError("missions.toml:3: broken")
    monkeypatch.setattr(shipped_help, "load_content", broken)
    assert "validate" in shipped_help.shipped_lists() and "missions.toml:3" in shipped_help.shipped_lists()


@pytest.mark.parametrize("argv,words", [
    (["--players", "5"], "player count 5: expected 1 to 4 players"),
    (["--floor", "no-such-floor"], "unknown floor 'no-such-floor'"),
    (["--captain", "nobody"], "unknown captain 'nobody'"),
    (["--level", "2"], "only Adaptable missions"),
])
def test_new_game_bad_input(tmp_path, capsys, argv, words):
    out = tmp_path / "state.json"
    line = refused(capsys, "new-game", *argv, "--out", out)
    assert words in line
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_new_game_broken_floor_file(tmp_path, capsys):
    floor = tmp_path / "broken.floor"
    floor.write_text("name: Broken\nlevel: 1\ngrid:\n+-+-+\n E .|\n+-+-+\nareas:\n  A1 hallway\n")
    out = tmp_path / "state.json"
    line = refused(capsys, "new-game", "--floor", floor, "--out", out)
    assert f"{floor}:5:1: an opening on the outer edge of A1" in line
    assert not out.exists()


# -- corp-turn ----------------------------------------------------------------------------------------
def test_corp_turn_text_with_scripted_rolls(corp_state_file, tmp_path, capsys):
    """--rolls: the faces rolled at the table, in order; --text prints instructions."""
    new = tmp_path / "next.json"
    code, out, err = run(capsys, "corp-turn", corp_state_file, "--rolls", "threat,ceo", "--text", "--out", new)
    assert code == 0, err
    lines = out.strip().splitlines()
    assert lines[0] == "Security activation:"
    assert "The ping die shows threat (ping on hub L2-08)." in lines
    assert "The ping die shows ceo (ping on hub L3-02)." in lines
    assert "Set the CEO's network level to 2." in lines
    assert lines[-1] == f"(new state written to {new})"
    state = decode_state(new.read_bytes())
    assert state.threat == 3 and state.round == 2 and state.network.ceo_level == 2


def test_corp_turn_json_events(corp_state_file, capsys):
    code, out, _ = run(capsys, "corp-turn", corp_state_file, "--rolls", "ping,threat")
    assert code == 0
    events = decode_events(out)
    assert [e.face for e in events if type(e).__name__ == "DieRolled"] == ["ping", "threat"]
    assert json.loads(out)[0] == {"type": "phase_started", "phase": "security activation"}


def test_corp_turn_seed_replays(corp_state_file, capsys):
    """--seed: virtual dice; the same seed prints the same events."""
    first = run(capsys, "corp-turn", corp_state_file, "--seed", 99)
    second = run(capsys, "corp-turn", corp_state_file, "--seed", 99)
    assert first[0] == 0 and first == second
    assert decode_events(first[1])


def test_corp_turn_game_seed_by_default(corp_state_file, tmp_path, capsys):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert run(capsys, "corp-turn", corp_state_file, "--out", a)[0] == 0
    assert run(capsys, "corp-turn", corp_state_file, "--out", b)[0] == 0
    assert a.read_bytes() == b.read_bytes()
    assert decode_state(a.read_bytes()).rolls >= decode_state(corp_state_file.read_bytes()).rolls


def test_corp_turn_too_few_rolls(corp_state_file, tmp_path, capsys):
    """Scripted dice that run out: exit 2, one line, the new state not written."""
    new = tmp_path / "next.json"
    line = refused(capsys, "corp-turn", corp_state_file, "--rolls", "threat", "--out", new)
    assert "--rolls gives 1 face, but the action reads 2: 2 ping dice; still needed: the ping die" in line
    assert not new.exists()


def test_corp_turn_bad_face(corp_state_file, tmp_path, capsys):
    new = tmp_path / "next.json"
    line = refused(capsys, "corp-turn", corp_state_file, "--rolls", "threat,banana", "--out", new)
    assert "'banana'" in line and "ping die" in line
    assert not new.exists()


def test_corp_turn_broken_state(corp_state_file, tmp_path, capsys):
    """A state breaking a rule (two units on one space): exit 2, the file and the rule named."""
    data = json.loads(corp_state_file.read_text())
    data["security"][0]["space"] = data["bots"][0]["space"]
    corp_state_file.write_text(json.dumps(data))
    before = corp_state_file.read_bytes()
    new = tmp_path / "next.json"
    line = refused(capsys, "corp-turn", corp_state_file, "--out", new)
    assert str(corp_state_file) in line and "one unit per space" in line
    assert not new.exists() and corp_state_file.read_bytes() == before


def test_corp_turn_missing_file(tmp_path, capsys):
    line = refused(capsys, "corp-turn", tmp_path / "nope.json")
    assert "no such state file" in line


def test_corp_turn_refused_while_a_player_routes_power(state_file, tmp_path, capsys):
    """On a fresh game player 1 is routing power: the corporation's turn is refused with the rule, and
    nothing is written (it used to move the round on)."""
    new = tmp_path / "next.json"
    line = refused(capsys, "corp-turn", state_file, "--out", new)
    assert "the corporation turn follows the player with the corporation marker chip" in line
    assert not new.exists()


def test_corp_turn_hands_the_next_round_to_the_first_player(corp_state_file, tmp_path, capsys):
    new = tmp_path / "next.json"
    assert run(capsys, "corp-turn", corp_state_file, "--out", new)[0] == 0
    state = decode_state(new.read_bytes())
    assert state.round == 2 and state.turn.step == "route" and state.turn.active == 0


def test_corp_turn_game_over(corp_state_file, capsys):
    data = json.loads(corp_state_file.read_text())
    data["outcome"] = {"result": "defeat", "cause": "threat_maxed", "text": "threat reached 26"}
    corp_state_file.write_text(json.dumps(data))
    line = refused(capsys, "corp-turn", corp_state_file)
    assert "the game is over" in line


# -- validate -----------------------------------------------------------------------------------------
def test_validate_floor_state_and_content(state_file, capsys):
    code, out, _ = run(capsys, "validate", CONTENT / "floors" / "meridian-lobby.floor")
    assert code == 0 and "valid floor 'Meridian Tower, Lobby'" in out
    code, out, _ = run(capsys, "validate", state_file)
    assert code == 0 and "valid game state, round 1, threat 0" in out
    code, out, _ = run(capsys, "validate", CONTENT / "guards.toml")
    assert code == 0 and "valid" in out


def test_validate_counts_in_words(tmp_path, capsys):
    closet = tmp_path / "closet.floor"
    closet.write_text('name: Closet\nlevel: 1\n\ngrid:\n+-+-+\n|E T|\n+-+-+\n\nareas:\n  A1 room "Closet"\n')
    code, out, _ = run(capsys, "validate", closet)
    assert code == 0 and out.strip().endswith("valid floor 'Closet', level 1: 2 spaces, 1 area, 0 doors"), out


@pytest.mark.parametrize("field,value,words", [
    ("threat", 30, "threat"),
    ("players", 0, "players"),
])
def test_validate_bad_state(state_file, capsys, field, value, words):
    data = json.loads(state_file.read_text())
    data[field] = value
    state_file.write_text(json.dumps(data))
    line = refused(capsys, "validate", state_file)
    assert str(state_file) in line and words in line


def test_validate_bad_power_and_patrol(state_file, capsys):
    data = json.loads(state_file.read_text())
    data["bots"][1]["power"] = 11
    state_file.write_text(json.dumps(data))
    assert "bots[1].power" in refused(capsys, "validate", state_file)
    data["bots"][1]["power"] = 5
    data["security"][0]["patrol"] = "wander"
    state_file.write_text(json.dumps(data))
    assert "security[0].patrol" in refused(capsys, "validate", state_file)


def test_validate_broken_floor(tmp_path, capsys):
    floor = tmp_path / "bad.floor"
    floor.write_text("name: Bad\nlevel: 1\ngrid:\n+-+-+\n|E ?|\n+-+-+\nareas:\n  A1 hallway\n")
    line = refused(capsys, "validate", floor)
    assert f"{floor}:5:4: unknown space character '?' at B1" in line


def test_validate_broken_content(tmp_path, capsys):
    bad = tmp_path / "guards.toml"
    bad.write_text((CONTENT / "guards.toml").read_text().replace('patrol = "pace"', 'patrol = "wander"', 1))
    line = refused(capsys, "validate", bad)
    assert str(bad) in line and "patrol" in line


def test_validate_unknown_kind(tmp_path, capsys):
    other = tmp_path / "notes.txt"
    other.write_text("hello")
    assert "cannot tell what kind of file" in refused(capsys, "validate", other)


# -- schema -------------------------------------------------------------------------------------------
def test_schema_state(capsys):
    code, out, _ = run(capsys, "schema", "state")
    assert code == 0
    schema = json.loads(out)
    text = json.dumps(schema)
    assert "GameState" in text and '"maximum": 26' in text


def test_new_game_unwritable_out(tmp_path, capsys):
    out = tmp_path / "missing-dir" / "state.json"
    line = refused(capsys, "new-game", "--out", out)
    assert "cannot write" in line and str(out) in line
    assert list(tmp_path.iterdir()) == []


def test_a_reader_that_stops_early_gets_no_traceback():
    """`... | head`: the program stops quietly when its reader goes away ("No traceback reaches a user")."""
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "schema", "state"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    proc.stdout.close()  # the reader is gone before the program writes
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0 and err == b"", err
