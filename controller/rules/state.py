"""The game state: one serializable value that holds everything on the table.

Every part of the table (LEDs, dashboard, MQTT, event log) reads this one shape. It is a tree of msgspec
Structs so it round-trips through JSON exactly and its JSON Schema comes for free; constraints such as
"power 0-10" live in the type annotations, so a state file that breaks them is rejected on load with the
field's path. Detection is not stored: "A bot whose awareness chip occupies its current space is
detected", so it is derived from the awareness chip and can never disagree with it.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta, Struct

from controller.rules.errors import StateError

Direction = Literal["N", "E", "S", "W"]
ChipKind = Literal["general", "physical", "tech", "utility", "captain"]
Difficulty = Literal["simplified", "standard", "seasoned"]
Upgrade = Literal["swap", "push", "repair"]  # the universal upgrades a bot buys with power
MAX_POWER = 10  # "Power serves as bot health ... holding up to 10 power": the absolute maximum
Power = Annotated[int, Meta(ge=0, le=MAX_POWER)]
Threat = Annotated[int, Meta(ge=0, le=26)]
NetLevel = Annotated[int, Meta(ge=1, le=6)]
FloorLevel = Annotated[int, Meta(ge=1, le=3)]
Players = Annotated[int, Meta(ge=1, le=4)]
# every number a file (content, a floor, a state) gives has a range, checked when it is read and before it is
# used: a number drives work (a count of chips, a loop), so one no game comes near is refused by line and field
MAX_TALLY = 1_000_000  # what a game counts as it goes (rounds, rolls, goals reached): far beyond any game
Tally = Annotated[int, Meta(ge=0, le=MAX_TALLY)]
Amount = Annotated[int, Meta(ge=-26, le=26)]  # an effect's step up or down a track (threat is 0 to 26)
Stat = Annotated[int, Meta(ge=0, le=12)]  # a unit's awareness or movement
AP = Annotated[int, Meta(ge=0, le=100)]  # action points rolled, spent or still to spend
Dice = Annotated[int, Meta(ge=0, le=50)]  # dice of one kind in a pool
Patrol = Literal["perimeter", "pace", "closest_bot", "teleport", "star", "stationary"]

# The state's schema version (`GameState.version`, `burncycle-table schema state`): raised when a field is
# renamed, removed or changes meaning; a state of a later version is refused on load rather than misread.
STATE_VERSION = 1


class Chip(Struct, forbid_unknown_fields=True):
    """An action chip in a burncycle slot."""

    kind: ChipKind
    degraded: bool = False


class Burncycle(Struct, forbid_unknown_fields=True):
    """Up to 5 slots; None is a slot without a peg (inactive)."""

    slots: list[Chip | None]
    tracker: Annotated[int, Meta(ge=0, le=4)] = 0
    team_reserve: list[ChipKind] = []
    personal_reserves: dict[str, list[ChipKind]] = {}

    def chip(self, slot: int) -> Chip:
        """The chip pegged in a slot (0-based), for rules that only reach a pegged slot (an error, not an
        assert, so that `python -O` keeps the check)."""
        chip = self.slots[slot]
        if chip is None:
            raise StateError(f"burncycle slot {slot + 1} holds no chip, where the rules need one")
        return chip


# -- agents' proprietary dice: the die an agent card may print, e.g. Casing's pressure die --
ProprietaryDie = Literal["pressure", "lift"]


class DiceUpgrade(Struct, forbid_unknown_fields=True):
    """One upgrade of an agent card's track: the power it costs and the die it adds to the pool."""

    cost: Annotated[int, Meta(ge=1, le=MAX_POWER)]
    die: Literal["advanced", "elite"]
# -- Inventory, equipment, mods and imperatives (feature: equipment) ---------------------------------------
EquipmentCategory = Literal["discard", "single_use", "counter", "breakable"]
EquipmentEffectKind = Literal["power", "threat", "ceo_level", "reserve_chip", "remove_ping", "ip_level", "key",
                              "clear_awareness", "pool_dice", "stun", "unlock_door", "bonus_move"]
