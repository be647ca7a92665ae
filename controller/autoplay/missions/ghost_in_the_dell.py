"""Ghost in the Dell: Do-While-End, the module on the captain's terminal when an IP lands on the core, then
the captain (and Ghosts) shoved onto terminal spaces, where their durability is 5, and struck.

Until the IP can land this turn the module waits hidden near the captain's terminal; after the calibration
the IPs hold the team's layers so the captain and the Ghosts stay stunned, the module buys push and shoves
the captain one space at a time toward the nearest free terminal space, and the agents keep their power (the
strike's dice) out of the guards' sight and reach.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from controller.autoplay.memory import CorePlan
from controller.autoplay.missions.strategy import (
    StandardPlay,
    floor_view,
    is_prey,
    module_near,
    on_terminal_spaces,
    terminal_spaces,
    unfinished_tasks,
)
from controller.autoplay.network_step import core_in_reach
from controller.autoplay.tuning import HIDING_REACH
from controller.rules import (
    Action,
    Bot,
    BuyUpgrade,
    GameState,
    Objective,
    Resolution,
    SecurityUnit,
    StateError,
    UnlockSlot,
    objective_applies,
    objective_done,
    unit_durability,
)

if TYPE_CHECKING:
    from controller.autoplay.paths import PathCosts


class GhostInTheDell(StandardPlay):
    """Ghost in the Dell's play (docs/autoplay.md, "Ghost in the Dell")."""

    def upgrade(self, paths: PathCosts, table: Resolution, agent: Bot, legal: Sequence[Action]) -> Action | None:
        """The win's unit is to be pushed onto a terminal: the module near it learns to push, else the agent."""
        state = table.state
        if not state.calibrated:
            return None
        shove = self.shove(paths, table)
        module_push = BuyUpgrade(bot="module", upgrade="push")
        if shove is not None and module_push in legal and module_near(table, [shove[0]]) \
                and state.bot("module").power >= 3:
            return module_push
        push = BuyUpgrade(bot=agent.id, upgrade="push")
        if shove is not None and push in legal and agent.power >= 3:
            return push
        return None

    def fourth_slot(self, table: Resolution, agent: Bot, cost: int) -> UnlockSlot | None:
        """The module has its own errand out on the floor (the captain's terminal): its power is its health
        there, so the agent pays, keeping 3 for its dice; an agent too weak for that (Nano's 4, Casing's 5)
        pays 1 and the module the rest, as without the slot the team reboots about once a round (two players
        on the lobby, seeds 1000-1199: calibrations 19 -> 73 of 200; docs/autoplay.md, "Ghost in the Dell")."""
        if agent.power - cost >= 3:
            return UnlockSlot(payers={agent.id: cost})
        return UnlockSlot(payers={"module": cost - 1, agent.id: 1})

    def task_targets(self, paths: PathCosts, table: Resolution, bot: Bot, open_tasks: list[Objective]) -> set[int]:
        """The module to the captain's terminal (or hidden near it); after the calibration the agents to the
        spaces beside the win's units (or behind the one being shoved), the module out of the fight."""
        state, floor = table.state, table.floor
        mine = {o.task.split(":")[0] for o in open_tasks if (o.qualifier == "module") == (bot.kind == "module")}
        if "module_on_captain_terminal_when_core" in mine and state.captain_start is not None:
            terminals = captain_terminals(table)
            hiding = hiding_near(table, bot, terminals)
            here = floor.index[bot.at]
            if not hiding or self.core_in_reach(paths, table) or here in terminals:
                return terminals
            # "when any IP lands on the core": until the IP can land in this turn's network step, the module
            # waits hidden near the terminal ("When entered by an undetected bot (or outside enemy awareness),
            # the bot hides and cannot be detected via awareness") instead of standing in the captain's room
            return hiding
        if not state.calibrated or state.later_floors:
            return set()
        wins = {o.task for o in state.mission.win
                if objective_applies(state, o) and not objective_done(state, table, o, False)}
        prey = [u for u in state.security if any(is_prey(table, u, w) for w in wins)]
        if prey and bot.kind == "agent" and module_near(table, prey):
            # the module at the captain pushes and strikes with this agent's dice: the agent's power is the
            # strike's AP, kept out of the guards' reach
            return cover(paths, table, bot)
        if prey and (bot.kind == "agent" or module_near(table, prey)):
            shove = self.shove(paths, table)
            if shove is not None:
                # "Security units have a durability of 5 when occupying terminal spaces": the agent gets
                # behind the unit to push it onto a terminal
                unit, onto = shove
                at = floor.index[unit.space]
                terminals = terminal_spaces(table)
                return {j for _, j in floor.bot_neighbours(at, table.unlocked, table.destroyed)
                        if j != onto and j not in terminals} or {at}
            weak = [u for u in prey if unit_durability(table, u) < u.durability] or prey
            return {j for u in weak for _, j in floor.bot_neighbours(floor.index[u.space], table.unlocked,
                                                                      table.destroyed)}
        # "Bots cannot enter safe zones for the remainder of the mission": the module keeps out of the fight,
        # off the terminal spaces a unit is to be pushed onto
        here = floor.index[bot.at]
        if here in terminal_spaces(table):
            terminals = terminal_spaces(table)
            return {j for _, j in floor.bot_neighbours(here, table.unlocked, table.destroyed)
                    if j not in terminals and j not in table.occupant} or {here}
        return {here}

    def holds_target(self, paths: PathCosts, table: Resolution) -> bool:
        """Behind the unit to be pushed, or beside it on its terminal: the push or the strike waits for the AP
        of a later chip."""
        return self.shove(paths, table) is not None or prey_struck_here(table)

    def shove(self, paths: PathCosts, table: Resolution) -> tuple[SecurityUnit, int] | None:
        """Do-While-End's endgame: the win's unit nearest to a terminal space (off one) and the space to push it
        to, one step along its shortest way there ("shove a security unit to an adjacent empty space")."""
        if "shove" in paths.notes.memo:
            return cast("tuple[SecurityUnit, int] | None", paths.notes.memo["shove"])
        state, floor = table.state, table.floor
        found = None
        # a unit already on a terminal is struck before another is shoved
        if state.calibrated and not prey_struck_here(table):
            wins = [o.task for o in state.mission.win if objective_applies(state, o)]
            terminals = terminal_spaces(table)
            free = {t for t in terminals if not isinstance(table.occupant.get(t), SecurityUnit)
                    and not (isinstance(there := table.occupant.get(t), Bot) and there.kind == "agent")}
            distances = table.distances()
            best = None
            for unit in state.security:
                at = floor.index[unit.space]
                if at in terminals or not any(is_prey(table, unit, w) for w in wins) or not free:
                    continue
                target = min(free, key=lambda t: distances[at][t])
                ways = [j for _, j in floor.security_neighbours(at, table.destroyed)
                        if distances[j][target] < distances[at][target]]
                if ways and (best is None or distances[at][target] < best[0]):
                    best = (distances[at][target], unit, min(ways))
            found = (best[1], best[2]) if best is not None else None
        paths.notes.memo["shove"] = found
        return found

    def holds_layers(self, state: GameState) -> bool:
        """Do-While-End done: the captain stays stunned, where it can be pushed and struck, while an IP holds
        each of the team's layers."""
        return state.calibrated

    def core_layer(self, state: GameState) -> int:
        """To the core once the module stands on the captain's terminal, next to it until then."""
        table = floor_view(state)
        if "module_on_captain_terminal_when_core" in unfinished_tasks(state, table) and \
                state.captain_start is not None:
            floor = table.floor
            room = floor.area(floor.index[state.captain_start]).spaces
            module = state.module_on_board()
            if module is None or not on_terminal_spaces(table)[module.id]:
                return 3
            return 4 if floor.index[module.at] in room else 3
        return 0

    @staticmethod
    def core_in_reach(paths: PathCosts, table: Resolution) -> bool:
        """Whether the active agent's IP can land on the core in this turn's network step, worked out once a
        turn and kept in the memory (`CorePlan`)."""
        state = table.state
        turn = state.turn.active
        plan = paths.notes.core_plan
        if plan is None or (plan.round, plan.turn) != (state.round, turn):
            plan = paths.notes.core_plan = CorePlan(round=state.round, turn=turn, lands=core_in_reach(state))
        return plan.lands


