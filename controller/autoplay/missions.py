"""Where the Adaptable missions send the auto-player's bots, and Preconnaissance's hops.

Each open task names the spaces that complete it (command module spaces, the captain's terminal, rooms still
holding a surveillance bead, the spaces beside a unit the win asks for) and the bot walks there as to a
terminal; Do-While-End's endgame shoves the captain onto a terminal space and strikes it; Preconnaissance's
bots hop between terminal spaces into rooms to surveil.
"""

from __future__ import annotations

from controller.rules import (TERMINAL_SPACES, Action, Bot, GameState, Hop, Objective, SecurityUnit, SeededDice,
                              Table, apply_effect, hop_paths, module_bagged, movers, objective_applies,
                              objective_done, unit_durability)
from controller.autoplay.tuning import HIDING_REACH, MODULE_REACH, PUSH_ON_THE_WAY
from controller.autoplay.memory import CorePlan
from controller.autoplay.network_step import core_in_reach
from controller.autoplay.paths import PathCosts, passes_doors



class MissionErrands(PathCosts):
    """The Adaptable missions' targets for the auto-player (on top of its sense of the floor)."""

    _core_plan: CorePlan | None  # the auto-player's memory of this turn's network step (`AutoplayMemory`)

    def _task_targets(self, table: Table, bot: Bot, open_tasks: list[Objective]) -> set[int]:
        """Where the Adaptable missions' other tasks send the bot (empty: none of them needs it): each task
        names the spaces that complete it, the bot walks there like to a terminal."""
        state, floor = table.state, table.floor
        mine = {o.task.split(":")[0] for o in open_tasks if (o.qualifier == "module") == (bot.kind == "module")}
        if "module_spaces" in mine:
            # "occupy a command module space; the same space cannot be used twice"
            return {s for s in floor.posts.get("module", ()) if floor.ids[s] not in state.objective_beads}
        if "module_on_captain_terminal_when_core" in mine and state.captain_start is not None:
            terminals = self._captain_terminals(table)
            hiding = self._hiding_near(table, bot, terminals)
            if not hiding or self._core_in_reach(table) or floor.index[bot.space] in terminals:  # type: ignore[index]
                return terminals
            # "when any IP lands on the core": until the IP can land in this turn's network step, the module
            # waits hidden near the terminal ("When entered by an undetected bot (or outside enemy awareness),
            # the bot hides and cannot be detected via awareness") instead of standing in the captain's room
            return hiding
        if "no_unsurveilled_rooms" in mine:
            if passes_doors(bot) and not _hop_chip_at_hand(state, bot):
                # Nano walks into the rooms through their locked doors (no door opened, no threat) rather than
                # wait on a terminal space for a chip to hop on (measured, Preconnaissance alone on the annex,
                # seeds 100-159: calibrations 5% -> 12%)
                return self._bead_rooms(table, terminal=False)
            if bot.kind == "agent" and not passes_doors(bot) and any(
                    passes_doors(b) for b in state.bots if b.on_board and not b.shut_down):
                # the rooms are Nano's: each door another agent opens costs 3 threat, so it waits in the safe
                # zone, moving the module, and is home when the calibration comes (measured, two players on the
                # annex: wins 0 -> 3 of 60 with Byte, seeds 100-159, and 1 -> 5 with Casing, seeds 200-259,
                # though calibrations fell from about 40% to 17%)
                return set()
            return self._bead_rooms(table, terminal=False) | self._hop_launches(table, bot)
        if self._pushes_through_door(table, bot):
            # "Each agent: Use the push ability to push a security unit through a door": the agent walks into
            # a unit that stands beside a door with a free space beyond it, once the module has its terminals
            # (the agent's walks share the move AP the module's walk needs: measured, 240 games on the three
            # floors, one and two players, seeds 100-139, pushing from the start cut the module's terminal
            # accesses 167 -> 121, pushing after them 167 -> 166, agents who pushed 2 -> 6 of 360)
            if not self._module_errand(table):
                return self._door_pushes(table)
            # before that, a unit right beside the agent is pushed on the way: a step or two of AP, not the
            # walk there (measured, 1200 games on the three floors, one and two players: calibrations 8 -> 16
            # on seeds 100-299 and 10 -> 18 on seeds 300-499; within 2 steps 15 and 14, within 4 steps 11)
            beside = self._door_pushes(table, near=bot, within=PUSH_ON_THE_WAY)
            if beside:
                return beside
        if not state.calibrated or state.later_floors:
            return set()
        if module_bagged(state) and bot.kind == "agent":
            # Rescue Rangers: "Before surveilling a room with at least one terminal space, draw a unit from the
            # bag": the module comes out only where a terminal room is surveilled
            return self._bead_rooms(table, terminal=True)
        wins = {o.task for o in state.mission.win if objective_applies(state, o) and not objective_done(state, table, o, False)}
        if "core_while_on_terminals" in wins:
            # "Land on the network core with their IP while all bots occupy terminal spaces"
            return {s for s in self._terminal_spaces(table) if table.occupant.get(s) in (None, bot)}
        prey = [u for u in state.security if any(is_prey(table, u, w) for w in wins)]
        if prey and bot.kind == "agent" and self._module_in_reach(table, prey):
            # the module at the captain pushes and strikes with this agent's dice: the agent's power is the
            # strike's AP, kept out of the guards' reach
            return self._cover(table, bot)
        if prey and (bot.kind == "agent" or self._module_in_reach(table, prey)):
            shove = self._shove(table)
            if shove is not None:
                # "Security units have a durability of 5 when occupying terminal spaces": the agent gets
                # behind the unit to push it onto a terminal
                unit, onto = shove
                at = floor.index[unit.space]
                terminals = self._terminal_spaces(table)
                return {j for _, j in floor.bot_neighbours(at, table.unlocked, table.destroyed)
                        if j != onto and j not in terminals} or {at}
            weak = [u for u in prey if unit_durability(table, u) < u.durability] or prey
            return {j for u in weak for _, j in floor.bot_neighbours(floor.index[u.space], table.unlocked,
                                                                      table.destroyed)}
        if state.mission.rules.calibration_evicts_safe_zones:
            # "Bots cannot enter safe zones for the remainder of the mission": the module keeps out of the fight,
            # off the terminal spaces a unit is to be pushed onto
            here = floor.index[bot.space]  # type: ignore[index]
            if state.mission.rules.calibration_terminal_durability and here in self._terminal_spaces(table):
                terminals = self._terminal_spaces(table)
                return {j for _, j in floor.bot_neighbours(here, table.unlocked, table.destroyed)
                        if j not in terminals and j not in table.occupant} or {here}
            return {here}
        return set()

    @staticmethod
    def _pushes_through_door(table: Table, bot: Bot) -> bool:
        """Whether the bot still owes TSM-103C's "Each agent: Use the push ability to push a security unit
        through a door"."""
        state = table.state
        return not state.calibrated and bot.kind == "agent" and \
            any(o.task == "push_through_door" and objective_applies(state, o) for o in state.mission.calibrations) and \
            state.progress.get(f"push_through_door:{bot.id}", 0) < 1

    @staticmethod
    def _door_pushes(table: Table, near: Bot | None = None, within: int = 0) -> set[int]:
        """The spaces of the units a push can shove through a door: a free space lies beyond a door of theirs
        ("shove a security unit to an adjacent empty space"; guards pass doors, locked or not); with `near`,
        only those within `within` steps of that bot."""
        floor = table.floor
        here = floor.index[near.space] if near is not None else None  # type: ignore[index]
        spaces = set()
        for unit in table.state.security:
            at = floor.index[unit.space]
            if here is not None and table.distances()[here][at] > within:
                continue
            if any(floor.edge_between(at, j) == "door" and j not in table.occupant
                   for _, j in floor.security_neighbours(at, table.destroyed)):
                spaces.add(at)
        return spaces

    @staticmethod
    def _module_in_reach(table: Table, prey: list[SecurityUnit]) -> bool:
        """The module within a few steps of a unit the win asks for ("Either the agent or the command module
        may strike an adjacent target"): Do-While-End leaves it in the captain's room."""
        module = table.state.module_on_board()
        if module is None or not table.state.mission.rules.calibration_terminal_durability:
            return False
        here = table.floor.index[module.space]  # type: ignore[index]
        return any(table.distances()[here][table.floor.index[u.space]] <= MODULE_REACH for u in prey)

    def _cover(self, table: Table, bot: Bot) -> set[int]:
        """Free spaces no awake security unit sees or stands next to (the bot's own space when it is one)."""
        floor, watched = table.floor, self._watched(table)
        near = {j for u in table.state.security if not u.stunned
                for _, j in floor.security_neighbours(floor.index[u.space], table.destroyed)}
        here = floor.index[bot.space]  # type: ignore[index]
        spaces = {i for i in range(len(floor.ids)) if i not in watched and i not in near
                  and table.occupant.get(i) in (None, bot) and not floor.in_safe_zone(i)}
        return spaces or {here}

    @staticmethod
    def _prey_struck_here(table: Table) -> bool:
        """A unit the win asks for stands where its durability is low ("a durability of 5 when occupying
        terminal spaces")."""
        state = table.state
        if not (state.calibrated and state.mission.rules.calibration_terminal_durability):
            return False
        wins = [o.task for o in state.mission.win if objective_applies(state, o)]
        return any(unit_durability(table, u) < u.durability and any(is_prey(table, u, w) for w in wins)
                   for u in state.security)

    def _shove(self, table: Table) -> tuple[SecurityUnit, int] | None:
        """Do-While-End's endgame: the win's unit nearest to a terminal space (off one) and the space to push it
        to, one step along its shortest way there ("shove a security unit to an adjacent empty space")."""
        if "shove" in self._memo:
            return self._memo["shove"]  # type: ignore[return-value]
        state, floor = table.state, table.floor
        found = None
        # a unit already on a terminal is struck before another is shoved
        if state.calibrated and state.mission.rules.calibration_terminal_durability \
                and not self._prey_struck_here(table):
            wins = [o.task for o in state.mission.win if objective_applies(state, o)]
            terminals = self._terminal_spaces(table)
            free = {t for t in terminals if not isinstance(table.occupant.get(t), SecurityUnit)
                    and not (isinstance(table.occupant.get(t), Bot) and table.occupant[t].kind == "agent")}
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
        self._memo["shove"] = found
        return found

    def _core_in_reach(self, table: Table) -> bool:
        """Whether the active agent's IP can land on the core in this turn's network step (kept for the turn)."""
        state = table.state
        turn = state.turn.active  # type: ignore[union-attr]
        plan = self._core_plan
        if plan is None or (plan.round, plan.turn) != (state.round, turn):
            plan = self._core_plan = CorePlan(round=state.round, turn=turn, lands=core_in_reach(state))
        return plan.lands

    @staticmethod
    def _hiding_near(table: Table, bot: Bot, terminals: set[int]) -> set[int]:
        """The free hiding spots within a move of the terminals (the one the bot hides on, if it does)."""
        floor, distances = table.floor, table.distances()
        here = floor.index[bot.space]  # type: ignore[index]
        if bot.hidden:
            return {here}
        return {s for s in floor.posts.get("hiding", ()) if table.occupant.get(s) in (None, bot)
                and min(distances[s][t] for t in terminals) <= HIDING_REACH}

    def _module_errand(self, table: Table) -> bool:
        """Whether an open calibration is the command module's own to do."""
        if "module errand" not in self._memo:
            self._memo["module errand"] = any(not objective_done(table.state, table, o, False)
                                              for o in module_calibrations(table.state))
        return self._memo["module errand"]  # type: ignore[return-value]

    @staticmethod
    def _terminal_spaces(table: Table) -> set[int]:
        floor = table.floor
        return {s for kind in TERMINAL_SPACES for s in floor.posts.get(kind, ())}

    def _captain_terminals(self, table: Table) -> set[int]:
        """Do-While-End: "Occupy the terminal space in the room the captain started in", whichever the
        room holds."""
        floor = table.floor
        room = floor.area(floor.index[table.state.captain_start])  # type: ignore[index]
        return self._terminal_spaces(table) & set(room.spaces)

    def _bead_rooms(self, table: Table, terminal: bool) -> set[int]:
        """The spaces of the rooms that still hold a surveillance bead ("Entering a room with a surveillance
        bead requires immediate surveillance"), only those with a free terminal space when `terminal`."""
        floor, beads = table.floor, set(table.state.floor.surveillance)
        terminals = self._terminal_spaces(table) if terminal else set()
        spaces: set[int] = set()
        for area in floor.areas:
            if area.kind != "room" or floor.ids[area.spaces[0]] not in beads:
                continue
            if terminal and not any(s in terminals and s not in table.occupant for s in area.spaces):
                continue
            spaces.update(area.spaces)
        return spaces

    def _waiting_to_hop(self, state: GameState) -> bool:
        """A bot stands on a terminal space from which a hop lands in a room still to be surveilled."""
        if not state.mission.rule(state.calibrated).hop or not state.floor.surveillance:
            return False
        table = Table(state, SeededDice(0), apply_effect, copy=False)
        return any(b.on_board and table.floor.index[b.space] in self._hop_launches(table, b)  # type: ignore[index]
                   for b in movers(table))

    def _hop_launches(self, table: Table, bot: Bot) -> set[int]:
        """Preconnaissance: the terminal spaces from which a hop lands in a room that still holds a bead."""
        state, floor = table.state, table.floor
        if not state.mission.rule(state.calibrated).hop:
            return set()
        beads = set(state.floor.surveillance)
        launches = set()
        for start in self._terminal_spaces(table):
            if table.occupant.get(start) not in (None, bot):
                continue
            for end in hop_paths(table, start):
                room = floor.area(end)
                if end != start and room.kind == "room" and floor.ids[room.spaces[0]] in beads \
                        and start not in room.spaces:
                    launches.add(start)
                    break
        return launches

    def _hop(self, table: Table, legal: list) -> Action | None:
        """Preconnaissance: "hop into cyberspace" from the terminal space a bot stands on to one in a room that
        still holds a surveillance bead; jumping out there "surveil[s] the room they are in" without opening a
        door ("Whenever a non-safe zone door is unlocked ... advance threat by 3")."""
        state, floor = table.state, table.floor
        beads = set(state.floor.surveillance)
        if not beads:
            return None
        best = None
        for la in legal:
            action = la.action
            if not isinstance(action, Hop):
                continue
            room = floor.area(floor.index[action.path[-1]])
            if room.kind == "room" and floor.ids[room.spaces[0]] in beads and \
                    (best is None or len(action.path) < len(best.path)):
                best = action
        return best


