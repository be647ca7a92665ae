"""The Adaptable missions' remaining special rules, calibrations and results, each quoted from the expansion:
Rescue Rangers' draw bag, Preconnaissance's hop into cyberspace and module spaces, Ghost in the Dell's
Do-While-End."""

from __future__ import annotations

import pytest

from controller.library import floor_text as shipped_floor
from controller.rules import GameSetup, ScriptedDice, SeededDice, new_game, state_problems
from controller.rules.actions import (
    EndTurn,
    Hop,
    Move,
    NetworkStep,
    Pass,
    Push,
    Reboot,
    Step,
    Strike,
    apply_action,
    legal_actions,
)
from controller.rules.board.geometry import compile_floor
from controller.rules.state import BagUnit, DicePool
from tests.support.rules_scenarios import (
    CONTENT,
    HOPS,
    MODULE_SPACES,
    bot,
    captain,
    floor_text,
    guard,
    make_state,
    module,
    network,
    turn,
)
from tests.support.turn_scenarios import act, chips, illegal, in_turn, tags

# Two rooms under a hallway; the Office (D3-F4) has a terminal space on F4, the Lab (A3-C4) none.
ROOMS = floor_text("""
+-+-+-+-+-+-+
|E . . . . .|
+ + + + + + +
|. . . . . .|
+-+D+-+-+D+-+
|. . .|. . .|
+ + + + + + +
|. . .|. . T|
+-+-+-+-+-+-+
""", """
A1 hallway "Hall"
A3 room "Lab" surveillance=1
D3 room "Office" surveillance=1
""")


def game(mission: str, players: int = 2, level: int = 2, seed: int = 5, floor: str = "meridian-lobby"):
    text, source = shipped_floor(floor)
    return new_game(CONTENT, GameSetup(floor=source, floor_text=text, mission=mission, level=level, players=players,
                                       seed=seed))


def mission_state(mission: str, text: str = ROOMS, bots=None, slots=None, **kw):
    s = make_state(text, bots=bots if bots is not None else [bot("byte", "E2"), module("A1")],
                   slots=slots or chips("general", "general", "general"), **kw)
    s.mission = CONTENT.missions[mission]
    return in_turn(s)


def off_board_module():
    return bot("module", None, power=6, kind="module")


def guard_chip(name: str):
    return next(c for c in CONTENT.guards if c.name == name)


# == Rescue Rangers ================================================================================
@pytest.mark.parametrize("players,total", [(1, 5), (2, 7), (3, 9), (4, 11)])
def test_rescue_rangers_draw_bag_at_setup(players, total):
    """"After all other setup, place the captain in the draw bag. Then, add any number of random guards to the
    bag, such that when their levels are added together, they equal the following: Level 1 team: 5 / Level 2
    team: 7 / Level 3 team: 9 / Level 4 team: 11" """
    s = game("rescue-rangers", players=players)
    assert [u.unit for u in s.draw_bag].count("captain") == 1
    guards = [u.guard for u in s.draw_bag if u.unit == "guard"]
    assert sum(g.level for g in guards) == total
    assert not any(u.rank == "captain" for u in s.security)
    bagged = [g.name for g in guards]
    assert len(s.guard_bag) + len(bagged) + sum(1 for u in s.security) == len(CONTENT.guards)
    assert state_problems(s) == []


def rangers(bag, bots=None, **kw):
    s = mission_state("rescue-rangers", unlocked=["E2/E3"], bots=bots, **kw)
    s.floor.surveillance = ["A3", "D3"]
    s.draw_bag = bag
    return s


