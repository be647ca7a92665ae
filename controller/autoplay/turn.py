"""The auto-player's turn around its chips: the route step (reserve chips altered in for degraded ones, a
reboot when at most REBOOT_AT usable chips are left, the fourth slot on the first turn, the upgrades to buy)
and the end of the turn (power above the bank limit spent, the chooser face of the burncycle die named).
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.autoplay.missions import strategy_for
from controller.autoplay.missions.strategy import agents_share_slot
from controller.autoplay.paths import level_2_zones
from controller.autoplay.repairs import Repairs
from controller.autoplay.routes import Routes
from controller.autoplay.tuning import BOXED_PUSH_POWER, MODULE_BOXED_PUSH_POWER
from controller.rules import (
    MAX_THREAT,
    Action,
    Alter,
    BeginActions,
    BuyDiceUpgrade,
    BuyUpgrade,
    EndTurn,
    GameState,
    Reboot,
    Resolution,
    SeededDice,
    UnlockSlot,
    active_agent,
    active_slot_count,
    apply_effect,
    chip_usable,
    legal_actions,
    next_slot_cost,
)


class Turn:
    """The route step's and the end step's choices."""

    def __init__(self, routes: Routes, repairs: Repairs) -> None:
        self.routes = routes
        self.repairs = repairs

    def route(self, state: GameState) -> Action:
        """Reboot when the burncycle has at most REBOOT_AT usable chips left (threat is the price), or as many
        as the mission's play says."""
        live = sum(1 for k in range(len(state.burncycle.slots)) if chip_usable(state, k))
        legal = [la.action for la in legal_actions(state)]
        # reserve chips replace degraded ones for free (physical first: +2 AP on every move)
        alters = [a for a in legal if isinstance(a, Alter)
                  and state.burncycle.slots[a.slot - 1] is not None
                  and state.burncycle.chip(a.slot - 1).degraded]
        strategy = strategy_for(state.mission.id)
        if alters:
            preference = strategy.alter_preference(state)
            return min(alters, key=lambda a: (preference.index(a.chip), a.source == "team", a.slot))
        table = Resolution(state, SeededDice(0), apply_effect, copy=False)
        reboot_at = strategy.reboot_at(table)
        # a reboot whose threat (the player count) reaches the track's end loses the game there and then; the
        # chips left may still take the team home this round
        last_round = state.threat + state.players >= MAX_THREAT
        if live <= reboot_at and live < active_slot_count(state) and not last_round \
                and any(isinstance(a, Reboot) for a in legal):
            return Reboot()
        agent = active_agent(state)
        unlock = self._fourth_slot(table, legal)
        if unlock is not None:
            return unlock
        upgrade = strategy.upgrade(self.routes.paths, table, agent, legal)
        if upgrade is not None:
            return upgrade
        push = BuyUpgrade(bot=agent.id, upgrade="push")
        # boxed in: a guard stands on each of this agent's shortest steps, and waiting beside it costs a hit a
        # round; push (1 power) shoves it aside; so too a guard near it that holds its only way (a doorway)
        if push in legal and agent.power >= BOXED_PUSH_POWER \
                and (self.routes.boxed_in(table, agent) or self.routes.cut_off(table, agent)):
            return push
        # a guard stood in the only way: this agent learns to push (but not on the labs' way home)
        if self.routes.notes.blocked_by_unit and agent.power >= 4 and push in legal and self._learns_push(table):
            self.routes.notes.blocked_by_unit.clear()
            return push
        # the module behind a guard that waits for it (a Closest Bot patrol at the only door) would wait for
        # ever: it learns to push itself
        module_push = BuyUpgrade(bot="module", upgrade="push")
        # and the module boxed in (a guard in the zone's only doorway), from MODULE_BOXED_PUSH_POWER: a level 1
        # guard's hit still leaves it standing
        module = state.module_on_board()
        if module is not None and module_push in legal and module.power >= MODULE_BOXED_PUSH_POWER \
                and self.routes.boxed_in(table, module):
            return module_push
        if "module" in self.routes.notes.blocked_by_unit and module_push in legal and state.bot("module").power >= 5:
            self.routes.notes.blocked_by_unit.discard("module")
            return module_push
        # a team-mate shut down (or the module low), a straggler, a lone agent running low: somebody learns to
        # repair
        repair = self.repairs.buy_upgrade(table, agent, legal)
        if repair is not None:
            return repair
        return BeginActions()

    @staticmethod
    def _learns_push(table: Resolution) -> bool:
        """Whether the active agent learns push (1 power) because a guard stood in a bot's only way: not once the
        calibration is done on the last floor, of level 2 or more, of a mission won in the safe zones
        (`level_2_zones`: the labs' Data Heist), where an agent's power is both its dice for the walk home and
        its health against guards that hit for 2. The way held was most often another bot's (Nano's or the
        module's), so the agent home, Casing, paid for a push it never used with the power its gifts to the
        stragglers carry (`Repairs.repair`); the agent out paid a hit point for a push that detects it beside the
        guard. Boxed in or cut off (`Routes.boxed_in`, `Routes.cut_off`) it still buys push (docs/autoplay.md,
        "No push learnt on the labs' way home")."""
        return not (table.state.calibrated and level_2_zones(table))

    def _fourth_slot(self, table: Resolution, legal: Sequence[Action]) -> Action | None:
        """A fourth burncycle slot on the first turn, paid by the module down to 3 power and 1 from an agent
        (two players or more): one more action every turn (a network card, a move on a physical chip) and a
        reboot, with its threat, a turn later each time (docs/autoplay.md, "A fourth slot")."""
        state = table.state
        module = state.module_on_board()
        agent = active_agent(state)
        if state.round > 1 or agent.power < 4 \
                or active_slot_count(state) != 3 \
                or not any(isinstance(a, UnlockSlot) for a in legal):
            return None
        cost = next_slot_cost(state)
        if module is None:
            # no module on the floor (Rescue Rangers): the agents share the cost
            return agents_share_slot(state, agent, cost, keep=strategy_for(state.mission.id).shared_slot_keep)
        if module.power - (cost - 1) < 3:
            return None
        return strategy_for(state.mission.id).fourth_slot(table, agent, cost)

    def spend_down(self, state: GameState) -> Action:
        """"Agents must spend down to their power bank limit at the end of step 5": power that would be lost
        buys the agent card's next die upgrade, or the repair upgrade, first."""
        agent = active_agent(state)
        spare = agent.power - agent.bank
        if spare >= 1:
            legal = [la.action for la in legal_actions(state)]
            track = agent.dice_track[agent.dice_bought] if agent.dice_bought < len(agent.dice_track) else None
            if track is not None and track.cost <= spare and BuyDiceUpgrade(bot=agent.id) in legal:
                return BuyDiceUpgrade(bot=agent.id)
            repair = BuyUpgrade(bot=agent.id, upgrade="repair")
            if repair in legal:
                return repair
        # should the burncycle die show the chooser face: the captain chip first (its event works against the
        # team), then a general chip, keeping the chips that optimize actions
        usable_slots = [k for k in range(len(state.burncycle.slots)) if chip_usable(state, k)]
        if not usable_slots or state.turn.degraded:  # a degrade already rolled
            return EndTurn()
        worth = {"captain": 0, "general": 1, "tech": 2, "utility": 3, "physical": 4}
        slot = min(usable_slots, key=lambda k: (worth[state.burncycle.chip(k).kind], -k))
        return EndTurn(choose=slot + 1)
