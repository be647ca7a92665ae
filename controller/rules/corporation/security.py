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


def abilities_on(table: Resolution) -> bool:
    """"Simplified: ... Security unit special abilities are disabled.\""""
    return table.state.difficulty != "simplified"


def movement_of(table: Resolution, unit: SecurityUnit) -> int:
    return unit.movement + escalation_bonus(table, "guard_movement")


def activate_security(table: Resolution) -> None:
    state = table.state
    done: set[str] = set()
    for unit in state.security:
        if unit.stunned:
            done.add(unit.id)
            table.emit(UnitStayed(unit=unit.id, space=unit.space,
                                  reason="stunned: skips its activation"))
    for tier in (_try_pursue, _try_investigate, _patrol):
        for unit in list(state.security):
            if table.over:
                return
            if unit.id in done or unit not in state.security:
                continue
            if tier(table, unit):
                done.add(unit.id)
    # "it will not activate on the corporation's next turn and flips back at the end of the security phase"
    for unit in state.security:
        if unit.stunned:
            unit.stunned = False
            table.emit(UnitStunEnded(unit=unit.id))
    recheck(table)


# -- movement ------------------------------------------------------------------------------------
def _walk(table: Resolution, unit: SecurityUnit, path: list[int], reason: str) -> None:
    """Move along a path one space at a time (each step re-checks awareness), then report the move."""
    if not path:
        return
    start = unit.space
    mark = len(table.events)
    for space in path:
        step_unit(table, unit, space)
    ids = [start] + [table.floor.ids[s] for s in path]
    table.events.insert(mark, UnitMoved(unit=unit.id, path=ids, facing=unit.facing,
                                        reason=reason))


def _distance(table: Resolution, a: int, b: int) -> int:
    return table.distances()[a][b]


# -- Priority 1: Pursue ---------------------------------------------------------------------------
def _pursue_target(table: Resolution, unit: SecurityUnit) -> Bot | None:
    here = table.floor.index[unit.space]
    best, best_d = None, UNREACHABLE
    for bot in table.active_bots():
        # "Disguised Interface acts as a guard during the corporation's turn": guards do not pursue it
        if not bot.detected or bot.hidden or fooled(unit, bot):
            continue
        b = table.floor.index[bot.at]
        if sees(table, unit, b):
            d = _distance(table, here, b)
            if d < best_d:
                best, best_d = bot, d
    return best


def _try_pursue(table: Resolution, unit: SecurityUnit) -> bool:
    """"Security units with detected bots in their awareness move via the shortest path to become
    adjacent and attack.\""""
    target = _pursue_target(table, unit)
    if target is None:
        return False
    floor = table.floor
    here, b = floor.index[unit.space], floor.index[target.at]
    goals = adjacent_spaces(table, b)
    ranged = "l453r" in unit.abilities and abilities_on(table)
    if here not in goals:
        path = path_to(table, here, goals)
        if path is not None:
            _walk(table, unit, path[:movement_of(table, unit)], "pursue")
    if table.over or not target.detected or target.shut_down:
        return True
    here = floor.index[unit.space]
    if here in adjacent_spaces(table, b):
        _face(table, unit, b)
        _attack(table, unit, target, unit.damage, 1)
    elif ranged:
        d = _distance(table, here, b)
        if d in RANGED_DAMAGE and sees(table, unit, b):
            _attack(table, unit, target, RANGED_DAMAGE[d], d)
    return True


def _face(table: Resolution, unit: SecurityUnit, toward: int) -> None:
    here = table.floor.index[unit.space]
    d = table.floor.direction(here, toward) or table.floor.line_direction(here, toward)
    if d is not None and d != unit.facing:
        unit.facing = d
        table.emit(UnitTurned(unit=unit.id, space=unit.space, facing=d))
        recheck(table)


def _attack(table: Resolution, unit: SecurityUnit, bot: Bot, damage: int, distance: int) -> None:
    """"Guards deal damage equal to their level (1, 2, or 3); captains deal 3 damage." A disguised Interface
    loses the disguise and takes 2 instead."""
    damage = attack_damage(table, bot, damage)
    old = bot.power
    bot.power = max(0, bot.power - damage)
    table.emit(Attacked(unit=unit.id, bot=bot.id, damage=old - bot.power, power=bot.power, distance=distance))
    if bot.power == 0:
        shut_down_bot(table, bot)


