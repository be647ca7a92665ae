"""Strike actions: against security units and against walls.

"The total AP rolled must equal or exceed the durability of the target in a single attempt; AP cannot be
accumulated across multiple actions."
"""

from __future__ import annotations

from controller.rules.action_types import Strike, StrikeWall
from controller.rules.board.awareness import place_awareness, step_bot
from controller.rules.board.geometry import DIRECTIONS, MAX_DESTROYED_WALLS, edge_id, exterior_wall_id
from controller.rules.cards.mods import mod_bonus
from controller.rules.characters.interface import INTERFACE, check_can_disguise, don_disguise
from controller.rules.characters.proprietary_dice import announce_check, pool_dice, roll_proprietary
from controller.rules.corporation.threat import change_threat
from controller.rules.errors import IllegalAction
from controller.rules.events import (
    BotMoved,
    KeyTaken,
    UnitRemoved,
    UnitStruck,
    WallDestroyed,
    WallHeld,
    bot_ref,
    unit_ref,
)
from controller.rules.legal import LegalAction, dice_label, pool_choices
from controller.rules.missions import special_rules
from controller.rules.players.ap import OPTIMIZED_BONUS, roll_ap
from controller.rules.players.moves import current_chip_kind, movers, surveil
from controller.rules.players.power_gain import gain_power
from controller.rules.resolution import Resolution, unit_label
from controller.rules.state import Bot, DicePool, SecurityUnit

WALL_DURABILITY = 10  # "Durability: 10 AP."
STUN_MARGIN = 5  # "If the strike fails but comes within 5 AP of the durability value"


def striker(resolution: Resolution, bot_id: str) -> Bot:
    bot = next((b for b in movers(resolution) if b.id == bot_id), None)
    if bot is None:
        raise IllegalAction(f"{bot_id} cannot strike now: either the agent or the command module may strike")
    return bot


def _bonus(resolution: Resolution) -> int:
    # "Physical actions comprise move actions and strike actions. When activated on a physical action chip,
    # they are optimized and provide an extra +2 AP for that action."
    return OPTIMIZED_BONUS if current_chip_kind(resolution) == "physical" else 0


def check_strike_unit(resolution: Resolution, bot_id: str, unit_id: str) -> tuple[Bot, SecurityUnit]:
    bot = striker(resolution, bot_id)
    unit = next((u for u in resolution.state.security if u.id == unit_id), None)
    if unit is None:
        raise IllegalAction(f"there is no security unit {unit_id} on the floor")
    floor = resolution.floor
    here = floor.index[bot.at]
    # "Adjacency is evaluated from the perspective of the acting unit": a bot's, so locked doors block.
    if floor.index[unit.space] not in {j for _, j in floor.bot_neighbours(here, resolution.unlocked,
                                                                          resolution.destroyed)}:
        raise IllegalAction(f"{unit_label(unit)} is not adjacent to {bot.name}: a bot adjacent to a security "
                            f"unit may strike it")
    return bot, unit


def strike_unit(resolution: Resolution, bot_id: str, unit_id: str, dice: DicePool, stun_only: bool = False,
                 disguise: bool = False) -> None:
    """`disguise`: Interface takes the guard's chip as its disguise if the strike shuts the guard down."""
    bot, unit = check_strike_unit(resolution, bot_id, unit_id)
    if disguise:
        check_can_disguise(bot, unit)
    ap = roll_ap(resolution, dice, _bonus(resolution) + mod_bonus(bot, "strike_ap"), f"strike on {unit_label(unit)}")
    durability = special_rules.durability(resolution, unit)
    if ap >= durability and not stun_only:
        result = "shut down"
    elif ap >= durability - STUN_MARGIN:
        # ">> Players may intentionally use less than the rolled AP, such as electing to stun a guard"
        result = "stunned"
    else:
        result = "no effect"
    resolution.emit(UnitStruck(unit=unit.id, bot=bot.id, ap=ap, durability=durability, result=result))
    if result == "shut down":
        # "the guard chip is discarded and the striking bot gains 1 power. If the guard carries a key, the bot
        # takes the key into its inventory."
        resolution.state.security.remove(unit)
        del resolution.occupant[resolution.floor.index[unit.space]]
        _count_shut_down(resolution, unit)
        resolution.emit(UnitRemoved(unit=unit.id, space=unit.space))
        gain_power(resolution, bot, 1, "shut down a security unit")
        key = f"shut_down_by:{bot.id}"
        resolution.state.progress[key] = resolution.state.progress.get(key, 0) + 1
        _claim_key(resolution, bot, unit)
        if disguise:
            don_disguise(resolution, bot, unit)
    elif result == "stunned":
        unit.stunned = True
        _claim_key(resolution, bot, unit)  # "A key held by a stunned guard is also claimed by the striking bot."
    # "Striking a security unit always advances threat by 1 and immediately causes the striking bot to
    # become detected, regardless of success."
    change_threat(resolution, 1, f"{bot_ref(bot.id)} struck {unit_ref(unit.id)}")
    if not resolution.over:
        place_awareness(resolution, bot, "striking", unit)


