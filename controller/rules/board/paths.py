"""Shortest paths for security units, around the other units on the floor.

"Pursue: Security units ... move via the shortest path"; paths go "through locked doors, never through
walls or other units". The floor's all-pairs table gives the exact distance when nothing stands in the
way, so the common case is a greedy walk down that table; only when a unit blocks the walk is a
breadth-first search from the goals run. Both break ties the same way: the first direction in N, E, S, W.
"""

from __future__ import annotations

from controller.rules.board.geometry import UNREACHABLE
from controller.rules.resolution import Resolution


def _greedy(resolution: Resolution, start: int, dist_to_goal) -> list[int] | None:
    floor, destroyed, occupant = resolution.floor, resolution.destroyed, resolution.occupant
    path, cur, d = [], start, dist_to_goal(start)
    if d >= UNREACHABLE:
        return None
    while d > 0:
        for _, j in floor.security_neighbours(cur, destroyed):
            if j not in occupant and dist_to_goal(j) == d - 1:
                cur, d = j, d - 1
                path.append(cur)
                break
        else:
            return None
    return path


def path_to(resolution: Resolution, start: int, goals: set[int]) -> list[int] | None:
    """The spaces of a shortest path from start to the nearest goal (start excluded), or None."""
    if start in goals:
        return []
    goals = {g for g in goals if g not in resolution.occupant}
    if not goals:
        return None
    D = resolution.distances()
    rows = [D[g] for g in goals]
    if len(rows) == 1:
        row = rows[0]
        path = _greedy(resolution, start, row.__getitem__)
    else:
        path = _greedy(resolution, start, lambda x: min(r[x] for r in rows))
    if path is not None:
        return path
    # Something stands in the way: exact distances on the floor as it is now.
    floor, destroyed, occupant = resolution.floor, resolution.destroyed, resolution.occupant
    dist = {g: 0 for g in goals}
    frontier = list(goals)
    while frontier and start not in dist:
        nxt = []
        for u in frontier:
            for _, v in floor.security_neighbours(u, destroyed):
                if v not in dist and (v not in occupant or v == start):
                    dist[v] = dist[u] + 1
                    nxt.append(v)
        frontier = nxt
    if start not in dist:
        return None
    return _greedy(resolution, start, lambda x: dist.get(x, UNREACHABLE))


def adjacent_spaces(resolution: Resolution, space: int) -> set[int]:
    """Spaces next to `space` from a security unit's point of view (locked doors do not block)."""
    return {j for _, j in resolution.floor.security_neighbours(space, resolution.destroyed)}
