"""Floor geometry as the rulebook's "Area & Adjacency" defines it, precomputed once per floor.

A floor never changes its walls, doors or areas during play except for destroyed walls (at most 3) and
unlocked doors, so everything else is computed when the floor is compiled: areas, adjacency for security
units, lines of sight, and all-pairs path distances. The corporation turn then only looks things up,
which is what makes thousands of automated turns a second possible.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from controller.rules.board.floor_text import AreaNote, FloorPlan, ReserveKind, parse_floor, parse_space, space_name
from controller.rules.errors import FloorError, RulesError
from controller.rules.state import Direction

DIRECTIONS: tuple[Direction, ...] = ("N", "E", "S", "W")
DELTA: dict[Direction, tuple[int, int]] = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
OPPOSITE: dict[Direction, Direction] = {"N": "S", "E": "W", "S": "N", "W": "E"}
FacingWord = Literal["north", "east", "south", "west"]
DIRECTION_WORDS: dict[str, FacingWord] = {"N": "north", "E": "east", "S": "south", "W": "west"}
UNREACHABLE = 1 << 20
MAX_DESTROYED_WALLS = 3


@dataclass(frozen=True)
class Area:
    """One area: a room, a connected hallway, an outdoor segment or a safe zone."""

    index: int
    kind: str
    name: str
    surveillance: int
    reserve: ReserveKind | None
    spaces: tuple[int, ...]

    @property
    def is_room(self) -> bool:
        # "Safe zones are distinct rooms and separate areas."
        return self.kind in ("room", "safe")


@lru_cache(maxsize=4096)
def edge_id(a: str, b: str) -> str:
    """A stable name for the edge between two spaces, e.g. 'C4/C5' (order-independent); kept, as the engine
    and the auto-player name the same few hundred edges over and over."""
    ra, rb = parse_space(a), parse_space(b)
    if ra is None or rb is None:
        raise RulesError(f"{a}/{b}: an edge lies between two spaces, and {a if ra is None else b} is not a space name")
    return f"{a}/{b}" if ra <= rb else f"{b}/{a}"


def exterior_wall_id(space: str, side: str) -> str:
    """The name of the exterior wall on one side of a space, e.g. 'A1/N' (no space has a one-letter name
    without a number, so it never looks like an edge between two spaces)."""
    return f"{space}/{side}"


class Floor:
    """Compiled floor: index-based lookups for everything the engine asks of the geometry."""

    def __init__(self, plan: FloorPlan, source_name: str = "<floor>") -> None:
        self.name = plan.name
        self.level = plan.level
        self.source = plan.source
        self.rows, self.cols = plan.rows, plan.cols
        coords = sorted(plan.spaces)
        self.coords: list[tuple[int, int]] = coords
        self.ids: list[str] = [space_name(r, c) for r, c in coords]
        self.index: dict[str, int] = {name: i for i, name in enumerate(self.ids)}
        at = {rc: i for i, rc in enumerate(coords)}
        self.feature: list[str | None] = [plan.spaces[rc] for rc in coords]
        n = len(coords)

        # edges between neighbouring spaces: kind by (i, j) with i < j
        self.edges: dict[tuple[int, int], str] = {}
        for (r, c), kind in plan.east.items():
            if (r, c) in at and (r, c + 1) in at:
                self.edges[(at[(r, c)], at[(r, c + 1)])] = kind
        for (r, c), kind in plan.south.items():
            if (r, c) in at and (r + 1, c) in at:
                self.edges[(at[(r, c)], at[(r + 1, c)])] = kind

        # neighbour in each direction, with the kind of edge crossed
        self.neighbour: list[dict[Direction, tuple[int, str]]] = [dict() for _ in range(n)]
        for i, (r, c) in enumerate(coords):
            for d in DIRECTIONS:
                dr, dc = DELTA[d]
                j = at.get((r + dr, c + dc))
                if j is None:
                    continue
                kind = self.edges[(min(i, j), max(i, j))]
                self.neighbour[i][d] = (j, kind)

        # the name of the edge between two neighbouring spaces ("C4/C5"), both ways round
        self.edge_name: dict[tuple[int, int], str] = {}
        for (i, j) in self.edges:
            name = edge_id(self.ids[i], self.ids[j])
            self.edge_name[(i, j)] = self.edge_name[(j, i)] = name
        self._build_areas(plan, source_name)
        self.doors: tuple[str, ...] = tuple(sorted(self.edge_name[e] for e, k in self.edges.items() if k == "door"))
        # door edges by the pair of spaces they join, both ways round
        self.door_edges: dict[tuple[int, int], str] = {
            pair: name for pair, name in self.edge_name.items() if self.edges[(min(pair), max(pair))] == "door"}
        self.interior_walls: frozenset[str] = frozenset(self.edge_name[e] for e, k in self.edges.items()
                                                        if k == "wall")
        # ">> Exterior walls can be attacked": the mat edge (or a void) on a side of a space with no neighbour
        # there, named by the space and the side, e.g. 'A1/N'
        self.exterior_walls: frozenset[str] = frozenset(
            exterior_wall_id(self.ids[i], d) for i in range(n) for d in DIRECTIONS if d not in self.neighbour[i])

        # "Security Units: Locked doors DO NOT block security unit adjacency": doors of any state
        # join spaces for guards, walls never do (destroyed walls are added per game state).
        self.security_steps: list[tuple[tuple[Direction, int], ...]] = [
            tuple((d, j) for d, (j, k) in self.neighbour[i].items() if k != "wall") for i in range(n)]
        # Sight runs straight through open edges only: walls and doors bound areas.
        self.rays: list[dict[str, tuple[int, ...]]] = []
        for i in range(n):
            per_dir: dict[str, tuple[int, ...]] = {}
            for d in DIRECTIONS:
                ray, cur = [], i
                while True:
                    nb = self.neighbour[cur].get(d)
                    if nb is None or nb[1] != "open":
                        break
                    cur = nb[0]
                    ray.append(cur)
                per_dir[d] = tuple(ray)
            self.rays.append(per_dir)
        self.posts: dict[str, tuple[int, ...]] = {}
        for i, f in enumerate(self.feature):
            if f:
                self.posts.setdefault(f, ())
                self.posts[f] += (i,)
        self._distances: dict[frozenset[str], list[list[int]]] = {}
        self._perimeters: dict[int, tuple[tuple[int, str], ...]] = {}
        # what a unit sees from (space, facing, stat, peripheral reading): filled by awareness.sight
        self.sight_cache: dict[tuple[int, str, int, str], frozenset[int]] = {}

    # -- areas -----------------------------------------------------------------------------------
    def _build_areas(self, plan: FloorPlan, source_name: str) -> None:
        n = len(self.ids)
        area_of = [-1] * n
        groups: list[list[int]] = []
        for start in range(n):
            if area_of[start] != -1:
                continue
            gid = len(groups)
            group = [start]
            area_of[start] = gid
            queue = deque([start])
            while queue:
                cur = queue.popleft()
                for j, kind in self.neighbour[cur].values():
                    if kind == "open" and area_of[j] == -1:
                        area_of[j] = gid
                        group.append(j)
                        queue.append(j)
            groups.append(sorted(group))
        notes_by_group: dict[int, AreaNote] = {}
        for note in plan.areas:
            gid = area_of[self.index[space_name(*note.anchor)]]
            if gid in notes_by_group:
                prev = notes_by_group[gid]
                raise FloorError(source_name, note.line, 1,
                                 f"{space_name(*note.anchor)} is in the same area as the one named on line "
                                 f"{prev.line}: one line per area")
            notes_by_group[gid] = note
        self.areas: list[Area] = []
        for gid, group in enumerate(groups):
            named = notes_by_group.get(gid)
            if named is None:
                first = plan.where[self.coords[group[0]]]
                raise FloorError(source_name, first[0], first[1],
                                 f"the area containing {self.ids[group[0]]} ({len(group)} spaces) is not named "
                                 f"in 'areas:'; add a line such as '{self.ids[group[0]]} room \"Name\"'")
            self.areas.append(Area(gid, named.kind, named.name, named.surveillance, named.reserve,
                                   tuple(group)))
        self.area_of: list[int] = area_of
        for i, f in enumerate(self.feature):
            kind = self.areas[area_of[i]].kind
            line, col = plan.where[self.coords[i]]
            if f in ("post1", "post2", "post3") and kind not in ("hallway", "outdoor"):
                raise FloorError(source_name, line, col, f"hallway post at {self.ids[i]} stands in a {kind}")
            if f in ("postA", "postB") and kind != "room":
                raise FloorError(source_name, line, col, f"room post at {self.ids[i]} stands in a {kind}")
        if "entrance" not in self.feature:
            raise FloorError(source_name, 1, 0, "the floor has no entrance space (E)")

    # -- lookups ---------------------------------------------------------------------------------
    def space(self, name: str) -> int:
        i = self.index.get(name)
        if i is None:
            raise KeyError(name)
        return i

    def area(self, i: int) -> Area:
        return self.areas[self.area_of[i]]

    def in_safe_zone(self, i: int) -> bool:
        return self.areas[self.area_of[i]].kind == "safe"

    def edge_between(self, i: int, j: int) -> str | None:
        return self.edges.get((min(i, j), max(i, j)))

    def direction(self, i: int, j: int) -> Direction | None:
        """The compass direction from i to an orthogonal neighbour j (None if not neighbours)."""
        (r1, c1), (r2, c2) = self.coords[i], self.coords[j]
        for d, (dr, dc) in DELTA.items():
            if (r1 + dr, c1 + dc) == (r2, c2):
                return d
        return None

    def line_direction(self, i: int, j: int) -> Direction | None:
        """Direction from i toward j when both lie on one row or column."""
        (r1, c1), (r2, c2) = self.coords[i], self.coords[j]
        if r1 == r2 and c1 != c2:
            return "E" if c2 > c1 else "W"
        if c1 == c2 and r1 != r2:
            return "S" if r2 > r1 else "N"
        return None

    def security_neighbours(self, i: int, destroyed: frozenset[str]) -> list[tuple[Direction, int]]:
        steps = list(self.security_steps[i])
        if destroyed:
            for d, (j, kind) in self.neighbour[i].items():
                if kind == "wall" and self.edge_name[(i, j)] in destroyed:
                    steps.append((d, j))
            steps.sort(key=lambda s: DIRECTIONS.index(s[0]))
        return steps

    def bot_neighbours(self, i: int, unlocked: frozenset[str],
                       destroyed: frozenset[str]) -> list[tuple[Direction, int]]:
        """Bots: walls and locked doors block; unlocked doors and destroyed walls do not."""
        out = []
        for d, (j, kind) in self.neighbour[i].items():
            if kind == "open":
                out.append((d, j))
            elif kind == "door" and self.edge_name[(i, j)] in unlocked:
                out.append((d, j))
            elif kind == "wall" and self.edge_name[(i, j)] in destroyed:
                out.append((d, j))
        return out

    def distances(self, destroyed: frozenset[str]) -> list[list[int]]:
        """All-pairs path lengths for security units (doors pass, walls block, units ignored)."""
        table = self._distances.get(destroyed)
        if table is None:
            n = len(self.ids)
            adjacency = [[j for _, j in self.security_neighbours(i, destroyed)] for i in range(n)]
            table = []
            for s in range(n):
                dist = [UNREACHABLE] * n
                dist[s] = 0
                frontier = [s]
                k = 0
                while frontier:
                    k += 1
                    nxt = []
                    for u in frontier:
                        for v in adjacency[u]:
                            if dist[v] == UNREACHABLE:
                                dist[v] = k
                                nxt.append(v)
                    frontier = nxt
                table.append(dist)
            self._distances[destroyed] = table
        return table

    def perimeter(self, area_index: int) -> tuple[tuple[int, str], ...]:
        """The clockwise walk along an area's inside edge, as (space, facing) steps.

        Found with the left-hand rule from the area's top-left space facing east (a wall is on its
        left there, the north edge): keeping a wall on the left walks an area clockwise.
        """
        cached = self._perimeters.get(area_index)
        if cached is not None:
            return cached
        area = self.areas[area_index]
        walk: list[tuple[int, str]] = []
        seen: dict[tuple[int, str], int] = {}
        state: tuple[int, str] | None = (area.spaces[0], "E")
        # The walk settles into a cycle (the start itself may lie just outside it): keep the cycle.
        while state is not None and state not in seen:
            seen[state] = len(walk)
            walk.append(state)
            state = self._left_hand_step(*state)
        if state is not None:
            walk = walk[seen[state]:]
        result = tuple(walk)
        self._perimeters[area_index] = result
        return result

    def _left_hand_step(self, i: int, facing: str) -> tuple[int, str] | None:
        k = DIRECTIONS.index(facing)
        for turn in (-1, 0, 1, 2):
            d = DIRECTIONS[(k + turn) % 4]
            nb = self.neighbour[i].get(d)
            if nb is not None and nb[1] == "open":
                return nb[0], d
        return None


@lru_cache(maxsize=32)
def compile_floor(text: str, source_name: str = "<floor>") -> Floor:
    """Parse and precompute a floor; cached because states carry their floor's text."""
    return Floor(parse_floor(text, source_name), source_name)
