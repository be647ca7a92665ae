"""Reading the plain-text floor format (docs/floor-format.md).

A floor is drawn as a grid in which every other character is a space and the characters between them
are the edges (walls, openings, doors), so a hobbyist can draw it in any editor and read it back at a
glance. This module only turns text into a `FloorPlan` and reports mistakes with their line and
column; the geometry built on top of it lives in `floor.py`.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from typing import Literal

from controller.rules.errors import FloorError

# What a space character means. One feature per space keeps the drawing readable.
SPACE_FEATURES: dict[str, str | None] = {
    ".": None,
    "T": "terminal",
    "M": "mainframe",
    "C": "cache",
    "H": "hiding",
    "1": "post1",
    "2": "post2",
    "3": "post3",
    "*": "star",
    "A": "postA",
    "B": "postB",
    "K": "captain",
    "m": "module",
    "E": "entrance",
    "G": "ghost",
}
# each feature as people at the table call it (the floor editor's buttons, GET /api/options)
FEATURE_WORDS: dict[str, str] = {
    "terminal": "terminal", "mainframe": "mainframe", "cache": "cache", "hiding": "hiding spot",
    "post1": "post 1", "post2": "post 2", "post3": "post 3", "star": "star post", "postA": "room post A",
    "postB": "room post B", "captain": "captain", "module": "command module", "entrance": "entrance",
    "ghost": "ghost",
}
VOID = "#"
WALL_V, WALL_H, DOOR, OPEN = "|", "-", "D", " "
CORNERS = set("+-| ")
AREA_KINDS = ("room", "hallway", "outdoor", "safe")
ReserveKind = Literal["physical", "tech", "utility", "general"]
RESERVE_KINDS: tuple[ReserveKind, ...] = ("physical", "tech", "utility", "general")


def quoted(text: str, limit: int = 60) -> str:
    """A piece of the file, quoted in a message: a line of thousands of characters is cut, so the message
    stays one readable line."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


def column_name(col: int) -> str:
    """Spreadsheet-style column letters: 0 -> A, 25 -> Z, 26 -> AA."""
    name = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        name = chr(ord("A") + rem) + name
    return name


def space_name(row: int, col: int) -> str:
    return f"{column_name(col)}{row + 1}"


@dataclass
class AreaNote:
    """One line of the `areas:` section."""

    anchor: tuple[int, int]
    kind: str
    name: str
    surveillance: int
    reserve: ReserveKind | None
    line: int


@dataclass
class FloorPlan:
    """A floor as drawn: spaces, edges and area notes, before any geometry is derived."""

    source: str
    name: str
    level: int
    rows: int
    cols: int
    # (row, col) -> feature or None, only for real spaces (voids are absent)
    spaces: dict[tuple[int, int], str | None]
    # edge between (r, c) and its east / south neighbour -> "wall" | "open" | "door"
    east: dict[tuple[int, int], str]
    south: dict[tuple[int, int], str]
    areas: list[AreaNote]
    # where each space character stands in the file, for error messages: (line, column)
    where: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)

    def drawn(self) -> dict[str, object]:
        """The plan in the format's own characters, as a floor editor draws it: each row's space characters (VOID
        for none), each row's east and south edges ("wall", "door", "open") and the area notes by space name. The
        dashboard's floor editor reads floors through this (POST /api/floors/parse), never a parser of its own."""
        char = {feature: c for c, feature in SPACE_FEATURES.items()}
        return {
            "name": self.name, "level": self.level, "rows": self.rows, "cols": self.cols,
            "spaces": [[char[self.spaces[(r, c)]] if (r, c) in self.spaces else VOID for c in range(self.cols)]
                       for r in range(self.rows)],
            "east": [[self.east.get((r, c), "open") for c in range(self.cols - 1)] for r in range(self.rows)],
            "south": [[self.south.get((r, c), "open") for c in range(self.cols)] for r in range(self.rows - 1)],
            "areas": [{"space": space_name(*note.anchor), "kind": note.kind, "name": note.name,
                       "surveillance": note.surveillance, "reserve": note.reserve} for note in self.areas],
        }


# the widest and highest floor, in spaces: a mat of the game is about 20 by 16; compiling a floor precomputes its
# sight lines (spaces times the floor's side), so a floor of 200 by 200 would take seconds to check and
# hundreds of MB; this one compiles within a second even on a Pi
MAX_FLOOR_SIDE = 40
_KEY_RE = re.compile(r"^(name|level)\s*:\s*(.*)$")
_SPACE_RE = re.compile(r"^([A-Z]+)([0-9]+)$")


