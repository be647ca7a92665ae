"""The playing commands of `burncycle-table`: act, actions, selfplay."""

from __future__ import annotations

import json
import typing
from pathlib import Path

import pytest
from msgspec import inspect as mi

from controller.cli import play as play_cli
from controller.rules import decode_state, phrase
from tests.support.cli_run import refused, run


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
    assert all({"tag", "bot", "choose", "dice", "options", "cost", "label"} <= set(entry) for entry in listed)
    assert all(entry["tag"] == entry["action"]["action"] for entry in listed)


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


def test_selfplay_narrates_a_game_as_instructions(capsys):
    """A convention demo: the auto-player's game told round by round, as the table would be told to play it."""
    code, out, _ = run(capsys, "selfplay", "--games", 1, "--seed", 4, "--narrate", "--floor", "meridian-annex")
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("== game 1: Operation Data Heist on Meridian Tower, Annex, seed 4")
    assert "-- round 1: threat 0 --" in lines and "The corporation's turn." in lines
    assert any(line.startswith("Move Nano from ") for line in lines)  # the auto-player's team
    ending = next(line for line in lines if line.startswith("== ") and "game 1" not in line)
    assert ending.startswith(("== victory", "== defeat"))
    assert "1 game of data-heist on meridian-annex" in out  # the summary follows the story


@pytest.mark.parametrize("named, team", [
    ([], "(Nano, Casing)"),  # the auto-player's choice: Nano's Reassemble takes him through locked doors
    (["--agents", "byte,bit"], "(Byte, Bit)"),
])
def test_selfplay_plays_the_auto_players_team_or_the_agents_named(capsys, named, team):
    code, out, _ = run(capsys, "selfplay", "--games", 1, "--seed", 3, *named)
    assert code == 0 and f"1 game of data-heist on meridian-lobby, 2 players {team}" in out


def test_selfplay_refuses_an_unknown_agent(capsys):
    assert "unknown agent 'zz'" in refused(capsys, "selfplay", "--games", 1, "--agents", "byte,zz")


def test_selfplay_refuses_a_bad_mission(capsys):
    assert "unknown mission" in refused(capsys, "selfplay", "--games", 1, "--mission", "nope")


# -- the actions, events and missions added with equipment, the special characters, Adaptable missions and floors --
from controller.rules import encode_state  # noqa: E402
from controller.rules.actions import (  # noqa: E402
    STEPS,
    BuyDiceUpgrade,
    Discard,
    DrawChip,
    Escape,
    Hop,
    InstallMod,
    JoanStun,
    JoanSurveil,
    NetworkStep,
    Step,
    Trade,
    UseEquipment,
    encode_action,
)
from controller.rules.events import AnyEvent  # noqa: E402
from controller.rules.state import Drone  # noqa: E402
from tests.support.rules_scenarios import CONTENT, bot, floor_text, guard, make_state, module  # noqa: E402
from tests.support.turn_scenarios import chips, in_turn  # noqa: E402

NEW_ACTIONS = [
    BuyDiceUpgrade(bot="byte"), JoanSurveil(), JoanStun(unit="G1"), Hop(bot="byte", path=["F1", "F4"]),
    Escape(bot="module"), DrawChip(chip="tech"), UseEquipment(bot="byte", card="E05", unit="G1"),
    UseEquipment(bot="byte", card="E07", path=["A2", "A3"]), UseEquipment(bot="byte", card="E08", beyond="B3"),
    InstallMod(bot="byte", card="M01"), Discard(bot="byte", card="I02"),
    Trade(bot="byte", to="module", cards=["E05"], discard=["M01"]),
    Step(bot="nano", to="B3", reassemble=True), Step(bot="joan", to="C3"),
    Step(bot="byte", to="A2", take_cache=True, discard=["E05"]),
    NetworkStep(transfers={1: "in"}, asterisk=2, risky=["N03"]),
]


