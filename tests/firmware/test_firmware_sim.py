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
from controller.leds import strip_layout as layouts
from controller.leds import protocol as p
from controller.leds.render import RGB, render
from controller.leds.scene import LedScene, Link, Outcome, SlotChip, scene_from_state
from controller.leds.serial_driver import LinkState, SerialDriver
from controller.library import floor_text, load_content
from controller.rules import GameSetup, new_game
from tests.support.firmware_sim import BAUD, FIRMWARE, LED_COUNT, board_setting, build_variant, is_fallback

pytestmark = pytest.mark.slow  # the firmware running in simavr

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


def test_watchdog_resets_a_hung_firmware_and_the_host_recovers(make_sim) -> None:
    sim = make_sim()
    first, second = wire(SCENES[1]), wire(SCENES[2])
    with driver(sim, keepalive_s=0.1) as d:
        d.submit(first)
        assert d.wait_shown(10)
        sim.hang()
        assert sim.wait_for(lambda: sim.events("hang"), 2)
        assert sim.events("hang")[0]["pc"] is not None, "no endless loop found in the firmware"
        assert sim.wait_for(lambda: [e for e in sim.events("reset") if e["cause"] == "watchdog"], 2)
        d.submit(second)  # the board came back by itself: the host talks to it again
        assert d.wait_shown(10)
        assert sim.wait_for(lambda: sim.frames()[-1:] == [second], 2)
        stats = d.stats
    hung_at = sim.events("hang")[0]["t_us"]
    reset_at = [e for e in sim.events("reset") if e["cause"] == "watchdog"][0]["t_us"]
    assert 200e3 < reset_at - hung_at < 320e3  # the 250 ms watchdog (the chip's oscillator is +-10 %)
    assert stats.device_resets >= 1  # the board's HELLO with SEQ 0 was heard
    sim.assert_clean()


def quiet_port(sim) -> serial.Serial:
    """The board's port, opened once the board is up, with its start-up HELLO_REPLY dropped."""
    port = serial.Serial(sim.port, sim.baud, timeout=0.02)
    time.sleep(0.2)
    port.reset_input_buffer()
    return port


def exchange(port: serial.Serial, frame: bytes, timeout: float = 2.0) -> list[p.Event]:
    """Sends one frame and collects what comes back until its answer (or the timeout)."""
    port.write(frame)
    parser = p.Parser(1024)
    replies: list[p.Event] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        replies += parser.feed(port.read(64))
        if any(isinstance(r, p.Frame) and r.seq == frame[2] for r in replies):
            break
    return replies


@pytest.mark.parametrize("baud", [250_000, 500_000, 1_000_000])
def test_every_offered_baud_rate_takes_a_show_of_the_longest_strip(make_sim, tmp_path, baud: int) -> None:
    """The main loop keeps pace with the wire: a SHOW of LED_COUNT_MAX LEDs arrives whole."""
    leds = board_setting("LED_COUNT_MAX")
    elf = build_variant(tmp_path / f"b{baud}", LED_COUNT=leds, BAUD=f"{baud}UL")
    sim = make_sim(elf=elf, baud=baud, reset_on_open=False)
    pixels = bytes((i * 7) & 0xFF for i in range(3 * leds))
    with quiet_port(sim) as port:
        replies = exchange(port, p.encode(p.Type.SHOW, 1, pixels))
    assert [r for r in replies if isinstance(r, p.Frame) and r.seq == 1] == [p.Frame(p.Type.ACK, 1, bytes((p.STATUS_HOST_FRAME,)))]
    assert sim.frames()[-1] == pixels
    sim.assert_clean()


def replies_until(port: serial.Serial, done, timeout: float = 2.0) -> list[p.Frame]:
    """The board's frames, read until done(frames) or the timeout."""
    parser = p.Parser(1024)
    frames: list[p.Frame] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not done(frames):
        frames += [e for e in parser.feed(port.read(64)) if isinstance(e, p.Frame)]
    return frames


@pytest.mark.parametrize("damaged", [False, True], ids=["loss-between-frames", "loss-in-a-frame"])
def test_overrun_is_reported_where_the_bytes_were_lost(make_sim, damaged: bool) -> None:
    """A host that talks over the strip: bytes sent during a show are lost, and the NAK must name
    the frame they belonged to, or SEQ 0 between frames, never a frame the board answered.

    After SHOW 1 come 70 bytes: line noise, or a SHOW 2 of 10 LEDs and then noise. The show of
    SHOW 1 (61 byte times) loses bytes of them; then PING 3 arrives whole while the strip latches,
    and is taken in the same pass of the main loop as the bytes after the loss.
    """
    sim = make_sim(reset_on_open=False)
    pixels = bytes((i * 5) & 0x7F for i in range(3 * LED_COUNT))
    stream = p.encode(p.Type.SHOW, 1, pixels)
    second = p.encode(p.Type.SHOW, 2, bytes((0x11,)) * 30) if damaged else b""
    stream += second + bytes(70 - len(second)) + p.encode(p.Type.PING, 3)
    with quiet_port(sim) as port:
        port.write(stream)
        frames = replies_until(port, lambda fs: len(fs) >= 3, 1)
        frames += replies_until(port, lambda fs: False, 0.1)  # and nothing after
    assert sim.events("overrun"), "bytes sent during the show must be lost"
    lost_seq = (0, 2) if damaged else (0,)
    assert len(frames) == 3, frames
    assert (frames[0].type, frames[0].seq) == (p.Type.ACK, 1)
    assert frames[1].type == p.Type.NAK and frames[1].payload == bytes((p.Reason.OVERRUN,)), frames
    assert frames[1].seq in lost_seq, frames
    assert (frames[2].type, frames[2].seq) == (p.Type.ACK, 3)
    assert sim.frames() == [pixels]


