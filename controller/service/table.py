"""The table service: one game session and the components around it, started and stopped together.

This is the service's public API (docs/service.md): the dashboard, MQTT, the buttons and the command line
change the game only through `session` (the one writer) and the few table-level steps here (`new_game`,
`next_step`); every output (the LEDs, the buzzer, the web, MQTT) is a watcher of the session's numbered
changes. Each part is a supervised component, so a camera that vanishes or an LED board pulled out degrades
that part alone and is retried, while the game goes on.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from controller.leds.scene import LedScene, scene_from_state
from controller.rules import Content, GameSetup, GameState, TableError, new_game, phrase
from controller.rules.events import AnyEvent
from controller.service.buttons import ButtonsAndBuzzer, DiceFromButtons
from controller.service.camera import CameraComponent
from controller.service.components import Component, Health
from controller.service.config import GameConfig, TableConfig
from controller.service.flow import next_step
from controller.service.led_output import LedOutput
from controller.service.session import Change, GameSession
from controller.service.supervisor import Supervisor

if TYPE_CHECKING:
    from controller.service.reconciler import Reconciler

DETECTION_EVENTS = {"bot_detected"}
THREAT_EVENTS = {"threat_event_fired", "escalation_active", "defeat"}
# what the session's own changes (those that are not an action's events) say to the people at the table
CHANGE_WORDS = {
    "new_game": "A new game: {title}.",
    "resumed": "Back to an earlier game: {title}.",
    "undo": "The last action was taken back.",
    "redo": "The action taken back was done again.",
    "dice_requested": "Roll at the table: {message}.",
    "dice_cancelled": "The action waiting for dice was given up.",
    "dice_mode": "Dice from now on: {dice_mode}.",
}


def setup_from_config(game: GameConfig, seed: int | None = None) -> GameSetup:
    """The game table.toml asks for: a shipped floor by name, or a .floor file's text."""
    floor, text = game.floor, None
    if floor.endswith(".floor"):
        text = Path(floor).read_text(encoding="utf-8-sig")
    return GameSetup(floor=floor, floor_text=text, mission=game.mission, level=game.level, players=len(game.agents),
                     agents=list(game.agents), difficulty=game.difficulty, captain=game.captain,
                     seed=int(time.time()) % 100_000 if seed is None else seed)


class GameLog(Component):
    """The game log (SQLite) as a component: it is the session's, so it has no loop of its own; its health
    tells whether the last write went to disk."""

    def __init__(self, session: GameSession) -> None:
        super().__init__("game")
        self.session = session

    async def start(self) -> None:
        self.ok(f"game log {self.session.store.path}")

    async def run(self) -> None:
        while True:
            error = self.session.store.last_error
            if error is None:
                self.ok(f"game log {self.session.store.path}")
            else:
                self.degraded(f"{error}; the change was refused and nothing acknowledged is lost")
            await asyncio.sleep(0.5)


