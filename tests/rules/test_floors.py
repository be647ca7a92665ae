"""Changing floors and escaping, each test quoting the rulebook ("Changing Floors", "Escape")."""

from __future__ import annotations

import pytest

from controller.library import floor_text as floor_text_of
from controller.rules import GameSetup, new_game
from controller.rules.actions import CorporationTurn, EndTurn, Escape, Move, Step, legal_actions
from controller.rules.errors import RulesError
from controller.rules.state import DicePool, Drone, LaterFloor, Mission, MissionFloor, Objective
from tests.support.rules_scenarios import CONTENT, bot, floor_text, guard, make_state, module, of_type
from tests.support.turn_scenarios import act, chips, illegal, in_turn

# Floor 1: a hallway over a safe zone (the stairwell) behind the door C2/C3.
LOWER = floor_text("""
+-+-+-+-+-+
|E . . . .|
+ + + + + +
|. . . . .|
+-+-+D+-+-+
|. . . . .|
+-+-+-+-+-+
""", """
A1 hallway "Hall"
A3 safe "Stairs"
""")

# Floor 2 (level 2): the stairwell on top, its door B1/B2, entrances in the hallway.
UPPER = floor_text("""
+-+-+-+-+-+
|. . . . .|
+-+D+-+-+-+
|. . E E .|
+ + + + + +
|. . . . .|
+-+-+-+-+-+
""", """
A1 safe "Stairs"
A2 hallway "Upper hall"
""", level=2, name="Upper floor")

CLIMB = Mission(id="climb", name="Climb", floors=2, floor_plan=[
    MissionFloor(objectives=[Objective(text="Any bots: access 1 terminal.", qualifier="any", task="terminals:1")]),
    MissionFloor(floor="upper")],
    calibrations=[], win=[Objective(text="Each bot: escape.", qualifier="each", task="escape")])


def climbing(bots, units=(), progress=None, unlocked=("C2/C3",), order=None):
    s = make_state(LOWER, bots=list(bots), units=list(units), players=len(order or ["byte"]),
                   slots=chips("general", "general", "general"), unlocked=list(unlocked),
                   later_floors=[LaterFloor(name="upper.floor", text=UPPER)],
                   progress=progress if progress is not None else {"terminals:byte": 1})
    s.mission = CLIMB
    return in_turn(s, step="end", order=order)


def test_all_bots_in_safe_zones_with_objectives_done_change_floors():
    """"Advancing to the next floor requires completing all floor objectives and assembling all bots
    simultaneously in safe zones at the end of a turn" ... "Set up the new floor according to the floorplan
    book, placing returning units in corresponding safe zones.\""""
    s = climbing([bot("byte", "B3"), module("D3")])
    new, events = act(s, EndTurn(), ["1"])
    assert new.floor.name == "Upper floor" and new.floor.level == 2
    assert (new.floor_number, new.later_floors) == (2, [])
    # the same place inside the stairwell: B3 is the 2nd space of the zone's row, so is B1
    assert (new.bot("byte").space, new.bot("module").space) == ("B1", "D1")
    assert of_type(events, "floor_changed")[0].kept == {"byte": "B1", "module": "D1"}


def test_unlocked_safe_zone_doors_stay_unlocked_and_the_rest_is_cleared():
    """"Record unlocked safe zone doors (they remain unlocked on the next floor) and bot/guard locations inside
    safe zones." "Remove all other board components and reset awareness chips.\""""
    s = climbing([bot("byte", "B3", detected=True), module("C3")],
                 units=[guard("G1", "E3", facing="E", awareness=1), guard("G2", "A1")])
    bag = len(s.guard_bag)
    new, _ = act(s, EndTurn(), ["1"])
    assert new.floor.unlocked_doors == ["B1/B2"]
    assert [(u.id, u.space) for u in new.security] == [("G1", "E1")]  # the guard in the stairwell comes along
    assert len(new.guard_bag) == bag + 1  # the hallway guard's chip goes back in the bag
    assert all(b.awareness is None for b in new.bots)