ModEffectKind = Literal["move_ap", "strike_ap", "terminal_ap", "bank", "advanced_die", "elite_die", "ignore_shock",
                        "hand_limit"]
ImperativeGoal = Literal["terminals", "caches", "network_cards", "shut_down", "ip_level", "hidden"]
ImperativeFailure = Literal["none", "detected", "strike", "threat"]


class EquipmentEffect(Struct, forbid_unknown_fields=True):
    """What using an equipment card does, in the engine's small vocabulary (see docs/content.md)."""

    kind: EquipmentEffectKind
    amount: Annotated[int, Meta(ge=1, le=10)] = 1
    chip: Literal["physical", "tech", "utility"] | None = None  # for reserve_chip
    die: Literal["advanced", "elite"] | None = None  # for pool_dice
    amount_from_die: bool = False  # breakable cards: the equipment die's value is the amount


class EquipmentCard(Struct, forbid_unknown_fields=True):
    """An equipment card: "Discard: Trigger immediately when drawn, then discard. Single Use: Discard after
    using. Counter: Uses an equipment die showing charges or values. Breakable: Uses a die."
    """

    id: str
    name: str
    category: EquipmentCategory
    text: str
    effect: EquipmentEffect
    charges: Annotated[int, Meta(ge=0, le=6)] = 0  # counter cards: the value the equipment die starts on
    die: Annotated[int, Meta(ge=0, le=6)] | None = None  # in play: the counter's equipment die


class ModEffect(Struct, forbid_unknown_fields=True):
    kind: ModEffectKind
    amount: Annotated[int, Meta(ge=1, le=5)] = 1


class ModCard(Struct, forbid_unknown_fields=True):
    """A mod: "Obtained from terminals. Placed sideways as uninstalled (can be traded; discarding awards printed
    power)"; installed, its ongoing effect applies to its agent.
    """

    id: str
    name: str
    power: Power
    text: str
    effect: ModEffect


class ImperativeCard(Struct, forbid_unknown_fields=True):
    """An imperative: a goal the engine checks (`goal`, reaching `count`), the power it awards, and what fails
    it (`fail`, with `threshold` for threat). `base` is the agent's count of the goal when it was drawn."""

    id: str
    name: str
    text: str
    goal: ImperativeGoal
    count: Annotated[int, Meta(ge=1, le=10)] = 1
    reward: Annotated[int, Meta(ge=1, le=5)] = 1
    fail: ImperativeFailure = "none"
    threshold: Annotated[int, Meta(ge=1, le=26)] | None = None  # fail = "threat": fails when threat reaches it
    base: Tally = 0
    # imperatives kept through a floor change: the count reached on the floors before this one,
    # whose counters in `GameState.progress` were reset
    carried: Tally = 0


class Bot(Struct, forbid_unknown_fields=True):
    """An agent or the command module."""

    id: str
    kind: Literal["agent", "module"]
    name: str
    space: str | None
    power: Power
    bank: Power = MAX_POWER
    awareness: str | None = None  # where its awareness chip lies; None = off-board
    hidden: bool = False
    shut_down: bool = False
    escaped: bool = False
    keys: Annotated[int, Meta(ge=0, le=20)] = 0
    upgrades: list[Upgrade] = []
    advanced_dice: Annotated[int, Meta(ge=0, le=6)] = 0
    elite_dice: Annotated[int, Meta(ge=0, le=6)] = 0
    # -- special characters and agent-card dice upgrades --
    dice_track: list[DiceUpgrade] = []  # the agent card's upgrade track, bought left to right
    dice_bought: Annotated[int, Meta(ge=0, le=6)] = 0  # how many of the track's upgrades are activated
    disguise: GuardChip | None = None  # Interface: the guard chip worn as a disguise
    # inventory (feature: equipment): "Each bot has 2 inventory slots for equipment/mods"; Nano's innate mod
    # "does not take up an inventory slot"; abilities name the agent card's special rules (e.g. Nano's)
    equipment: list[EquipmentCard] = []
    mods: list[ModCard] = []  # uninstalled ("placed sideways")
    installed: list[ModCard] = []
    innate: ModCard | None = None
    imperative: ImperativeCard | None = None
    abilities: list[str] = []
    # -- agents' proprietary dice --
    proprietary_die: ProprietaryDie | None = None  # "only used when playing as an agent"

    @property
    def inventory(self) -> int:
        """Cards in the 2 inventory slots: equipment and mods, installed or not (the innate mod aside)."""
        return len(self.equipment) + len(self.mods) + len(self.installed)

    @property
    def detected(self) -> bool:
        return self.space is not None and self.awareness == self.space

    @property
    def on_board(self) -> bool:
        return self.space is not None and not self.escaped

    @property
    def at(self) -> str:
        """The space the bot stands on, for rules that only apply to a bot on the floor (an error, not an
        assert, so that `python -O` keeps the check)."""
        if self.space is None:
            raise StateError(f"{self.name} ({self.id}) is off the board here, where the rules need it on a space")
        return self.space


