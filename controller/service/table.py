"""The table service: one game session and the components around it, started and stopped together.

This is the service's public API (docs/service.md), its one way in: the dashboard and the command line
change and read the game, the floors, the replays, the LEDs and the camera only through the verbs here, never
through the parts behind them (the session, the one writer of the game, and the components), so a part can
change inside without the web noticing (tests/test_architecture.py holds the web to it). Every output (the
LEDs, the buzzer, the web, MQTT) is a watcher of the session's numbered changes. Each part is a supervised
component, so a camera that vanishes or an LED board pulled out degrades that part alone and is retried,
while the game goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import msgspec

from controller.leds.render import LogicalFrame, at_rest
from controller.leds.scene import LedScene, scene_from_state
from controller.rules import (
    AnyAction,
    BurncycleError,
    Content,
    Correct,
    GameSetup,
    GameState,
    RulesError,
    check_setup,
    legal_actions,
    new_game,
    phrase,
)
from controller.rules.board.geometry import DIRECTION_WORDS
from controller.rules.events import AnyEvent
from controller.service.camera.component import CameraComponent, CameraError, SavedRegistration
from controller.service.camera.door_sensors import DoorSensors
from controller.service.camera.reconciler import Reconciler, ReconcilerError
from controller.service.devices.buttons import ButtonsAndBuzzer, DiceFromButtons
from controller.service.devices.led_output import LedOutput
from controller.service.frame.address import phone_address
from controller.service.frame.components import Component, Health
from controller.service.frame.config import GameConfig, ServiceConfig
from controller.service.frame.supervisor import Supervisor
from controller.service.frame.web_server import WebServer
from controller.service.game.floors import MOST_CHARS, FloorCheck, FloorLibrary, check_floor
from controller.service.game.flow import next_step
from controller.service.game.replay import GameReplays
from controller.service.game.session import Change, ChangeKind, DiceMode, GameSession
from controller.service.hints import HintDesk, HintKind, HintView, attach

if TYPE_CHECKING:
    from vision.board_finder import BoardFinding

log = logging.getLogger(__name__)
T = TypeVar("T")
News = Literal["change", "health", "table", "leds"]  # what `TableService.listen` announces may have changed
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


MOST_FLOOR_CHARS = MOST_CHARS  # the longest floor text a table reads: the floor editor's and the API's limit
# the buttons, made with the handler of their presses: the service's own `press`, so they are built with it
MakeButtons = Callable[[Callable[[str, bool], object]], ButtonsAndBuzzer]


class RequestError(BurncycleError):
    """A request the table cannot read (an action of no known shape, a mission that does not exist): what is
    wrong and what is expected; nothing was changed."""

    code = "bad_request"
    status = 422


class NoCamera(CameraError):
    """This table has no camera, so there is no picture to show and no board to calibrate."""

    code = "no_camera"


@dataclass(frozen=True)
class BoardFound:
    """The calibration's first step: what the newest frame shows of the board, the registration markers' names
    by their number (a finding knows only numbers), and the frame it was found in (the page's overlay names it,
    so a browser never shows an older finding's picture from its cache)."""

    finding: BoardFinding
    markers: dict[int, str]
    frame: int


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
    buttons configured simply has none of them. Every part is given here, when the service is built (the
    buttons as `MakeButtons`, since their presses come to this service), and `add` takes only what needs the
    service itself to be made (the web app, the MQTT bridge, the demo's players)."""

    def __init__(self, config: ServiceConfig, content: Content, session: GameSession, *,
                 components: list[Component] | None = None, leds: LedOutput | None = None,
                 buttons: MakeButtons | None = None, camera: CameraComponent | None = None,
                 reconciler: Reconciler | None = None, seed: int | None = None) -> None:
        self.config, self.content, self.session = config, content, session
        self.leds = leds
        self.buttons = buttons(self.press) if buttons is not None else None
        self.camera, self.reconciler = camera, reconciler
        self.dice_buttons = DiceFromButtons(session, self.buttons)
        self.game_log = GameLog(session)
        parts = [self.game_log, leds, self.buttons, *(components or []), camera]
        self.supervisor = Supervisor(c for c in parts if c is not None)
        self.seed = seed
        # what the camera sees against the game: the camera's reconciler's view; with no camera, a reconciler that
        # sees nothing still lists the moves the players carry out on the board (the corporation's guards, a
        # correction), never ticked off: nothing watches the board, so each corporation turn's replace the last's
        # (its change number left out: the live feed
        # pushes the view to every phone only when what it lists changes)
        self.camera_view: Callable[[], dict[str, Any]]
        if reconciler is not None:
            self.camera_view = lambda: reconciler.view.to_dict()
        else:
            unwatched = Reconciler(session, watched=False)
            self.camera_view = lambda: {k: v for k, v in unwatched.view.to_dict().items() if k != "number"}
        self.doors = DoorSensors()
        self._scene: LedScene | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopped = asyncio.Event()
        self.last_refusal: str | None = None
        # the floors a game may start on: the shipped ones and those drawn in the floor editor, saved beside the log
        self.floors = FloorLibrary(session.path.resolve().parent / "floors", content.floors)
        self.replays = GameReplays(session)  # the post-game summary and the replay, read-only
        self._owner_lifts: list[Callable[[], bool]] = []
        self.ready = False  # every component has started (`run` called its `ready`); until then health says starting
        self._listeners: list[Callable[[News], object]] = []
        self._hearing = False
        self._last_view: dict[str, Any] | None = None  # the table view the last camera frame showed
        session.watch(self._changed)

    @property
    def components(self) -> list[Component]:
        """Every part, in the order they start (the supervisor's list)."""
        return self.supervisor.components

    def add(self, component: Component) -> None:
        """Add a component before the service starts: one that is made from the service itself (the web server
        serving an app of this service, the MQTT bridge, the demo's players)."""
        self.supervisor.add(component)

    # -- the table-level steps (everything else goes through `session`) --

    def new_game(self, setup: GameSetup | None = None) -> Change:
        """Start a new game: the setup given, or the one table.toml names (with a fresh seed)."""
        setup = setup or setup_from_config(self.config.game, self.seed)
        if self.seed is not None:
            self.seed += 1
        start = new_game(self.content, setup)
        # who rolls: what the players chose last (kept across games and restarts), else table.toml's `dice`
        return self.session.start_game(start, dice_mode=self.session.chosen_dice_mode() or self.config.game.dice)

    def next_step(self) -> Change:
        """The "next" button: go on with the game's flow (start a new game once one is over). The state it reads
        and the step it takes are one job of the session's writer, so no change can come between them (two
        phones pressing Next at once take two steps, each from the state the other left)."""
        return self.session.write(self._next_step)

    def _next_step(self) -> Change:
        if not self.session.has_game() or self.session.state.outcome is not None:
            return self.new_game()
        return self.session.apply(next_step(self.session.state))

    def undo(self) -> Change:
        """Take back the last action (the game is as it was before it; `redo` does it again)."""
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
        """A new game the players chose on the dashboard; the engine checks every choice against the content and
        the table's saved floors first (`check_setup`), and all that is wrong is said at once."""
        saved = self.floors.saved()
        if floor_text is None and floor not in self.content.floors and floor in saved:
            floor_text = self.floors.text(floor)  # a floor drawn in the floor editor
        setup = GameSetup(floor=floor, floor_text=floor_text, mission=mission, level=level, players=len(agents),
                          agents=list(agents), difficulty=difficulty, captain=captain or self.config.game.captain,
                          seed=self.seed if self.seed is not None else int(time.time()) % 100_000)
        problems = check_setup(self.content, setup, saved)
        if problems:
            raise RequestError("; ".join(str(p) for p in problems))
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
        """What a new game may be (the floors, missions, agents, difficulties, levels and captains) and the game's
        words the pages name things with (the facings), each from where the rules declare it."""
        c, g = self.content, self.config.game
        return {
            "floors": [{"name": f["name"], "title": f.get("title", f["name"]), "shipped": f["source"] == "shipped"}
                       for f in self.floors.listing()],
            "missions": [{"id": m.id, "name": m.name, "floors": m.floors, "adaptable": m.adaptable}
                         for m in c.missions.values()],
            "agents": [{"id": a.id, "name": a.name} for a in c.agents],
            "difficulties": list(DIFFICULTIES), "levels": list(LEVELS),
            "facings": [{"id": d, "name": word} for d, word in DIRECTION_WORDS.items()],
            "captains": [{"id": key, "name": cap.name} for key, cap in c.captains.items()],
            "default": {"floor": g.floor, "mission": g.mission, "agents": list(g.agents),
                        "difficulty": g.difficulty, "level": g.level, "captain": g.captain},
        }

    def dice_kinds(self) -> list[dict[str, Any]]:
        """Every die of the game with its faces as printed, for the dashboard's pictures of typed-in dice."""
        return [{"kind": kind, "die": f"{kind} die", "faces": list(faces)} for kind, faces in self.content.dice.items()]

    def has_stored_game(self, game: int) -> bool:
        return any(g["id"] == game for g in self.session.games())

    # -- the rest of the game's verbs: the dashboard and the command line change the game only through these --

    def redo(self) -> Change:
        """Do the action taken back again, with the dice faces it rolled the first time (the log keeps them)."""
        return self.session.redo()

    def corporation_turn(self) -> Change:
        """The corporation's turn; refused when it is not the corporation's to take."""
        return self.session.corporation_turn()

    def supply_faces(self, faces: list[str]) -> Change:
        """Faces rolled at the table for the dice the game waits for, in the order it asks for them; a face not
        on its die is refused (`BadFace`) and the request stays as it was."""
        return self.session.supply_faces(faces)

    def cancel_dice(self) -> Change:
        """Give up the action that waits for dice rolled at the table: the game stays as it was before it."""
        return self.session.cancel_dice()

    def set_dice_mode(self, mode: DiceMode) -> Change:
        """Who rolls from now on: the service ("virtual") or the players at the table ("physical")."""
        return self.session.set_dice_mode(mode)

    # -- the games in the log --

    def games(self) -> list[dict[str, Any]]:
        """Every game in the log, the current one marked."""
        return self.session.games()

    def export_game(self, game: int | None = None) -> bytes:
        """One game's record (the current one by default) as one JSON file, for another table's import."""
        return self.session.export_game(game)

    def import_game(self, data: bytes) -> Change:
        """A game another table exported: replayed and checked against its digests, then the current game; a
        file that fails any check changes nothing. It takes a while for a long game: call it off the loop."""
        return self.session.import_game(data)

    def resume_game(self, game: int) -> Change:
        """Make a past game the current one again, to finish it or to undo into it."""
        return self.session.switch_game(game)

    # -- reading, for the web and MQTT --

    def has_game(self) -> bool:
        return self.session.has_game()

    @property
    def state(self) -> GameState:
        """The game as it stands (`SessionError` before the first game)."""
        return self.session.state

    @property
    def number(self) -> int:
        """The last change's number: a reader that remembers it asks `changes_since` for what came after."""
        return self.session.number

    def status(self) -> dict[str, Any]:
        """The game beside its state: its id and title, the last change, dice asked for, undo and redo."""
        return self.session.status()

    def follow(self, after: int) -> AsyncIterator[Change]:
        """Every change after `after`, then each new one as it comes, for a reader on the event loop (MQTT)."""
        return self.session.follow(after)

    def submit(self, change: Callable[..., T], *args: Any) -> Future[T]:
        """Hand `change(*args)` (one of this facade's verbs) to the game's one writer without waiting: its future
        is done once it ran, in the order handed over (MQTT's commands, which the loop must not wait for)."""
        return self.session.submit(change, *args)

    def changes_since(self, number: int, limit: int = 1000) -> list[Change]:
        """Every change numbered after `number`, oldest first, at most `limit`: to catch up from."""
        return self.session.changes_since(number, limit)

    def game_summary(self, game: int) -> dict[str, Any]:
        """How a game went (outcome, rounds, actions, threat by round), the current one or a past one."""
        return self.replays.summary(game)

    def replay_step(self, game: int, k: int) -> dict[str, Any]:
        """A game's state after its first k actions, with the k-th action's events phrased (`ReplayError` past
        its end)."""
        return self.replays.step(game, k)

    def phone_address(self) -> str:
        """The address phones at the table open: the port really served (web.port 0 asks for any free one), or
        table.toml's while no web server runs."""
        web = self.supervisor.get("web", WebServer)
        return phone_address(self.config.web.host, web.port if web is not None else self.config.web.port)

    # -- the floors a game may start on: the shipped ones and those drawn in the floor editor --

    def floor_listing(self) -> list[dict[str, object]]:
        return self.floors.listing()

    def floor_source(self, name: str) -> str:
        """Where a floor comes from: "shipped" or "saved" (`FloorLibraryError` for one that is neither)."""
        return self.floors.source(name)

    def floor_text(self, name: str) -> str:
        return self.floors.text(name)

    def check_floor(self, text: str, name: str = "floor") -> FloorCheck:
        """A drawn floor as `burncycle-table validate` sees it: the same messages, line and column."""
        return check_floor(text, name)

    def save_floor(self, name: str, text: str) -> FloorCheck:
        """Keep a drawn floor beside the game log (checked first; `FloorLibraryError` says why not), so a game
        may start on it."""
        return self.floors.save(name, text)

    # -- the LEDs and the camera, as the dashboard shows them --

    def led_frame(self) -> LogicalFrame | None:
        """The colours the LEDs show now; None on a table without LEDs, or before the first frame."""
        return self.leds.last_frame if self.leds is not None else None

    def led_preview(self) -> LogicalFrame | None:
        """The colours the LEDs settle on for the game as it is (`render.at_rest`): what a page previews, sent
        when the game changes them; None on a table without LEDs, or before the first game."""
        return at_rest(self._scene) if self.leds is not None and self._scene is not None else None

    def led_health(self) -> dict[str, Any] | None:
        """The LEDs' part of the health; None on a table without LEDs."""
        return self.leds.status() if self.leds is not None else None

    def camera_status(self) -> dict[str, Any]:
        """The camera's health, frames a second and what the newest frame shows; only `configured: False` on a
        table without one."""
        if self.camera is None:
            return {"configured": False}
        return {"configured": True, **self.camera.view()}

    def camera_picture(self) -> bytes:
        """The newest frame with what vision made of it drawn over, as JPEG (`NoPicture` before the first)."""
        return self._camera().overlay_jpeg()

    def mat_picture(self, rows: int, cols: int) -> bytes:
        """The newest frame straightened onto a grid of rows x cols spaces: the floor editor's backdrop."""
        return self._camera().mat_jpeg(rows, cols)

    def find_board(self) -> BoardFound:
        """Calibration, first step: the registration markers in the newest frame, and the grid they give."""
        camera = self._camera()
        finding = camera.find()
        return BoardFound(finding, camera.newest()[2].config.anchor_ids, camera.frames)

    def finding_picture(self) -> bytes:
        """The last finding's picture: markers found and missing, the grid laid over, as JPEG."""
        return self._camera().finding_jpeg()

    def confirm_board(self) -> SavedRegistration:
        """Calibration, last step: keep the last finding's registration (a person saw its grid lie right), used
        whenever the markers are covered, at this start and every later one."""
        return self._camera().confirm()

    def _camera(self) -> CameraComponent:
        if self.camera is None:
            raise NoCamera("this table has no camera: set camera.source in table.toml (docs/service.md)")
        return self.camera

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
                if "hint_desk" in self.__dict__:  # its worker process ends with the table
                    await asyncio.to_thread(self.hint_desk.close)

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
        """Listen, once, to what announces news of itself: every component's health, the camera's frames and the
        reconciler (the session's changes come through `_changed`)."""
        if self._hearing:
            return
        self._hearing = True
        self.supervisor.listen(lambda _: self.announce("health"))
        if self.camera is not None:
            self.camera.on_frame(self._framed)
        if self.reconciler is not None:  # a reader was given the view from before the reconciler's write
            self.reconciler.on_news(lambda: self.announce("table"))

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
        scene = scene_from_state(state, previous=self._scene, now=time.monotonic())
        if scene != self._scene:
            self._scene = scene
            self.leds.set_scene(scene)
            self.announce("leds")

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
        except BurncycleError as err:
            self.last_refusal = f"the {name} button: {err}"
        except Exception:  # a fault of the table's own: its future holds it, and the log says it (no one waits)
            log.exception("the %s button's press failed", name)
            raise


    # -- hints for the players: the search thinks in the hint desk's worker process, never here --

    @functools.cached_property
    def hint_desk(self) -> HintDesk:
        """The table's hint desk (controller/service/hints), made at the first question; it cancels a question
        when the game moves on."""
        return attach(HintDesk(), lambda: self.session.number, self.listen)

    def ask_hint(self, kind: HintKind) -> HintView:
        """Start (or join, or answer from the kept answers) `kind` ("hint": the best three actions; "threat":
        the threat overlay) for the game as it is now; returns at once. No game yet: the session's refusal."""
        return self.hint_desk.ask(kind, self.state_bytes(), self.session.number)

    def warm_hints(self) -> bool:
        """Start the hint desk's worker before the first question (a phone that may ask was unlocked)."""
        return self.hint_desk.warm()

    def hint_view(self, kind: HintKind) -> HintView:
        """How the last question of `kind` stands."""
        return self.hint_desk.view(kind)

    def cancel_hint(self, kind: HintKind) -> HintView:
        """Stop thinking about the last question of `kind`."""
        return self.hint_desk.cancel(kind)

    def listen_hints(self, callback: Callable[[HintView], object]) -> Callable[[], None]:
        """Call `callback` with a question's view as it changes (its progress, its answer), from the desk's thread."""
        return self.hint_desk.listen(callback)


def _short(value: Any) -> str:
    text = msgspec.json.encode(value).decode() if not isinstance(value, str) else value
    return text if len(text) <= 80 else text[:77] + "..."
