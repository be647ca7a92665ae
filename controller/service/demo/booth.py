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
supervised component like any other. Nothing it does waits on the event loop: the auto-player's decisions and
the table's layouts run in worker threads (a decision the game has moved past meanwhile is dropped), and it waits
for the camera and the reconciler by the table's news (`TableService.listen`) and the camera's frames, never by
looking on a timer.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

import numpy as np

from controller.autoplay.evaluation import reason_of
from controller.autoplay.players import PlayerSettings, make_player
from controller.leds.render import LogicalFrame
from controller.rules import AnyAction, BurncycleError, GameRecord, GameState, Step, compile_floor
from controller.service.camera.chips import ChipLedger
from controller.service.frame.components import Component
from controller.service.table import TableService
from vision.config import VisionConfig
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
    """What stands on the demo's table: the chips as placed by the simulated hands, each unit on the chip the
    table's one assignment gives it (followed along the game's record, as the reconciler follows it), so the
    camera films the chips the reconciler expects."""

    config: VisionConfig = field(default_factory=VisionConfig)
    scene: Scene = field(default_factory=lambda: Scene(()))
    version: int = 0
    renderer: Renderer | None = None
    _floor_text: str = ""
    _ledger: ChipLedger = field(init=False)
    _chips: dict[str, str] = field(default_factory=dict)
    _laying: threading.Lock = field(default_factory=threading.Lock)  # one layout at a time follows the record

    def __post_init__(self) -> None:
        self._ledger = ChipLedger(self.config)

    def snapshot(self) -> tuple[int, Scene, Renderer | None]:
        return self.version, self.scene, self.renderer

    def lay_out(self, game: GameRecord | GameState) -> None:
        """Every chip where the game has it after the record's last entry (players following the instructions),
        on the game's floor; a state alone is a game taken up there, with no history."""
        record = game if isinstance(game, GameRecord) else GameRecord(start=game)
        with self._laying:
            self._chips = dict(self._ledger.follow(record).chips)
            state = self._ledger.state
            if state.floor.text != self._floor_text:
                self.renderer = Renderer(compile_floor(state.floor.text, state.floor.name), self.config)
                self._floor_text = state.floor.text
            self._set(scene_from_state(state, self.config, self._chips))

    def move_chip(self, unit: str, space: str) -> bool:
        """A hand moves one chip, as last laid out, to `space` (True if the unit has a chip on the table)."""
        chip = self._chips.get(unit)
        if chip is None or all(p.unit != chip for p in self.scene.placements):
            return False
        self._set(Scene(tuple(Placement(p.unit, space, p.facing) if p.unit == chip else p
                              for p in self.scene.placements)))
        return True

    def _set(self, scene: Scene) -> None:
        if scene != self.scene:
            self.scene, self.version = scene, self.version + 1


MAX_ROUNDS = 50  # a booth's game longer than this is left unfinished (a lost game is over by round 20 or so)


