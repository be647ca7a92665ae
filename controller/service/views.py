"""What the table shows its faces: every answer of the service, as a typed view.

The web's routes, the live feed (web/hub.py) and the MQTT bridge send these and nothing else, encoded by
msgspec, so a page, a phone and a home-automation hub read one shape, and the web's OpenAPI schema is made
from these classes (web/contract.py): the schema cannot drift from what is sent. A field that only some
answers carry defaults to `UNSET` and is left out of the JSON when it is unset (the status before the first
game is only its `game` and `number`). The view builders here are the one place where the table's parts
are put into words and shapes for people (the options of a new game, the legal actions numbered, a change
with its events phrased, the floor laid out for drawing); the parts themselves know nothing of their faces.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any, Literal

import msgspec
from msgspec import UNSET, Struct, UnsetType

from controller.rules import AnyAction, GameState, compile_floor, phrase, security_sight
from controller.rules.events import AnyEvent
from controller.service.game.store import ChangeKind

if TYPE_CHECKING:
    from controller.leds.render import LogicalFrame
    from controller.rules import Floor, LegalAction
    from controller.rules.state import FloorState
    from controller.service.camera.component import SavedRegistration
    from controller.service.camera.reconciler_view import Misplaced, Place, Question, ReconcilerView
    from controller.service.game.store import Change
    from vision.board_finder import BoardFinding

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
# the posts of the floor format (docs/floor-format.md), named for people
POSTS = {"post1": "hallway post 1", "post2": "hallway post 2", "post3": "hallway post 3", "star": "reinforcement post",
         "postA": "room post A", "postB": "room post B", "captain": "captain's post", "module": "module post",
         "ghost": "ghost post"}


class View(Struct, kw_only=True):
    """A view: keyword-built, compared by value (the live feed pushes a view only when it differs)."""


# -- the game and its changes --

class DiceWanted(View, kw_only=True):
    die: str
    count: int
    faces: list[str]


class PendingDice(View, kw_only=True):
    """Dice the game waits for, rolled at the table (docs/http-api.md, dice requests)."""

    action: dict[str, Any]
    faces: list[str]
    message: str
    dice: list[DiceWanted]
    purpose: str


class Status(View, kw_only=True):
    """The game beside its state: its id and title, the last change, dice asked for, undo and redo. Before the
    first game only `game` (null) and `number`."""

    game: int | None
    title: str | UnsetType = UNSET
    number: int
    entries: int | UnsetType = UNSET
    can_undo: bool | UnsetType = UNSET
    can_redo: bool | UnsetType = UNSET
    dice_mode: Literal["virtual", "physical"] | UnsetType = UNSET
    pending_dice: PendingDice | None | UnsetType = UNSET
    digest: str | UnsetType = UNSET


class ChangeView(View, kw_only=True):
    """One accepted change of the table, numbered across the whole game log, with what it says to people
    (`instructions`). Which other fields it has depends on its kind: a new game its `title` and `dice_mode`, an
    action its log `entry` (the action, the dice and the events), undo and redo the `action`, a dice request
    what `status.pending_dice` shows."""

    number: int
    game: int
    kind: ChangeKind
    created: float
    title: str | UnsetType = UNSET
    dice_mode: Literal["virtual", "physical"] | UnsetType = UNSET
    imported: bool | UnsetType = UNSET
    entry: dict[str, Any] | UnsetType = UNSET
    action: dict[str, Any] | UnsetType = UNSET
    faces: list[str] | UnsetType = UNSET
    message: str | UnsetType = UNSET
    dice: list[DiceWanted] | UnsetType = UNSET
    purpose: str | UnsetType = UNSET
    given_for: list[str] | None | UnsetType = UNSET
    instructions: list[str] | UnsetType = UNSET


class Changed(View, kw_only=True):
    """The answer of every change the web asks for: the change as the live feed sends it."""

    change: ChangeView


class StateView(View, kw_only=True):
    status: Status
    state: GameState


class Changes(View, kw_only=True):
    """Every change after the one asked for (at most `limit`), the last one's number, and the session's."""

    changes: list[ChangeView]
    last: int
    number: int


class LegalList(View, kw_only=True):
    """The active player's legal actions, numbered: each is an action's fields (its `action` tag first) and its
    `index`; posted back as it is, with the fields its `choose` names filled in."""

    number: int
    actions: list[dict[str, Any]]


class DieKind(View, kw_only=True):
    kind: str
    die: str
    faces: list[str]


class DiceKinds(View, kw_only=True):
    dice: list[DieKind]


# -- a new game --

class SafeZoneOption(View, kw_only=True):
    """A floor's safe zone and its spaces in reading order: where a team that chooses its start may stand."""

    name: str
    spaces: list[str]