def test_rescue_rangers_a_unit_is_drawn_onto_a_terminal_before_surveilling():
    """"Before surveilling a room with at least one terminal space, draw a unit from the bag and place it on a
    terminal in the room. If it is a security unit, it must be placed to not face a wall." """
    s = rangers([BagUnit(unit="captain"), BagUnit(unit="guard", guard=guard_chip("Walker"))])
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    s, events = act(s, Step(bot="byte", to="E3"), ["2", "powercell"])  # the bag gives the guard, then the die
    placed = [u for u in s.security if u.space == "F4"]
    assert len(placed) == 1 and placed[0].chip == "Walker" and placed[0].level == 2
    f = compile_floor(s.floor.text, s.floor.name)
    assert f.rays[f.space("F4")][placed[0].facing]  # it faces open floor, not a wall
    assert [u.unit for u in s.draw_bag] == ["captain"]
    assert tags(events).index("unit_drawn") < tags(events).index("bead_removed")  # before surveilling
    assert "D3" not in s.floor.surveillance


def test_rescue_rangers_the_captain_drawn_from_the_bag():
    """"draw a unit from the bag and place it on a terminal in the room" (the captain is one of them)"""
    s = rangers([BagUnit(unit="captain")])
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    s, _ = act(s, Step(bot="byte", to="E3"), ["1", "powercell"])
    cap = next(u for u in s.security if u.rank == "captain")
    assert cap.space == "F4" and s.draw_bag == []


def test_rescue_rangers_no_draw_for_a_room_without_a_terminal_space():
    """"Before surveilling a room with at least one terminal space ...": the Lab has none."""
    s = rangers([BagUnit(unit="captain")], bots=[bot("byte", "B2"), module("A1")])
    s.floor.unlocked_doors = ["B2/B3"]
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    s, _ = act(s, Step(bot="byte", to="B3"), ["powercell"])
    assert [u.unit for u in s.draw_bag] == ["captain"] and s.security == []


def test_rescue_rangers_the_module_drawn_comes_into_play():
    """The Search Begins' result: "Each agent loses 1 power at the start of their turn until the command module
    is drawn." Drawn, it comes into play on the terminal space."""
    s = rangers([BagUnit(unit="module")], bots=[bot("byte", "E2"), off_board_module()])
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    s, events = act(s, Step(bot="byte", to="E3"), ["1", "powercell"])
    assert s.bot("module").space == "F4" and s.draw_bag == []
    assert "unit_drawn" in tags(events)


def test_rescue_rangers_calibration_puts_the_module_in_the_bag():
    """The Search Begins: "Level 1+ team: Each agent: Access at least one terminal." Result: "Add the command
    module to the draw bag." """
    s = rangers([], bots=[bot("byte", "E2"), off_board_module()])
    s.progress["terminals:byte"] = 1
    s.turn.step = "end"
    s, events = act(s, EndTurn(), ["1"])
    assert s.calibrated and [u.unit for u in s.draw_bag] == ["module"]
    assert "unit_bagged" in tags(events)


def test_rescue_rangers_agents_lose_power_while_the_module_is_in_the_bag():
    """"Each agent loses 1 power at the start of their turn until the command module is drawn." """
    s = rangers([BagUnit(unit="module")], bots=[bot("byte", "E2"), bot("bit", "A1"), off_board_module()],
                players=2)
    s.calibrated = True
    s.turn.step = "end"
    after, _ = act(s, EndTurn(), ["1"])
    assert after.turn.order[after.turn.active] == "bit" and after.bot("bit").power == 4
    s.draw_bag = []  # drawn: no more loss
    after, _ = act(s, EndTurn(), ["1"])
    assert after.bot("bit").power == 5


def test_rescue_rangers_the_draw_bag_emptied_for_a_reboot():
    """"If the draw bag is needed for any function while there are still units in the bag, empty the bag and
    perform the needed action. Then, place all of those emptied chips back into the bag." (a reboot draws the
    burncycle from the bag: only action chips come out, the units are still in it afterwards)"""
    bag = [BagUnit(unit="captain"), BagUnit(unit="guard", guard=guard_chip("Walker"))]
    s = rangers(bag)
    s.turn.step = "route"
    after, _ = apply_action(s, Reboot(), SeededDice(3))
    assert after.draw_bag == bag
    assert {c.kind for c in after.burncycle.slots if c is not None} <= {"general", "physical", "tech", "utility",
                                                                        "captain"}


