"""Changing floors and escaping ("Changing Floors", "Escape").

"Advancing to the next floor requires completing all floor objectives and assembling all bots simultaneously
in safe zones at the end of a turn." The safe zones are the tower's stairwells: the k-th safe zone listed on
one floor leads to the k-th safe zone of the next, and a unit keeps its place inside it (the same row and
column counted from the zone's first space) when that space exists and is free. Everything else on the board
goes: guards back into the bag, keypad cards to the discard, awareness chips to the bots' mats.

"When an agent satisfies escape conditions, it is removed from the board and takes no further turns. If all
agents escape before the command module escapes, the mission is lost because nobody remains to pilot the
module." A mission's escape is its win task `escape`: once its calibrations are complete, a bot on an
entrance space of the last floor escapes as an action.
"""

from __future__ import annotations

from controller.rules.action_types import Escape
from controller.rules.board.awareness import recheck
from controller.rules.board.geometry import Area, Floor, compile_floor
from controller.rules.cards.imperatives import carry_imperatives, draw_imperatives
from controller.rules.corporation.deploy import guard_chip
from controller.rules.corporation.threat import declare_defeat
from controller.rules.errors import IllegalAction
from controller.rules.events import BotEscaped, FloorChanged, StepStarted
from controller.rules.game_setup import floor_state, place_security
from controller.rules.legal import LegalAction
from controller.rules.missions.objectives import applies, done
from controller.rules.resolution import MEMORY, Resolution
from controller.rules.state import Bot, Objective, SecurityUnit


def floor_objectives(resolution: Resolution) -> list[Objective]:
    """The objectives of the floor the team is on, when it is not the mission's last."""
    state = resolution.state
    plan = state.mission.floor_plan
    if not state.later_floors or state.floor_number > len(plan):
        return []
    return [o for o in plan[state.floor_number - 1].objectives if applies(state, o)]


def ready_to_advance(resolution: Resolution) -> bool:
    """"completing all floor objectives and assembling all bots simultaneously in safe zones at the end of a
    turn"; a shut-down bot "Cannot act or advance floors until repaired"."""
    state, floor = resolution.state, resolution.floor
    if not state.later_floors or state.outcome is not None:
        return False
    if not all(done(state, resolution, o, True) for o in floor_objectives(resolution)):
        return False
    bots = [b for b in state.bots if not b.escaped]
    return bool(bots) and all(b.on_board and not b.shut_down and floor.in_safe_zone(floor.index[b.at])
                              for b in bots)


def change_floor(resolution: Resolution, final: Bot) -> None:
    """The five steps of "Changing Floors", after `final`'s turn; the corporation's turn follows on the new
    floor (its marker is with the player who took the final turn)."""
    state = resolution.state
    turn = state.turn
    # 1. "Assign the corporation marker to the player who took the final turn. Turn order resets so the
    #    player to their left becomes first player."
    k = turn.order.index(final.id)
    turn.order = turn.order[k + 1:] + turn.order[:k + 1]
    turn.marker = final.id
    turn.active = len(turn.order) - 1
    # 2. "Record unlocked safe zone doors (they remain unlocked on the next floor) and bot/guard locations
    #    inside safe zones."
    old = resolution.floor
    zones = _safe_zones(old)
    kept_doors = {(z, n) for z, zone in enumerate(zones) for n, door in enumerate(_doors_of(old, zone))
                  if door in resolution.unlocked}
    places: list[tuple[Bot | SecurityUnit, int, tuple[int, int]]] = []
    for space, who in resolution.occupant.items():
        if old.in_safe_zone(space):
            z = zones.index(old.areas[old.area_of[space]])
            places.append((who, z, _offset(old, zones[z], space)))
    # 3. "Remove all other board components and reset awareness chips."
    kept = {id(who) for who, _, _ in places}
    for unit in state.security:
        if id(unit) not in kept and unit.rank == "guard":
            state.guard_bag.append(guard_chip(unit))
    state.security = [u for u in state.security if id(u) in kept]
    state.keypad_discard.extend(state.keypads.values())
    state.keypads = {}
    for bot in state.bots:
        bot.awareness = None
        bot.hidden = False
    # 4. "Set up the new floor according to the floorplan book, placing returning units in corresponding
    #    safe zones."
    later = state.later_floors.pop(0)
    new = compile_floor(later.text, later.name)
    level = new.level
    state.floor = floor_state(new, level)
    new_zones = _safe_zones(new)
    new_doors = [_doors_of(new, zone) for zone in new_zones]
    state.floor.unlocked_doors = sorted({new_doors[z][n] for z, n in kept_doors
                                         if z < len(new_doors) and n < len(new_doors[z])})
    state.floor_number += 1
    carry_imperatives(resolution)  # cards in the agents' hands are no board components: they stay
    state.progress = {}
    # the bots and guards kept in safe zones still name spaces of the old floor: off the table until placed
    for bot in state.bots:
        bot.space = None if bot.on_board else bot.space
    kept_units, state.security = state.security, []
    resolution.refresh()
    for who, z, offset in places:
        zone = new_zones[min(z, len(new_zones) - 1)] if new_zones else None
        space = _place_in(resolution, new, zone, offset)
        who.space = new.ids[space]
        resolution.occupant[space] = who
    state.security = kept_units
    memory = next((b for b in state.bots if b.id == MEMORY and b.on_board), None)
    if state.joan is not None and memory is not None:
        state.joan.space = memory.at  # Joan climbs with Memory
        state.joan.charged = True  # "Joan recharges when sharing a space with Memory"
    place_security(resolution, level)
    resolution.emit(FloorChanged(floor=new.name, level=level, number=state.floor_number,
                                 kept={w.id: w.space or "" for w, _, _ in places}))
    recheck(resolution)
    # 5. "Agents lacking an imperative card draw one."
    draw_imperatives(resolution)
    turn.step = "corporation"
    turn.pending = None
    resolution.emit(StepStarted(step="corporation", new_floor=True))


