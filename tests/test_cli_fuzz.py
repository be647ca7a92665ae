"""Malformed input thrown at every command, in process: each is refused with exit code 2 and one line, never a
traceback, and no input file is changed and no output written.

Hypothesis makes the input (derandomized, so every run tries the same cases); each strategy makes input that
is wrong by construction (a state that is not JSON, an action naming no action, a number no person means),
so exit code 2 is the only right answer.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.cli import main
from controller.cli.play import ACTION_NAMES

FUZZ = settings(derandomize=True, max_examples=40, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
PING_FACES = {"threat", "threat+transfer", "ceo", "ceo+transfer", "ping", "ping+transfer"}


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> Path:
    """A folder with a real game state, a photo and a floor; each test's input files are written beside them."""
    folder = tmp_path_factory.mktemp("fuzz")
    code, _, err = refusal_or_success(["new-game", "--seed", "3", "--out", str(folder / "state.json")])
    assert code == 0, err
    return folder


def refusal_or_success(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def refused(table: Path, argv: list[str], inputs: dict[str, bytes]) -> str:
    """Write the inputs, run the command with --out pointing at a fresh name where it takes one, and check
    the refusal: exit 2, one line, no traceback, inputs unchanged, nothing new in the folder."""
    for name, data in inputs.items():
        (table / name).write_bytes(data)
    before = {p.name: p.read_bytes() for p in table.iterdir()}
    code, out, err = refusal_or_success([a.replace("TABLE", str(table)) for a in argv])
    assert code == 2, (argv, out, err)
    assert "Traceback" not in out + err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("burncycle-table: ") and len(lines[0]) < 2000, err
    after = {p.name: p.read_bytes() for p in table.iterdir()}
    assert after == before, f"{argv} changed or wrote files"
    return lines[0]


garbage = st.one_of(
    st.binary(max_size=300),
    st.text(max_size=300).map(str.encode),
    st.integers(1, 50_000).map(lambda n: ('{"a":' * n + "1" + "}" * n).encode()),  # nesting, deep and shallow
    st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
                 lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                 max_leaves=20).map(lambda v: json.dumps(v).encode()),
)


@FUZZ
@given(data=garbage)
def test_validate_and_every_state_reader_refuse_a_broken_state(table, data):
    for command in (["validate"], ["actions"], ["corp-turn"], ["leds", "show"]):
        refused(table, [*command, "TABLE/broken.json"], {"broken.json": data})


@FUZZ
@given(data=garbage)
def test_a_broken_floor_is_refused_by_validate_new_game_and_detect(table, data):
    refused(table, ["validate", "TABLE/broken.floor"], {"broken.floor": data})
    refused(table, ["new-game", "--floor", "TABLE/broken.floor", "--out", "TABLE/never.json"], {"broken.floor": data})


def not_an_action(raw: bytes) -> bool:
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        return True
    return not (isinstance(value, dict) and value.get("action") in ACTION_NAMES)


@FUZZ
@given(data=garbage.filter(not_an_action))
def test_an_action_that_names_no_action_is_refused(table, data):
    refused(table, ["act", "TABLE/state.json", "TABLE/action.json", "--out", "TABLE/never.json"],
            {"action.json": data})
    text = data.decode("utf-8", "replace")
    if text.lstrip().startswith("{"):
        refused(table, ["act", "TABLE/state.json", text, "--out", "TABLE/never.json"], {})


@FUZZ
@given(rolls=st.text(max_size=40).filter(str.strip))
def test_rolls_for_an_action_that_rolls_nothing_are_refused(table, rolls):
    """Beginning the action step rolls no die: any --rolls that names a face is too many faces, or an empty one
    (a blank --rolls is zero faces, which is right here: tests/test_play_cli.py)."""
    line = refused(table, ["act", "TABLE/state.json", '{"action": "begin_actions"}', "--rolls", rolls,
                           "--out", "TABLE/never.json"], {})
    assert "--rolls" in line


def not_ping_faces(rolls: str) -> bool:
    return not all(r.strip().casefold() in PING_FACES for r in rolls.split(","))


@FUZZ
@given(rolls=st.text(max_size=40).filter(not_ping_faces))
def test_rolls_that_are_no_ping_die_faces_are_refused(table, rolls):
    refused(table, ["corp-turn", "TABLE/state.json", "--rolls", rolls, "--out", "TABLE/never.json"], {})


def no_length_of_time(text: str) -> bool:
    try:
        value = float(text)
    except ValueError:
        return True
    return not (text.isascii() and "_" not in text and math.isfinite(value) and value >= 0)


def whole_number(text: str) -> int | None:
    """The number a person means by `text`, as the options read it (ASCII digits, an optional sign)."""
    if not text.isascii() or "_" in text:
        return None
    try:
        return int(text.strip())
    except ValueError:
        return None


numbers = st.one_of(st.text(max_size=12), st.sampled_from(["nan", "inf", "-inf", "-1", "1e999", "²", "٣", "1_0"]),
                    st.floats().map(str), st.integers(-10**30, -1).map(str))


@FUZZ
@given(value=numbers)
def test_number_options_refuse_what_no_person_means(table, value):
    if no_length_of_time(value):
        refused(table, ["leds", "test", "--step", value], {})
        refused(table, ["leds", "show", "TABLE/state.json", "--seconds", value], {})
    number = whole_number(value)
    if number is None or number < 1:
        refused(table, ["leds", "test", "--baud", value, "--step", "0"], {})
    if number is None or not 1 <= number <= 4:
        refused(table, ["new-game", "--players", value, "--out", "TABLE/never.json"], {})


@FUZZ
@given(data=garbage)
def test_a_broken_layout_image_or_calibration_is_refused(table, data):
    refused(table, ["leds", "test", "--layout", "TABLE/broken.toml", "--step", "0"], {"broken.toml": data})
    refused(table, ["detect", "TABLE/broken.png", "--floor", "meridian-lobby"], {"broken.png": data})
    refused(table, ["watch", "TABLE", "--floor", "meridian-lobby", "--calibration", "TABLE/lens.json",
                    "--frames", "1"], {"lens.json": data})