def test_rescue_rangers_unoccupied_surveilled_rooms_become_unsurveilled():
    """"At the end of each round, every unoccupied surveilled room becomes unsurveilled (place a surveillance
    bead if it gets one)." The Lab is empty: its bead comes back; the Office holds a bot: it stays surveilled."""
    s = rangers([], bots=[bot("byte", "E4"), module("A1")])
    s.floor.surveillance = []
    s.turn.step = "corporation"
    new, events = turn(s)
    assert new.floor.surveillance == ["A3"]
    assert [e.room for e in events if type(e).__name__ == "BeadPlaced"] == ["Lab"]


def test_rescue_rangers_a_room_without_surveillance_dice_gets_no_bead():
    """"(place a surveillance bead if it gets one)": a room whose infobar shows no surveillance dice."""
    s = rangers([], text=ROOMS.replace('"Lab" surveillance=1', '"Lab"'), bots=[bot("byte", "E4"), module("A1")])
    s.floor.surveillance = []
    s.turn.step = "corporation"
    new, _ = turn(s)
    assert new.floor.surveillance == []


def test_rescue_rangers_a_guard_in_a_room_keeps_it_occupied():
    """"every unoccupied surveilled room": a security unit in the room occupies it too."""
    s = rangers([], bots=[bot("byte", "A1"), off_board_module()], units=[guard("G1", "B4", awareness=0)])
    s.floor.surveillance = []
    s.turn.step = "corporation"
    new, _ = turn(s)
    assert new.floor.surveillance == ["D3"]


def star_patrol(bots):
    s = make_state(bots=bots, units=[guard("G1", "F5", "N", awareness=0, movement=2, patrol="star")])
    s.mission = CONTENT.missions["rescue-rangers"]
    return s


def test_rescue_rangers_star_patrol_is_closest_bot_until_the_module_is_in_play():
    """"Any security units with the star icon as their patrol will instead have the Closest Bot patrol icon
    until the command module comes into play." """
    new, _ = turn(star_patrol([bot("byte", "A5"), off_board_module()]))
    assert new.unit("G1").space == "D5"  # toward the agent, the closest bot
    new, _ = turn(star_patrol([bot("byte", "A5"), module("F1")]))
    assert new.unit("G1").space == "F3"  # the module is in play: the star patrol follows it


# == Preconnaissance ===============================================================================
# Terminal spaces on A1, F1 (hallway), C3 (Lab) and F4 (Office); the wall F2/F3 lies between F1 and F4.
def hopping(chip="utility", mission="preconnaissance", at="A1", units=None):
    s = mission_state(mission, text=HOPS, bots=[bot("byte", at), module("B2")], slots=chips(chip, "general"),
                      units=units)
    s.floor.surveillance = ["A3", "D3"]
    return s


def test_preconnaissance_hop_into_cyberspace_and_jump_out():
    """"As an optimized utility action, a bot may take an optimized tech action to hop into cyberspace. This
    allows them to pick up their bot chip and move it to another unoccupied terminal space that is in a
    straight orthogonal or diagonal line ... If they jump out, they become detected, surveil the room they are
    in if it is unsurveilled, and end the action." (A1 to C3 on the diagonal, into the Lab)"""
    s, events = act(hopping(), Hop(bot="byte", path=["C3"]), ["powercell"])
    byte = s.bot("byte")
    assert byte.space == "C3" and byte.detected
    assert "A3" not in s.floor.surveillance and byte.power == 6
    assert s.burncycle.tracker == 1  # the action is over


def test_preconnaissance_hop_again_within_the_same_action():
    """"They may then either hop into cyberspace again (within the same action) or jump out of cyberspace."
    (A1 to F1 along the row, then F1 to F4 down the column, through the wall: it is cyberspace)"""
    s, events = act(hopping(chip="tech"), Hop(bot="byte", path=["F1", "F4"]), ["powercell"])
    assert s.bot("byte").space == "F4" and s.bot("byte").detected and "D3" not in s.floor.surveillance
    assert [e.path for e in events if type(e).__name__ == "BotMoved"] == [["A1", "F1", "F4"]]