def parse_space(text: str) -> tuple[int, int] | None:
    """'C4' -> (3, 2) as (row, col); None when the text is not a space name."""
    m = _SPACE_RE.match(text)
    if not m:
        return None
    col = 0
    for ch in m.group(1):
        col = col * 26 + (ord(ch) - ord("A") + 1)
    row = int(m.group(2))
    if row < 1:
        return None
    return row - 1, col - 1


def parse_floor(text: str, source: str = "<floor>") -> FloorPlan:
    """Parse floor text; raise FloorError naming line and column of the first mistake."""
    # Notepad saves UTF-8 with a byte-order mark: an invisible character before the first line
    lines = text.removeprefix("\ufeff").splitlines()
    if not any(line.strip() for line in lines):
        raise FloorError(source, 1, 0, "the floor file is empty: a floor has 'name:' and 'level:' lines, a 'grid:' "
                                       "and an 'areas:' section (docs/floor-format.md)")
    name: str | None = None
    level: int | None = None
    grid_start = areas_start = None
    for i, raw in enumerate(lines):
        stripped = raw.strip()
        if grid_start is None:
            if not stripped or stripped.startswith("#"):
                continue
            if stripped == "grid:":
                grid_start = i + 1
                continue
            m = _KEY_RE.match(stripped)
            if not m:
                raise FloorError(source, i + 1, 1, f"expected 'name:', 'level:' or 'grid:', found {quoted(stripped)}")
            key, value = m.groups()
            if key == "name":
                name = value.strip()
            else:
                if value.strip() not in ("1", "2", "3"):
                    raise FloorError(source, i + 1, raw.index(":") + 2,
                                     f"level must be 1, 2 or 3, found {quoted(value.strip())}")
                level = int(value)
        elif stripped == "areas:":
            areas_start = i + 1
            break
    if grid_start is None:
        raise FloorError(source, len(lines), 0, "no 'grid:' section: a floor needs a drawn grid")
    if not name:
        raise FloorError(source, 1, 0, "no 'name:' line before the grid")
    if level is None:
        raise FloorError(source, 1, 0, "no 'level:' line before the grid (1, 2 or 3)")

    grid_end = (areas_start - 1) if areas_start is not None else len(lines)
    grid_lines = lines[grid_start:grid_end]
    while grid_lines and not grid_lines[-1].strip():
        grid_lines.pop()
    if len(grid_lines) < 3 or len(grid_lines) % 2 == 0:
        raise FloorError(source, grid_start + len(grid_lines), 0,
                         "the grid must have an odd number of lines (edge rows around space rows), at least 3")
    width = max(len(line.rstrip()) for line in grid_lines)
    if width < 3 or width % 2 == 0:
        raise FloorError(source, grid_start + 1, width,
                         "grid lines must be an odd number of characters wide (edges around spaces)")
    rows, cols = (len(grid_lines) - 1) // 2, (width - 1) // 2
    if max(rows, cols) > MAX_FLOOR_SIDE:
        raise FloorError(source, grid_start + 1, 0, f"the grid is {cols} spaces wide and {rows} high: a floor is at "
                                                    f"most {MAX_FLOOR_SIDE} by {MAX_FLOOR_SIDE} spaces "
                                                    f"(docs/floor-format.md)")

    def ch(gr: int, gc: int) -> str:
        line = grid_lines[gr]
        return line[gc] if gc < len(line) else " "

    def err(gr: int, gc: int, msg: str) -> FloorError:
        return FloorError(source, grid_start + gr + 1, gc + 1, msg)

    spaces: dict[tuple[int, int], str | None] = {}
    where: dict[tuple[int, int], tuple[int, int]] = {}
    for r in range(rows):
        for c in range(cols):
            gr, gc = 2 * r + 1, 2 * c + 1
            sc = ch(gr, gc)
            if sc == VOID:
                continue
            if sc == " ":
                sc = "."
            if sc not in SPACE_FEATURES:
                raise err(gr, gc, f"unknown space character {sc!r} at {space_name(r, c)}; "
                                  f"use one of {''.join(SPACE_FEATURES)} or {VOID} for no space")
            spaces[(r, c)] = SPACE_FEATURES[sc]
            where[(r, c)] = (grid_start + gr + 1, gc + 1)
    for gr in range(0, 2 * rows + 1, 2):
        for gc in range(0, 2 * cols + 1, 2):
            if ch(gr, gc) not in CORNERS:
                raise err(gr, gc, f"unexpected {ch(gr, gc)!r} at a wall corner; corners are '+'")

    def edge(gr: int, gc: int, a: tuple[int, int], b: tuple[int, int] | None, wall: str) -> str | None:
        e = ch(gr, gc)
        kinds = {wall: "wall", OPEN: "open", DOOR: "door"}
        if e not in kinds:
            raise err(gr, gc, f"unexpected {e!r} on an edge; use {wall!r} for a wall, {DOOR!r} for a door "
                              f"or a blank for an opening")
        kind = kinds[e]
        a_in, b_in = a in spaces, b is not None and b in spaces
        if not a_in and not b_in:
            return None
        if a_in != b_in:
            inner = a if a_in or b is None else b
            # ">> Exterior-facing door arrows are ignored.": a door drawn on the outer edge is a wall
            if kind == "open":
                raise err(gr, gc, f"an opening on the outer edge of {space_name(*inner)}: "
                                  f"the edge of the floor must be a wall")
            return None
        return kind

    east: dict[tuple[int, int], str] = {}
    south: dict[tuple[int, int], str] = {}
    for r in range(rows):
        # west border and edges between columns
        for c in range(-1, cols):
            gr, gc = 2 * r + 1, 2 * c + 2
            a, b = (r, c), ((r, c + 1) if c + 1 < cols else None)
            if c == -1:
                a, b = (r, 0), None
            kind = edge(gr, gc, a, b, WALL_V)
            if kind is not None:
                east[(r, c)] = kind
    for r in range(-1, rows):
        for c in range(cols):
            gr, gc = 2 * r + 2, 2 * c + 1
            a, b = (r, c), ((r + 1, c) if r + 1 < rows else None)
            if r == -1:
                a, b = (0, c), None
            kind = edge(gr, gc, a, b, WALL_H)
            if kind is not None:
                south[(r, c)] = kind

    if not spaces:
        raise FloorError(source, grid_start + 1, 0, "the grid has no spaces")
    notes = _parse_areas(lines, areas_start, source, spaces)
    return FloorPlan(source=text, name=name, level=level, rows=rows, cols=cols, spaces=spaces,
                     east=east, south=south, areas=notes, where=where)