def _count_shut_down(resolution: Resolution, unit: SecurityUnit) -> None:
    """Mission progress: "Shut down the captain", "a level 3 Ghost", "a guard while it occupies a terminal"."""
    progress = resolution.state.progress
    kinds = ["captain" if unit.rank == "captain" else "guard"]
    if unit.chip == "Ghost":
        kinds.append("ghost")
    feature = resolution.floor.feature[resolution.floor.index[unit.space]]
    if unit.space in resolution.state.floor.terminals or feature in ("terminal", "mainframe"):
        kinds.append("guard_on_terminal")
    for kind in kinds:
        progress[f"shut_down:{kind}"] = progress.get(f"shut_down:{kind}", 0) + 1


def _claim_key(resolution: Resolution, bot: Bot, unit: SecurityUnit) -> None:
    if unit.key:
        unit.key = False
        bot.keys += 1
        resolution.emit(KeyTaken(bot=bot.id, keys=bot.keys))


def check_strike_wall(resolution: Resolution, bot_id: str, beyond: str | None,
                      side: str | None = None) -> tuple[Bot, str, int | None]:
    """The wall between the bot and the space `beyond` it, or on the bot's `side` (N, E, S, W): the wall to
    the space there, or, with no space there, an exterior wall. Returns (bot, wall, the space beyond or
    None for an exterior wall)."""
    bot = striker(resolution, bot_id)
    floor = resolution.floor
    here = floor.index[bot.at]
    either = "name the wall by the space beyond it or by the side of the bot's space it is on"
    if side is not None:
        if beyond is not None:
            raise IllegalAction(either)
        if side not in DIRECTIONS:
            raise IllegalAction(f"{side!r} is not a side of a space: N, E, S or W")
        if side not in floor.neighbour[here]:
            wall = exterior_wall_id(bot.at, side)
            if wall in resolution.destroyed:
                raise IllegalAction(f"the exterior wall {wall} is already destroyed")
            _check_wall_limit(resolution)
            return bot, wall, None
        beyond = floor.ids[floor.neighbour[here][side][0]]
    elif beyond is None:
        raise IllegalAction(either)
    if beyond not in floor.index:
        raise IllegalAction(f"{beyond} is not a space of {floor.name}")
    kind = floor.edge_between(here, floor.index[beyond])
    wall = edge_id(bot.at, beyond)
    if kind == "door":
        raise IllegalAction(f"{wall} is a door: bots cannot strike a wall segment that already contains a door")
    if kind != "wall" or wall in resolution.destroyed:
        raise IllegalAction(f"no wall stands between {bot.space} and {beyond}: a bot adjacent to a wall may "
                            f"attempt to destroy it")
    _check_wall_limit(resolution)
    return bot, wall, floor.index[beyond]


def _check_wall_limit(resolution: Resolution) -> None:
    if len(resolution.state.floor.destroyed_walls) >= MAX_DESTROYED_WALLS:
        raise IllegalAction(f"only {MAX_DESTROYED_WALLS} walls can be destroyed per floor")