class SecurityUnit(Struct, forbid_unknown_fields=True):
    """A guard or the captain on the floor, with the stats printed on its chip or card."""

    id: str
    chip: str
    rank: Literal["guard", "captain"]
    level: Annotated[int, Meta(ge=1, le=3)]
    space: str
    facing: Direction
    awareness: Annotated[int, Meta(ge=0, le=12)]
    movement: Annotated[int, Meta(ge=0, le=12)]
    patrol: Patrol
    damage: Annotated[int, Meta(ge=0, le=10)]
    durability: Annotated[int, Meta(ge=1, le=99)]
    key: bool = False
    stunned: bool = False
    abilities: list[str] = []
    colour: str = ""  # the guard chip's colour, so the chip can go back to the bag (empty for the captain)


class GuardChip(Struct, forbid_unknown_fields=True):
    """A guard chip as printed: the stats a unit gets when it enters play."""

    name: str
    colour: str
    level: Annotated[int, Meta(ge=1, le=3)]
    awareness: Annotated[int, Meta(ge=0, le=12)]
    movement: Annotated[int, Meta(ge=0, le=12)]
    patrol: Patrol
    abilities: list[str] = []


class NetworkNode(Struct, forbid_unknown_fields=True):
    """A node of the network mat. `next` is the clockwise neighbour on the same layer."""

    id: str
    layer: Annotated[int, Meta(ge=1, le=4)]
    kind: Literal["node", "hub", "access", "core", "physical", "tech", "utility"]
    next: str | None = None
    outward: str | None = None  # white line toward the outer layer
    inward: str | None = None  # white line toward the inner layer
    agent: str | None = None  # the agent whose access point this is


class NetworkMat(Struct, forbid_unknown_fields=True):
    name: str
    nodes: list[NetworkNode]
    ping_supply: Annotated[int, Meta(ge=1, le=20)] = 6
    ping_die: list[str] = []
    start_pings: list[str] = []


class IP(Struct, forbid_unknown_fields=True):
    agent: str
    node: str | None  # None while banned
    level: NetLevel = 1
    banned: bool = False


class Ping(Struct, forbid_unknown_fields=True):
    id: str
    node: str


class Network(Struct, forbid_unknown_fields=True):
    mat: NetworkMat
    ips: list[IP] = []
    pings: list[Ping] = []
    ceo_level: NetLevel = 1


class Effect(Struct, forbid_unknown_fields=True):
    """What a threat event or escalation does, in the engine's small vocabulary."""

    kind: Literal["add_ping", "ceo_level", "spawn_guard", "guard_movement", "guard_awareness",
                  "ping_steps", "threat", "deactivate_slot"]
    amount: Amount = 1
    post: str | None = None  # for spawn_guard: "post1".."post3" or "star"


class ThreatEvent(Struct, forbid_unknown_fields=True):
    threshold: Annotated[int, Meta(ge=1, le=26)]
    text: str
    effect: Effect


class ThreatCard(Struct, forbid_unknown_fields=True):
    name: str
    events: list[ThreatEvent] = []
    escalations: list[ThreatEvent] = []


