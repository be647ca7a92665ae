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
from pathlib import Path
from typing import Any, TypeVar, get_args

import msgspec

from controller.leds.render import LogicalFrame
from controller.rules import (
    AREA_KINDS,
    DIFFICULTIES,
    DIRECTION_WORDS,
    DIRECTIONS,
    FEATURE_WORDS,
    LEVELS,
    SPACE_FEATURES,
    AnyAction,
    BurncycleError,
    Content,
    Correct,
    Direction,
    FloorError,
    GameRecord,
    GameSetup,
    GameState,
    ReserveKind,
    RulesError,
    active_escalations,
    check_setup,
    compile_floor,
    floor_state,
    legal_actions,
    new_game,
    parse_floor,
    players_place_module,
    starts_in_safe_zones,
)
from controller.service import views
from controller.service.camera.calibration import Calibration
from controller.service.camera.component import CameraComponent
from controller.service.camera.door_sensors import DoorSensors
from controller.service.camera.reconciler import Reconciler, ReconcilerError
from controller.service.camera.reconciler_view import ReconcilerView
from controller.service.devices.buttons import ButtonsAndBuzzer
from controller.service.devices.led_output import LedOutput
from controller.service.devices.presses import ButtonPresses
from controller.service.frame.address import phone_address
from controller.service.frame.components import Component, Health
from controller.service.frame.config import GameConfig, ServiceConfig, WebConfig
from controller.service.frame.supervisor import Supervisor
from controller.service.frame.web_server import WebServer
from controller.service.game.floors import (
    MOST_CHARS,
    NAME_PATTERN,
    FloorDoesNotCompile,
    FloorLibrary,
    NoSuchFloor,
    check_floor,
)
from controller.service.game.flow import next_step
from controller.service.game.log_health import GameLog
from controller.service.game.replay import GameReplays
from controller.service.game.session import Change, GameSession, NoGame
from controller.service.game.session import ChangeKind as ChangeKind  # the web answers a dice request with 202
from controller.service.game.session import DiceMode as DiceMode  # who rolls: the web's body takes it
from controller.service.game.store import NoSuchGame
from controller.service.hints import HintDesk, attach
from controller.service.news import News, NewsBus
from controller.service.views import HintKind as HintKind  # the hints routes name the kind of question

log = logging.getLogger(__name__)
T = TypeVar("T")
C = TypeVar("C", bound=Component)
# a facing as the players may say it: the rules' compass letter or its word
FACINGS: dict[str, Direction] = {**{DIRECTION_WORDS[d]: d for d in DIRECTIONS}, **{d: d for d in DIRECTIONS}}


MOST_FLOOR_CHARS = MOST_CHARS  # the longest floor text a table reads: the floor editor's and the API's limit
FLOOR_NAME = NAME_PATTERN  # a floor's name, shipped or saved: the new game's and the floor editor's schema
# the buttons, made with the handler of their presses: the service's own `press`, so they are built with it
MakeButtons = Callable[[Callable[[str, bool], object]], ButtonsAndBuzzer]


class RequestError(BurncycleError):
    """A request the table cannot read (an action of no known shape, a mission that does not exist): what is
    wrong and what is expected; nothing was changed."""

    code = "bad_request"


class SetupMismatch(BurncycleError):
    """A new game whose choices are each the content's but do not fit together (a level for a mission that is
    not Adaptable, a custom floor the mission cannot be set up on): nothing was changed."""

    code = "setup_mismatch"


def setup_from_config(game: GameConfig, seed: int | None = None) -> GameSetup:
    """The game table.toml asks for: a shipped floor by name, or a .floor file's text."""
    floor, text = game.floor, None
    if floor.endswith(".floor"):
        text = Path(floor).read_text(encoding="utf-8-sig")
    return GameSetup(floor=floor, floor_text=text, mission=game.mission, level=game.level, players=len(game.agents),
                     agents=list(game.agents), difficulty=game.difficulty, captain=game.captain,
                     seed=int(time.time()) % 100_000 if seed is None else seed, start=game.start)