class FloorOption(View, kw_only=True):
    """A floor a game may start on: its own level (which an Adaptable mission's chosen level replaces) and its
    safe zones; a saved floor that no longer compiles has neither."""

    name: str
    title: str
    shipped: bool
    level: int | UnsetType = UNSET
    safe_zones: list[SafeZoneOption] = []


class MissionOption(View, kw_only=True):
    """A mission, and where its team chooses its start: `start_levels` are the levels (the first floor's own, or
    an Adaptable mission's chosen one) at which its bots start on safe zone spaces of the team's choice (the
    rules' `starts_in_safe_zones`); `places_module` says whether the players then place the command module too
    (the rules' `players_place_module`: not where the mission leaves it off the floor or places it itself)."""

    id: str
    name: str
    floors: int
    adaptable: bool
    start_levels: list[int]
    places_module: bool


class Named(View, kw_only=True):
    id: str
    name: str


class NewGameDefault(View, kw_only=True):
    floor: str
    mission: str
    agents: list[str]
    difficulty: str
    level: int | None
    captain: str | None
    start: dict[str, str] | None = None  # table.toml's game.start: bot id -> space, where the team chooses


class Facing(View, kw_only=True):
    letter: str
    word: str


class Options(View, kw_only=True):
    """What a new game may be: the floors (each with its level and safe zones), the missions (each saying at which
    levels the team chooses where it starts), the agents and the command module, difficulties, levels and
    captains; and the game's words the pages show and read: the compass directions a unit faces, and what each
    character of a drawn floor's space means, what people call each feature, the kinds of area and the reserve
    chips (docs/floor-format.md)."""

    floors: list[FloorOption]
    missions: list[MissionOption]
    agents: list[Named]
    module: Named  # the command module, the bot a mission may have the players place beside the agents
    difficulties: list[str]
    levels: list[int]
    captains: list[Named]
    default: NewGameDefault
    facings: list[Facing]
    features: dict[str, str | None]
    feature_words: dict[str, str]  # each feature as people call it: the floor editor's buttons
    area_kinds: list[str]          # a drawn floor's kinds of area (docs/floor-format.md)
    reserves: list[str]            # the reserve chips an area may hold


def floor_option(name: str, shipped: bool, floor: Floor | None) -> FloorOption:
    """A floor of the new game's form; `floor` compiled, or None for a saved file that no longer compiles."""
    if floor is None:
        return FloorOption(name=name, title=name, shipped=shipped)
    return FloorOption(name=name, title=floor.name, shipped=shipped, level=floor.level,
                       safe_zones=[SafeZoneOption(name=a.name, spaces=[floor.ids[s] for s in a.spaces])
                                   for a in floor.areas if a.kind == "safe"])


class GameListed(View, kw_only=True):
    id: int
    title: str
    created: float
    current: bool


class Games(View, kw_only=True):
    games: list[GameListed]


# -- past games --

class ThreatInRound(View, kw_only=True):
    round: int
    threat: int


class Summary(View, kw_only=True):
    """How a game went: its outcome, rounds and actions, and the threat after each action and each round."""

    game: int
    title: str
    outcome: dict[str, Any] | None
    rounds: int
    actions: int
    actions_by_kind: dict[str, int]
    start_threat: int
    threat_by_round: list[ThreatInRound]
    threat_by_action: list[int]
    round_by_action: list[int]


class ReplayEntry(View, kw_only=True):
    number: int
    kind: str
    action: dict[str, Any]
    faces: list[str]
    events: list[str]


class ReplayStep(View, kw_only=True):
    """A game's state after its first k actions, the k-th action with its events phrased, and its floor."""

    game: int
    title: str
    k: int
    entries: int
    round: int
    threat: int
    outcome: dict[str, Any] | None
    entry: ReplayEntry | None
    state: GameState
    floor: FloorView | UnsetType = UNSET


