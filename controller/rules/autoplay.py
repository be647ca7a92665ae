"""A heuristic auto-player for the agents' side, for convention demos and self-play.

It plays the way a cautious table would: each bot heads for its next objective (a terminal with a chip
while terminal calibrations are open, then a safe zone), opens the locked doors on its way with a key or by
brute force, accesses terminals it stands on, spreads its dice over the burncycle's slots, and prefers a
step out of every guard's sight when two steps are equally short. It only ever chooses among
`legal_actions`, so it can never make an illegal move.
"""

from __future__ import annotations

import heapq

from controller.rules.actions import (Action, Alter, BeginActions, CorporationTurn, EndMove, EndTurn, Keypad, Move,
                                      NetworkStep, Pass, Reboot, Repair, Step, Strike, Terminal, apply_action,
                                      legal_actions, BuyUpgrade)
from controller.rules.awareness import sight
from controller.rules.dice import SeededDice
from controller.rules.effects import apply_effect
from controller.rules.floor import edge_id
from controller.rules.keypad import column
from controller.rules.missions import applies, done
from controller.rules.model import Bot, DicePool, GameState
from controller.rules.table import Table
from controller.rules.moves import current_chip_kind, movers
from controller.rules.errors import RulesError
from controller.rules.ipmove import movement_chips
from controller.rules.turn import active_agent, usable

UNREACHED = 1 << 20
CHIP_PREFERENCE = ["physical", "utility", "tech", "general"]
# Average AP a die adds (a pair of basic blanks makes 1 AP; the elite reroll lifts its die a little)
AVERAGE_AP = {"basic": 13 / 12, "advanced": 11 / 6, "elite": 2.3}
WATCHED_COST = 4
DOOR_COST = 5  # opening a locked door takes an action and dice  # a step into a space some guard sees counts as this many


