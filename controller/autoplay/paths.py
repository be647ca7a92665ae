"""The auto-player's sense of the floor: what a step costs a bot, where the team's safe zone is, which doors
it cannot open, what the guards see.

Every decision asks these many times over while the floor stays the same, so the answers are cached: per
decision (`Notes.memo`), per floor state between decisions (`_costs`, `_reach`), and the path graphs per floor
for every game on it (`_GRAPHS`). These caches are answers to the same questions, never memory: the one choice
kept between decisions, the team's safe zone, is in the `AutoplayMemory` (`TeamZone`).
"""

from __future__ import annotations

import hashlib
import heapq
import weakref
from typing import Literal, cast

from controller.autoplay.abilities import passes_doors
from controller.autoplay.forcing import agent_dice, expected_ap, forces
from controller.autoplay.memory import TeamZone
from controller.autoplay.missions import strategy_for
from controller.autoplay.notes import Notes
from controller.autoplay.tuning import (
    DOOR_COST,
    UNIT_COST,
    WALL_COST,
    WATCHED_COST,
)
from controller.rules import (
    UNREACHABLE,
    Area,
    Bot,
    Floor,
    Resolution,
    SecurityUnit,
    active_agent,
    chip_inputs_payable,
    keypad_column,
    sight,
)

# path graphs by floor and the state of its walls, doors and known jams: shared by every game on the floor
# the floors' digests, for the memory (`_floor_digest`)
_DIGESTS: weakref.WeakKeyDictionary[Floor, str] = weakref.WeakKeyDictionary()
_GRAPHS: weakref.WeakKeyDictionary[Floor, dict[tuple, list[list[tuple[int, int]]]]] = weakref.WeakKeyDictionary()


# how a bot gets through a locked door: Nano reassembles through, a bot with a key spends it, any other opens the
# keypad (which a jammed card shuts)
DoorPassage = Literal["reassemble", "key", "keypad"]


def door_passage(bot: Bot) -> DoorPassage:
    return "reassemble" if passes_doors(bot) else "key" if bot.keys > 0 else "keypad"


def opens_doors(table: Resolution, bot: Bot, beyond: int) -> bool:
    """Whether the bot opens a locked door before stepping through to `beyond`: any bot but Nano, and Nano
    too when a unit stands beyond it (he cannot reassemble into its space, and the locked door blocks his
    adjacency for a push)."""
    return not passes_doors(bot) or isinstance(table.occupant.get(beyond), SecurityUnit)