# -- the table against the game --

class Where(View, kw_only=True):
    space: str | None
    facing: str | None


class MisplacedView(View, kw_only=True):
    unit: str | None
    chip: str
    name: str
    seen: Where
    expected: Where
    text: str


class QuestionView(View, kw_only=True):
    id: str
    kind: Literal["route", "refused", "vision", "door"]
    unit: str | None
    text: str
    options: list[str]


class InstructionView(View, kw_only=True):
    unit: str
    text: str
    was: str | None = msgspec.field(name="from")
    space: str | None
    facing: str | None
    done: bool


class TableView(View, kw_only=True):
    """The table against the game: chips out of place, questions for the players, moves to carry out on the
    board; `number` is the change the camera's view reflects (absent on a table without a camera)."""

    number: int | UnsetType = UNSET
    misplaced: list[MisplacedView]
    questions: list[QuestionView]
    instructions: list[InstructionView]
    camera: bool


class Answered(View, kw_only=True):
    table: TableView


# -- health, LEDs, camera --

class ComponentHealth(View, kw_only=True):
    """One part's health, and what its kind says of how it keeps up (the camera's rates, MQTT's commands...)."""

    state: Literal["starting", "ok", "degraded", "failed", "stopped"]
    message: str
    last_error: str | None
    retries: int
    for_s: float
    reads_fps: float | UnsetType = UNSET
    camera_fps: float | UnsetType = UNSET
    skipped: int | UnsetType = UNSET
    searched: dict[str, int] | UnsetType = UNSET
    dropped: int | UnsetType = UNSET
    commands: dict[str, int] | UnsetType = UNSET
    games: int | UnsetType = UNSET
    results: list[Any] | UnsetType = UNSET
    steps_seen: int | UnsetType = UNSET
    unconfirmed: int | UnsetType = UNSET
    player: str | UnsetType = UNSET
    why: str | None | UnsetType = UNSET


class DiceEntry(View, kw_only=True):
    """The die being typed in on the table's buttons."""

    die: int
    of: int
    kind: str
    face: str
    taken: list[str]
    text: str


class Health(View, kw_only=True):
    """Every part's health in words a person at the table can act on, the game and the last change."""

    status: Literal["starting", "ok", "degraded", "stopped"]
    components: dict[str, ComponentHealth]
    waiting_for: dict[str, str]
    game: int | None
    number: int
    dice_entry: DiceEntry | None | UnsetType = UNSET

    def failed(self) -> bool:
        """A part has failed (the overall status is only "degraded" then) or nothing runs: a monitor's alarm."""
        return self.status == "stopped" or any(c.state == "failed" for c in self.components.values())

    def steady(self) -> Health:
        """This health without what changes all the time (the seconds in a state, the last change number): two
        healths that differ only there show the same."""
        parts = {name: msgspec.structs.replace(part, for_s=0.0) for name, part in self.components.items()}
        return msgspec.structs.replace(self, components=parts, number=0)


class Leds(View, kw_only=True):
    """The LEDs' colours now (#rrggbb): the threat track, the five burncycle slots, the status LED."""

    configured: bool
    threat: list[str]
    slots: list[str]
    status: str | None
    health: ComponentHealth | UnsetType = UNSET


class VisionStatus(View, kw_only=True):
    level: str
    code: str
    message: str


class Picture(View, kw_only=True):
    width: int
    height: int
    status: VisionStatus
    markers_seen: list[str]
    units_seen: int
    floor: str


class Confirmed(View, kw_only=True):
    floor: str
    rows: int
    cols: int
    markers: list[str]
    rms_mm: float
    saved_at: float
    in_use: bool


class CameraState(View, kw_only=True):
    """The camera: its health, frames a second, what the newest frame shows and the confirmed registration;
    only `configured: false` on a table without one."""

    configured: bool
    health: ComponentHealth | UnsetType = UNSET
    frames: int | UnsetType = UNSET
    fps: float | UnsetType = UNSET
    source: str | None | UnsetType = UNSET
    picture: Picture | None | UnsetType = UNSET
    confirmed: Confirmed | None | UnsetType = UNSET
    confirmed_problem: str | None | UnsetType = UNSET