@pytest.mark.parametrize("action", NEW_ACTIONS, ids=lambda a: a.__struct_config__.tag)
def test_every_new_action_decodes_as_it_encodes(action):
    """What `actions` prints (and any client writes) comes back as the same action through `act`'s reader."""
    assert play_cli._load_action(encode_action(action).decode()) == action


def test_every_action_kind_is_known_to_the_command_line():
    """`act` names every action of the engine when an action is unknown."""
    line = play_cli.ACTION_NAMES
    assert sorted(line) == sorted(kind.__struct_config__.tag for kind in STEPS)
    for tag in ("hop", "escape", "joan_stun", "joan_surveil", "use_equipment", "install_mod", "discard",
                "buy_dice_upgrade", "draw_chip"):
        assert tag in line


def _sample(t, name: str):
    """A value of a field's type for an event built by hand (directions and decks by their keys)."""
    if name == "facing":
        return "E"
    if name == "deck":
        return "imperative"
    if isinstance(t, mi.StrType):
        return "B2"
    if isinstance(t, mi.IntType):
        return 2
    if isinstance(t, mi.BoolType):
        return True
    if isinstance(t, mi.ListType):
        return [_sample(t.item_type, ""), _sample(t.item_type, "")]
    if isinstance(t, mi.DictType):
        return {_sample(t.key_type, ""): _sample(t.value_type, "")}
    if isinstance(t, mi.UnionType):
        return _sample(next(x for x in t.types if not isinstance(x, mi.NoneType)), name)
    if isinstance(t, mi.LiteralType):
        return t.values[0]
    raise TypeError(f"no sample for {t}")


@pytest.mark.parametrize("kind", typing.get_args(AnyEvent), ids=lambda k: k.__struct_config__.tag)
def test_every_event_is_phrased_for_act_text(kind, state_file):
    """`act --text` prints `phrase(event, state)` of each event: every event type, the new ones included, has
    words, even for ids the state does not hold."""
    fields = {f.name: _sample(f.type, f.name) for f in mi.type_info(kind).fields}
    if kind.__struct_config__.tag == "step_started":
        fields["dice"] = {"elite": 2}
    text = phrase(kind(**fields), decode_state(state_file.read_bytes()))
    assert text.strip() and "None" not in text


# A hallway over a room: terminal spaces A1, F1 and F3 (the room's), entrances A2 and B2.
TABLE = floor_text("""
+-+-+-+-+-+-+
|T . . . . T|
+ + + + + + +
|E E . . . .|
+-+-+-+-+D+-+
|. . . . . T|
+-+-+-+-+-+-+
""", """
A1 hallway "Hall"
A3 room "Vault" surveillance=1
""")


def _write(tmp_path, name: str, state) -> Path:
    path = tmp_path / name
    path.write_bytes(encode_state(state))
    return path


def memorys_turn(tmp_path) -> Path:
    """Preconnaissance, Memory's action step on a utility chip: Memory on the terminal space A1 holding an
    Overclock wafer (E06), the command module on D2, Joan charged on C3 next to a guard on D3."""
    s = make_state(TABLE, bots=[bot("memory", "A1"), module("D2")],
                   units=[guard("G1", "E3", "W", awareness=0)], slots=chips("utility", "general", "general"))
    s.floor.surveillance = ["A3"]
    s.mission = CONTENT.missions["preconnaissance"]
    s.joan = Drone(space="D3", charged=True)
    wafer = next(c for c in CONTENT.equipment if c.id == "E06").__copy__()
    s.bot("memory").equipment = [wafer]
    return _write(tmp_path, "memory.json", in_turn(s, basic=2))


def escaping(tmp_path) -> Path:
    """Operation Tower Run on its last floor, calibrated: Memory on the entrance A2, the module on B2."""
    s = make_state(TABLE, bots=[bot("memory", "A2"), module("B2")], slots=chips("general", "general", "general"))
    s.mission = CONTENT.missions["tower-run"]
    s.floor_number, s.calibrated = 2, True
    return _write(tmp_path, "escape.json", in_turn(s))


