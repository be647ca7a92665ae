"""Parts pulled out of a running table and put back: the game goes on meanwhile, health says what is wrong,
and each part recovers by itself. The camera is the demo's camera on a cable that can be pulled (the real
vision pipeline on rendered frames); the LED board is the real firmware in simavr behind its pty, closed and
reopened and reset, its latched frames decoded by the harness."""

from __future__ import annotations

import asyncio
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.autoplay.player import AutoPlayer
from controller.cli.compose import build
from controller.leds import strip_layout as layouts
from controller.leds.render import render
from controller.leds.scene import TRACK_LENGTH
from controller.service.demo.booth import DemoCamera, DemoTable
from controller.service.devices.led_output import output_from_config
from controller.service.frame.config import LedsConfig, ServiceConfig
from controller.service.table import TableService
from tests.support.firmware_sim import BAUD, FIRMWARE, LED_COUNT, Sim
from tests.support.net import free_port, wait_for
from vision.sources.base import Frame
from vision.status import Status

pytestmark = pytest.mark.slow  # the demo's camera and the firmware in simavr, pulled and put back

LAYOUT = layouts.default()
T = 100.0  # the LEDs' render time, fixed: a frame depends on the game's scene alone


class CabledCamera(DemoCamera):
    """The demo's camera on a USB cable: while `plugged` is clear, it cannot be opened and reads fail."""

    name = "usb camera"

    def __init__(self, table: DemoTable, plugged: threading.Event) -> None:
        super().__init__(table, size=(960, 540), fps=15.0)
        self.plugged = plugged

    def _open(self) -> Status:
        if not self.plugged.is_set():
            return Status("error", "camera_lost", "usb camera: no camera on /dev/video0 (is it plugged in?)")
        return super()._open()

    def _read(self, timeout: float) -> Frame | Status:
        if not self.plugged.is_set():
            return Status("error", "camera_lost", "usb camera: the camera was unplugged")
        return super()._read(timeout)


def running(service: TableService) -> threading.Thread:
    thread = threading.Thread(target=lambda: asyncio.run(service.run()))
    thread.start()
    return thread


def config(tmp_path: Path) -> ServiceConfig:
    return ServiceConfig(database={"path": tmp_path / "games.sqlite3"}, camera={"source": "none"},  # type: ignore[arg-type]
                         web={"host": "127.0.0.1", "port": free_port()}, game={"agents": ("nano", "casing")})


def test_camera_pulled_and_plugged_back(tmp_path: Path) -> None:
    table, plugged = DemoTable(), threading.Event()
    plugged.set()
    service = build(config(tmp_path), seed=3, source=lambda: CabledCamera(table, plugged))
    table.lay_out(service.record)
    thread = running(service)
    camera = service._camera
    assert camera is not None
    try:
        wait_for(lambda: camera.health.value == "ok" and "board registered" in camera.message, what="camera ok")
        plugged.clear()
        wait_for(lambda: service.health().components["camera"].state == "failed", what="camera failed")
        health = service.health()
        assert health.status == "degraded"
        assert "the camera was unplugged" in (health.components["camera"].last_error or "")
        before = service.number
        service.apply(AutoPlayer().choose(service.state))  # the game goes on meanwhile
        assert service.number == before + 1
        frames = camera.frames
        table.lay_out(service.record)
        plugged.set()
        wait_for(lambda: camera.health.value == "ok" and camera.frames > frames + 3, what="camera back")
        assert service.health().status == "ok" and camera.retries >= 1
    finally:
        service.stop()
        thread.join(15)
        service.close()


@pytest.fixture(scope="module")
def firmware() -> Path:
    """The real firmware and its simavr harness, built once."""
    result = subprocess.run(["make", "-C", str(FIRMWARE), "all", "sim", f"LED_COUNT={LED_COUNT}"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return FIRMWARE


@pytest.fixture
def board(firmware: Path, tmp_path: Path) -> Iterator[list[Sim]]:
    """The simulated board (a list, so a test can plug a new one in at the same pty)."""
    folder = tmp_path / "board"
    folder.mkdir()
    boards = [Sim(folder)]
    yield boards
    boards[-1].stop()


def shown(service: TableService) -> bytes:
    """The bytes the board's strip must latch for the game as it stands."""
    assert service._leds is not None
    return LAYOUT.wire_bytes(LAYOUT.physical(render(service._leds.scene, T)))


def test_led_board_closed_reopened_and_reset_shows_the_game_again(board: list[Sim], tmp_path: Path) -> None:
    sim = board[0]
    leds = output_from_config(LedsConfig(kind="serial", port=sim.port, baud=BAUD))
    assert leds is not None
    leds.clock = lambda: T
    service = build(config(tmp_path), seed=3, leds=leds)
    service.new_game()
    thread = running(service)
    try:
        wait_for(lambda: leds.health.value == "ok" and sim.frames()[-1:] == [shown(service)], what="board lit")
        threat = service.state.threat
        sim.stop()  # the pty goes away: the board is unplugged
        wait_for(lambda: service.health().components["leds"].state == "degraded", what="leds degraded")
        player = AutoPlayer()
        while service.state.threat == threat and service.state.outcome is None:  # it goes on
            service.apply(player.choose(service.state))
        assert service.state.threat != threat
        wait_for(lambda: leds.scene.threat == min(int(service.state.threat), TRACK_LENGTH - 1),
                 what="the new threat in the LEDs' scene")
        sim.events_path.unlink()
        sim = Sim(sim.events_path.parent)  # plugged back in, at the same name
        board.append(sim)
        wait_for(lambda: leds.health.value == "ok" and sim.frames()[-1:] == [shown(service)], what="board back")
        latched = len(sim.frames())
        sim.reset()  # the reset button: the chip restarts and has lost its frame
        wait_for(lambda: len(sim.events("reset")) >= 1, what="the board's reset")
        wait_for(lambda: len(sim.frames()) > latched and sim.frames()[-1] == shown(service), what="frame after reset")
        assert service.health().components["game"].state == "ok"
    finally:
        service.stop()
        thread.join(15)
        service.close()
