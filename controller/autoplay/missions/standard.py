"""The missions the auto-player plays with its own rules only (Data Heist), and the tower run's climb."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, cast

from controller.autoplay.abilities import passes_doors
from controller.autoplay.forcing import agent_dice, forces
from controller.autoplay.missions.strategy import StandardPlay, bead_rooms, doors_out
from controller.autoplay.tuning import MODULE_CROSSING, TOWER_HANDOVER_SLACK, TOWER_ZONE_WEIGHT
from controller.rules import Bot, Floor, Objective, Resolution, compile_floor, keypad_column

if TYPE_CHECKING:
    from controller.autoplay.paths import PathCosts


class DataHeist(StandardPlay):
    """Data Heist: terminals, then a safe zone; the auto-player's rules were measured on it first."""

    module_crossing: int | None = MODULE_CROSSING
    """The module more than MODULE_CROSSING steps from the team's safe zone walks before the agents in any round
    before the calibration while no guard sees its way: the lobby's team, having given its West zone up for a
    door whose card states "Jam", gathers in the East zone some 20 steps from the module (docs/autoplay.md, "The
    module across the lobby first")."""


class TowerRun(StandardPlay):
    """The tower run: each floor's objectives (terminals), then up the stairwells, then the last floor's
    calibration and the escape. The k-th safe zone of a floor leads to the k-th of the next ("placing
    returning units in corresponding safe zones"), so the team gathers in the zone whose stairwell comes out
    nearest the next floor's work (docs/autoplay.md, "The tower run")."""

    agents_escape_first = False
    """An agent waits on its entrance until the module has escaped: only the agents' move AP walk the module,
    and an agent out first (the one the last terminal was left to, waiting there) left the module and the other
    agent one pool of dice (docs/autoplay.md, "The tower run")."""

    reboots_for_reserves = True
    """Spare chips come only from the rooms the bots stand in at a reboot (the stairwell zones show none): the
    agents stand in such rooms at the floors' terminals (the lobby's Server room, most of the labs' rooms), so
    the team reboots a chip sooner there (docs/autoplay.md, "The tower run", "A reboot where the reserves
    fill")."""

    power_above_bank_counts = False
    """The network step weighs the agent's power only up to its power bank limit ("Agents must spend down to
    their power bank limit at the end of step 5"): on the tower's lobby the agent home in the stairwell zone
    waits at its bank for rounds while Nano walks home, and a hub's or a card's power chosen there over a point of
    threat off was spent down at the end of the turn; the threat goes on to the labs, where the arrival's threat
    decides the game (docs/autoplay.md, "The tower run: power the end of the turn spends down")."""

    watch_reach: int | None = None
    """A guard's sight weighs on the whole path, not only within WATCH_REACH steps of the bot: the tower's
    bots walk home through the lobby's patrolled hallways (13 steps from the server room, two ways) and up
    onto a level 2 floor, and the nearer reach that Data Heist wins with lost the tower run games
    (docs/autoplay.md, "The tower run": seeds 3000-3999, wins of 1000)."""

    module_zone_detour: int | None = None
    """The module held out of the team's zone takes another at any distance: with Data Heist's limit
    (MODULE_ZONE_DETOUR) the tower run won 167 games of 1000 against 169 (seeds 3000-3999; docs/autoplay.md,
    "The module held across the lobby")."""

    def task_targets(self, paths: PathCosts, table: Resolution, bot: Bot, open_tasks: list[Objective]) -> set[int]:
        """On the last floor the command module walks to an entrance from the start, while the agents access
        the calibration's terminals: it escapes first ("the command module before the last agent"), and only
        the agents' move AP walk it, so waiting in the safe zone until the calibration left it far from the way
        out when the threat was nearly spent. An agent the last terminal is left to a team-mate from
        (`spare_agent`) walks to an entrance too. On a floor the team climbs from, a bot home in the team's
        stairwell zone walks to the space of it that lands nearest its work on the next floor
        (`landing_targets`): standing where they came in (the lobby's Q3/Q4, landing on A6/A7), the module and
        Casing walked 3-4 steps more on the labs to their door E6/F6 (docs/autoplay.md, "The tower run: where the
        team lands")."""
        if table.state.later_floors:
            return landing_targets(paths, table, bot)
        if not open_tasks:
            return set()
        return set(table.floor.posts.get("entrance", ()))

    def spare_agent(self, paths: PathCosts, table: Resolution, agent: Bot, terminal_tasks: list[Objective]) -> bool:
        """On the last floor, with one terminal access left for the calibration, one agent takes it (every
        terminal left is its to choose from: the spare agent claims none) and the other walks to an entrance
        for the escape: the agent nearest a terminal, but Nano (who reassembles through locked doors) when the
        terminal nearest Casing lies in a room that still holds a surveillance bead and Nano is at most
        TOWER_HANDOVER_SLACK steps farther from it. Entering that room rolls its
        surveillance, whose autolock shut Casing in behind the labs' level 2 keypads (the Break room, K5, seeds
        3055 and 3059) while the threat ran out (docs/autoplay.md, "The tower run"). Nano takes it at any
        distance once a card Casing cannot force is drawn by a door of her terminal's room (`shut_out`)."""
        memo = paths.notes.memo
        if "last terminal's taker" not in memo:
            memo["last terminal's taker"] = self._last_terminal_taker(paths, table, terminal_tasks)
        taker = cast("Bot | None", memo["last terminal's taker"])
        return taker is not None and agent is not taker

    @staticmethod
    def _last_terminal_taker(paths: PathCosts, table: Resolution, terminal_tasks: list[Objective]) -> Bot | None:
        """The agent that takes the last terminal access (`spare_agent`), worked out once a decision; None
        while the rule does not apply."""
        state = table.state
        if state.later_floors or len(terminal_tasks) != 1 or terminal_tasks[0].qualifier == "each":
            return None
        done = sum(v for k, v in state.progress.items() if k.startswith("terminals:"))
        need = int(terminal_tasks[0].task.partition(":")[2] or 1) - done
        terminals = {table.floor.index[s] for s in state.floor.terminals}
        agents = [b for b in state.bots if b.kind == "agent" and b.on_board and not b.shut_down]
        if need != 1 or not terminals or not agents:
            return None
        beads = bead_rooms(table, terminal=True)

        def handed_over(bot: Bot) -> bool:
            """A keypad agent whose terminal Nano, near enough, takes instead, or at any distance when a keypad
            card by the terminal's room turned the agent away."""
            if passes_doors(bot) or not any(passes_doors(b) for b in agents):
                return False
            mine = paths.nearest(table, bot, terminals)
            if shut_out(table, bot, mine):
                return True
            return mine in beads and any(
                passes_doors(b) and paths.cost_to(table, b, mine) <= paths.cost_to(table, bot, mine)
                + TOWER_HANDOVER_SLACK for b in agents)

        return min(agents, key=lambda b: (handed_over(b), min(paths.cost_to(table, b, t) for t in terminals), b.id))

    def keypad_dice_unlock(self, table: Resolution) -> bool:
        """After the last floor's calibration, while an agent that opens keypads is locked in a room (the
        Break room's autolock, "Lock all doors leading into this room", rolled as it came in for the last
        terminal), a card that rolls keypad dice is never shut for the paths and the agent aborts keypad
        actions for their unlock face on its way to an entrance: its dice seldom force the labs' 6 AP, and it
        stood there while the threat ran out (docs/autoplay.md, "The tower run: the keypad dice at the last
        terminal's door")."""
        state = table.state
        return state.calibrated and not state.later_floors and any(
            _locked_in(table, b) for b in state.bots
            if b.kind == "agent" and b.on_board and not b.shut_down and not passes_doors(b))

    def zone_cost(self, table: Resolution, zone: int) -> int:
        later = table.state.later_floors
        if not later:
            return 0
        return TOWER_ZONE_WEIGHT * landing_steps(compile_floor(later[0].text, later[0].name))[zone]