class GuardSlot(Struct, forbid_unknown_fields=True):
    """One entry of a captain's security detail: a guard colour and level, or the captain.
    An entry with neither (`{}` in the file) is a post left empty."""

    colour: str = ""
    level: Annotated[int, Meta(ge=1, le=3)] | None = None
    key: bool = False
    captain: bool = False


class CaptainCard(Struct, forbid_unknown_fields=True):
    name: str
    durability: Annotated[int, Meta(ge=1, le=99)]
    damage: Annotated[int, Meta(ge=0, le=10)] = 3
    awareness: Stat = 4
    movement: Stat = 3
    patrol: Patrol = "closest_bot"
    abilities: list[str] = []
    burncycle_action: str = ""
    chip_effect: Effect | None = None  # executed when the tracker reaches the captain chip
    security_detail: list[list[GuardSlot | None]] = []  # rows = floor level 1..3, columns = posts 1..3
    text: str = ""


class Objective(Struct, forbid_unknown_fields=True):
    """A mission task with its qualifier, as printed; `team` is the minimum team level it applies to."""

    text: str
    qualifier: Literal["one", "two", "any", "each", "all_simultaneously", "module"] = "one"
    team: Annotated[int, Meta(ge=1, le=4)] = 1
    task: str = ""


class MissionSetup(Struct, forbid_unknown_fields=True):
    active_slots: Annotated[int, Meta(ge=1, le=5)] | None = None
    captain_post: str | None = None  # "post3", "captain", ...
    start_threat: Threat = 0
    safe_zone_start: bool = False
    command_module: bool = True
    captain_replacement_level: FloorLevel | None = None
    extra_units: list[str] = []  # guard chips placed on ghost spaces, by name
    module_start: Literal["hiding_furthest_from_captain"] | None = None
    free_push: bool = False  # "Using push does not require the additional AP."
    agents_push: bool = False  # "All agents start with the push ability at no cost."
    # Adaptable missions: Rescue Rangers' draw bag, filled "After all other setup"
    bag_captain: bool = False  # "place the captain in the draw bag"
    bag_guard_levels: list[Annotated[int, Meta(ge=0, le=99)]] = []  # guards' levels add up to these, for teams 1-4


class MissionRules(Struct, forbid_unknown_fields=True):
    """The mission special rules the engine applies, as data (the printed text is in `special_rules`)."""

    # Preconnaissance: +N when a non-safe-zone door is unlocked or a wall destroyed, -N when locked
    door_threat: Threat = 0
    chip_for_access: bool = False  # TSM-103C: a chip of the bot's choice after a cache or a terminal
    chip_for_threat: Threat = 0  # TSM-103C: a general action that advances threat by N for a chip of choice
    ghost_stuns: bool = False  # Ghost in the Dell: IPs on the team's layers stun the Ghosts and the captain
    end_on_calibration: bool = False  # "Ignore Mission Special Rules for the remainder of the mission."
    calibration_bans_ips: bool = False  # "All IPs are immediately banned from the network."
    # Adaptable missions
    bag_on_surveil: bool = False  # Rescue Rangers: a unit from the draw bag onto a terminal before surveilling
    resurveil_at_round_end: bool = False  # Rescue Rangers: unoccupied surveilled rooms get their bead back
    calibration_bags_module: bool = False  # Rescue Rangers' result: the command module into the draw bag
    drain_while_module_bagged: Power = 0  # Rescue Rangers' result: power each agent loses at the start of a turn
    hop: bool = False  # Preconnaissance: the hop into cyberspace
    calibration_evicts_safe_zones: bool = False  # Do-While-End: out of safe zones (-1 power), and kept out
    # Do-While-End: security units' durability on terminal spaces
    calibration_terminal_durability: Annotated[int, Meta(ge=0, le=99)] = 0


class BagUnit(Struct, forbid_unknown_fields=True):
    """A unit chip in Rescue Rangers' draw bag: the captain, the command module or a guard chip."""

    unit: Literal["captain", "module", "guard"]
    guard: GuardChip | None = None


class MissionFloor(Struct, forbid_unknown_fields=True):
    """One floor of a mission that climbs the tower: the shipped floor it is played on (for every floor but
    the first, which the players choose) and the floor objectives to complete before changing floors."""

    floor: str = ""
    objectives: list[Objective] = []