class TableService:
    """Everything that runs at one table. Components are optional: a table with no LED board, camera or
    buttons configured simply has none of them. Every part is given here, when the service is built (the
    buttons as `MakeButtons`, since their presses come to this service), and `add` takes only what needs the
    service itself to be made (the web app, the MQTT bridge, the demo's players)."""

    def __init__(self, config: ServiceConfig, content: Content, session: GameSession, *,
                 components: list[Component] | None = None, leds: LedOutput | None = None,
                 buttons: MakeButtons | None = None, camera: CameraComponent | None = None,
                 reconciler: Reconciler | None = None, seed: int | None = None,
                 choose: Callable[[Content, GameSetup], GameSetup] | None = None) -> None:
        self._config, self._content, self._session = config, content, session
        # the choices a setup leaves to the team (where it starts: "a safe zone space of their choice"), made for
        # a table that plays itself by its auto-player (the demo: `controller.autoplay.start.chosen_setup`)
        self._choose = choose
        self._leds = leds
        self._buttons = buttons(self.press) if buttons is not None else None
        self._camera, self._reconciler = camera, reconciler
        self._presses = ButtonPresses(session, self._buttons, next_step=self.next_step, undo=self.undo)
        parts = [GameLog(session), leds, self._buttons, *(components or []), camera]
        self._supervisor = Supervisor(c for c in parts if c is not None)
        self._seed = seed
        # what the camera sees against the game: the camera's reconciler's view; with no camera, a reconciler that
        # sees nothing still lists the moves the players carry out on the board (the corporation's guards, a
        # correction), never ticked off: nothing watches the board, so each corporation turn's replace the last's
        # (its change number left out of the table view: the live feed pushes the view to every phone only when
        # what it lists changes)
        self._watcher = reconciler if reconciler is not None else Reconciler(session, watched=False)
        self._doors = DoorSensors()
        self._calibration = Calibration(camera)
        self._news = NewsBus()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopped = asyncio.Event()
        # the floors a game may start on: the shipped ones and those drawn in the floor editor, saved beside the log
        self._floors = FloorLibrary(session.path.resolve().parent / "floors", content.floors)
        self._replays = GameReplays(session)  # the post-game summary and the replay, read-only
        self.ready = False  # every component has started (`run` called its `ready`); until then health says starting
        session.watch(self._changed)

    @property
    def components(self) -> list[Component]:
        """Every part, in the order they start (the supervisor's list)."""
        return self._supervisor.components

    def add(self, component: Component) -> None:
        """Add a component before the service starts: one that is made from the service itself (the web server
        serving an app of this service, the MQTT bridge, the demo's players)."""
        self._supervisor.add(component)

    def component(self, name: str, kind: type[C]) -> C | None:
        """The component called `name`, checked to be a `kind` (None when there is none): what a component added
        to this service offers (the web server's port and app)."""
        return self._supervisor.get(name, kind)

    def close(self) -> None:
        """Close the game log, once the service has stopped: nothing acknowledged is lost."""
        self._session.close()

    # -- the table-level steps (everything else goes through `session`) --

    def new_game(self, setup: GameSetup | None = None) -> Change:
        """Start a new game: the setup given, or the one table.toml names (with a fresh seed), with the choices it
        leaves to the team made by the table's auto-player when it plays itself (`choose`)."""
        setup = setup or setup_from_config(self._config.game, self._seed)
        if self._seed is not None:
            self._seed += 1
        if self._choose is not None:
            setup = self._choose(self._content, setup)
        start = new_game(self._content, setup)
        # who rolls: what the players chose last (kept across games and restarts), else table.toml's `dice`
        return self._session.start_game(start, dice_mode=self._session.chosen_dice_mode() or self._config.game.dice)

    def next_step(self) -> Change:
        """The "next" button: go on with the game's flow (start a new game once one is over). The state it reads
        and the step it takes are one job of the session's writer, so no change can come between them (two
        phones pressing Next at once take two steps, each from the state the other left)."""
        return self._session.write(self._next_step)

    def _next_step(self) -> Change:
        if not self._session.has_game() or self._session.state.outcome is not None:
            return self.new_game()
        return self._session.apply(next_step(self._session.state))

    def undo(self) -> Change:
        """Take back the last action (the game is as it was before it; `redo` does it again)."""
        return self._session.undo()

    def apply(self, action: AnyAction, faces: list[str] | None = None) -> Change:
        """Apply one of the engine's actions for the active player (the auto-players' and the demo's way), with
        dice faces rolled at the table when the game asks for them."""
        return self._session.apply(action, faces)

    def play_from(self, start: GameState) -> Change:
        """A new game from a state made beforehand (a saved position, a test's scenario), its dice virtual."""
        return self._session.start_game(start)

    def apply_json(self, action: dict[str, Any], faces: list[str] | None = None) -> Change:
        """An action as the dashboard posts it back (a legal action's `action`, its choices filled in)."""
        try:
            decoded = msgspec.convert(action, AnyAction, strict=False)
        except msgspec.ValidationError as err:
            raise RequestError(f"the action {_short(action)} is not one the engine knows: {err}") from None
        return self._session.apply(decoded, faces)

    def correct(self, unit: str, space: str, facing: str | None = None) -> Change:
        """The players' word on where a unit stands (the engine's `Correct`); through the reconciler when there
        is a camera, so it stops expecting the chip elsewhere."""
        if facing is not None and facing not in FACINGS:
            raise RequestError(f"facing {facing!r}: expected {', '.join(DIRECTION_WORDS.values())} (or "
                               f"{', '.join(DIRECTIONS)}) or null")
        turned = FACINGS[facing] if facing is not None else None
        if self._reconciler is not None:
            return self._reconciler.correct(unit, space, turned)
        return self._session.apply(Correct(unit=unit, space=space, facing=turned))

    def answer(self, question: str, option: int | str) -> views.TableView:
        """The players' answer to one of the table view's questions: which way a bot went (a route question), or
        that the chip is right and the game wrong (a refused move, which becomes a correction). Returns the table
        view after it. Questions about what the camera or a door sensor sees need no answer: they clear by
        themselves when the chip or the door and the game agree."""
        if self._session.has_game() and any(q.id == question for q in self._doors.questions(self._session.state)):
            raise ReconcilerError(f"question {question!r} is a door sensor's and needs no answer: it clears when "
                                  f"the door and the game agree")
        if self._reconciler is None:
            raise ReconcilerError(f"question {question!r}: this table has no camera, so it asks no questions")
        self._reconciler.answer(question, option)
        return self.table_view()

    def start_game(self, *, floor: str, mission: str, agents: list[str], difficulty: str = "standard",
                   level: int | None = None, captain: str | None = None, floor_text: str | None = None,
                   start: dict[str, str] | None = None) -> Change:
        """A new game the players chose on the dashboard; the engine checks every choice against the content and
        the table's saved floors first (`check_setup`), and all that is wrong is said at once: a floor that is
        neither shipped nor saved is `NoSuchFloor`, choices that do not fit together `SetupMismatch`, a custom
        floor's text that does not compile `FloorDoesNotCompile`, any other name the content lacks `RequestError`."""
        saved = self._floors.saved()
        if floor_text is None and floor not in self._content.floors and floor in saved:
            floor_text = self._floors.text(floor)  # a floor drawn in the floor editor
        setup = GameSetup(floor=floor, floor_text=floor_text, mission=mission, level=level, players=len(agents),
                          agents=list(agents), difficulty=difficulty, captain=captain or self._config.game.captain,
                          seed=self._seed if self._seed is not None else int(time.time()) % 100_000, start=start)
        problems = check_setup(self._content, setup, saved)
        said = "; ".join(str(p) for p in problems)
        missing = [p for p in problems if p.field == "floor"]  # (its pattern lets any saved floor's name through)
        if problems and all(p.field == "floor" or p.mismatch for p in problems):
            raise (NoSuchFloor if missing else SetupMismatch)(said)
        if problems:
            raise RequestError(said)
        try:
            return self.new_game(setup)
        except FloorError as err:
            raise FloorDoesNotCompile(str(err)) from None
        except RulesError as err:
            raise SetupMismatch(f"this game cannot be set up: {err}") from None

    def legal(self) -> views.LegalList:
        """The active player's legal actions, numbered, each with the `action` to post back."""
        number = self._session.number
        return views.legal_list(number, legal_actions(self._session.state))

    def options(self) -> views.Options:
        """What a new game may be: the floors (their levels and safe zones), the missions (at which levels the team
        chooses where it starts, as the rules say), agents, difficulties, levels and captains."""
        c, g = self._content, self._config.game
        return views.Options(
            floors=[views.floor_option(name, source == "shipped", check.floor)
                    for name, source, check in self._floors.checked()],
            missions=[views.MissionOption(id=m.id, name=m.name, floors=m.floors, adaptable=m.adaptable,
                                          start_levels=[n for n in LEVELS if starts_in_safe_zones(m, n)],
                                          places_module=players_place_module(m))
                      for m in c.missions.values()],
            agents=[views.Named(id=a.id, name=a.name) for a in c.agents],
            module=views.Named(id="module", name=c.module.name),
            difficulties=list(DIFFICULTIES), levels=list(LEVELS),
            captains=[views.Named(id=key, name=cap.name) for key, cap in c.captains.items()],
            default=views.NewGameDefault(floor=g.floor, mission=g.mission, agents=list(g.agents),
                                         difficulty=g.difficulty, level=g.level, captain=g.captain,
                                         start=dict(g.start) if g.start else None),
            facings=[views.Facing(letter=d, word=DIRECTION_WORDS[d]) for d in DIRECTIONS],
            features=dict(SPACE_FEATURES), feature_words=dict(FEATURE_WORDS), area_kinds=list(AREA_KINDS),
            reserves=list(get_args(ReserveKind)))

    def dice_kinds(self) -> views.DiceKinds:
        """Every die of the game with its faces as printed, for the dashboard's pictures of typed-in dice."""
        return views.DiceKinds(dice=[views.DieKind(kind=kind, die=f"{kind} die", faces=list(faces))
                                     for kind, faces in self._content.dice.items()])

    def has_stored_game(self, game: int) -> bool:
        return any(g["id"] == game for g in self._session.games())

    # -- the rest of the game's verbs: the dashboard and the command line change the game only through these --

    def redo(self) -> Change:
        """Do the action taken back again, with the dice faces it rolled the first time (the log keeps them)."""
        return self._session.redo()

    def corporation_turn(self) -> Change:
        """The corporation's turn; refused when it is not the corporation's to take."""
        return self._session.corporation_turn()

    def supply_faces(self, faces: list[str]) -> Change:
        """Faces rolled at the table for the dice the game waits for, in the order it asks for them; a face not
        on its die is refused (`BadFace`) and the request stays as it was."""
        return self._session.supply_faces(faces)

    def cancel_dice(self) -> Change:
        """Give up the action that waits for dice rolled at the table: the game stays as it was before it."""
        return self._session.cancel_dice()

    def set_dice_mode(self, mode: DiceMode) -> Change:
        """Who rolls from now on: the service ("virtual") or the players at the table ("physical")."""
        return self._session.set_dice_mode(mode)

    # -- the games in the log --

    def games(self) -> views.Games:
        """Every game in the log, the current one marked."""
        return views.Games(games=[views.GameListed(**g) for g in self._session.games()])

    def export_game(self, game: int | None = None) -> bytes:
        """One game's record (the current one by default) as one JSON file, for another table's import
        (`NoSuchGame` for a game the log does not have)."""
        if game is not None:
            self._known(game)
        return self._session.export_game(game)

    def import_game(self, data: bytes) -> Change:
        """A game another table exported: replayed and checked against its digests, then the current game; a
        file that fails any check changes nothing. It takes a while for a long game: call it off the loop."""
        return self._session.import_game(data)

    def resume_game(self, game: int) -> Change:
        """Make a past game the current one again, to finish it or to undo into it (`NoSuchGame`)."""
        self._known(game)
        return self._session.switch_game(game)

    def _known(self, game: int) -> None:
        if not self.has_stored_game(game):
            raise NoSuchGame(f"there is no game {game} in this table's log (GET /api/games lists them)")

    # -- reading, for the web and MQTT --

    def has_game(self) -> bool:
        return self._session.has_game()

    @property
    def game_id(self) -> int | None:
        """The current game's number in the log (None before the first game)."""
        return self._session.game_id

    @property
    def state(self) -> GameState:
        """The game as it stands (`SessionError` before the first game)."""
        return self._session.state

    @property
    def record(self) -> GameRecord:
        """The game's record as it stands, its start and every entry since (`SessionError` before the first game):
        what the table's chips are followed along (controller/service/camera/chips.py)."""
        return self._session.record

    @property
    def number(self) -> int:
        """The last change's number: a reader that remembers it asks `changes_since` for what came after."""
        return self._session.number

    def status(self) -> views.Status:
        """The game beside its state: its id and title, the last change, dice asked for, undo and redo."""
        return msgspec.convert(self._session.status(), views.Status)

    def state_view(self) -> views.StateView:
        """The session's status and the whole game state (`NoGame` before the first game)."""
        state = self._session.state
        return views.StateView(status=self.status(), state=state)

    def follow(self, after: int) -> AsyncIterator[Change]:
        """Every change after `after`, then each new one as it comes, for a reader on the event loop (MQTT)."""
        return self._session.follow(after)

    def submit(self, change: Callable[..., T], *args: Any) -> Future[T]:
        """Hand `change(*args)` (one of this facade's verbs) to the game's one writer without waiting: its future
        is done once it ran, in the order handed over (MQTT's commands, which the loop must not wait for)."""
        return self._session.submit(change, *args)

    def changes_since(self, number: int, limit: int = 1000) -> list[Change]:
        """Every change numbered after `number`, oldest first, at most `limit`: to catch up from."""
        return self._session.changes_since(number, limit)

    def game_summary(self, game: int) -> views.Summary:
        """How a game went (outcome, rounds, actions, threat by round), the current one or a past one."""
        return self._replays.summary(game)

    def replay_step(self, game: int, k: int) -> views.ReplayStep:
        """A game's state after its first k actions, with the k-th action's events phrased and its floor laid out
        as `floor` lays out the live one (`ReplayError` past its end)."""
        step = self._replays.step(game, k)
        step.floor = views.floor_view(step.state)
        return step

    def web_config(self) -> WebConfig:
        """table.toml's [web] section: the address served, the PIN, whether the table is read-only."""
        return self._config.web

    def phone_address(self) -> str:
        """The address phones at the table open: the port really served (web.port 0 asks for any free one), or
        table.toml's while no web server runs."""
        web = self._supervisor.get("web", WebServer)
        return phone_address(self._config.web.host, web.port if web is not None else self._config.web.port)

    # -- the floors a game may start on: the shipped ones and those drawn in the floor editor --

    def floor_listing(self) -> views.Floors:
        return views.Floors(floors=self._floors.listing())

    def floor_text(self, name: str) -> views.FloorFile:
        """One floor's text and where it comes from, "shipped" or "saved" (`NoSuchFloor` for one that is
        neither)."""
        return views.FloorFile(name=name, source=self._floors.source(name), text=self._floors.text(name))

    def floor_board(self, name: str) -> views.FloorView:
        """A floor a game may start on, laid out for drawing as a game would find it (every door locked, nothing
        accessed, no guard yet): the new game's form draws it to show where the team would start. `NoSuchFloor`
        for a name neither shipped nor saved, `FloorDoesNotCompile` for a saved floor that does not compile."""
        try:
            floor = compile_floor(self._floors.text(name), f"{name}.floor")
        except FloorError as err:
            raise FloorDoesNotCompile(str(err)) from None
        return views.floor_layout(floor_state(floor, floor.level), {})

    def check_floor(self, text: str, name: str = "floor") -> views.FloorChecked:
        """A drawn floor as `burncycle-table validate` sees it: the same messages, line and column."""
        return check_floor(text, name).view()

    def parse_floor(self, text: str, name: str = "floor") -> views.FloorParsed:
        """A floor's text read by the rules' own parser (the floor editor has none of its own): its plan in the
        format's characters, or the line and column of the first mistake."""
        try:
            plan = parse_floor(text, f"{name}.floor")
        except FloorError as e:
            return views.FloorParsed(ok=False, message=str(e), line=e.line, column=e.column)
        return views.FloorParsed(ok=True, floor=msgspec.convert(plan.drawn(), views.FloorPlanView))

    def save_floor(self, name: str, text: str) -> views.FloorChecked:
        """Keep a drawn floor beside the game log (checked first; `FloorLibraryError` says why not), so a game
        may start on it."""
        saved = self._floors.save(name, text).view()
        saved.name = name
        return saved

    def floor(self) -> views.FloorView:
        """The current game's floor, laid out for drawing, with its version and the change it reflects (`NoGame`
        before the first game)."""
        if not self._session.has_game():
            raise NoGame("there is no game yet, so no floor: start a new game")
        number, state = self._session.number, self._session.state
        view = views.floor_view(state)
        view.number = number
        return view

    def floor_inputs(self) -> bytes | None:
        """What the drawn floor is made of, encoded (the floor's state, the guards, the peripheral rule, the
        escalations in force for their awareness): the live feed draws the floor again only when this changed,
        which most changes leave as it was; None before the first game."""
        if not self._session.has_game():
            return None
        state = self._session.state
        return msgspec.json.encode((state.floor, state.security, state.rules,
                                    [e.threshold for e in active_escalations(state)]))

    def floor_drawn(self) -> views.FloorView | None:
        """The current game's floor as the live feed pushes it: laid out, with its version (a digest of what is
        drawn, the same as `floor`'s), without a change number; None before the first game."""
        return views.floor_view(self._session.state) if self._session.has_game() else None

    # -- the LEDs and the camera, as the dashboard shows them --

    def led_frame(self) -> LogicalFrame | None:
        """The colours the LEDs show now; None on a table without LEDs, or before the first frame."""
        return self._leds.last_frame if self._leds is not None else None

    def leds_view(self) -> views.Leds:
        """The LEDs' colours now, and their health; no colours on a table without LEDs."""
        if self._leds is None:
            return views.leds_view(None, None)
        return views.leds_view(self._leds.status(), self._leds.last_frame)

    def leds_at_rest(self) -> views.Leds:
        """The colours the LEDs settle on for the game as it is (`render.at_rest`): what a page previews, pushed
        when the game relights them (news "leds"); no colours on a table without LEDs, or before the first game."""
        return views.leds_preview(self._leds is not None, self._leds.at_rest() if self._leds is not None else None)

    def camera_status(self) -> views.CameraState:
        """The camera's health, frames a second and what the newest frame shows; only `configured: False` on a
        table without one."""
        return self._calibration.status()

    def camera_frames(self) -> int:
        """Frames the camera has read so far (0 on a table without one): a frame read after a chip moved has
        seen it."""
        return self._camera.frames if self._camera is not None else 0

    def camera_picture(self) -> bytes:
        """The newest frame with what vision made of it drawn over, as JPEG (`NoPicture` before the first)."""
        return self._calibration.picture()

    def mat_picture(self, rows: int, cols: int) -> bytes:
        """The newest frame straightened onto a grid of rows x cols spaces: the floor editor's backdrop."""
        return self._calibration.mat(rows, cols)

    def find_board(self) -> views.BoardFound:
        """Calibration, first step: the registration markers in the newest frame, and the grid they give."""
        return self._calibration.find()

    def finding_picture(self) -> bytes:
        """The last finding's picture: markers found and missing, the grid laid over, as JPEG."""
        return self._calibration.finding_picture()

    def confirm_board(self) -> views.BoardConfirmed:
        """Calibration, last step: keep the last finding's registration (a person saw its grid lie right), used
        whenever the markers are covered, at this start and every later one."""
        return self._calibration.confirm()

    def health(self) -> views.Health:
        """The supervisor's health, the game and the last change; during start-up (the web answers before the
        camera or the LED board has opened, seconds on a busy Pi) the status is "starting", whatever a part
        that already started says, and `waiting_for` names each part not yet started with its words."""
        body = self._supervisor.health()
        waiting = {c.name: c.message for c in self.components if c.health in (Health.STARTING, Health.STOPPED)}
        body["waiting_for"] = waiting if not self.ready else {}
        if not self.ready and body["status"] != "stopped":
            body["status"] = "starting"
        body["game"] = self._session.game_id
        body["number"] = self._session.number
        if self._buttons is not None:
            body["dice_entry"] = self._presses.dice.status()
        return msgspec.convert(body, views.Health)

    def table_view(self) -> views.TableView:
        """The table against the game: the camera's view, and a question for each door sensor that disagrees."""
        doors = self._doors.questions(self._session.state) if self._session.has_game() else ()
        return views.table_view(self._reconciler_view(), camera=self._camera is not None,
                                numbered=self._reconciler is not None, doors=doors)

    def _reconciler_view(self) -> ReconcilerView:
        return self._watcher.view

    def state_bytes(self) -> bytes:
        """The state as JSON text: the live feed encodes it once for all."""
        return msgspec.json.encode(self._session.state)

    def change_view(self, change: Change) -> views.ChangeView:
        """A change as the web and MQTT send it, with its events phrased for people."""
        return views.change_view(change, self._session.state if self._session.has_game() else None)

    # -- running --

    async def run(self, ready: Callable[[], None] | None = None) -> None:
        """Start every component, call `ready` once they have started, and run until `stop()`."""
        self._loop = asyncio.get_running_loop()
        self._stopped = asyncio.Event()
        if not self._session.has_game():
            await self._session.call(self.new_game)
        self._show(self._session.state)
        self._hear_parts()
        async with self._supervisor:
            await self._started()
            self.ready = True
            self._news.announce("health")
            if ready is not None:
                ready()
            try:
                await self._stopped.wait()
            finally:
                self.ready = False
                if "_hint_desk" in self.__dict__:  # its worker process ends with the table
                    await asyncio.to_thread(self._hint_desk.close)

    def stop(self) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._stopped.set)

    def listen(self, callback: Callable[[News], object]) -> Callable[[], None]:
        """Call `callback(news)` each time what the live feed shows may have changed: "change" (the session
        accepted a change), "health" (a component's health, the game log's among them, or the table became
        ready) or "table" (a camera frame left a different table view, or a door sensor said something new). It is
        called from the thread where the news happened (the writer's, the loop's, the camera's) and must only
        wake its reader; returns the function that stops the listening (controller/service/news.py)."""
        self._hear_parts()
        return self._news.listen(callback)

    def listen_frames(self, callback: Callable[[object], None]) -> None:
        """Call `callback` at each frame the camera reads, on the camera's thread, once the reconciler has taken
        it in (the demo's players wait for the camera to have seen a chip they moved); nothing on a table
        without a camera."""
        if self._camera is not None:
            self._camera.on_frame(callback)

    def report_door(self, door: str, is_open: bool) -> None:
        """A door sensor's report (the door by its two spaces, "C4-C5"), kept: a sensor that disagrees with the
        game asks a question in the table view, which is news only when the sensor says something new."""
        if self._doors.report(self._session.state, door, is_open):
            self._news.announce("table")

    def _hear_parts(self) -> None:
        self._news.hear(self._supervisor, self._camera, self._reconciler_view, self._reconciler)

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
        self._news.announce("change")
        if self._loop is None or not self._session.has_game():
            return
        if self._leds is not None:
            self._loop.call_soon_threadsafe(self._show, self._session.state)
        self._presses.sound(change, self._loop)

    def _show(self, state: GameState) -> None:
        """Show the game on the LEDs (on the loop's thread); news "leds" when it relit them."""
        if self._leds is not None and self._leds.show(state):
            self._news.announce("leds")

    def on_owner_press(self, lift: Callable[[], bool]) -> None:
        """Call `lift()` at a long press of "next" (outside dice entry): only someone at the table can press it,
        so it lifts what the network must not (the web's pause of PIN logins after too many wrong ones). When a
        lift lifted something (it returns True) the press does only that, with an "accepted" beep. `lift` runs
        on the session's writer, as the press does: it must not wait for a change of the game."""
        self._presses.on_owner_press(lift)

    @property
    def last_refusal(self) -> str | None:
        """What the rules said to the last button press they refused (None once a press is taken)."""
        return self._presses.last_refusal

    def press(self, name: str, held: bool = False) -> Future[None]:
        """A button press ("next", `held` for a long press, or "undo"): while the game waits for physical dice
        it types in their faces (DiceFromButtons); a long press of "next" while logins are paused lifts the
        pause (`on_owner_press`); else it steps the game on or back. A step the rules refuse
        changes nothing, and the refusal is kept for the dashboard (a button has no screen to say it on).
        The buttons call this on the event loop: the press is handed to the session's writer, behind every
        change handed over before it, and this returns at once; the future is done once the press is done."""
        return self._session.submit(self._presses.press, name, held)


    # -- hints for the players: the search thinks in the hint desk's worker process, never here --

    @functools.cached_property
    def _hint_desk(self) -> HintDesk:
        """The table's hint desk (controller/service/hints), made at the first question; it cancels a question
        when the game moves on."""
        return attach(HintDesk(), lambda: self._session.number, self.listen)

    def ask_hint(self, kind: HintKind) -> views.HintView:
        """Start (or join, or answer from the kept answers) `kind` ("hint": the best three actions; "threat":
        the threat overlay) for the game as it is now; returns at once. No game yet: the session's refusal."""
        return self._hint_desk.ask(kind, self.state_bytes(), self._session.number)

    def warm_hints(self) -> bool:
        """Start the hint desk's worker before the first question (a phone that may ask was unlocked)."""
        return self._hint_desk.warm()

    def hint_view(self, kind: HintKind) -> views.HintView:
        """How the last question of `kind` stands."""
        return self._hint_desk.view(kind)

    def cancel_hint(self, kind: HintKind) -> views.HintView:
        """Stop thinking about the last question of `kind`."""
        return self._hint_desk.cancel(kind)

    def listen_hints(self, callback: Callable[[views.HintView], object]) -> Callable[[], None]:
        """Call `callback` with a question's view as it changes (its progress, its answer), from the desk's
        thread."""
        return self._hint_desk.listen(callback)


def _short(value: Any) -> str:
    text = msgspec.json.encode(value).decode() if not isinstance(value, str) else value
    return text if len(text) <= 80 else text[:77] + "..."
