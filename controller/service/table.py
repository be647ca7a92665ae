"""The table service: one game session and the components around it, started and stopped together.

This is the service's public API (docs/service.md): the dashboard, MQTT, the buttons and the command line
change the game only through `session` (the one writer) and the few table-level steps here (`new_game`,
`next_step`); every output (the LEDs, the buzzer, the web, MQTT) is a watcher of the session's numbered
changes. Each part is a supervised component, so a camera that vanishes or an LED board pulled out degrades
that part alone and is retried, while the game goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import msgspec

from controller.leds.scene import LedScene, scene_from_state
from controller.rules import (
    AnyAction,
    Content,
    Correct,
    GameSetup,
    GameState,
    RulesError,
    TableError,
    legal_actions,
    new_game,
    phrase,
)
from controller.rules.events import AnyEvent
from controller.service.camera.component import CameraComponent
from controller.service.camera.door_sensors import DoorSensors
from controller.service.camera.reconciler import Reconciler, ReconcilerError
from controller.service.devices.buttons import ButtonsAndBuzzer, DiceFromButtons
from controller.service.devices.led_output import LedOutput
from controller.service.frame.components import Component, Health
from controller.service.frame.config import GameConfig, TableConfig
from controller.service.frame.supervisor import Supervisor
from controller.service.game.floors import FloorLibrary
from controller.service.game.flow import next_step
from controller.service.game.replay import GameReplays
from controller.service.game.session import Change, ChangeKind, GameSession

if TYPE_CHECKING:
    from controller.service.camera.reconciler import Reconciler

log = logging.getLogger(__name__)
News = Literal["change", "health", "table"]  # what `TableService.listen` announces may have changed
DETECTION_EVENTS = {"bot_detected"}
THREAT_EVENTS = {"threat_event_fired", "escalation_active", "defeat"}
# what the session's own changes (those that are not an action's events) say to the people at the table
CHANGE_WORDS = {
    ChangeKind.NEW_GAME: "A new game: {title}.",
    ChangeKind.RESUMED: "Back to an earlier game: {title}.",
    ChangeKind.UNDO: "The last action was taken back.",
    ChangeKind.REDO: "The action taken back was done again.",
    ChangeKind.DICE_REQUESTED: "Roll at the table: {message}.",
    ChangeKind.DICE_CANCELLED: "The action waiting for dice was given up.",
    ChangeKind.DICE_MODE: "Dice from now on: {dice_mode}.",
}


DIFFICULTIES = ("simplified", "standard", "seasoned")
LEVELS = (1, 2, 3)
FACINGS = {"north": "N", "east": "E", "south": "S", "west": "W", "N": "N", "E": "E", "S": "S", "W": "W"}


class RequestError(TableError):
    """A request the table cannot read (an action of no known shape, a mission that does not exist): what is
    wrong and what is expected; nothing was changed."""

    code = "bad_request"


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
    tells whether the last write went to disk, as the session's writer tells it (`watch_log`), at once."""

    def __init__(self, session: GameSession) -> None:
        super().__init__("game")
        self.session = session

    async def start(self) -> None:
        self.ok(f"game log {self.session.path}")

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        unwatch = self.session.watch_log(lambda error: loop.call_soon_threadsafe(self._show, error))
        try:
            self._show(self.session.last_error)
            await asyncio.Event().wait()
        finally:
            unwatch()

    def _show(self, error: str | None) -> None:
        if error is None:
            self.ok(f"game log {self.session.path}")
        else:
            self.degraded(f"{error}; the change was refused and nothing acknowledged is lost")


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
        # what the camera sees against the game (the camera's reconciler's view, set when there is a camera); with
        # no camera, a reconciler that sees nothing still lists the moves the players carry out on the board
        # (the corporation's guards, a correction), never ticked off: nothing watches the board
        # (its change number left out: the live feed pushes the view to every phone only when what it lists changes)
        unwatched = Reconciler(session)
        self.camera_view: Callable[[], dict[str, Any]] = lambda: {
            k: v for k, v in unwatched.view.to_dict().items() if k != "number"}
        self.doors = DoorSensors()
        self._scene: LedScene | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopped = asyncio.Event()
        self.last_refusal: str | None = None
        self.camera: CameraComponent | None = None
        self.reconciler: Reconciler | None = None
        # the floors a game may start on: the shipped ones and those drawn in the floor editor, saved beside the log
        self.floors = FloorLibrary(session.path.resolve().parent / "floors", content.floors)
        self.replays = GameReplays(session)  # the post-game summary and the replay, read-only
        self._owner_lifts: list[Callable[[], bool]] = []
        self.ready = False  # every component has started (`run` called its `ready`); until then health says starting
        self._listeners: list[Callable[[News], object]] = []
        self._hearing = False
        self._last_view: dict[str, Any] | None = None  # the table view the last camera frame showed
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

    def apply_json(self, action: dict[str, Any], faces: list[str] | None = None) -> Change:
        """An action as the dashboard posts it back (a legal action's `action`, its choices filled in)."""
        try:
            decoded = msgspec.convert(action, AnyAction, strict=False)
        except msgspec.ValidationError as err:
            raise RequestError(f"the action {_short(action)} is not one the engine knows: {err}") from None
        return self.session.apply(decoded, faces)

    def correct(self, unit: str, space: str, facing: str | None = None) -> Change:
        """The players' word on where a unit stands (the engine's `Correct`); through the reconciler when there
        is a camera, so it stops expecting the chip elsewhere."""
        if facing is not None and facing not in FACINGS:
            raise RequestError(f"facing {facing!r}: expected north, east, south, west (or N, E, S, W) or null")
        turned = FACINGS[facing] if facing is not None else None
        if self.reconciler is not None:
            return self.reconciler.correct(unit, space, turned)
        return self.session.apply(Correct(unit=unit, space=space, facing=turned))  # type: ignore[arg-type]

    def answer(self, question: str, option: int | str) -> dict[str, Any]:
        """The players' answer to one of the table view's questions: which way a bot went (a route question), or
        that the chip is right and the game wrong (a refused move, which becomes a correction). Returns the table
        view after it. Questions about what the camera or a door sensor sees need no answer: they clear by
        themselves when the chip or the door and the game agree."""
        if self.session.has_game() and any(q.id == question for q in self.doors.questions(self.session.state)):
            raise ReconcilerError(f"question {question!r} is a door sensor's and needs no answer: it clears when "
                                  f"the door and the game agree")
        if self.reconciler is None:
            raise ReconcilerError(f"question {question!r}: this table has no camera, so it asks no questions")
        self.reconciler.answer(question, option)
        return self.table_view()

    def start_game(self, *, floor: str, mission: str, agents: list[str], difficulty: str = "standard",
                   level: int | None = None, captain: str | None = None, floor_text: str | None = None) -> Change:
        """A new game the players chose on the dashboard; each name is checked against the content first."""
        c = self.content
        problems = []
        if floor_text is None and floor not in c.floors and floor in self.floors.saved():
            floor_text = self.floors.text(floor)  # a floor drawn in the floor editor
        if floor_text is None and floor not in c.floors:
            problems.append(_choose("floor", floor, list(c.floors) + self.floors.saved()))
        if mission not in c.missions:
            problems.append(_choose("mission", mission, list(c.missions)))
        known = [a.id for a in c.agents]
        problems += [_choose("agent", a, known) for a in agents if a not in known]
        if not 1 <= len(agents) <= 4 or len(set(agents)) != len(agents):
            problems.append(f"agents {agents}: expected 1 to 4 different agents")
        if difficulty not in DIFFICULTIES:
            problems.append(_choose("difficulty", difficulty, list(DIFFICULTIES)))
        if level is not None and level not in LEVELS:
            problems.append(f"level {level}: expected 1, 2 or 3")
        captain = captain or self.config.game.captain
        if captain not in c.captains:
            problems.append(_choose("captain", captain, list(c.captains)))
        if problems:
            raise RequestError("; ".join(problems))
        setup = GameSetup(floor=floor, floor_text=floor_text, mission=mission, level=level, players=len(agents),
                          agents=list(agents), difficulty=difficulty, captain=captain,
                          seed=self.seed if self.seed is not None else int(time.time()) % 100_000)
        try:
            return self.new_game(setup)
        except RulesError as err:
            raise RequestError(f"this game cannot be set up: {err}") from None

    def legal_json(self) -> dict[str, Any]:
        """The active player's legal actions, numbered, each with the `action` to post back."""
        number = self.session.number
        actions = legal_actions(self.session.state)
        return {"number": number,
                "actions": [{"index": k, **msgspec.to_builtins(a)} for k, a in enumerate(actions)]}

    def options(self) -> dict[str, Any]:
        """What a new game may be: the floors, missions, agents, difficulties, levels and captains."""
        c, g = self.content, self.config.game
        return {
            "floors": [{"name": f["name"], "title": f.get("title", f["name"]), "shipped": f["source"] == "shipped"}
                       for f in self.floors.listing()],
            "missions": [{"id": m.id, "name": m.name, "floors": m.floors, "adaptable": m.adaptable}
                         for m in c.missions.values()],
            "agents": [{"id": a.id, "name": a.name} for a in c.agents],
            "difficulties": list(DIFFICULTIES), "levels": list(LEVELS),
            "captains": [{"id": key, "name": cap.name} for key, cap in c.captains.items()],
            "default": {"floor": g.floor, "mission": g.mission, "agents": list(g.agents),
                        "difficulty": g.difficulty, "level": g.level, "captain": g.captain},
        }

    def dice_kinds(self) -> list[dict[str, Any]]:
        """Every die of the game with its faces as printed, for the dashboard's pictures of typed-in dice."""
        return [{"kind": kind, "die": f"{kind} die", "faces": list(faces)} for kind, faces in self.content.dice.items()]

    def has_stored_game(self, game: int) -> bool:
        return any(g["id"] == game for g in self.session.games())

    # -- reading, for the web and MQTT --

    def health(self) -> dict[str, Any]:
        """The supervisor's health, the game and the last change; during start-up (the web answers before the
        camera or the LED board has opened, seconds on a busy Pi) the status is "starting", whatever a part
        that already started says, and `waiting_for` names each part not yet started with its words."""
        body = self.supervisor.health()
        waiting = {c.name: c.message for c in self.components if c.health in (Health.STARTING, Health.STOPPED)}
        body["waiting_for"] = waiting if not self.ready else {}
        if not self.ready and body["status"] != "stopped":
            body["status"] = "starting"
        body["game"] = self.session.game_id
        body["number"] = self.session.number
        if self.buttons is not None:
            body["dice_entry"] = self.dice_buttons.status()
        return body

    def table_view(self) -> dict[str, Any]:
        """The table against the game: the camera's view, and a question for each door sensor that disagrees."""
        view = {**self.camera_view(), "camera": self.camera is not None}
        if self.session.has_game():
            view["questions"] = [*view["questions"], *(q.to_dict() for q in self.doors.questions(self.session.state))]
        return view

    def state_json(self) -> Any:
        return msgspec.to_builtins(self.session.state)

    def state_bytes(self) -> bytes:
        """The state as JSON text (what `state_json` gives, encoded): the live feed encodes it once for all."""
        return msgspec.json.encode(self.session.state)

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
                out.append(phrase(msgspec.convert(raw, AnyEvent, strict=False), state))
            except (msgspec.ValidationError, KeyError, IndexError):
                out.append(str(raw.get("type", "event")))
        return out

    # -- running --

    async def run(self, ready: Callable[[], None] | None = None) -> None:
        """Start every component, call `ready` once they have started, and run until `stop()`."""
        self._loop = asyncio.get_running_loop()
        self._stopped = asyncio.Event()
        if not self.session.has_game():
            await self.session.call(self.new_game)
        self._show(self.session.state)
        self._hear_parts()
        async with self.supervisor:
            await self._started()
            self.ready = True
            self.announce("health")
            if ready is not None:
                ready()
            try:
                await self._stopped.wait()
            finally:
                self.ready = False

    def stop(self) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._stopped.set)

    def listen(self, callback: Callable[[News], object]) -> Callable[[], None]:
        """Call `callback(news)` each time what the live feed shows may have changed: "change" (the session
        accepted a change), "health" (a component's health, the game log's among them, or the table became
        ready) or "table" (a camera frame left a different table view, or a door sensor said something new). It is
        called from the thread where the news happened (the writer's, the loop's, the camera's) and must only
        wake its reader. Each piece of news is announced here once, for every listener; returns the function
        that stops the listening."""
        self._hear_parts()
        self._listeners.append(callback)
        return lambda: self._listeners.remove(callback) if callback in self._listeners else None

    def announce(self, news: News) -> None:
        """Tell every listener (`listen`); a door sensor's report announces "table" this way."""
        for callback in list(self._listeners):
            callback(news)

    def _hear_parts(self) -> None:
        """Listen, once, to what announces news of itself: every component's health and the camera's frames
        (the session's changes come through `_changed`)."""
        if self._hearing:
            return
        self._hearing = True
        self.supervisor.listen(lambda _: self.announce("health"))
        if self.camera is not None:
            self.camera.on_frame(self._framed)

    def _framed(self, _: object) -> None:
        """A camera frame, on the camera's thread, once the reconciler has taken it in: the table view is news
        when it differs from the last frame's (the camera films 30 frames a second; the view seldom changes)."""
        if not self._listeners:
            return
        view = self.camera_view()
        if view != self._last_view:
            self._last_view = view
            self.announce("table")

    async def _started(self, timeout: float = 10.0) -> None:
        """Wait until no component is still starting (each is ok, degraded or failed and retrying): woken by
        their health changes, not by looking."""
        settled = asyncio.Event()

        def look(_: object = None) -> None:
            if not any(c.health in (Health.STARTING, Health.STOPPED) for c in self.components):
                settled.set()
        unlisten = self.listen(lambda news: look() if news == "health" else None)
        try:
            look()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(settled.wait(), timeout)
        finally:
            unlisten()

    def _changed(self, change: Change) -> None:
        """A watcher of the session (on the writer's thread): hand the new state to the outputs' loop, and
        announce the change to the listeners."""
        self.announce("change")
        if self._loop is None or not self.session.has_game():
            return
        state = self.session.state
        kinds = {e.get("type") for e in change.body.get("entry", {}).get("events", [])}
        self._loop.call_soon_threadsafe(self._show, state)
        if self.buttons is not None:
            if change.kind is ChangeKind.DICE_REQUESTED:
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

    def on_owner_press(self, lift: Callable[[], bool]) -> None:
        """Call `lift()` at a long press of "next" (outside dice entry): only someone at the table can press it,
        so it lifts what the network must not (the web's pause of PIN logins after too many wrong ones). When a
        lift lifted something (it returns True) the press does only that, with an "accepted" beep. `lift` runs
        on the session's writer, as the press does: it must not wait for a change of the game."""
        self._owner_lifts.append(lift)

    def _owner_pressed(self) -> bool:
        lifted = [lift() for lift in self._owner_lifts]  # every one, not only up to the first that lifts
        if any(lifted) and self.buttons is not None:
            self.buttons.sound("accepted")
        return any(lifted)

    def press(self, name: str, held: bool = False) -> Future[None]:
        """A button press ("next", `held` for a long press, or "undo"): while the game waits for physical dice
        it types in their faces (DiceFromButtons); a long press of "next" while logins are paused lifts the
        pause (`on_owner_press`); else it steps the game on or back. A step the rules refuse
        changes nothing, and the refusal is kept for the dashboard (a button has no screen to say it on).
        The buttons call this on the event loop: the press is handed to the session's writer, behind every
        change handed over before it, and this returns at once; the future is done once the press is done."""
        return self.session.submit(self._press, name, held)

    def _press(self, name: str, held: bool) -> None:
        """A press, on the session's writer: what it reads of the game and the change it makes are one step."""
        try:
            if not self.dice_buttons.press(name, held) and not (name == "next" and held and self._owner_pressed()):
                (self.next_step if name == "next" else self.undo)()
            self.last_refusal = None
        except TableError as err:
            self.last_refusal = f"the {name} button: {err}"
        except Exception:  # a fault of the table's own: its future holds it, and the log says it (no one waits)
            log.exception("the %s button's press failed", name)
            raise


def _choose(what: str, value: str, known: list[str]) -> str:
    return f"{what} {value!r}: expected one of {', '.join(sorted(known))}"


def _short(value: Any) -> str:
    text = msgspec.json.encode(value).decode() if not isinstance(value, str) else value
    return text if len(text) <= 80 else text[:77] + "..."