def _parse_areas(lines: list[str], start: int | None, source: str,
                 spaces: dict[tuple[int, int], str | None]) -> list[AreaNote]:
    if start is None:
        raise FloorError(source, len(lines), 0, "no 'areas:' section: every room, hallway, outdoor segment "
                                                "and safe zone must be named there")
    notes: list[AreaNote] = []
    for i in range(start, len(lines)):
        raw = lines[i]
        stripped = raw.split("#", 1)[0].strip() if not raw.strip().startswith('"') else raw.strip()
        if not stripped:
            continue
        col = len(raw) - len(raw.lstrip()) + 1
        try:
            words = shlex.split(stripped)
        except ValueError as e:
            raise FloorError(source, i + 1, col, f"cannot read this area line: {e}") from None
        if len(words) < 2:
            raise FloorError(source, i + 1, col,
                             "an area line is 'SPACE KIND [\"name\"] [surveillance=N] [reserve=KIND]'")
        anchor = parse_space(words[0])
        if anchor is None or anchor not in spaces:
            raise FloorError(source, i + 1, col, f"{quoted(words[0])} is not a space of this floor")
        kind = words[1]
        if kind not in AREA_KINDS:
            raise FloorError(source, i + 1, col + len(words[0]) + 1,
                             f"unknown area kind {quoted(kind)}; use one of {', '.join(AREA_KINDS)}")
        name, surveillance, reserve = "", 0, None
        for w in words[2:]:
            if "=" not in w:
                name = w
                continue
            key, value = w.split("=", 1)
            if key == "surveillance":
                if value not in ("0", "1", "2"):
                    raise FloorError(source, i + 1, col + raw.strip().find(w),
                                     f"surveillance must be 0, 1 or 2 dice, found {quoted(value)}")
                surveillance = int(value)
            elif key == "reserve":
                if value not in RESERVE_KINDS:
                    raise FloorError(source, i + 1, col + raw.strip().find(w),
                                     f"reserve must be one of {', '.join(RESERVE_KINDS)}, found {quoted(value)}")
                reserve = next(k for k in RESERVE_KINDS if k == value)
            else:
                raise FloorError(source, i + 1, col + raw.strip().find(w), f"unknown area setting {quoted(key)}")
        if surveillance and kind != "room":
            raise FloorError(source, i + 1, col, f"only rooms hold surveillance beads, but {words[0]} is a {kind}")
        notes.append(AreaNote(anchor, kind, name, surveillance, reserve, i + 1))
    return notes
