"""Rulebook "Area & Adjacency": one scenario per sentence (and per ">>" clarification)."""

from __future__ import annotations

import pytest

from controller.rules.board.paths import adjacent_spaces
from controller.rules.errors import FloorError
from controller.rules.state import RuleOptions
from tests.support.rules_scenarios import bot, floor_of, floor_text, guard, make_state, moves_of, of_type, table, turn

# Rows 1-2: a room (A-B), the main hallway (C-E, continuing down D-E of rows 3-4) and a safe zone (F-G).
# Rows 3-4: a second hallway segment (A-C) cut off from the main one by walls, and two outdoor strips
# (F, G) separated by a wall line. Doors: B2/C2 room-hallway, E2/F2 hallway-safe zone, B2/B3 room-annex.
AREAS = floor_text("""
+-+-+-+-+-+-+-+
|. .|. . .|. .|
+ + + + + + + +
|. .D. . .D. .|
+-+D+-+ +-+-+-+
|. . .|. .|.|.|
+ + + + + + + +
|E . .|. .|.|.|
+-+-+-+-+-+-+-+
""", """
A1 room "West room"
C1 hallway "Main hallway"
F1 safe "Safe zone"
A3 hallway "Annex"
F3 outdoor "Yard one"
G3 outdoor "Yard two"
""")

NOTHING = frozenset()


def area_names(floor, *spaces):
    return [floor.area(floor.space(s)).name for s in spaces]


def names(floor, steps):
    return sorted(floor.ids[j] for _, j in steps)


# -- Area ------------------------------------------------------------------------------------------
def test_area_is_contiguous_group_bounded_by_walls_doors_and_edges():
    """"An area is any contiguous group of spaces bounded by walls, closed doors, or mat edges.\""""
    f = floor_of(AREAS)
    main = f.area(f.space("C1"))
    assert sorted(f.ids[i] for i in main.spaces) == sorted(
        ["C1", "D1", "E1", "C2", "D2", "E2", "D3", "E3", "D4", "E4"])
    # the door B2/C2 bounds the room from the hallway; the wall C3/D3 bounds the annex
    assert f.area_of[f.space("B2")] != f.area_of[f.space("C2")]
    assert f.area_of[f.space("C3")] != f.area_of[f.space("D3")]
    assert len(f.areas) == 6


def test_each_room_is_a_distinct_area():
    """"Each room is a distinct area.\""""
    text = floor_text("""
    +-+-+-+-+-+
    |. .|. . .|
    + + + + + +
    |. .D. . .|
    +-+D+-+-+-+
    |E . . . .|
    +-+-+-+-+-+
    """, """
    A1 room "Room one"
    C1 room "Room two"
    A3 hallway "Hall"
    """)
    f = floor_of(text)
    one, two = f.area(f.space("A1")), f.area(f.space("C1"))
    assert one.kind == two.kind == "room" and one.index != two.index
    assert f.area(f.space("B2")).name == "Room one" and f.area(f.space("C2")).name == "Room two"


def test_rooms_joined_by_an_opening_cannot_be_named_as_two_areas():
    """"Each room is a distinct area.": two rooms drawn without a wall or door between them are one
    contiguous group, so the floor file may not name them as two rooms (the error names the line)."""
    text = floor_text("""
    +-+-+-+-+
    |. . . .|
    +-+D+-+-+
    |E . . .|
    +-+-+-+-+
    """, """
    A1 room "Room one"
    D1 room "Room two"
    A2 hallway "Hall"
    """)
    with pytest.raises(FloorError) as err:
        floor_of(text)
    assert "same area" in err.value.message
    assert err.value.line == 13  # the line naming D1


def test_all_connected_hallway_spaces_form_one_area():
    """"All connected hallway spaces form an area\" (around corners too)."""
    f = floor_of(AREAS)
    assert len(set(area_names(f, "C1", "E2", "D3", "E4"))) == 1
    assert f.area(f.space("D4")).kind == "hallway"


def test_segmented_hallways_are_separate_areas():
    """"segmented hallways or disconnected outdoor spaces count as separate areas.\" (hallways)"""
    f = floor_of(AREAS)
    annex, main = f.area(f.space("A3")), f.area(f.space("D3"))
    assert annex.kind == main.kind == "hallway"
    assert annex.index != main.index