class MarkerFound(View, kw_only=True):
    id: int
    name: str
    centre: list[float]


class MarkerMissing(View, kw_only=True):
    id: int
    name: str
    advice: str
    expected: list[float] | None


class BoardFound(View, kw_only=True):
    """Calibration's first step: the registration markers found and missing, the grid they give, the picture."""

    registered: bool
    status: VisionStatus
    rms_mm: float | None
    found: list[MarkerFound]
    missing: list[MarkerMissing]
    width: int
    height: int
    rows: int
    cols: int
    overlay: str


class BoardConfirmed(View, kw_only=True):
    saved: bool
    floor: str
    markers: list[str]
    rms_mm: float
    message: str


class Address(View, kw_only=True):
    """The page's address for phones at the table, and its QR code as a standalone SVG."""

    url: str
    qr_svg: str


# -- floors --

class FloorListed(View, kw_only=True):
    """A floor a game may start on; a saved file that no longer compiles says its `problem` instead."""

    name: str
    source: Literal["shipped", "saved"]
    title: str | UnsetType = UNSET
    level: int | UnsetType = UNSET
    cols: int | UnsetType = UNSET
    rows: int | UnsetType = UNSET
    problem: str | UnsetType = UNSET


class Floors(View, kw_only=True):
    floors: list[FloorListed]


class FloorFile(View, kw_only=True):
    name: str
    source: Literal["shipped", "saved"]
    text: str


class FloorChecked(View, kw_only=True):
    """What `validate` says of a floor's text; a floor that compiles with its size (`name` once saved)."""

    name: str | UnsetType = UNSET
    ok: bool
    message: str
    title: str | UnsetType = UNSET
    level: int | UnsetType = UNSET
    rows: int | UnsetType = UNSET
    cols: int | UnsetType = UNSET
    spaces: int | UnsetType = UNSET
    areas: int | UnsetType = UNSET
    doors: int | UnsetType = UNSET


class AreaNoteView(View, kw_only=True):
    """One line of a drawn floor's `areas:` section, by the space it is written at."""

    space: str
    kind: str
    name: str
    surveillance: int
    reserve: str | None


class FloorPlanView(View, kw_only=True):
    """A floor as drawn, in the format's own characters (the rules' `FloorPlan.drawn`): each row's space
    characters, each row's east and south edges ("wall", "door", "open") and the area notes."""

    name: str
    level: int
    rows: int
    cols: int
    spaces: list[list[str]]
    east: list[list[str]]
    south: list[list[str]]
    areas: list[AreaNoteView]


class FloorParsed(View, kw_only=True):
    """A floor's text read by the rules' own parser: its plan, or where and why it cannot be read (the
    message as `validate` words it)."""

    ok: bool
    floor: FloorPlanView | UnsetType = UNSET
    message: str | UnsetType = UNSET
    line: int | UnsetType = UNSET
    column: int | UnsetType = UNSET


class SpaceView(View, kw_only=True):
    id: str
    column: int
    row: int
    area: int
    feature: str | None


class AreaView(View, kw_only=True):
    index: int
    kind: str
    name: str
    surveillance: int
    surveilled: bool
    reserve: str | None
    spaces: list[str]


class Edge(View, kw_only=True):
    """A wall or a door, on one side (S or E; an outer wall any side) of one space."""

    id: str
    space: str
    side: str
    column: int
    row: int
    locked: bool | UnsetType = UNSET
    destroyed: bool | UnsetType = UNSET
    outer: bool | UnsetType = UNSET


class FloorTerminal(View, kw_only=True):
    space: str
    kind: str
    accessed: bool


class Cache(View, kw_only=True):
    space: str
    taken: bool


class Post(View, kw_only=True):
    space: str
    post: str
    text: str