class Mission(Struct, forbid_unknown_fields=True):
    id: str
    name: str
    floors: FloorLevel = 1
    complexity: Annotated[int, Meta(ge=1, le=5)] = 1
    adaptable: bool = False
    setup: MissionSetup = msgspec.field(default_factory=MissionSetup)
    special_rules: list[str] = []
    calibration_name: str = ""
    calibrations: list[Objective] = []
    calibration_result: str = ""
    win_name: str = ""
    win: list[Objective] = []
    no_reboot: bool = False
    rules: MissionRules = msgspec.field(default_factory=MissionRules)
    # changing floors: one entry per floor when the mission has more than one; the last floor's tasks are
    # the calibrations and the win condition above
    floor_plan: list[MissionFloor] = []

    def rule(self, calibrated: bool) -> MissionRules:
        """The special rules in force now (none once calibrated, where the mission says so)."""
        if calibrated and self.rules.end_on_calibration:
            return MissionRules()
        return self.rules


class FloorState(Struct, forbid_unknown_fields=True):
    """The floor as drawn (its text) and what play has changed on it."""

    name: str
    level: FloorLevel
    text: str
    unlocked_doors: list[str] = []
    destroyed_walls: list[str] = []
    terminals: dict[str, Literal["standard", "mainframe"]] = {}
    caches: list[str] = []
    surveillance: list[str] = []  # anchor spaces of rooms that still hold a surveillance bead


class DicePool(Struct, forbid_unknown_fields=True):
    """Action dice still in the active player's pool this turn ("Rolled dice return to the supply")."""

    basic: Dice = 0
    advanced: Dice = 0
    elite: Dice = 0
    # -- agents' proprietary dice: the agent's own die, in the pool of its turn until rolled --
    proprietary: Annotated[int, Meta(ge=0, le=1)] = 0


class PendingMove(Struct, forbid_unknown_fields=True):
    """A move action under way: the AP rolled (plus the optimized bonus) not yet spent on steps; `agent_ap`
    is kept apart because the command module cannot spend it."""

    ap: AP
    optimized: bool = False
    steps: dict[str, AP] = {}  # spaces each bot moved in this action
    # -- agents' proprietary dice: AP of a die that modifies agent movement (Casing's pressure
    # die), which only the agent may spend
    agent_ap: AP = 0


KeypadInput = Literal["physical", "tech", "utility", "alarm", "ping", "shock"]


class KeypadColumn(Struct, forbid_unknown_fields=True):
    """One floor's column of a keypad card: printed inputs, keypad-die icons, Jam, brute force durability."""

    inputs: list[KeypadInput] = []
    dice: Annotated[int, Meta(ge=0, le=6)] = 0  # keypad die icons: roll the keypad die once per icon
    jam: bool = False  # "Unless the column states \"Jam\", a bot may attempt to force the door"
    durability: Annotated[int, Meta(ge=0, le=99)] = 4  # brute force: 4 / 6 / 8 AP by floor level


class KeypadCard(Struct, forbid_unknown_fields=True):
    """A keypad card: one column per floor level 1-3 ("The column used corresponds to the current floor")."""

    id: str
    columns: list[KeypadColumn]  # index 0 = floor 1


TerminalEffectKind = Literal["power", "threat", "unlock_door", "ceo_level", "reserve_chip", "remove_ping",
                             "ip_level", "key", "clear_awareness", "mod"]


class TerminalEffect(Struct, forbid_unknown_fields=True):
    kind: TerminalEffectKind
    amount: Annotated[int, Meta(ge=1, le=10)] = 1
    chip: Literal["physical", "tech", "utility"] | None = None  # for reserve_chip


class TerminalOption(Struct, forbid_unknown_fields=True):
    ap: Annotated[int, Meta(ge=0, le=30)]  # the AP requirement (0 on a mainframe terminal)
    text: str
    effect: TerminalEffect


TERMINAL_OPTIONS = 3  # "which presents 3 distinct options"


