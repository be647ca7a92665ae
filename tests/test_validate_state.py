"""`validate` refuses the states the engine would crash on, and `new-game`/`selfplay` never make one.

Found by throwing bad input at the commands: a turn index out of range (negative crashed `validate`
itself), turn orders and markers naming agents that are not in the game, IPs and hands of nobody, later
floors that do not compile; `--agents byte,byte` wrote a state its own `validate` rejected.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli_run import refused, run


@pytest.fixture
def state(tmp_path, capsys) -> tuple[Path, dict]:
    path = tmp_path / "state.json"
    assert run(capsys, "new-game", "--mission", "tower-run", "--seed", 5, "--out", path)[0] == 0
    return path, json.loads(path.read_text())


def broken(state, change) -> Path:
    path, data = state
    change(data)
    path.write_text(json.dumps(data))
    return path


def _set(data: dict, *keys_and_value) -> None:
    *keys, last, value = keys_and_value
    for k in keys:
        data = data[k]
    data[last] = value


@pytest.mark.parametrize("change, where", [
    (lambda d: _set(d, "turn", "active", -1), "turn.active: expected `int` >= 0"),  # refused as it is read
    (lambda d: _set(d, "turn", "active", 2), "turn.active: 2 is not a player of turn.order"),
    (lambda d: _set(d, "turn", "order", ["byte", "ghost"]), "turn.order[1]: 'ghost' is not an agent"),
    (lambda d: _set(d, "turn", "order", ["byte", "byte"]), "turn.order: an agent takes two turns"),
    (lambda d: _set(d, "turn", "marker", "module"), "turn.marker: 'module' is not an agent in turn.order"),
    (lambda d: _set(d, "network", "ips", 0, "agent", "nobody"), "network.ips: 'nobody' is not an agent"),
    (lambda d: _set(d, "network_hands", {"nobody": []}), "network_hands: 'nobody' is not an agent"),
    (lambda d: _set(d, "burncycle", "personal_reserves", {"ghost": ["tech"]}),
     "burncycle.personal_reserves: 'ghost' is not a bot"),
    (lambda d: _set(d, "later_floors", 0, "text", "name: x\n"), "later_floors[0] (meridian-labs.floor).text:"),
    (lambda d: _set(d, "later_floors", 0, "text", ""), "later_floors[0] (meridian-labs.floor).text:"),
])
def test_validate_names_what_the_engine_would_crash_on(capsys, state, change, where):
    path = broken(state, change)
    line = refused(capsys, "validate", path)
    assert where in line, line
    # and every command that reads the state refuses it the same way, instead of crashing
    assert where in refused(capsys, "actions", path)
    assert where in refused(capsys, "act", path, '{"action": "pass"}')


def test_new_game_refuses_an_agent_named_twice(capsys, tmp_path):
    out = tmp_path / "never.json"
    line = refused(capsys, "new-game", "--agents", "byte,byte", "--out", out)
    assert "--agents: agent 'byte' named twice: expected different agents" in line
    assert not out.exists()


def test_selfplay_refuses_an_agent_named_twice(capsys):
    assert "--agents: agent 'byte' named twice" in refused(capsys, "selfplay", "--agents", "byte,byte", "--games", 1)


@pytest.mark.parametrize("level", ["0", "-1", "4"])
def test_new_game_refuses_a_level_out_of_range(capsys, tmp_path, level):
    out = tmp_path / "never.json"
    line = refused(capsys, "new-game", "--mission", "tsm-103c", "--level", level, "--out", out)
    assert "level" in line
    assert not out.exists()


def test_one_player_is_not_players(capsys, tmp_path):
    code, out, _ = run(capsys, "new-game", "--players", 1, "--out", tmp_path / "s.json")
    assert code == 0 and "1 player (Byte)" in out
    code, out, _ = run(capsys, "selfplay", "--players", 1, "--games", 1)
    assert code == 0 and "1 game of data-heist on meridian-lobby, 1 player (" in out