def test_preconnaissance_hop_needs_a_straight_line():
    """"... in a straight orthogonal or diagonal line from the terminal space they were on" (A1 to F4 is not)"""
    illegal(hopping(), Hop(bot="byte", path=["F4"]), "straight orthogonal or diagonal line")


def test_preconnaissance_hop_lands_on_an_unoccupied_terminal_space():
    """"... another unoccupied terminal space": not a plain space, not one a unit stands on."""
    illegal(hopping(), Hop(bot="byte", path=["C1"]), "not a terminal space")
    illegal(hopping(units=[guard("G1", "C3", awareness=0)]), Hop(bot="byte", path=["C3"]), "occupied")


def test_preconnaissance_hop_starts_on_a_terminal_space():
    """"... from the terminal space they were on" """
    illegal(hopping(at="B1"), Hop(bot="byte", path=["C3"]), "not on a terminal space")


def test_preconnaissance_hop_is_an_optimized_utility_or_tech_action():
    """"As an optimized utility action, a bot may take an optimized tech action to hop": not on a general chip."""
    illegal(hopping(chip="general"), Hop(bot="byte", path=["C3"]), "utility or tech chip")


def test_hop_only_on_preconnaissance():
    """Other missions have no hop into cyberspace; after Surprise Inspection neither has Preconnaissance
    ("Ignore Mission Special Rules for the remainder of the mission.")."""
    illegal(hopping(mission="data-heist"), Hop(bot="byte", path=["C3"]), "no hop into cyberspace")
    s = hopping()
    s.calibrated = True
    illegal(s, Hop(bot="byte", path=["C3"]), "no hop into cyberspace")


def test_preconnaissance_legal_actions_list_the_hops():
    """"They may then either hop into cyberspace again (within the same action) or jump out of cyberspace.":
    `legal_actions` offers one hop per terminal space the action can end on, by the fewest hops (A1: C3 and F1
    in line, F4 through F1)."""
    hops = [la.action.path for la in legal_actions(hopping()) if isinstance(la.action, Hop)]
    assert sorted(hops) == [["C3"], ["F1"], ["F1", "F4"]]
    assert not [la for la in legal_actions(hopping(chip="general")) if isinstance(la.action, Hop)]


def test_preconnaissance_every_listed_hop_is_legal():
    """"... move it to another unoccupied terminal space": a multi-hop path stops at occupied landings (a guard
    on F1 leaves only C3, and nothing reaches F4), and each listed hop applies."""
    s = hopping(units=[guard("G1", "F1", awareness=0)])
    listed = [la.action for la in legal_actions(s) if isinstance(la.action, Hop)]
    assert [a.path for a in listed] == [["C3"]]
    for action in [la.action for la in legal_actions(hopping()) if isinstance(la.action, Hop)]:
        new, _ = apply_action(hopping(), action, ScriptedDice(["powercell"]))
        assert new.bot("byte").space == action.path[-1]


def test_preconnaissance_command_module_spaces_at_the_end_of_three_turns():
    """Surprise Inspection: "Command Module: At the end of three different agent turns, occupy a command module
    space. The same space cannot be used multiple times. Place an objective bead on spaces that have been used
    to track." """
    s = mission_state("preconnaissance", text=MODULE_SPACES, bots=[bot("byte", "C1"), module("A1")])
    for space, beads in (("A1", ["A1"]), ("A1", ["A1"]), ("C2", ["A1"]), ("F1", ["A1", "F1"])):
        s.bot("module").space = space
        s.burncycle.slots = chips("general")
        s = in_turn(s, step="end")
        s, events = act(s, EndTurn(), ["1"])
        assert s.objective_beads == beads and not s.calibrated
    s.bot("module").space = "F2"
    s.burncycle.slots = chips("general")
    s, events = act(in_turn(s, step="end"), EndTurn(), ["1"])
    assert s.progress["module_spaces:module"] == 3 and s.calibrated  # no rooms, so none unsurveilled


# == Ghost in the Dell =============================================================================
def ghost(bots, units=None, text=ROOMS, **kw):
    s = mission_state("ghost-in-the-dell", text=text, bots=bots, units=units, **kw)
    s.captain_start = "D3"  # the Office, whose terminal space is F4
    return s


