"""The demo: the whole table with no hardware, playing itself (a convention's booth).

The players' hands are simulated, not their decisions' effects: the auto-player decides, and a bot's step
reaches the engine only by its chip moving on the rendered table, where the real camera pipeline must see it
and the reconciler turn it into the engine's step, exactly as at a real table. Guards move on the table as
the engine's instructions say, the way players follow them. What a camera cannot see (dice, choices,
keypads, the "next" step) goes through the same session API the dashboard uses.

`DemoCamera` films the rendered table: it renders again only when a chip moved (a real camera costs
nothing per frame; rendering a photo-like frame costs ~0.2 s here), with the project's own light, blur and
noise, at the resolution a table's camera has (DEMO_SIZE, the 1920 x 1080 of docs/vision.md's pixel
budget: the stickers are 21-24 px there; at 960 x 540 they were 11 px, under the 20 px the 4x4 markers are
read reliably from, and a few chips went unread on some spaces). `DemoPlayers` is the table's people, a
supervised component like any other.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import cast

import numpy as np

from controller.autoplay.player import AutoPlayer
from controller.leds.render import LogicalFrame
from controller.rules import AnyAction, BurncycleError, GameState, Step, compile_floor
from controller.service.frame.components import Component
from controller.service.table import TableService
from vision.config import VisionConfig
from vision.roster import chips_for_state
from vision.sources.base import Frame, FrameSource
from vision.status import Status
from vision.synth import CameraPose, Conditions, Renderer, Scene
from vision.synth.scene import Placement, scene_from_state

DEMO_CONDITIONS = Conditions(light_gradient=0.15, vignette=0.1, blur_px=1.0, noise_sigma=2.0)
DEMO_POSE = CameraPose(tilt_deg=8.0, azimuth_deg=20.0, roll_deg=1.0)
DEMO_SIZE = (1920, 1080)  # the table camera's capture size (docs/vision.md): stickers keep the 20 px budget


class VirtualStrip:
    """The LEDs of a table without a board: the frame is kept for GET /api/leds (the dashboard draws it)."""

    def __init__(self) -> None:
        self.frame: LogicalFrame | None = None

    def show(self, frame: LogicalFrame) -> None:
        self.frame = frame

    def close(self) -> None:
        self.frame = None


class DemoCamera(FrameSource):
    """A camera over the demo's rendered table at `fps` frames a second."""

    name = "demo camera"

    def __init__(self, table: DemoTable, size: tuple[int, int] = DEMO_SIZE, fps: float = 15.0) -> None:
        super().__init__()
        self.table, self.size, self.period = table, size, 1.0 / fps
        self._rendered: tuple[int, np.ndarray] | None = None
        self._next = 0.0
        self._index = 0
        self._rng = np.random.default_rng(0)

    def _open(self) -> Status:
        self._next, self._index = time.monotonic(), 0
        return Status("ok", "ok", "demo camera running")

    def _read(self, timeout: float) -> Frame | Status:
        delay = self._next - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        self._next = max(self._next + self.period, time.monotonic() - self.period)
        version, scene, renderer = self.table.snapshot()
        if renderer is None:
            return Status("warning", "no_table", "demo camera: no table to film yet")
        if self._rendered is None or self._rendered[0] != version:
            shot = renderer.render(scene, DEMO_POSE, self.size, DEMO_CONDITIONS, (), self._rng, grey=True)
            self._rendered = (version, shot.image)
        self._index += 1
        return Frame(self._rendered[1], time.monotonic(), self._index)

    def _close(self) -> None:
        self._rendered = None


@dataclass
class DemoTable:
    """What stands on the demo's table: the chips as placed by the simulated hands."""

    config: VisionConfig = field(default_factory=VisionConfig)
    scene: Scene = field(default_factory=lambda: Scene(()))
    version: int = 0
    renderer: Renderer | None = None
    _floor_text: str = ""

    def snapshot(self) -> tuple[int, Scene, Renderer | None]:
        return self.version, self.scene, self.renderer

    def lay_out(self, state: GameState) -> None:
        """Every chip where the game has it (players following the instructions), on the game's floor."""
        if state.floor.text != self._floor_text:
            self.renderer = Renderer(compile_floor(state.floor.text, state.floor.name), self.config)
            self._floor_text = state.floor.text
        self._set(scene_from_state(state, self.config))

    def move_chip(self, state: GameState, unit: str, space: str) -> bool:
        """A hand moves one chip to `space` (True if the unit has a chip on the table)."""
        chip = chips_for_state(state, self.config).get(unit)
        if chip is None or all(p.unit != chip for p in self.scene.placements):
            return False
        self._set(Scene(tuple(Placement(p.unit, space, p.facing) if p.unit == chip else p
                              for p in self.scene.placements)))
        return True

    def _set(self, scene: Scene) -> None:
        if scene != self.scene:
            self.scene, self.version = scene, self.version + 1


