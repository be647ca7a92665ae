"""What a mission's own play answers for the auto-player, and the play of missions with nothing special.

The auto-player walks, opens doors, accesses terminals, repairs and reboots the same way on every mission;
where a mission asks for more (a task with its own spaces to walk to, an upgrade at a given moment, who pays
the fourth slot) it asks the mission's strategy. `StandardPlay` answers as for a mission with no special
play: nothing extra.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, cast

from controller.autoplay.abilities import passes_doors
from controller.autoplay.tuning import (
    CHIP_PREFERENCE,
    MODULE_REACH,
    MODULE_ZONE_DETOUR,
    REBOOT_AT,
    RESERVE_REBOOT,
    WATCH_REACH,
)
from controller.rules import (
    TERMINAL_SPACES,
    UNREACHABLE,
    Action,
    Area,
    Bot,
    Floor,
    GameState,
    Objective,
    Resolution,
    SecurityUnit,
    SeededDice,
    UnlockSlot,
    apply_effect,
    objective_applies,
    objective_done,
)

if TYPE_CHECKING:
    from controller.autoplay.notes import Notes
    from controller.autoplay.paths import PathCosts


class MissionStrategy(Protocol):
    """A mission's own play, asked by the auto-player at the points where missions differ. A question that
    needs the player's sense of the floor is given its `PathCosts` (the guards' sight, the team's safe zone,
    and through `paths.notes` the decision's memo and memory), nothing more of the player."""

    def alter_preference(self, state: GameState) -> tuple[str, ...]:
        """The order in which reserve chips replace degraded slots."""
        ...

    def upgrade(self, paths: PathCosts, table: Resolution, agent: Bot, legal: Sequence[Action]) -> Action | None:
        """An upgrade the mission's play buys in the route step, before the ones any mission buys."""
        ...

    def fourth_slot(self, table: Resolution, agent: Bot, cost: int) -> UnlockSlot | None:
        """Who pays the fourth slot on the first turn, the command module on the floor with power to spare
        (None: the slot waits)."""
        ...

    shared_slot_keep: int
    """The power each agent keeps when the agents share the fourth slot, no command module being on the floor
    to pay it (`agents_share_slot`)."""

    agents_escape_first: bool
    """Whether an agent escapes while the command module is still on the floor (another agent staying on)."""

    reboots_for_reserves: bool
    """Whether the team reboots a chip sooner (`reboot_at`) where a reboot fills the reserves: on floors whose
    chips come from nowhere else."""

    power_above_bank_counts: bool
    """Whether the network step (`network_step`) counts the agent's power above its power bank limit, which the
    end of the turn spends down."""

    kept_zone_by_team_dice: bool
    """Whether the team's safe zone, once chosen, is given up only for a door whose card is too strong for the
    team's strongest dice (not the active agent's)."""

    breaks_out: bool
    """Whether a bot shut in (no way to its target but through a wall) keeps the pool for a strike on the wall
    rather than roll a move that cannot cross it, and the command module shut in is not held by guards in the
    team's zone's doorways (`Routes.can_progress`, `Routes.doorway_held`)."""

    watch_reach: int | None
    """How far from a bot (in steps) a space some guard sees now weighs on its paths (`PathCosts.seen_near`);
    None: all the way."""

    module_zone_detour: int | None
    """How many steps farther than the team's safe zone another zone may lie for the command module a guard holds
    out of the team's to head for it (`PathCosts.module_safe_zone`); None: any distance."""

    module_crossing: int | None
    """How many steps from the team's safe zone the command module must stand, before the calibration, to walk
    before the agents in any round while no guard sees its way (`Routes.crosses_first`); None: in the first round
    only."""

    def zone_cost(self, table: Resolution, zone: int) -> int:
        """Path cost the mission's play adds to the floor's `zone`-th safe zone when the team chooses the one it
        gathers in (0: only the bots' ways there count)."""
        ...

    def task_targets(self, paths: PathCosts, table: Resolution, bot: Bot, open_tasks: list[Objective]) -> set[int]:
        """Where the mission's other tasks send the bot (empty: none of them needs it)."""
        ...

    def spare_agent(self, paths: PathCosts, table: Resolution, agent: Bot, terminal_tasks: list[Objective]) -> bool:
        """Whether the agent leaves the open terminal tasks to its team-mates (and goes where `task_targets`
        sends it)."""
        ...

    def action(self, table: Resolution, legal: list) -> Action | None:
        """An action the mission's play takes before accessing terminals, striking or moving."""
        ...

    def draws_chip(self, table: Resolution, legal: list) -> bool:
        """Whether a chip with nothing better to do draws a chip (for threat)."""
        ...

    def reboot_at(self, table: Resolution) -> int:
        """The usable chips left in the burncycle at which the team reboots before a turn."""
        ...

    def holds_access(self, table: Resolution, bot: Bot) -> bool:
        """Whether the bot, standing on a terminal it heads for, waits there instead of accessing it now."""
        ...

    def keypad_dice_unlock(self, table: Resolution) -> bool:
        """Whether a locked door whose card rolls keypad dice is never shut for the paths, a bot that can
        neither force nor pay it aborting keypad actions for the dice's unlock face (`Doors.open_door`)."""
        ...

    def walks_first(self, table: Resolution, bot: Bot) -> bool:
        """Whether the bot gets a move action's AP before the others (even before a bot in a guard's sight)."""
        ...

    def holds_target(self, paths: PathCosts, table: Resolution) -> bool:
        """Whether a bot at its target stays there rather than step out of a guard's reach."""
        ...

    def shove(self, paths: PathCosts, table: Resolution) -> tuple[SecurityUnit, int] | None:
        """A unit the bots push, one space at a time, toward a space (and that space's index)."""
        ...

    def owes_push_through_door(self, table: Resolution, bot: Bot) -> bool:
        """Whether the bot still owes a push of a unit through a door."""
        ...

    def holds_layers(self, state: GameState) -> bool:
        """Whether the network step keeps an IP on each of the team's layers (above threat, the IP's level)."""
        ...

    def core_layer(self, state: GameState) -> int:
        """How far in the network step steers the IP: 4 to land on the core now, 3 to wait next to it, 0 for
        nowhere in particular."""
        ...

    def start_spaces(self, table: Resolution) -> dict[str, str]:
        """Where the team's bots start, bot id -> space id, when the rules let the team choose; `table` is set
        up with every bot on the first free safe zone spaces in reading order (empty: keep that)."""
        ...


