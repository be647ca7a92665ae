"""The LED component on the pure-Python device model: frames rendered from the scene reach the board,
an unplugged board degrades the component (the others run on), and the board plugged back in shows
the current scene again by itself."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from controller.leds import strip_layout as layouts
from controller.leds.device_model import DeviceModel
from controller.leds.render import render
from controller.leds.scene import LedScene, SlotChip
from controller.leds.serial_driver import SerialDriver, SerialLeds
from controller.leds.terminal_strip import TerminalLeds
from controller.service.devices.led_output import LedOutput, output_from_config
from controller.service.frame.components import Health
from controller.service.frame.config import LedsConfig
from controller.service.frame.supervisor import Backoff, Supervisor
from tests.support.firmware_sim import BAUD, FIRMWARE, LED_COUNT, Sim
from tests.support.service_helpers import Ticker, until

LAYOUT = layouts.default()
T = 100.0  # a fixed render time: the frame depends on the scene alone
CALM = LedScene(threat=4, slots=(SlotChip("tech"), None, None, None, None), tracker=1)
ALARM = LedScene(threat=14, fired_thresholds=(8,), slots=(SlotChip("physical"),) * 5, tracker=0)


def wire(scene: LedScene) -> bytes:
    return LAYOUT.wire_bytes(LAYOUT.physical(render(scene, T)))


class Board(DeviceModel):
    """The device model on a USB cable that can be pulled out and plugged back in."""

    def __init__(self) -> None:
        super().__init__(LAYOUT.led_count)
        self.plugged = True

    def open(self) -> Board:
        if not self.plugged:
            raise FileNotFoundError(2, "No such file or directory", "/dev/burncycle-leds")
        self.reboot()  # opening the port resets an Arduino
        return self

    def _check(self) -> None:
        if not self.plugged:
            raise OSError(5, "Input/output error")

    def write(self, data: bytes) -> int:
        self._check()
        return super().write(data)

    def read(self, size: int = 1) -> bytes:
        self._check()
        return super().read(size)

    @property
    def in_waiting(self) -> int:
        self._check()
        return super().in_waiting


def serial_output(board: Board) -> LedOutput:
    def open_output() -> SerialLeds:
        driver = SerialDriver(open_port=board.open, expect_leds=LAYOUT.led_count, retry_s=0.05,
                              handshake_s=1.0, keepalive_s=0.05)
        return SerialLeds(LAYOUT, driver.start())
    return LedOutput(open_output, what="the test board", clock=lambda: T)


def test_the_scene_reaches_the_board_and_survives_a_pulled_cable() -> None:
    async def test() -> None:
        board = Board()
        leds, ticker = serial_output(board), Ticker()
        states: list[str] = []
        leds.listen(lambda c: states.append(c.health.value))
        async with Supervisor([leds, ticker], backoff=Backoff(first_s=0.01)) as sup:
            leds.set_scene(CALM)
            await until(lambda: leds.health is Health.OK and board.latched[-1:] == [wire(CALM)])
            board.plugged = False
            await until(lambda: leds.health is Health.DEGRADED)
            assert "is not answering" in leds.message and "is it plugged in?" in leds.message
            assert sup.health()["status"] == "degraded"
            leds.set_scene(ALARM)  # the game goes on while the board is out
            ticks = ticker.ticks
            await asyncio.sleep(0.2)
            assert ticker.ticks > ticks and wire(ALARM) not in board.latched
            board.plugged = True
            await until(lambda: leds.health is Health.OK and board.latched[-1:] == [wire(ALARM)])
            assert sup.health()["status"] == "ok"
        assert states[-1] == "stopped" and "degraded" in states
        assert leds.retries == 0  # the driver rode it out: no restart was needed
    asyncio.run(test())


def test_an_unchanged_frame_is_not_pushed_again() -> None:
    async def test() -> None:
        board = Board()
        leds = serial_output(board)
        async with Supervisor([leds]):
            leds.set_scene(CALM)
            await until(lambda: board.latched[-1:] == [wire(CALM)])
            await asyncio.sleep(0.3)  # about nine render periods
            assert board.latched.count(wire(CALM)) == 1
    asyncio.run(test())


class Vanishing:
    """An output whose pins go away after a few frames (a GPIO strip's wires pulled)."""

    opened = 0

    def __init__(self) -> None:
        Vanishing.opened += 1
        self.frames = 0

    def show(self, frame) -> None:
        self.frames += 1
        if Vanishing.opened == 1 and self.frames > 2:
            raise OSError(19, "No such device")

    def close(self) -> None:
        pass


def test_an_output_that_raises_fails_and_is_opened_again() -> None:
    async def test() -> None:
        leds = LedOutput(Vanishing, what="the Pi's GPIO pins")  # the real clock: the tracker pulses
        leds.set_scene(LedScene(threat=3, tracker=2))
        async with Supervisor([leds], backoff=Backoff(first_s=0.01)):
            await until(lambda: leds.health is Health.FAILED)
            assert leds.last_error == "No such device"
            await until(lambda: leds.health is Health.OK)
            assert leds.retries == 1 and Vanishing.opened == 2
            assert leds.message == "showing the game on the Pi's GPIO pins"
    Vanishing.opened = 0
    asyncio.run(test())


def test_config_none_is_no_component_and_virtual_draws_in_the_terminal() -> None:
    assert output_from_config(LedsConfig(kind="none")) is None
    leds = output_from_config(LedsConfig(kind="virtual"))
    assert leds is not None and isinstance(leds._open_output(), TerminalLeds)


def test_config_gpio_uses_the_configured_pins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Device, "pin_factory", MockFactory(pin_class=MockPWMPin))
    pins = {"kind": "discrete", "threat_pins": [5, 6, 13], "status_pin": 19}
    leds = output_from_config(LedsConfig(kind="gpio", pins=pins))
    assert leds is not None
    output = leds._open_output()
    try:
        output.show(render(LedScene(threat=26), T))
        assert Device.pin_factory.pin(19).state > 0 and Device.pin_factory.pin(13).state > 0
    finally:
        output.close()
        Device.pin_factory.close()


