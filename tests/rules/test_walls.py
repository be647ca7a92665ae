"""Rulebook "Walls & Destroyed Walls": what a wall stops, for bots and for security units.

Every test quotes the sentence it checks.
"""

from __future__ import annotations

from controller.rules.actions import Move, Step, Strike
from controller.rules.board.awareness import sight
from controller.rules.state import DicePool
from tests.support.rules_scenarios import bot, floor_of, floor_text, guard, make_state, module
from tests.support.turn_scenarios import act, chips, illegal, in_turn

# A hallway (A-B) beside an outdoor strip (C), and a second outdoor strip (D) across a wall line.
WALLED = floor_text("""
+-+-+-+-+
|. .|.|.|
+ + + + +
|E .|.|.|
+-+-+-+-+
""", """
A1 hallway "Hall"
C1 outdoor "Yard one"
D1 outdoor "Yard two"
""")


def test_mat_edges_room_borders_and_outdoor_lines_are_walls():
    """"Outer mat edges, room borders, and lines separating outdoor spaces are walls that block sight,
    movement, and adjacency." (a guard on C1 facing east sees nothing of Yard two across the line, nor west
    into the hall; Byte on B1 cannot step to C1 nor strike the guard through the wall; nothing lies past the
    mat edge)"""
    f = floor_of(WALLED)
    c1 = f.space("C1")
    seen_east = {f.ids[i] for i in sight(f, c1, "E", 4, "straight")}
    seen_west = {f.ids[i] for i in sight(f, c1, "W", 4, "straight")}
    assert "D1" not in seen_east and "B1" not in seen_west
    assert all(f.ids[j] != "D1" for _, j in f.security_neighbours(c1, frozenset()))
    s = make_state(WALLED, bots=[bot("byte", "B1"), module("A2")], units=[guard("G1", "C1", "S", awareness=0)],
                   slots=chips("general", "general"))
    s = in_turn(s)
    illegal(s, Strike(bot="byte", unit="G1", dice=DicePool(basic=5)), "not adjacent")
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    illegal(s, Step(bot="byte", to="C1"), "wall")
    a1 = f.space("A1")
    assert sorted(f.ids[j] for _, j in f.bot_neighbours(a1, frozenset(), frozenset())) == ["A2", "B1"]