class StandardPlay:
    """A mission with no special play: the auto-player's own rules only."""

    shared_slot_keep = 3
    """Each agent keeps 3 power (its dice) when the agents share the fourth slot."""

    agents_escape_first = True
    """An agent on an entrance escapes as soon as another agent stays on with the module."""

    reboots_for_reserves = False
    """Reboots at REBOOT_AT usable chips, wherever the bots stand: the module fills the team's reserve."""

    watch_reach: int | None = WATCH_REACH
    """A guard's sight weighs on a path within WATCH_REACH steps of the bot."""

    kept_zone_by_team_dice = False
    """The team's zone is given up for a door whose card is too strong for the active agent's dice: judged by
    the team's dice, Data Heist on the lobby lost a game of issue 35's seeds (docs/autoplay.md, "The kept zone
    judged by the team's dice, again: seed 1185")."""

    breaks_out = False
    """A bot shut in rolls moves, slot after slot, though they cannot cross the wall: on the tower run's lobby
    Casing, shut in behind a jammed P14/Q14 with a pool that never breaks a wall, then drew network cards that
    held the threat down for good (seed 3260 unfinished; docs/autoplay.md, "The module shut in behind a jammed
    door")."""

    module_zone_detour: int | None = MODULE_ZONE_DETOUR
    """The module held out of the team's zone takes another only within MODULE_ZONE_DETOUR steps more."""

    module_crossing: int | None = None
    """The module walks before the agents in the first round only (`Routes.crosses_first`)."""

    power_above_bank_counts = True
    """The network step weighs all of the agent's power after it: capped at the bank limit, Data Heist lost a
    few games on each floor (docs/autoplay.md, "The tower run: power the end of the turn spends down")."""

    def alter_preference(self, state: GameState) -> tuple[str, ...]:
        return CHIP_PREFERENCE

    def upgrade(self, paths: PathCosts, table: Resolution, agent: Bot, legal: Sequence[Action]) -> Action | None:
        return None

    def fourth_slot(self, table: Resolution, agent: Bot, cost: int) -> UnlockSlot | None:
        """Three power from the module and one from an agent (two players or more); with one player the
        module crosses the floor beside the lone agent, where its power is its health, so the agent pays,
        keeping 3 for its dice, or the slot waits (docs/autoplay.md, "A fourth slot"). The agent's 1 is the
        active agent's, but on a floor of level 2 or more, whose guards hit for 2, it comes from the agent with
        the most power (Casing's 5, not Nano's 4, who goes first): Nano, who takes the calibration's terminals
        deep in the floor, keeps 4 for his dice and lives through a hit of 2 and one of 1 (docs/autoplay.md,
        "The fourth slot's agent power on the labs")."""
        state = table.state
        if state.players == 1:
            return UnlockSlot(payers={agent.id: cost}) if agent.power - cost >= 3 else None
        payer = agent
        if table.floor.level >= 2:
            payer = max((b for b in state.bots if b.kind == "agent" and b.on_board and not b.shut_down),
                        key=lambda b: (b.power, b.id == agent.id))
        return UnlockSlot(payers={"module": cost - 1, payer.id: 1})

    def zone_cost(self, table: Resolution, zone: int) -> int:
        return 0

    def task_targets(self, paths: PathCosts, table: Resolution, bot: Bot, open_tasks: list[Objective]) -> set[int]:
        return set()

    def spare_agent(self, paths: PathCosts, table: Resolution, agent: Bot, terminal_tasks: list[Objective]) -> bool:
        return False

    def action(self, table: Resolution, legal: list) -> Action | None:
        return None

    def draws_chip(self, table: Resolution, legal: list) -> bool:
        return False

    def reboot_at(self, table: Resolution) -> int:
        """REBOOT_AT; with RESERVE_REBOOT bots or more standing where a reboot now puts a chip in a reserve
        ("Reserves are created during burncycle creation and reboots from outdoor spaces and occupied rooms"),
        a chip sooner where the mission `reboots_for_reserves`: each such chip is altered in for a degraded
        slot, a turn more before the next reboot (docs/autoplay.md, "A reboot where the reserves fill")."""
        if self.reboots_for_reserves and reserve_chips(table) >= RESERVE_REBOOT:
            return REBOOT_AT + 1
        return REBOOT_AT

    def holds_access(self, table: Resolution, bot: Bot) -> bool:
        return False

    def keypad_dice_unlock(self, table: Resolution) -> bool:
        return False

    def walks_first(self, table: Resolution, bot: Bot) -> bool:
        return False

    def holds_target(self, paths: PathCosts, table: Resolution) -> bool:
        return False

    def shove(self, paths: PathCosts, table: Resolution) -> tuple[SecurityUnit, int] | None:
        return None

    def owes_push_through_door(self, table: Resolution, bot: Bot) -> bool:
        return False

    def holds_layers(self, state: GameState) -> bool:
        return False

    def core_layer(self, state: GameState) -> int:
        return 0

    def start_spaces(self, table: Resolution) -> dict[str, str]:
        """The reading-order placement: spreading the team was measured no better where the module is placed
        too (Preconnaissance, level 2: the module, alone in its zone, is shut down in round 2.5; docs/autoplay.md,
        "Where the team starts")."""
        return {}


