"""Awareness & Detection.

"Security awareness is continuously checked at all times, during any phase or turn": every function here
that changes a position ends with `recheck`, and the rest of the engine moves units only through
`step_unit` and `step_bot`, so no change of position escapes a check.
"""

from __future__ import annotations

from controller.rules.board.geometry import DIRECTIONS, Floor
from controller.rules.characters.interface import fooled
from controller.rules.corporation.threat import change_threat, escalation_bonus
from controller.rules.events import AwarenessCleared, AwarenessPlaced, BotDetected, BotHidden, bot_ref
from controller.rules.resolution import Resolution
from controller.rules.state import Bot, SecurityUnit


def awareness_stat(resolution: Resolution, unit: SecurityUnit) -> int:
    return unit.awareness + escalation_bonus(resolution, "guard_awareness")


def sight(floor: Floor, space: int, facing: str, stat: int, peripheral: str) -> frozenset[int]:
    """Spaces a unit sees: "Direct Sight: Equal to the full awareness stat in spaces straight ahead in the
    direction of the unit's facing, within the same area. Peripheral Awareness: Equal to half of the
    awareness stat (rounded up) in all other directions within the same area."

    `cross` reads "directions" as the three other straight lines; `diamond` as every space of the area
    within that many steps. Rays already stop at walls and doors, which bound areas.
    """
    key = (space, facing, stat, peripheral)
    seen = floor.sight_cache.get(key)
    if seen is not None:
        return seen
    half = (stat + 1) // 2
    rays = floor.rays[space]
    spaces = set(rays[facing][:stat])
    if peripheral == "cross":
        for d in DIRECTIONS:
            if d != facing:
                spaces.update(rays[d][:half])
    else:
        frontier, reached = [space], {space}
        for _ in range(half):
            nxt = []
            for s in frontier:
                for j, kind in floor.neighbour[s].values():
                    if kind == "open" and j not in reached:
                        reached.add(j)
                        nxt.append(j)
            frontier = nxt
        reached.discard(space)
        spaces |= reached
    seen = frozenset(spaces)
    floor.sight_cache[key] = seen
    return seen


def unit_sight(resolution: Resolution, unit: SecurityUnit) -> frozenset[int]:
    """The spaces a security unit sees now, the one answer detection and a drawn board both read: its `sight`
    from where it stands, the way it faces, at its awareness stat with the escalations' bonus ("Heightened
    senses: every security unit has +1 awareness"), under the table's peripheral rule; nothing while stunned
    ("Stunned Security: ... ignores awareness/abilities.")."""
    if unit.stunned:
        return frozenset()
    return sight(resolution.floor, resolution.floor.index[unit.space], unit.facing, awareness_stat(resolution, unit),
                 resolution.state.rules.peripheral)


def sees(resolution: Resolution, unit: SecurityUnit, space: int) -> bool:
    return space in unit_sight(resolution, unit)


def place_awareness(resolution: Resolution, bot: Bot, reason: str = "", unit: SecurityUnit | None = None) -> None:
    """Put the bot's awareness chip on its space (it becomes detected): `unit` saw it, or `reason` (of `unit`,
    as in "striking" guard 2) gave it away."""
    if bot.detected or bot.space is None:
        return
    from_off_board = bot.awareness is None
    bot.awareness = bot.space
    bot.hidden = False
    resolution.emit(AwarenessPlaced(bot=bot.id, space=bot.space, from_off_board=from_off_board))
    resolution.emit(BotDetected(bot=bot.id, space=bot.space, unit=unit.id if unit else None, reason=reason))
    # "Seasoned: Standard rules, plus threat advances by +1 whenever an awareness chip enters play from off-board."
    if from_off_board and resolution.state.difficulty == "seasoned":
        change_threat(resolution, 1, f"Seasoned: {bot_ref(bot.id)}'s awareness chip entered play")


