"""Where each bot of the auto-player goes and how it walks there.

Its targets (a terminal for an open terminal task, the mission's errands, the team's safe zone, an entrance to
escape), the next space on the cheapest way there (team-mates and guards walked around, no step back over its
own trail within a move action, a wall broken when shut in), a step out of a guard's reach, and who is home.
The path costs behind it are the player's sense of the floor (`PathCosts`); where a mission sends a bot
elsewhere, or holds it, its `MissionStrategy` says so.
"""

from __future__ import annotations

from collections.abc import Set
from typing import cast

from controller.autoplay.abilities import passes_doors
from controller.autoplay.missions import strategy_for
from controller.autoplay.missions.strategy import doors_out
from controller.autoplay.paths import PathCosts, door_passage, opens_doors
from controller.autoplay.tuning import (
    CUT_OFF_REACH,
    DASH_SLACK,
    DOOR_COST,
    GUARD_BESIDE,
    OPENER_HOLD,
    SPARE_TRIP,
    WALL_COST,
    WATCHED_COST,
)
from controller.rules import (
    MAX_DESTROYED_WALLS,
    UNREACHABLE,
    Bot,
    DicePool,
    GameState,
    Objective,
    Resolution,
    SecurityUnit,
    can_escape,
    chip_usable,
    edge_id,
    floor_objectives,
    movers,
    objective_applies,
    objective_done,
)


