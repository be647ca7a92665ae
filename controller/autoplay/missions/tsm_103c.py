"""TSM-103C: no reboots, so the chips are the mission; each agent pushes a unit through a door; Dial Out.

The module pays the fourth slot for its general chip, a chip with nothing better to do draws a physical chip
for threat early on, each agent pushes a unit through a door (on its way, or once the module has its
terminals), and for Dial Out every bot holds a terminal space while the IP heads for the core.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from controller.autoplay.missions.strategy import (
    StandardPlay,
    floor_view,
    module_errand,
    on_terminal_spaces,
    terminal_spaces,
    unfinished_tasks,
)
from controller.autoplay.tuning import DRAW_CHIP_THREAT, PUSH_BUY, PUSH_ON_THE_WAY
from controller.rules import (
    Action,
    Bot,
    BuyUpgrade,
    DrawChip,
    GameState,
    Objective,
    Resolution,
    UnlockSlot,
    objective_applies,
    objective_done,
)

if TYPE_CHECKING:
    from controller.autoplay.paths import PathCosts


class Tsm103c(StandardPlay):
    """TSM-103C's play (docs/autoplay.md, "TSM-103C")."""

    def upgrade(self, paths: PathCosts, table: Resolution, agent: Bot, legal: Sequence[Action]) -> Action | None:
        """The push upgrade is bought when it is used, within PUSH_BUY steps of a unit to push through a door,
        the agent's power (its dice) kept till then."""
        push = BuyUpgrade(bot=agent.id, upgrade="push")
        if push in legal and agent.power >= 3 and self.owes_push_through_door(table, agent) and \
                door_pushes(table, near=agent, within=PUSH_BUY):
            return push
        return None

    def fourth_slot(self, table: Resolution, agent: Bot, cost: int) -> UnlockSlot | None:
        """"The burncycle cannot be rebooted", and an unlocked slot "immediately receive[s] a general action
        chip": the module pays even with its own errand, as the chip and the slot are what walk it to its
        terminals."""
        return UnlockSlot(payers={"module": cost - 1, agent.id: 1})

    def task_targets(self, paths: PathCosts, table: Resolution, bot: Bot, open_tasks: list[Objective]) -> set[int]:
        """The units to push through a door while the bot owes it; after the calibration, for Dial Out, a
        terminal space no other bot holds."""
        state = table.state
        if self.owes_push_through_door(table, bot):
            # "Each agent: Use the push ability to push a security unit through a door": the agent walks into
            # a unit that stands beside a door with a free space beyond it, once the module has its terminals
            # (the agent's walks share the move AP the module's walk needs)
            if not module_errand(table, paths.notes):
                return door_pushes(table)
            # before that, a unit right beside the agent is pushed on the way: a step or two of AP, not the walk
            beside = door_pushes(table, near=bot, within=PUSH_ON_THE_WAY)
            if beside:
                return beside
        if not state.calibrated or state.later_floors:
            return set()
        wins = {o.task for o in state.mission.win
                if objective_applies(state, o) and not objective_done(state, table, o, False)}
        if "core_while_on_terminals" in wins:
            # "Land on the network core with their IP while all bots occupy terminal spaces"
            return {s for s in terminal_spaces(table) if table.occupant.get(s) in (None, bot)}
        return set()

    def draws_chip(self, table: Resolution, legal: list) -> bool:
        """"As a general action, an agent may advance threat by 5 to draw an action chip of their choice": a
        chip with nothing better to do draws a physical chip while threat stays within DRAW_CHIP_THREAT. The
        burncycle cannot be rebooted, so each chip drawn early is a physical chip's +2 AP on a move for every
        turn it lives, and the network cards' threat reductions have the turns to win the 5 back."""
        return table.state.threat + table.state.mission.rules.chip_for_threat <= DRAW_CHIP_THREAT and \
            any(isinstance(la.action, DrawChip) for la in legal)

    def holds_target(self, paths: PathCosts, table: Resolution) -> bool:
        """Dial Out: "Land on the network core with their IP while all bots occupy terminal spaces": after the
        calibration a bot on its terminal space stays there, guard or not, rather than stepping out of reach
        and back (a step off on the turn the IP could land loses the landing)."""
        state = table.state
        return state.calibrated and any(o.task == "core_while_on_terminals" and objective_applies(state, o)
                                        for o in state.mission.win)

    def owes_push_through_door(self, table: Resolution, bot: Bot) -> bool:
        """Whether the bot still owes "Each agent: Use the push ability to push a security unit through a
        door"."""
        state = table.state
        return not state.calibrated and bot.kind == "agent" and \
            any(o.task == "push_through_door" and objective_applies(state, o) for o in state.mission.calibrations) \
            and state.progress.get(f"push_through_door:{bot.id}", 0) < 1

    def core_layer(self, state: GameState) -> int:
        """Dial Out: to the core once every bot occupies a terminal space, next to it until then (a landing
        too early is wasted)."""
        table = floor_view(state)
        if "core_while_on_terminals" in unfinished_tasks(state, table) and state.calibrated:
            return 4 if all(on_terminal_spaces(table).values()) else 3
        return 0

def door_pushes(table: Resolution, near: Bot | None = None, within: int = 0) -> set[int]:
    """The spaces of the units a push can shove through a door: a free space lies beyond a door of theirs
    ("shove a security unit to an adjacent empty space"; guards pass doors, locked or not); with `near`, only
    those within `within` steps of that bot."""
    floor = table.floor
    here = floor.index[near.at] if near is not None else None
    spaces = set()
    for unit in table.state.security:
        at = floor.index[unit.space]
        if here is not None and table.distances()[here][at] > within:
            continue
        if any(floor.edge_between(at, j) == "door" and j not in table.occupant
               for _, j in floor.security_neighbours(at, table.destroyed)):
            spaces.add(at)
    return spaces