def test_disconnected_outdoor_spaces_are_separate_areas():
    """"segmented hallways or disconnected outdoor spaces count as separate areas.\" (outdoor)"""
    f = floor_of(AREAS)
    one, two = f.area(f.space("F3")), f.area(f.space("G3"))
    assert one.kind == two.kind == "outdoor"
    assert one.index != two.index
    assert area_names(f, "F3", "F4") == ["Yard one", "Yard one"]


def test_safe_zones_are_distinct_rooms_and_separate_areas():
    """"Safe zones are distinct rooms and separate areas.\""""
    f = floor_of(AREAS)
    safe = f.area(f.space("F1"))
    assert safe.kind == "safe" and safe.is_room
    assert f.in_safe_zone(f.space("G2")) and not f.in_safe_zone(f.space("E2"))
    assert safe.index not in (f.area_of[f.space("E2")], f.area_of[f.space("A1")])


def test_every_area_must_be_named():
    """Each area (room, hallway, outdoor segment, safe zone) is named in the floor file: an unnamed
    contiguous group is an error that names its first space's line and column."""
    text = floor_text("""
    +-+-+-+
    |E .|.|
    +-+-+-+
    """, "A1 hallway")
    with pytest.raises(FloorError) as err:
        floor_of(text)
    assert "C1" in err.value.message and "not named" in err.value.message
    assert (err.value.line, err.value.column) == (6, 6)


# -- Adjacency -------------------------------------------------------------------------------------
def test_adjacency_is_orthogonal_never_diagonal():
    """"Adjacency applies strictly orthogonally (never diagonally) between spaces sharing an edge\""""
    f = floor_of(AREAS)
    d1 = f.space("D1")
    assert names(f, f.bot_neighbours(d1, NOTHING, NOTHING)) == ["C1", "D2", "E1"]
    d2 = f.space("D2")
    sec = names(f, f.security_neighbours(d2, NOTHING))
    assert sec == ["C2", "D1", "D3", "E2"]
    for diagonal in ("C1", "E1", "C3", "E3"):
        assert diagonal not in names(f, f.bot_neighbours(d2, NOTHING, NOTHING))


def test_guard_attacks_orthogonally_adjacent_bot_but_not_diagonal():
    """"Adjacency applies strictly orthogonally (never diagonally)": a guard diagonal to a detected bot
    moves to an orthogonal neighbour before it attacks (the diamond peripheral reading lets it see the
    diagonal space)."""
    s = make_state(bots=[bot("byte", "C3", detected=True)],
                   units=[guard("G1", "B2", "E", awareness=4, movement=2, patrol="pace")],
                   rules=RuleOptions(peripheral="diamond"))
    t = table(s)
    assert t.floor.space("B2") not in adjacent_spaces(t, t.floor.space("C3"))
    new, events = turn(s)
    assert len(moves_of(events, "G1")) == 1
    assert new.unit("G1").space in ("C2", "B3")
    assert of_type(events, "attacked")[0].damage == 1


def test_walls_block_adjacency():
    """"Walls block adjacency.\" (for bots and for security units)"""
    f = floor_of(AREAS)
    c3 = f.space("C3")
    assert "D3" not in names(f, f.bot_neighbours(c3, NOTHING, NOTHING))
    assert "D3" not in names(f, f.security_neighbours(c3, NOTHING))
    f3 = f.space("F3")  # the line between the two outdoor strips is a wall
    assert "G3" not in names(f, f.security_neighbours(f3, NOTHING))


def test_unlocked_doors_do_not_block_adjacency():
    """"Unlocked doors and destroyed walls do not block adjacency.\" (unlocked doors)"""
    f = floor_of(AREAS)
    b2 = f.space("B2")
    assert "C2" in names(f, f.bot_neighbours(b2, frozenset({"B2/C2"}), NOTHING))
    assert "C2" in names(f, f.security_neighbours(b2, NOTHING))


def test_destroyed_walls_do_not_block_adjacency():
    """"Unlocked doors and destroyed walls do not block adjacency.\" (destroyed walls)"""
    f = floor_of(AREAS)
    c3 = f.space("C3")
    destroyed = frozenset({"C3/D3"})
    assert "D3" in names(f, f.bot_neighbours(c3, NOTHING, destroyed))
    assert "D3" in names(f, f.security_neighbours(c3, destroyed))
    assert "C4" not in names(f, f.bot_neighbours(f.space("D4"), NOTHING, destroyed))