class FloorView(View, kw_only=True):
    """The game's floor for drawing: every space on the mat's grid, its areas, edges and features, and what
    each security unit sees; `version` is a digest of what is drawn, the same wherever it is made (GET
    /api/floor, the live feed), so a page holding a floor knows whether it still holds this one; `number` is
    the change it reflects (GET /api/floor)."""

    name: str
    level: int
    rows: int
    columns: int
    spaces: list[SpaceView]
    areas: list[AreaView]
    walls: list[Edge]
    doors: list[Edge]
    terminals: list[FloorTerminal]
    caches: list[Cache]
    hiding_spots: list[str]
    safe_zones: list[str]
    posts: list[Post]
    entrances: list[str]
    sight: dict[str, list[str]]
    version: str | UnsetType = UNSET
    number: int | UnsetType = UNSET


# -- hints for the players (controller/service/hints: thought out in a worker process) --

HintKind = Literal["hint", "threat"]
HintStatus = Literal["idle", "thinking", "ready", "cancelled", "failed"]


class ThreatShare(msgspec.Struct, frozen=True, array_like=True):
    """One space's shade: the share of sampled corporation turns in which a guard stands on it, and in which a
    guard sees it (0 to 1)."""

    guard: float
    seen: float


class HintOption(View, kw_only=True):
    """One of a hint's actions as the page shows it: the action (as `GET /api/legal` lists it), what it does,
    its estimated chance to win with a 95% band over `futures` sampled futures, one sentence of why, and the
    space the board marks it on (where it goes, or where its bot stands)."""

    action: AnyAction
    text: str
    chance: float
    low: float
    high: float
    futures: int
    reason: str
    trouble: str | None = None
    space: str | None = None


class HintAnswer(View, kw_only=True):
    """The search's best actions (up to three, best first), the futures it played and its own seconds;
    `searched` is False when there was one sensible action only (controller/autoplay/search/hints.py's Hint)."""

    actions: list[HintOption]
    futures: int
    seconds: float
    searched: bool


class HintView(View, kw_only=True):
    """The desk's answer about one kind of question: what it is doing for the position of change `number`, how
    far it is (0 to 1), and, when ready, the hint or the threat overlay's shades by space."""

    kind: HintKind
    number: int = 0
    status: HintStatus = "idle"
    progress: float = 0.0
    budget: float = 0.0
    hint: HintAnswer | None = None
    threat: dict[str, ThreatShare] | None = None
    samples: int = 0
    seconds: float = 0.0  # how long the answer took, asked to answered
    message: str | None = None  # why it failed or was cancelled, in words


class HintsWarmed(View, kw_only=True):
    """Whether asking to warm the hints started their worker (False: it was running already)."""

    started: bool


# -- the builders --

def change_view(change: Change, state: GameState | None) -> ChangeView:
    """A change as the web and MQTT send it, with its events phrased for people (in `state`, the game now)."""
    view = ChangeView(number=change.number, game=change.game, kind=change.kind, created=round(change.created, 3),
                      **change.body)
    entry = change.body.get("entry")
    if entry is not None and state is not None:
        view.instructions = _phrased(entry.get("events", []), state)
    elif change.kind in CHANGE_WORDS:
        view.instructions = [CHANGE_WORDS[change.kind].format(**change.body)]
    return view


def _phrased(events: list[dict[str, Any]], state: GameState) -> list[str]:
    out = []
    for raw in events:
        try:
            out.append(phrase(msgspec.convert(raw, AnyEvent, strict=False), state))
        except (msgspec.ValidationError, KeyError, IndexError):
            out.append(str(raw.get("type", "event")))
    return out


def legal_list(number: int, actions: list[LegalAction]) -> LegalList:
    return LegalList(number=number, actions=[{"index": k, **msgspec.to_builtins(a)} for k, a in enumerate(actions)])


def _where(place: Place | None) -> Where:
    space, facing = place or (None, None)
    return Where(space=space, facing=facing)


def _misplaced(m: Misplaced) -> MisplacedView:
    return MisplacedView(unit=m.unit, chip=m.chip, name=m.name, seen=_where(m.seen), expected=_where(m.expected),
                         text=m.text)


def question_view(q: Question) -> QuestionView:
    return QuestionView(id=q.id, kind=q.kind, unit=q.unit, text=q.text, options=list(q.options))