def _hop_chip_at_hand(state: GameState, bot: Bot) -> bool:
    """A utility or tech chip, which a hop is taken on, in the burncycle or the bot's reserves."""
    kinds = {"utility", "tech"}
    return any(c is not None and not c.degraded and c.kind in kinds for c in state.burncycle.slots) or \
        any(k in kinds for k in state.burncycle.team_reserve) or \
        any(k in kinds for k in state.burncycle.personal_reserves.get(bot.id, []))


def is_prey(table: Table, unit: SecurityUnit, task: str) -> bool:
    """The unit a `shut_down:*` win task asks for ("Shut down the captain", "a level 3 Ghost", "a guard while
    it occupies a terminal space")."""
    kind, _, what = task.partition(":")
    if kind != "shut_down":
        return False
    if what == "captain":
        return unit.rank == "captain"
    if what == "ghost":
        return unit.chip == "Ghost"
    return unit.rank == "guard" and table.floor.feature[table.floor.index[unit.space]] in TERMINAL_SPACES


def module_calibrations(state: GameState) -> list[Objective]:
    """The calibrations that are the command module's own ("Command Module: ...") for this team."""
    return [o for o in state.mission.calibrations if o.qualifier == "module" and objective_applies(state, o)]


def module_tasks(state: GameState) -> set[str]:
    """The kinds of the module's own calibration tasks ("Command Module: ...")."""
    return {o.task.split(":")[0] for o in module_calibrations(state)}
