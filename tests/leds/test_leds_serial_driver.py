"""The serial driver's logic against the pure-Python device model (fast; the real firmware in
simavr is in tests/firmware/test_firmware_sim.py)."""

from __future__ import annotations

import threading
import time

import pytest

from controller.leds import protocol as p
from controller.leds.device_model import DeviceModel
from controller.leds.serial_driver import MARGIN_S, LinkState, SerialDriver, update_s

LEDS = 38


def frame(n: int) -> bytes:
    return bytes([n >> 8, n & 255, 7]) * LEDS


def driver(port, **kwargs) -> SerialDriver:
    return SerialDriver(open_port=lambda: port, expect_leds=LEDS, **kwargs)


def test_handshake_then_frames_are_latched() -> None:
    model = DeviceModel(LEDS)
    with driver(model) as d:
        assert d.wait_link(2) is LinkState.UP
        assert d.hello == p.Hello(1, (1, 0), LEDS, p.max_payload(LEDS), 0)
        d.submit(frame(1))
        assert d.wait_shown(2)
    assert model.latched == [frame(1)]
    assert d.stats.frames_acked == 1 and len(d.stats.latencies) == 1


def test_newest_frame_wins() -> None:
    model = DeviceModel(LEDS, baud=500_000)
    with driver(model) as d:
        assert d.wait_link(2) is LinkState.UP
        for n in range(200):
            d.submit(frame(n))
        assert d.wait_shown(2)
    assert model.latched[-1] == frame(199)
    assert len(model.latched) < 20  # the frames in between were skipped, not queued


def test_same_frame_twice_is_sent_once() -> None:
    model = DeviceModel(LEDS)
    with driver(model) as d:
        d.submit(frame(5))
        assert d.wait_shown(2)
        d.submit(frame(5))
        assert d.wait_shown(2)
    assert model.latched == [frame(5)]


class Corrupting(DeviceModel):
    """Flips a bit in the first `bad` SHOW frames it receives."""

    def __init__(self, bad: int) -> None:
        super().__init__(LEDS)
        self.bad = bad

    def write(self, data: bytes) -> int:
        if data[1] == p.Type.SHOW and self.bad:
            self.bad -= 1
            data = data[:10] + bytes((data[10] ^ 0x10,)) + data[11:]
        return super().write(data)


def test_nak_makes_the_whole_frame_go_again() -> None:
    model = Corrupting(bad=2)
    with driver(model) as d:
        d.submit(frame(9))
        assert d.wait_shown(2)
    assert model.latched == [frame(9)]
    assert d.stats.naks == 2 and d.stats.frames_sent == 3


class Deaf(DeviceModel):
    """Ignores the first `lost` SHOW frames completely (as if the line dropped them)."""

    def __init__(self, lost: int) -> None:
        super().__init__(LEDS)
        self.lost = lost

    def write(self, data: bytes) -> int:
        if data[1] == p.Type.SHOW and self.lost:
            self.lost -= 1
            return len(data)
        return super().write(data)


def test_timeout_makes_the_frame_go_again() -> None:
    model = Deaf(lost=1)
    with driver(model) as d:
        d.submit(frame(3))
        assert d.wait_shown(3)
    assert model.latched == [frame(3)] and d.stats.timeouts == 1


def test_board_reset_is_noticed_and_the_frame_restored() -> None:
    model = DeviceModel(LEDS)
    with driver(model, keepalive_s=0.05) as d:
        d.submit(frame(4))
        assert d.wait_shown(2)
        model.reboot()
        deadline = time.monotonic() + 2
        while len(model.latched) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
    assert model.latched == [frame(4), frame(4)]
    assert d.stats.device_resets == 1


def test_keepalive_restores_a_frame_the_board_lost() -> None:
    model = DeviceModel(LEDS)
    with driver(model, keepalive_s=0.05) as d:
        d.submit(frame(8))
        assert d.wait_shown(2)
        model.status = 0  # the board fell back to its own pattern without saying hello
        deadline = time.monotonic() + 2
        while len(model.latched) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
    assert model.latched[-1] == frame(8) and len(model.latched) == 2


def test_wrong_led_count_is_an_error_not_a_retry_loop() -> None:
    links: list[LinkState] = []
    with SerialDriver(open_port=lambda: DeviceModel(30), expect_leds=LEDS, on_link=links.append) as d:
        assert d.wait_link(2) is LinkState.ERROR
        assert "board drives 30 LEDs but the layout has 38" in (d.error or "")
    assert LinkState.UP not in links


def test_port_that_cannot_open_is_retried() -> None:
    attempts = []
    model = DeviceModel(LEDS)

    def open_port():
        attempts.append(1)
        if len(attempts) < 3:
            raise OSError(2, "No such file or directory")
        return model

    with SerialDriver(open_port=open_port, expect_leds=LEDS, retry_s=0.01) as d:
        d.submit(frame(2))
        assert d.wait_shown(3)
    assert len(attempts) == 3 and model.latched == [frame(2)]


