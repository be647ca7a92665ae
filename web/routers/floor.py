"""GET /api/floor: the current game's floor, laid out for drawing (the page's SVG board).

The floor is compiled by the engine (`compile_floor`, cached per text), so the page draws exactly the walls,
doors and areas the rules play on; what play changes on it (doors unlocked, walls destroyed, terminals
accessed, caches taken, rooms surveilled) and what each guard sees now come from the state, so a phone only
has to draw, never to know the rules.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec
from fastapi import APIRouter

from controller.rules import Floor, GameState, compile_floor, security_sight
from web.auth import ApiError
from web.deps import Service

router = APIRouter(prefix="/api", tags=["floor"])

# the posts of the floor format (docs/floor-format.md), named for people
POSTS = {"post1": "hallway post 1", "post2": "hallway post 2", "post3": "hallway post 3", "star": "reinforcement post",
         "postA": "room post A", "postB": "room post B", "captain": "captain's post", "module": "module post",
         "ghost": "ghost post"}


def _edges(floor: Floor, state: GameState) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Walls (inner and outer) and doors, each on one side of one space, so the page draws a line there."""
    destroyed, unlocked = set(state.floor.destroyed_walls), set(state.floor.unlocked_doors)
    walls: list[dict[str, Any]] = []
    doors: list[dict[str, Any]] = []
    for (i, j), kind in sorted(floor.edges.items()):
        if kind == "open":
            continue
        (ri, ci), (rj, _) = floor.coords[i], floor.coords[j]
        side = "S" if rj > ri else "E"  # j is i's east or south neighbour (i < j)
        name = floor.edge_name[(i, j)]
        edge = {"id": name, "space": floor.ids[i], "side": side, "column": ci, "row": ri}
        if kind == "door":
            doors.append(edge | {"locked": name not in unlocked})
        else:
            walls.append(edge | {"destroyed": name in destroyed})
    for name in sorted(floor.exterior_walls):
        space, side = name.split("/")
        row, column = floor.coords[floor.index[space]]
        walls.append({"id": name, "space": space, "side": side, "column": column, "row": row,
                      "destroyed": name in destroyed, "outer": True})
    return walls, doors


def floor_json(state: GameState) -> dict[str, Any]:
    """The game's floor for drawing: every space on the mat's grid, its areas, edges and features."""
    floor = compile_floor(state.floor.text, state.floor.name)
    walls, doors = _edges(floor, state)
    surveilled = set(state.floor.surveillance)
    spaces = [{"id": floor.ids[i], "column": column, "row": row, "area": floor.area_of[i], "feature": floor.feature[i]}
              for i, (row, column) in enumerate(floor.coords)]
    areas = [{"index": a.index, "kind": a.kind, "name": a.name, "surveillance": a.surveillance,
              "surveilled": floor.ids[a.spaces[0]] in surveilled, "reserve": a.reserve,
              "spaces": [floor.ids[s] for s in a.spaces]} for a in floor.areas]
    features: dict[str, list[str]] = {}
    for i, feature in enumerate(floor.feature):
        if feature:
            features.setdefault(feature, []).append(floor.ids[i])
    terminal_spaces = features.get("terminal", []) + features.get("mainframe", [])
    return {
        "name": state.floor.name, "level": state.floor.level, "rows": floor.rows, "columns": floor.cols,
        "spaces": spaces, "areas": areas, "walls": walls, "doors": doors,
        "terminals": [{"space": s, "kind": state.floor.terminals.get(s, "mainframe" if s in features.get(
            "mainframe", []) else "standard"), "accessed": s not in state.floor.terminals}
            for s in sorted(terminal_spaces)],
        "caches": [{"space": s, "taken": s not in state.floor.caches} for s in features.get("cache", [])],
        "hiding_spots": features.get("hiding", []),
        "safe_zones": [floor.ids[s] for a in floor.areas if a.kind == "safe" for s in a.spaces],
        "posts": [{"space": s, "post": p, "text": text} for p, text in POSTS.items() for s in features.get(p, [])],
        "entrances": features.get("entrance", []),
        "sight": security_sight(state),
    }


@router.get("/floor", summary="The current game's floor for drawing: spaces, areas, walls, doors and features")
def floor(service: Service) -> dict[str, Any]:
    if not service.has_game():
        raise ApiError(404, "no_game", "GET /api/floor: there is no game yet, so no floor: start a new game")
    body = versioned(floor_json(service.state))
    body["number"] = service.number
    return body


def versioned(body: dict[str, Any]) -> dict[str, Any]:
    """The floor with its version: a digest of what is drawn, the same wherever it is made (this route, the live
    feed), so a page holding a floor knows from a change's `floor_version` whether it still holds this one."""
    return body | {"version": hashlib.blake2b(msgspec.json.encode(body), digest_size=8).hexdigest()}