def shut_down_bot(table: Resolution, bot: Bot) -> None:
    """"Bot Shut Down: Power reaches 0. Threat increases by +3; bot chip flips. ... If the command module
    shuts down, the game is immediately lost."

    A disguised Interface loses its disguise however it shuts down: the flipped chip shows a shut-down bot,
    which acts as nothing during the corporation's turn (docs/rules-interpretations.md, "Special characters").
    """
    bot.shut_down = True
    bot.hidden = False
    lose_disguise(table, bot, "shut down: its bot chip flips")
    table.emit(BotShutDown(bot=bot.id, space=bot.space or "-"))
    if bot.kind == "module":
        declare_defeat(table, "module_shut_down", "the command module was shut down")
        return
    change_threat(table, 3, f"{bot_ref(bot.id)} was shut down")


def damage_bot(table: Resolution, bot: Bot, amount: int, reason: str) -> None:
    """Power lost outside an attack (shocks, mission rules)."""
    old = bot.power
    bot.power = max(0, bot.power - amount)
    table.emit(PowerChanged(bot=bot.id, old=old, new=bot.power, reason=reason))
    if bot.power == 0 and not bot.shut_down:
        shut_down_bot(table, bot)


# -- Priority 2: Investigate -----------------------------------------------------------------------
def _try_investigate(table: Resolution, unit: SecurityUnit) -> bool:
    """"Security units move toward active awareness chips to clear them.\""""
    floor = table.floor
    here = floor.index[unit.space]
    D = table.distances()
    best, best_d = None, UNREACHABLE
    for bot in table.state.bots:
        if bot.awareness is None:
            continue
        c = floor.index[bot.awareness]
        if table.state.rules.investigate == "area" and floor.area_of[c] != floor.area_of[here]:
            continue
        if D[here][c] < best_d:
            best, best_d = c, D[here][c]
    if best is None:
        return False
    goals = {best} if best not in table.occupant else adjacent_spaces(table, best)
    path = path_to(table, here, goals)
    if path:
        _walk(table, unit, path[:movement_of(table, unit)], "investigate")
    elif path == []:  # beside the chip already, which another unit or a bot stands on: it waits (nothing blocks it)
        there = table.occupant[best]
        who = bot_ref(there.id) if isinstance(there, Bot) else unit_ref(there.id)
        table.emit(UnitStayed(unit=unit.id, space=unit.space,
                              reason=f"investigating the awareness chip on {floor.ids[best]}, where {who} stands"))
    else:
        table.emit(UnitStayed(unit=unit.id, space=unit.space,
                              reason="investigating, but its way is blocked"))
    return True


# -- Priority 3: Patrol ----------------------------------------------------------------------------
def _patrol(table: Resolution, unit: SecurityUnit) -> bool:
    floor = table.floor
    here = floor.index[unit.space]
    pattern = unit.patrol
    if pattern == "teleport":
        _teleport(table, unit)
        return True
    # "Guards in rooms do not patrol."
    if floor.area(here).is_room or pattern == "stationary":
        table.emit(UnitStayed(unit=unit.id, space=unit.space,
                              reason="in a room: does not patrol" if pattern != "stationary" else "stationary"))
        return True
    steps = movement_of(table, unit)
    if pattern == "pace":
        _pace(table, unit, steps)
    elif pattern == "perimeter":
        _perimeter(table, unit, steps)
    else:
        target = _patrol_target(table, unit)
        if target is not None:
            path = path_to(table, here, adjacent_spaces(table, floor.index[target.at]))
            if path:
                _walk(table, unit, path[:steps], "patrol")
                return True
        table.emit(UnitStayed(unit=unit.id, space=unit.space, reason="no way to patrol"))
    return True