class DemoPlayers(Component):
    """The people at the demo table: the auto-player decides, the hands move chips and press buttons.

    `once`: play one game, then stop the service. `pace_s`: a pause between actions, so people watching can
    follow. A step the camera does not confirm within `step_timeout_s` is counted in `unconfirmed` and given
    to the engine through the session (so a demo never hangs), which the health page shows. A game still
    going after `max_rounds` rounds is left unfinished and the next one starts: the rules set no limit, and
    a team can hold the threat down on the network's hubs round after round while its bots stay stuck (the
    heuristic on the labs, seed 7028, does), which would hold the booth on one game all day. `player` names the
    player (controller/autoplay/players.py), `settings` its seed and budget. A player that says why it chose
    (the search's `explain()`) explains itself to the people watching: its last reason is `why` in this part's
    health, which the live feed pushes and the dashboard shows under the summary.
    """

    def __init__(self, service: TableService, table: DemoTable, *, once: bool = False, pace_s: float = 0.0,
                 step_timeout_s: float = 10.0, games: int | None = None, player: str = "heuristic",
                 settings: PlayerSettings | None = None, max_rounds: int = MAX_ROUNDS) -> None:
        super().__init__("players")
        self.service, self.table, self.once, self.pace_s = service, table, once, pace_s
        self.step_timeout_s, self.max_rounds = step_timeout_s, max_rounds
        self.games_left = 1 if once else games
        self.results: list[str] = []
        self.steps_seen = 0
        self.unconfirmed = 0
        self.player_name, self.settings = player, settings  # the players' registry's name, the budget
        self.player = make_player(player, settings)
        self.why: str | None = None  # the player's reason for its last action, in the game's words
        self.dropped = 0  # decisions made on a state the game had moved past by the time they came
        self._woken: asyncio.Event | None = None  # set by the table's news and the camera's frames while waited on
        self._hearing = False

    async def run(self) -> None:
        service = self.service
        self._hear()
        if not service.has_game():
            await asyncio.to_thread(service.new_game)
        await asyncio.to_thread(self.table.lay_out, service.record)
        await self._camera_looks()
        while True:
            state = service.state
            result = (str(state.outcome) if state.outcome is not None
                      else f"unfinished: no end by round {self.max_rounds}" if state.round > self.max_rounds
                      else None)
            if result is not None:
                self.results.append(result)
                if self.games_left is not None:
                    self.games_left -= 1
                    if self.games_left <= 0:
                        self.service.stop()
                        return
                await asyncio.sleep(max(self.pace_s * 10, 0.5))  # the booth shows the result a moment
                self.player = make_player(self.player_name, self.settings)
                self.why = None
                await asyncio.to_thread(service.new_game)
                await asyncio.to_thread(self.table.lay_out, service.record)
                await self._camera_looks()
                continue
            number = service.number
            action = await asyncio.to_thread(self.player.choose, state)
            if service.number != number:  # someone else played meanwhile (a phone, a button): decide again
                self.dropped += 1
                continue
            reason = reason_of(self.player)
            if reason is not None:  # (an action with nothing to weigh keeps the last reason on the screen)
                self.why = reason
            try:
                if isinstance(action, Step) and self.table.move_chip(action.bot, action.to):
                    await self._seen_step(action)
                else:
                    await asyncio.to_thread(service.apply, cast(AnyAction, action))  # the player's choice is one
            except BurncycleError as err:  # people at a table get told "no" and carry on
                self.degraded(f"refused: {err}")
            await asyncio.to_thread(self.table.lay_out, service.record)
            games = f"{len(self.results)} game{'' if len(self.results) == 1 else 's'} done"
            steps = f"{self.steps_seen} step{'' if self.steps_seen == 1 else 's'} seen by the camera"
            self.ok(f"playing: {games}, {steps}"
                    + (f", {self.unconfirmed} not confirmed" if self.unconfirmed else ""))
            if self.pace_s:
                await asyncio.sleep(self.pace_s)
            else:
                await asyncio.sleep(0)

    def _hear(self) -> None:
        """Listen, once, to the table's news and the camera's frames: each wakes the booth when it waits."""
        if self._hearing:
            return
        self._hearing = True
        loop = asyncio.get_running_loop()

        def wake(_: object) -> None:
            woken = self._woken
            if woken is not None:
                loop.call_soon_threadsafe(woken.set)
        self.service.listen(wake)
        self.service.listen_frames(wake)

    async def _until(self, done: Callable[[], bool], timeout: float) -> bool:
        """Wait until `done()`, looked at again each time the table has news or the camera a frame; False when
        `timeout` seconds pass first."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        self._woken = woken = asyncio.Event()
        try:
            while True:
                woken.clear()
                if done():
                    return True
                left = deadline - loop.time()
                if left <= 0:
                    return False
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(woken.wait(), left)
        finally:
            self._woken = None

    async def _camera_looks(self) -> None:
        """Before a game's first move, let the camera confirm the table as laid out (the players wait for the
        table to be ready): the reconciler takes a chip's first confirmed space as where it stands, so a chip
        moved before the camera ever confirmed it would be taken as standing there, and its step never seen."""
        if not self.service.camera_status().configured:
            return
        settle = self.table.config.filter
        frames = self.service.camera_frames()
        await asyncio.sleep(2 * settle.confirm_seconds)
        await self._until(lambda: self.service.camera_frames() >= frames + 2 * settle.confirm_frames,
                          self.step_timeout_s - 2 * settle.confirm_seconds)

    async def _seen_step(self, step: Step) -> None:
        """Wait for the camera and the reconciler to turn the moved chip into the engine's step: woken by the
        table's news (the step accepted, or a question about the way the bot went, which the players answer)."""
        service = self.service
        before = service.number
        answered: set[str] = set()

        def route_question() -> str | None:
            return next((q.id for q in service.table_view().questions
                         if q.kind == "route" and q.unit == step.bot and q.id not in answered), None)

        deadline = time.monotonic() + self.step_timeout_s
        while time.monotonic() < deadline:
            if await self._until(lambda: service.number != before or route_question() is not None,
                                 deadline - time.monotonic()):
                if service.number != before:
                    self.steps_seen += 1
                    return
                question = route_question()
                if question is not None:  # one step, so its only way
                    answered.add(question)
                    await asyncio.to_thread(service.answer, question, 0)
        self.unconfirmed += 1
        self.degraded(f"the camera did not confirm {step.bot}'s step to {step.to} within {self.step_timeout_s:.0f} s")
        await asyncio.to_thread(service.apply, step)

    def status(self) -> dict[str, object]:
        body = super().status()
        body.update(games=len(self.results), results=list(self.results), steps_seen=self.steps_seen,
                    unconfirmed=self.unconfirmed, dropped=self.dropped, player=self.player_name, why=self.why)
        return body
