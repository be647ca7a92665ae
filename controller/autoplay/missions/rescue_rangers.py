"""Rescue Rangers: no command module on the floor until the calibration puts it in the draw bag; each agent
accesses a terminal.

The agents start spread over the safe zones, a door opener in the one nearest the terminals. The agents share
the fourth slot (there is no module to pay it), each keeping RESCUE_SLOT_KEEP power; an agent
with its own access goes into the rooms with a free terminal space that still hold a bead while units are left
in the draw bag (drawing them out before the calibration adds the module), then waits outside a door of such a
room, while the agent whose access would calibrate waits on its terminal; an agent shut in its starting zone
tries a card's keypad dice for their unlock face; the team keeps its zone while its strongest dice force the
card of its door; the team reboots a chip sooner where the reboot fills the reserves; and after the calibration
the agents go into such rooms, where surveilling draws the next unit from the bag, only the one nearest them once
the module is the bag's last unit, or wait at a door of a surveilled terminal room nobody stands in, which gets
its bead back at the round's end; a bot shut in keeps its pool for the strike on the wall rather than roll moves
into it, and the module shut in in a room does not wait for guards to leave the zone's doorways.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.autoplay.abilities import passes_doors
from controller.autoplay.missions.strategy import (
    StandardPlay,
    bead_rooms,
    doors_out,
    spread_start,
    terminal_spaces,
)
from controller.autoplay.tuning import HELD_BAG, RESCUE_SLOT_KEEP
from controller.rules import Bot, Objective, Resolution, module_bagged

if TYPE_CHECKING:
    from controller.autoplay.paths import PathCosts


class RescueRangers(StandardPlay):
    """Rescue Rangers' play (docs/autoplay.md, "Rescue Rangers")."""

    shared_slot_keep = RESCUE_SLOT_KEEP
    """"Do not place the command module": the agents pay the fourth slot, each keeping RESCUE_SLOT_KEEP (the
    slot spares a reboot, 2 threat, about every third turn)."""

    reboots_for_reserves = True
    """No module on the floor before the draw fills the team reserve, and the safe zones grant theirs at setup
    only, so the chips a reboot puts in the rooms' reserves are all the altering the team has (docs/autoplay.md,
    "Rescue Rangers", "A reboot where the reserves fill")."""

    kept_zone_by_team_dice = True
    """With no module on the floor the agents pay the fourth slot down to RESCUE_SLOT_KEEP power each, and after
    the calibration the drain takes a power a turn until the module is drawn: an agent's pool is often 1-2 dice,
    and judged by them on its turn the team's zone was given up for the other one across the floor, though the
    team-mate's dice force the door's card. The kept zone is given up only for a card too strong for the team's
    strongest dice (docs/autoplay.md, "Rescue Rangers: the kept zone judged by the team's dice")."""

    breaks_out = True
    """The module comes onto the floor drawn from the bag onto a terminal in a room, and a jammed card on the
    room's door shuts it in (the labs' K07 on O7/O8, seed 1030: 1188 rounds unfinished): the guards that
    investigate its awareness chip cannot reach it and never walk on from the zone's doorways, so it does not
    wait for them, and its shut-in bots keep their pool for the strike on the wall rather than roll moves into
    it (Casing shut in his starting zone, on the lobby, draws network cards instead) (docs/autoplay.md, "The
    module shut in behind a jammed door")."""

    def start_spaces(self, table: Resolution) -> dict[str, str]:
        """"Agents start on any safe zone space.": spread over the zones, Casing (a keypad's door opener) in the
        one nearest the terminals (docs/autoplay.md, "Where the team starts")."""
        return spread_start(table)

    def task_targets(self, paths: PathCosts, table: Resolution, bot: Bot, open_tasks: list[Objective]) -> set[int]:
        """"Before surveilling a room with at least one terminal space, draw a unit from the bag": before the
        calibration an agent with its own access goes into such rooms while units are left in the bag, so
        that the module the calibration adds is the next unit drawn, and with the bag empty waits at a door of
        one (stepping in then would draw nothing); after the calibration the module comes out only where a
        terminal room is surveilled, so the agents go in; with the module the bag's last unit, only the agent
        nearest such a room goes, the other heading home ahead of the walk the draw starts; the doors of the
        surveilled terminal rooms nobody else stands in are goals too, as such a room gets its bead back at the
        round's end (docs/autoplay.md, "Rescue Rangers", "One agent draws the last unit", "The bag drawn out,
        and a door to wait at")."""
        state = table.state
        if state.later_floors or bot.kind != "agent":
            return set()
        if not state.calibrated and any(o.task.startswith("terminals") for o in open_tasks):
            if state.draw_bag:
                # the bag's guards and captain drawn out first: after the calibration the module is then the
                # next unit drawn, rather than one of 3-5 while the drain takes a power a turn
                return bead_rooms(table, terminal=True)
            return doorsteps(table, bead_rooms(table, terminal=True))
        if state.calibrated and module_bagged(state):
            rooms = bead_rooms(table, terminal=True)
            drawer = module_drawer(table, rooms) if len(state.draw_bag) == 1 and rooms else None
            if drawer is not None and drawer is not bot:
                return set()  # the module is the next unit drawn: one agent draws it, the other walks home
            return rooms | doorsteps(table, rebeading_rooms(table, bot))
        return set()

    def keypad_dice_unlock(self, table: Resolution) -> bool:
        """"Agents start on any safe zone space", and until the calibration every agent must get out to access
        a terminal: while an agent who opens doors with a keypad (Casing, in the zone nearest the terminals) is
        shut in its zone behind locked doors, a card that rolls keypad dice is never shut for the paths and the
        agent aborts keypad actions, chip after chip, for the dice's unlock face ("Automatic Unlock: The door
        opens instantly, resolving all requirements"; "Abort: Conclude the action without unlocking"), where
        it would wait for its power to force the card (K03's utility input, which no zone's chip pays: out in
        rounds 3-8) (docs/autoplay.md, "Rescue Rangers: the keypad die's unlock for an agent shut in")."""
        state = table.state
        return not state.calibrated and any(
            shut_in(table, b) for b in state.bots
            if b.kind == "agent" and b.on_board and not b.shut_down and not passes_doors(b))

    def holds_access(self, table: Resolution, bot: Bot) -> bool:
        """"Result: Add the command module to the draw bag. Each agent loses 1 power at the start of their turn
        until the command module is drawn": the agent whose access would calibrate, standing on its terminal,
        waits while the bag still holds HELD_BAG units or more (any unit) and a team-mate with its access,
        still up, draws them out, so that the drain starts with the module the next unit drawn; it accesses
        once a guard sees it (docs/autoplay.md, "Rescue Rangers", "The calibrating access held", "The bag
        drawn out, and a door to wait at")."""
        state = table.state
        if state.calibrated or bot.kind != "agent" or bot.detected or len(state.draw_bag) < HELD_BAG:
            return False
        others = [b for b in state.bots if b.kind == "agent" and b is not bot and b.on_board]
        if any(state.progress.get(f"terminals:{b.id}", 0) < 1 for b in others):
            return False  # not the calibrating access
        return any(not b.shut_down for b in others) and bool(bead_rooms(table, terminal=True))