# Floor 2 of two rows: no space of it is named E3.
LOW_CEILING = floor_text("""
+-+-+-+-+-+
|. . . . .|
+-+D+-+-+-+
|. . E E .|
+-+-+-+-+-+
""", """
A1 safe "Stairs"
A2 hallway "Upper hall"
""", level=2, name="Low floor")


def test_a_guard_kept_in_the_stairwell_comes_along_when_the_new_floor_has_no_space_of_its_old_name():
    """"Record ... bot/guard locations inside safe zones." "Set up the new floor according to the floorplan
    book, placing returning units in corresponding safe zones." The guard on E3 below stands on E1 above, a
    floor on which no space is named E3."""
    s = climbing([bot("byte", "B3"), module("C3")], units=[guard("G1", "E3", facing="E", awareness=1)])
    s.later_floors = [LaterFloor(name="low.floor", text=LOW_CEILING)]
    new, _ = act(s, EndTurn(), ["1"])
    assert new.floor.name == "Low floor"
    assert [(u.id, u.space) for u in new.security if u.id == "G1"] == [("G1", "E1")]


def test_turn_order_resets_after_the_final_turn():
    """"Assign the corporation marker to the player who took the final turn. Turn order resets so the player to
    their left becomes first player.\""""
    s = climbing([bot("byte", "B3"), bot("casing", "C3"), module("D3")], order=["byte", "casing"])
    new, _ = act(s, EndTurn(), ["1"])
    assert new.turn.order == ["casing", "byte"] and new.turn.marker == "byte"
    assert new.turn.step == "corporation"  # the corporation's turn follows the marker holder's, on the new floor
    after, _ = act(new, CorporationTurn(), [])
    assert after.turn.order[after.turn.active] == "casing" and after.turn.step == "route"


def test_no_floor_change_while_a_bot_is_outside_a_safe_zone():
    """"assembling all bots simultaneously in safe zones\""""
    new, _ = act(climbing([bot("byte", "B3"), module("D1")]), EndTurn(), ["1"])
    assert new.floor_number == 1 and new.floor.name != "Upper floor"


def test_no_floor_change_before_the_floor_objectives():
    """"requires completing all floor objectives\""""
    new, _ = act(climbing([bot("byte", "B3"), module("D3")], progress={}), EndTurn(), ["1"])
    assert new.floor_number == 1


def test_a_shut_down_bot_cannot_advance_floors():
    """"Bot Shut Down: ... Cannot act or advance floors until repaired.\""""
    down = bot("byte", "B3", power=0)
    down.shut_down = True
    new, _ = act(climbing([down, module("D3")]), EndTurn(), ["1"])
    assert new.floor_number == 1


def escaping(bots, calibrated=True):
    s = make_state(UPPER, bots=list(bots), players=1, slots=chips("general", "general", "general"))
    s.mission = CLIMB
    s.floor_number = 2
    s.calibrated = calibrated
    return in_turn(s)


def test_an_escaped_bot_leaves_the_board_and_the_mission_is_won_when_all_have():
    """"When an agent satisfies escape conditions, it is removed from the board and takes no further turns.\""""
    s = escaping([bot("byte", "D2"), module("C2")])
    assert {la.action.bot for la in legal_actions(s) if isinstance(la.action, Escape)} == {"byte", "module"}
    s, events = act(s, Escape(bot="module"))
    assert s.bot("module").escaped and s.bot("module").space is None and of_type(events, "bot_escaped")
    s, _ = act(s, Escape(bot="byte"))
    assert str(s.outcome) == "victory: Climb"


def test_all_agents_escaping_before_the_module_loses():
    """"If all agents escape before the command module escapes, the mission is lost because nobody remains to
    pilot the module.\""""
    new, _ = act(escaping([bot("byte", "D2"), module("C2")]), Escape(bot="byte"))
    assert new.outcome is not None and new.outcome.cause == "module_abandoned"
    assert new.outcome.text.startswith("all agents escaped")


def test_escape_needs_an_entrance_and_the_calibrations():
    """Escape conditions: an entrance space, once the last floor's calibrations are complete."""
    illegal(escaping([bot("byte", "A3"), module("C2")]), Escape(bot="byte"), "entrance space")
    illegal(escaping([bot("byte", "D2"), module("C2")], calibrated=False), Escape(bot="byte"), "no escape open")


