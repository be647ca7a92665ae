"""Security Activation: Pursue, then Investigate, then Patrol; attacks, shut-downs and stuns.

"Guards activate in strict hierarchical order during the corporation turn": every unit that can pursue
does so first (in the order the units entered play), then every remaining unit that can investigate, then
the rest patrol. A unit's priority is judged when its tier comes, so a bot spotted by the first guard can
be pursued by the second.
"""

from __future__ import annotations

from controller.rules.board.awareness import clear_awareness_at, recheck, sees, step_unit
from controller.rules.board.geometry import OPPOSITE, UNREACHABLE
from controller.rules.board.paths import adjacent_spaces, path_to
from controller.rules.characters.interface import attack_damage, fooled, lose_disguise
from controller.rules.corporation.threat import change_threat, declare_defeat, escalation_bonus
from controller.rules.events import (
    Attacked,
    BotShutDown,
    PowerChanged,
    UnitMoved,
    UnitStayed,
    UnitStunEnded,
    UnitTurned,
    bot_ref,
    unit_ref,
)
from controller.rules.resolution import Resolution
from controller.rules.state import Bot, SecurityUnit

# "L453R: Fauxbia can attack detected bots up to 3 spaces away. Bots that are attacked from 2 spaces away
# lose 2 power instead of 3, and bots that are 3 spaces away lose only 1 power."
RANGED_DAMAGE = {1: 3, 2: 2, 3: 1}


def abilities_on(resolution: Resolution) -> bool:
    """"Simplified: ... Security unit special abilities are disabled.\""""
    return resolution.state.difficulty != "simplified"


def movement_of(resolution: Resolution, unit: SecurityUnit) -> int:
    return unit.movement + escalation_bonus(resolution, "guard_movement")


def activate_security(resolution: Resolution) -> None:
    state = resolution.state
    done: set[str] = set()
    for unit in state.security:
        if unit.stunned:
            done.add(unit.id)
            resolution.emit(UnitStayed(unit=unit.id, space=unit.space,
                                       reason="stunned: skips its activation"))
    for tier in (_try_pursue, _try_investigate, _patrol):
        for unit in list(state.security):
            if resolution.over:
                return
            if unit.id in done or unit not in state.security:
                continue
            if tier(resolution, unit):
                done.add(unit.id)
    # "it will not activate on the corporation's next turn and flips back at the end of the security phase"
    for unit in state.security:
        if unit.stunned:
            unit.stunned = False
            resolution.emit(UnitStunEnded(unit=unit.id))
    recheck(resolution)


# -- movement ------------------------------------------------------------------------------------
def _walk(resolution: Resolution, unit: SecurityUnit, path: list[int], reason: str) -> None:
    """Move along a path one space at a time (each step re-checks awareness), then report the move."""
    if not path:
        return
    start = unit.space
    mark = len(resolution.events)
    for space in path:
        step_unit(resolution, unit, space)
    ids = [start] + [resolution.floor.ids[s] for s in path]
    resolution.events.insert(mark, UnitMoved(unit=unit.id, path=ids, facing=unit.facing,
                                             reason=reason))


def _distance(resolution: Resolution, a: int, b: int) -> int:
    return resolution.distances()[a][b]


# -- Priority 1: Pursue ---------------------------------------------------------------------------
def _pursue_target(resolution: Resolution, unit: SecurityUnit) -> Bot | None:
    here = resolution.floor.index[unit.space]
    best, best_d = None, UNREACHABLE
    for bot in resolution.active_bots():
        # "Disguised Interface acts as a guard during the corporation's turn": guards do not pursue it
        if not bot.detected or bot.hidden or fooled(unit, bot):
            continue
        b = resolution.floor.index[bot.at]
        if sees(resolution, unit, b):
            d = _distance(resolution, here, b)
            if d < best_d:
                best, best_d = bot, d
    return best


def _try_pursue(resolution: Resolution, unit: SecurityUnit) -> bool:
    """"Security units with detected bots in their awareness move via the shortest path to become
    adjacent and attack.\""""
    target = _pursue_target(resolution, unit)
    if target is None:
        return False
    floor = resolution.floor
    here, b = floor.index[unit.space], floor.index[target.at]
    goals = adjacent_spaces(resolution, b)
    ranged = "l453r" in unit.abilities and abilities_on(resolution)
    if here not in goals:
        path = path_to(resolution, here, goals)
        if path is not None:
            _walk(resolution, unit, path[:movement_of(resolution, unit)], "pursue")
    if resolution.over or not target.detected or target.shut_down:
        return True
    here = floor.index[unit.space]
    if here in adjacent_spaces(resolution, b):
        _face(resolution, unit, b)
        _attack(resolution, unit, target, unit.damage, 1)
    elif ranged:
        d = _distance(resolution, here, b)
        if d in RANGED_DAMAGE and sees(resolution, unit, b):
            _attack(resolution, unit, target, RANGED_DAMAGE[d], d)
    return True