class Stuck:
    """A port whose reads hang: the driver thread blocks, the service must not."""

    in_waiting = 0

    def __init__(self) -> None:
        self.release = threading.Event()

    def write(self, data: bytes) -> int:
        return len(data)

    def read(self, size: int = 1) -> bytes:
        self.release.wait(5)
        return b""

    def close(self) -> None:
        self.release.set()


def test_submit_never_blocks() -> None:
    port = Stuck()
    d = SerialDriver(open_port=lambda: port, expect_leds=LEDS).start()
    try:
        start = time.monotonic()
        for n in range(1000):
            d.submit(frame(n))
        assert time.monotonic() - start < 0.5
    finally:
        port.release.set()
        d.stop()


def test_update_time_is_wire_plus_strip() -> None:
    # 121 bytes out + 8 back at 50 kB/s, 114 bytes of 171 cycles at 16 MHz (ws2812.c), 300 us latch
    assert update_s(38, 500_000) == pytest.approx((121 + 8) * 10 / 500_000 + 114 * 171 / 16e6 + 300e-6)


def test_frame_of_the_wrong_size_is_refused_at_submit() -> None:
    d = SerialDriver(open_port=lambda: DeviceModel(LEDS), expect_leds=LEDS)
    with pytest.raises(ValueError, match="a frame for 38 LEDs has 114 bytes, not 3"):
        d.submit(b"\x00\x00\x00")


def test_frame_the_board_refuses_is_not_sent_forever() -> None:
    model = DeviceModel(4)
    with SerialDriver(open_port=lambda: model) as d:  # no expect_leds: the board is the judge
        d.submit(bytes(4))  # not whole pixels
        assert d.wait_shown(2)
        assert d.stats.naks == 1 and "ARG" in (d.error or "")
        d.submit(bytes(3 * 5))  # more LEDs than the board has
        assert d.wait_shown(2)
        assert "too long for 4 LEDs" in (d.error or "") and d.stats.frames_sent == 1
    assert model.latched == []


class StrayNaks(DeviceModel):
    """Answers the first `strays` SHOWs only with a NAK for another SEQ (a reply the line garbled)."""

    def __init__(self, strays: int) -> None:
        super().__init__(LEDS)
        self.strays = strays

    def _handle(self, event: p.Event) -> None:
        if isinstance(event, p.Frame) and event.type == p.Type.SHOW and self.strays:
            self.strays -= 1
            self._reply(p.Type.NAK, 0, bytes((p.Reason.OVERRUN,)), time.monotonic())
            return
        super()._handle(event)


def test_a_nak_for_another_seq_shows_the_board_is_alive() -> None:
    """PROTOCOL.md rule 4: only a frame that got nothing back counts towards reopening the port."""
    model = StrayNaks(strays=4)
    with driver(model) as d:
        d.submit(frame(6))
        assert d.wait_shown(5)
    assert model.latched == [frame(6)]
    assert d.stats.reconnects == 0 and d.stats.timeouts == 4


class LateAnswers(DeviceModel):
    """Answers each SHOW 150 ms late, and 5 ms after that sends a stray NAK for another SEQ."""

    def _handle(self, event: p.Event) -> None:
        super()._handle(event)
        if isinstance(event, p.Frame) and event.type == p.Type.SHOW:
            ready, answer = self._replies[-1]
            self._replies[-1] = (ready + 0.15, answer)
            self._replies.append((ready + 0.155, p.encode(p.Type.NAK, 0, bytes((p.Reason.CRC,)))))


def test_stale_replies_are_dropped_before_sending() -> None:
    """PROTOCOL.md rule 2: a stray NAK left unread from before must not cut the next frame's wait."""
    model = LateAnswers(LEDS)
    with driver(model) as d:
        d.submit(frame(1))
        assert d.wait_shown(3)
        time.sleep(0.05)  # the stray NAK is waiting, unread, when the next frame goes
        d.submit(frame(2))
        assert d.wait_shown(3)
    assert model.latched == [frame(1), frame(2)]
    assert d.stats.timeouts == 0 and d.stats.frames_sent == 2


class Starved(DeviceModel):
    """A host thread descheduled after a read that found nothing yet: when it runs again the frame's deadline has
    passed, though the board's ACK came in time and waits in the port's buffer (a Pi's core busy elsewhere)."""

    def __init__(self) -> None:
        super().__init__(LEDS)
        self.starve = False

    def write(self, data: bytes) -> int:
        self.starve = self.starve or data[1] == p.Type.SHOW
        return super().write(data)

    def read(self, size: int = 1) -> bytes:
        if self.starve:
            self.starve = False
            time.sleep(update_s(LEDS, p.DEFAULT_BAUD) + MARGIN_S + 0.05)
            return b""
        return super().read(size)


def test_an_ack_that_came_in_time_is_taken_though_the_host_read_it_late() -> None:
    model = Starved()
    with driver(model) as d:
        assert d.wait_link(2) is LinkState.UP
        d.submit(frame(3))
        assert d.wait_shown(2)
    assert model.latched == [frame(3)]
    assert d.stats.timeouts == 0 and d.stats.frames_sent == 1  # not taken for lost and sent again
