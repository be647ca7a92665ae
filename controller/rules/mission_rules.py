"""Mission special rules that change how the game plays, applied from the mission's data (`Mission.rules`).

The Adaptable missions' printed rules are kept as text in `Mission.special_rules`; the ones the engine
enforces are flags here, each hooked where the thing it reacts to happens (a door unlocked, a cache taken,
the corporation turn starting), so no other module needs to know which mission is being played.
"""

from __future__ import annotations

from controller.rules.errors import IllegalAction
from controller.rules.burncycle import add_to_reserve
from controller.rules.events import IpBanned, StepStarted
from controller.rules.model import Bot
from controller.rules.table import Table, unit_label
from controller.rules.threat import change_threat

CHOOSABLE = ("physical", "tech", "utility", "general")


def _rules(table: Table):
    return table.state.mission.rule(table.state.calibrated)


def door_changed(table: Table, door: str, unlocked: bool) -> None:
    """Preconnaissance: "Whenever a non-safe zone door is unlocked or a wall is destroyed, advance threat by 3.
    Whenever an unlocked non-safe zone door is locked, reduce threat by 3.\""""
    amount = _rules(table).door_threat
    if not amount:
        return
    floor = table.floor
    a, b = (floor.index[s] for s in door.split("/"))
    if floor.in_safe_zone(a) or floor.in_safe_zone(b):
        return
    change_threat(table, amount if unlocked else -amount,
                  f"{table.state.mission.name}: a door {'unlocked' if unlocked else 'locked'}")


def wall_destroyed(table: Table) -> None:
    amount = _rules(table).door_threat
    if amount:
        change_threat(table, amount, f"{table.state.mission.name}: a wall destroyed")


def chip_for_access(table: Table, bot: Bot, chip: str | None) -> None:
    """TSM-103C: "After a bot collects a cache or accesses a terminal, they may draw an action chip of their
    choice from the supply and add it to their reserve." (None: the engine takes a physical chip.)"""
    if not _rules(table).chip_for_access:
        return
    _add_chip(table, bot, chip or "physical")


def chip_for_threat(table: Table, agent: Bot, chip: str) -> None:
    """TSM-103C: "As a general action, an agent may advance threat by 5 to draw an action chip of their
    choice from the supply and add it to their reserve.\""""
    amount = _rules(table).chip_for_threat
    if not amount:
        raise IllegalAction(f"{table.state.mission.name} has no general action that trades threat for a chip")
    if agent.kind != "agent":
        raise IllegalAction("only an agent may take this general action")
    change_threat(table, amount, f"{agent.name} draws an action chip")
    if not table.over:
        _add_chip(table, agent, chip)


def _add_chip(table: Table, bot: Bot, chip: str) -> None:
    if chip not in CHOOSABLE:
        raise IllegalAction(f"{chip!r} is not an action chip in the supply (physical, tech, utility, general)")
    add_to_reserve(table, bot, chip)


def start_of_corporation_turn(table: Table) -> None:
    """Ghost in the Dell: "At the start of the corporation's turn, if there is at least one IP on each of the
    layers indicated by player count, the level 3 Ghosts and the captain are stunned and threat advances by
    1" (level 1: layer 1; 2: layers 1 and 2; 3: layers 1-3; 4: layers 1-4)."""
    if not _rules(table).ghost_stuns:
        return
    state = table.state
    layer_of = {n.id: n.layer for n in state.network.mat.nodes}
    held = {layer_of[ip.node] for ip in state.network.ips if ip.node is not None and not ip.banned}
    if not set(range(1, state.players + 1)) <= held:
        return
    for unit in state.security:
        if (unit.rank == "captain" or unit.chip == "Ghost") and not unit.stunned:
            unit.stunned = True
            table.emit(StepStarted(step="stunned", text=f"Flip {unit_label(unit)} face down: it is stunned."))
    change_threat(table, 1, f"{state.mission.name}: IPs on the team's layers")


def on_calibration(table: Table) -> None:
    """Preconnaissance's result: "All IPs are immediately banned from the network.\""""
    if not table.state.mission.rules.calibration_bans_ips:
        return
    for ip in table.state.network.ips:
        if not ip.banned:
            table.emit(IpBanned(agent=ip.agent, node=ip.node or "-"))
            ip.banned, ip.node = True, None

