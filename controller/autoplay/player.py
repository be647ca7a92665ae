"""A heuristic auto-player for the agents' side, for convention demos and self-play.

It plays the way a cautious table would: each bot heads for its next objective (a terminal with a chip
while terminal calibrations are open, then a safe zone), opens the locked doors on its way with a key or by
brute force, accesses terminals it stands on, spreads its dice over the burncycle's slots, and prefers a
step out of every guard's sight when two steps are equally short. It only ever chooses among
`legal_actions`, so it can never make an illegal move.
"""

from __future__ import annotations

from collections.abc import Iterator

from controller.rules.actions import (Action, Alter, BeginActions, BuyDiceUpgrade, BuyUpgrade, CorporationTurn,
                                      DrawChip, EndMove, EndTurn, Escape, Keypad, Move, NetworkCardAction, Pass, Push,
                                      Reboot, Repair, Step, Strike, StrikeWall, Terminal, UnlockSlot, apply_action,
                                      legal_actions)
from controller.rules.characters.proprietary_dice import USE
from controller.autoplay.missions import MissionErrands, is_prey, module_calibrations, module_tasks
from controller.autoplay.network_step import network_step
from controller.autoplay.paths import (AVERAGE_AP, DOOR_COST, FORCE_MARGIN, UNREACHED, WALL_COST, WATCHED_COST,
                                             door_passage, expected_ap, passes_doors)
from controller.rules.players.burncycle import active_slot_count, next_slot_cost
from controller.rules.dice import SeededDice
from controller.rules.corporation.threat_effects import apply_effect
from controller.rules.board.geometry import MAX_DESTROYED_WALLS, edge_id
from controller.rules.missions.floor_change import can_escape, floor_objectives
from controller.rules.players.keypads import brute_force_durability, chip_inputs_payable
from controller.rules.missions.objectives import applies, done
from controller.rules.missions.special_rules import durability
from controller.rules.state import Bot, DicePool, GameState, Objective, SecurityUnit, copy_state
from controller.rules.corporation.security import movement_of
from controller.rules.table import Table
from controller.rules.players.moves import current_chip_kind, movers
from controller.rules.events import Event
from controller.rules.players.steps import active_agent, usable

CHIP_PREFERENCE = ["physical", "utility", "tech", "general"]
PREY_MARGIN = 1  # AP short of a win's unit's durability a strike on it may still expect
# one player: the power at which the module repairs the lone agent (measured, Data Heist alone on the lobby
# and the annex: wins 123 -> 144 of 800 games, seeds 2000-2399, and 92 -> 98 of 600, seeds 1000-1299; from 4
# power: 120 of 800. Two players keep 1, as their repairer is a team-mate whose own dice it costs)
LONE_AGENT_LOW = 3
# on the way home: an agent in the team's safe zone gives a team-mate still out on the floor with less than
# STRAGGLER_TOP_UP power (its dice) up to that, keeping the 1 the rules ask for (measured, Data Heist, two and three
# players on the lobby and the annex: wins 224 -> 256 of 1200 games, seeds 1000-1299, and 202 -> 250 of 1200,
# seeds 2000-2299; topping up to 3, 5, 7 or 9, or keeping 2 or 3, measured no better)
STRAGGLER_TOP_UP = 6
STRAGGLER_KEEP = 1
# one player: the module staying in the team's safe zone, where no guard outside sees it, tops the lone agent up
# to this, keeping 1 (measured, Data Heist alone on the lobby and the annex: wins 101 -> 109, 109 -> 112 and
# 118 -> 126 of 600 games, seeds 1000-1299, 2000-2299 and 3000-3299)
LONE_AGENT_TOP_UP = 8
SPARE_TRIP = 18  # steps: an agent the terminals do not need goes ahead home when its round trip is longer
# the team reboots before a turn that has at most this many usable chips: one action left is most often too few
# to get a bot out of a guard's reach or through a door, and the reboot's threat (the player count) is cheaper
# than a lost turn (measured, Data Heist, 1-3 players on the lobby and the annex: see the rules interpretations)
REBOOT_AT = 1
# the agents the auto-player picks, first to last: Nano, whose Reassemble takes him through locked doors (no
# keypad's dice, inputs or alarms), then Casing, whose pressure die adds move AP. Measured, Data Heist, seeds
# 100-159, against the first agents of the box (Byte, Casing, Bit): alone on the lobby, the annex and the labs,
# wins 19 -> 46, 11 -> 18 and 1 -> 11 of 60; two players (Nano with Casing) 32 -> 38 on the lobby and 21 -> 33
# on the annex, where Nano with Byte, Bit, Memory or Interface won 13-32. The rest follow in the box's order.
TEAM = ("nano", "casing", "byte", "bit")
# TSM-103C: the threat up to which a chip drawn for 5 threat is worth it (the mission's start, 6, plus one draw)
DRAW_CHIP_THREAT = 11
PUSH_BUY = 3  # TSM-103C: steps from a unit to push through a door within which an agent buys the push upgrade