def strike_wall(resolution: Resolution, bot_id: str, beyond: str | None, dice: DicePool, move_through: bool = True,
                side: str | None = None) -> None:
    bot, wall, target = check_strike_wall(resolution, bot_id, beyond, side)
    announce_check(resolution, bot, dice, "force", f"strike on the wall {wall}")
    lift = roll_proprietary(resolution, bot, dice, "force", f"strike on the wall {wall}")  # Bit's lift die
    ap = lift + roll_ap(resolution, pool_dice(dice), _bonus(resolution) + mod_bonus(bot, "strike_ap"),
                        f"strike on the wall {wall}")
    if ap < WALL_DURABILITY:
        # "Failure: No chip is placed and the bot remains undetected."
        resolution.emit(WallHeld(wall=wall, bot=bot.id, ap=ap, durability=WALL_DURABILITY))
        return
    # "Success: Place a destroyed wall chip ... The striking bot becomes detected and may immediately take a
    # free move through the opening into an empty space."
    resolution.state.floor.destroyed_walls.append(wall)
    resolution.destroyed = frozenset(resolution.state.floor.destroyed_walls)
    resolution.emit(WallDestroyed(wall=wall))
    special_rules.wall_destroyed(resolution)
    place_awareness(resolution, bot, f"breaking the wall {wall}")
    # ">> Exterior walls can be attacked, but openings lead nowhere unless granted a specific rule by the
    # mission card": no shipped mission grants one, so there is no free move out
    if target is None:
        return
    beyond = resolution.floor.ids[target]
    if move_through and target not in resolution.occupant and not resolution.over \
            and not special_rules.safe_zone_closed(resolution, target):
        start = bot.at
        mark = len(resolution.events)
        step_bot(resolution, bot, target)
        resolution.events.insert(mark, BotMoved(bot=bot.id, path=[start, beyond]))
        area = resolution.floor.area(target)
        if resolution.floor.ids[area.spaces[0]] in resolution.state.floor.surveillance and not resolution.over:
            # "Entering an unsurveilled room (containing a surveillance bead) halts movement on the first
            # space to roll the surveillance dice": the free move through the opening enters the room too.
            surveil(resolution, bot, area.index)


# -- what is legal now (composed by actions.legal_actions) ---------------------------------------------------

def legal_strikes(resolution: Resolution, bot: Bot) -> list[LegalAction]:
    """The bot's strikes: on each adjacent security unit (Interface's disguising strike on a guard too), on each
    interior wall next to it and on the exterior walls of its space, while the floor's walls can still go."""
    turn = resolution.state.turn
    floor = resolution.floor
    out: list[LegalAction] = []
    unit_dice = pool_choices(turn.pool)
    force_dice = pool_choices(turn.pool, bot, "force")
    here = floor.index[bot.at]
    for _, j in floor.bot_neighbours(here, resolution.unlocked, resolution.destroyed):
        unit = resolution.occupant.get(j)
        if isinstance(unit, SecurityUnit):
            need = special_rules.durability(resolution, unit)
            out.append(LegalAction(Strike(bot=bot.id, unit=unit.id), f"durability {need}; {dice_label(unit_dice)}",
                                   choose=["dice"], dice=unit_dice, target_ap=need))
            if bot.id == INTERFACE and unit.rank == "guard":
                out.append(LegalAction(Strike(bot=bot.id, unit=unit.id, disguise=True),
                                       f"durability {need}; its chip becomes a disguise; {dice_label(unit_dice)}",
                                       choose=["dice"], dice=unit_dice, target_ap=need))
    if len(resolution.state.floor.destroyed_walls) >= MAX_DESTROYED_WALLS:
        return out
    force = dice_label(force_dice)
    for j, kind in floor.neighbour[here].values():
        if kind == "wall" and edge_id(bot.at, floor.ids[j]) not in resolution.destroyed:
            out.append(LegalAction(StrikeWall(bot=bot.id, beyond=floor.ids[j]),
                                   f"durability {WALL_DURABILITY}; {force}", choose=["dice"], dice=force_dice,
                                   target_ap=WALL_DURABILITY))
    for side in DIRECTIONS:
        if side not in floor.neighbour[here] and exterior_wall_id(bot.at, side) not in resolution.destroyed:
            out.append(LegalAction(StrikeWall(bot=bot.id, side=side),
                                   f"durability {WALL_DURABILITY}; an exterior wall: the opening leads nowhere; "
                                   f"{force}", choose=["dice"], dice=force_dice, target_ap=WALL_DURABILITY))
    return out
