"""The floor text format's errors: each names the file, the line and the column, and what is wrong."""

from __future__ import annotations

import pytest

from controller.rules.board.geometry import compile_floor
from controller.rules.errors import FloorError
from tests.support.rules_scenarios import floor_text

GOOD = """
+-+-+-+
|E . .|
+-+D+-+
|. . .|
+-+-+-+
"""
# floor_text puts the grid's first line on file line 5 ("name", "level", blank, "grid:")
GRID_LINE = 5


def parse(text):
    return compile_floor(text, "bad.floor")


def error_of(text) -> FloorError:
    with pytest.raises(FloorError) as err:
        parse(text)
    return err.value


def test_good_floor_parses():
    f = parse(floor_text(GOOD, "A1 hallway\nA2 room"))
    assert f.ids == ["A1", "B1", "C1", "A2", "B2", "C2"] and len(f.areas) == 2


def test_door_on_outer_edge_is_ignored():
    """">> Exterior-facing door arrows are ignored." (a door drawn on the outer edge of A1 is read as the wall
    it stands in: A1 has no neighbour to the west, and its west side is an exterior wall)"""
    f = parse(floor_text("""
    +-+-+-+
    DE . .|
    +-+D+-+
    |. . .|
    +-+-+-+
    """, "A1 hallway\nA2 room"))
    a1 = f.space("A1")
    assert "W" not in f.neighbour[a1] and "A1/W" in f.exterior_walls
    assert f.doors == ("B1/B2",)


def test_door_on_outer_edge_next_to_void_is_ignored():
    """">> Exterior-facing door arrows are ignored." (a door between a space and a void (#) is on the floor's
    outer edge too: B1's east side is an exterior wall)"""
    f = parse(floor_text("""
    +-+-+-+
    |E .D#|
    +-+-+-+
    """, "A1 hallway"))
    assert f.ids == ["A1", "B1"] and "B1/E" in f.exterior_walls and f.doors == ()


def test_opening_on_outer_edge():
    """The edge of the floor must be a wall: an opening there names its place."""
    e = error_of(floor_text("""
    +-+ +-+
    |E . .|
    +-+-+-+
    """, "A1 hallway"))
    assert (e.line, e.column) == (GRID_LINE, 4)
    assert "opening on the outer edge of B1" in e.message


def test_unknown_space_character():
    """An unknown character on a space: named with the space and the characters allowed."""
    e = error_of(floor_text("""
    +-+-+-+
    |E . Q|
    +-+-+-+
    """, "A1 hallway"))
    assert (e.line, e.column) == (GRID_LINE + 1, 6)
    assert "unknown space character 'Q' at C1" in e.message


def test_unknown_edge_character():
    """An unknown character on an edge."""
    e = error_of(floor_text("""
    +-+-+-+
    |EX. .|
    +-+-+-+
    """, "A1 hallway"))
    assert (e.line, e.column) == (GRID_LINE + 1, 3)
    assert "unexpected 'X' on an edge" in e.message


def test_bad_corner_character():
    e = error_of(floor_text("""
    +-+-+-+
    |E . .|
    +-*-+-+
    """, "A1 hallway"))
    assert (e.line, e.column) == (GRID_LINE + 2, 3)
    assert "corner" in e.message


def test_unnamed_area():
    """Every area must be named in `areas:`: the error points at the area's first space."""
    e = error_of(floor_text(GOOD, "A1 hallway"))
    assert (e.line, e.column) == (GRID_LINE + 3, 2)
    assert "area containing A2" in e.message and "not named" in e.message


def test_malformed_header_line():
    """A malformed line before the grid."""
    text = "name: Bad\nlevle: 1\ngrid:\n" + GOOD.strip() + "\nareas:\n  A1 hallway\n  A2 room\n"
    e = error_of(text)
    assert (e.line, e.column) == (2, 1)
    assert "expected 'name:', 'level:' or 'grid:'" in e.message


def test_malformed_level():
    text = "name: Bad\nlevel: 4\ngrid:\n" + GOOD.strip() + "\nareas:\n  A1 hallway\n  A2 room\n"
    e = error_of(text)
    assert e.line == 2 and "level must be 1, 2 or 3" in e.message


def test_malformed_area_line():
    """A malformed line in `areas:`."""
    e = error_of(floor_text(GOOD, "A1\nA2 room"))
    assert e.line == GRID_LINE + 7 and e.column == 3
    assert "an area line is" in e.message


def test_area_line_with_unknown_kind_and_space():
    e = error_of(floor_text(GOOD, "A1 hallway\nA2 kitchen"))
    assert e.line == GRID_LINE + 8 and "unknown area kind 'kitchen'" in e.message
    e = error_of(floor_text(GOOD, "A1 hallway\nZ9 room"))
    assert e.line == GRID_LINE + 8 and "'Z9' is not a space of this floor" in e.message


def test_grid_with_even_number_of_lines():
    """Malformed grid: edge rows must surround space rows."""
    text = "name: Bad\nlevel: 1\ngrid:\n+-+-+\n|E .|\nareas:\n  A1 hallway\n"
    e = error_of(text)
    assert "odd number of lines" in e.message and e.line == 5


def test_missing_sections():
    e = error_of("name: Bad\nlevel: 1\n")
    assert "no 'grid:' section" in e.message
    e = error_of("name: Bad\nlevel: 1\ngrid:\n" + GOOD.strip() + "\n")
    assert "no 'areas:' section" in e.message


def test_hallway_post_in_a_room():
    """"Hallway Posts (1-3)\" must stand in hallways (or outdoors): one in a room is an error."""
    e = error_of(floor_text("""
    +-+-+-+
    |E . .|
    +-+D+-+
    |. 1 .|
    +-+-+-+
    """, "A1 hallway\nA2 room"))
    assert (e.line, e.column) == (GRID_LINE + 3, 4)
    assert "hallway post at B2 stands in a room" in e.message


def test_floor_without_entrance():
    e = error_of(floor_text("""
    +-+-+
    |. .|
    +-+-+
    """, "A1 hallway"))
    assert "no entrance" in e.message
