"""Hardware in the loop: the real firmware ELF in simavr, driven by the real serial driver.

The harness (firmware/sim/) feeds the UART at the line rate through a receiver as small as the
chip's, decodes the WS2812 pin from its edge timings, and reports overruns and timing faults; every
test here fails on any of them.
"""

from __future__ import annotations

import random
import subprocess
import time

import pytest
import serial

from controller.cli import main
from controller.leds import layout as layouts
from controller.leds import protocol as p
from controller.leds.render import RGB, render
from controller.leds.scene import LedScene, Link, Outcome, SlotChip, scene_from_state
from controller.leds.serial_driver import LinkState, SerialDriver
from controller.library import floor_text, load_content
from controller.rules import GameSetup, new_game
from sim_support import BAUD, FIRMWARE, LED_COUNT, is_fallback

LAYOUT = layouts.default()

SCENES = [
    LedScene(),
    LedScene(
        threat=9, event_thresholds=(4, 10, 18), fired_thresholds=(4,), escalation_thresholds=(8, 16, 24),
        active_escalations=(8,),
        slots=(SlotChip("physical"), SlotChip("tech", degraded=True), None, SlotChip("captain"), SlotChip("utility")),
        tracker=1,
    ),
    LedScene(threat=25, slots=(SlotChip("general"),) * 5, tracker=4, link=Link.DEGRADED),
    LedScene(threat=26, outcome=Outcome.DEFEAT, link=Link.DOWN),
]


def wire(scene: LedScene, t: float = 0.0) -> bytes:
    return LAYOUT.wire_bytes(LAYOUT.physical(render(scene, t)))


def decode_pin(frame: bytes) -> list[RGB]:
    """Back from the bytes on the data pin to RGB, with each strip's colour order."""
    pixels: list[RGB] = []
    for strip in LAYOUT.strips:
        for i in range(strip.offset, strip.offset + strip.leds):
            triple = frame[3 * i : 3 * i + 3]
            rgb = [0, 0, 0]
            for value, channel in zip(triple, strip.color_order):
                rgb["RGB".index(channel)] = value
            pixels.append((rgb[0], rgb[1], rgb[2]))
    return pixels


def driver(sim, **kwargs) -> SerialDriver:
    return SerialDriver(sim.port, baud=BAUD, expect_leds=LED_COUNT, **kwargs)


def test_handshake_survives_the_reset_on_open(make_sim) -> None:
    sim = make_sim(boot_ms=1500)  # an Arduino bootloader's wait
    with driver(sim) as d:
        assert d.wait_link(12) is LinkState.UP
        assert d.hello is not None
        assert (d.hello.protocol, d.hello.led_count) == (p.PROTOCOL_VERSION, LED_COUNT)
    assert [e["cause"] for e in sim.events("reset")] == ["open"]
    sim.assert_clean()


def real_scene() -> LedScene:
    text, name = floor_text("meridian-lobby")
    return scene_from_state(new_game(load_content(), GameSetup(floor=name, floor_text=text, players=3, seed=7)))


def test_pin_shows_the_rendered_colours(make_sim) -> None:
    sim = make_sim()
    scenes = SCENES + [real_scene()]
    with driver(sim) as d:
        for scene in scenes:
            for t in (0.0, 0.3):
                want = wire(scene, t)
                d.submit(want)
                assert d.wait_shown(10)
                assert sim.wait_for(lambda: sim.frames()[-1:] == [want], 2)
                assert decode_pin(sim.frames()[-1]) == LAYOUT.physical(render(scene, t))
    assert all(frame in {wire(s, t) for s in scenes for t in (0.0, 0.3)} for frame in sim.frames())
    sim.assert_clean()


def test_newest_frame_wins_and_nothing_overruns(make_sim) -> None:
    sim = make_sim()
    frames = [bytes([i >> 8, i & 255, 0xA5]) * LED_COUNT for i in range(300)]
    with driver(sim) as d:
        assert d.wait_link(10) is LinkState.UP
        for frame in frames:
            d.submit(frame)
            time.sleep(0.001)
        assert d.wait_shown(10)
    shown = sim.frames()
    assert shown[-1] == frames[-1]
    assert set(shown) <= set(frames)
    index = [frames.index(f) for f in shown]
    assert index == sorted(index)  # never an older frame after a newer one
    sim.assert_clean()