class DemoPlayers(Component):
    """The people at the demo table: the auto-player decides, the hands move chips and press buttons.

    `once`: play one game, then stop the service. `pace_s`: a pause between actions, so people watching can
    follow. A step the camera does not confirm within `step_timeout_s` is counted in `unconfirmed` and given
    to the engine through the session (so a demo never hangs), which the health page shows.
    """

    def __init__(self, service: TableService, table: DemoTable, *, once: bool = False, pace_s: float = 0.0,
                 step_timeout_s: float = 10.0, games: int | None = None) -> None:
        super().__init__("players")
        self.service, self.table, self.once, self.pace_s = service, table, once, pace_s
        self.step_timeout_s = step_timeout_s
        self.games_left = 1 if once else games
        self.results: list[str] = []
        self.steps_seen = 0
        self.unconfirmed = 0
        self.player = AutoPlayer()

    async def run(self) -> None:
        session = self.service.session
        if not session.has_game():
            await asyncio.to_thread(self.service.new_game)
        self.table.lay_out(session.state)
        await self._camera_looks()
        while True:
            state = session.state
            if state.outcome is not None:
                self.results.append(str(state.outcome))
                if self.games_left is not None:
                    self.games_left -= 1
                    if self.games_left <= 0:
                        self.service.stop()
                        return
                await asyncio.sleep(max(self.pace_s * 10, 0.5))  # the booth shows the result a moment
                self.player = AutoPlayer()
                await asyncio.to_thread(self.service.new_game)
                self.table.lay_out(session.state)
                await self._camera_looks()
                continue
            action = self.player.choose(state)
            try:
                if isinstance(action, Step) and self.table.move_chip(state, action.bot, action.to):
                    await self._seen_step(action)
                else:
                    await asyncio.to_thread(session.apply, cast(AnyAction, action))  # the player's choice is one
            except BurncycleError as err:  # people at a table get told "no" and carry on
                self.degraded(f"refused: {err}")
            self.table.lay_out(session.state)
            games = f"{len(self.results)} game{'' if len(self.results) == 1 else 's'} done"
            steps = f"{self.steps_seen} step{'' if self.steps_seen == 1 else 's'} seen by the camera"
            self.ok(f"playing: {games}, {steps}"
                    + (f", {self.unconfirmed} not confirmed" if self.unconfirmed else ""))
            if self.pace_s:
                await asyncio.sleep(self.pace_s)
            else:
                await asyncio.sleep(0)

    async def _camera_looks(self) -> None:
        """Before a game's first move, let the camera confirm the table as laid out (the players wait for the
        table to be ready): the reconciler takes a chip's first confirmed space as where it stands, so a chip
        moved before the camera ever confirmed it would be taken as standing there, and its step never seen."""
        camera = self.service.camera
        if camera is None:
            return
        settle = self.table.config.filter
        frames, started = camera.frames, time.monotonic()
        while time.monotonic() - started < self.step_timeout_s and (
                camera.frames < frames + 2 * settle.confirm_frames
                or time.monotonic() - started < 2 * settle.confirm_seconds):
            await asyncio.sleep(0.02)

    async def _seen_step(self, step: Step) -> None:
        """Wait for the camera and the reconciler to turn the moved chip into the engine's step."""
        session = self.service.session
        before = session.number
        deadline = time.monotonic() + self.step_timeout_s
        while time.monotonic() < deadline:
            await asyncio.sleep(0.02)
            if session.number != before:
                self.steps_seen += 1
                return
            reconciler = self.service.reconciler
            if reconciler is not None:
                route = next((q for q in reconciler.view.questions if q.kind == "route" and q.unit == step.bot), None)
                if route is not None:  # the players say which way the bot went: one step, so its only way
                    await asyncio.to_thread(reconciler.answer, route.id, 0)
        self.unconfirmed += 1
        self.degraded(f"the camera did not confirm {step.bot}'s step to {step.to} within {self.step_timeout_s:.0f} s")
        await asyncio.to_thread(session.apply, step)

    def status(self) -> dict[str, object]:
        body = super().status()
        body.update(games=len(self.results), results=list(self.results), steps_seen=self.steps_seen,
                    unconfirmed=self.unconfirmed)
        return body
