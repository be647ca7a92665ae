"""The figures the docs give, measured on the real firmware in simavr, so docs and code cannot drift.

Each test reads the number from the doc (firmware/PROTOCOL.md, docs/leds.md) and from the host's
own model of the board (controller/leds/protocol.py), and checks both against the simulator.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
import serial

from controller.leds import protocol as p
from controller.leds.serial_driver import update_s
from tests.support.firmware_sim import BAUD, FIRMWARE, LED_COUNT, board_setting, is_fallback

pytestmark = pytest.mark.slow  # the firmware running in simavr

PROTOCOL_MD = FIRMWARE / "PROTOCOL.md"
LEDS_MD = FIRMWARE.parent / "docs" / "leds.md"


def figure(path: Path, pattern: str) -> float:
    """The number the doc states where `pattern` (a regex with one group; a space matches any
    whitespace, so the doc may wrap the sentence) matches."""
    match = re.search(pattern.replace(" ", r"\s+"), path.read_text())
    assert match, f"{path.name} no longer says {pattern!r}"
    return float(match.group(1))


def show_once(sim, payload: bytes) -> dict:
    """Sends one SHOW and returns the strip frame event it produced."""
    with serial.Serial(sim.port, BAUD, timeout=0.05) as port:
        time.sleep(0.2)
        port.reset_input_buffer()
        port.write(p.encode(p.Type.SHOW, 1, payload))
        parser = p.Parser(64)
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline and not any(isinstance(e, p.Frame) for e in parser.feed(port.read(16))):
            pass
    assert sim.wait_for(lambda: sim.events("frame"), 1)
    return sim.events("frame")[-1]


def test_strip_write_time_is_what_the_host_and_the_docs_say(make_sim) -> None:
    sim = make_sim(reset_on_open=False)
    event = show_once(sim, bytes(range(3 * LED_COUNT)))
    measured_ms = event["write_us"] / 1e3
    # The end of the last bit; the host's figure counts the 11 cycles after it too.
    assert p.strip_s(LED_COUNT) * 1e3 == pytest.approx(measured_ms, abs=11 / 16e3 + 1e-6)
    written = round(p.strip_s(LED_COUNT) * 1e3, 2)
    assert figure(LEDS_MD, r"strip written \(([\d.]+) ms\)") == written
    assert figure(PROTOCOL_MD, r"([\d.]+) ms for 38 LEDs") == written


def test_board_starts_dark_at_full_brightness(make_sim) -> None:
    """PROTOCOL.md: the pixel buffer starts all 0 and BRIGHTNESS at 255 (a SHOW shows what it is sent)."""
    sim = make_sim(reset_on_open=False)
    with serial.Serial(sim.port, BAUD, timeout=0.05) as port:
        time.sleep(0.2)
        port.write(p.encode(p.Type.SET, 1, b"\x01\x00" + bytes((0xFF, 0x80, 0x01))))
        time.sleep(0.05)
    event = show_once(sim, b"")
    assert bytes.fromhex(event["hex"]) == bytes(3) + bytes((0xFF, 0x80, 0x01)) + bytes(3 * (LED_COUNT - 2))


def breath(level_step: int) -> int:
    """The fallback's level at step k of its triangle: 0, 1, .., 31, 31, .., 1, 0."""
    phase = level_step % 64
    return phase if phase < 32 else 63 - phase


def test_fallback_breathing_is_what_the_spec_says(make_sim) -> None:
    sim = make_sim(reset_on_open=False)
    assert sim.wait_for(lambda: len(sim.frames()) >= 70, 9), "the fallback did not run for 2.5 s"
    events = [e for e in sim.events("frame")][:70]
    frames = [bytes.fromhex(e["hex"]) for e in events]
    assert all(is_fallback(f) and len(f) == 3 * LED_COUNT for f in frames)  # (a, a/2 rounded down, 0)
    peak = figure(PROTOCOL_MD, r"breathes 0 → (\d+) → 0")
    step_ms = figure(PROTOCOL_MD, r"one step every ([\d.]+) ms")
    breath_s = figure(PROTOCOL_MD, r"a breath lasts ([\d.]+) s")
    assert max(f[0] for f in frames) == peak == 31
    assert breath_s == round(64 * step_ms / 1e3, 3)
    # Each frame's level is the one of the step its show began in (the show and latch precede the
    # event by about 1.5 ms, so the step just before counts too).
    for event, frame in zip(events, frames):
        step = int(event["t_us"] / 1e3 // step_ms)
        assert frame[0] in (breath(step), breath(step - 1)), (event["t_us"], frame[0])
    gaps = [b["t_us"] - a["t_us"] for a, b in zip(events, events[1:])]
    assert 39.9e3 < min(gaps) and max(gaps) < 42e3  # redrawn every 40 ms


def test_baud_rate_table_is_what_the_host_computes() -> None:
    """PROTOCOL.md's table of baud rates: longest strip from board.h, update times from update_s."""
    rows = re.findall(r"^\| ([\d ]+?)(?: \(default\))? \| (\d+) µs \| (\d+) LEDs \| ([\d.]+) ms \(([\d.]+) /s\) \| "
                      r"([\d.]+) ms \(([\d.]+) /s\) \|$", PROTOCOL_MD.read_text(), re.M)
    assert [int(r[0].replace(" ", "")) for r in rows] == [250_000, 500_000, 1_000_000]
    longest = board_setting("LED_COUNT_MAX")
    for baud, byte_us, leds, short_ms, short_rate, long_ms, long_rate in rows:
        rate = int(baud.replace(" ", ""))
        assert int(byte_us) == 10 * 1_000_000 // rate and int(leds) == longest
        for n, ms, per_s in ((38, short_ms, short_rate), (longest, long_ms, long_rate)):
            assert float(ms) == round(update_s(n, rate) * 1e3, 2), (rate, n)
            assert float(per_s) == round(1 / update_s(n, rate), 1), (rate, n)


def test_brightness_scales_and_rounds_down_as_the_spec_says(make_sim) -> None:
    """PROTOCOL.md: v x (B+1) / 256 rounded down, on the shows that follow; the buffer keeps v."""
    assert "v × (B+1) / 256 rounded down" in PROTOCOL_MD.read_text()
    sim = make_sim(reset_on_open=False)
    pixels = bytes(range(0, 256, 2))[: 3 * LED_COUNT].ljust(3 * LED_COUNT, b"\xff")
    with serial.Serial(sim.port, BAUD, timeout=0.05) as port:
        time.sleep(0.2)
        port.write(p.encode(p.Type.BRIGHTNESS, 1, bytes((99,))))
        time.sleep(0.05)
    assert bytes.fromhex(show_once(sim, pixels)["hex"]) == bytes(v * 100 // 256 for v in pixels)