def test_inter_byte_timeout_counts_from_the_last_byte(make_sim, tmp_path) -> None:
    """A frame whose bytes keep coming is never dropped as silent.

    On a 280-LED board at half brightness a SHOW keeps the main loop busy for over 10 ms (scaling,
    writing the strip, latching, answering). SHOW 3 starts arriving during its latch, after some
    noise lost while the strip was written: the bytes taken in that busy pass of the loop must count
    from when they arrived, not from when the pass began, or SHOW 3 is dropped with NAK TIMEOUT
    while it is still on the wire.
    """
    leds = board_setting("LED_COUNT_MAX")
    sim = make_sim(elf=build_variant(tmp_path / "long", LED_COUNT=leds), reset_on_open=False)
    pixels = bytes(range(160)) * (3 * leds // 160) + bytes(3 * leds % 160)
    with quiet_port(sim) as port:
        port.write(p.encode(p.Type.BRIGHTNESS, 1, b"\x80"))
        assert [(f.type, f.seq) for f in replies_until(port, lambda fs: fs, 1)] == [(p.Type.ACK, 1)]
        port.write(p.encode(p.Type.SHOW, 2, pixels) + bytes(575) + p.encode(p.Type.SHOW, 3, pixels))
        frames = replies_until(port, lambda fs: any(f.seq == 3 for f in fs), 2)
    assert [(f.type, f.seq, f.payload[0]) for f in frames] == [
        (p.Type.ACK, 2, p.STATUS_HOST_FRAME),
        (p.Type.NAK, 0, p.Reason.OVERRUN),  # the noise during the show
        (p.Type.ACK, 3, p.STATUS_HOST_FRAME),
    ]


def wait_for_fallback(sim, frames: int = 3, timeout: float = 6.0) -> None:
    start = len(sim.frames())
    assert sim.wait_for(lambda: sum(map(is_fallback, sim.frames()[start:])) >= frames, timeout), "no fallback pattern"


def test_after_a_fallback_the_host_sees_it_and_its_buffer_is_intact(make_sim) -> None:
    """The first reply after a fallback carries STATUS 0x02 (and lacks 0x01); the fallback drew into
    a scratch buffer, so a SHOW without payload shows the host's last frame again."""
    sim = make_sim(reset_on_open=False)
    frame = bytes((i * 3) & 0xFF for i in range(3 * LED_COUNT))
    with quiet_port(sim) as port:
        assert exchange(port, p.encode(p.Type.SHOW, 1, frame))[-1] == p.Frame(p.Type.ACK, 1, b"\x01")
        wait_for_fallback(sim)
        assert exchange(port, p.encode(p.Type.PING, 2))[-1] == p.Frame(p.Type.ACK, 2, bytes((p.STATUS_FALLBACK,)))
        assert exchange(port, p.encode(p.Type.PING, 3))[-1] == p.Frame(p.Type.ACK, 3, b"\x00")
        assert exchange(port, p.encode(p.Type.SHOW, 4))[-1] == p.Frame(p.Type.ACK, 4, b"\x01")
    assert sim.frames()[-1] == frame


def test_a_refused_frame_does_not_stop_the_fallback(make_sim) -> None:
    """Only a frame the board carries out shows a host is driving it: a good-CRC frame it NAKs
    (unknown TYPE, wrong payload) leaves the fallback running."""
    sim = make_sim(reset_on_open=False)
    with quiet_port(sim) as port:
        wait_for_fallback(sim)
        for seq in range(1, 9):
            refused = p.encode(0x42, seq) if seq % 2 else p.encode(p.Type.FILL, seq, b"\x01")
            assert exchange(port, refused)[-1].type == p.Type.NAK
            time.sleep(0.1)
        shown = len(sim.frames())
        wait_for_fallback(sim, frames=3, timeout=1)
    assert all(is_fallback(f) for f in sim.frames()[shown:])


@pytest.mark.slow
def test_the_simulated_board_goes_when_its_host_is_killed(tmp_path) -> None:
    """A `demo` killed with SIGKILL never sends the SIGTERM that ends the harness: each left a bc-sim running
    on alone at full speed (a machine that had run the tests for an hour held eleven). The harness watches
    its parent and leaves when it does."""
    import os
    import signal
    import sys

    from controller.service.demo.simulated_board import available

    if available() is not None:
        pytest.skip(available())
    host = subprocess.Popen([sys.executable, "-c",
                             "import sys, time\n"
                             "from controller.service.demo.simulated_board import SimulatedBoard\n"
                             "board = SimulatedBoard()\n"
                             "print(board.proc.pid, flush=True)\n"
                             "time.sleep(120)\n"], stdout=subprocess.PIPE, text=True)
    try:
        sim = int(host.stdout.readline())
        os.kill(host.pid, signal.SIGKILL)
        host.wait(timeout=10)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                state = open(f"/proc/{sim}/stat").read().rsplit(")", 1)[1].split()[0]
            except FileNotFoundError:
                break
            if state == "Z":  # gone, waiting only for init to collect it
                break
            time.sleep(0.05)
        else:
            os.kill(sim, signal.SIGKILL)
            pytest.fail("the simulated board ran on after its host was killed")
    finally:
        host.kill()