class TerminalCard(Struct, forbid_unknown_fields=True):
    """A terminal card: "3 distinct options, each detailing an AP requirement and an effect"."""

    id: str
    name: str
    options: list[TerminalOption]


class NetworkCard(Struct, forbid_unknown_fields=True):
    """A network card: resolved in the network step when its condition holds ("complete" it)."""

    id: str
    name: str
    text: str
    effect: Literal["threat", "power", "ip_level", "ceo_level", "remove_ping", "ip_inward"]
    condition: Literal["none", "ip_on_layer_2", "ip_on_layer_3", "ip_on_hub", "ip_level_3"] = "none"
    amount: Annotated[int, Meta(ge=1, le=5)] = 1


TurnStep = Literal["route", "actions", "network", "end", "corporation"]


class LaterFloor(Struct, forbid_unknown_fields=True):
    """A floor the mission climbs to later: its file's text and name."""

    name: str
    text: str


class TurnState(Struct, forbid_unknown_fields=True):
    """Whose turn it is and how far it has gone.

    Steps: "route" (step 1, power routing), "actions" (step 3, along the burncycle; the pool of step 2 is
    built on entering it), "network" (step 4), "end" (step 5: degrade, power limit), then "corporation"
    after the player who holds the corporation marker.
    """

    order: list[str]  # agent ids in turn order, first player first
    marker: str  # the agent holding the corporation marker: the corporation turn follows theirs
    active: Annotated[int, Meta(ge=0, le=8)] = 0  # index into order
    step: TurnStep = "route"
    pool: DicePool = msgspec.field(default_factory=DicePool)
    pending: PendingMove | None = None
    acted: bool = False  # an action-step action was taken this turn (a reboot must come before any)
    extra_action: bool = False  # an optimized network card action grants one more, unoptimized, on this chip
    # -- free actions after the degrade --
    degraded: bool = False  # step 5's burncycle die has been rolled (Degrade): free actions, then EndTurn

    def move(self) -> PendingMove:
        """The move action under way, for the steps of a move (an error, not an assert, when there is none)."""
        if self.pending is None:
            raise StateError("no move action is under way, where the rules need one")
        return self.pending


class RuleOptions(Struct, forbid_unknown_fields=True):
    """Readings of rules the text leaves open (docs/rules-interpretations.md); defaults are the chosen ones."""

    peripheral: Literal["cross", "diamond"] = "cross"
    investigate: Literal["floor", "area"] = "floor"


class Drone(Struct, forbid_unknown_fields=True):
    """Joan, Memory's drone: "Joan is not a bot and does not trigger guard awareness. She has two states:
    charged and depleted." Memory's player moves her and uses her abilities."""

    space: str
    charged: bool = True


OutcomeCause = Literal["mission_won", "threat_maxed", "module_shut_down", "module_abandoned"]


class Outcome(Struct, frozen=True, forbid_unknown_fields=True):
    """How a game ended, for programs (`result`, `cause`) and for people (`text`): a victory names the
    mission's win ("Clean Exit"), a defeat the rule that ended it ("threat reached 26"). `str()` gives the
    phrase shown at the table, "victory: Clean Exit"."""

    result: Literal["victory", "defeat"]
    cause: OutcomeCause
    text: str

    def __str__(self) -> str:
        return f"{self.result}: {self.text}"

    @property
    def won(self) -> bool:
        return self.result == "victory"