def doorsteps(table: Resolution, rooms: set[int]) -> set[int]:
    """The free spaces outside the rooms (given by their spaces) that a door joins to one of them."""
    floor = table.floor
    return {j for (i, j) in floor.door_edges if i in rooms and j not in rooms and j not in table.occupant}


def module_drawer(table: Resolution, rooms: set[int]) -> Bot | None:
    """The agent still up with the fewest steps to one of the rooms (given by their spaces), ties by id: with
    the module alone in the bag the next surveillance of a terminal room draws it, and one agent is enough."""
    floor, steps = table.floor, table.distances()
    agents = [b for b in table.state.bots if b.kind == "agent" and b.on_board and not b.shut_down]
    return min(agents, key=lambda b: (min(steps[floor.index[b.at]][r] for r in rooms), b.id), default=None)


def rebeading_rooms(table: Resolution, bot: Bot) -> set[int]:
    """The spaces of the surveilled terminal rooms nobody but the bot stands in: unoccupied, they get their bead
    back at the round's end ("every unoccupied surveilled room becomes unsurveilled"), and stepping in then
    draws the next unit."""
    floor, own = table.floor, table.floor.index[bot.at]
    beads, terminals = set(table.state.floor.surveillance), terminal_spaces(table)
    spaces: set[int] = set()
    for area in floor.areas:
        if area.kind != "room" or area.surveillance == 0 or floor.ids[area.spaces[0]] in beads:
            continue
        if any(s in table.occupant for s in area.spaces if s != own) or not terminals & set(area.spaces):
            continue
        spaces.update(area.spaces)
    return spaces


def shut_in(table: Resolution, bot: Bot) -> bool:
    """The bot stands in a safe zone whose every door out is locked."""
    floor, here = table.floor, table.floor.index[bot.at]
    if not floor.in_safe_zone(here):
        return False
    doors = {door for _outside, door in doors_out(floor, floor.area_of[here])}
    return bool(doors) and not doors & table.unlocked
