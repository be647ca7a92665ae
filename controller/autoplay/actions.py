"""The auto-player's action step: what the chip under the tracker is spent on.

In order: an escape (the module before the last agent), the mission's own action, an access to the terminal a
bot stands on, a strike, a repair, the door or wall in a bot's way, a move with the whole pool when a bot can
progress, then a chip drawn for threat (when the mission asks) or a network card, else a pass.
"""

from __future__ import annotations

from controller.autoplay.doors import Doors, dice_for
from controller.autoplay.forcing import expected_ap
from controller.autoplay.missions import strategy_for
from controller.autoplay.missions.strategy import is_prey
from controller.autoplay.repairs import Repairs
from controller.autoplay.routes import Routes
from controller.autoplay.tuning import FORCE_MARGIN, OPENER_APPROACH, PREY_MARGIN
from controller.rules import (
    HAND_LIMIT,
    PROPRIETARY_DIE_USE,
    Action,
    DicePool,
    DrawChip,
    Escape,
    Move,
    NetworkCardAction,
    Pass,
    Resolution,
    Strike,
    Terminal,
    active_agent,
    brute_force_durability,
    current_chip_kind,
    movers,
    objective_applies,
    unit_durability,
)


class ActionStep:
    """The action for the chip under the tracker."""

    def __init__(self, routes: Routes, doors: Doors, repairs: Repairs) -> None:
        self.routes = routes
        self.doors = doors
        self.repairs = repairs

    def choose(self, table: Resolution, legal: list) -> Action:
        kinds = {type(la.action) for la in legal}
        escapes = {la.action.bot: la.action for la in legal if isinstance(la.action, Escape)}
        if escapes:
            # "If all agents escape before the command module escapes, the mission is lost": the module first
            bots = table.state.bots
            staying = [b for b in bots if b.kind == "agent" and not b.escaped]
            early = strategy_for(table.state.mission.id).agents_escape_first
            for bot_id, action in sorted(escapes.items(), key=lambda e: e[0] != "module"):
                module_out = all(b.escaped for b in bots if b.kind == "module")
                if bot_id == "module" or module_out or (early and len(staying) > 1):
                    return action
        special = strategy_for(table.state.mission.id).action(table, legal)
        if special is not None:
            return special
        terminals = [la.action for la in legal if isinstance(la.action, Terminal)]
        for bot in movers(table):
            if bot.space in table.state.floor.terminals and terminals and \
                    bot.kind in ("agent", "module") and self.routes.wants(table, bot):
                mine = [a for a in terminals if a.bot == bot.id]
                if mine and strategy_for(table.state.mission.id).holds_access(table, bot):
                    continue
                if mine:
                    best = max(mine, key=lambda a: len(a.options))
                    # the calibration counts the access, success or not: the dice are better spent moving
                    return Terminal(bot=bot.id, options=best.options, dice=DicePool())
        strike = self._strike(table, legal)
        if strike is not None:
            return strike
        repair = self.repairs.repair(table, legal)
        if repair is not None:
            return repair
        door = self.doors.open_door(table, legal)
        if door is not None:
            return door
        wall = self.doors.break_wall(table, legal)
        if wall is not None:
            return wall
        optimized = current_chip_kind(table) == "physical"
        pool = table.state.turn.pool
        # rolled AP cannot be saved: a move rolls the whole pool (later chips can still open doors with
        # keys or inputs, access terminals, or move on an optimized +2)
        die_use = PROPRIETARY_DIE_USE.get(active_agent(table.state).proprietary_die or "")
        own = pool.proprietary if die_use == "move" else 0
        everything = DicePool(basic=pool.basic, advanced=pool.advanced, elite=pool.elite, proprietary=own)
        if Move in kinds and own and self._approaches_door(table):
            return Move(dice=DicePool(proprietary=own))
        if Move in kinds and self.routes.can_progress(table) and (optimized or expected_ap(everything) > 0):
            return Move(dice=everything)
        # a slot with nothing better to do draws a chip for threat in TSM-103C, early on, else a network card:
        # many lower threat or give power when the network step completes them
        if not optimized and strategy_for(table.state.mission.id).draws_chip(table, legal):
            return DrawChip(chip="physical")
        hand = table.state.network_hands.get(active_agent(table.state).id, [])
        if NetworkCardAction in kinds and len(hand) < HAND_LIMIT:
            return NetworkCardAction()
        return Pass()

    def _approaches_door(self, table: Resolution) -> bool:
        """Whether the active agent, the zone's opener (`Routes.zone_opener`), walks the last OPENER_APPROACH
        steps to the zone's locked door on its own die only: the rest of its pool, kept, can force the door once
        its card is drawn, in the same turn. On the last floor only, as `Routes.opener_holds`."""
        agent = active_agent(table.state)
        if agent is not self.routes.zone_opener(table) or agent.space is None or table.state.later_floors:
            return False
        door = self.routes.zone_door(table, agent)
        pool = table.state.turn.pool
        kept = DicePool(basic=pool.basic, advanced=pool.advanced, elite=pool.elite)
        return door is not None and 1 <= door[0] <= OPENER_APPROACH \
            and expected_ap(kept) >= brute_force_durability(table, door[1]) - FORCE_MARGIN

    def _strike(self, table: Resolution, legal: list) -> Action | None:
        """Strike a unit a win task asks for when the dice can shut it down, else a unit next to a detected
        bot at its target when the dice can at least stun it (durability - 5), but not by the module with the
        pool of an agent still out of the team's zone after the calibration: that pool walks the agent home."""
        bonus = 2 if table.state.burncycle.slots[table.state.burncycle.tracker] is not None and \
            table.state.burncycle.chip(table.state.burncycle.tracker).kind == "physical" else 0
        wins = [o.task for o in table.state.mission.win if objective_applies(table.state, o)] \
            if table.state.calibrated else []
        for la in legal:
            action = la.action
            if not isinstance(action, Strike):
                continue
            bot = table.state.bot(action.bot)
            unit = table.state.unit(action.unit)
            if any(is_prey(table, unit, w) for w in wins):
                # a win task's unit: shut it down when the dice make it a fair chance, else wait for a better
                # chip
                dice = dice_for(table, unit_durability(table, unit), bonus)
                if bonus + expected_ap(dice) >= unit_durability(table, unit) - PREY_MARGIN:
                    return Strike(bot=bot.id, unit=unit.id, dice=dice)
                continue
            if not bot.detected or unit.stunned or not self.routes.wants(table, bot):
                # a stun holds the guard for one corporation turn only: a bot on its way spends the pool walking
                # out of its reach instead (striking, it meets the guard again next round)
                continue
            agent = active_agent(table.state)
            if bot is not agent and table.state.calibrated and not self.routes.home(table, agent):
                # the module home stunning a guard with the pool of an agent still out of the zone: the pool
                # walks the agent home, the last one home ends the game
                continue
            # "Stun: If the strike fails but comes within 5 AP of the durability value": 1 AP over the average,
            # the optimized bonus counted once
            need = max(0, unit_durability(table, unit) - 5)
            dice = dice_for(table, need, bonus)
            if bonus + expected_ap(dice) >= need + 1:
                return Strike(bot=bot.id, unit=unit.id, dice=dice)
        return None