def prey_struck_here(table: Resolution) -> bool:
    """A unit the win asks for stands where its durability is low ("a durability of 5 when occupying terminal
    spaces")."""
    state = table.state
    if not state.calibrated:
        return False
    wins = [o.task for o in state.mission.win if objective_applies(state, o)]
    return any(unit_durability(table, u) < u.durability and any(is_prey(table, u, w) for w in wins)
               for u in state.security)


def captain_terminals(table: Resolution) -> set[int]:
    """Do-While-End: "Occupy the terminal space in the room the captain started in", whichever the room
    holds."""
    floor, start = table.floor, table.state.captain_start
    if start is None:
        raise StateError("Ghost in the Dell's captain has no recorded start space (set when the captain is placed)")
    room = floor.area(floor.index[start])
    return terminal_spaces(table) & set(room.spaces)


def hiding_near(table: Resolution, bot: Bot, terminals: set[int]) -> set[int]:
    """The free hiding spots within HIDING_REACH of the terminals (the one the bot hides on, if it does)."""
    floor, distances = table.floor, table.distances()
    here = floor.index[bot.at]
    if bot.hidden:
        return {here}
    return {s for s in floor.posts.get("hiding", ()) if table.occupant.get(s) in (None, bot)
            and min(distances[s][t] for t in terminals) <= HIDING_REACH}


def cover(paths: PathCosts, table: Resolution, bot: Bot) -> set[int]:
    """Free spaces no awake security unit sees or stands next to (the bot's own space when it is one)."""
    floor, watched = table.floor, paths.watched(table)
    near = {j for u in table.state.security if not u.stunned
            for _, j in floor.security_neighbours(floor.index[u.space], table.destroyed)}
    here = floor.index[bot.at]
    spaces = {i for i in range(len(floor.ids)) if i not in watched and i not in near
              and table.occupant.get(i) in (None, bot) and not floor.in_safe_zone(i)}
    return spaces or {here}