def test_a_tower_mission_sets_up_its_later_floors_from_the_content():
    """Missions "specify the corporation, floor progression, objectives, and win condition": the tower run
    starts on the floor the players choose and carries the labs to set up after it."""
    text, source = floor_text_of("meridian-lobby")
    state = new_game(CONTENT, GameSetup(floor=source, floor_text=text, mission="tower-run", players=2, seed=1))
    assert state.floor_number == 1 and [f.name for f in state.later_floors] == ["meridian-labs.floor"]
    broken = CONTENT.missions["tower-run"].floor_plan[1]
    try:
        broken.floor = "no-such-floor"
        with pytest.raises(RulesError, match="no-such-floor"):
            new_game(CONTENT, GameSetup(floor=source, floor_text=text, mission="tower-run", players=2, seed=1))
    finally:
        broken.floor = "meridian-labs"


def test_joan_climbs_with_memory():
    """Joan "recharges when sharing a space with Memory": she comes up the stairwell on Memory's space."""
    s = climbing([bot("memory", "B3"), module("D3")], order=["memory"], progress={"terminals:memory": 1})
    s.joan = Drone(space="A1", charged=False)
    new, _ = act(s, EndTurn(), ["1"])
    assert new.joan == Drone(space="B1", charged=True)


def test_agents_lacking_an_imperative_draw_one_on_the_new_floor():
    """"Agents lacking an imperative card draw one." (step 5 of changing floors)"""
    s = climbing([bot("byte", "B3"), module("D3")])
    s.imperative_deck = list(CONTENT.imperatives)
    new, events = act(s, EndTurn(), ["1", "I01"])
    assert new.bot("byte").imperative is not None and new.bot("module").imperative is None
    assert [e.deck for e in of_type(events, "card_drawn")] == ["imperative"]


def test_an_imperative_held_when_changing_floors_stays_with_its_count():
    """"3. Remove all other board components and reset awareness chips." An imperative is a card in the agent's
    hand, not a board component: it goes up the stairs, keeps what it has counted (one of Scavenger's 2 caches,
    collected on the floor below) and is completed by one more cache on the new floor. Holding it, the agent
    draws none ("5. Agents lacking an imperative card draw one.")."""
    s = climbing([bot("byte", "B3"), module("D3")], progress={"terminals:byte": 1, "caches:byte": 3})
    s.bot("byte").imperative = next(c for c in CONTENT.imperatives if c.id == "I02").__copy__()
    s.bot("byte").imperative.base = 2
    s.imperative_deck = [c for c in CONTENT.imperatives if c.id != "I02"]
    new, events = act(s, EndTurn(), ["1"])
    card = new.bot("byte").imperative
    assert new.floor_number == 2 and new.progress == {}
    assert (card.id, card.carried, card.base) == ("I02", 1, 0)
    assert of_type(events, "card_drawn") == [] and new.imperative_discard == []
    up = in_turn(new, basic=1)
    up.floor.caches = ["C1"]
    up.equipment_deck = [CONTENT.equipment[0]]
    up, _ = act(up, Move(dice=DicePool(basic=1)), ["1"])
    up, events = act(up, Step(bot="byte", to="C1", take_cache=True), [CONTENT.equipment[0].id])
    assert up.bot("byte").imperative is None and up.bot("byte").power == 6
    assert of_type(events, "imperative_resolved")[0].completed
    assert [(c.id, c.carried) for c in up.imperative_discard] == [("I02", 0)]
def test_destroyed_wall_chips_return_to_the_supply_on_a_new_floor():
    """">> Maximum limit: Only 3 walls can be destroyed per floor. Destroyed wall chips are returned to the
    supply when changing floors." (a wall broken on floor 1 is not broken on floor 2, whose count of broken
    walls starts again at 0)"""
    s = climbing([bot("byte", "B3"), module("D3")])
    s.floor.destroyed_walls = ["A2/A3"]
    new, _ = act(s, EndTurn(), ["1"])
    assert new.floor.name == "Upper floor" and new.floor.destroyed_walls == []