class Routes:
    """Each bot's target and next space, worked out once a decision (`Notes.memo`)."""

    def __init__(self, paths: PathCosts) -> None:
        self.paths = paths
        self.notes = paths.notes

    def targets(self, table: Resolution, bot: Bot) -> Set[int]:
        key = ("targets", bot.id)
        if key not in self.notes.memo:
            self.notes.memo[key] = self._find_targets(table, bot)
        return cast("Set[int]", self.notes.memo[key])

    def _find_targets(self, table: Resolution, bot: Bot) -> Set[int]:
        """Where the bot heads now: a terminal for an open terminal task, a safe zone, an entrance to escape."""
        state, floor = table.state, table.floor
        if bot.kind == "module" and self.module_waits(table, bot):
            return frozenset({floor.index[bot.at]})
        if bot is self.zone_opener(table):
            return self.paths.team_safe_zone(table)
        open_tasks = self._open_tasks(table)
        terminal_tasks = [o for o in open_tasks if o.task.split(":")[0] in ("terminals", "module_terminals")]
        # the agents take the team's terminals; the module only its own ("Command Module: Access ...")
        strategy = strategy_for(state.mission.id)
        # an agent the mission's play leaves the terminals to a team-mate (`spare_agent`) goes on its errand
        wants_terminal = state.floor.terminals and any(self._takes_terminal(table, bot, o) for o in terminal_tasks) \
            and not (bot.kind == "agent" and strategy.spare_agent(self.paths, table, bot, terminal_tasks))
        if wants_terminal:
            terminals = {floor.index[s] for s in state.floor.terminals}
            if bot.kind == "agent" and all(o.qualifier != "each" for o in terminal_tasks):
                # a team task: a terminal another agent (not a spare one) is nearer to is theirs, this one takes
                # another
                claimed = set()
                for other in state.bots:
                    if other.kind == "agent" and other is not bot and other.on_board and not other.shut_down \
                            and not strategy.spare_agent(self.paths, table, other, terminal_tasks):
                        theirs = self.paths.nearest(table, other, terminals)
                        if self.paths.cost_to(table, other, theirs) < self.paths.cost_to(table, bot, theirs):
                            claimed.add(theirs)
                return terminals - claimed or terminals
            return terminals
        errand = strategy.task_targets(self.paths, table, bot, open_tasks)
        if errand:
            return errand
        if bot.kind == "module" and (open_tasks or not can_escape(table)):
            # while the agents work, the module (whose loss is the game's) waits where guards cannot see it
            return self.paths.module_safe_zone(table, bot, self._held(table, bot))
        if can_escape(table):
            return set(floor.posts.get("entrance", ()))
        team = self.paths.team_safe_zone(table)
        if passes_doors(bot):
            # a zone the team left for a jammed door is still Nano's when it is nearer
            here = floor.index[bot.at]
            near = [z for z in self.paths.shut_zones(table) if not z & team]
            if near:
                mine = min(near, key=lambda z: self.paths.cost_map(table, bot, z)[here])
                if self.paths.cost_map(table, bot, mine)[here] < self.paths.cost_map(table, bot, team)[here]:
                    return mine
        return team

    def _open_tasks(self, table: Resolution) -> list[Objective]:
        """The tasks of now: this floor's objectives on the way up the tower, then the last floor's calibrations."""
        state = table.state
        tasks = (floor_objectives(table) if state.later_floors
                 else [] if state.calibrated else state.mission.calibrations)
        return [o for o in tasks if objective_applies(state, o) and not objective_done(state, table, o, False)]

    def zone_opener(self, table: Resolution) -> Bot | None:
        """The agent that goes to open the team's safe zone before anything else, while the module waits where
        it is: on a floor the team climbs from, or of level 2 or more before the calibration, while every door
        of the zone is locked (`_zone_shut`), the agent nearest the zone of those that open keypads (not Nano,
        who passes locked doors and leaves them so). None when no agent can, or the rule does not apply."""
        if "opener" not in self.notes.memo:
            shut = self._zone_shut(table)
            agents = [b for b in table.state.bots if b.kind == "agent" and b.on_board and not b.shut_down
                      and door_passage(b) != "reassemble"]
            opener = None
            if shut is not None and shut[1] and agents:
                zone, steps, floor = self.paths.team_safe_zone(table), table.distances(), table.floor
                opener = min(agents, key=lambda b: (min(steps[floor.index[b.at]][z] for z in zone), b.id))
            self.notes.memo["opener"] = opener
        return cast("Bot | None", self.notes.memo["opener"])

    def module_waits(self, table: Resolution, module: Bot) -> bool:
        """Whether the module stays where it is for now: while an agent goes to open the team's shut zone
        (`zone_opener`), and once a door is open, on the last floor, while it stands on an entrance and the move
        action under way leaves it more than DASH_SLACK AP short of the zone, so that it crosses the guarded
        hallway in one go rather than stopping half-way in a level 2 guard's sight. And on a level 2 floor,
        before the calibration and after it, while a guard stands in the doorway of the zone (`doorway_held`),
        or, the module on its entrance, on its way in by that doorway (`way_held`) or where the move under way
        would leave it beside a guard short of the zone (`stops_by_guard`); after the calibration, on its entrance,
        while the zone is still shut and an agent works on its door (`zone_still_shut`)."""
        if self.doorway_held(table) or self.way_held(table, module) or self.stops_by_guard(table, module) \
                or self.zone_still_shut(table, module):
            return True
        shut = self._zone_shut(table)
        if shut is None:
            return False
        if shut[1]:
            return self.zone_opener(table) is not None
        if table.state.later_floors:
            return False  # a floor climbed from: its hallway from the entrances is too long to cross in one move
        floor = table.floor
        here = floor.index[module.at]
        if here not in floor.posts.get("entrance", ()):
            return False
        pending = table.state.turn.pending
        steps = min(table.distances()[here][z] for z in self.paths.team_safe_zone(table))
        return pending is None or pending.ap + DASH_SLACK < steps

    def zone_door(self, table: Resolution, bot: Bot) -> tuple[int, str] | None:
        """The steps from the bot to the nearest space outside a locked door of the team's safe zone, and that
        door; None when every door of the zone is open."""
        floor = table.floor
        zone = self.paths.team_safe_zone(table)
        if not zone:
            return None
        area = floor.area_of[next(iter(zone))]
        row = table.distances()[floor.index[bot.at]]
        return min(((row[v], door) for (u, v), door in floor.door_edges.items()
                    if floor.area_of[u] == area and floor.area_of[v] != area and door not in table.unlocked),
                   default=None)

    def opener_holds(self, table: Resolution, bot: Bot, step: int) -> bool:
        """Whether the zone's opener (`zone_opener`), its pool spent in the move under way, stops out of sight
        rather than take this step into a guard's sight within OPENER_HOLD steps of the zone's locked door:
        arriving with no dice left it can draw the door's card with inputs only, and the guard by the doorway
        strikes it before its next turn, after which its dice no longer force the door; from out of sight it
        comes with a whole pool next turn. On the last floor only (the labs): on the tower run's lobby, whose
        keypads ask 4 AP, it lost games (the tower run 143 -> 136 of 1000)."""
        if bot is not self.zone_opener(table) or table.state.turn.pool != DicePool() or table.state.later_floors:
            return False
        watched = self.paths.watched(table)
        door = self.zone_door(table, bot)
        return step in watched and table.floor.index[bot.at] not in watched and door is not None \
            and door[0] <= OPENER_HOLD

    def module_dashes(self, table: Resolution) -> bool:
        """Whether the module, out of the team's zone where the waiting rules apply (`_zone_shut`), has a door
        of the zone open: it gets a move's AP before the agents, as a calibration walker does."""
        shut = self._zone_shut(table)
        return shut is not None and not shut[1]

    def doorway_held(self, table: Resolution) -> bool:
        """Whether a guard stands in the doorway of the team's safe zone for the module out of it on the last
        floor, of level 2 or more (`_module_out`): on the space outside each open door of the zone. The module
        then waits where it is, before the calibration and after it, instead of walking up to the guard (who
        hits for 2) or around it through the zone's other doors, still locked, in the guards' sight; the guard
        walks on. Not for a module shut in (`_shut_in`) where the mission's play `breaks_out`: Rescue Rangers
        draws it onto a terminal in a room, and behind a jammed card on the room's door (the labs' K07 on O7/O8)
        the guards that investigate its awareness chip cannot reach it and never walk on; it breaks the wall
        instead (docs/autoplay.md, "The module shut in behind a jammed door")."""
        if "doorway held" not in self.notes.memo:
            held = False
            module = self._module_out(table)
            if module is not None and not table.state.later_floors:
                outside = self._zone_doorways(table)
                held = bool(outside) and all(isinstance(table.occupant.get(v), SecurityUnit) for v in outside) \
                    and not (strategy_for(table.state.mission.id).breaks_out and self._shut_in(table, module))
            self.notes.memo["doorway held"] = held
        return cast("bool", self.notes.memo["doorway held"])

    def _shut_in(self, table: Resolution, module: Bot) -> bool:
        """Whether the module has no way to the team's safe zone but through a wall: a jammed door (a card its
        dice cannot force and whose chip inputs the team cannot pay) shuts it in a room."""
        zone = frozenset(self.paths.team_safe_zone(table))
        return self.paths.cost_map(table, module, zone)[table.floor.index[module.at]] >= UNREACHABLE

    def way_held(self, table: Resolution, module: Bot) -> bool:
        """Whether the module, on its entrance of the last floor, of level 2 or more (`_module_out`), sees a guard
        stand on its shortest way into the team's safe zone in the doorway outside an open door of the zone or a
        step from it (the labs: F6 or G6, outside E6/F6). It waits on its entrance, before the calibration and
        after it, instead of setting off: guard 1, drawn there by the agents' detections at the door, struck it
        on G5 as it came up, then on G4 and G3 as it turned back. A guard farther out (at its post H6) does not
        hold it: waiting on the entrance, it is struck there by the guards that come by."""
        here = self._on_entrance(table, module)
        doorways = self._zone_doorways(table) if here is not None else []
        if here is None or not doorways:
            return False
        zone = self.paths.team_safe_zone(table)
        steps = table.distances()
        total = min(steps[here][z] for z in zone)
        return any(isinstance(unit, SecurityUnit) and min(steps[v][d] for d in doorways) <= 1
                   and steps[here][v] + min(steps[v][z] for z in zone) == total
                   for v, unit in table.occupant.items())

    def stops_by_guard(self, table: Resolution, module: Bot) -> bool:
        """Whether the module, on its entrance of the last floor, of level 2 or more (`_module_out`), with a door
        of the team's zone open, would end the move under way short of the zone beside a guard: every space of
        its shortest way in that the move's AP reach lies within GUARD_BESIDE steps of a security unit. It then
        waits on its entrance, before the calibration and after it, for a move that does not leave it there: on
        the labs guard 1, drawn to G5 by the agents' detections, struck it on G4 (3 steps from I3, 4 short of
        the zone) in the next corporation turn and again in the one after (docs/autoplay.md, "The module's
        stop beside a guard")."""
        pending = table.state.turn.pending
        here = self._on_entrance(table, module) if pending is not None else None
        if pending is None or here is None or not self._zone_doorways(table):
            return False
        floor = table.floor
        zone = self.paths.team_safe_zone(table)
        steps = table.distances()
        total = min(steps[here][z] for z in zone)
        if pending.ap >= total:
            return False
        guards = [floor.index[u.space] for u in table.state.security if not u.stunned]
        stops = [v for v in range(len(floor.ids)) if steps[here][v] == pending.ap
                 and pending.ap + min(steps[v][z] for z in zone) == total]
        return bool(stops) and bool(guards) and all(min(steps[g][v] for g in guards) <= GUARD_BESIDE
                                                    for v in stops)

    def zone_still_shut(self, table: Resolution, module: Bot) -> bool:
        """Whether the module, on its entrance of the last floor, of level 2 or more (`_module_out`), after the
        calibration, finds every door of the team's safe zone still locked while an agent that opens keypads
        stands within OPENER_HOLD steps of one of them (Casing at E6/F6, aborting for the keypad die's unlock):
        it waits there for the door. Walking on the moves' spare AP it came up beside guard 1 by the locked
        door (G5, the guard on G6) and was struck there before the door opened (docs/autoplay.md, "The module
        on its entrance while the zone is still shut"). With no such agent at a door it walks on as before:
        waiting for a door nobody works on only trades its shut-down for the threat's."""
        if not table.state.calibrated or self._on_entrance(table, module) is None or self._zone_doorways(table):
            return False
        doors = (self.zone_door(table, b) for b in table.state.bots
                 if b.kind == "agent" and b.on_board and not b.shut_down and door_passage(b) != "reassemble")
        return any(door is not None and door[0] <= OPENER_HOLD for door in doors)

    def _on_entrance(self, table: Resolution, module: Bot) -> int | None:
        """The module's space when it stands on an entrance of the last floor, of level 2 or more, where the
        waiting rules apply (`_module_out`), else None: the module's waits that start from its entrance."""
        if self._module_out(table) is not module or table.state.later_floors:
            return None
        here = table.floor.index[module.at]
        return here if here in table.floor.posts.get("entrance", ()) else None

    def _zone_doorways(self, table: Resolution) -> list[int]:
        """The spaces just outside the team's safe zone's open doors (its doorways), where a guard holds the
        module's way in."""
        area = table.floor.area_of[next(iter(self.paths.team_safe_zone(table)))]
        return [v for v, door in doors_out(table.floor, area) if door in table.unlocked]

    def _zone_shut(self, table: Resolution) -> tuple[Bot, bool] | None:
        """The module and whether every door of the team's safe zone is still locked, where the waiting rules
        apply (`_module_out`): on a floor the team climbs from, or on the last floor before its calibration.
        None where they do not apply."""
        module = self._module_out(table)
        if module is None or (table.state.calibrated and not table.state.later_floors):
            return None
        return module, not self._zone_doorways(table)

    def _module_out(self, table: Resolution) -> Bot | None:
        """The module, where the waiting rules apply: a floor the team climbs from (the tower run's lobby, whose
        zone it gathers in to change floors: its one door P4/Q4 is where the module, waiting beside it in the
        hallway, was struck), or a floor of level 2 or more (keypads of 6 AP, guards that hit for 2; the labs),
        the last floor of a mission won by occupying safe zones; two players or more, the module on the floor,
        out of the team's zone and with no errand of its mission's. None where they do not apply."""
        if "module out" in self.notes.memo:
            return cast("Bot | None", self.notes.memo["module out"])
        state, floor = table.state, table.floor
        found: Bot | None = None
        module = next((b for b in state.bots if b.kind == "module" and b.on_board and not b.shut_down), None)
        gathers = bool(state.later_floors) or (
            floor.level >= 2 and any(o.task == "safe_zones" for o in state.mission.win))
        if gathers and state.players >= 2 and module is not None:
            zone = self.paths.team_safe_zone(table)
            errand = strategy_for(state.mission.id).task_targets(self.paths, table, module, self._open_tasks(table))
            if zone and not errand and not self.home(table, module):
                found = module
        self.notes.memo["module out"] = found
        return found

    def _held(self, table: Resolution, bot: Bot) -> bool:
        """Whether a guard holds the bot's only way into the team's safe zone: a unit stands on each of its
        shortest steps, it cannot push, and there is no way around the units."""
        zone = self.paths.team_safe_zone(table)
        here = table.floor.index[bot.at]
        if here in zone or "push" in bot.upgrades or not zone:
            return False
        dist = self.paths.cost_map(table, bot, zone)
        ahead = [j for _, j in table.floor.security_neighbours(here, table.destroyed) if dist[j] < dist[here]]
        if not ahead or not all(isinstance(table.occupant.get(j), SecurityUnit) for j in ahead):
            return False
        units = frozenset(s for s, o in table.occupant.items() if isinstance(o, SecurityUnit))
        return self.paths.cost_map(table, bot, zone - units, avoid=units)[here] >= UNREACHABLE

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
        if "nearest to terminals" not in self.notes.memo:
            self.notes.memo["nearest to terminals"] = sorted(
                (b for b in table.state.bots if b.kind == "agent" and b.on_board and not b.shut_down),
                key=lambda b: (min(self.paths.cost_to(table, b, t) for t in terminals), b.id))
        agents = cast("list[Bot]", self.notes.memo["nearest to terminals"])
        zone = self.paths.team_safe_zone(table)
        if bot in agents[:max(need - got, 0)] or not zone:
            return False
        steps = table.distances()
        here = table.floor.index[bot.at]
        return min(steps[here][t] + min(steps[t][z] for z in zone) for t in terminals) > SPARE_TRIP

    def bot_distances(self, table: Resolution, bot: Bot) -> list[int]:
        key = ("distances", bot.id)
        if key not in self.notes.memo:
            self.notes.memo[key] = self.paths.cost_map(table, bot, frozenset(self.targets(table, bot)))
        return cast("list[int]", self.notes.memo[key])

    def next_space(self, table: Resolution, bot: Bot) -> tuple[int, str] | None:
        """The best neighbouring space toward the bot's target, with the kind of edge crossed; for a bot
        at its target that a guard is about to attack, the safest space next to it."""
        key = ("next", bot.id)
        if key not in self.notes.memo:
            self.notes.memo[key] = self._find_next_space(table, bot)
        return cast("tuple[int, str] | None", self.notes.memo[key])

    def _find_next_space(self, table: Resolution, bot: Bot) -> tuple[int, str] | None:
        here = table.floor.index[bot.at]
        targets = self.targets(table, bot)
        if here in targets:
            if bot.space in table.state.floor.terminals and _later_slot(table.state):
                return None  # a later chip of this turn accesses the terminal: stepping off would waste it
            if bot.kind == "module" and table.floor.feature[here] == "module":
                return None  # "At the end of three different agent turns, occupy a command module space"
            if strategy_for(table.state.mission.id).holds_target(self.paths, table):
                return None  # the mission's play holds the bot there (a push, a strike or a landing to come)
            return self._retreat(table, bot, here)
        dist = self.bot_distances(table, bot)
        mine = dist[here]
        ahead = [j for _, j in table.floor.security_neighbours(here, table.destroyed)
                 if dist[j] < mine]
        if ahead and all(isinstance(table.occupant.get(j), Bot) for j in ahead):
            # team-mates stand in every shortest way: walk around them
            others = frozenset(s for s, o in table.occupant.items() if isinstance(o, Bot) and o is not bot)
            dist = self.paths.cost_map(table, bot, frozenset(targets) - others, avoid=others)
            mine = dist[here]
        elif ahead and "push" not in bot.upgrades and all(j in table.occupant for j in ahead):
            # a guard stands in every shortest way and this bot cannot push it aside: it takes the way around
            # when there is one rather than wait beside the guard for it to move
            others = frozenset(s for s, o in table.occupant.items() if o is not bot)
            around = self.paths.cost_map(table, bot, frozenset(targets) - others, avoid=others)
            if around[here] < UNREACHABLE:
                dist, mine = around, around[here]
        walls = mine >= UNREACHABLE and len(table.destroyed) < MAX_DESTROYED_WALLS
        if walls:  # shut in (an autolock, a jammed keypad): the way out is through a wall
            dist = self.paths.cost_map(table, bot, frozenset(targets), walls=True)
            mine = dist[here]
        watched = self.paths.watched(table)
        options = []
        # a jammed door is shut to a bot without a key wherever it would open the door (`opens_doors`): Nano too
        # into a unit's space, where he stood by the lobby's Server room door G4/G5 for ever, a guard beyond it
        # that waited for the door in turn (seed 4184 of the tower run)
        jammed = self.paths.jammed(table) if door_passage(bot) != "key" else set()
        trail = self.notes.trails.get(bot.id, set()) if self.notes.move == move_key(table.state) else set()
        trail_spaces = {table.floor.index[space] for space in trail}
        ways = table.floor.security_neighbours(here, table.destroyed)
        if walls:
            ways = ways + [(d, j) for d, (j, kind) in table.floor.neighbour[here].items() if kind == "wall"]
        shoved = self.shove(table)
        for _, j in ways:
            unit = isinstance(table.occupant.get(j), SecurityUnit)
            if unit and shoved is not None and table.occupant[j] is shoved[0]:
                continue  # the unit being shoved toward a terminal is walked around, not pushed aside
            if (j in table.occupant and not (unit and "push" in bot.upgrades)) or dist[j] >= mine \
                    or j in trail_spaces:
                if unit and dist[j] < mine:
                    self.notes.blocked_by_unit.add(bot.id)
                continue
            if edge_id(bot.at, table.floor.ids[j]) in jammed and opens_doors(table, bot, j):
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

    def boxed_in(self, table: Resolution, bot: Bot) -> bool:
        """Whether a security unit stands on each of the bot's shortest steps toward its target (it has no push):
        it can only wait beside the guard, which attacks it round after round, or take the long way round."""
        if "push" in bot.upgrades or bot.space is None or self.wants(table, bot):
            return False
        here = table.floor.index[bot.at]
        dist = self.bot_distances(table, bot)
        ahead = [j for _, j in table.floor.security_neighbours(here, table.destroyed) if dist[j] < dist[here]]
        return bool(ahead) and all(isinstance(table.occupant.get(j), SecurityUnit) for j in ahead)

    def cut_off(self, table: Resolution, bot: Bot) -> bool:
        """Whether security units within CUT_OFF_REACH steps of the bot (it has no push) stand on every way to
        its target: the lobby's West zone has one door, and a guard in its doorway (E15, or D15 inside) kept
        Nano walking round it, two steps from home on 8 dice, while the threat ran out (seed 3114)."""
        if "push" in bot.upgrades or bot.space is None or not table.state.calibrated or self.wants(table, bot):
            return False
        if any(b is not bot and b.on_board and not self.home(table, b) for b in table.state.bots):
            return False  # only the last one out
        here = table.floor.index[bot.at]
        if self.bot_distances(table, bot)[here] >= UNREACHABLE:
            return False
        steps = table.distances()
        near = frozenset(s for s, o in table.occupant.items()
                         if isinstance(o, SecurityUnit) and steps[here][s] <= CUT_OFF_REACH)
        targets = frozenset(self.targets(table, bot)) - near
        return bool(near) and self.paths.cost_map(table, bot, targets, avoid=near)[here] >= UNREACHABLE

    def _retreat(self, table: Resolution, bot: Bot, here: int) -> tuple[int, str] | None:
        """A step out of a guard's reach: the bot is detected or a guard stands next to it, and a free space
        nearby is out of sight and no closer to any guard (within the target area when it can)."""
        guards = [table.floor.index[u.space] for u in table.state.security if not u.stunned]
        if not guards:
            return None
        distances = table.distances()
        def danger(i: int) -> tuple[bool, int]:
            return i in self.paths.watched(table), -min(distances[g][i] for g in guards)
        if not bot.detected and danger(here)[1] < -1:
            return None
        targets = self.targets(table, bot)
        options = [(j not in targets, danger(j), j) for _, j in
                   table.floor.bot_neighbours(here, table.unlocked, table.destroyed) if j not in table.occupant]
        if not options:
            return None
        _, risk, j = min(options)
        return (j, table.floor.edge_between(here, j) or "open") if risk < danger(here) else None

    def can_progress(self, table: Resolution) -> bool:
        """Whether a move action now takes a bot a step toward its target: not through a locked door the bot opens
        first, nor, where the mission's play `breaks_out`, through a wall, which only a strike opens (a move
        rolled for a bot shut in spent the pool the strike needs, slot after slot: docs/autoplay.md, "The module
        shut in behind a jammed door")."""
        breaks_out = strategy_for(table.state.mission.id).breaks_out
        for bot in movers(table):
            nxt = self.next_space(table, bot)
            if nxt is not None and not (breaks_out and nxt[1] == "wall") and (
                    nxt[1] != "door" or edge_id(bot.at, table.floor.ids[nxt[0]]) in table.unlocked
                    or bot.keys > 0 or not opens_doors(table, bot, nxt[0])):
                return True
        return False

    def home(self, table: Resolution, bot: Bot) -> bool:
        """Whether the bot stands in the team's safe zone (its doorways included)."""
        return bot.space is not None and self.paths.in_team_zone(table, table.floor.index[bot.space])

    def staying_home(self, table: Resolution, bot: Bot) -> bool:
        """Whether the bot stands in the team's safe zone and stays there (it is its target)."""
        return self.home(table, bot) and self.targets(table, bot) == self.paths.team_safe_zone(table)

    def wants(self, table: Resolution, bot: Bot) -> bool:
        return table.floor.index[bot.at] in self.targets(table, bot)

    def shove(self, table: Resolution) -> tuple[SecurityUnit, int] | None:
        """The unit the mission's play pushes toward a space (Do-While-End's captain), and that space."""
        return strategy_for(table.state.mission.id).shove(self.paths, table)

    def crosses_first(self, table: Resolution, module: Bot, cost: int) -> bool:
        """In the first round, with two players or more, the module walks before the agents when no guard sees
        its way to the team's safe zone (its cost is its steps and one locked door at most): it crosses the
        hallways before the guards move and the agents' detections stir them, instead of later in their sight.
        With one player the lone agent's pool is better spent on its terminals. Where the mission's play says
        (`module_crossing`, Data Heist), so too in a later round while the module stands more than that many
        steps from the zone: the team gave its zone up for one across the floor (the lobby's East zone, for a
        West door's card that states "Jam"), and the module walking on spare AP came to its locked door rounds
        after the calibration, to wait outside it in the guards' way (docs/autoplay.md, "The module across the
        lobby first")."""
        if table.state.players < 2:
            return False
        here = table.floor.index[module.at]
        steps = min((table.distances()[here][t] for t in self.targets(table, module)), default=UNREACHABLE)
        crossing = strategy_for(table.state.mission.id).module_crossing
        if table.state.round > 1 and (crossing is None or steps <= crossing):
            return False
        return cost - steps <= DOOR_COST



def move_key(state: GameState) -> tuple[int, int, int] | None:
    """Which move action is under way (None between move actions): trails belong to one."""
    turn = state.turn
    if turn.pending is None:
        return None
    return state.round, turn.active, state.burncycle.tracker


def _later_slot(state: GameState) -> bool:
    """Whether a usable chip is left after the one under the tracker in this turn."""
    return any(chip_usable(state, k) for k in range(state.burncycle.tracker + 1, len(state.burncycle.slots)))