def table_view(view: ReconcilerView, *, camera: bool, numbered: bool, doors: tuple[Question, ...] = ()) -> TableView:
    """The reconciler's view and the door sensors' questions; its change number only where a camera's reconciler
    watches (`numbered`)."""
    return TableView(number=view.number if numbered else UNSET, misplaced=[_misplaced(m) for m in view.misplaced],
                     questions=[question_view(q) for q in (*view.questions, *doors)],
                     instructions=[InstructionView(unit=i.unit, text=i.text, was=i.was and i.was[0],
                                                   space=i.place[0] if i.place else None,
                                                   facing=i.place[1] if i.place else None, done=i.done)
                                   for i in view.instructions],
                     camera=camera)


def _hex(colour: tuple[int, int, int]) -> str:
    red, green, blue = colour
    return f"#{red:02x}{green:02x}{blue:02x}"


def leds_view(health: dict[str, Any] | None, frame: LogicalFrame | None) -> Leds:
    """The LEDs' colours now; on a table without LEDs (or before their first frame) no colours."""
    if health is None or frame is None:
        return Leds(configured=health is not None, threat=[], slots=[], status=None)
    return Leds(configured=True, threat=[_hex(c) for c in frame.threat], slots=[_hex(c) for c in frame.slots],
                status=_hex(frame.status), health=msgspec.convert(health, ComponentHealth))


def leds_preview(configured: bool, frame: LogicalFrame | None) -> Leds:
    """The live feed's LEDs: the colours of a frame (the LEDs at rest), or none yet or on a table without LEDs."""
    if frame is None:
        return Leds(configured=configured, threat=[], slots=[], status=None)
    return Leds(configured=True, threat=[_hex(c) for c in frame.threat], slots=[_hex(c) for c in frame.slots],
                status=_hex(frame.status))


def _edges(floor: Floor, played: FloorState) -> tuple[list[Edge], list[Edge]]:
    """Walls (inner and outer) and doors, each on one side of one space, so the page draws a line there."""
    destroyed, unlocked = set(played.destroyed_walls), set(played.unlocked_doors)
    walls: list[Edge] = []
    doors: list[Edge] = []
    for (i, j), kind in sorted(floor.edges.items()):
        if kind == "open":
            continue
        (ri, ci), (rj, _) = floor.coords[i], floor.coords[j]
        side = "S" if rj > ri else "E"  # j is i's east or south neighbour (i < j)
        name = floor.edge_name[(i, j)]
        if kind == "door":
            doors.append(Edge(id=name, space=floor.ids[i], side=side, column=ci, row=ri, locked=name not in unlocked))
        else:
            walls.append(Edge(id=name, space=floor.ids[i], side=side, column=ci, row=ri, destroyed=name in destroyed))
    for name in sorted(floor.exterior_walls):
        space, side = name.split("/")
        row, column = floor.coords[floor.index[space]]
        walls.append(Edge(id=name, space=space, side=side, column=column, row=row, destroyed=name in destroyed,
                          outer=True))
    return walls, doors


def floor_view(state: GameState) -> FloorView:
    """The game's floor for drawing. The floor is compiled by the engine (`compile_floor`, cached per text), so
    the page draws exactly the walls, doors and areas the rules play on; what play changes on it and what each
    guard sees come from the state, so a phone only has to draw, never to know the rules."""
    return floor_layout(state.floor, security_sight(state))