class TableService:
    """Everything that runs at one table. Components are optional: a table with no LED board, camera or
    buttons configured simply has none of them."""

    def __init__(self, config: TableConfig, content: Content, session: GameSession, *,
                 components: list[Component] | None = None, leds: LedOutput | None = None,
                 buttons: ButtonsAndBuzzer | None = None, seed: int | None = None) -> None:
        self.config, self.content, self.session = config, content, session
        self.leds, self.buttons = leds, buttons
        self.dice_buttons = DiceFromButtons(session, buttons)
        self.game_log = GameLog(session)
        self.components: list[Component] = [self.game_log] + [c for c in (leds, buttons) if c is not None]
        self.components += components or []
        self.supervisor = Supervisor(self.components)
        self.seed = seed
        self.table_view: Callable[[], dict[str, Any]] = lambda: {"misplaced": [], "questions": [], "instructions": []}
        self._scene: LedScene | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopped = asyncio.Event()
        self.last_refusal: str | None = None
        self.camera: CameraComponent | None = None
        self.reconciler: Reconciler | None = None
        session.watch(self._changed)

    def add(self, component: Component) -> None:
        """Add a component before the service starts (the web server, the MQTT bridge, the demo's players)."""
        self.components.append(component)
        self.supervisor = Supervisor(self.components)

    # -- the table-level steps (everything else goes through `session`) --

    def new_game(self, setup: GameSetup | None = None) -> Change:
        """Start a new game: the setup given, or the one table.toml names (with a fresh seed)."""
        setup = setup or setup_from_config(self.config.game, self.seed)
        if self.seed is not None:
            self.seed += 1
        start = new_game(self.content, setup)
        return self.session.start_game(start, dice_mode=self.config.game.dice)

    def next_step(self) -> Change:
        """The "next" button: go on with the game's flow (start a new game once one is over)."""
        if not self.session.has_game() or self.session.state.outcome is not None:
            return self.new_game()
        return self.session.apply(next_step(self.session.state))

    def undo(self) -> Change:
        return self.session.undo()

    # -- reading, for the web and MQTT --

    def health(self) -> dict[str, Any]:
        body = self.supervisor.health()
        body["game"] = self.session.game_id
        body["number"] = self.session.number
        if self.buttons is not None:
            body["dice_entry"] = self.dice_buttons.status()
        return body

    def state_json(self) -> Any:
        return msgspec.to_builtins(self.session.state)

    def change_json(self, change: Change) -> dict[str, Any]:
        """A change as the web and MQTT send it, with its events phrased for people."""
        body = change.to_dict()
        entry = change.body.get("entry")
        if entry is not None and self.session.has_game():
            body["instructions"] = self._phrased(entry.get("events", []))
        elif change.kind in CHANGE_WORDS:
            body["instructions"] = [CHANGE_WORDS[change.kind].format(**change.body)]
        return body

    def _phrased(self, events: list[dict[str, Any]]) -> list[str]:
        state = self.session.state
        out = []
        for raw in events:
            try:
                out.append(phrase(msgspec.convert(raw, AnyEvent, strict=False), state))  # type: ignore[call-overload]
            except (msgspec.ValidationError, KeyError, IndexError):
                out.append(str(raw.get("type", "event")))
        return out

    # -- running --

    async def run(self, ready: Callable[[], None] | None = None) -> None:
        """Start every component, call `ready` once they have started, and run until `stop()`."""
        self._loop = asyncio.get_running_loop()
        self._stopped = asyncio.Event()
        if not self.session.has_game():
            self.new_game()
        self._show(self.session.state)
        async with self.supervisor:
            await self._started()
            if ready is not None:
                ready()
            await self._stopped.wait()

    def stop(self) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._stopped.set)

    async def _started(self, timeout: float = 10.0) -> None:
        """Wait until no component is still starting (each is ok, degraded or failed and retrying)."""
        deadline = asyncio.get_running_loop().time() + timeout
        while any(c.health in (Health.STARTING, Health.STOPPED) for c in self.components):
            if asyncio.get_running_loop().time() > deadline:
                return
            await asyncio.sleep(0.01)

    def _changed(self, change: Change) -> None:
        """A watcher of the session (on the writer's thread): hand the new state to the outputs' loop."""
        if self._loop is None or not self.session.has_game():
            return
        state = self.session.state
        kinds = {e.get("type") for e in change.body.get("entry", {}).get("events", [])}
        self._loop.call_soon_threadsafe(self._show, state)
        if self.buttons is not None:
            if change.kind == "dice_requested":
                self._loop.call_soon_threadsafe(self.buttons.sound, "roll")
            elif kinds & DETECTION_EVENTS:
                self._loop.call_soon_threadsafe(self.buttons.sound, "detection")
            elif kinds & THREAT_EVENTS:
                self._loop.call_soon_threadsafe(self.buttons.sound, "threat")

    def _show(self, state: GameState) -> None:
        if self.leds is None:
            return
        self._scene = scene_from_state(state, previous=self._scene, now=time.monotonic())
        self.leds.set_scene(self._scene)

    def press(self, name: str, held: bool = False) -> None:
        """A button press ("next", `held` for a long press, or "undo"): while the game waits for physical dice
        it types in their faces (DiceFromButtons), else it steps the game on or back. A step the rules refuse
        changes nothing, and the refusal is kept for the dashboard (a button has no screen to say it on)."""
        try:
            if not self.dice_buttons.press(name, held):
                (self.next_step if name == "next" else self.undo)()
            self.last_refusal = None
        except TableError as err:
            self.last_refusal = f"the {name} button: {err}"