def test_ghost_in_the_dell_remembers_where_the_captain_started():
    """"Command Module: Occupy the terminal space in the room the captain started in": setup notes the
    captain's space."""
    s = game("ghost-in-the-dell")
    cap = next(u for u in s.security if u.rank == "captain")
    assert s.captain_start == cap.space


def core_landing(s):
    """The active agent's IP one white line from the core, in the network step."""
    s.network = network(["byte"], ips={"byte": "L3-01"})
    s.turn.step = "network"
    return act(s, NetworkStep(transfers={1: "in"}))


def test_do_while_end_module_on_the_captains_terminal_when_an_ip_lands_on_the_core():
    """Do-While-End: "Level 1+ team: Command Module: Occupy the terminal space in the room the captain started
    in when any IP lands on the core of the network." """
    s, events = core_landing(ghost([bot("byte", "A1"), module("F4")]))
    assert s.calibrated
    assert any(type(e).__name__ == "StepStarted" and e.step == "calibrated" for e in events)


def test_do_while_end_needs_the_captains_room():
    """"... the terminal space in the room the captain started in": the module elsewhere does not count, nor
    does the core alone."""
    s = ghost([bot("byte", "A1"), module("F4")])
    s.captain_start = "A3"  # the Lab
    s, _ = core_landing(s)
    assert not s.calibrated
    s, _ = core_landing(ghost([bot("byte", "A1"), module("E4")]))
    assert not s.calibrated


def test_ghost_in_the_dell_module_surveils_when_it_moves_off_its_start():
    """"The command module surveils the room it is in as soon as it moves off of its starting space." (it
    starts on a hiding spot in the Office, which holds a bead: its first step surveils the Office)"""
    s = ghost([bot("byte", "A1"), module("D4")])
    s.floor.surveillance = ["D3"]
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    s, events = act(s, Step(bot="module", to="E4"), ["powercell"])
    assert s.floor.surveillance == [] and s.bot("module").power == 7


# A safe zone (C2-D2) off the hallway through the door C1/C2, unlocked; a terminal space on D1.
SAFE = floor_text("""
+-+-+-+-+
|. . . T|
+ + +D+-+
|E .|. .|
+-+-+-+-+
""", """
A1 hallway "Hall"
C2 safe "Safe zone"
""")


def calibrating_ghost(units=None):
    s = ghost([bot("byte", "C2"), bot("bit", "D2"), module("A1")], units=units, text=SAFE, unlocked=["C1/C2"],
              players=2)
    s.captain_start = None
    s.progress["module_on_captain_terminal_when_core"] = 1
    return s


def test_do_while_end_result_bots_leave_the_safe_zones():
    """Result: "Bots in safe zones lose 1 power and are relocated to the closest unoccupied space not in a safe
    zone." (C2 to C1; D2 to B1, three steps away like D1, which comes later in reading order)"""
    s, events = act(calibrating_ghost(), Pass())
    assert s.calibrated
    assert (s.bot("byte").space, s.bot("byte").power) == ("C1", 4)
    assert (s.bot("bit").space, s.bot("bit").power) == ("B1", 4)


def test_do_while_end_result_bots_cannot_enter_safe_zones():
    """Result: "Bots cannot enter safe zones for the remainder of the mission." """
    s, _ = act(calibrating_ghost(), Pass())
    s = in_turn(s)
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    illegal(s, Step(bot="byte", to="C2"), "cannot enter safe zones")
    assert not [la for la in legal_actions(s) if isinstance(la.action, Step) and la.action.to in ("C2", "D2")]