def test_guard_walks_through_a_destroyed_wall():
    """"Destroyed walls function as unlocked doors": a guard's path crosses a destroyed wall."""
    s = make_state(AREAS, bots=[bot("byte", "E1", awareness="C3")],
                   units=[guard("G1", "D3", "N", awareness=1, movement=1)], destroyed=["C3/D3"])
    new, events = turn(s)
    assert moves_of(events, "G1")[0].path == ["D3", "C3"]
    assert new.bot("byte").awareness is None


def test_locked_doors_block_bot_adjacency():
    """"Bots: Locked doors block bot adjacency.\""""
    f = floor_of(AREAS)
    b2 = f.space("B2")
    assert names(f, f.bot_neighbours(b2, NOTHING, NOTHING)) == ["A2", "B1"]
    assert "C2" not in names(f, f.bot_neighbours(b2, frozenset({"B2/B3"}), NOTHING))


def test_locked_doors_do_not_block_security_unit_adjacency():
    """"Security Units: Locked doors DO NOT block security unit adjacency, as guards can traverse locked
    doors.\""""
    f = floor_of(AREAS)
    b2 = f.space("B2")
    assert names(f, f.security_neighbours(b2, NOTHING)) == ["A2", "B1", "B3", "C2"]


# A ring hallway around a room with two locked doors: through the room is 2 steps, around it 6.
RING = floor_text("""
+-+-+-+-+-+
|. . . . .|
+ +-+D+-+ +
|.|. . .|.|
+ +-+D+-+ +
|E . . . .|
+-+-+-+-+-+
""", """
A1 hallway "Ring"
B2 room "Core room"
""")


def test_guard_moves_through_locked_doors_during_corporation_turn():
    """"Bots cannot pass through locked doors, while guards can.": investigating, a guard takes the
    shortest path through two locked doors."""
    s = make_state(RING, bots=[bot("byte", "E2", awareness="C3")],
                   units=[guard("G1", "C1", "W", awareness=1, movement=2)])
    new, events = turn(s)
    assert moves_of(events, "G1")[0].path == ["C1", "C2", "C3"]
    assert new.unit("G1").space == "C3"
    assert new.floor.unlocked_doors == []  # the doors stay locked


def test_targeted_abilities_judge_adjacency_from_the_acting_unit():
    """"Targeted Abilities: Adjacency is evaluated from the perspective of the acting unit (e.g., a
    Walker's Drain affects a bot through a locked door).\": for a security unit, a space across a locked
    door is adjacent; for a bot it is not."""
    s = make_state(RING, bots=[bot("byte", "C1")], units=[guard("G1", "C2", "N")])
    t = table(s)
    c1, c2 = t.floor.space("C1"), t.floor.space("C2")
    assert c2 in adjacent_spaces(t, c1)  # the guard acts: adjacent through the locked door
    assert c2 not in [j for _, j in t.floor.bot_neighbours(c1, t.unlocked, t.destroyed)]  # the bot acts: not


def test_bot_adjacent_through_closed_door_remains_undetected():
    """">> Security units only detect bots within their current area; a bot adjacent through a closed door
    or destroyed wall remains undetected unless spotted directly.\" (a closed door, locked or unlocked)"""
    for unlocked in ([], ["B2/C2"]):
        s = make_state(AREAS, bots=[bot("byte", "B2")],
                       units=[guard("G1", "C2", "W", awareness=6)], unlocked=unlocked)
        new, events = turn(s)
        assert not new.bot("byte").detected, unlocked
        assert of_type(events, "bot_detected") == []


def test_bot_adjacent_through_destroyed_wall_remains_undetected():
    """">> ... a bot adjacent through a closed door or destroyed wall remains undetected unless spotted
    directly.\" (a destroyed wall)"""
    s = make_state(AREAS, bots=[bot("byte", "C3")], units=[guard("G1", "D3", "W", awareness=6)],
                   destroyed=["C3/D3"])
    new, _ = turn(s)
    assert not new.bot("byte").detected


def test_security_units_only_detect_bots_within_their_area():
    """">> Security units only detect bots within their current area": the same guard spots a bot in its
    own area straight ahead."""
    s = make_state(AREAS, bots=[bot("byte", "D2")], units=[guard("G1", "D4", "N", awareness=3)])
    new, events = turn(s)
    assert new.bot("byte").detected
    assert of_type(events, "bot_detected")[0].unit == "G1"