def escape(resolution: Resolution, bot: Bot) -> None:
    """Take `bot` off the board through an entrance of the last floor."""
    state, floor = resolution.state, resolution.floor
    if not can_escape(resolution):
        raise IllegalAction("this mission has no escape open now: its objectives conclude with an escape once "
                            "the calibrations of its last floor are complete")
    if not bot.on_board or floor.feature[floor.index[bot.at]] != "entrance":
        raise IllegalAction(f"{bot.name} must stand on an entrance space to escape")
    del resolution.occupant[floor.index[bot.at]]
    resolution.emit(BotEscaped(bot=bot.id, space=bot.space or ""))
    bot.escaped = True
    bot.space = None
    bot.awareness = None
    bot.hidden = False
    agents = [b for b in state.bots if b.kind == "agent"]
    module = next((b for b in state.bots if b.kind == "module"), None)
    if module is not None and not module.escaped and all(a.escaped for a in agents):
        declare_defeat(resolution, "module_abandoned",
                       "all agents escaped before the command module: nobody remains to pilot it")


def can_escape(resolution: Resolution) -> bool:
    state = resolution.state
    return (state.calibrated and not state.later_floors
            and any(o.task == "escape" for o in state.mission.win if applies(state, o)))


def _safe_zones(floor: Floor) -> list[Area]:
    return [a for a in floor.areas if a.kind == "safe"]


def _doors_of(floor: Floor, zone: Area) -> list[str]:
    """The zone's doors in reading order (the stairwell's k-th door leads to the same door above)."""
    inside = set(zone.spaces)
    return sorted({name for (i, _j), name in floor.door_edges.items() if i in inside},
                  key=lambda name: floor.coords[floor.index[name.split("/")[0]]])


def _offset(floor: Floor, zone: Area, space: int) -> tuple[int, int]:
    r0, c0 = floor.coords[zone.spaces[0]]
    r, c = floor.coords[space]
    return r - r0, c - c0


def _place_in(resolution: Resolution, floor: Floor, zone: Area | None, offset: tuple[int, int]) -> int:
    """The space at `offset` in the zone if free, else the zone's first free space (else any free space)."""
    if zone is not None:
        r0, c0 = floor.coords[zone.spaces[0]]
        at = {floor.coords[s]: s for s in zone.spaces}
        wanted = at.get((r0 + offset[0], c0 + offset[1]))
        if wanted is not None and wanted not in resolution.occupant:
            return wanted
        free = [s for s in zone.spaces if s not in resolution.occupant]
        if free:
            return free[0]
    return next(s for s in range(len(floor.ids)) if s not in resolution.occupant)


def legal_escapes(resolution: Resolution, bots: list[Bot]) -> list[LegalAction]:
    """Escapes of the bots on an entrance, warning when it would be the last agent out before the module."""
    if not can_escape(resolution):
        return []
    state, floor = resolution.state, resolution.floor
    out = []
    for bot in bots:
        if floor.feature[floor.index[bot.at]] != "entrance":
            continue
        module = next((b for b in state.bots if b.kind == "module"), None)
        others = [a for a in state.bots if a.kind == "agent" and a is not bot and not a.escaped]
        loses = bot.kind == "agent" and not others and module is not None and not module.escaped
        warning = ("this loses the game: all agents escaped before the command module, nobody remains to pilot "
                   "it (the module escapes first)") if loses else ""
        out.append(LegalAction(Escape(bot=bot.id), f"a general action: {bot.name} leaves the board from "
                                                   f"{bot.space}", warning=warning))
    return out
