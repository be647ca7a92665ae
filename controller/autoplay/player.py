"""A heuristic auto-player for the agents' side, for convention demos and self-play.

It plays the way a cautious table would: each bot heads for its next objective (a terminal with a chip
while terminal calibrations are open, then a safe zone), opens the locked doors on its way with a key or by
brute force, accesses terminals it stands on, spreads its dice over the burncycle's slots, and prefers a
step out of every guard's sight when two steps are equally short. It only ever chooses among
`legal_actions`, so it can never make an illegal move. Its memory between decisions is one value
(`AutoplayMemory`), each mission's own play is a `MissionStrategy`, its tuning constants are in `tuning.py`;
how it plays and what was measured for each rule is docs/autoplay.md.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence, Set
from typing import TYPE_CHECKING, cast

from controller.autoplay.memory import AutoplayMemory
from controller.autoplay.missions import MissionStrategy, strategy_for
from controller.autoplay.missions.strategy import is_prey, module_calibrations, module_near
from controller.autoplay.network_step import network_step
from controller.autoplay.paths import UNREACHED, PathCosts, door_passage, expected_ap, passes_doors
from controller.autoplay.tuning import (
    AVERAGE_AP,
    DOOR_COST,
    FORCE_MARGIN,
    LONE_AGENT_LOW,
    LONE_AGENT_TOP_UP,
    PREY_MARGIN,
    REBOOT_AT,
    SPARE_TRIP,
    STRAGGLER_KEEP,
    STRAGGLER_TOP_UP,
    TEAM,
    WALL_COST,
    WATCHED_COST,
)
from controller.rules import (
    HAND_LIMIT,
    MAX_DESTROYED_WALLS,
    OPTIMIZED_BONUS,
    PROPRIETARY_DIE_USE,
    Action,
    Alter,
    BeginActions,
    Bot,
    BuyDiceUpgrade,
    BuyUpgrade,
    CorporationTurn,
    DicePool,
    DrawChip,
    EndMove,
    EndTurn,
    Escape,
    Event,
    GameState,
    Keypad,
    Move,
    NetworkCardAction,
    Objective,
    Pass,
    Push,
    Reboot,
    Repair,
    Resolution,
    SecurityUnit,
    SeededDice,
    Step,
    Strike,
    StrikeWall,
    Terminal,
    UnlockSlot,
    active_agent,
    active_slot_count,
    apply_action,
    apply_effect,
    brute_force_durability,
    can_escape,
    chip_inputs_payable,
    chip_usable,
    copy_state,
    current_chip_kind,
    edge_id,
    floor_objectives,
    legal_actions,
    movement_of,
    movers,
    next_slot_cost,
    objective_applies,
    objective_done,
    unit_durability,
)

if TYPE_CHECKING:  # players.py makes an AutoPlayer by name: the import runs one way only
    from controller.autoplay.players import Player


def team(players: int) -> list[str]:
    """The agents the auto-player plays a game of `players` with, when the players name none."""
    return list(TEAM[:players])


class AutoPlayer(PathCosts):
    """Chooses the next action for whoever is to act (the corporation's turn included).

    `decide` is the whole decision: a state and an `AutoplayMemory` in, an action and the memory after it
    out. `choose` is the same for a player kept through a game, holding its memory in `memory`."""

    def __init__(self, memory: AutoplayMemory | None = None) -> None:
        super().__init__()
        self.memory = memory or AutoplayMemory()
        self._recall(self.memory)

    def choose(self, state: GameState) -> Action:
        """The next action, remembering what the decision learnt for the next one."""
        action, self.memory = self.decide(state, self.memory)
        return action

    def decide(self, state: GameState, memory: AutoplayMemory) -> tuple[Action, AutoplayMemory]:
        """The next action for `state` and the memory to give the next decision (`memory` is left as it was)."""
        self._recall(memory)
        action = self._decide(state)
        return action, AutoplayMemory(blocked_by_unit=frozenset(self._blocked_by_unit), move=self._trail_of,
                                      trails={bot: frozenset(spaces) for bot, spaces in sorted(self._trail.items())},
                                      team_zone=self._zone_choice, core_plan=self._core_plan)

    def _recall(self, memory: AutoplayMemory) -> None:
        """The memory's working copy for one decision, which the decision changes as it learns."""
        self._blocked_by_unit: set[str] = set(memory.blocked_by_unit)
        self._trail_of = memory.move
        self._trail: dict[str, set[str]] = {bot: set(spaces) for bot, spaces in memory.trails.items()}
        self._zone_choice = memory.team_zone
        self._core_plan = memory.core_plan

    def _decide(self, state: GameState) -> Action:
        turn = state.turn
        self._memo = {}  # a new decision: nothing computed for the last one holds
        if turn.step == "corporation":
            return CorporationTurn()
        if turn.step == "route":
            return self._route(state)
        if turn.step == "network":
            return network_step(state, self._mission(state))
        if turn.step == "end":
            return self._spend_down(state)
        table = Resolution(state, SeededDice(0), apply_effect, copy=False)
        legal = legal_actions(state)
        if turn.pending is not None:
            return self._step(table, legal)
        return self._action(table, legal)

    def _route(self, state: GameState) -> Action:
        """Reboot when the burncycle has at most REBOOT_AT usable chips left (threat is the price)."""
        live = sum(1 for k in range(len(state.burncycle.slots)) if chip_usable(state, k))
        legal = [la.action for la in legal_actions(state)]
        # reserve chips replace degraded ones for free (physical first: +2 AP on every move)
        alters = [a for a in legal if isinstance(a, Alter)
                  and state.burncycle.slots[a.slot - 1] is not None
                  and state.burncycle.chip(a.slot - 1).degraded]
        if alters:
            preference = self._mission(state).alter_preference(self, state)
            return min(alters, key=lambda a: (preference.index(a.chip), a.source == "team", a.slot))
        if live <= REBOOT_AT and live < active_slot_count(state) and any(isinstance(a, Reboot) for a in legal):
            return Reboot()
        agent = active_agent(state)
        unlock = self._fourth_slot(state, legal)
        if unlock is not None:
            return unlock
        table = Resolution(state, SeededDice(0), apply_effect, copy=False)
        upgrade = self._mission(state).upgrade(self, table, agent, legal)
        if upgrade is not None:
            return upgrade
        push = BuyUpgrade(bot=agent.id, upgrade="push")
        # a guard stood in the only way: this agent learns to push
        if self._blocked_by_unit and agent.power >= 4 and push in legal:
            self._blocked_by_unit.clear()
            return push
        # the module behind a guard that waits for it (a Closest Bot patrol at the only door) would wait for
        # ever: it learns to push itself
        module_push = BuyUpgrade(bot="module", upgrade="push")
        if "module" in self._blocked_by_unit and module_push in legal and state.bot("module").power >= 5:
            self._blocked_by_unit.discard("module")
            return module_push
        # a team-mate shut down (or the module low) and no repairer yet: this agent learns to repair
        repair = BuyUpgrade(bot=agent.id, upgrade="repair")
        if agent.power >= 5 and repair in legal and self._needing_repair(table) and \
                not any("repair" in b.upgrades for b in state.bots if b.kind == "agent" and not b.shut_down):
            return repair
        # an agent home in the safe zone learns to repair for a team-mate still out with few dice
        if agent.power >= STRAGGLER_KEEP + 2 and repair in legal and self._stragglers(table) \
                and self._home(table, agent):  # (the zone is chosen when first needed, not here)
            return repair
        # one player: the module acts only in the lone agent's turns, so the agent shut down ends the team's
        # turns; the module learns to repair and keeps the agent's power up
        module = state.module_on_board()
        repair_by_module = BuyUpgrade(bot="module", upgrade="repair")
        if state.players == 1 and module is not None and module.power >= 5 and repair_by_module in legal \
                and agent.power <= LONE_AGENT_LOW:
            return repair_by_module
        return BeginActions()

    def _fourth_slot(self, state: GameState, legal: Sequence[Action]) -> Action | None:
        """A fourth burncycle slot on the first turn, paid by the module down to 3 power and 1 from the agent
        (two players or more): one more action every turn (a network card, a move on a physical chip) and a
        reboot, with its threat, a turn later each time (docs/autoplay.md, "A fourth slot")."""
        module = state.module_on_board()
        agent = active_agent(state)
        if state.round > 1 or agent.power < 4 \
                or active_slot_count(state) != 3 \
                or not any(isinstance(a, UnlockSlot) for a in legal):
            return None
        cost = next_slot_cost(state)
        if module is None:
            # no module on the floor (Rescue Rangers): the agents share the cost, each keeping 3 power
            payers: dict[str, int] = {agent.id: 1}
            for bot in sorted((b for b in state.bots if b.kind == "agent" and b.on_board), key=lambda b: -b.power):
                share = min(cost - sum(payers.values()), bot.power - 3 - payers.get(bot.id, 0))
                if share > 0:
                    payers[bot.id] = payers.get(bot.id, 0) + share
            return UnlockSlot(payers=payers) if sum(payers.values()) == cost else None
        if module.power - (cost - 1) < 3:
            return None
        return self._mission(state).fourth_slot(state, agent, cost)

    def _spend_down(self, state: GameState) -> Action:
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

    # -- where to go --------------------------------------------------------------------------------
    def _targets(self, table: Resolution, bot: Bot) -> Set[int]:
        key = ("targets", bot.id)
        if key not in self._memo:
            self._memo[key] = self._find_targets(table, bot)
        return cast("Set[int]", self._memo[key])

    def _find_targets(self, table: Resolution, bot: Bot) -> Set[int]:
        """Where the bot heads now: a terminal for an open terminal task, a safe zone, an entrance to escape."""
        state, floor = table.state, table.floor
        # the tasks of now: this floor's objectives on the way up the tower, then the last floor's calibrations
        tasks = (floor_objectives(table) if state.later_floors
                 else [] if state.calibrated else state.mission.calibrations)
        open_tasks = [o for o in tasks if objective_applies(state, o) and not objective_done(state, table, o, False)]
        terminal_tasks = [o for o in open_tasks if o.task.split(":")[0] in ("terminals", "module_terminals")]
        # the agents take the team's terminals; the module only its own ("Command Module: Access ...")
        wants_terminal = state.floor.terminals and any(self._takes_terminal(table, bot, o) for o in terminal_tasks)
        if wants_terminal:
            terminals = {floor.index[s] for s in state.floor.terminals}
            if bot.kind == "agent" and all(o.qualifier != "each" for o in terminal_tasks):
                # a team task: a terminal another agent is nearer to is theirs, this one takes another
                claimed = set()
                for other in state.bots:
                    if other.kind == "agent" and other is not bot and other.on_board and not other.shut_down:
                        theirs = self._nearest(table, other, terminals)
                        if self._cost_to(table, other, theirs) < self._cost_to(table, bot, theirs):
                            claimed.add(theirs)
                return terminals - claimed or terminals
            return terminals
        errand = self._mission(state).task_targets(self, table, bot, open_tasks)
        if errand:
            return errand
        if open_tasks and bot.kind == "module":
            # while the agents work, the module (whose loss is the game's) waits where guards cannot see it
            return self._team_safe_zone(table)
        if can_escape(table):
            return set(floor.posts.get("entrance", ()))
        return self._team_safe_zone(table)

    def _takes_terminal(self, table: Resolution, bot: Bot, objective: Objective) -> bool:
        """Whether the bot accesses terminals for this task: the module for its own ("Command Module: Access
        ..."), the agents for the team's, and for an "each" task an agent until it has its own count (then it
        goes ahead to the safe zone). A second agent on its way to a terminal is the team's spare (a third
        one, from afar, is not: `_spare`)."""
        if (objective.qualifier == "module") != (bot.kind == "module"):
            return False
        if objective.qualifier != "each":
            return bot.kind == "module" or table.state.players < 3 or not self._spare(table, bot, objective)
        need = int(objective.task.partition(":")[2] or 1)
        return table.state.progress.get(f"terminals:{bot.id}", 0) < need

    def _spare(self, table: Resolution, bot: Bot, objective: Objective) -> bool:
        """With three players or more, an agent the team's terminal task does not need (the agents nearest to
        a terminal take the accesses still missing) whose round trip, to its nearest terminal and on to the
        team's safe zone, is longer than SPARE_TRIP steps: it goes ahead to the zone instead of walking the
        long way twice."""
        need = int(objective.task.partition(":")[2] or 1)
        got = sum(v for k, v in table.state.progress.items() if k.startswith("terminals:"))
        terminals = {table.floor.index[s] for s in table.state.floor.terminals}
        if "nearest to terminals" not in self._memo:
            self._memo["nearest to terminals"] = sorted(
                (b for b in table.state.bots if b.kind == "agent" and b.on_board and not b.shut_down),
                key=lambda b: (min(self._cost_to(table, b, t) for t in terminals), b.id))
        agents = cast("list[Bot]", self._memo["nearest to terminals"])
        zone = self._team_safe_zone(table)
        if bot in agents[:max(need - got, 0)] or not zone:
            return False
        steps = table.distances()
        here = table.floor.index[bot.at]
        return min(steps[here][t] + min(steps[t][z] for z in zone) for t in terminals) > SPARE_TRIP

    def _bot_distances(self, table: Resolution, bot: Bot) -> list[int]:
        key = ("distances", bot.id)
        if key not in self._memo:
            self._memo[key] = self._cost_map(table, bot, frozenset(self._targets(table, bot)))
        return cast("list[int]", self._memo[key])

    # -- the action step ----------------------------------------------------------------------------
    def _action(self, table: Resolution, legal: list) -> Action:
        kinds = {type(la.action) for la in legal}
        escapes = {la.action.bot: la.action for la in legal if isinstance(la.action, Escape)}
        if escapes:
            # "If all agents escape before the command module escapes, the mission is lost": the module first
            bots = table.state.bots
            staying = [b for b in bots if b.kind == "agent" and not b.escaped]
            for bot_id, action in sorted(escapes.items(), key=lambda e: e[0] != "module"):
                module_out = all(b.escaped for b in bots if b.kind == "module")
                if bot_id == "module" or module_out or len(staying) > 1:
                    return action
        special = self._mission(table.state).action(self, table, legal)
        if special is not None:
            return special
        terminals = [la.action for la in legal if isinstance(la.action, Terminal)]
        for bot in movers(table):
            if bot.space in table.state.floor.terminals and terminals and \
                    bot.kind in ("agent", "module") and self._wants(table, bot):
                mine = [a for a in terminals if a.bot == bot.id]
                if mine:
                    best = max(mine, key=lambda a: len(a.options))
                    # the calibration counts the access, success or not: the dice are better spent moving
                    return Terminal(bot=bot.id, options=best.options, dice=DicePool())
        strike = self._strike(table, legal)
        if strike is not None:
            return strike
        repair = self._repair(table, legal)
        if repair is not None:
            return repair
        doors = self._door_in_the_way(table)
        if doors is not None:
            bot, beyond = doors
            keypads = [la.action for la in legal if isinstance(la.action, Keypad)
                       and la.action.bot == bot.id and la.action.beyond == beyond]
            approaches = {a.approach for a in keypads}
            if "key" in approaches:
                return Keypad(bot=bot.id, beyond=beyond, approach="key")
            if "brute_force" in approaches:
                durability = brute_force_durability(table, edge_id(bot.at, beyond))
                need = self._dice_for(table, durability)
                if expected_ap(need) >= durability - FORCE_MARGIN:
                    if bot.kind == "agent" and PROPRIETARY_DIE_USE.get(bot.proprietary_die or "") == "force":
                        need.proprietary = table.state.turn.pool.proprietary  # Bit's lift die
                    return Keypad(bot=bot.id, beyond=beyond, approach="brute_force", dice=need)
            door = edge_id(bot.at, beyond)
            card = table.state.keypads.get(door)
            # inputs when the card is still unknown, or its printed chip inputs can be paid from the reserves or
            # by jumping the tracker ahead to a matching chip
            if "inputs" in approaches and (card is None or chip_inputs_payable(table, bot, card)):
                return Keypad(bot=bot.id, beyond=beyond, approach="inputs")
        wall = self._wall_in_the_way(table, legal)
        if wall is not None:
            return wall
        optimized = current_chip_kind(table) == "physical"
        pool = table.state.turn.pool
        # rolled AP cannot be saved: a move rolls the whole pool (later chips can still open doors with
        # keys or inputs, access terminals, or move on an optimized +2)
        die_use = PROPRIETARY_DIE_USE.get(active_agent(table.state).proprietary_die or "")
        own = pool.proprietary if die_use == "move" else 0
        everything = DicePool(basic=pool.basic, advanced=pool.advanced, elite=pool.elite, proprietary=own)
        if Move in kinds and self._can_progress(table) and (optimized or expected_ap(everything) > 0):
            return Move(dice=everything)
        # a slot with nothing better to do draws a chip for threat in TSM-103C, early on, else a network card:
        # many lower threat or give power when the network step completes them
        if not optimized and self._mission(table.state).draws_chip(table, legal):
            return DrawChip(chip="physical")
        hand = table.state.network_hands.get(active_agent(table.state).id, [])
        if NetworkCardAction in kinds and len(hand) < HAND_LIMIT:
            return NetworkCardAction()
        return Pass()

    def _dice_for(self, table: Resolution, ap: int, bonus: int = 0) -> DicePool:
        """Enough of the pool to expect `ap` (best dice first), or all of it."""
        pool = table.state.turn.pool
        picked = DicePool()
        expected = float(bonus)
        for grade in ("elite", "advanced", "basic"):
            worth = AVERAGE_AP[grade]
            while expected < ap + 1 and getattr(pool, grade) > getattr(picked, grade):
                setattr(picked, grade, getattr(picked, grade) + 1)
                expected += worth
        return picked

    def _strike(self, table: Resolution, legal: list) -> Action | None:
        """Strike a unit a win task asks for when the dice can shut it down, else a unit next to a detected
        bot at its target when the dice can at least stun it (durability - 5)."""
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
                dice = self._dice_for(table, unit_durability(table, unit), bonus)
                if bonus + expected_ap(dice) >= unit_durability(table, unit) - PREY_MARGIN:
                    return Strike(bot=bot.id, unit=unit.id, dice=dice)
                continue
            if not bot.detected or unit.stunned or not self._wants(table, bot):
                # a stun holds the guard for one corporation turn only: a bot on its way spends the pool walking
                # out of its reach instead (striking, it meets the guard again next round)
                continue
            # "Stun: If the strike fails but comes within 5 AP of the durability value": 1 AP over the average,
            # the optimized bonus counted once
            need = max(0, unit_durability(table, unit) - 5)
            dice = self._dice_for(table, need, bonus)
            if bonus + expected_ap(dice) >= need + 1:
                return Strike(bot=bot.id, unit=unit.id, dice=dice)
        return None

    def _repair(self, table: Resolution, legal: list) -> Action | None:
        """Bring a shut-down bot back, or the command module (whose loss is the game's) when it runs low, or
        a team-mate down to 1 power (a lone agent to 3, whom the module staying in the safe zone, safe there,
        tops up to LONE_AGENT_TOP_UP keeping 1); the repairer keeps 3, or 1 when a shut-down bot needs more to
        live through the guard beside it (left shut down, it never gets home). Then an agent home in the
        team's safe zone tops up a team-mate still out (`_stragglers`)."""
        state = table.state
        # by target: the bots a listed Repair lets act, with the most power it lets them give
        repairers: dict[str, list[tuple[Bot, int]]] = {}
        for la in legal:
            if isinstance(la.action, Repair):
                most = max(a for a in la.options["amount"] if isinstance(a, int))
                repairers.setdefault(la.action.target, []).append((state.bot(la.action.bot), most))
        for target in sorted(self._needing_repair(table), key=lambda b: (not b.shut_down, b.kind != "module")):
            for actor, most in repairers.get(target.id, ()):
                amount = min(actor.power - 3, most, 3)
                if state.players == 1 and actor.kind == "module" and self._staying_home(table, actor):
                    amount = min(actor.power - 1, LONE_AGENT_TOP_UP - target.power)
                if target.shut_down and _in_harms_way(table, target, amount):
                    # revived with that, the guard beside it shuts it down again at once (another +3 threat):
                    # it gets enough to live through the hit, the repairer keeping the 1 the rules ask for, or
                    # none
                    amount = next((a for a in range(max(amount + 1, 1), most + 1)
                                   if not _in_harms_way(table, target, a)), 0)
                if amount >= 1:
                    return Repair(bot=actor.id, target=target.id, amount=amount)
        # an agent home in the team's safe zone has no use for its dice but the module's steps: the team-mate
        # still out, whose power is its pool, walks home faster with them
        for target in self._stragglers(table):
            for actor, _ in repairers.get(target.id, ()):
                amount = min(actor.power - STRAGGLER_KEEP, STRAGGLER_TOP_UP - target.power)
                if actor.kind == "agent" and amount >= 1 and self._home(table, actor):
                    return Repair(bot=actor.id, target=target.id, amount=amount)
        return None

    def _needing_repair(self, table: Resolution) -> list[Bot]:
        """The bots a repair is for: shut down, the module low or a team-mate down to 1 power (3 for a lone
        agent), but not the module low at home in the team's safe zone, where no guard outside can see it
        ("Guards outside safe zones cannot see into them"): a repair there spent the repairer's dice for nothing
        while a team-mate still out waited for them."""
        state = table.state
        agent_low = LONE_AGENT_LOW if state.players == 1 else 1
        return [b for b in state.bots if b.space is not None and not b.escaped
                and (b.shut_down or b.power <= (2 if b.kind == "module" else agent_low))
                and not (b.kind == "module" and not b.shut_down and self._staying_home(table, b))]

    def _stragglers(self, table: Resolution) -> list[Bot]:
        """The agents still out of the team's safe zone on the way home (the calibrations done) with less than
        STRAGGLER_TOP_UP power: few dice, so the slowest home."""
        if not table.state.calibrated:
            return []
        return [b for b in table.state.bots if b.kind == "agent" and b.on_board and not b.shut_down
                and b.power < STRAGGLER_TOP_UP and not self._home(table, b)]

    def _staying_home(self, table: Resolution, bot: Bot) -> bool:
        """Whether the bot stands in the team's safe zone and stays there (it is its target)."""
        return self._home(table, bot) and self._targets(table, bot) == self._team_safe_zone(table)

    def _home(self, table: Resolution, bot: Bot) -> bool:
        """Whether the bot stands in the team's safe zone (its doorways included)."""
        return bot.space is not None and self._in_team_zone(table, table.floor.index[bot.space])

    def _in_team_zone(self, table: Resolution, space: int) -> bool:
        """Whether the space lies in the area of the team's safe zone. (When no zone is open to all, the
        fallback zone lists every zone's spaces and this counts the area of one of them.)"""
        zone = self._team_safe_zone(table)
        return bool(zone) and table.floor.area_of[space] == table.floor.area_of[next(iter(zone))]

    def _wants(self, table: Resolution, bot: Bot) -> bool:
        return table.floor.index[bot.at] in self._targets(table, bot)

    def _next_space(self, table: Resolution, bot: Bot) -> tuple[int, str] | None:
        """The best neighbouring space toward the bot's target, with the kind of edge crossed; for a bot
        at its target that a guard is about to attack, the safest space next to it."""
        key = ("next", bot.id)
        if key not in self._memo:
            self._memo[key] = self._find_next_space(table, bot)
        return cast("tuple[int, str] | None", self._memo[key])

    def _find_next_space(self, table: Resolution, bot: Bot) -> tuple[int, str] | None:
        here = table.floor.index[bot.at]
        targets = self._targets(table, bot)
        if here in targets:
            if bot.space in table.state.floor.terminals and _later_slot(table.state):
                return None  # a later chip of this turn accesses the terminal: stepping off would waste it
            if bot.kind == "module" and table.floor.feature[here] == "module":
                return None  # "At the end of three different agent turns, occupy a command module space"
            if self._mission(table.state).holds_target(self, table):
                return None  # the mission's play holds the bot there (a push, a strike or a landing to come)
            return self._retreat(table, bot, here)
        dist = self._bot_distances(table, bot)
        mine = dist[here]
        ahead = [j for _, j in table.floor.security_neighbours(here, table.destroyed)
                 if dist[j] < mine]
        if ahead and all(isinstance(table.occupant.get(j), Bot) for j in ahead):
            # team-mates stand in every shortest way: walk around them
            others = frozenset(s for s, o in table.occupant.items() if isinstance(o, Bot) and o is not bot)
            dist = self._cost_map(table, bot, frozenset(targets) - others, avoid=others)
            mine = dist[here]
        elif ahead and "push" not in bot.upgrades and all(j in table.occupant for j in ahead):
            # a guard stands in every shortest way and this bot cannot push it aside: it takes the way around
            # when there is one rather than wait beside the guard for it to move
            others = frozenset(s for s, o in table.occupant.items() if o is not bot)
            around = self._cost_map(table, bot, frozenset(targets) - others, avoid=others)
            if around[here] < UNREACHED:
                dist, mine = around, around[here]
        walls = mine >= UNREACHED and len(table.destroyed) < MAX_DESTROYED_WALLS
        if walls:  # shut in (an autolock, a jammed keypad): the way out is through a wall
            dist = self._cost_map(table, bot, frozenset(targets), walls=True)
            mine = dist[here]
        watched = self._watched(table)
        options = []
        blocked = self._jammed(table) if door_passage(bot) == "keypad" else set()
        trail = self._trail.get(bot.id, set()) if self._trail_of == _move_key(table.state) else set()
        trail_spaces = {table.floor.index[space] for space in trail}
        ways = table.floor.security_neighbours(here, table.destroyed)
        if walls:
            ways = ways + [(d, j) for d, (j, kind) in table.floor.neighbour[here].items() if kind == "wall"]
        shoved = self._shove(table)
        for _, j in ways:
            unit = isinstance(table.occupant.get(j), SecurityUnit)
            if unit and shoved is not None and table.occupant[j] is shoved[0]:
                continue  # the unit being shoved toward a terminal is walked around, not pushed aside
            if (j in table.occupant and not (unit and "push" in bot.upgrades)) or dist[j] >= mine \
                    or j in trail_spaces:
                if unit and dist[j] < mine:
                    self._blocked_by_unit.add(bot.id)
                continue
            if edge_id(bot.at, table.floor.ids[j]) in blocked:
                continue
            kind = table.floor.edge_between(here, j) or "open"
            if kind == "wall" and table.floor.edge_name[(here, j)] in table.destroyed:
                kind = "open"
            cost = dist[j] + (WATCHED_COST if j in watched else 1) + (WALL_COST if kind == "wall" else 0)
            if kind == "door" and table.floor.edge_name[(here, j)] not in table.unlocked and \
                    (unit or not passes_doors(bot)):
                cost += DOOR_COST
            options.append((cost, j in watched, j, kind))
        if not options:
            # no step brings it nearer (a guard in the only way out, a door it cannot open): an agent a guard is
            # about to attack steps out of its reach meanwhile instead of taking the hit round after round (the
            # module stays: docs/autoplay.md)
            return self._retreat(table, bot, here) if bot.kind == "agent" else None
        _, _, j, kind = min(options)
        return j, kind

    def _door_in_the_way(self, table: Resolution) -> tuple[Bot, str] | None:
        for bot in movers(table):
            nxt = self._next_space(table, bot)
            if nxt is not None and nxt[1] == "door" and self._opens_doors(table, bot, nxt[0]):
                door = edge_id(bot.at, table.floor.ids[nxt[0]])
                if door not in table.unlocked:
                    return bot, table.floor.ids[nxt[0]]
        return None

    @staticmethod
    def _opens_doors(table: Resolution, bot: Bot, beyond: int) -> bool:
        """Whether the bot opens a locked door before stepping through to `beyond`: any bot but Nano, and Nano
        too when a unit stands beyond it (he cannot reassemble into its space, and the locked door blocks his
        adjacency for a push)."""
        return not passes_doors(bot) or isinstance(table.occupant.get(beyond), SecurityUnit)

    def _wall_in_the_way(self, table: Resolution, legal: list) -> Action | None:
        """A bot shut in strikes the wall on its way out when the dice it can roll now make the wall's durability
        likely, as listed ("Striking a wall with 10+ AP places a destroyed wall chip")."""
        bonus = OPTIMIZED_BONUS if current_chip_kind(table) == "physical" else 0
        for bot in movers(table):
            nxt = self._next_space(table, bot)
            if nxt is None or nxt[1] != "wall":
                continue
            beyond = table.floor.ids[nxt[0]]
            wall = next((la for la in legal if isinstance(la.action, StrikeWall) and la.action.bot == bot.id
                         and la.action.beyond == beyond), None)
            if wall is None or wall.target_ap is None:
                continue
            dice = self._dice_for(table, wall.target_ap, bonus)
            if bot.kind == "agent" and PROPRIETARY_DIE_USE.get(bot.proprietary_die or "") == "force":
                dice.proprietary = table.state.turn.pool.proprietary
            if bonus + expected_ap(dice) >= wall.target_ap:
                return StrikeWall(bot=bot.id, beyond=beyond, dice=dice)
        return None

    def _retreat(self, table: Resolution, bot: Bot, here: int) -> tuple[int, str] | None:
        """A step out of a guard's reach: the bot is detected or a guard stands next to it, and a free space
        nearby is out of sight and no closer to any guard (within the target area when it can)."""
        guards = [table.floor.index[u.space] for u in table.state.security if not u.stunned]
        if not guards:
            return None
        distances = table.distances()
        def danger(i: int) -> tuple[bool, int]:
            return i in self._watched(table), -min(distances[g][i] for g in guards)
        if not bot.detected and danger(here)[1] < -1:
            return None
        targets = self._targets(table, bot)
        options = [(j not in targets, danger(j), j) for _, j in
                   table.floor.bot_neighbours(here, table.unlocked, table.destroyed) if j not in table.occupant]
        if not options:
            return None
        _, risk, j = min(options)
        return (j, table.floor.edge_between(here, j) or "open") if risk < danger(here) else None

    def _can_progress(self, table: Resolution) -> bool:
        for bot in movers(table):
            nxt = self._next_space(table, bot)
            if nxt is not None and (nxt[1] != "door" or edge_id(bot.at, table.floor.ids[nxt[0]])
                                    in table.unlocked or bot.keys > 0 or not self._opens_doors(table, bot, nxt[0])):
                return True
        return False

    def _step(self, table: Resolution, legal: list) -> Action:
        """Spend one AP: first on a bot a guard can see, then on the agent while calibrations are open, else
        on the bot farthest from its target."""
        state = table.state
        move = _move_key(state)
        if self._trail_of != move:  # a new move action: a bot never walks back over its own steps in one
            self._trail_of, self._trail = move, {}
        for bot in movers(table):
            self._trail.setdefault(bot.id, set()).add(bot.at)
        shove = self._shove(table)
        if shove is not None:
            unit, onto = shove
            for la in legal:
                if isinstance(la.action, Push) and la.action.unit == unit.id and la.action.to == table.floor.ids[onto]:
                    return la.action
        steps: dict[tuple[str, str], Action] = {(la.action.bot, la.action.to): la.action for la in legal
                                                if isinstance(la.action, Step)}
        for la in legal:  # a push takes the bot into the unit's space: the step to that space
            # (never the unit being shoved toward a terminal: only the push along its way moves it; never a
            # unit shoved into the team's safe zone, whose only shelter is that "Guards outside safe zones
            # cannot see into them": inside, it sees and attacks every bot there)
            if isinstance(la.action, Push) and not (shove is not None and la.action.unit == shove[0].id) \
                    and not self._in_team_zone(table, table.floor.index[la.action.to]):
                into = state.unit(la.action.unit).space
                known = steps.get((la.action.bot, into))
                if known is None or (isinstance(known, Push) and
                                     self._push_rank(table, la.action) > self._push_rank(table, known)):
                    steps[(la.action.bot, into)] = la.action
        watched = self._watched(table)
        ranked = []
        for bot in movers(table):
            here = table.floor.index[bot.at]
            nxt = self._next_space(table, bot)
            action = steps.get((bot.id, table.floor.ids[nxt[0]])) if nxt is not None else None
            pending = state.turn.pending
            last = pending is not None and pending.ap == 1
            if action is not None and nxt is not None and last and nxt[0] in watched and here not in watched \
                    and not (shove is not None and bot.kind == "module"):
                continue  # the last AP would leave the bot in a guard's sight for the corporation's turn
            if action is not None:
                remaining = self._bot_distances(table, bot)[here]
                # calibrations first: the module's walk to the safe zone can wait for spare AP, its own
                # calibration task ("Command Module: ...") cannot
                # (an agent only heading for the safe zone has no calibration work: TSM-103C's agents push and
                # complete network cards, the module's terminals come first)
                errand = not table.state.calibrated and (
                    (self._module_errand(table) or self._crosses_first(table, bot, remaining))
                    if bot.kind == "module" else self._targets(table, bot) != self._team_safe_zone(table))
                # Do-While-End's endgame: the module beside the captain pushes it before anyone else walks
                actor = shove is not None and bot.kind == "module" and module_near(table, [shove[0]])
                ranked.append((not actor, here not in watched and not bot.detected, not errand, -remaining,
                               bot.kind != "agent", action))
        if not ranked:
            return EndMove()
        return min(ranked, key=lambda r: r[:5])[5]

    def _push_rank(self, table: Resolution, push: Push) -> tuple[bool, int]:
        """How good a space `push.to` is for the shoved unit: through a door while the pusher still owes
        TSM-103C's "push a security unit through a door", then where it is least in the pusher's way (shoved
        onward along the bot's path, it stood in the way again: a guard shoved out through the only door of
        Nano's room, round after round)."""
        floor = table.floor
        pusher = table.state.bot(push.bot)
        at, to = floor.index[table.state.unit(push.unit).space], floor.index[push.to]
        through = floor.edge_between(at, to) == "door" and \
            self._mission(table.state).owes_push_through_door(table, pusher)
        return through, self._bot_distances(table, pusher)[to]

    def _module_errand(self, table: Resolution) -> bool:
        """Whether an open calibration is the command module's own to do."""
        if "module errand" not in self._memo:
            self._memo["module errand"] = any(not objective_done(table.state, table, o, False)
                                              for o in module_calibrations(table.state))
        return cast(bool, self._memo["module errand"])

    @staticmethod
    def _mission(state: GameState) -> MissionStrategy:
        """The mission's own play (`controller.autoplay.missions`)."""
        return strategy_for(state.mission.id)

    def _shove(self, table: Resolution) -> tuple[SecurityUnit, int] | None:
        """The unit the mission's play pushes toward a space (Do-While-End's captain), and that space."""
        return self._mission(table.state).shove(self, table)

    def _crosses_first(self, table: Resolution, module: Bot, cost: int) -> bool:
        """In the first round, with two players or more, the module walks before the agents when no guard sees
        its way to the team's safe zone (its cost is its steps and one locked door at most): it crosses the
        hallways before the guards move and the agents' detections stir them, instead of later in their sight.
        With one player the lone agent's pool is better spent on its terminals."""
        if table.state.round > 1 or table.state.players < 2:
            return False
        here = table.floor.index[module.at]
        steps = min((table.distances()[here][t] for t in self._targets(table, module)), default=UNREACHED)
        return cost - steps <= DOOR_COST


def _move_key(state: GameState) -> tuple[int, int, int] | None:
    """Which move action is under way (None between move actions): trails belong to one."""
    turn = state.turn
    if turn.pending is None:
        return None
    return state.round, turn.active, state.burncycle.tracker


def _in_harms_way(table: Resolution, bot: Bot, power: int) -> bool:
    """A detected bot a guard can walk up to and shut down again in the coming corporation turn: reviving it
    with `power` only buys another "Threat increases by +3"."""
    if not bot.detected:
        return False
    here = table.floor.index[bot.at]
    distances = table.distances()
    return any(not u.stunned and u.damage >= power
               and distances[table.floor.index[u.space]][here] <= movement_of(table, u) + 1
               for u in table.state.security)


def _later_slot(state: GameState) -> bool:
    """Whether a usable chip is left after the one under the tracker in this turn."""
    return any(chip_usable(state, k) for k in range(state.burncycle.tracker + 1, len(state.burncycle.slots)))


def play(state: GameState, player: Player | None = None,
         max_actions: int = 20_000) -> Iterator[tuple[Action, list[Event], GameState]]:
    """Play a game with the game's own seeded dice, one action at a time: each action, its events and the state
    after it, a fresh value each time (the state given, and every state yielded before, are left as they were)."""
    player = player or AutoPlayer()
    for _ in range(max_actions):
        if state.outcome is not None:
            return
        action = player.choose(state)
        state, events = apply_action(state, action)
        yield action, events, state


def play_game(state: GameState, player: Player | None = None, max_actions: int = 20_000) -> GameState:
    """Play a game to its end; returns the final state (the one given is left as it was). Nobody sees the states
    in between, so it plays on one private copy in place (the player only picks listed actions)."""
    player = player or AutoPlayer()
    state = copy_state(state)
    for _ in range(max_actions):
        if state.outcome is not None:
            break
        state, _ = apply_action(state, player.choose(state), in_place=True)
    return state