def agents_share_slot(state: GameState, agent: Bot, cost: int, keep: int) -> UnlockSlot | None:
    """The slot paid by the agents on the floor, 1 from the active agent (the rules ask at least 1 of it or the
    module) and the rest from the agents with the most power first, each keeping `keep`; None when they cannot."""
    payers: dict[str, int] = {agent.id: 1}
    for bot in sorted((b for b in state.bots if b.kind == "agent" and b.on_board), key=lambda b: -b.power):
        share = min(cost - sum(payers.values()), bot.power - keep - payers.get(bot.id, 0))
        if share > 0:
            payers[bot.id] = payers.get(bot.id, 0) + share
    return UnlockSlot(payers=payers) if sum(payers.values()) == cost else None


def doors_out(floor: Floor, area: int) -> list[tuple[int, str]]:
    """The doors of an area (by its index), each with the space just outside it: walls and doors bound areas,
    so every door joins the area to another."""
    return [(v, door) for (u, v), door in floor.door_edges.items() if floor.area_of[u] == area]


def terminal_spaces(table: Resolution) -> set[int]:
    """The floor's terminal spaces (mainframes included)."""
    floor = table.floor
    return {s for kind in TERMINAL_SPACES for s in floor.posts.get(kind, ())}


def bead_rooms(table: Resolution, terminal: bool) -> set[int]:
    """The spaces of the rooms that still hold a surveillance bead ("Entering a room with a surveillance
    bead requires immediate surveillance"), only those with a free terminal space when `terminal`."""
    floor, beads = table.floor, set(table.state.floor.surveillance)
    terminals = terminal_spaces(table) if terminal else set()
    spaces: set[int] = set()
    for area in floor.areas:
        if area.kind != "room" or floor.ids[area.spaces[0]] not in beads:
            continue
        if terminal and not any(s in terminals and s not in table.occupant for s in area.spaces):
            continue
        spaces.update(area.spaces)
    return spaces