class AutoPlayer:
    """Chooses the next action for whoever is to act (the corporation's turn included)."""

    def __init__(self) -> None:
        self._memo: dict[object, object] = {}
        # path costs by everything they depend on: the floor does not change between most decisions
        self._costs: dict[tuple, dict[int, int]] = {}

    def choose(self, state: GameState) -> Action:
        turn = state.turn
        assert turn is not None
        if turn.step == "corporation":
            return CorporationTurn()
        if turn.step == "route":
            return self._route(state)
        if turn.step == "network":
            return self._network(state)
        if turn.step == "end":
            return EndTurn()
        table = Table(state, SeededDice(0), apply_effect, copy=False)
        self._memo: dict[object, object] = {}  # what one decision computes more than once
        legal = legal_actions(state)
        if turn.pending is not None:
            return self._step(table, legal)
        return self._action(table, legal)

    def _route(self, state: GameState) -> Action:
        """Reboot when the burncycle has no usable chip left (threat is the price)."""
        live = sum(1 for k in range(len(state.burncycle.slots)) if usable(state, k))
        legal = [la.action for la in legal_actions(state)]
        # reserve chips replace degraded ones for free (physical first: +2 AP on every move)
        alters = [a for a in legal if isinstance(a, Alter)
                  and state.burncycle.slots[a.slot - 1] is not None
                  and state.burncycle.slots[a.slot - 1].degraded]  # type: ignore[union-attr]
        if alters:
            return min(alters, key=lambda a: (CHIP_PREFERENCE.index(a.chip), a.source == "team", a.slot))
        if live == 0 and any(isinstance(a, Reboot) for a in legal):
            return Reboot()
        agent = active_agent(state)
        # the command module's life is the game's: an agent with power to spare learns to repair it
        buy = BuyUpgrade(bot=agent.id, upgrade="repair")
        if agent.power >= 4 and any(a == buy for a in legal):
            return buy
        return BeginActions()

    def _network(self, state: GameState) -> Action:
        """Try each single transfer (in or out, at each movement step) and keep the one that leaves threat
        lowest, then keeps the IP on layer 2 (whose hubs reduce threat), then the IP's level and the agent's
        power highest."""
        agent = active_agent(state)
        steps = len(movement_chips(state))
        candidates = [NetworkStep()] + [NetworkStep(transfers={k: d}) for k in range(1, steps + 1)
                                        for d in ("in", "out")]
        layers = {n.id: n.layer for n in state.network.mat.nodes}
        best, best_score = candidates[0], None
        for candidate in candidates:
            try:
                after, _ = apply_action(state, candidate, SeededDice(state.seed, state.rolls))
            except RulesError:
                continue
            ip = next((i for i in after.network.ips if i.agent == agent.id), None)
            layer = layers.get(ip.node, 0) if ip is not None and ip.node is not None else 0
            score = (after.outcome is None, -after.threat, layer == 2, ip.level if ip else 0,
                     after.bot(agent.id).power)
            if best_score is None or score > best_score:
                best, best_score = candidate, score
        return best

    # -- where to go --------------------------------------------------------------------------------
    def _targets(self, table: Table, bot: Bot) -> set[int]:
        state, floor = table.state, table.floor
        terminal_tasks = [o for o in state.mission.calibrations
                          if applies(state, o) and o.task.split(":")[0] in ("terminals", "module_terminals")
                          and not done(state, table, o, False)]
        # the agents take the team's terminals; the module only its own ("Command Module: Access ...")
        wants_terminal = any((o.qualifier == "module") == (bot.kind == "module") for o in terminal_tasks)
        if not state.calibrated and wants_terminal and state.floor.terminals:
            return {floor.index[s] for s in state.floor.terminals}
        return {s for a in floor.areas if a.kind == "safe" for s in a.spaces}

    def _bot_distances(self, table: Table, bot: Bot) -> dict[int, int]:
        key = ("distances", bot.id)
        if key not in self._memo:
            targets = frozenset(self._targets(table, bot))
            keys = bot.keys > 0
            units = frozenset(s for s, o in table.occupant.items() if not isinstance(o, Bot))
            full = (table.floor.source, targets, keys, units, frozenset(self._watched(table)), table.unlocked,
                    table.destroyed, frozenset(self._jammed(table)))
            costs = self._costs.get(full)
            if costs is None:
                if len(self._costs) > 512:
                    self._costs.clear()
                costs = self._costs[full] = self._distances(table, set(targets), keys)
            self._memo[key] = costs
        return self._memo[key]  # type: ignore[return-value]

    def _distances(self, table: Table, targets: set[int], keys: bool) -> dict[int, int]:
        """Cost to the nearest target for a bot: a step costs 1, or 4 into a space a guard sees now, and 5
        more through a locked door (it can be opened, at the price of an action); walls, security units and locked doors whose keypad is known to be
        jammed (without a key) do not."""
        floor = table.floor
        jammed = set() if keys else self._jammed(table)
        watched = self._watched(table)
        doors = floor.door_edges
        dist = {t: 0 for t in targets}
        heap = [(0, t) for t in targets]
        heapq.heapify(heap)
        while heap:
            d, u = heapq.heappop(heap)
            if d > dist[u]:
                continue
            for _, v in floor.security_neighbours(u, table.destroyed):
                if v in table.occupant and not isinstance(table.occupant[v], Bot):
                    continue
                if jammed and floor.edge_name[(u, v)] in jammed:
                    continue
                nd = d + (WATCHED_COST if u in watched else 1)
                door = doors.get((u, v))
                if door is not None and door not in table.unlocked:
                    nd += DOOR_COST
                if nd < dist.get(v, UNREACHED):
                    dist[v] = nd
                    heapq.heappush(heap, (nd, v))
        return dist

    def _jammed(self, table: Table) -> set[str]:
        """Locked doors this team cannot open now without a key: the card by the door is jammed or too
        strong for the active agent's dice, and its chip inputs cannot be paid from the reserves."""
        if "jammed" in self._memo:
            return self._memo["jammed"]  # type: ignore[return-value]
        state = table.state
        agent = active_agent(state)
        dice = DicePool(basic=agent.power, advanced=agent.advanced_dice, elite=agent.elite_dice)
        reserves = list(state.burncycle.team_reserve) + list(state.burncycle.personal_reserves.get(agent.id, []))
        shut = set()
        for door, card in state.keypads.items():
            if door in table.unlocked:
                continue
            col = column(table, card)
            forced = not col.jam and _expected(dice) >= col.durability
            needed = [i for i in col.inputs if i in ("physical", "tech", "utility")]
            payable = all(needed.count(k) <= reserves.count(k) for k in set(needed))
            if not forced and not payable:
                shut.add(door)
        self._memo["jammed"] = shut
        return shut

    def _watched(self, table: Table) -> set[int]:
        if "watched" in self._memo:
            return self._memo["watched"]  # type: ignore[return-value]
        seen: set[int] = set()
        for unit in table.state.security:
            if not unit.stunned:
                seen |= sight(table.floor, table.floor.index[unit.space], unit.facing, unit.awareness,
                              table.state.rules.peripheral)
        self._memo["watched"] = seen
        return seen

    # -- the action step ----------------------------------------------------------------------------
    def _action(self, table: Table, legal: list) -> Action:
        kinds = {type(la.action) for la in legal}
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
                # "Level 1: 4 AP / Level 2: 6 AP / Level 3: 8 AP"
                durability = 2 + 2 * table.state.floor.level
                need = self._dice_for(table, durability)
                if _expected(need) >= durability:
                    return Keypad(bot=bot.id, beyond=beyond, approach="brute_force", dice=need)
            door = edge_id(bot.space, beyond)  # type: ignore[arg-type]
            card = table.state.keypads.get(door)
            # inputs only when every printed one can be paid without chips (alarm, ping, shock), or the card
            # is still unknown
            if "inputs" in approaches and (card is None or not set(column(table, card).inputs)
                                           & {"physical", "tech", "utility"}):
                return Keypad(bot=bot.id, beyond=beyond, approach="inputs")
        optimized = current_chip_kind(table) == "physical"
        pool = table.state.turn.pool  # type: ignore[union-attr]
        # rolled AP cannot be saved: a move rolls the whole pool (later chips can still open doors with
        # keys or inputs, access terminals, or move on an optimized +2)
        everything = DicePool(basic=pool.basic, advanced=pool.advanced, elite=pool.elite)
        if Move in kinds and self._can_progress(table) and (optimized or _expected(everything) > 0):
            return Move(dice=everything)
        return Pass()

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
        """Strike a unit next to a detected bot when the dice can at least stun it (durability - 5)."""
        bonus = 2 if table.state.burncycle.slots[table.state.burncycle.tracker] is not None and \
            table.state.burncycle.slots[table.state.burncycle.tracker].kind == "physical" else 0  # type: ignore[union-attr]
        for la in legal:
            action = la.action
            if not isinstance(action, Strike):
                continue
            bot = table.state.bot(action.bot)
            unit = table.state.unit(action.unit)
            if not bot.detected or unit.stunned:
                continue
            need = max(0, unit.durability - 5 - bonus)
            dice = self._dice_for(table, need, bonus)
            if bonus + _expected(dice) >= need + 1:
                return Strike(bot=bot.id, unit=unit.id, dice=dice)
        return None

    def _repair(self, table: Table, legal: list) -> Action | None:
        """Give the command module power when it runs low, keeping 2 for the agent."""
        module = next((b for b in table.state.bots if b.kind == "module"), None)
        if module is None or module.power > 2:
            return None
        for la in legal:
            if isinstance(la.action, Repair) and la.action.target == module.id:
                actor = table.state.bot(la.action.bot)
                amount = min(actor.power - 2, 10 - module.power)
                if amount >= 1:
                    return Repair(bot=actor.id, target=module.id, amount=amount)
        return None

    def _wants(self, table: Table, bot: Bot) -> bool:
        return table.floor.index[bot.space] in self._targets(table, bot)  # type: ignore[index]

    def _next_space(self, table: Table, bot: Bot) -> tuple[int, str] | None:
        """The best neighbouring space toward the bot's target, with the kind of edge crossed."""
        here = table.floor.index[bot.space]  # type: ignore[index]
        targets = self._targets(table, bot)
        if here in targets:
            return None
        dist = self._bot_distances(table, bot)
        mine = dist.get(here, UNREACHED)
        watched = self._watched(table)
        options = []
        blocked = self._jammed(table) if bot.keys == 0 else set()
        for _, j in table.floor.security_neighbours(here, table.destroyed):
            if j in table.occupant or dist.get(j, UNREACHED) >= mine:
                continue
            if edge_id(bot.space, table.floor.ids[j]) in blocked:  # type: ignore[arg-type]
                continue
            kind = table.floor.edge_between(here, j) or "open"
            cost = dist[j] + (WATCHED_COST if j in watched else 1)
            if kind == "door" and table.floor.edge_name[(here, j)] not in table.unlocked:
                cost += DOOR_COST
            options.append((cost, j in watched, j, kind))
        if not options:
            return None
        _, _, j, kind = min(options)
        return j, kind

    def _door_in_the_way(self, table: Table) -> tuple[Bot, str] | None:
        for bot in movers(table):
            nxt = self._next_space(table, bot)
            if nxt is not None and nxt[1] == "door":
                door = edge_id(bot.space, table.floor.ids[nxt[0]])  # type: ignore[arg-type]
                if door not in table.unlocked:
                    return bot, table.floor.ids[nxt[0]]
        return None

    def _can_progress(self, table: Table) -> bool:
        for bot in movers(table):
            nxt = self._next_space(table, bot)
            if nxt is not None and (nxt[1] != "door" or edge_id(bot.space, table.floor.ids[nxt[0]])  # type: ignore[arg-type]
                                    in table.unlocked or bot.keys > 0):
                return True
        return False

    def _step(self, table: Table, legal: list) -> Action:
        """Spend one AP: first on a bot a guard can see, else on the bot farthest from its target."""
        steps = {(la.action.bot, la.action.to): la.action for la in legal if isinstance(la.action, Step)}
        watched = self._watched(table)
        ranked = []
        for bot in movers(table):
            here = table.floor.index[bot.space]  # type: ignore[index]
            nxt = self._next_space(table, bot)
            action = steps.get((bot.id, table.floor.ids[nxt[0]])) if nxt is not None else None
            if action is not None:
                remaining = self._bot_distances(table, bot).get(here, UNREACHED)
                ranked.append((here not in watched, -remaining, bot.kind != "agent", action))
        if not ranked:
            return EndMove()
        return min(ranked, key=lambda r: r[:3])[3]


def _expected(dice: DicePool) -> float:
    """Average AP of a roll."""
    return sum(AVERAGE_AP[grade] * getattr(dice, grade) for grade in AVERAGE_AP)


def play_game(state: GameState, player: AutoPlayer | None = None, max_actions: int = 20_000) -> GameState:
    """Play a game to its end with the game's own seeded dice; returns the final state."""
    player = player or AutoPlayer()
    for _ in range(max_actions):
        if state.outcome is not None:
            return state
        state, _ = apply_action(state, player.choose(state))
    return state