def _listed(capsys, state: Path) -> list[dict]:
    code, out, _ = run(capsys, "actions", state)
    assert code == 0
    return [entry["action"] for entry in json.loads(out)]


def _act_listed(capsys, state: Path, action: dict, out: Path) -> str:
    """Apply an action exactly as `actions` listed it; the instructions `act --text` printed."""
    code, text, err = run(capsys, "act", state, json.dumps(action), "--out", out, "--text")
    assert code == 0, err
    return text


def test_end_to_end_equipment_hop_joan_and_escape(capsys, tmp_path):
    """Through `actions` and `act` only: Memory uses an equipment card, hops into cyberspace, has Joan stun a
    guard; on the last floor the command module and then Memory escape and the mission is won."""
    state = memorys_turn(tmp_path)
    listed = _listed(capsys, state)
    wafer = {"action": "use_equipment", "bot": "memory", "card": "E06", "unit": None, "beyond": None, "path": []}
    assert wafer in listed
    text = _act_listed(capsys, state, wafer, tmp_path / "1.json")
    assert "Overclock wafer" in text and "Add 1 elite die" in text
    hops = [a for a in _listed(capsys, tmp_path / "1.json") if a["action"] == "hop"]
    assert {"action": "hop", "bot": "memory", "path": ["F1", "F3"]} in hops
    text = _act_listed(capsys, tmp_path / "1.json", {"action": "hop", "bot": "memory", "path": ["F1", "F3"]},
                       tmp_path / "2.json")
    assert "Move Memory from A1 to F3" in text and "Remove the surveillance bead of the Vault" in text
    assert {"action": "joan_stun", "unit": "G1"} in _listed(capsys, tmp_path / "2.json")
    text = _act_listed(capsys, tmp_path / "2.json", {"action": "joan_stun", "unit": "G1"}, tmp_path / "3.json")
    assert "Joan stuns" in text and "Flip Joan to her depleted side" in text
    after = decode_state((tmp_path / "3.json").read_bytes())
    assert after.bot("memory").space == "F3" and after.bot("memory").equipment == []
    assert after.turn.pool.elite == 1 and after.unit("G1").stunned and not after.joan.charged

    state = escaping(tmp_path)
    assert {"action": "escape", "bot": "module"} in _listed(capsys, state)
    text = _act_listed(capsys, state, {"action": "escape", "bot": "module"}, tmp_path / "4.json")
    assert "Module escapes from B2: take it off the board." in text
    text = _act_listed(capsys, tmp_path / "4.json", {"action": "escape", "bot": "memory"}, tmp_path / "5.json")
    assert "The mission is won" in text
    assert str(decode_state((tmp_path / "5.json").read_bytes()).outcome) == "victory: Out the Front Door"


def test_actions_text_prints_json_ready_for_act_with_its_label(capsys, tmp_path):
    """`actions --text`: one line per action, its JSON without default fields, then its label."""
    state = memorys_turn(tmp_path)
    code, out, _ = run(capsys, "actions", state, "--text")
    assert code == 0
    lines = out.splitlines()
    assert '{"action": "hop", "bot": "memory", "path": ["F1"]}  1 hop; jumping out on F1: detected, ' \
           'surveils the room' in lines
    assert any(line.startswith('{"action": "use_equipment", "bot": "memory", "card": "E06"}  Overclock wafer')
               for line in lines)
    assert '{"action": "joan_stun", "unit": "G1"}  depletes Joan' in lines
    assert '{"action": "move", "dice": {"basic": 2}}  choose the dice: up to 2 basic dice' in lines
    for line in lines:
        action, end = json.JSONDecoder().raw_decode(line)
        assert line[end:end + 2] == "  "
        play_cli._load_action(json.dumps(action))