def _face(resolution: Resolution, unit: SecurityUnit, toward: int) -> None:
    here = resolution.floor.index[unit.space]
    d = resolution.floor.direction(here, toward) or resolution.floor.line_direction(here, toward)
    if d is not None and d != unit.facing:
        unit.facing = d
        resolution.emit(UnitTurned(unit=unit.id, space=unit.space, facing=d))
        recheck(resolution)


def _attack(resolution: Resolution, unit: SecurityUnit, bot: Bot, damage: int, distance: int) -> None:
    """"Guards deal damage equal to their level (1, 2, or 3); captains deal 3 damage." A disguised Interface
    loses the disguise and takes 2 instead."""
    damage = attack_damage(resolution, bot, damage)
    old = bot.power
    bot.power = max(0, bot.power - damage)
    resolution.emit(Attacked(unit=unit.id, bot=bot.id, damage=old - bot.power, power=bot.power, distance=distance))
    if bot.power == 0:
        shut_down_bot(resolution, bot)


def shut_down_bot(resolution: Resolution, bot: Bot) -> None:
    """"Bot Shut Down: Power reaches 0. Threat increases by +3; bot chip flips. ... If the command module
    shuts down, the game is immediately lost."

    A disguised Interface loses its disguise however it shuts down: the flipped chip shows a shut-down bot,
    which acts as nothing during the corporation's turn (docs/rules-interpretations.md, "Special characters").
    """
    bot.shut_down = True
    bot.hidden = False
    lose_disguise(resolution, bot, "shut down: its bot chip flips")
    resolution.emit(BotShutDown(bot=bot.id, space=bot.space or "-"))
    if bot.kind == "module":
        declare_defeat(resolution, "module_shut_down", "the command module was shut down")
        return
    change_threat(resolution, 3, f"{bot_ref(bot.id)} was shut down")


def damage_bot(resolution: Resolution, bot: Bot, amount: int, reason: str) -> None:
    """Power lost outside an attack (shocks, mission rules)."""
    old = bot.power
    bot.power = max(0, bot.power - amount)
    resolution.emit(PowerChanged(bot=bot.id, old=old, new=bot.power, reason=reason))
    if bot.power == 0 and not bot.shut_down:
        shut_down_bot(resolution, bot)


# -- Priority 2: Investigate -----------------------------------------------------------------------
def _try_investigate(resolution: Resolution, unit: SecurityUnit) -> bool:
    """"Security units move toward active awareness chips to clear them.\""""
    floor = resolution.floor
    here = floor.index[unit.space]
    D = resolution.distances()
    best, best_d = None, UNREACHABLE
    for bot in resolution.state.bots:
        if bot.awareness is None:
            continue
        c = floor.index[bot.awareness]
        if resolution.state.rules.investigate == "area" and floor.area_of[c] != floor.area_of[here]:
            continue
        if D[here][c] < best_d:
            best, best_d = c, D[here][c]
    if best is None:
        return False
    goals = {best} if best not in resolution.occupant else adjacent_spaces(resolution, best)
    path = path_to(resolution, here, goals)
    if path:
        _walk(resolution, unit, path[:movement_of(resolution, unit)], "investigate")
    elif path == []:  # beside the chip already, which another unit or a bot stands on: it waits (nothing blocks it)
        there = resolution.occupant[best]
        who = bot_ref(there.id) if isinstance(there, Bot) else unit_ref(there.id)
        resolution.emit(UnitStayed(unit=unit.id, space=unit.space,
                                   reason=f"investigating the awareness chip on {floor.ids[best]}, where {who} stands"))
    else:
        resolution.emit(UnitStayed(unit=unit.id, space=unit.space,
                                   reason="investigating, but its way is blocked"))
    return True


# -- Priority 3: Patrol ----------------------------------------------------------------------------
def _patrol(resolution: Resolution, unit: SecurityUnit) -> bool:
    floor = resolution.floor
    here = floor.index[unit.space]
    pattern = unit.patrol
    if pattern == "teleport":
        _teleport(resolution, unit)
        return True
    # "Guards in rooms do not patrol."
    if floor.area(here).is_room or pattern == "stationary":
        resolution.emit(UnitStayed(unit=unit.id, space=unit.space,
                                   reason="in a room: does not patrol" if pattern != "stationary" else "stationary"))
        return True
    steps = movement_of(resolution, unit)
    if pattern == "pace":
        _pace(resolution, unit, steps)
    elif pattern == "perimeter":
        _perimeter(resolution, unit, steps)
    else:
        target = _patrol_target(resolution, unit)
        if target is not None:
            path = path_to(resolution, here, adjacent_spaces(resolution, floor.index[target.at]))
            if path:
                _walk(resolution, unit, path[:steps], "patrol")
                return True
        resolution.emit(UnitStayed(unit=unit.id, space=unit.space, reason="no way to patrol"))
    return True


