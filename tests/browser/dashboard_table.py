"""The dashboard's browser tests' table: the demo's table service in this process (the synthetic camera films
the rendered table, the vision pipeline and the reconciler read it), run in a thread; the players' hands follow
the game unless a test holds them back."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from controller.autoplay.player import AutoPlayer
from controller.cli.compose import build
from controller.rules import GameState, Step
from controller.service.demo.booth import DemoCamera, DemoTable, VirtualStrip
from controller.service.devices.led_output import LedOutput
from controller.service.frame.config import ServiceConfig
from controller.service.table import TableService

PIN = "2468"
SLOW = 30_000  # ms: the camera renders, the pipeline confirms over several frames, on a shared 2-core machine



class Table:
    """A table service with the demo's camera over a rendered table, run in a thread; `hands` follow the game."""

    def __init__(self, folder: Path, port: int) -> None:
        self.folder, self.port = folder, port
        self.url = f"http://127.0.0.1:{port}/"
        self.hands_follow = True
        self.start()

    def start(self) -> None:
        config = ServiceConfig(database={"path": self.folder / "games.sqlite3"},  # type: ignore[arg-type]
                               web={"host": "127.0.0.1", "port": self.port, "pin": PIN},
                               camera={"source": "none"}, game={"agents": ("nano", "casing")})  # type: ignore[arg-type]
        self.scene = DemoTable()
        leds = LedOutput(VirtualStrip, what="the virtual strip (the LEDs panel of the dashboard)")
        self.service: TableService = build(config, seed=3, source=lambda: DemoCamera(self.scene), leds=leds)
        if not self.service.has_game():
            self.service.new_game()
        self.scene.lay_out(self.service.record)
        self.service._session.watch(lambda change: self.hands_follow and self.scene.lay_out(self.service.record))
        ready = threading.Event()
        self.thread = threading.Thread(target=lambda: asyncio.run(self.service.run(ready.set)), daemon=True)
        self.thread.start()
        assert ready.wait(60), "the table service did not start"

    def stop(self) -> None:
        self.service.stop()
        self.thread.join(30)
        self.service.close()

    @property
    def state(self) -> GameState:
        return self.service.state

    def lay_out(self) -> None:
        """The players' hands put every chip where the game has it."""
        self.scene.lay_out(self.service.record)

    def play_until_the_corporation(self) -> None:
        """The auto-player plays the agents' turns (bots' steps straight to the engine) up to the corporation."""
        player = AutoPlayer()
        for _ in range(400):
            if self.state.turn.step == "corporation" or self.state.outcome is not None:
                return
            action = player.choose(self.state)
            self.service.apply(action)
            if isinstance(action, Step):
                self.lay_out()
        raise AssertionError("no corporation turn within 400 actions")