class GameState(Struct, forbid_unknown_fields=True, kw_only=True):
    """A game between two actions. Keyword-only, so that required fields (the players' turn) may stand beside
    the ones with defaults in the order the JSON has always had."""

    floor: FloorState
    bots: list[Bot]
    security: list[SecurityUnit]
    network: Network
    threat: Threat
    threat_card: ThreatCard
    burncycle: Burncycle
    players: Players
    difficulty: Difficulty
    captain: CaptainCard
    mission: Mission
    guard_bag: list[GuardChip] = []  # guard chips not in play, drawn when a guard spawns
    fired_events: list[Threat] = []
    round: Annotated[int, Meta(ge=1, le=MAX_TALLY)] = 1
    outcome: Outcome | None = None  # None while the game goes on
    seed: Annotated[int, Meta(ge=-(2**63), le=2**63 - 1)] = 0  # any 64-bit seed
    rolls: Tally = 0  # dice rolled so far with the game's seeded dice
    next_unit: Annotated[int, Meta(ge=1, le=MAX_TALLY)] = 1  # number for the next guard that enters play
    rules: RuleOptions = msgspec.field(default_factory=RuleOptions)
    turn: TurnState  # every game has one from its setup on; a state written before turns existed does not load
    module_slot_costs: list[Power] = []  # power to unlock the last slots, in order
    # decks of the players' turn: undrawn cards, cards placed by doors (door edge -> card), discards
    keypad_deck: list[KeypadCard] = []
    keypads: dict[str, KeypadCard] = {}
    keypad_discard: list[KeypadCard] = []
    network_deck: list[NetworkCard] = []
    network_discard: list[NetworkCard] = []
    network_hands: dict[str, list[NetworkCard]] = {}  # agent id -> cards drawn this turn
    terminal_deck: list[TerminalCard] = []
    terminal_discard: list[TerminalCard] = []
    # what the mission's objectives count, e.g. "terminals:byte" -> 2, "shut_down:captain" -> 1
    progress: dict[str, Tally] = {}
    calibrated: bool = False  # the mission's calibrations are complete
    # changing floors: which floor of the mission's floor plan this is (1 = the first), and the floors still
    # to play, as drawn, so the engine can set them up without reading files
    floor_number: Annotated[int, Meta(ge=1, le=3)] = 1
    later_floors: list[LaterFloor] = []
    # -- special characters --
    joan: Drone | None = None  # Memory's drone, on the floor while Memory is in the team
    # Adaptable missions
    draw_bag: list[BagUnit] = []  # Rescue Rangers: units waiting to be drawn onto terminals
    captain_start: str | None = None  # where the captain was placed at setup (Ghost in the Dell's calibration)
    objective_beads: list[str] = []  # Preconnaissance: command module spaces already used
    # decks of equipment, mods and imperatives (feature: equipment): undrawn cards and discards
    equipment_deck: list[EquipmentCard] = []
    equipment_discard: list[EquipmentCard] = []
    mod_deck: list[ModCard] = []
    mod_discard: list[ModCard] = []
    imperative_deck: list[ImperativeCard] = []
    imperative_discard: list[ImperativeCard] = []
    version: Annotated[int, Meta(ge=1, le=MAX_TALLY)] = STATE_VERSION

    def __post_init__(self) -> None:
        if self.version > STATE_VERSION:
            # msgspec reports this as a ValidationError, like any other field that breaks its type
            raise ValueError(f"this state is version {self.version}, written by a later release; this engine reads "
                             f"version {STATE_VERSION} and older")

    def bot(self, bot_id: str) -> Bot:
        for b in self.bots:
            if b.id == bot_id:
                return b
        raise KeyError(bot_id)

    def module_on_board(self) -> Bot | None:
        """The command module when it stands on the floor (not in Rescue Rangers' draw bag, not escaped)."""
        return next((b for b in self.bots if b.kind == "module" and b.on_board), None)

    def unit(self, unit_id: str) -> SecurityUnit:
        for u in self.security:
            if u.id == unit_id:
                return u
        raise KeyError(unit_id)


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(GameState)


def encode_state(state: GameState) -> bytes:
    return _encoder.encode(state)


def decode_state(data: bytes | str) -> GameState:
    """Decode and type-check a state; raises msgspec.ValidationError with the field's path."""
    return _decoder.decode(data)


def copy_state(state: GameState) -> GameState:
    """A deep copy, so the engine never changes the state it was given."""
    return _decoder.decode(_encoder.encode(state))


def describe_validation_error(error: msgspec.ValidationError) -> tuple[str, str]:
    """(field path, message) from msgspec's "Expected `int` <= 26 - at `$.threat`": ("threat", "expected ...")."""
    message, _, where = str(error).partition(" - at `")
    where = where.rstrip("`").removeprefix("$").removeprefix(".")
    return where, message[:1].lower() + message[1:]