def reserve_chips(table: Resolution) -> int:
    """The chips a reboot now puts in the reserves: one for each bot on a room or outdoor segment whose
    infobar shows one."""
    floor = table.floor
    return sum(1 for b in table.state.bots if b.on_board and floor.area(floor.index[b.at]).reserve)


def module_near(table: Resolution, units: list[SecurityUnit]) -> bool:
    """The module within MODULE_REACH steps of one of the units ("Either the agent or the command module may
    strike an adjacent target")."""
    module = table.state.module_on_board()
    if module is None:
        return False
    here = table.floor.index[module.at]
    return any(table.distances()[here][table.floor.index[u.space]] <= MODULE_REACH for u in units)


def is_prey(table: Resolution, unit: SecurityUnit, task: str) -> bool:
    """The unit a `shut_down:*` win task asks for ("Shut down the captain", "a level 3 Ghost", "a guard while
    it occupies a terminal space")."""
    kind, _, what = task.partition(":")
    if kind != "shut_down":
        return False
    if what == "captain":
        return unit.rank == "captain"
    if what == "ghost":
        return unit.chip == "Ghost"
    return unit.rank == "guard" and table.floor.feature[table.floor.index[unit.space]] in TERMINAL_SPACES


def spread_start(table: Resolution) -> dict[str, str]:
    """The team spread over the safe zones, bot id -> space id: "each safe zone that has at least 1 bot
    occupying it will grant 1 action chip of the team's choice to the team's reserve". The zones are taken
    nearest first to a terminal space of a room that still holds a bead (any terminal space when none does),
    measured from the zone's doors; the bots that open locked doors with a keypad take the nearest zones first
    (Nano reassembles through a door, a keypad's "Jam" shuts the others in), each on the free space of its zone
    nearest a door (docs/autoplay.md, "Where the team starts")."""
    floor, D = table.floor, table.distances()
    zones = [a for a in floor.areas if a.kind == "safe"]
    bots = [b for b in table.state.bots if b.on_board and floor.in_safe_zone(floor.index[b.at])]
    if not zones or not bots:
        return {}
    targets = (terminal_spaces(table) & bead_rooms(table, terminal=True)) or terminal_spaces(table)
    doors = {z.index: [i for (i, j) in floor.door_edges if i in z.spaces and j not in z.spaces] for z in zones}

    def reach(zone: Area) -> int:
        return min((D[d][t] for d in doors[zone.index] for t in targets), default=UNREACHABLE)

    nearest = sorted(zones, key=lambda z: (reach(z), z.spaces[0]))
    openers = sorted(bots, key=lambda b: passes_doors(b))  # stable: the turn order among each kind
    start: dict[str, str] = {}
    taken: set[int] = set()
    for k, bot in enumerate(openers):
        zone = nearest[k % len(nearest)]
        free = [s for s in zone.spaces if s not in taken and table.occupant.get(s, bot) is bot]
        space = min(free, key=lambda s: (min((D[s][d] for d in doors[zone.index]), default=0), s))
        taken.add(space)
        start[bot.id] = floor.ids[space]
    return start


def module_calibrations(state: GameState) -> list[Objective]:
    """The calibrations that are the command module's own ("Command Module: ...") for this team."""
    return [o for o in state.mission.calibrations if o.qualifier == "module" and objective_applies(state, o)]


def module_errand(table: Resolution, notes: Notes) -> bool:
    """Whether an open calibration is the command module's own to do (worked out once a decision)."""
    if "module errand" not in notes.memo:
        notes.memo["module errand"] = any(not objective_done(table.state, table, o, False)
                                          for o in module_calibrations(table.state))
    return cast(bool, notes.memo["module errand"])


def floor_view(state: GameState) -> Resolution:
    """The state seen through the rules' table, to read only (no die is rolled through it)."""
    return Resolution(state, SeededDice(0), apply_effect, copy=False)


def unfinished_tasks(state: GameState, table: Resolution) -> set[str]:
    """The open tasks of the calibration (until it is done) and the win that apply to this team."""
    return {o.task for o in (*(() if state.calibrated else state.mission.calibrations), *state.mission.win)
            if objective_applies(state, o) and not objective_done(state, table, o, False)}


def on_terminal_spaces(table: Resolution) -> dict[str, bool]:
    """For each bot not escaped, whether it stands on a terminal space."""
    floor = table.floor
    return {b.id: b.on_board and floor.feature[floor.index[b.at]] in TERMINAL_SPACES
            for b in table.state.bots if not b.escaped}