def team(players: int) -> list[str]:
    """The agents the auto-player plays a game of `players` with, when the players name none."""
    return list(TEAM[:players])


class AutoPlayer(MissionErrands):
    """Chooses the next action for whoever is to act (the corporation's turn included)."""

    def __init__(self) -> None:
        super().__init__()
        self._blocked_by_unit: set[str] = set()  # bots a guard stood in the best way of (they could not push)
        self._trail_of: tuple[int, int, int] | None = None  # the move action the trails belong to
        self._trail: dict[str, set[int]] = {}  # spaces each bot has stood on in this move action

    def choose(self, state: GameState) -> Action:
        turn = state.turn
        assert turn is not None
        self._memo = {}  # a new decision: nothing computed for the last one holds
        if turn.step == "corporation":
            return CorporationTurn()
        if turn.step == "route":
            return self._route(state)
        if turn.step == "network":
            return network_step(state)
        if turn.step == "end":
            return self._spend_down(state)
        table = Table(state, SeededDice(0), apply_effect, copy=False)
        legal = legal_actions(state)
        if turn.pending is not None:
            return self._step(table, legal)
        return self._action(table, legal)

    def _route(self, state: GameState) -> Action:
        """Reboot when the burncycle has at most REBOOT_AT usable chips left (threat is the price)."""
        live = sum(1 for k in range(len(state.burncycle.slots)) if usable(state, k))
        legal = [la.action for la in legal_actions(state)]
        # reserve chips replace degraded ones for free (physical first: +2 AP on every move)
        alters = [a for a in legal if isinstance(a, Alter)
                  and state.burncycle.slots[a.slot - 1] is not None
                  and state.burncycle.slots[a.slot - 1].degraded]  # type: ignore[union-attr]
        if alters:
            preference = CHIP_PREFERENCE
            if self._waiting_to_hop(state):
                # Preconnaissance: a bot on a terminal space a hop leaves from needs a utility or tech chip
                preference = ["utility", "tech", "physical", "general"]
            return min(alters, key=lambda a: (preference.index(a.chip), a.source == "team", a.slot))
        if live <= REBOOT_AT and live < active_slot_count(state) and any(isinstance(a, Reboot) for a in legal):
            return Reboot()
        agent = active_agent(state)
        unlock = self._fourth_slot(state, legal)
        if unlock is not None:
            return unlock
        table = Table(state, SeededDice(0), apply_effect, copy=False)
        # a guard stood in the only way, or the win's unit is to be pushed onto a terminal: this agent
        # learns to push
        push = BuyUpgrade(bot=agent.id, upgrade="push")
        if state.calibrated and state.mission.rules.calibration_terminal_durability:
            shove = self._shove(table)
            module_push = BuyUpgrade(bot="module", upgrade="push")
            if shove is not None and module_push in legal and self._module_in_reach(table, [shove[0]]) \
                    and state.bot("module").power >= 3:
                return module_push
            if shove is not None and push in legal and agent.power >= 3:
                return push
        # TSM-103C: the push upgrade is bought when it is used, within PUSH_BUY steps of a unit to push through a
        # door, the agent's power (its dice) kept till then
        if push in legal and agent.power >= 3 and self._pushes_through_door(table, agent) and \
                self._door_pushes(table, near=agent, within=PUSH_BUY):
            return push
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

    @staticmethod
    def _fourth_slot(state: GameState, legal: list[Action]) -> Action | None:
        """A fourth burncycle slot on the first turn, paid by the module down to 3 power and 1 from the agent
        (two players or more): one more action every turn (a network card, a move on a physical chip) and a
        reboot, with its threat, a turn later each time; measured, it more than doubles the wins of self-play."""
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
        if state.mission.no_reboot:
            # TSM-103C: "The burncycle cannot be rebooted", and an unlocked slot "immediately receive[s] a
            # general action chip": the module pays even with its own errand, as the chip and the slot are what
            # walk it to its terminals (measured, 240 games on the three floors, one and two players, seeds
            # 100-139: its terminal accesses 61 -> 167; paying 2 and the agent 2: 119)
            return UnlockSlot(payers={"module": cost - 1, agent.id: 1})
        if state.players == 1 or (module_calibrations(state) and module_tasks(state) != {"module_spaces"}):
            # the module has its own errand out on the floor, or crosses it beside a lone agent: its power is
            # its health there, so the agent pays, keeping 3 for its dice, or the slot waits (measured with one
            # player, Data Heist, 300 games a floor: wins 14% -> 17% on the lobby, 5% -> 7% on the annex).
            # Preconnaissance's module spaces with two players or more are the exception: the module pays as
            # usual (measured: calibrations 6% -> 16% on the annex; a reboot, 2 threat there, comes a turn later)
            return UnlockSlot(payers={agent.id: cost}) if agent.power - cost >= 3 else None
        return UnlockSlot(payers={"module": cost - 1, agent.id: 1})

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
        usable_slots = [k for k in range(len(state.burncycle.slots)) if usable(state, k)]
        if not usable_slots or state.turn.degraded:  # type: ignore[union-attr]  # a degrade already rolled
            return EndTurn()
        worth = {"captain": 0, "general": 1, "tech": 2, "utility": 3, "physical": 4}
        slot = min(usable_slots, key=lambda k: (worth[state.burncycle.slots[k].kind], -k))  # type: ignore[union-attr]
        return EndTurn(choose=slot + 1)

    # -- where to go --------------------------------------------------------------------------------
    def _targets(self, table: Table, bot: Bot) -> set[int]:
        key = ("targets", bot.id)
        if key not in self._memo:
            self._memo[key] = self._find_targets(table, bot)
        return self._memo[key]  # type: ignore[return-value]

    def _find_targets(self, table: Table, bot: Bot) -> set[int]:
        """Where the bot heads now: a terminal for an open terminal task, a safe zone, an entrance to escape."""
        state, floor = table.state, table.floor
        # the tasks of now: this floor's objectives on the way up the tower, then the last floor's calibrations
        tasks = floor_objectives(table) if state.later_floors else [] if state.calibrated else state.mission.calibrations
        open_tasks = [o for o in tasks if applies(state, o) and not done(state, table, o, False)]
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
        errand = self._task_targets(table, bot, open_tasks)
        if errand:
            return errand
        if open_tasks and bot.kind == "module":
            # while the agents work, the module (whose loss is the game's) waits where guards cannot see it
            return self._team_safe_zone(table)
        if can_escape(table):
            return set(floor.posts.get("entrance", ()))
        return self._team_safe_zone(table)

    def _takes_terminal(self, table: Table, bot: Bot, objective: Objective) -> bool:
        """Whether the bot accesses terminals for this task: the module for its own ("Command Module: Access
        ..."), the agents for the team's, and for an "each" task an agent until it has its own count (then it
        goes ahead to the safe zone). Sending only as many agents as a team task still misses was measured
        worse: a second agent on its way to a terminal is the team's spare (a third one, from afar, is not:
        `_spare`)."""
        if (objective.qualifier == "module") != (bot.kind == "module"):
            return False
        if objective.qualifier != "each":
            return bot.kind == "module" or table.state.players < 3 or not self._spare(table, bot, objective)
        need = int(objective.task.partition(":")[2] or 1)
        return table.state.progress.get(f"terminals:{bot.id}", 0) < need

    def _spare(self, table: Table, bot: Bot, objective: Objective) -> bool:
        """With three players or more, an agent the team's terminal task does not need (the agents nearest to
        a terminal take the accesses still missing) whose round trip, to its nearest terminal and on to the
        team's safe zone, is longer than SPARE_TRIP steps: it goes ahead to the zone instead of walking the
        long way twice (measured, Data Heist with three players: on the lobby wins 24 -> 40, 40 -> 46 and
        30 -> 35 of 300 games, seeds 1000-1299, 2000-2299 and 3000-3299; the annex, whose trips are short,
        plays the same games; sending every agent not needed home: the annex lost 9 of 900)."""
        need = int(objective.task.partition(":")[2] or 1)
        got = sum(v for k, v in table.state.progress.items() if k.startswith("terminals:"))
        terminals = {table.floor.index[s] for s in table.state.floor.terminals}
        if "nearest to terminals" not in self._memo:
            self._memo["nearest to terminals"] = sorted(
                (b for b in table.state.bots if b.kind == "agent" and b.on_board and not b.shut_down),
                key=lambda b: (min(self._cost_to(table, b, t) for t in terminals), b.id))
        agents: list[Bot] = self._memo["nearest to terminals"]  # type: ignore[assignment]
        zone = self._team_safe_zone(table)
        if bot in agents[:max(need - got, 0)] or not zone:
            return False
        steps = table.distances()
        here = table.floor.index[bot.space]  # type: ignore[index]
        return min(steps[here][t] + min(steps[t][z] for z in zone) for t in terminals) > SPARE_TRIP

    def _bot_distances(self, table: Table, bot: Bot) -> list[int]:
        key = ("distances", bot.id)
        if key not in self._memo:
            self._memo[key] = self._cost_map(table, bot, frozenset(self._targets(table, bot)))
        return self._memo[key]  # type: ignore[return-value]

    # -- the action step ----------------------------------------------------------------------------
    def _action(self, table: Table, legal: list) -> Action:
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
        hop = self._hop(table, legal)
        if hop is not None:
            return hop
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
                durability = brute_force_durability(table, edge_id(bot.space, beyond))  # type: ignore[arg-type]
                need = self._dice_for(table, durability)
                if expected_ap(need) >= durability - FORCE_MARGIN:
                    if bot.kind == "agent" and USE.get(bot.proprietary_die or "") == "force":
                        need.proprietary = table.state.turn.pool.proprietary  # type: ignore[union-attr]  # Bit's lift die
                    return Keypad(bot=bot.id, beyond=beyond, approach="brute_force", dice=need)
            door = edge_id(bot.space, beyond)  # type: ignore[arg-type]
            card = table.state.keypads.get(door)
            # inputs when the card is still unknown, or its printed chip inputs can be paid from the reserves or
            # by jumping the tracker ahead to a matching chip
            if "inputs" in approaches and (card is None or chip_inputs_payable(table, bot, card)):
                return Keypad(bot=bot.id, beyond=beyond, approach="inputs")
        wall = self._wall_in_the_way(table, legal)
        if wall is not None:
            return wall
        optimized = current_chip_kind(table) == "physical"
        pool = table.state.turn.pool  # type: ignore[union-attr]
        # rolled AP cannot be saved: a move rolls the whole pool (later chips can still open doors with
        # keys or inputs, access terminals, or move on an optimized +2)
        own = pool.proprietary if USE.get(active_agent(table.state).proprietary_die or "") == "move" else 0
        everything = DicePool(basic=pool.basic, advanced=pool.advanced, elite=pool.elite, proprietary=own)
        if Move in kinds and self._can_progress(table) and (optimized or expected_ap(everything) > 0):
            return Move(dice=everything)
        # a slot with nothing better to do draws a chip for threat in TSM-103C, early on, else a network card:
        # many lower threat or give power when the network step completes them
        if not optimized and self._draws_chip(table, legal):
            return DrawChip(chip="physical")
        if NetworkCardAction in kinds and len(table.state.network_hands.get(active_agent(table.state).id, [])) < 3:
            return NetworkCardAction()
        return Pass()

    @staticmethod
    def _draws_chip(table: Table, legal: list) -> bool:
        """TSM-103C: "As a general action, an agent may advance threat by 5 to draw an action chip of their
        choice": a chip with nothing better to do draws a physical chip while threat stays within
        DRAW_CHIP_THREAT. The burncycle cannot be rebooted, so each chip drawn early is a physical chip's +2 AP
        on a move for every turn it lives, and the network cards' threat reductions have the turns to win the
        5 back; drawn late it buys one action (measured, 240 games on the three floors, one and two players,
        seeds 100-139: the module's three terminals 0 -> 15, the first calibrations, 4; up to threat 16, 11
        and none; up to 22, 3 and none)."""
        return table.state.threat + table.state.mission.rules.chip_for_threat <= DRAW_CHIP_THREAT and \
            any(isinstance(la.action, DrawChip) for la in legal)

    def _dice_for(self, table: Table, ap: int, bonus: int = 0) -> DicePool:
        """Enough of the pool to expect `ap` (best dice first), or all of it."""
        assert table.state.turn is not None
        pool = table.state.turn.pool
        picked = DicePool()
        expected = float(bonus)
        for grade in ("elite", "advanced", "basic"):
            worth = AVERAGE_AP[grade]
            while expected < ap + 1 and getattr(pool, grade) > getattr(picked, grade):
                setattr(picked, grade, getattr(picked, grade) + 1)
                expected += worth
        return picked

    def _strike(self, table: Table, legal: list) -> Action | None:
        """Strike a unit a win task asks for when the dice can shut it down, else a unit next to a detected
        bot at its target when the dice can at least stun it (durability - 5)."""
        bonus = 2 if table.state.burncycle.slots[table.state.burncycle.tracker] is not None and \
            table.state.burncycle.slots[table.state.burncycle.tracker].kind == "physical" else 0  # type: ignore[union-attr]
        wins = [o.task for o in table.state.mission.win if applies(table.state, o)] if table.state.calibrated else []
        for la in legal:
            action = la.action
            if not isinstance(action, Strike):
                continue
            bot = table.state.bot(action.bot)
            unit = table.state.unit(action.unit)
            if any(is_prey(table, unit, w) for w in wins):
                # a win task's unit: shut it down when the dice make it a fair chance, else wait for a better
                # chip
                dice = self._dice_for(table, durability(table, unit), bonus)
                if bonus + expected_ap(dice) >= durability(table, unit) - PREY_MARGIN:
                    return Strike(bot=bot.id, unit=unit.id, dice=dice)
                continue
            if not bot.detected or unit.stunned or not self._wants(table, bot):
                # a stun holds the guard for one corporation turn only: a bot on its way spends the pool walking
                # out of its reach instead (striking, it meets the guard again next round; measured, Data
                # Heist on the lobby and the annex, one and two players, 2800 games: wins 505 -> 580)
                continue
            # "Stun: If the strike fails but comes within 5 AP of the durability value": 1 AP over the average,
            # the optimized bonus counted once
            need = max(0, durability(table, unit) - 5)
            dice = self._dice_for(table, need, bonus)
            if bonus + expected_ap(dice) >= need + 1:
                return Strike(bot=bot.id, unit=unit.id, dice=dice)
        return None

    def _repair(self, table: Table, legal: list) -> Action | None:
        """Bring a shut-down bot back, or the command module (whose loss is the game's) when it runs low, or
        a team-mate down to 1 power (a lone agent to 3, whom the module staying in the safe zone, safe there,
        tops up to LONE_AGENT_TOP_UP keeping 1); the repairer keeps 3, or 1 when a shut-down bot needs more to
        live through the guard beside it (left shut down, it never gets home: measured, Data Heist, two and
        three players on the lobby and the annex: wins 256 -> 265 of 1200 games, seeds 1000-1299, and
        250 -> 259, seeds 2000-2299). Then an agent home in the team's safe zone tops up a team-mate still
        out (`_stragglers`)."""
        state = table.state
        repairers: dict[str, list[Bot]] = {}  # by target: the bots a listed Repair lets act
        for la in legal:
            if isinstance(la.action, Repair):
                repairers.setdefault(la.action.target, []).append(state.bot(la.action.bot))
        for target in sorted(self._needing_repair(table), key=lambda b: (not b.shut_down, b.kind != "module")):
            for actor in repairers.get(target.id, ()):
                amount = min(actor.power - 3, 10 - target.power, 3)
                if state.players == 1 and actor.kind == "module" and self._staying_home(table, actor):
                    amount = min(actor.power - 1, LONE_AGENT_TOP_UP - target.power)
                if target.shut_down and _in_harms_way(table, target, amount):
                    # revived with that, the guard beside it shuts it down again at once (another +3 threat):
                    # it gets enough to live through the hit, the repairer keeping the 1 the rules ask for, or
                    # none
                    amount = next((a for a in range(max(amount + 1, 1), min(actor.power, 11 - target.power))
                                   if not _in_harms_way(table, target, a)), 0)
                if amount >= 1:
                    return Repair(bot=actor.id, target=target.id, amount=amount)
        # an agent home in the team's safe zone has no use for its dice but the module's steps: the team-mate
        # still out, whose power is its pool, walks home faster with them
        for target in self._stragglers(table):
            for actor in repairers.get(target.id, ()):
                amount = min(actor.power - STRAGGLER_KEEP, STRAGGLER_TOP_UP - target.power)
                if actor.kind == "agent" and amount >= 1 and self._home(table, actor):
                    return Repair(bot=actor.id, target=target.id, amount=amount)
        return None

    def _needing_repair(self, table: Table) -> list[Bot]:
        """The bots a repair is for: shut down, the module low or a team-mate down to 1 power (3 for a lone
        agent), but not the module low at home in the team's safe zone, where no guard outside can see it
        ("Guards outside safe zones cannot see into them"): a repair there spent the repairer's dice for nothing
        while a team-mate still out waited for them (measured, Data Heist, one to three players on the lobby and
        the annex: wins 365 -> 384 of 1800 games, seeds 1000-1299, and 364 -> 373, seeds 2000-2299)."""
        state = table.state
        agent_low = LONE_AGENT_LOW if state.players == 1 else 1
        return [b for b in state.bots if b.space is not None and not b.escaped
                and (b.shut_down or b.power <= (2 if b.kind == "module" else agent_low))
                and not (b.kind == "module" and not b.shut_down and self._staying_home(table, b))]

    def _stragglers(self, table: Table) -> list[Bot]:
        """The agents still out of the team's safe zone on the way home (the calibrations done) with less than
        STRAGGLER_TOP_UP power: few dice, so the slowest home."""
        if not table.state.calibrated:
            return []
        return [b for b in table.state.bots if b.kind == "agent" and b.on_board and not b.shut_down
                and b.power < STRAGGLER_TOP_UP and not self._home(table, b)]

    def _staying_home(self, table: Table, bot: Bot) -> bool:
        """Whether the bot stands in the team's safe zone and stays there (it is its target)."""
        return self._home(table, bot) and self._targets(table, bot) == self._team_safe_zone(table)

    def _home(self, table: Table, bot: Bot) -> bool:
        """Whether the bot stands in the team's safe zone (its doorways included)."""
        return bot.space is not None and self._in_team_zone(table, table.floor.index[bot.space])

    def _in_team_zone(self, table: Table, space: int) -> bool:
        """Whether the space lies in the area of the team's safe zone. (When no zone is open to all, the
        fallback zone lists every zone's spaces and this counts one of them; counting them all was measured to
        change 6 of 1000 two-player lobby games, one win fewer, so it was left.)"""
        zone = self._team_safe_zone(table)
        return bool(zone) and table.floor.area_of[space] == table.floor.area_of[next(iter(zone))]

    def _wants(self, table: Table, bot: Bot) -> bool:
        return table.floor.index[bot.space] in self._targets(table, bot)  # type: ignore[index]

    def _next_space(self, table: Table, bot: Bot) -> tuple[int, str] | None:
        """The best neighbouring space toward the bot's target, with the kind of edge crossed; for a bot
        at its target that a guard is about to attack, the safest space next to it."""
        key = ("next", bot.id)
        if key not in self._memo:
            self._memo[key] = self._find_next_space(table, bot)
        return self._memo[key]  # type: ignore[return-value]

    def _find_next_space(self, table: Table, bot: Bot) -> tuple[int, str] | None:
        here = table.floor.index[bot.space]  # type: ignore[index]
        targets = self._targets(table, bot)
        if here in targets:
            if bot.space in table.state.floor.terminals and _later_slot(table.state):
                return None  # a later chip of this turn accesses the terminal: stepping off would waste it
            if bot.kind == "module" and table.floor.feature[here] == "module":
                return None  # "At the end of three different agent turns, occupy a command module space"
            if self._shove(table) is not None or self._prey_struck_here(table):
                # behind the unit to be pushed, or beside it on its terminal: the push or the strike waits for
                # the AP of a later chip
                return None
            if self._holds_for_dial_out(table):
                return None
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
            # when there is one rather than wait beside the guard for it to move (measured, Data Heist on the
            # lobby and the annex, one and two players, 2800 games: wins 580 -> 608)
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
        ways = table.floor.security_neighbours(here, table.destroyed)
        if walls:
            ways = ways + [(d, j) for d, (j, kind) in table.floor.neighbour[here].items() if kind == "wall"]
        shoved = self._shove(table)
        for _, j in ways:
            unit = isinstance(table.occupant.get(j), SecurityUnit)
            if unit and shoved is not None and table.occupant[j] is shoved[0]:
                continue  # the unit being shoved toward a terminal is walked around, not pushed aside
            if (j in table.occupant and not (unit and "push" in bot.upgrades)) or dist[j] >= mine \
                    or j in trail:
                if unit and dist[j] < mine:
                    self._blocked_by_unit.add(bot.id)
                continue
            if edge_id(bot.space, table.floor.ids[j]) in blocked:  # type: ignore[arg-type]
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
            # about to attack steps out of its reach meanwhile instead of taking the hit round after round
            # (measured, Data Heist, one to three players on the lobby and the annex: wins 1194 -> 1270 of 5400
            # games, seeds 1000-1299, 2000-2299 and 3000-3299; the module stepping back too: one player on the
            # lobby lost 6 in 300 twice)
            return self._retreat(table, bot, here) if bot.kind == "agent" else None
        _, _, j, kind = min(options)
        return j, kind

    @staticmethod
    def _holds_for_dial_out(table: Table) -> bool:
        """Dial Out: "Land on the network core with their IP while all bots occupy terminal spaces": after the
        calibration a bot on its terminal space stays there, guard or not, rather than stepping out of reach
        and back (a step off on the turn the IP could land loses the landing; measured from the 30
        calibrations of 3600 games, 20 plays each: wins 9 -> 21 of 600 with the network step's way in)."""
        state = table.state
        return state.calibrated and any(o.task == "core_while_on_terminals" and applies(state, o)
                                        for o in state.mission.win)

    def _door_in_the_way(self, table: Table) -> tuple[Bot, str] | None:
        for bot in movers(table):
            nxt = self._next_space(table, bot)
            if nxt is not None and nxt[1] == "door" and self._opens_doors(table, bot, nxt[0]):
                door = edge_id(bot.space, table.floor.ids[nxt[0]])  # type: ignore[arg-type]
                if door not in table.unlocked:
                    return bot, table.floor.ids[nxt[0]]
        return None

    @staticmethod
    def _opens_doors(table: Table, bot: Bot, beyond: int) -> bool:
        """Whether the bot opens a locked door before stepping through to `beyond`: any bot but Nano, and Nano
        too when a unit stands beyond it (he cannot reassemble into its space, and the locked door blocks his
        adjacency for a push)."""
        return not passes_doors(bot) or isinstance(table.occupant.get(beyond), SecurityUnit)

    def _wall_in_the_way(self, table: Table, legal: list) -> Action | None:
        """A bot shut in strikes the wall on its way out when the dice it can roll now make 10 AP likely
        ("Striking a wall with 10+ AP places a destroyed wall chip")."""
        bonus = 2 if current_chip_kind(table) == "physical" else 0
        for bot in movers(table):
            nxt = self._next_space(table, bot)
            if nxt is None or nxt[1] != "wall":
                continue
            beyond = table.floor.ids[nxt[0]]
            if not any(isinstance(la.action, StrikeWall) and la.action.bot == bot.id and la.action.beyond == beyond
                       for la in legal):
                continue
            dice = self._dice_for(table, 10, bonus)
            if bot.kind == "agent" and USE.get(bot.proprietary_die or "") == "force":
                dice.proprietary = table.state.turn.pool.proprietary  # type: ignore[union-attr]
            if bonus + expected_ap(dice) >= 10:
                return StrikeWall(bot=bot.id, beyond=beyond, dice=dice)
        return None

    def _retreat(self, table: Table, bot: Bot, here: int) -> tuple[int, str] | None:
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

    def _can_progress(self, table: Table) -> bool:
        for bot in movers(table):
            nxt = self._next_space(table, bot)
            if nxt is not None and (nxt[1] != "door" or edge_id(bot.space, table.floor.ids[nxt[0]])  # type: ignore[arg-type]
                                    in table.unlocked or bot.keys > 0 or not self._opens_doors(table, bot, nxt[0])):
                return True
        return False

    def _step(self, table: Table, legal: list) -> Action:
        """Spend one AP: first on a bot a guard can see, then on the agent while calibrations are open, else
        on the bot farthest from its target."""
        state = table.state
        move = _move_key(state)
        if self._trail_of != move:  # a new move action: a bot never walks back over its own steps in one
            self._trail_of, self._trail = move, {}
        for bot in movers(table):
            self._trail.setdefault(bot.id, set()).add(table.floor.index[bot.space])  # type: ignore[index]
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
            # cannot see into them": inside, it sees and attacks every bot there. Measured, Data Heist, one
            # to three players on the lobby and the annex: wins 1156 -> 1194 of 5400 games, seeds 1000-1299,
            # 2000-2299 and 3000-3299, the annex +43, the lobby -5)
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
            here = table.floor.index[bot.space]  # type: ignore[index]
            nxt = self._next_space(table, bot)
            action = steps.get((bot.id, table.floor.ids[nxt[0]])) if nxt is not None else None
            last = state.turn.pending is not None and state.turn.pending.ap == 1  # type: ignore[union-attr]
            if action is not None and last and nxt[0] in watched and here not in watched \
                    and not (shove is not None and bot.kind == "module"):  # type: ignore[index]
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
                actor = shove is not None and bot.kind == "module" and self._module_in_reach(table, [shove[0]])
                ranked.append((not actor, here not in watched and not bot.detected, not errand, -remaining,
                               bot.kind != "agent", action))
        if not ranked:
            return EndMove()
        return min(ranked, key=lambda r: r[:5])[5]

    def _push_rank(self, table: Table, push: Push) -> tuple[bool, int]:
        """How good a space `push.to` is for the shoved unit: through a door while the pusher still owes
        TSM-103C's "push a security unit through a door", then where it is least in the pusher's way (shoved
        onward along the bot's path, it stood in the way again: a guard shoved out through the only door of
        Nano's room, round after round)."""
        floor = table.floor
        pusher = table.state.bot(push.bot)
        at, to = floor.index[table.state.unit(push.unit).space], floor.index[push.to]
        through = floor.edge_between(at, to) == "door" and self._pushes_through_door(table, pusher)
        return through, self._bot_distances(table, pusher)[to]

    def _crosses_first(self, table: Table, module: Bot, cost: int) -> bool:
        """In the first round, with two players or more, the module walks before the agents when no guard sees
        its way to the team's safe zone (its cost is its steps and one locked door at most): it crosses the
        hallways before the guards move and the agents' detections stir them, instead of later in their sight.
        Measured, Data Heist with two players on the lobby, 700 seeds: wins 22% -> 31%; the annex and the labs
        (a guard sees the way) are unchanged; with one player the lone agent's pool is better spent on its
        terminals (lobby, 300 seeds: 19% -> 16%)."""
        if table.state.round > 1 or table.state.players < 2:
            return False
        here = table.floor.index[module.space]  # type: ignore[index]
        steps = min((table.distances()[here][t] for t in self._targets(table, module)), default=UNREACHED)
        return cost - steps <= DOOR_COST