def _locked_in(table: Resolution, bot: Bot) -> bool:
    """The bot stands in a room whose every door out is locked."""
    floor, here = table.floor, table.floor.index[bot.at]
    if floor.area(here).kind != "room":
        return False
    doors = {door for _outside, door in doors_out(floor, floor.area_of[here])}
    return bool(doors) and not doors & table.unlocked


def shut_out(table: Resolution, agent: Bot, space: int) -> bool:
    """Whether a keypad card drawn by a locked door of the space's room is one the agent cannot force with its
    dice (it states "Jam", or its durability lies beyond their average AP): Casing stood by the labs'
    Break room and Clean room doors round after round for a card stating "Jam" with a tech input and no tech chip
    in the burncycle, while Nano, who reassembles through, walked to an entrance (docs/autoplay.md, "The tower
    run: the last terminal behind a card that turned Casing away")."""
    floor, state = table.floor, table.state
    dice = agent_dice(agent)
    return any(not forces(keypad_column(table, state.keypads[door]), dice)
               for _, door in doors_out(floor, floor.area_of[space])
               if door in state.keypads and door not in table.unlocked)


@cache
def landing_steps(floor: Floor) -> tuple[int, ...]:
    """For each safe zone of a floor the team climbs to, the steps from it to its nearest entrance (where the
    escape is) and to its nearest terminal."""
    steps = floor.distances(frozenset())
    zones = [a for a in floor.areas if a.kind == "safe"]
    entrances = floor.posts.get("entrance", ())
    terminals = floor.posts.get("terminal", ())
    return tuple(min((steps[s][e] for s in z.spaces for e in entrances), default=0)
                 + min((steps[s][t] for s in z.spaces for t in terminals), default=0) for z in zones)


