"""Layout files and the current budget."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.leds import strip_layout as layouts
from controller.leds.power_budget import Power, estimate_ma, limit
from controller.leds.render import LogicalFrame, render
from controller.leds.scene import LedScene, SlotChip

EXAMPLE = Path(__file__).resolve().parents[2] / "hardware" / "leds" / "layout.example.toml"


def frame(threat=None, slots=None, status=(0, 0, 0)) -> LogicalFrame:
    return LogicalFrame(
        tuple(threat or [(0, 0, 0)] * 27), tuple(slots or [(0, 0, 0)] * 5), status
    )


def test_example_file_is_the_built_in_layout() -> None:
    example = layouts.load(EXAMPLE)
    default = layouts.default()
    assert (example.strips, example.segments, example.power, example.mapping) == (
        default.strips, default.segments, default.power, default.mapping)
    assert example.gpio["kind"] == "apa102"


def test_mapping_with_reversed_runs_and_several_leds_per_slot() -> None:
    layout = layouts.default()
    assert layout.led_count == 38
    assert layout.mapping[0] == ("threat", 0) and layout.mapping[26] == ("threat", 26)
    # console strip starts at chain index 27, reversed, 2 LEDs a slot: slot 0 at its far end
    assert layout.mapping[27 + 9] == ("slots", 0) and layout.mapping[27 + 8] == ("slots", 0)
    assert layout.mapping[27 + 0] == ("slots", 4)
    assert layout.mapping[37] == ("status", 0)


def test_colour_order_per_strip() -> None:
    data = {
        "strip": [{"name": "a", "leds": 27, "color_order": "GRB"}, {"name": "b", "leds": 6, "color_order": "BGR"}],
        "segment": [
            {"role": "threat", "strip": "a", "count": 27},
            {"role": "slots", "strip": "b", "count": 5},
            {"role": "status", "strip": "b", "start": 5, "count": 1},
        ],
    }
    layout = layouts.build(data)
    pixels = [(0, 0, 0)] * layout.led_count
    pixels[0] = (1, 2, 3)
    pixels[27] = (1, 2, 3)
    wire = layout.wire_bytes(pixels)
    assert wire[0:3] == bytes((2, 1, 3))
    assert wire[81:84] == bytes((3, 2, 1))


def test_split_track_over_two_strips() -> None:
    data = {
        "strip": [{"name": "left", "leds": 14}, {"name": "right", "leds": 19}],
        "segment": [
            {"role": "threat", "strip": "left", "count": 14, "first": 0},
            {"role": "threat", "strip": "right", "count": 13, "first": 14, "reversed": True},
            {"role": "slots", "strip": "right", "start": 13, "count": 5},
            {"role": "status", "strip": "right", "start": 18, "count": 1},
        ],
    }
    layout = layouts.build(data)
    assert layout.mapping[14 + 12] == ("threat", 14)
    assert layout.mapping[14] == ("threat", 26)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["strip"][0].update(color_order="XYZ"), "color_order 'XYZ' is not one of"),
        (lambda d: d["strip"][0].pop("leds"), "[[strip]] #1: field 'leds' is missing"),
        (lambda d: d["strip"][0].update(leds="27"), "field 'leds' must be int"),
        (lambda d: d["segment"][0].update(count=26), "threat positions [26] have no LED"),
        (lambda d: d["segment"][1].update(strip="nope"), "strip 'nope' is not defined"),
        (lambda d: d["segment"][1].update(count=9), "count 9 must be a positive multiple of per 2"),
        (lambda d: d["segment"][2].update(start=9), "already used by another segment"),
        (lambda d: d["segment"][2].update(start=11), "are not all on strip 'console'"),
        (lambda d: d["segment"][0].update(role="lamp"), "role 'lamp' is not one of"),
        (lambda d: d["power"].update(budget_ma=30), "does not even cover 38 dark LEDs"),
        (lambda d: d["power"].update(brightness_cap=1.5), "brightness_cap must be in (0, 1]"),
        (lambda d: d["power"].update(budget_ma=float("nan")), "field 'budget_ma' must be a finite number, got nan"),
        (lambda d: d["power"].update(budget_ma=float("inf")), "field 'budget_ma' must be a finite number, got inf"),
        (lambda d: d["power"].update(brightness_cap=float("nan")), "field 'brightness_cap' must be a finite"),
        (lambda d: d["power"].update(ma_per_channel=-20.0), "budget_ma and ma_per_channel must be above 0"),
        (lambda d: d["power"].update(idle_ma_per_led=-1.0), "idle_ma_per_led must be 0 or more"),
    ],
)
def test_layout_errors_name_the_table_and_field(change, message: str) -> None:
    data = copy.deepcopy(layouts.DEFAULT)
    change(data)
    with pytest.raises(layouts.LayoutError) as err:
        layouts.build(data, "my.toml")
    assert str(err.value).startswith("my.toml: ")
    assert message in str(err.value)


def test_unreadable_and_invalid_files(tmp_path: Path) -> None:
    with pytest.raises(layouts.LayoutError, match="cannot read the layout file"):
        layouts.load(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[power\n")
    with pytest.raises(layouts.LayoutError, match="bad.toml: not valid TOML"):
        layouts.load(bad)


def test_full_white_is_held_to_the_budget() -> None:
    data = copy.deepcopy(layouts.DEFAULT)
    data["power"]["brightness_cap"] = 1.0
    layout = layouts.build(data)
    white = frame([(255, 255, 255)] * 27, [(255, 255, 255)] * 5, (255, 255, 255))
    pixels = layout.physical(white)
    unlimited = estimate_ma([(255, 255, 255)] * 38, layout.power)
    assert unlimited > 2000
    assert estimate_ma(pixels, layout.power) <= layout.power.budget_ma
    assert estimate_ma(pixels, layout.power) > 0.95 * layout.power.budget_ma  # dimmed, not blacked out
    assert len(set(pixels)) == 1


def test_brightness_cap_applies_below_the_budget() -> None:
    layout = layouts.default()
    pixels = layout.physical(frame(status=(200, 100, 0)))
    assert pixels[37] == (120, 60, 0)


@settings(max_examples=200, deadline=None)
@given(
    pixels=st.lists(st.tuples(*[st.integers(0, 255)] * 3), min_size=1, max_size=120),
    budget=st.floats(200, 5000),
    cap=st.floats(0.05, 1.0),
    per_channel=st.floats(5, 60),
)
def test_budget_is_never_exceeded(pixels, budget, cap, per_channel) -> None:
    power = Power(budget_ma=budget, brightness_cap=cap, ma_per_channel=per_channel, idle_ma_per_led=1.0)
    if budget <= len(pixels):
        return
    out = limit(pixels, power)
    assert estimate_ma(out, power) <= budget
    assert all(o[i] <= int(p[i] * cap) for o, p in zip(out, pixels) for i in range(3))


def test_rendered_scene_maps_to_the_strip() -> None:
    layout = layouts.default()
    scene = LedScene(threat=3, slots=(SlotChip("tech"),) + (None,) * 4, tracker=1)
    pixels = layout.physical(render(scene, 0.0))
    assert pixels[3] != (0, 0, 0) and pixels[4] == (0, 0, 0)
    assert pixels[36] == pixels[35] != (0, 0, 0)  # slot 0, two LEDs at the reversed end


@pytest.mark.parametrize("value", ["nan", "+inf", "-inf"])
def test_a_layout_file_with_a_budget_that_is_not_a_number_is_refused(tmp_path: Path, value: str) -> None:
    """The power budget keeps a strip from drawing more than its supply gives: `nan` compares false with
    everything, so a `nan` budget would have let every frame through at full current."""
    text = EXAMPLE.read_text(encoding="utf-8")
    assert "budget_ma = " in text
    broken = tmp_path / "layout.toml"
    broken.write_text("\n".join(f"budget_ma = {value}" if line.startswith("budget_ma") else line
                                 for line in text.splitlines()), encoding="utf-8")
    with pytest.raises(layouts.LayoutError, match="layout.toml: \\[power\\]: field 'budget_ma' must be a finite"):
        layouts.load(broken)