def _move_key(state: GameState) -> tuple[int, int, int] | None:
    """Which move action is under way (None between move actions): trails belong to one."""
    turn = state.turn
    if turn is None or turn.pending is None:
        return None
    return state.round, turn.active, state.burncycle.tracker


def _in_harms_way(table: Table, bot: Bot, power: int) -> bool:
    """A detected bot a guard can walk up to and shut down again in the coming corporation turn: reviving it
    with `power` only buys another "Threat increases by +3"."""
    if not bot.detected:
        return False
    here = table.floor.index[bot.space]  # type: ignore[index]
    distances = table.distances()
    return any(not u.stunned and u.damage >= power
               and distances[table.floor.index[u.space]][here] <= movement_of(table, u) + 1
               for u in table.state.security)


def _later_slot(state: GameState) -> bool:
    """Whether a usable chip is left after the one under the tracker in this turn."""
    return any(usable(state, k) for k in range(state.burncycle.tracker + 1, len(state.burncycle.slots)))


def play(state: GameState, player: AutoPlayer | None = None,
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


def play_game(state: GameState, player: AutoPlayer | None = None, max_actions: int = 20_000) -> GameState:
    """Play a game to its end; returns the final state (the one given is left as it was). Nobody sees the states
    in between, so it plays on one private copy in place (the player only picks listed actions)."""
    player = player or AutoPlayer()
    state = copy_state(state)
    for _ in range(max_actions):
        if state.outcome is not None:
            break
        state, _ = apply_action(state, player.choose(state), in_place=True)
    return state
