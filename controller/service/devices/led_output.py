"""The LEDs as a supervised component: renders the current scene and pushes each new frame.

The component owns the render loop (render(scene, t) at a steady rate, a frame pushed only when it
changed) and reports the output's health; the drivers in controller/leds only move bytes. The serial
driver already rides out a pulled cable on its own thread (it retries and restores the frame), so here
its link state becomes the component's health: DEGRADED while the board is gone, OK again when it
answers. Drivers that raise (a GPIO strip whose pins vanished) fail the component, and the supervisor
opens them again with backoff.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import sys
import time
from collections.abc import Callable
from typing import Protocol

from controller.leds import strip_layout as layouts
from controller.leds.render import LogicalFrame, at_rest, render
from controller.leds.scene import LedScene, scene_from_state
from controller.leds.serial_driver import LinkState, SerialDriver, SerialLeds
from controller.leds.strip_layout import Layout
from controller.leds.terminal_strip import TerminalLeds
from controller.rules import GameState
from controller.service.frame.components import Component
from controller.service.frame.config import LedsConfig

FPS = 30


class Output(Protocol):
    """What every LED driver offers (SerialLeds, Apa102Strip, DiscreteLeds, TerminalLeds)."""

    def show(self, frame: LogicalFrame) -> None: ...
    def close(self) -> None: ...


class LedOutput(Component):
    """Keeps the LEDs showing the current scene, at `fps` frames a second at most.

    `open_output` makes a fresh output each time the component (re)starts; `clock` is the time the
    scene's animations are rendered at (the same clock as the scene's `advanced_at`).
    """

    def __init__(self, open_output: Callable[[], Output], *, what: str, fps: float = FPS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__("leds")
        self._open_output = open_output
        self.what = what
        self.period = 1.0 / fps
        self.clock = clock
        self.scene = LedScene()
        self._shown: LedScene | None = None  # the game's last scene (`show`), which the next one animates from
        self.output: Output | None = None
        self.last_frame: LogicalFrame | None = None
        self._changed = asyncio.Event()

    def show(self, state: GameState) -> bool:
        """Show the game as it stands now (on the loop's thread): its scene, animated from the last one shown.
        True when the game relit the LEDs (a scene unlike the last one)."""
        scene = scene_from_state(state, previous=self._shown, now=time.monotonic())
        if scene == self._shown:
            return False
        self._shown = scene
        self.set_scene(scene)
        return True

    def at_rest(self) -> LogicalFrame | None:
        """The colours the LEDs settle on for the game last shown (`render.at_rest`), None before the first."""
        return at_rest(self._shown) if self._shown is not None else None

    def set_scene(self, scene: LedScene) -> None:
        """Shows `scene` from the next frame on (called on the loop's thread by the game's subscriber)."""
        self.scene = scene
        self._changed.set()

    async def start(self) -> None:
        self.last_frame = None
        self.output = self._open_output()

    async def run(self) -> None:
        while True:
            self._push()
            self._report()
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.period):
                    await self._changed.wait()

    async def stop(self) -> None:
        output, self.output = self.output, None
        if output is not None:
            await asyncio.to_thread(output.close)  # the serial driver joins its thread

    def _push(self) -> None:
        frame = render(self.scene, self.clock())
        if frame != self.last_frame and self.output is not None:
            self.output.show(frame)
            self.last_frame = frame

    def _report(self) -> None:
        if not isinstance(self.output, SerialLeds):
            self.ok(f"showing the game on {self.what}")
            return
        driver = self.output.driver
        link = driver.link
        if link is LinkState.UP:
            self.ok(f"showing the game on the LED board at {driver.port_name or self.what}")
        elif link is LinkState.STARTING:
            self.degraded(f"waiting for the LED board at {driver.port_name or self.what} to answer")
        elif link is LinkState.ERROR:
            self.degraded(f"the LED board at {driver.port_name or self.what} cannot be used: {driver.error}")
        else:
            why = f" ({driver.error})" if driver.error else ""
            self.degraded(f"the LED board at {driver.port_name or self.what} is not answering{why}: "
                          f"is it plugged in? trying again")


def output_from_config(config: LedsConfig) -> LedOutput | None:
    """The LED component table.toml asks for, or None for kind "none"."""
    if config.kind == "none":
        return None
    layout: Layout = layouts.load(config.layout) if config.layout else layouts.default()
    if config.kind == "serial":
        def open_serial() -> Output:
            driver = SerialDriver(config.port, baud=config.baud, expect_leds=layout.led_count)
            return SerialLeds(layout, driver.start())
        return LedOutput(open_serial, what=config.port)
    if config.kind == "gpio":
        from controller.leds import gpio

        pinned = dataclasses.replace(layout, gpio=dict(config.pins)) if config.pins else layout
        return LedOutput(lambda: gpio.from_layout(pinned), what="the Pi's GPIO pins")
    return LedOutput(lambda: TerminalLeds(sys.stdout), what="the terminal")