class PathCosts:
    """Path costs, the team's safe zone, jammed doors and the guards' sight, for the auto-player: what the
    routes, the doors, the repairs and each mission's play ask of the floor."""

    def __init__(self, notes: Notes) -> None:
        self.notes = notes  # the decision's memo, and the memory of the team's safe zone
        # path costs by everything they depend on: the floor does not change between most decisions
        self._costs: dict[tuple, list[int]] = {}
        self._reach: dict[tuple, frozenset[int]] = {}  # spaces from which a zone can be reached, by floor state

    @staticmethod
    def cost_to(table: Resolution, bot: Bot, space: int) -> int:
        """Steps between the bot and a space through doors of any state (the floor's precomputed table: a
        claim on a terminal needs no more)."""
        return table.distances()[table.floor.index[bot.at]][space]

    def nearest(self, table: Resolution, bot: Bot, spaces: set[int]) -> int:
        return min(spaces, key=lambda s: (self.cost_to(table, bot, s), s))

    def team_safe_zone(self, table: Resolution) -> frozenset[int]:
        """The one safe zone the whole team gathers in: the cheapest for all bots together when first needed,
        then kept (guards walking by must not turn the team around), so a door opened by one bot serves all.
        A zone whose every way in turns out jammed is given up for the next best. With none open to all the
        team heads for every zone, and chooses again at the next decision: kept, "every zone" (always open to
        all) outlived the door opened after it, and its doorways held a bot out (the lobby, seed 3157)."""
        if "zone" not in self.notes.memo:  # asked for every bot and step of a decision
            self.notes.memo["zone"] = self._choose_safe_zone(table)
        return cast("frozenset[int]", self.notes.memo["zone"])

    def in_team_zone(self, table: Resolution, space: int) -> bool:
        """Whether the space lies in the area of the team's safe zone. (When no zone is open to all, the
        fallback zone lists every zone's spaces and this counts the area of one of them.)"""
        zone = self.team_safe_zone(table)
        return bool(zone) and table.floor.area_of[space] == table.floor.area_of[next(iter(zone))]

    def _choose_safe_zone(self, table: Resolution) -> frozenset[int]:
        floor = table.floor
        zones = [a for a in floor.areas if a.kind == "safe"]
        digest = _floor_digest(floor)
        chosen = self.notes.team_zone
        strategy = strategy_for(table.state.mission.id)
        if chosen is not None and chosen.floor == digest and chosen.space is not None:
            kept = next((_zone_spaces(floor, z) for z in zones if floor.ids[z.spaces[0]] == chosen.space),
                        _every_zone(zones))
            # the zone kept is given up for a door whose card the active agent's dice cannot force (where the
            # mission's play says so, the team's strongest dice)
            if self._open_to_all(table, kept, strategy.kept_zone_by_team_dice):
                return kept
        best: frozenset[int] = frozenset()
        best_cost, best_zone = UNREACHABLE, None
        for k, zone in enumerate(zones):
            spaces = _zone_spaces(floor, zone)
            if not self._open_to_all(table, spaces):
                continue
            total = strategy.zone_cost(table, k) + sum(
                self.cost_map(table, bot, spaces)[floor.index[bot.at]]
                for bot in table.state.bots if bot.on_board and not bot.shut_down)
            if total < best_cost:
                best, best_cost, best_zone = spaces, total, zone
        self.notes.team_zone = TeamZone(floor=digest, space=floor.ids[best_zone.spaces[0]] if best_zone else None)
        return best or _every_zone(zones)

    def module_safe_zone(self, table: Resolution, module: Bot, held: bool) -> frozenset[int]:
        """The safe zone the command module heads for: the team's, unless a guard held the only way into it
        (`held`: the module beside it, with no step forward and no way around), when the module takes the
        cheapest other zone it can reach without passing a unit, and keeps it while it can still get in. Any
        safe zone wins Data Heist ("All bots simultaneously: occupy safe zones"), and the module waiting beside
        a guard loses a power a round until it is shut down. Only a zone at most the mission's
        `module_zone_detour` steps farther than the team's (MODULE_ZONE_DETOUR): across the lobby the guard
        moves on long before the module gets there."""
        team = self.team_safe_zone(table)
        floor = table.floor
        here = floor.index[module.at]
        digest = _floor_digest(floor)
        zones = {floor.ids[z.spaces[0]]: _zone_spaces(floor, z) for z in floor.areas if z.kind == "safe"}
        kept = self.notes.module_zone
        if kept is not None and kept.floor == digest and kept.space in zones:
            spaces = zones[kept.space]
            if not spaces & team and self.cost_map(table, module, spaces)[here] < UNREACHABLE:
                return spaces
            self.notes.module_zone = None
        if not held:
            return team
        units = frozenset(s for s, o in table.occupant.items() if isinstance(o, SecurityUnit))
        best, best_cost = None, UNREACHABLE
        for first, spaces in sorted(zones.items()):
            if spaces & team:
                continue
            cost = self.cost_map(table, module, spaces - units, avoid=units)[here]
            if cost < best_cost:
                best, best_cost = first, cost
        detour = strategy_for(table.state.mission.id).module_zone_detour
        if best is None or (detour is not None and self._detour(table, here, zones[best], team) > detour):
            return team
        self.notes.module_zone = TeamZone(floor=digest, space=best)
        return zones[best]

    @staticmethod
    def _detour(table: Resolution, here: int, other: frozenset[int], team: frozenset[int]) -> int:
        """How many steps farther from `here` the nearest space of the `other` zone lies than the team's."""
        steps = table.distances()[here]
        return min(steps[s] for s in other) - min(steps[s] for s in team)

    def shut_zones(self, table: Resolution) -> list[frozenset[int]]:
        """The safe zones the team cannot gather in, every way in jammed for a bot that opens keypads (Nano,
        who passes locked doors, still can: any safe zone wins "All bots simultaneously: occupy safe zones")."""
        floor = table.floor
        return [spaces for spaces in (_zone_spaces(floor, z) for z in floor.areas if z.kind == "safe")
                if not self._open_to_all(table, spaces)]

    def _open_to_all(self, table: Resolution, zone: frozenset[int], team_dice: bool = False) -> bool:
        """Every bot on the floor can still get into the zone through walls, destroyed walls and doors
        whose keypads are not known to be jammed (guards, who move on, are not obstacles here); `team_dice`:
        a card judged by the team's strongest dice rather than the active agent's."""
        jammed = frozenset(self.jammed(table, team_dice))
        key = (table.floor.source, zone, jammed, table.destroyed)
        reach = self._reach.get(key)
        if reach is None:
            floor = table.floor
            found, todo = set(zone), list(zone)
            while todo:
                u = todo.pop()
                for _, v in floor.security_neighbours(u, table.destroyed):
                    if v not in found and not (jammed and floor.edge_name[(u, v)] in jammed):
                        found.add(v)
                        todo.append(v)
            if len(self._reach) > 256:
                self._reach.clear()
            self._reach[key] = reach = frozenset(found)
        return all(table.floor.index[b.at] in reach or door_passage(b) != "keypad"
                   for b in table.state.bots if b.on_board and not b.shut_down)

    def cost_map(self, table: Resolution, bot: Bot, targets: frozenset[int], avoid: frozenset[int] = frozenset(),
                  walls: bool = False) -> list[int]:
        """Costs to the nearest of `targets`, shared between decisions while the floor stays the same."""
        doors = door_passage(bot)
        if "floor key" not in self.notes.memo:  # what the costs depend on besides the targets, once per decision
            units = frozenset(s for s, o in table.occupant.items() if not isinstance(o, Bot))
            self.notes.memo["floor key"] = (table.floor.source, units, table.unlocked,
                                       table.destroyed, frozenset(self.jammed(table)))
        seen = self.seen_near(table, bot)
        full = (self.notes.memo["floor key"], seen, targets, doors, avoid, walls)
        costs = self._costs.get(full)
        if costs is None:
            if len(self._costs) > 512:
                self._costs.clear()
            costs = self._costs[full] = self._distances(table, set(targets), doors, seen, avoid, walls)
        return costs

    def seen_near(self, table: Resolution, bot: Bot) -> frozenset[int]:
        """The spaces some guard sees now within the mission's `watch_reach` steps of the bot (WATCH_REACH but
        on the tower run): the guards move every corporation turn, so their sight now says nothing of a space
        the bot reaches only after it, and weighing it turned a bot back and forth between two ways round after
        round as the guards walked (docs/autoplay.md)."""
        key = ("seen near", bot.at)
        if key not in self.notes.memo:
            reach = strategy_for(table.state.mission.id).watch_reach
            row = table.distances()[table.floor.index[bot.at]]
            self.notes.memo[key] = frozenset(i for i in self.watched(table) if reach is None or row[i] <= reach)
        return cast("frozenset[int]", self.notes.memo[key])

    def _distances(self, table: Resolution, targets: set[int], doors: DoorPassage, watched: frozenset[int],
                   avoid: frozenset[int] = frozenset(), walls: bool = False) -> list[int]:
        """Cost to the nearest target for a bot, by space: a step costs 1, or 8 into a space a guard sees now,
        8 more into a guard's space (walked around, or pushed aside) and 5 more through a locked door (it can
        be opened, at the price of an action; nothing more for Nano, who reassembles through it); walls, the
        `avoid` spaces and locked doors whose keypad is known to be jammed (for a bot without a key, and for Nano
        into a unit's space, where he opens the door like any bot) do not."""
        floor = table.floor
        # a jammed door is shut to a bot without a key, and to Nano where he opens it (into a unit's space)
        jammed = frozenset() if doors == "key" else frozenset(self.jammed(table))
        reassemble = doors == "reassemble"
        graph = self._graph(table, jammed if doors == "keypad" else frozenset(), walls, reassemble)
        step = [WATCHED_COST if i in watched else 1 for i in range(len(floor.ids))]
        units = set()
        for i, who in table.occupant.items():
            if not isinstance(who, Bot):
                step[i] += UNIT_COST + WATCHED_COST  # a push always detects: as a step into sight, and more
                units.add(i)
        dist = [UNREACHABLE] * len(floor.ids)
        for i in avoid:
            dist[i] = -1  # never improved on, so never entered
        heap = [(0, t) for t in targets if t not in avoid]
        for _, t in heap:
            dist[t] = 0
        heapq.heapify(heap)
        pop, push = heapq.heappop, heapq.heappush
        while heap:
            d, u = pop(heap)
            if d > dist[u]:
                continue
            base = d + step[u]
            # Nano cannot reassemble into a unit's space, nor push it through a locked door (which blocks his
            # adjacency): into a unit's space he opens that door like any bot
            unit_here = reassemble and u in units
            for v, extra in graph[u]:
                nd = base + extra
                if unit_here:
                    door = floor.door_edges.get((v, u))
                    if door is not None and door not in table.unlocked:
                        if door in jammed:
                            continue
                        nd += DOOR_COST
                if nd < dist[v]:
                    dist[v] = nd
                    push(heap, (nd, v))
        for i in avoid:
            dist[i] = UNREACHABLE
        return dist

    @staticmethod
    def _graph(table: Resolution, jammed: frozenset[str], walls: bool = False,
               reassemble: bool = False) -> list[list[tuple[int, int]]]:
        """Each space's ways for a bot's path costs, with the locked-door surcharge (none for Nano, who
        reassembles through) and, for a bot with no other way, interior walls to break at WALL_COST: the
        floor's state changes rarely, so the lists are kept per floor and state of walls, doors and known jams,
        for every player and game (`_GRAPHS`)."""
        floor = table.floor
        graphs = _GRAPHS.setdefault(floor, {})
        key = (table.destroyed, table.unlocked, jammed, walls, reassemble)
        graph = graphs.get(key)
        if graph is None:
            graph = []
            for u in range(len(floor.ids)):
                ways = []
                for _, v in floor.security_neighbours(u, table.destroyed):
                    name = floor.edge_name[(u, v)]
                    if name in jammed:
                        continue
                    door = floor.door_edges.get((u, v))
                    locked = door is not None and door not in table.unlocked and not reassemble
                    ways.append((v, DOOR_COST if locked else 0))
                if walls:
                    ways.extend((v, WALL_COST) for v, kind in floor.neighbour[u].values()
                                if kind == "wall" and floor.edge_name[(u, v)] not in table.destroyed)
                graph.append(ways)
            if len(graphs) > 64:
                graphs.clear()
            graphs[key] = graph
        return graph

    def jammed(self, table: Resolution, team_dice: bool = False) -> set[str]:
        """Locked doors this team cannot open now without a key: the card by the door is jammed or too
        strong for the active agent's dice, and its chip inputs cannot be paid from the reserves or by jumping
        the tracker. On a level 2 floor of a mission won in the safe zones, with the module on the floor (the
        labs' Data Heist), a card is too strong only for the team's strongest dice: its keypads ask 6 AP,
        which Casing's pool can force and Nano's cannot, and judged turn by turn the team's zone was given up
        on Nano's turn for a door Casing was about to open (docs/autoplay.md, "The labs' zone door"). And there
        a card that rolls keypad dice is never shut: each keypad action rolls them, and their unlock face opens
        the door whatever the card asks, a "Jam" too (`Doors.open_door` tries them, an abort costing nothing;
        "The keypad die's unlock"); so too where the mission's play says (`keypad_dice_unlock`). With
        `team_dice` a card is too strong only for the team's strongest dice on any floor (the team's kept zone in
        the missions whose play says so: `kept_zone_by_team_dice`)."""
        memo = "jammed by the team's dice" if team_dice else "jammed"
        if memo in self.notes.memo:
            return cast("set[str]", self.notes.memo[memo])
        state = table.state
        agent = active_agent(state)
        dice = agent_dice(agent)
        zones_of_level_2 = level_2_zones(table)
        dice_unlock = keypad_dice_unlock(table)
        if zones_of_level_2 or team_dice:
            dice = max((agent_dice(b) for b in state.bots if b.kind == "agent" and b.on_board and not b.shut_down),
                       key=expected_ap, default=dice)
        shut = set()
        for door, card in state.keypads.items():
            if door in table.unlocked:
                continue
            col = keypad_column(table, card)
            if dice_unlock and col.dice:
                continue
            if not forces(col, dice) and not chip_inputs_payable(table, agent, card):
                shut.add(door)
        self.notes.memo[memo] = shut
        return shut

    def watched(self, table: Resolution) -> set[int]:
        if "watched" in self.notes.memo:
            return cast("set[int]", self.notes.memo["watched"])
        seen: set[int] = set()
        for unit in table.state.security:
            if not unit.stunned:
                seen |= sight(table.floor, table.floor.index[unit.space], unit.facing, unit.awareness,
                              table.state.rules.peripheral)
        self.notes.memo["watched"] = seen
        return seen