def clear_awareness_at(resolution: Resolution, unit: SecurityUnit, space: str) -> None:
    """"When a security unit moves onto an awareness chip, the chip is cleared and returned to the bot's mat.\""""
    for bot in resolution.state.bots:
        if bot.awareness == space and bot.space != space:
            bot.awareness = None
            resolution.emit(AwarenessCleared(bot=bot.id, space=space, unit=unit.id))


def recheck(resolution: Resolution) -> None:
    """Detect every bot that some active unit now sees, and reveal hidden bots an enemy reached."""
    if resolution.over:
        return
    floor = resolution.floor
    units = [u for u in resolution.state.security if not u.stunned]
    for bot in resolution.active_bots():
        if bot.detected and not bot.hidden:
            continue
        b = floor.index[bot.at]
        if bot.hidden:
            # "If an enemy enters the space, the bot is detected": a unit cannot share the space, so an
            # enemy that steps next to the spot within its area has entered it (rules-interpretations.md).
            finder = next((u for u in units if floor.area_of[floor.index[u.space]] == floor.area_of[b]
                           and floor.edge_between(floor.index[u.space], b) == "open" and not fooled(u, bot)),
                          None)
            if finder is not None:
                place_awareness(resolution, bot, unit=finder)
            continue
        # "When disguised as a guard, Interface ignores detection from guard awareness"
        spotter = next((u for u in units if sees(resolution, u, b) and not fooled(u, bot)), None)
        if spotter is not None:
            place_awareness(resolution, bot, unit=spotter)


def step_unit(resolution: Resolution, unit: SecurityUnit, to: int) -> None:
    """Move a security unit one space (or teleport it), facing the way it went when that is a step."""
    frm = resolution.floor.index[unit.space]
    d = resolution.floor.direction(frm, to)
    resolution.move_occupant(unit, to)
    if d is not None:
        unit.facing = d
    clear_awareness_at(resolution, unit, unit.space)
    recheck(resolution)


def step_bot(resolution: Resolution, bot: Bot, to: int) -> None:
    """Move a bot one space and apply what sight, doors and hiding spots say about it."""
    floor = resolution.floor
    frm = floor.index[bot.at]
    was_detected = bot.detected
    through_door = floor.edge_between(frm, to) in ("door", "wall")
    resolution.move_occupant(bot, to)
    bot.hidden = False
    if was_detected and through_door:
        _see_through_door(resolution, bot, frm, to)
    if floor.feature[to] == "hiding" and not bot.detected:
        # "A bot moving onto a hiding spot becomes hidden only if undetected when entering, or if the hiding
        # spot lies outside enemy awareness when entering."
        visible = any(sees(resolution, u, to) for u in resolution.state.security)
        if not was_detected or not visible:
            bot.hidden = True
            resolution.emit(BotHidden(bot=bot.id, space=bot.at))
    recheck(resolution)


def _see_through_door(resolution: Resolution, bot: Bot, frm: int, to: int) -> None:
    """"Security units only see into another area when a detected bot moves through a door: the unit
    temporarily sees 1 space beyond that door, provided its range reaches it.\""""
    floor = resolution.floor
    # "Guards outside safe zones cannot see into them when bots enter through doors."
    if floor.in_safe_zone(to) and not floor.in_safe_zone(frm):
        return
    for unit in resolution.state.security:
        if not sees(resolution, unit, frm) or fooled(unit, bot):
            continue
        u = floor.index[unit.space]
        d = floor.line_direction(u, frm)
        reach = awareness_stat(resolution, unit)
        if d != unit.facing:
            reach = (reach + 1) // 2
        dist = abs(floor.coords[u][0] - floor.coords[frm][0]) + abs(floor.coords[u][1] - floor.coords[frm][1])
        if dist + 1 <= reach:
            # "If the bot is spotted entering the space, its awareness chip follows it." (from the floor: it
            # does not enter from off-board, so Seasoned adds no threat)
            place_awareness(resolution, bot, unit=unit)
            return