def _patrol_target(table: Resolution, unit: SecurityUnit) -> Bot | None:
    """Closest Bot: the nearest bot on the floor; the star icon: the command module (while it is in play)."""
    bots = [b for b in table.active_bots() if not b.hidden and not fooled(unit, b)]
    if unit.patrol == "star":
        module = [b for b in bots if b.kind == "module"]
        if module:
            return module[0]
    here = table.floor.index[unit.space]
    D = table.distances()
    best, best_d = None, UNREACHABLE
    for b in bots:
        d = D[here][table.floor.index[b.at]]
        if d < best_d:
            best, best_d = b, d
    return best


def _pace(table: Resolution, unit: SecurityUnit, steps: int) -> None:
    """Pace: straight ahead along the facing, turning about when the way ahead is a wall, a door, the end
    of its area or another unit."""
    floor = table.floor
    path: list[int] = []
    cur = floor.index[unit.space]
    facing = unit.facing
    turned = False
    while len(path) < steps:
        nb = floor.neighbour[cur].get(facing)
        # its own starting space is free to walk back over once it has turned about
        if nb is not None and nb[1] == "open" and table.occupant.get(nb[0], unit) is unit:
            cur = nb[0]
            path.append(cur)
            turned = False
            continue
        if turned:
            break
        facing = OPPOSITE[facing]
        turned = True
    if path:
        _walk(table, unit, path, "patrol")
        if unit.facing != facing:
            unit.facing = facing
            recheck(table)
    elif facing != unit.facing:
        unit.facing = facing
        table.emit(UnitTurned(unit=unit.id, space=unit.space, facing=facing))
        recheck(table)
    else:
        table.emit(UnitStayed(unit=unit.id, space=unit.space, reason="boxed in"))


def _perimeter(table: Resolution, unit: SecurityUnit, steps: int) -> None:
    """Perimeter: clockwise along the inside edge of its area (wall on its left)."""
    floor = table.floor
    here = floor.index[unit.space]
    ring = floor.perimeter(floor.area_of[here])
    positions = [k for k, (s, _) in enumerate(ring) if s == here]
    if not positions:
        ring_spaces = {s for s, _ in ring}
        way = path_to(table, here, ring_spaces)
        if way:
            _walk(table, unit, way[:steps], "patrol")
        else:
            table.emit(UnitStayed(unit=unit.id, space=unit.space, reason="boxed in"))
        return
    k = next((p for p in positions if ring[p][1] == unit.facing), positions[0])
    path: list[int] = []
    for _ in range(steps):
        k = (k + 1) % len(ring)
        s = ring[k][0]
        if s in table.occupant and s != here:
            break
        if s == (path[-1] if path else here):
            continue
        path.append(s)
    if path:
        _walk(table, unit, path, "patrol")
    else:
        table.emit(UnitStayed(unit=unit.id, space=unit.space, reason="way blocked"))


def _teleport(table: Resolution, unit: SecurityUnit) -> None:
    """"Patrol: Teleport. Fauxbia teleports to the unoccupied hallway security post closest to a bot.\""""
    floor = table.floor
    D = table.distances()
    bots = [floor.index[b.at] for b in table.active_bots() if not b.hidden]
    here = floor.index[unit.space]
    best, best_d, best_bot = None, UNREACHABLE, None
    for kind in ("post1", "post2", "post3", "star"):
        for p in floor.posts.get(kind, ()):
            if floor.area(p).is_room or (p in table.occupant and p != here):
                continue
            for b in bots:
                if D[p][b] < best_d or (D[p][b] == best_d and best is not None and p < best):
                    best, best_d, best_bot = p, D[p][b], b
    if best is None or best == here:
        table.emit(UnitStayed(unit=unit.id, space=unit.space,
                              reason="already at the hallway post closest to a bot" if best == here
                              else "no free hallway post"))
        return
    start = unit.space
    mark = len(table.events)
    table.move_occupant(unit, best)
    if best_bot is not None:
        # face the bot: straight at it when the post is next to it, else along the way toward it
        d = floor.direction(best, best_bot)
        if d is None:
            toward = path_to(table, best, adjacent_spaces(table, best_bot))
            d = floor.direction(best, toward[0]) if toward else None
        unit.facing = d or unit.facing
    clear_awareness_at(table, unit, unit.space)
    recheck(table)
    table.events.insert(mark, UnitMoved(unit=unit.id, path=[start, unit.space],
                                        facing=unit.facing, reason="teleport"))

