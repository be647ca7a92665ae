"""`burncycle-table leds test|show` on the terminal and on mock GPIO; errors without tracebacks."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from controller.cli import main
from controller.library import floor_text, load_content
from controller.rules import GameSetup, encode_state, new_game

EXAMPLE = Path(__file__).resolve().parents[2] / "hardware" / "leds" / "layout.example.toml"


@pytest.fixture(scope="module")
def state_file(tmp_path_factory) -> Path:
    text, name = floor_text("meridian-lobby")
    path = tmp_path_factory.mktemp("state") / "state.json"
    path.write_bytes(encode_state(new_game(load_content(), GameSetup(floor=name, floor_text=text, players=2))))
    return path


def test_leds_test_lights_each_segment(capsys) -> None:
    assert main(["leds", "test", "--step", "0"]) == 0
    out, err = capsys.readouterr()
    assert err.count("segment ") == 3 and "slots on strip 'console' LEDs 0..9, reversed (GRB)" in err
    assert out.count("threat ") == 3


def test_leds_show_draws_the_state(capsys, state_file: Path) -> None:
    assert main(["leds", "show", str(state_file), "--layout", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("threat ") and "\x1b[38;2;0;60;0m●" in out  # link ok: green status pixel


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["leds", "show", "/nonexistent/state.json"], "no such state file"),
        (["leds", "test", "--driver", "serial"], "--driver serial needs --port"),
        (["leds", "test", "--driver", "serial", "--port", "/dev/ttyNOPE"], "/dev/ttyNOPE does not exist"),
        (["leds", "test", "--layout", "/nonexistent/layout.toml"], "cannot read the layout file"),
    ],
)
def test_errors_are_one_line_without_traceback(capsys, argv: list[str], message: str) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.count("\n") == 1


def test_leds_test_on_the_gpio_minimal_build(tmp_path: Path, capsys) -> None:
    text = EXAMPLE.read_text().replace('kind = "apa102"', 'kind = "discrete"\nthreat_pins = [5, 6, 13]\n'
                                                         'slot_pins = [[17, 27, 22]]\nstatus_pin = 9')
    assert tomllib.loads(text)["gpio"]["kind"] == "discrete"
    path = tmp_path / "layout.toml"
    path.write_text(text)
    previous = Device.pin_factory
    Device.pin_factory = MockFactory(pin_class=MockPWMPin)
    try:
        assert main(["leds", "test", "--driver", "gpio", "--layout", str(path), "--step", "0"]) == 0
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = previous
    assert capsys.readouterr().err.count("segment ") == 3


def test_leds_show_refuses_a_budget_that_is_not_a_number(tmp_path: Path, capsys, state_file: Path) -> None:
    """`budget_ma = nan` was taken (exit 0): the one number that keeps the strips within their supply."""
    text = EXAMPLE.read_text().replace("budget_ma = 1500", "budget_ma = nan")
    assert "budget_ma = nan" in text
    layout = tmp_path / "layout.toml"
    layout.write_text(text)
    assert main(["leds", "show", str(state_file), "--layout", str(layout)]) == 2
    err = capsys.readouterr().err
    assert "[power]: field 'budget_ma' must be a finite number, got nan" in err and "Traceback" not in err
