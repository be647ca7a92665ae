"""The playing commands of `burncycle-table`: act, actions, selfplay."""

from __future__ import annotations

import json

import pytest

from cli_run import refused, run
from controller.rules import decode_state


@pytest.fixture
def state_file(tmp_path, capsys):
    path = tmp_path / "state.json"
    assert run(capsys, "new-game", "--seed", 7, "--players", 2, "--out", path)[0] == 0
    return path


def test_actions_lists_the_legal_actions(capsys, state_file):
    code, out, _ = run(capsys, "actions", state_file)
    assert code == 0
    listed = json.loads(out)
    kinds = {entry["action"]["action"] for entry in listed}
    assert "begin_actions" in kinds and "reboot" in kinds
    assert all("cost" in entry and "needs" in entry for entry in listed)


def test_act_applies_an_action_and_writes_the_new_state(capsys, state_file, tmp_path):
    out_file = tmp_path / "next.json"
    code, out, _ = run(capsys, "act", state_file, '{"action": "begin_actions"}', "--out", out_file, "--text")
    assert code == 0
    assert "dice pool" in out
    assert decode_state(out_file.read_bytes()).turn.step == "actions"


def test_act_with_rolls_typed_in(capsys, state_file, tmp_path):
    begun = tmp_path / "begun.json"
    run(capsys, "act", state_file, '{"action": "begin_actions"}', "--out", begun)
    code, out, _ = run(capsys, "act", begun, '{"action": "move", "dice": {"basic": 2}}', "--rolls", "2,2")
    assert code == 0
    result = json.loads(out)
    assert result["state"]["turn"]["pending"]["ap"] == 4


def test_an_action_from_a_file(capsys, state_file, tmp_path):
    action = tmp_path / "action.json"
    action.write_text('{"action": "reboot"}')
    code, out, _ = run(capsys, "act", state_file, action)
    assert code == 0
    assert any(e["type"] == "threat_changed" for e in json.loads(out)["events"])


def test_an_illegal_action_names_the_rule_and_writes_nothing(capsys, state_file, tmp_path):
    out_file = tmp_path / "never.json"
    message = refused(capsys, "act", state_file, '{"action": "move", "dice": {"basic": 2}}', "--out", out_file)
    assert "illegal action" in message and "power routing" in message
    assert not out_file.exists()


def test_a_malformed_action_is_refused(capsys, state_file):
    assert "actions are:" in refused(capsys, "act", state_file, '{"action": "teleport"}')
    assert "bot" in refused(capsys, "act", state_file, '{"action": "step", "bot": 3, "to": "A1"}')
    assert "not valid JSON" in refused(capsys, "act", state_file, "{nope")


def test_selfplay_prints_win_rate_rounds_and_threat(capsys):
    code, out, _ = run(capsys, "selfplay", "--games", 3, "--seed", 5, "--players", 1)
    assert code == 0
    assert "win rate:" in out and "average rounds:" in out and "average threat at the end:" in out


def test_selfplay_refuses_a_bad_mission(capsys):
    assert "unknown mission" in refused(capsys, "selfplay", "--games", 1, "--mission", "nope")
