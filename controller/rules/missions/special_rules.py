"""Mission special rules that change how the game plays, applied from the mission's data (`Mission.rules`).

The Adaptable missions' printed rules are kept as text in `Mission.special_rules`; the ones the engine
enforces are flags here, each hooked where the thing it reacts to happens (a door unlocked, a cache taken,
the corporation turn starting), so no other module needs to know which mission is being played.
"""

from __future__ import annotations

from controller.rules.action_types import DrawChip
from controller.rules.board.awareness import recheck
from controller.rules.board.geometry import UNREACHABLE
from controller.rules.corporation.security import damage_bot
from controller.rules.corporation.threat import change_threat
from controller.rules.errors import IllegalAction
from controller.rules.events import (
    CALIBRATION_REF,
    MISSION_REF,
    BeadPlaced,
    BotMoved,
    IpBanned,
    ObjectiveBeadPlaced,
    StepStarted,
    bot_ref,
)
from controller.rules.legal import Cost, LegalAction
from controller.rules.missions import draw_bag
from controller.rules.players.burncycle import add_to_reserve
from controller.rules.resolution import Resolution
from controller.rules.state import IP, Bot, ChipKind, SecurityUnit

CHOOSABLE: tuple[ChipKind, ...] = ("physical", "tech", "utility", "general")


def _rules(resolution: Resolution):
    return resolution.state.mission.rule(resolution.state.calibrated)


def door_changed(resolution: Resolution, door: str, unlocked: bool) -> None:
    """Preconnaissance: "Whenever a non-safe zone door is unlocked or a wall is destroyed, advance threat by 3.
    Whenever an unlocked non-safe zone door is locked, reduce threat by 3.\""""
    amount = _rules(resolution).door_threat
    if not amount:
        return
    floor = resolution.floor
    a, b = (floor.index[s] for s in door.split("/"))
    if floor.in_safe_zone(a) or floor.in_safe_zone(b):
        return
    change_threat(resolution, amount if unlocked else -amount,
                  f"{MISSION_REF}: a door {'unlocked' if unlocked else 'locked'}")


def wall_destroyed(resolution: Resolution) -> None:
    amount = _rules(resolution).door_threat
    if amount:
        change_threat(resolution, amount, f"{MISSION_REF}: a wall destroyed")


def chip_for_access(resolution: Resolution, bot: Bot, chip: str | None) -> None:
    """TSM-103C: "After a bot collects a cache or accesses a terminal, they may draw an action chip of their
    choice from the supply and add it to their reserve." (None: the engine takes a physical chip.)"""
    if not _rules(resolution).chip_for_access:
        return
    _add_chip(resolution, bot, chip or "physical")


def chip_for_threat(resolution: Resolution, agent: Bot, chip: str) -> None:
    """TSM-103C: "As a general action, an agent may advance threat by 5 to draw an action chip of their
    choice from the supply and add it to their reserve.\""""
    amount = _rules(resolution).chip_for_threat
    if not amount:
        raise IllegalAction(f"{resolution.state.mission.name} has no general action that trades threat for a chip")
    if agent.kind != "agent":
        raise IllegalAction("only an agent may take this general action")
    change_threat(resolution, amount, f"{bot_ref(agent.id)} draws an action chip")
    if not resolution.over:
        _add_chip(resolution, agent, chip)


def _add_chip(resolution: Resolution, bot: Bot, chip: str) -> None:
    kind = next((k for k in CHOOSABLE if k == chip), None)
    if kind is None:
        raise IllegalAction(f"{chip!r} is not an action chip in the supply (physical, tech, utility, general)")
    add_to_reserve(resolution, bot, kind)


def start_of_corporation_turn(resolution: Resolution) -> None:
    """Ghost in the Dell: "At the start of the corporation's turn, if there is at least one IP on each of the
    layers indicated by player count, the level 3 Ghosts and the captain are stunned and threat advances by
    1" (level 1: layer 1; 2: layers 1 and 2; 3: layers 1-3; 4: layers 1-4)."""
    if not _rules(resolution).ghost_stuns:
        return
    state = resolution.state
    layer_of = {n.id: n.layer for n in state.network.mat.nodes}
    held = {layer_of[ip.node] for ip in state.network.ips if ip.node is not None and not ip.banned}
    if not set(range(1, state.players + 1)) <= held:
        return
    for unit in state.security:
        if (unit.rank == "captain" or unit.chip == "Ghost") and not unit.stunned:
            unit.stunned = True
            resolution.emit(StepStarted(step="stunned", unit=unit.id))
    change_threat(resolution, 1, f"{MISSION_REF}: IPs on the team's layers")


def on_calibration(resolution: Resolution) -> None:
    """The calibration results: Preconnaissance's "All IPs are immediately banned from the network.",
    Rescue Rangers' "Add the command module to the draw bag." and Do-While-End's eviction from safe zones."""
    rules = resolution.state.mission.rules
    if rules.calibration_bans_ips:
        for ip in resolution.state.network.ips:
            if not ip.banned:
                resolution.emit(IpBanned(agent=ip.agent, node=ip.node or "-"))
                ip.banned, ip.node = True, None
    if rules.calibration_bags_module:
        draw_bag.bag_module(resolution)
    if rules.calibration_evicts_safe_zones:
        _evict_safe_zones(resolution)