def test_actions_text_warns_before_an_escape_that_loses_the_game(capsys, tmp_path):
    code, out, _ = run(capsys, "actions", escaping(tmp_path), "--text")
    assert code == 0
    line = next(line for line in out.splitlines() if line.startswith('{"action": "escape", "bot": "memory"}'))
    assert "  WARNING: this loses the game: all agents escaped before the command module" in line
    assert "WARNING" not in next(line for line in out.splitlines() if '"bot": "module"}' in line and "escape" in line)


@pytest.mark.parametrize("action,words", [
    ('{"action": "hop", "bot": "memory", "path": "F1"}', "hop: field path: expected `array`"),
    ('{"action": "hop", "bot": "memory", "path": [1]}', "hop: field path[0]: expected `str`"),
    ('{"action": "use_equipment", "bot": "memory"}', "use_equipment: object missing required field `card`"),
    ('{"action": "joan_stun"}', "joan_stun: object missing required field `unit` (its fields: unit)"),
    ('{"action": "escape", "bot": 3}', "escape: field bot: expected `str`"),
    ('{"action": "install_mod", "bot": "memory", "card": "M01", "upright": true}', "unknown field `upright`"),
    ('{"action": "discard", "bot": "memory", "card": ["E06"]}', "discard: field card: expected `str`"),
    ('{"action": "draw_chip", "chip": "captain"}', "draw_chip: field chip: invalid enum value 'captain'"),
    ('{"action": "buy_dice_upgrade"}', "buy_dice_upgrade: object missing required field `bot`"),
    ('{"action": "network_step", "asterisk": "two"}', "network_step: field asterisk: expected `int | null`"),
    ('{"action": "step", "bot": "nano", "to": "B3", "reassemble": "yes"}', "step: field reassemble"),
    ('{"action": "trade", "bot": "memory", "to": "module", "keys": "1"}', "trade: field keys: expected `int`"),
])
def test_a_malformed_new_action_names_its_field(capsys, tmp_path, action, words):
    state = memorys_turn(tmp_path)
    before = state.read_bytes()
    line = refused(capsys, "act", state, action, "--out", tmp_path / "never.json")
    assert words in line
    assert state.read_bytes() == before and not (tmp_path / "never.json").exists()


@pytest.mark.parametrize("action,rule", [
    ('{"action": "hop", "bot": "memory", "path": ["C1"]}', "C1 is not a terminal space"),
    ('{"action": "hop", "bot": "memory", "path": ["F3"]}', "not in a straight orthogonal or diagonal line"),
    ('{"action": "use_equipment", "bot": "memory", "card": "E05", "unit": "G1"}', "holds no equipment card E05"),
    ('{"action": "joan_stun", "unit": "G9"}', "G9"),
    ('{"action": "escape", "bot": "memory"}', "no escape open"),
    ('{"action": "install_mod", "bot": "memory", "card": "M01"}', "M01"),
])
def test_an_illegal_new_action_exits_2_with_the_rule_and_writes_nothing(capsys, tmp_path, action, rule):
    state = memorys_turn(tmp_path)
    before = state.read_bytes()
    line = refused(capsys, "act", state, action, "--out", tmp_path / "never.json")
    assert line.startswith("burncycle-table: illegal action: ") and rule in line
    assert state.read_bytes() == before and not (tmp_path / "never.json").exists()


# -- --rolls: one unambiguous syntax ------------------------------------------------------------------------
@pytest.fixture
def begun(capsys, state_file, tmp_path):
    path = tmp_path / "begun.json"
    assert run(capsys, "act", state_file, '{"action": "begin_actions"}', "--out", path)[0] == 0
    return path


MOVE_3_BASIC = '{"action": "move", "dice": {"basic": 3}}'


@pytest.mark.parametrize("rolls, ap", [("1,1,1", 3), ("2,2,blank", 4), ("blank,blank,2", 3), ("BLANK,1,2", 3)])
def test_rolls_name_the_face_printed_on_the_die(capsys, begun, rolls, ap):
    code, out, err = run(capsys, "act", begun, MOVE_3_BASIC, "--rolls", rolls)
    assert code == 0, err
    assert json.loads(out)["state"]["turn"]["pending"]["ap"] == ap


