"""The layout file: which physical LED shows which logical position, and the electrical limits.

A layout is a chain of strips on one data line (in file order), each with its colour order, and
segments that place the logical LEDs (threat positions, burncycle slots, the status pixel) on runs
of a strip, optionally reversed or several LEDs per position. Mistakes in the file are reported
with the file, the table and the field, because a hobbyist edits it by hand.
See docs/leds.md for the format and hardware/leds/layout.example.toml for an example.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.leds.power_budget import Power, limit
from controller.leds.render import RGB, LogicalFrame
from controller.leds.scene import SLOT_COUNT, TRACK_LENGTH
from controller.rules.errors import BurncycleError


class LayoutError(BurncycleError):
    """An LED layout file that cannot be used: names the file, the table and what is wrong."""

    code = "led_layout"

COLOUR_ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")
ROLE_SIZES = {"threat": TRACK_LENGTH, "slots": SLOT_COUNT, "status": 1}


@dataclass(frozen=True, slots=True)
class Strip:
    name: str
    leds: int
    color_order: str
    offset: int  # index of its first LED on the chain


@dataclass(frozen=True, slots=True)
class Segment:
    role: str
    strip: str
    start: int
    count: int
    first: int = 0
    per: int = 1
    reversed: bool = False


@dataclass(frozen=True)
class Layout:
    strips: tuple[Strip, ...]
    segments: tuple[Segment, ...]
    power: Power = Power()
    gpio: dict[str, Any] = field(default_factory=dict)
    source: str = "<built-in>"
    # physical index -> (role, logical position), built by `build`
    mapping: tuple[tuple[str, int] | None, ...] = ()

    @property
    def led_count(self) -> int:
        return sum(s.leds for s in self.strips)

    def physical(self, frame: LogicalFrame) -> list[RGB]:
        """Colours per chain LED (RGB), with the brightness cap and the current budget applied."""
        roles = {"threat": frame.threat, "slots": frame.slots, "status": (frame.status,)}
        pixels = [(0, 0, 0) if m is None else roles[m[0]][m[1]] for m in self.mapping]
        return limit(pixels, self.power)

    def wire_bytes(self, pixels: list[RGB]) -> bytes:
        """The bytes a WS2812 chain takes: each strip's LEDs in that strip's colour order."""
        out = bytearray()
        for strip in self.strips:
            order = [("RGB".index(c)) for c in strip.color_order]
            for r_g_b in pixels[strip.offset : strip.offset + strip.leds]:
                out.extend(r_g_b[i] for i in order)
        return bytes(out)

    def segment_indices(self, segment: Segment) -> list[int]:
        """Chain indices of a segment's LEDs, in logical order."""
        return _chain_run(next(s for s in self.strips if s.name == segment.strip), segment)


def _chain_run(strip: Strip, segment: Segment) -> list[int]:
    run = list(range(strip.offset + segment.start, strip.offset + segment.start + segment.count))
    return run[::-1] if segment.reversed else run


def _fail(source: str, where: str, message: str) -> LayoutError:
    return LayoutError(f"{source}: {where}: {message}")


def _get(table: dict[str, Any], key: str, kind: type, source: str, where: str, default: Any = None) -> Any:
    if key not in table:
        if default is None:
            raise _fail(source, where, f"field '{key}' is missing")
        return default
    value = table[key]
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise _fail(source, where, f"field '{key}' must be {kind.__name__}, got {value!r}")
    if isinstance(value, float) and not math.isfinite(value):  # TOML allows nan and inf; no current or share is either
        raise _fail(source, where, f"field '{key}' must be a finite number, got {value!r}")
    return value