def _patrol_target(resolution: Resolution, unit: SecurityUnit) -> Bot | None:
    """Closest Bot: the nearest bot on the floor; the star icon: the command module (while it is in play)."""
    bots = [b for b in resolution.active_bots() if not b.hidden and not fooled(unit, b)]
    if unit.patrol == "star":
        module = [b for b in bots if b.kind == "module"]
        if module:
            return module[0]
    here = resolution.floor.index[unit.space]
    D = resolution.distances()
    best, best_d = None, UNREACHABLE
    for b in bots:
        d = D[here][resolution.floor.index[b.at]]
        if d < best_d:
            best, best_d = b, d
    return best


def _pace(resolution: Resolution, unit: SecurityUnit, steps: int) -> None:
    """Pace: straight ahead along the facing, turning about when the way ahead is a wall, a door, the end
    of its area or another unit."""
    floor = resolution.floor
    path: list[int] = []
    cur = floor.index[unit.space]
    facing = unit.facing
    turned = False
    while len(path) < steps:
        nb = floor.neighbour[cur].get(facing)
        # its own starting space is free to walk back over once it has turned about
        if nb is not None and nb[1] == "open" and resolution.occupant.get(nb[0], unit) is unit:
            cur = nb[0]
            path.append(cur)
            turned = False
            continue
        if turned:
            break
        facing = OPPOSITE[facing]
        turned = True
    if path:
        _walk(resolution, unit, path, "patrol")
        if unit.facing != facing:
            unit.facing = facing
            recheck(resolution)
    elif facing != unit.facing:
        unit.facing = facing
        resolution.emit(UnitTurned(unit=unit.id, space=unit.space, facing=facing))
        recheck(resolution)
    else:
        resolution.emit(UnitStayed(unit=unit.id, space=unit.space, reason="boxed in"))


def _perimeter(resolution: Resolution, unit: SecurityUnit, steps: int) -> None:
    """Perimeter: clockwise along the inside edge of its area (wall on its left)."""
    floor = resolution.floor
    here = floor.index[unit.space]
    ring = floor.perimeter(floor.area_of[here])
    positions = [k for k, (s, _) in enumerate(ring) if s == here]
    if not positions:
        ring_spaces = {s for s, _ in ring}
        way = path_to(resolution, here, ring_spaces)
        if way:
            _walk(resolution, unit, way[:steps], "patrol")
        else:
            resolution.emit(UnitStayed(unit=unit.id, space=unit.space, reason="boxed in"))
        return
    k = next((p for p in positions if ring[p][1] == unit.facing), positions[0])
    path: list[int] = []
    for _ in range(steps):
        k = (k + 1) % len(ring)
        s = ring[k][0]
        if s in resolution.occupant and s != here:
            break
        if s == (path[-1] if path else here):
            continue
        path.append(s)
    if path:
        _walk(resolution, unit, path, "patrol")
    else:
        resolution.emit(UnitStayed(unit=unit.id, space=unit.space, reason="way blocked"))


def _teleport(resolution: Resolution, unit: SecurityUnit) -> None:
    """"Patrol: Teleport. Fauxbia teleports to the unoccupied hallway security post closest to a bot.\""""
    floor = resolution.floor
    D = resolution.distances()
    bots = [floor.index[b.at] for b in resolution.active_bots() if not b.hidden]
    here = floor.index[unit.space]
    best, best_d, best_bot = None, UNREACHABLE, None
    for kind in ("post1", "post2", "post3", "star"):
        for p in floor.posts.get(kind, ()):
            if floor.area(p).is_room or (p in resolution.occupant and p != here):
                continue
            for b in bots:
                if D[p][b] < best_d or (D[p][b] == best_d and best is not None and p < best):
                    best, best_d, best_bot = p, D[p][b], b
    if best is None or best == here:
        resolution.emit(UnitStayed(unit=unit.id, space=unit.space,
                                   reason="already at the hallway post closest to a bot" if best == here
                                   else "no free hallway post"))
        return
    start = unit.space
    mark = len(resolution.events)
    resolution.move_occupant(unit, best)
    if best_bot is not None:
        # face the bot: straight at it when the post is next to it, else along the way toward it
        d = floor.direction(best, best_bot)
        if d is None:
            toward = path_to(resolution, best, adjacent_spaces(resolution, best_bot))
            d = floor.direction(best, toward[0]) if toward else None
        unit.facing = d or unit.facing
    clear_awareness_at(resolution, unit, unit.space)
    recheck(resolution)
    resolution.events.insert(mark, UnitMoved(unit=unit.id, path=[start, unit.space],
                                             facing=unit.facing, reason="teleport"))

