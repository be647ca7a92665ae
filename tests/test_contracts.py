"""The published contracts: JSON Schemas of the state, every action and every event, with versions, and
tolerant reading of actions and events (a reader ignores fields it does not know).

Every event and action type round-trips through JSON and validates against the schema `schema` prints, both
for values built by hand (every type) and for every event of a whole seeded game.
"""

from __future__ import annotations

import json
import typing

import jsonschema
import msgspec
import pytest
from msgspec import inspect as mi

from controller.autoplay.player import play
from controller.rules import (
    ACTION_VERSION,
    EVENT_VERSION,
    STATE_VERSION,
    RulesError,
    decode_events,
    decode_state,
    encode_events,
    encode_state,
    schema,
)
from controller.rules.actions import AnyAction, decode_action, encode_action
from controller.rules.events import AnyEvent
from tests.support.cli_run import refused, run


def _sample(t: mi.Type, name: str = ""):
    """A valid value of a field's type: the lowest a constraint allows, a Literal's first value."""
    if isinstance(t, mi.StrType):
        return {"facing": "E", "deck": "imperative"}.get(name, "B2")
    if isinstance(t, mi.IntType):
        return t.ge if t.ge is not None else (t.gt + 1 if t.gt is not None else 2)
    if isinstance(t, mi.BoolType):
        return True
    if isinstance(t, mi.FloatType):
        return 1.5
    if isinstance(t, mi.ListType):
        return [_sample(t.item_type, name)] * 2
    if isinstance(t, mi.DictType):
        return {_sample(t.key_type): _sample(t.value_type)}
    if isinstance(t, mi.UnionType):
        return _sample(next(x for x in t.types if not isinstance(x, mi.NoneType)), name)
    if isinstance(t, mi.LiteralType):
        return t.values[0]
    if isinstance(t, mi.StructType):
        return _build(t.cls)
    raise TypeError(f"no sample for {t}")


def _build(kind: type):
    """A value of a Struct type with every field set (optional ones too, so each is checked)."""
    return kind(**{f.name: _sample(f.type, f.name) for f in mi.type_info(kind).fields})


EVENTS = typing.get_args(AnyEvent)
ACTIONS = typing.get_args(AnyAction)
tag = lambda kind: kind.__struct_config__.tag  # noqa: E731


@pytest.mark.parametrize("contract,version", [("state", STATE_VERSION), ("action", ACTION_VERSION),
                                              ("event", EVENT_VERSION)])
def test_each_schema_names_its_contract_and_version(capsys, contract, version):
    printed = schema(contract)
    assert printed["$id"] == f"urn:burncycle-table:schema:{contract}:{version}"
    assert printed["version"] == version
    jsonschema.Draft202012Validator.check_schema(printed)
    code, out, _ = run(capsys, "schema", contract)
    assert code == 0 and json.loads(out) == printed


def test_an_unknown_contract_names_the_ones_there_are():
    with pytest.raises(RulesError, match="unknown contract 'events': the schemas are state, action, event"):
        schema("events")


@pytest.mark.parametrize("kind", EVENTS, ids=tag)
def test_every_event_round_trips_and_validates_against_the_event_schema(kind):
    event = _build(kind)
    data = encode_events([event])
    assert decode_events(data) == [event]
    jsonschema.validate(json.loads(data)[0], schema("event"))


@pytest.mark.parametrize("kind", ACTIONS, ids=tag)
def test_every_action_round_trips_and_validates_against_the_action_schema(kind):
    action = _build(kind)
    data = encode_action(action)
    assert decode_action(data) == action
    jsonschema.validate(json.loads(data), schema("action"))


def test_every_event_of_a_seeded_game_validates(capsys, tmp_path):
    path = tmp_path / "state.json"
    assert run(capsys, "new-game", "--seed", 3, "--players", 2, "--out", path)[0] == 0
    start = decode_state(path.read_bytes())
    validator = jsonschema.Draft202012Validator(schema("event"))
    seen = set()
    for _, events, _ in play(start, max_actions=400):
        for event in json.loads(encode_events(events)):
            validator.validate(event)
            seen.add(event["type"])
    assert len(seen) > 20


def test_events_and_actions_written_by_a_later_release_still_read():
    """A field added by a later release is ignored, so a log written then opens now (and the other way)."""
    later = b'[{"type": "threat_changed", "old": 3, "new": 4, "reason": "alarm", "cause": {"kind": "door"}}]'
    assert encode_events(decode_events(later)) == b'[{"type":"threat_changed","old":3,"new":4,"reason":"alarm"}]'
    move = decode_action(b'{"action": "step", "bot": "byte", "to": "A2", "speed": "fast"}')
    assert (move.bot, move.to) == ("byte", "A2")


def test_an_unknown_event_type_is_still_an_error():
    with pytest.raises(msgspec.ValidationError, match="type"):
        decode_events(b'[{"type": "dragon_appeared"}]')


def test_a_move_without_a_path_is_refused_with_its_field():
    """Every phrasing of a move reads its path's first and last space: a log cannot hand it an empty one."""
    with pytest.raises(msgspec.ValidationError, match=r"length >= 1 - at `\$\[0\]\.path`"):
        decode_events(b'[{"type": "bot_moved", "bot": "byte", "path": []}]')


def test_an_encoded_state_carries_its_schema_version(capsys, tmp_path):
    path = tmp_path / "state.json"
    assert run(capsys, "new-game", "--seed", 1, "--out", path)[0] == 0
    raw = json.loads(path.read_bytes())
    assert raw["version"] == STATE_VERSION
    raw["version"] = STATE_VERSION + 1
    with pytest.raises(msgspec.ValidationError, match=f"version {STATE_VERSION + 1}.*reads version {STATE_VERSION}"):
        decode_state(json.dumps(raw))
    assert encode_state(decode_state(path.read_bytes())) == path.read_bytes()


def test_a_newer_state_is_refused_by_the_command_line_in_one_line(capsys, tmp_path):
    path = tmp_path / "state.json"
    assert run(capsys, "new-game", "--seed", 1, "--out", path)[0] == 0
    raw = json.loads(path.read_bytes())
    raw["version"] = STATE_VERSION + 1
    path.write_text(json.dumps(raw))
    assert "version" in refused(capsys, "validate", path)


def test_act_refuses_an_unknown_field_typed_in_by_name(capsys, tmp_path):
    """A typed-in action is checked strictly: a misspelt field would otherwise be dropped unnoticed."""
    path = tmp_path / "state.json"
    assert run(capsys, "new-game", "--seed", 1, "--out", path)[0] == 0
    message = refused(capsys, "act", path, '{"action": "begin_actions", "bot": "byte"}')
    assert "begin_actions: unknown field `bot`" in message and "no fields" in message


def test_docs_list_every_event_type():
    """docs/events.md is the reference a client is written from: it names every event type."""
    from pathlib import Path
    text = (Path(__file__).parent.parent / "docs" / "events.md").read_text(encoding="utf-8")
    missing = [tag(kind) for kind in EVENTS if f"| `{tag(kind)}` |" not in text]
    assert missing == []