def landing_targets(paths: PathCosts, table: Resolution, bot: Bot) -> set[int]:
    """For a bot in the team's safe zone on a floor the team climbs from, the free spaces of the zone whose
    landing on the next floor lies fewest steps from its work there ("placing returning units in corresponding
    safe zones": the same row and column counted from the zone's first space, else the zone's first free space):
    a terminal for Nano, who reassembles through the locked doors in his way (the labs' Data closet, C10, behind
    the North zone's door B8/B9), an entrance for the others, who leave by the door the team opened below (the
    lobby's P4/Q4 is the labs' E6/F6: "they remain unlocked on the next floor"). The bots home wait there for the
    straggler anyway. Empty (the whole zone) for a bot out of it."""
    floor = table.floor
    here = floor.index[bot.at]
    if not paths.in_team_zone(table, here):
        return set()
    zones = [a for a in floor.areas if a.kind == "safe"]
    k = next(n for n, z in enumerate(zones) if here in z.spaces)
    later = table.state.later_floors[0]
    post = "terminal" if passes_doors(bot) else "entrance"
    steps = landing_steps_to(floor, compile_floor(later.text, later.name), k, post)
    free = [s for s in zones[k].spaces if not isinstance(table.occupant.get(s), Bot) or table.occupant[s] is bot]
    if not free:
        return set()
    best = min(steps[s] for s in free)
    return {s for s in free if steps[s] == best}


@cache
def landing_steps_to(floor: Floor, above: Floor, zone: int, post: str) -> dict[int, int]:
    """For each space of the floor's `zone`-th safe zone, the steps from its landing in the next floor's
    `zone`-th safe zone to that floor's nearest `post` (an entrance, a terminal)."""
    here = [a for a in floor.areas if a.kind == "safe"][zone]
    there = [a for a in above.areas if a.kind == "safe"]
    goals = above.posts.get(post, ())
    if not there or not goals:
        return {s: 0 for s in here.spaces}
    landing = there[min(zone, len(there) - 1)]
    steps = above.distances(frozenset())
    r0, c0 = floor.coords[here.spaces[0]]
    r1, c1 = above.coords[landing.spaces[0]]
    at = {above.coords[s]: s for s in landing.spaces}
    return {s: min(steps[at.get((r1 + r - r0, c1 + c - c0), landing.spaces[0])][g] for g in goals)
            for s in here.spaces for r, c in [floor.coords[s]]}
