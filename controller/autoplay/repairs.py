"""The auto-player's repairs: a shut-down bot brought back, the command module (whose loss is the game's) or a
team-mate low on power topped up, a straggler on the way home given an agent's spare power, and the repair
upgrade bought in the route step when the team has nobody to do it.
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.autoplay.paths import level_2_zones
from controller.autoplay.routes import Routes
from controller.autoplay.tuning import LONE_AGENT_LOW, LONE_AGENT_TOP_UP, STRAGGLER_KEEP, STRAGGLER_TOP_UP
from controller.rules import Action, Bot, BuyUpgrade, GameState, Repair, Resolution, movement_of


class Repairs:
    """Who repairs whom, with how much, and when a bot learns to repair."""

    def __init__(self, routes: Routes) -> None:
        self.routes = routes

    def buy_upgrade(self, table: Resolution, agent: Bot, legal: Sequence[Action]) -> Action | None:
        """The repair upgrade in the route step: for the active agent when a team-mate is shut down (or the
        module low) and nobody can repair, or when it is home in the safe zone and a team-mate still out has
        few dice, or lies shut down out of it (`left_behind`) (then the module home buys it too, for
        either); with one player, for the module, which acts only in the lone agent's turns, when the agent
        runs low."""
        state = table.state
        repair = BuyUpgrade(bot=agent.id, upgrade="repair")
        if agent.power >= 5 and repair in legal and self.needing_repair(table) and \
                not any("repair" in b.upgrades for b in state.bots if b.kind == "agent" and not b.shut_down):
            return repair
        if agent.power >= STRAGGLER_KEEP + 2 and repair in legal and self.stragglers(table) \
                and self.routes.home(table, agent):  # (the zone is chosen when first needed, not here)
            return repair
        module = state.module_on_board()
        repair_by_module = BuyUpgrade(bot="module", upgrade="repair")
        if self.left_behind(table) or self.stragglers(table):
            if agent.power >= STRAGGLER_KEEP + 2 and repair in legal and self.routes.home(table, agent):
                return repair
            if module is not None and module.power >= 3 and repair_by_module in legal \
                    and self.routes.staying_home(table, module):
                return repair_by_module
        if state.players == 1 and module is not None and module.power >= 5 and repair_by_module in legal \
                and agent.power <= LONE_AGENT_LOW:
            return repair_by_module
        return None

    def repair(self, table: Resolution, legal: list) -> Action | None:
        """Bring a shut-down bot back, or the command module (whose loss is the game's) when it runs low, or
        a team-mate down to 1 power (2 on the labs, `needing_repair`; a lone agent to 3, whom the module
        staying in the safe zone, safe there, tops up to LONE_AGENT_TOP_UP keeping 1); the repairer keeps 3, or
        1 when a shut-down bot needs more to live through the guard beside it (left shut down, it never gets
        home); a repairer home in the team's safe zone gives a team-mate left shut down on the way home all but
        1 power (`left_behind`). Then the module staying home gives a team-mate still out (`stragglers`) all
        its power but 1, or an agent home all its power but STRAGGLER_KEEP."""
        state = table.state
        # by target: the bots a listed Repair lets act, with the most power it lets them give
        repairers: dict[str, list[tuple[Bot, int]]] = {}
        for la in legal:
            if isinstance(la.action, Repair):
                most = max(a for a in la.options["amount"] if isinstance(a, int))
                repairers.setdefault(la.action.target, []).append((state.bot(la.action.bot), most))
        for target in sorted(self.needing_repair(table), key=lambda b: (not b.shut_down, b.kind != "module")):
            for actor, most in repairers.get(target.id, ()):
                amount = min(actor.power - 3, most, 3)
                if state.players == 1 and actor.kind == "module" and self.routes.staying_home(table, actor):
                    amount = min(actor.power - 1, LONE_AGENT_TOP_UP - target.power)
                if target in self.left_behind(table) and (self.routes.staying_home(table, actor) if
                                                          actor.kind == "module" else self.routes.home(table, actor)):
                    # home, the repairer's dice have nothing left to walk; the team-mate left shut down on the
                    # way home loses the game to the threat, and revived before the corporation's turn it walks
                    # away from the guard beside it first
                    amount = min(actor.power - STRAGGLER_KEEP, most)
                    if not acts_before_corporation(state, target) and in_harms_way(table, target, amount):
                        amount = 0
                elif target.shut_down and in_harms_way(table, target, amount):
                    # revived with that, the guard beside it shuts it down again at once (another +3 threat):
                    # it gets enough to live through the hit, the repairer keeping the 1 the rules ask for, or
                    # none
                    amount = next((a for a in range(max(amount + 1, 1), most + 1)
                                   if not in_harms_way(table, target, a)), 0)
                if amount >= 1:
                    return Repair(bot=actor.id, target=target.id, amount=amount)
        # an agent home in the team's safe zone has no use for its dice but the module's steps: the team-mate
        # still out, whose power is its pool, walks home faster with them
        for target in self.stragglers(table):
            for actor, most in repairers.get(target.id, ()):
                # the module home, unseen there, needs no power: it gives all but 1 to the straggler, whose
                # dice walk it home (or out of the reach of a guard about to strike) before the threat runs out
                if actor.kind == "module" and self.routes.staying_home(table, actor) and actor.power > 1:
                    return Repair(bot=actor.id, target=target.id, amount=min(actor.power - 1, most))
                amount = min(actor.power - STRAGGLER_KEEP, most)
                if actor.kind == "agent" and amount >= 1 and self.routes.home(table, actor):
                    return Repair(bot=actor.id, target=target.id, amount=amount)
        return None

    def needing_repair(self, table: Resolution) -> list[Bot]:
        """The bots a repair is for: shut down, the module low or a team-mate down to 1 power (3 for a lone
        agent; 2 on the labs' Data Heist, `level_2_zones`, whose guards hit for 2: one hit from a shutdown's +3
        threat, and Nano shut down there never won), but not the module low at home in the team's safe zone,
        where no guard outside can see it ("Guards outside safe zones cannot see into them"): a repair there
        spent the repairer's dice for nothing while a team-mate still out waited for them."""
        state = table.state
        agent_low = LONE_AGENT_LOW if state.players == 1 else (2 if level_2_zones(table) else 1)
        return [b for b in state.bots if b.space is not None and not b.escaped
                and (b.shut_down or b.power <= (2 if b.kind == "module" else agent_low))
                and not (b.kind == "module" and not b.shut_down and self.routes.staying_home(table, b))]

    def left_behind(self, table: Resolution) -> list[Bot]:
        """The agents shut down out of the team's safe zone on the way home (the calibrations done): nobody
        else walks them home, and the threat runs out while they wait for a repair."""
        if not table.state.calibrated:
            return []
        return [b for b in table.state.bots if b.kind == "agent" and b.on_board and b.shut_down
                and not self.routes.home(table, b)]

    def stragglers(self, table: Resolution) -> list[Bot]:
        """The agents still out of the team's safe zone on the way home (the calibrations done) with less than
        STRAGGLER_TOP_UP power: few dice, so the slowest home. A team's rule (two players or more): the lone
        agent has rules of its own (LONE_AGENT_LOW, LONE_AGENT_TOP_UP), and the module's gift to it as a
        straggler lost games (alone, wins of 1000 on seeds 3000-3999: the lobby 781 -> 768, the annex 576 -> 558)."""
        if not table.state.calibrated or table.state.players < 2:
            return []
        return [b for b in table.state.bots if b.kind == "agent" and b.on_board and not b.shut_down
                and b.power < STRAGGLER_TOP_UP and not self.routes.home(table, b)]


def acts_before_corporation(state: GameState, bot: Bot) -> bool:
    """Whether the agent's turn comes later in this round, before the corporation's (which follows the turn of
    the agent holding the corporation marker)."""
    turn = state.turn
    later = []
    k = turn.active
    while turn.order[k] != turn.marker:
        k = (k + 1) % len(turn.order)
        later.append(turn.order[k])
    return bot.id in later


def in_harms_way(table: Resolution, bot: Bot, power: int) -> bool:
    """A detected bot a guard can walk up to and shut down again in the coming corporation turn: reviving it
    with `power` only buys another "Threat increases by +3"."""
    if not bot.detected:
        return False
    here = table.floor.index[bot.at]
    distances = table.distances()
    return any(not u.stunned and u.damage >= power
               and distances[table.floor.index[u.space]][here] <= movement_of(table, u) + 1
               for u in table.state.security)