@pytest.mark.parametrize("face", ["3", "6"])
def test_a_number_is_never_a_face_position(capsys, begun, face):
    """`3` on a basic die was read as its third face (a 1) and `6` as its sixth (a blank)."""
    line = refused(capsys, "act", begun, MOVE_3_BASIC, "--rolls", f"1,1,{face}")
    assert f"result 3 ('{face}') is not a face of the basic die; its faces are 1, 2, blank" in line
    assert "never its position" in line


@pytest.mark.parametrize("rolls", ["²,1,1", "1,١,1"])
def test_unicode_digits_are_refused(capsys, begun, rolls):
    line = refused(capsys, "act", begun, MOVE_3_BASIC, "--rolls", rolls)
    assert "is not a face of any die" in line


def test_extra_faces_are_refused_and_named(capsys, begun, tmp_path):
    out = tmp_path / "never.json"
    line = refused(capsys, "act", begun, MOVE_3_BASIC, "--rolls", "1,1,1,2,blank", "--out", out)
    assert "--rolls gives 5 faces, but the action reads 3 (3 basic dice): drop the extra 2, blank" in line
    assert not out.exists()


def test_too_few_faces_say_which_dice_are_still_needed(capsys, begun, tmp_path):
    out = tmp_path / "never.json"
    line = refused(capsys, "act", begun, MOVE_3_BASIC, "--rolls", "1", "--out", out)
    # the dice the engine's DiceNeeded lists, and what for
    assert ("--rolls gives 1 face, but the action reads 3: 3 basic dice; still needed: 2 basic dice for Byte's move "
            "action") in line
    assert "illegal action" not in line and "proprietary die first" in line
    assert not out.exists()


def test_rolls_help_shows_the_syntax_and_the_order(capsys):
    for command in ("act", "corp-turn"):
        with pytest.raises(SystemExit):
            run(capsys, command, "--help")
        text = " ".join(capsys.readouterr().out.split())
        assert "never its position" in text and "a proprietary die first, then the basic, advanced and elite" in text


def test_actions_on_a_finished_game_say_the_game_is_over(capsys, state_file):
    """It printed nothing and exited 0, as if the file were not a game."""
    data = json.loads(state_file.read_text())
    data["outcome"] = {"result": "defeat", "cause": "threat_maxed", "text": "threat reached 26"}
    state_file.write_text(json.dumps(data))
    code, out, err = run(capsys, "actions", state_file, "--text")
    assert code == 0 and out == (f"{state_file}: the game is over (defeat: threat reached 26); no action is legal: "
                                 f"start another with new-game\n")
    code, out, err = run(capsys, "actions", state_file)
    assert code == 0 and json.loads(out) == [] and "the game is over (defeat: threat reached 26)" in err


def test_empty_rolls_are_zero_faces_for_an_action_that_reads_none(capsys, state_file):
    """`--rolls ''` was refused as "result 1 is empty": scripts pass the faces they have, sometimes none."""
    code, out, err = run(capsys, "act", state_file, '{"action": "begin_actions"}', "--rolls", "")
    assert code == 0, err
    assert json.loads(out)["state"]["turn"]["step"] == "actions"


def test_empty_rolls_for_an_action_that_reads_dice_say_what_is_still_needed(capsys, begun):
    line = refused(capsys, "act", begun, MOVE_3_BASIC, "--rolls", "")
    assert "--rolls gives 0 faces, but the action reads 3: 3 basic dice; still needed: 3 basic dice" in line
    assert "is empty" not in line


@pytest.mark.parametrize("rolls", [" , ", "1,,1", "1,1,"])
def test_an_empty_face_between_commas_is_still_refused(capsys, begun, rolls):
    assert "is empty; give the faces separated by single commas" in refused(capsys, "act", begun, MOVE_3_BASIC,
                                                                            "--rolls", rolls)