def level_2_zones(table: Resolution) -> bool:
    """Whether this is the last floor, of level 2 or more, of a mission won in the safe zones, with the command
    module on it (the labs' Data Heist): keypads of 6 AP that the team's dice seldom force, and a zone the
    module must get into behind them. (Rescue Rangers on the labs, whose module comes only after the
    calibration, lost with the keypad dice's rule: 3 -> 1 of 200.)"""
    state = table.state
    return table.floor.level >= 2 and not state.later_floors \
        and any(o.task == "safe_zones" for o in state.mission.win) \
        and any(b.kind == "module" and b.on_board for b in state.bots)


def keypad_dice_unlock(table: Resolution) -> bool:
    """Whether a locked door whose card rolls keypad dice is never shut for the paths, the bots aborting keypad
    actions for the dice's unlock face: on the labs (`level_2_zones`), and where the mission's play says
    (Rescue Rangers' agent shut in its starting zone)."""
    return level_2_zones(table) or strategy_for(table.state.mission.id).keypad_dice_unlock(table)


def _zone_spaces(floor: Floor, zone: Area) -> frozenset[int]:
    """The spaces of a safe zone the team heads for: those by a door are the way in for the bots behind, so
    the team fills the zone from the back."""
    doorways = {i for (i, _j) in floor.door_edges}
    return frozenset(set(zone.spaces) - doorways) or frozenset(zone.spaces)


def _every_zone(zones: list[Area]) -> frozenset[int]:
    """Every safe zone's spaces: where the team heads when no zone is open to all."""
    return frozenset(s for z in zones for s in z.spaces)


def _floor_digest(floor: Floor) -> str:
    """A short name for the floor in the memory: a digest of its text (the floors of a tower differ)."""
    digest = _DIGESTS.get(floor)
    if digest is None:
        digest = _DIGESTS[floor] = hashlib.sha256(floor.source.encode()).hexdigest()[:16]
    return digest