def test_overrun_is_detected_when_the_host_talks_over_the_strip(make_sim) -> None:
    """The harness is as strict as the chip: two frames back to back lose bytes during the show."""
    sim = make_sim()
    with serial.Serial(sim.port, BAUD, timeout=0.05) as port:
        time.sleep(0.4)  # past the simulated bootloader
        frame = bytes(range(3 * LED_COUNT))
        port.write(p.encode(p.Type.SHOW, 1, frame) + p.encode(p.Type.SHOW, 2, frame))
        parser = p.Parser(1024)
        replies: list[p.Event] = []
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline and not any(isinstance(r, p.Frame) and r.type == p.Type.NAK for r in replies):
            replies += parser.feed(port.read(64))
    assert sim.events("overrun"), "a second frame during the show must overrun the 2-byte FIFO"
    naks = [r for r in replies if isinstance(r, p.Frame) and r.type == p.Type.NAK]
    assert naks and naks[0].payload[0] == p.Reason.OVERRUN


class FaultyPort:
    """A serial port whose line adds garbage, flips bits or cuts frames short (seeded).

    Faults hit only what the host sends, so they reach the board when it listens, as line noise
    on a real cable would mostly do.
    """

    def __init__(self, port: serial.Serial, rng: random.Random, kinds: tuple[str, ...]) -> None:
        self.port = port
        self.rng = rng
        self.kinds = kinds
        self.faults = 0

    @property
    def in_waiting(self) -> int:
        return self.port.in_waiting

    def read(self, size: int = 1) -> bytes:
        return self.port.read(size)

    def write(self, data: bytes) -> int:
        out = bytearray(data)
        if self.rng.random() < 0.35:
            kind = self.rng.choice(self.kinds)
            if kind == "garbage":
                noise = bytes(self.rng.choice((0xA5, self.rng.randrange(256))) for _ in range(self.rng.randrange(1, 9)))
                out = bytearray(noise) + out
            elif kind == "flip":
                bit = self.rng.randrange(len(out) * 8)
                out[bit // 8] ^= 1 << (bit % 8)
            else:
                out = out[: self.rng.randrange(1, len(out))]
            self.faults += 1
        self.port.write(bytes(out))
        return len(data)

    def close(self) -> None:
        self.port.close()


@pytest.mark.parametrize(
    ("kinds", "seed"),
    [(("garbage",), 1), (("flip",), 2), (("truncate",), 3), (("garbage", "flip", "truncate"), 4)],
    ids=["garbage", "bit-flips", "truncated", "all"],
)
def test_strip_converges_through_line_faults(make_sim, kinds: tuple[str, ...], seed: int) -> None:
    sim = make_sim()
    rng = random.Random(seed)
    ports: list[FaultyPort] = []

    def open_port() -> FaultyPort:
        ports.append(FaultyPort(serial.Serial(sim.port, BAUD, timeout=0.01), rng, kinds))
        return ports[-1]

    submitted = [wire(s, t) for s in SCENES for t in (0.0, 0.25, 0.5)]
    with SerialDriver(open_port=open_port, baud=BAUD, expect_leds=LED_COUNT, handshake_s=6) as d:
        for frame in submitted:
            d.submit(frame)
            assert d.wait_shown(15)
            assert sim.wait_for(lambda: sim.frames()[-1:] == [frame], 2)
        stats = d.stats
    assert sum(port.faults for port in ports) >= 3
    if kinds != ("garbage",):  # garbage before a frame is skipped by the board's resync: no resend
        assert stats.naks + stats.timeouts >= 2
    assert all(frame in submitted or is_fallback(frame) for frame in sim.frames()), "a wrong frame was latched"
    sim.assert_clean()


class Cable:
    """The USB cable between host and board: pull it and plug it back in."""

    def __init__(self, port_name: str) -> None:
        self.port_name = port_name
        self.plugged = True
        self.port: serial.Serial | None = None

    def open(self) -> Cable:
        if not self.plugged:
            raise serial.SerialException(f"could not open port {self.port_name}: No such file or directory")
        self.port = serial.Serial(self.port_name, BAUD, timeout=0.01)
        return self

    def pull(self) -> None:
        self.plugged = False
        if self.port is not None:
            self.port.close()

    @property
    def in_waiting(self) -> int:
        self._check()
        return self.port.in_waiting  # type: ignore[union-attr]

    def read(self, size: int = 1) -> bytes:
        self._check()
        return self.port.read(size)  # type: ignore[union-attr]

    def write(self, data: bytes) -> int | None:
        self._check()
        return self.port.write(data)  # type: ignore[union-attr]

    def close(self) -> None:
        if self.port is not None and self.port.is_open:
            self.port.close()

    def _check(self) -> None:
        if not self.plugged or self.port is None or not self.port.is_open:
            raise serial.SerialException("device reports readiness to read but returned no data")


def test_pulled_cable_reconnects_and_restores_the_frame(make_sim) -> None:
    sim = make_sim()
    cable = Cable(sim.port)
    first, second = wire(SCENES[1]), wire(SCENES[2])
    links: list[LinkState] = []
    with SerialDriver(open_port=cable.open, baud=BAUD, expect_leds=LED_COUNT, on_link=links.append, retry_s=0.2) as d:
        d.submit(first)
        assert d.wait_shown(10)
        cable.pull()
        d.submit(second)  # the service goes on while the cable is out
        assert not d.wait_shown(1.0)
        cable.plugged = True
        assert d.wait_shown(8)
        assert sim.wait_for(lambda: sim.frames()[-1:] == [second], 2)
    assert LinkState.DOWN in links and links[-1] is LinkState.UP
    assert len(sim.events("reset")) == 2  # the board restarts on each open, as an Arduino does
    assert all(f in (first, second) or is_fallback(f) for f in sim.frames())
    sim.assert_clean()


def test_board_reset_mid_frame(make_sim) -> None:
    sim = make_sim()
    frames = [wire(SCENES[i % len(SCENES)], i * 0.05) for i in range(40)]
    with driver(sim) as d:
        assert d.wait_link(10) is LinkState.UP
        for i, frame in enumerate(frames):
            d.submit(frame)
            if i in (10, 25):
                time.sleep(0.002)  # the SHOW is on the wire now
                sim.reset()
            assert d.wait_shown(10)
        stats = d.stats
    assert sim.frames()[-1] == frames[-1]
    assert all(f in frames or is_fallback(f) for f in sim.frames())
    assert stats.device_resets + stats.reconnects >= 1
    sim.assert_clean()


def test_fallback_pattern_when_the_host_is_silent_then_recovery(make_sim) -> None:
    sim = make_sim(reset_on_open=False)
    assert sim.wait_for(lambda: len(sim.frames()) >= 5, 6), "no fallback pattern after 3 s of silence"
    assert all(is_fallback(f) for f in sim.frames())
    want = wire(SCENES[1])
    with driver(sim) as d:
        d.submit(want)
        assert d.wait_shown(10)
        assert sim.wait_for(lambda: sim.frames()[-1:] == [want], 2)
        time.sleep(1.0)  # keepalive pings hold the fallback off
    assert sim.frames()[-1] == want
    # A fallback show cut short by the host's first byte is allowed; nothing may overrun.
    assert not sim.events("overrun") and not sim.events("timing")


def test_cli_wiring_test_lights_each_segment_on_the_strip(make_sim, capsys) -> None:
    sim = make_sim()
    assert main(["leds", "test", "--driver", "serial", "--port", sim.port, "--step", "0"]) == 0
    assert sim.wait_for(lambda: len(sim.frames()) >= 3, 2)
    lit = [[i for i, rgb in enumerate(decode_pin(f)) if rgb != (0, 0, 0)] for f in sim.frames()[-3:]]
    assert lit == [list(range(27)), list(range(27, 37)), [37]]
    assert "segment 3/3: status" in capsys.readouterr().err
    sim.assert_clean()


def test_harness_catches_an_ack_before_the_latch(make_sim, tmp_path) -> None:
    """A firmware that acknowledges 100 us after the show (WS2812B needs 280 us) must be caught."""
    variant = tmp_path / "short-latch"
    subprocess.run(["make", "-s", "-C", str(FIRMWARE), f"BUILD={variant}", "LATCH_US=100u",
                    f"LED_COUNT={LED_COUNT}", "all"], check=True, capture_output=True, timeout=120)
    sim = make_sim(elf=variant / "burncycle-leds.elf")
    with driver(sim) as d:
        d.submit(wire(SCENES[1]))
        assert d.wait_shown(10)
    faults = [e["what"] for e in sim.events("timing")]
    assert "reply before latch" in faults


def test_watchdog_is_armed(make_sim) -> None:
    sim = make_sim(reset_on_open=False)
    time.sleep(0.3)
    wdtcsr = sim.stop()["wdtcsr"]
    assert wdtcsr & 0x08, "WDE: the watchdog resets a hung chip"
    assert wdtcsr & 0x27 == 0x04, "prescaler 250 ms"
