"""Rulebook "Striking Walls": exterior walls, and door arrows on the outer edge.

An exterior wall is named by the striking bot's space and a side (`strike_wall` with `side`), and recorded
as 'A1/N' among the destroyed walls. Every test quotes the sentence it checks.
"""

from __future__ import annotations

import pytest

from controller.rules import StateError, check_state
from controller.rules.actions import Move, Step, StrikeWall, legal_actions
from controller.rules.phrasing import phrase
from controller.rules.state import DicePool
from tests.support.rules_scenarios import bot, floor_text, make_state, module, of_type
from tests.support.turn_scenarios import act, chips, illegal, in_turn

TEN = ["2"] * 5  # five basic dice showing 2: 10 AP, a wall's durability


def corner(destroyed=None, **kw):
    """Byte in the top-left corner (A1) of the open 6 x 5 hallway, the module on B2."""
    s = make_state(bots=[bot("byte", "A1"), module("B2")], slots=chips("general", "general", "general"),
                   destroyed=destroyed, **kw)
    return in_turn(s)


def test_an_exterior_wall_can_be_attacked_and_its_opening_leads_nowhere():
    """">> Exterior walls can be attacked, but openings lead nowhere unless granted a specific rule by the
    mission card." (Byte breaks the wall north of A1: a destroyed wall chip goes on it and Byte is detected,
    but there is no free move through it, and A1 gains no neighbour)"""
    s, events = act(corner(), StrikeWall(bot="byte", side="N", dice=DicePool(basic=5)), TEN)
    assert s.floor.destroyed_walls == ["A1/N"]
    destroyed = of_type(events, "wall_destroyed")
    assert [e.wall for e in destroyed] == ["A1/N"]
    assert phrase(destroyed[0], s) == ("Place a destroyed wall chip on the exterior wall north of A1 (the "
                                          "opening leads nowhere).")
    byte = s.bot("byte")
    assert byte.space == "A1" and byte.detected
    assert of_type(events, "bot_moved") == []


def test_a_failed_strike_on_an_exterior_wall_changes_nothing():
    """">> Exterior walls can be attacked" ("Failure: No chip is placed and the bot remains undetected.")"""
    s, _ = act(corner(), StrikeWall(bot="byte", side="W", dice=DicePool(basic=2)), ["2", "2"])
    assert s.floor.destroyed_walls == [] and not s.bot("byte").detected
    assert s.burncycle.tracker == 1  # the strike action was spent


def test_exterior_walls_count_toward_the_three_per_floor():
    """">> Exterior walls can be attacked" with ">> Maximum limit: Only 3 walls can be destroyed per floor."
    (two exterior walls broken elsewhere, the third north of A1, then no fourth; three walls broken inside a
    row of rooms leave no exterior wall to break)"""
    s, _ = act(corner(destroyed=["C1/N", "F5/S"]), StrikeWall(bot="byte", side="N", dice=DicePool(basic=5)),
               TEN)
    assert len(s.floor.destroyed_walls) == 3
    s.turn.pool = DicePool(basic=5)
    illegal(s, StrikeWall(bot="byte", side="W", dice=DicePool(basic=5)), "only 3 walls can be destroyed")
    walled = floor_text("""
    +-+-+-+-+-+
    |E|.|.|.|.|
    +-+-+-+-+-+
    """, "A1 hallway\nB1 room\nC1 room\nD1 room\nE1 room")
    full = in_turn(make_state(walled, bots=[bot("byte", "A1")], slots=chips("general"),
                              destroyed=["B1/C1", "C1/D1", "D1/E1"]))
    illegal(full, StrikeWall(bot="byte", side="N", dice=DicePool(basic=5)), "only 3 walls can be destroyed")


def test_an_exterior_wall_is_destroyed_once():
    """">> Exterior walls can be attacked" (a destroyed one is no longer there to strike)"""
    illegal(corner(destroyed=["A1/N"]), StrikeWall(bot="byte", side="N", dice=DicePool(basic=5)),
            "already destroyed")


def test_the_wall_is_named_once():
    """"A bot adjacent to a wall may attempt to destroy it with a strike action" (by the space beyond it or by
    the side it is on, not both and not neither; a side with a space there names the wall to that space)"""
    illegal(corner(), StrikeWall(bot="byte", dice=DicePool(basic=5)), "name the wall")
    illegal(corner(), StrikeWall(bot="byte", beyond="B1", side="N", dice=DicePool(basic=5)), "name the wall")
    illegal(corner(), StrikeWall(bot="byte", side="E", dice=DicePool(basic=5)), "no wall stands between A1 and B1")
    walled = floor_text("""
    +-+-+
    |E|.|
    +-+-+
    """, "A1 hallway\nB1 room")
    s = in_turn(make_state(walled, bots=[bot("byte", "A1")], slots=chips("general")))
    s, _ = act(s, StrikeWall(bot="byte", side="E", dice=DicePool(basic=5)), TEN)
    assert s.floor.destroyed_walls == ["A1/B1"] and s.bot("byte").space == "B1"


def test_a_destroyed_exterior_wall_opens_no_way():
    """">> Exterior walls can be attacked, but openings lead nowhere unless granted a specific rule by the
    mission card." (after the strike, a move action still offers only the spaces inside the floor)"""
    s = corner(destroyed=["A1/N", "A1/W"])
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    steps = {la.action.to for la in legal_actions(s) if isinstance(la.action, Step) and la.action.bot == "byte"}
    assert steps == {"B1", "A2"}


def test_legal_actions_list_the_exterior_walls():
    """">> Exterior walls can be attacked" (Byte in the corner may strike the north and the west exterior
    walls; each listed strike applies; a destroyed one is no longer listed)"""
    s = corner(destroyed=["A1/W"])
    listed = [la.action for la in legal_actions(s) if isinstance(la.action, StrikeWall) and la.action.bot == "byte"]
    assert [a.side for a in listed] == ["N"]
    for a in listed:
        a.dice = DicePool(basic=5)
        act(s, a, TEN)


def test_an_exterior_wall_is_a_valid_destroyed_wall_and_a_made_up_one_is_not():
    """">> Exterior walls can be attacked" (a state may record 'A1/N'; 'B2/N' is no exterior wall: B1 lies
    north of B2)"""
    check_state(make_state(destroyed=["A1/N", "F5/S"]))
    s = make_state()
    s.floor.destroyed_walls = ["B2/N"]
    with pytest.raises(StateError, match="nor an exterior wall"):
        check_state(s)