def build(data: dict[str, Any], source: str = "<built-in>") -> Layout:
    """Validates a parsed layout table and computes its LED mapping."""
    p = data.get("power", {})
    power = Power(
        budget_ma=_get(p, "budget_ma", float, source, "[power]", 1500.0),
        brightness_cap=_get(p, "brightness_cap", float, source, "[power]", 1.0),
        ma_per_channel=_get(p, "ma_per_channel", float, source, "[power]", 20.0),
        idle_ma_per_led=_get(p, "idle_ma_per_led", float, source, "[power]", 1.0),
    )
    if not 0.0 < power.brightness_cap <= 1.0:
        raise _fail(source, "[power]", "brightness_cap must be in (0, 1]")
    if power.budget_ma <= 0 or power.ma_per_channel <= 0:
        raise _fail(source, "[power]", "budget_ma and ma_per_channel must be above 0 (milliamps)")
    if power.idle_ma_per_led < 0:
        raise _fail(source, "[power]", "idle_ma_per_led must be 0 or more (milliamps)")
    strips: list[Strip] = []
    offset = 0
    for i, t in enumerate(data.get("strip", [])):
        where = f"[[strip]] #{i + 1}"
        name = _get(t, "name", str, source, where)
        leds = _get(t, "leds", int, source, where)
        order = _get(t, "color_order", str, source, where, "GRB").upper()
        if leds < 1:
            raise _fail(source, where, "leds must be at least 1")
        if order not in COLOUR_ORDERS:
            raise _fail(source, where, f"color_order {order!r} is not one of {', '.join(COLOUR_ORDERS)}")
        if any(s.name == name for s in strips):
            raise _fail(source, where, f"strip name {name!r} is used twice")
        strips.append(Strip(name, leds, order, offset))
        offset += leds
    if not strips:
        raise _fail(source, "[[strip]]", "a layout needs at least one strip")
    if power.budget_ma <= offset * power.idle_ma_per_led:
        raise _fail(source, "[power]", f"budget_ma {power.budget_ma:g} does not even cover {offset} dark LEDs")

    segments: list[Segment] = []
    mapping: list[tuple[str, int] | None] = [None] * offset
    covered: dict[str, set[int]] = {role: set() for role in ROLE_SIZES}
    for i, t in enumerate(data.get("segment", [])):
        where = f"[[segment]] #{i + 1}"
        role = _get(t, "role", str, source, where)
        if role not in ROLE_SIZES:
            raise _fail(source, where, f"role {role!r} is not one of {', '.join(ROLE_SIZES)}")
        seg = Segment(
            role=role,
            strip=_get(t, "strip", str, source, where),
            start=_get(t, "start", int, source, where, 0),
            count=_get(t, "count", int, source, where),
            first=_get(t, "first", int, source, where, 0),
            per=_get(t, "per", int, source, where, 1),
            reversed=_get(t, "reversed", bool, source, where, False),
        )
        strip = next((s for s in strips if s.name == seg.strip), None)
        if strip is None:
            raise _fail(source, where, f"strip {seg.strip!r} is not defined")
        if seg.per < 1 or seg.count < seg.per or seg.count % seg.per:
            raise _fail(source, where, f"count {seg.count} must be a positive multiple of per {seg.per}")
        if seg.start < 0 or seg.start + seg.count > strip.leds:
            raise _fail(source, where, f"LEDs {seg.start}..{seg.start + seg.count - 1} are not all on strip "
                                       f"{strip.name!r} ({strip.leds} LEDs)")
        positions = range(seg.first, seg.first + seg.count // seg.per)
        if seg.first < 0 or positions.stop > ROLE_SIZES[role]:
            raise _fail(source, where, f"{role} positions {positions.start}..{positions.stop - 1} are outside "
                                       f"0..{ROLE_SIZES[role] - 1}")
        if covered[role] & set(positions):
            raise _fail(source, where, f"{role} positions overlap another segment")
        covered[role].update(positions)
        segments.append(seg)
        for k, index in enumerate(_chain_run(strip, seg)):
            if mapping[index] is not None:
                raise _fail(source, where, f"LED {index} of the chain is already used by another segment")
            mapping[index] = (role, seg.first + k // seg.per)
    for role, size in ROLE_SIZES.items():
        missing = sorted(set(range(size)) - covered[role])
        if missing:
            raise _fail(source, "[[segment]]", f"{role} positions {missing} have no LED")
    gpio = data.get("gpio", {})
    if not isinstance(gpio, dict):
        raise _fail(source, "[gpio]", "must be a table")
    return Layout(tuple(strips), tuple(segments), power, dict(gpio), source, tuple(mapping))


def load(path: str | Path) -> Layout:
    """Reads and validates a layout file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise LayoutError(f"{path}: cannot read the layout file: {err.strerror}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise LayoutError(f"{path}: not valid TOML: {err}") from None
    return build(data, str(path))


DEFAULT = {
    "power": {"budget_ma": 1500, "brightness_cap": 0.6, "ma_per_channel": 20.0, "idle_ma_per_led": 1.0},
    "strip": [
        {"name": "track", "leds": 27, "color_order": "GRB"},
        {"name": "console", "leds": 11, "color_order": "GRB"},
    ],
    "segment": [
        {"role": "threat", "strip": "track", "start": 0, "count": 27},
        {"role": "slots", "strip": "console", "start": 0, "count": 10, "per": 2, "reversed": True},
        {"role": "status", "strip": "console", "start": 10, "count": 1},
    ],
}


def default() -> Layout:
    """The built-in layout: the one in hardware/leds/layout.example.toml (38 WS2812B LEDs)."""
    return build(DEFAULT)