def test_do_while_end_result_bots_cannot_push_their_way_into_a_safe_zone():
    """Result: "Bots cannot enter safe zones for the remainder of the mission." A push enters the shoved unit's
    space ("shove a security unit to an adjacent empty space, entering its space"), so a guard standing in the
    safe zone is not pushed: the push is neither listed nor allowed."""
    s, _ = act(calibrating_ghost(), Pass())
    s.security.append(guard("G1", "C2", "S", awareness=0))
    s.bot("byte").upgrades.append("push")
    s = in_turn(s)
    s, _ = act(s, Move(dice=DicePool(basic=2)), ["1", "1"])
    assert not [la for la in legal_actions(s) if isinstance(la.action, Push)]
    illegal(s, Push(bot="byte", unit="G1", to="D2"), "cannot enter safe zones")


def test_do_while_end_result_nano_cannot_reassemble_into_a_safe_zone():
    """Result: "Bots cannot enter safe zones for the remainder of the mission." Nano's Reassemble ("Nano may
    move through locked doors") is a step like any other: not through the zone's locked door either."""
    nano = bot("nano", "C1")
    nano.abilities = ["reassemble"]
    s = ghost([nano, module("A1")], text=SAFE)
    s.captain_start = None
    s.calibrated = True
    s = in_turn(s)
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    assert not [la for la in legal_actions(s) if isinstance(la.action, Step) and la.action.to == "C2"]
    illegal(s, Step(bot="nano", to="C2", reassemble=True), "cannot enter safe zones")


def test_do_while_end_result_security_on_terminals_has_durability_5():
    """Result: "Security units have a durability of 5 when occupying terminal spaces." (a level 3 Ghost on the
    terminal space D1 shuts down to 5 AP)"""
    ghost_unit = guard("G1", "D1", "S", level=3, awareness=0)
    ghost_unit.durability = 20
    s, _ = act(calibrating_ghost(units=[ghost_unit]), Pass())
    s = in_turn(s)
    assert [la.target_ap for la in legal_actions(s) if isinstance(la.action, Strike)] == [5]
    s, _ = act(s, Strike(bot="byte", unit="G1", dice=DicePool(basic=3)), ["2", "2", "1"])
    assert s.security == [] and s.progress["shut_down:guard_on_terminal"] == 1


def test_durability_on_terminals_only_after_the_calibration():
    """Before Do-While-End the printed durability counts."""
    ghost_unit = guard("G1", "D1", "S", level=3, awareness=0)
    ghost_unit.durability = 20
    s = ghost([bot("byte", "C1"), module("A1")], units=[ghost_unit], text=SAFE)
    s.captain_start = None
    s, _ = act(s, Strike(bot="byte", unit="G1", dice=DicePool(basic=3)), ["2", "2", "1"])
    assert s.security[0].id == "G1"


# == TSM-103C's win condition (landing on the core) ================================================
def test_tsm_dial_out_land_on_the_core_while_all_bots_occupy_terminal_spaces():
    """Dial Out: "One agent: Land on the network core with their IP while all bots occupy terminal spaces." """
    s = mission_state("tsm-103c", text=HOPS, bots=[bot("byte", "A1"), module("F1")])
    s.calibrated = True
    won, _ = core_landing(s)
    assert str(won.outcome) == "victory: Dial Out"
    s.bot("module").space = "B1"
    s, _ = core_landing(s)
    assert s.outcome is None


# == invariants of the new state ===================================================================
def test_state_problems_of_the_draw_bag_and_the_objective_beads():
    """A unit is in the bag or on the floor, never both; objective beads lie on unused command module spaces."""
    s = rangers([BagUnit(unit="captain")], bots=[bot("byte", "E2"), module("A1")])
    assert state_problems(s) == []
    s.security = [captain("C1")]
    s.draw_bag.append(BagUnit(unit="module"))
    s.draw_bag.append(BagUnit(unit="guard"))
    problems = " / ".join(state_problems(s))
    assert "captain is both in the draw bag and on the floor" in problems
    assert "command module is both in the draw bag and on the floor" in problems
    assert "draw_bag[2]: a guard entry holds its guard chip" in problems
    s = mission_state("preconnaissance", text=MODULE_SPACES, bots=[bot("byte", "C1"), module("A1")])
    s.objective_beads = ["A1", "B1", "A1"]
    problems = " / ".join(state_problems(s))
    assert "B1 is not a command module space" in problems and "used twice" in problems