def _evict_safe_zones(resolution: Resolution) -> None:
    """Do-While-End: "Bots in safe zones lose 1 power and are relocated to the closest unoccupied space not in
    a safe zone." Closest by path distance (doors count as open), ties in reading order."""
    floor = resolution.floor
    D = resolution.distances()
    for bot in resolution.state.bots:
        if not bot.on_board or not floor.in_safe_zone(floor.index[bot.at]):
            continue
        damage_bot(resolution, bot, 1, f"{CALIBRATION_REF}: bots in safe zones lose 1 power")
        here = floor.index[bot.at]
        free = [s for s in range(len(floor.ids)) if s not in resolution.occupant and not floor.in_safe_zone(s)
                and D[here][s] < UNREACHABLE]
        if not free:
            continue
        start = bot.at
        resolution.move_occupant(bot, min(free, key=lambda s: (D[here][s], s)))
        bot.hidden = False
        resolution.emit(BotMoved(bot=bot.id, path=[start, bot.at]))
    recheck(resolution)


def safe_zone_closed(resolution: Resolution, space: int) -> bool:
    """Do-While-End: "Bots cannot enter safe zones for the remainder of the mission.\""""
    state = resolution.state
    return (state.calibrated and state.mission.rules.calibration_evicts_safe_zones
            and resolution.floor.in_safe_zone(space))


def check_enter(resolution: Resolution, space: int) -> None:
    if safe_zone_closed(resolution, space):
        raise IllegalAction(f"{resolution.floor.ids[space]} is in a safe zone: after "
                            f"{resolution.state.mission.calibration_name}, bots cannot enter safe zones for the "
                            f"remainder of the mission")


def durability(resolution: Resolution, unit: SecurityUnit) -> int:
    """Do-While-End: "Security units have a durability of 5 when occupying terminal spaces.\""""
    state, floor = resolution.state, resolution.floor
    amount = state.mission.rules.calibration_terminal_durability
    if amount and state.calibrated and floor.feature[floor.index[unit.space]] in draw_bag.TERMINAL_SPACES:
        return amount
    return unit.durability


def start_of_agent_turn(resolution: Resolution, agent: Bot) -> None:
    """Rescue Rangers' result: "Each agent loses 1 power at the start of their turn until the command module
    is drawn.\""""
    amount = resolution.state.mission.rules.drain_while_module_bagged
    if amount and agent.on_board and not agent.shut_down and draw_bag.module_bagged(resolution.state):
        damage_bot(resolution, agent, amount, "the command module is still in the draw bag")


def end_of_round(resolution: Resolution) -> None:
    """Rescue Rangers: "At the end of each round, every unoccupied surveilled room becomes unsurveilled
    (place a surveillance bead if it gets one)." A room is occupied while any unit (bot or security) is in it."""
    state, floor = resolution.state, resolution.floor
    if not state.mission.rule(state.calibrated).resurveil_at_round_end:
        return
    for area in floor.areas:
        anchor = floor.ids[area.spaces[0]]
        if area.kind != "room" or area.surveillance == 0 or anchor in state.floor.surveillance:
            continue
        if any(s in resolution.occupant for s in area.spaces):
            continue
        state.floor.surveillance.append(anchor)
        resolution.emit(BeadPlaced(room=area.name, space=anchor))


def end_of_agent_turn(resolution: Resolution) -> None:
    """Preconnaissance: "Command Module: At the end of three different agent turns, occupy a command module
    space. The same space cannot be used multiple times. Place an objective bead on spaces that have been used
    to track." Counted in `progress["module_spaces:module"]`."""
    state, floor = resolution.state, resolution.floor
    if state.calibrated or not any(o.task.startswith("module_spaces") for o in state.mission.calibrations):
        return
    module = state.module_on_board()
    if module is None or module.space in state.objective_beads:
        return
    space = module.at
    if floor.feature[floor.index[space]] != "module":
        return
    state.objective_beads.append(space)
    state.progress["module_spaces:module"] = state.progress.get("module_spaces:module", 0) + 1
    resolution.emit(ObjectiveBeadPlaced(space=space, why="the command module occupies it at the end of a turn"))


def ip_on_core(resolution: Resolution, ip: IP) -> None:
    """Tasks judged when an IP lands on the core: Do-While-End's "Command Module: Occupy the terminal space in
    the room the captain started in when any IP lands on the core of the network" and Dial Out's "Land on the
    network core with their IP while all bots occupy terminal spaces"."""
    state, floor = resolution.state, resolution.floor
    tasks = {o.task for o in (*state.mission.calibrations, *state.mission.win)}

    def on_terminal(bot: Bot) -> bool:
        return bot.on_board and floor.feature[floor.index[bot.at]] in draw_bag.TERMINAL_SPACES

    task = "module_on_captain_terminal_when_core"
    if task in tasks and state.captain_start is not None:
        room = floor.area(floor.index[state.captain_start])
        module = next((b for b in state.bots if b.kind == "module"), None)
        if module is not None and on_terminal(module) and floor.index[module.at] in room.spaces:
            state.progress[task] = 1
    task = "core_while_on_terminals"
    bots = [b for b in state.bots if not b.escaped]
    if task in tasks and bots and all(on_terminal(b) for b in bots):
        state.progress[task] = 1


def legal_chip_for_threat(resolution: Resolution, agent: Bot) -> list[LegalAction]:
    """TSM-103C's general action, with the chips that can be drawn."""
    amount = _rules(resolution).chip_for_threat
    if not amount or agent.shut_down:
        return []
    return [LegalAction(DrawChip(), f"+{amount} threat; the chip to draw", bot=agent.id, choose=["chip"],
                        options={"chip": list(CHOOSABLE)}, cost=Cost(threat=amount))]