def floor_layout(played: FloorState, sight: dict[str, list[str]]) -> FloorView:
    """A floor for drawing as play has left it (`played`: doors unlocked, walls destroyed, terminals accessed),
    with what each security unit sees; also a floor no game is on yet (`game_setup.floor_state`, nothing seen),
    which the new game's form draws to show where the team would start."""
    floor = compile_floor(played.text, played.name)
    walls, doors = _edges(floor, played)
    surveilled = set(played.surveillance)
    features: dict[str, list[str]] = {}
    for i, feature in enumerate(floor.feature):
        if feature:
            features.setdefault(feature, []).append(floor.ids[i])
    mainframes = features.get("mainframe", [])
    view = FloorView(
        name=played.name, level=played.level, rows=floor.rows, columns=floor.cols,
        spaces=[SpaceView(id=floor.ids[i], column=column, row=row, area=floor.area_of[i], feature=floor.feature[i])
                for i, (row, column) in enumerate(floor.coords)],
        areas=[AreaView(index=a.index, kind=a.kind, name=a.name, surveillance=a.surveillance,
                        surveilled=floor.ids[a.spaces[0]] in surveilled, reserve=a.reserve,
                        spaces=[floor.ids[s] for s in a.spaces]) for a in floor.areas],
        walls=walls, doors=doors,
        terminals=[FloorTerminal(space=s, accessed=s not in played.terminals,
                                 kind=played.terminals.get(s, "mainframe" if s in mainframes else "standard"))
                   for s in sorted(features.get("terminal", []) + mainframes)],
        caches=[Cache(space=s, taken=s not in played.caches) for s in features.get("cache", [])],
        hiding_spots=features.get("hiding", []),
        safe_zones=[floor.ids[s] for a in floor.areas if a.kind == "safe" for s in a.spaces],
        posts=[Post(space=s, post=p, text=text) for p, text in POSTS.items() for s in features.get(p, [])],
        entrances=features.get("entrance", []),
        sight=sight,
    )
    view.version = hashlib.blake2b(msgspec.json.encode(view), digest_size=8).hexdigest()
    return view



def board_found(finding: BoardFinding, names: dict[int, str], frame: int) -> BoardFound:
    """What the newest frame shows of the board (a finding knows only the markers' numbers: `names` names them),
    and the address of the picture of the frame it was found in (so a browser never shows an older finding's
    picture from its cache)."""
    reg = finding.registration
    return BoardFound(
        registered=finding.registered,
        status=VisionStatus(level=reg.status.level, code=reg.status.code, message=reg.status.message),
        rms_mm=round(reg.rms_mm, 2) if finding.registered else None,
        found=[MarkerFound(id=d.id, name=names[d.id], centre=[round(v, 1) for v in d.centre]) for d in finding.found],
        missing=[MarkerMissing(id=m.id, name=m.name, advice=m.advice,
                               expected=None if m.expected_px is None else [round(v, 1) for v in m.expected_px])
                 for m in finding.missing],
        width=finding.image_size[0], height=finding.image_size[1],
        rows=finding.layout.rows, cols=finding.layout.cols,
        overlay=f"/api/calibration/overlay.jpg?n={frame}")


def board_confirmed(saved: SavedRegistration) -> BoardConfirmed:
    return BoardConfirmed(saved=True, floor=saved.floor, markers=list(saved.anchors), rms_mm=round(saved.rms_mm, 2),
                          message=f"the grid of {saved.floor} is confirmed from {len(saved.anchors)} markers (they fit "
                                  f"it within {saved.rms_mm:.1f} mm); the table falls back on it whenever markers are "
                                  f"covered")


# -- the live feed (web/hub.py): what a page hears, one message at a time, its `type` first --

class Snapshot(View, kw_only=True, tag_field="type", tag="snapshot"):
    """The whole picture, sent when a page connects and when it fell behind (`state` and `floor` null before a
    game; `leds` the colours the LEDs settle on)."""

    number: int
    status: Status
    state: msgspec.Raw | None
    floor: FloorView | None
    table: TableView
    health: Health
    leds: Leds


class ChangeHeard(View, kw_only=True, tag_field="type", tag="change"):
    """One change, with the status and the state after it (the state of the newest change of its batch)."""

    number: int
    change: ChangeView
    status: Status
    state: msgspec.Raw | None


class TableHeard(View, kw_only=True, tag_field="type", tag="table"):
    """The table view, when it differs from the last one sent."""

    table: TableView


class HealthHeard(View, kw_only=True, tag_field="type", tag="health"):
    """The health, when it differs (beyond its seconds and change number) from the last one sent."""

    health: Health


class FloorHeard(View, kw_only=True, tag_field="type", tag="floor"):
    """The floor as drawn after change `number`, pushed right after the changes that changed it (a door, a wall,
    what the guards see), so no page fetches the floor after a change."""

    number: int
    floor: FloorView


class LedsHeard(View, kw_only=True, tag_field="type", tag="leds"):
    """The colours the LEDs settle on, when the game relit them (or the LEDs were unplugged)."""

    leds: Leds


class HintHeard(View, kw_only=True, tag_field="type", tag="hint"):
    """A hint's or the threat overlay's progress, or its answer, as it comes."""

    hint: HintView
