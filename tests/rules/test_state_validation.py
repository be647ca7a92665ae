"""State validation: a state that is well-formed JSON but impossible is refused with the place and the rule.

Types (msgspec) catch ranges and names (threat 30, power 11, an unknown patrol pattern) with the field's
path; `check_state` catches what types cannot (two units on one space, a unit inside a wall or void).
`controller.library.load_state` turns both into one UserError naming the file.
"""

from __future__ import annotations

import json

import msgspec
import pytest

from controller.errors import UserError
from controller.library import load_state
from controller.rules import GameSetup, StateError, check_state, decode_state, encode_state, new_game
from controller.rules.state import Ping
from tests.support.rules_scenarios import CONTENT, bot, floor_text, guard, make_state


def base() -> dict:
    s = new_game(CONTENT, GameSetup(floor="meridian-lobby", players=2, seed=1))
    return json.loads(encode_state(s))


def load(tmp_path, data: dict):
    path = tmp_path / "state.json"
    path.write_text(json.dumps(data))
    return load_state(path)


def refused(tmp_path, data: dict) -> str:
    with pytest.raises(UserError) as err:
        load(tmp_path, data)
    msg = str(err.value)
    assert msg.startswith(str(tmp_path / "state.json") + ": ")
    assert "\n" not in msg
    return msg


def test_valid_state_loads(tmp_path):
    s = load(tmp_path, base())
    assert s.players == 2


def test_two_units_on_one_space(tmp_path):
    """One unit per space: a guard moved onto a bot's space."""
    data = base()
    data["security"][0]["space"] = data["bots"][1]["space"]
    msg = refused(tmp_path, data)
    assert "security[0]" in msg and "already taken by" in msg and "one unit per space" in msg


def test_two_bots_on_one_space():
    s = make_state(bots=[bot("a", "C3"), bot("b", "C4")])
    s.bots[1].space = "C3"
    with pytest.raises(StateError, match="bots\\[1\\].*C3 is already taken by a"):
        check_state(s)


def test_guard_inside_a_wall_or_void(tmp_path):
    """Nobody in a wall: a space the floor does not have (a void, or off the grid)."""
    text = floor_text("""
    +-+-+-+
    |E .|#|
    +-+-+-+
    """, "A1 hallway")
    s = make_state(text, units=[guard("G1", "B1")])
    s.security[0].space = "C1"  # the void
    with pytest.raises(StateError, match="security\\[0\\] \\(G1\\).space: 'C1' is not a space"):
        check_state(s)
    data = base()
    data["security"][1]["space"] = "Z99"
    msg = refused(tmp_path, data)
    assert "'Z99' is not a space of" in msg


def test_threat_30(tmp_path):
    """Threat ranges 0 to 26: 30 is refused with the field's path."""
    data = base()
    data["threat"] = 30
    msg = refused(tmp_path, data)
    assert ": threat: " in msg and "<= 26" in msg
    with pytest.raises(msgspec.ValidationError, match="threat"):
        decode_state(json.dumps(data))


def test_power_11(tmp_path):
    """Power 0 to 10 ("holding up to 10 power"): 11 is refused."""
    data = base()
    data["bots"][1]["power"] = 11
    msg = refused(tmp_path, data)
    assert "bots[1].power" in msg and "<= 10" in msg


def test_unknown_patrol_pattern(tmp_path):
    data = base()
    data["security"][0]["patrol"] = "wander"
    msg = refused(tmp_path, data)
    assert "security[0].patrol" in msg and "'wander'" in msg


def test_unknown_field_and_bad_json(tmp_path):
    data = base()
    data["bots"][0]["colour"] = "red"
    assert "colour" in refused(tmp_path, data)
    path = tmp_path / "state.json"
    path.write_text("{ not json")
    with pytest.raises(UserError, match="not valid JSON: .* line 1, column 3"):
        load_state(path)


def test_awareness_chip_off_the_floor():
    """Awareness chips only on floor spaces."""
    s = make_state(bots=[bot("a", "C3")])
    s.bots[0].awareness = "Q9"
    with pytest.raises(StateError, match="awareness: 'Q9' is not a space"):
        check_state(s)


def test_shut_down_bot_with_power():
    s = make_state(bots=[bot("a", "C3")])
    s.bots[0].shut_down = True
    with pytest.raises(StateError, match="shut down with 5 power"):
        check_state(s)


def test_more_than_three_destroyed_walls():
    """"up to 3 walls may be destroyed per floor\""""
    text = floor_text("""
    +-+-+-+-+-+
    |E|.|.|.|.|
    +-+-+-+-+-+
    """, "A1 hallway\nB1 hallway\nC1 hallway\nD1 hallway\nE1 hallway")
    s = make_state(text, destroyed=["A1/B1", "B1/C1", "C1/D1"])
    s.floor.destroyed_walls.append("D1/E1")
    with pytest.raises(StateError, match="only 3 walls can be destroyed"):
        check_state(s)


def test_ping_and_ip_on_unknown_nodes():
    s = make_state(bots=[bot("a", "C3")])
    s.network.ips[0].node = "L9-99"
    s.network.pings.append(Ping(id="P1", node="NOWHERE"))
    with pytest.raises(StateError) as err:
        check_state(s)
    assert "'L9-99' is not a node" in str(err.value) and "'NOWHERE' is not a node" in str(err.value)


def test_error_leaves_nothing_changed(tmp_path):
    """A refused state file is not modified."""
    data = base()
    data["threat"] = 30
    path = tmp_path / "state.json"
    path.write_text(json.dumps(data))
    before = path.read_bytes()
    with pytest.raises(UserError):
        load_state(path)
    assert path.read_bytes() == before