def test_config_serial_opens_the_configured_port(tmp_path: Path) -> None:
    leds = output_from_config(LedsConfig(kind="serial", port=str(tmp_path / "ttyNone")))
    assert leds is not None
    async def test() -> None:
        async with Supervisor([leds]):
            await until(lambda: leds.health is Health.DEGRADED and "not answering" in leds.message)
            assert str(tmp_path / "ttyNone") in leds.message
    asyncio.run(test())


@pytest.fixture(scope="module")
def firmware() -> Path:
    """The real firmware and its simavr harness, built once (see tests/firmware)."""
    result = subprocess.run(["make", "-C", str(FIRMWARE), "all", "sim", f"LED_COUNT={LED_COUNT}"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return FIRMWARE


@pytest.mark.slow  # the firmware in simavr
def test_the_real_firmware_behind_a_pty_closed_and_reopened(firmware: Path, tmp_path: Path) -> None:
    assert LAYOUT.led_count == LED_COUNT
    first = Sim(tmp_path)
    async def test() -> None:
        nonlocal first
        leds = output_from_config(LedsConfig(kind="serial", port=first.port, baud=BAUD))
        assert leds is not None
        leds.clock = lambda: T
        async with Supervisor([leds]):
            leds.set_scene(CALM)
            await until(lambda: leds.health is Health.OK and first.frames()[-1:] == [wire(CALM)], 15)
            await asyncio.to_thread(first.stop)  # the pty goes away: the board is unplugged
            await until(lambda: leds.health is Health.DEGRADED, 10)
            leds.set_scene(ALARM)
            (tmp_path / "events.jsonl").unlink()
            first = Sim(tmp_path)  # plugged back in, at the same name
            await until(lambda: leds.health is Health.OK and first.frames()[-1:] == [wire(ALARM)], 15)
    try:
        asyncio.run(test())
        first.assert_clean()
    finally:
        first.stop()
