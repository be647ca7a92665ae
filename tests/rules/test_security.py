"""Rulebook "Security Activation" and the patrol patterns of the base game and the Robophobia expansion;
"Security Posts & Units" where the corporation turn uses them."""

from __future__ import annotations

from controller.rules.board.geometry import compile_floor
from controller.rules.corporation.deploy import captain_unit, guard_unit
from controller.rules.state import RuleOptions
from tests.support.rules_scenarios import (
    CONTENT,
    bot,
    captain,
    floor_text,
    guard,
    make_state,
    module,
    moves_of,
    of_type,
    turn,
)


def order_of_moves(events) -> list[str]:
    return [e.unit for e in of_type(events, "unit_moved")]


# -- strict hierarchical order ---------------------------------------------------------------------
TWO_HALLS = floor_text("""
+-+-+-+-+-+-+
|. . . . . .|
+ + + + + + +
|. . . . . .|
+-+-+-+-+-+-+
|E . . . . .|
+ + + + + + +
|. . . . . .|
+-+-+-+-+-+-+
""", """
A1 hallway "North hall"
A3 hallway "South hall"
""")


def test_pursue_before_investigate_before_patrol():
    """"Guards activate in strict hierarchical order during the corporation turn: 1. Priority 1: Pursue
    ... 2. Priority 2: Investigate ... 3. Priority 3: Patrol": whatever order the units entered play.
    (Chips are investigated within the unit's area here, RuleOptions.investigate = "area", so that the
    unit in the other hallway has no target and patrols.)
    Also: "1. Security Unit Activation (Pursue, Investigate, Patrol)"
    """
    s = make_state(TWO_HALLS, bots=[bot("a", "F1", detected=True), bot("b", "F4", awareness="A1")],
                   units=[guard("G1", "C4", "W", awareness=1, movement=1, patrol="pace"),   # patrols
                          guard("G2", "A2", "S", awareness=1, movement=1),                 # investigates A1
                          guard("G3", "D1", "E", awareness=4, movement=1)],                # pursues F1
                   rules=RuleOptions(investigate="area"))
    new, events = turn(s)
    assert order_of_moves(events) == ["G3", "G2", "G1"]
    assert [m.reason for m in of_type(events, "unit_moved")] == ["pursue", "investigate", "patrol"]


def test_every_pursuer_before_any_investigator():
    """"Guards activate in strict hierarchical order": with chips anywhere on the floor (the default
    reading) every unit without a pursuit investigates, and all of them act after the pursuer."""
    s = make_state(bots=[bot("a", "F1", detected=True), bot("b", "C3", awareness="A1")],
                   units=[guard("G1", "C5", "W", awareness=1, movement=1, patrol="pace"),
                          guard("G2", "A5", "S", awareness=1, movement=1),
                          guard("G3", "F4", "N", awareness=4, movement=1)])
    new, events = turn(s)
    assert order_of_moves(events) == ["G3", "G1", "G2"]
    assert [m.reason for m in of_type(events, "unit_moved")] == ["pursue", "investigate", "investigate"]


def test_priority_judged_when_its_tier_comes():
    """"Guards activate in strict hierarchical order": a unit's priority is judged when its tier comes, so
    a second pursuer whose bot the first one shut down does not attack it again (it drops to
    Investigate)."""
    s = make_state(bots=[bot("a", "C3", power=1, detected=True)], players=1,
                   units=[guard("G1", "C5", "N", awareness=3, movement=1),
                          guard("G2", "C1", "S", awareness=3, movement=1)])
    new, events = turn(s)
    attacks = of_type(events, "attacked")
    assert [(a.unit, a.damage) for a in attacks] == [("G1", 1)]
    assert new.bot("a").shut_down
    assert [m.reason for m in moves_of(events, "G2")] == ["investigate"]


# -- Priority 1: Pursue ------------------------------------------------------------------------------
def test_pursue_shortest_path_to_become_adjacent_and_attack():
    """"Priority 1: Pursue: Security units with detected bots in their awareness move via the shortest path
    to become adjacent and attack.\""""
    s = make_state(bots=[bot("byte", "A1", power=5, detected=True)],
                   units=[guard("G1", "A5", "N", level=2, awareness=4, movement=3)])
    new, events = turn(s)
    assert moves_of(events, "G1")[0].path == ["A5", "A4", "A3", "A2"]
    assert moves_of(events, "G1")[0].reason == "pursue"
    attack = of_type(events, "attacked")[0]
    assert (attack.unit, attack.bot, attack.damage, attack.power) == ("G1", "byte", 2, 3)
    assert new.bot("byte").power == 3


def test_pursue_limited_by_movement():
    """"move via the shortest path\" up to the unit's movement: too far to reach, it closes in and does not
    attack."""
    s = make_state(bots=[bot("byte", "A1", detected=True)],
                   units=[guard("G1", "A5", "N", awareness=4, movement=2)])
    new, events = turn(s)
    assert moves_of(events, "G1")[0].path == ["A5", "A4", "A3"]
    assert of_type(events, "attacked") == []
    assert new.bot("byte").power == 5


def test_pursue_path_never_through_other_units():
    """Paths go "through locked doors, never through walls or other units\": a unit in the way is walked
    around (ties broken north first)."""
    s = make_state(bots=[bot("byte", "E3", detected=True)],
                   units=[guard("G1", "A3", "E", awareness=5, movement=5),
                          guard("G2", "B3", "S", awareness=0, movement=0, stunned=True)])
    new, events = turn(s)
    path = moves_of(events, "G1")[0].path
    assert "B3" not in path
    assert len(path) == 6 and path[-1] in ("E2", "D3", "E4")  # 5 steps around the blocker
    assert path[:2] == ["A3", "A2"]  # ties: north first
    assert of_type(events, "attacked")[0].unit == "G1"


def test_pursue_the_closest_detected_bot():
    """"Security units with detected bots in their awareness\" pursue the nearest of them."""
    s = make_state(bots=[bot("far", "A1", detected=True), bot("near", "C3", detected=True)],
                   units=[guard("G1", "C5", "N", awareness=5, movement=1)])
    new, events = turn(s)
    assert of_type(events, "attacked")[0].bot == "near"


def test_undetected_bot_in_sight_is_detected_then_pursued():
    """Only "detected bots in their awareness" are pursued; a bot in sight is detected first (awareness is
    checked continuously), then pursued."""
    s = make_state(bots=[bot("byte", "C2")], units=[guard("G1", "C5", "N", awareness=3, movement=2)])
    new, events = turn(s)
    assert of_type(events, "bot_detected")[0].space == "C2"
    assert moves_of(events, "G1")[0].reason == "pursue"


# -- damage -----------------------------------------------------------------------------------------
def test_guards_deal_damage_equal_to_level():
    """"Guards deal damage equal to their level (1, 2, or 3)\": for every guard chip of the content."""
    for chip in CONTENT.guards:
        unit = guard_unit(chip, 1, "C4", "N")
        assert unit.damage == chip.level
        s = make_state(bots=[bot("byte", "C3", power=5, detected=True)], units=[unit])
        new, events = turn(s)
        assert of_type(events, "attacked")[0].damage == chip.level, chip.name
        assert new.bot("byte").power == 5 - chip.level


def test_captains_deal_three_damage():
    """"captains deal 3 damage.\" (an adjacent attack, for both captains of the content)"""
    for name in CONTENT.captains:
        unit = captain_unit(CONTENT.captains[name], "C4", "N")
        assert unit.damage == 3
        s = make_state(bots=[bot("byte", "C3", power=5, detected=True)], units=[unit])
        new, events = turn(s)
        assert of_type(events, "attacked")[0].damage == 3, name
        assert new.bot("byte").power == 2


# -- Priority 2: Investigate -------------------------------------------------------------------------
def test_investigate_moves_toward_chip_to_clear_it():
    """"Priority 2: Investigate: Security units move toward active awareness chips to clear them.\""""
    s = make_state(bots=[bot("byte", "F5", awareness="A1")],
                   units=[guard("G1", "A5", "E", awareness=1, movement=2)])
    new, events = turn(s)
    assert moves_of(events, "G1")[0].path == ["A5", "A4", "A3"]
    assert moves_of(events, "G1")[0].reason == "investigate"
    assert new.bot("byte").awareness == "A1"  # not reached yet
    new2, _ = turn(new)
    assert new2.unit("G1").space == "A1" and new2.bot("byte").awareness is None


def test_investigate_nearest_chip():
    """"move toward active awareness chips\": the nearest chip first."""
    s = make_state(bots=[bot("a", "A5", awareness="A1"), bot("b", "A4", awareness="E1")],
                   units=[guard("G1", "E5", "W", awareness=1, movement=1)])
    new, events = turn(s)
    assert moves_of(events, "G1")[0].path == ["E5", "E4"]


ROOMS = floor_text("""
+-+-+-+-+-+
|. . . . .|
+-+-+D+-+-+
|E . . . .|
+-+-+-+-+-+
""", """
A1 room "Room"
A2 hallway "Hall"
""")


def test_investigate_chip_in_another_area_by_default():
    """"Security units move toward active awareness chips\": by default (RuleOptions.investigate =
    "floor") any chip on the floor; with "area" only chips in the unit's own area."""
    bots = [bot("byte", "A2", awareness="C1")]
    s = make_state(ROOMS, bots=bots, units=[guard("G1", "E2", "W", awareness=1, movement=3, patrol="pace")])
    new, events = turn(s)
    assert moves_of(events, "G1")[0].reason == "investigate"
    assert moves_of(events, "G1")[0].path == ["E2", "D2", "C2", "C1"]
    s = make_state(ROOMS, bots=[bot("byte", "A2", awareness="C1")],
                   units=[guard("G1", "E2", "W", awareness=1, movement=3, patrol="pace")],
                   rules=RuleOptions(investigate="area"))
    new, events = turn(s)
    assert moves_of(events, "G1")[0].reason == "patrol"


# -- Priority 3: Patrol -------------------------------------------------------------------------------
def test_patrol_only_without_targets():
    """"Priority 3: Patrol: Security units with no targets follow their assigned patrol patterns\""""
    s = make_state(bots=[bot("byte", "F1")], units=[guard("G1", "A5", "E", awareness=1, movement=2,
                                                         patrol="pace")])
    new, events = turn(s)
    assert moves_of(events, "G1")[0].reason == "patrol"


def test_patrol_pace_straight_ahead_turning_at_walls():
    """Patrol "pace": straight ahead along the facing; at a wall it turns about and goes on."""
    s = make_state(units=[guard("G1", "B3", "E", awareness=1, movement=3, patrol="pace")])
    new, events = turn(s)
    assert moves_of(events, "G1")[0].path == ["B3", "C3", "D3", "E3"]
    assert new.unit("G1").facing == "E"
    new, events = turn(new)
    assert moves_of(events, "G1")[0].path == ["E3", "F3", "E3", "D3"]
    assert new.unit("G1").facing == "W"


def test_patrol_pace_turns_about_at_another_unit():
    """Patrol "pace" does not walk through other units: it turns about in front of one."""
    s = make_state(units=[guard("G1", "B3", "E", awareness=1, movement=2, patrol="pace"),
                          guard("G2", "D3", "N", awareness=0, movement=0, stunned=True)])
    new, events = turn(s)
    assert moves_of(events, "G1")[0].path == ["B3", "C3", "B3"]


def test_patrol_perimeter_clockwise_along_inside_edge():
    """Patrol "perimeter": clockwise along the inside edge of its area."""
    s = make_state(units=[guard("G1", "D1", "E", awareness=1, movement=4, patrol="perimeter")])
    new, events = turn(s)
    assert moves_of(events, "G1")[0].path == ["D1", "E1", "F1", "F2", "F3"]
    assert new.unit("G1").facing == "S"
    s = make_state(units=[guard("G1", "B5", "W", awareness=1, movement=3, patrol="perimeter")])
    new, events = turn(s)
    assert moves_of(events, "G1")[0].path == ["B5", "A5", "A4", "A3"]


def test_patrol_perimeter_from_inside_goes_to_the_edge_first():
    """Patrol "perimeter": a unit away from the edge walks to the nearest edge space first."""
    s = make_state(units=[guard("G1", "C3", "N", awareness=1, movement=3, patrol="perimeter")])
    new, events = turn(s)
    assert moves_of(events, "G1")[0].path == ["C3", "C2", "C1"]


def test_patrol_closest_bot():
    """Patrol "closest bot": toward the nearest bot on the floor, even one the unit does not see."""
    s = make_state(bots=[bot("far", "F1"), bot("near", "A1")],
                   units=[guard("G1", "C5", "S", awareness=1, movement=2, patrol="closest_bot")])
    new, events = turn(s)
    m = moves_of(events, "G1")[0]
    assert m.reason == "patrol" and m.path == ["C5", "C4", "C3"]


def test_patrol_closest_bot_ignores_hidden_bots():
    """Patrol "closest bot" heads for bots it could find: a hidden bot "cannot be detected via awareness\"
    and is not a patrol target."""
    text = floor_text("""
    +-+-+-+-+-+
    |H . . . .|
    + + + + + +
    |E . . . .|
    +-+-+-+-+-+
    """, "A1 hallway")
    s = make_state(text, bots=[bot("hid", "A1", hidden=True), bot("seen", "E2")],
                   units=[guard("G1", "C1", "E", awareness=0, movement=1, patrol="closest_bot")])
    new, events = turn(s)
    assert moves_of(events, "G1")[0].path == ["C1", "D1"]


def test_patrol_star_heads_for_the_command_module():
    """The star patrol icon: toward the command module (an agent nearer does not matter)."""
    s = make_state(bots=[module("F5"), bot("near", "A4")],
                   units=[guard("G1", "B5", "N", awareness=1, movement=2, patrol="star")])
    new, events = turn(s)
    assert moves_of(events, "G1")[0].path == ["B5", "C5", "D5"]


def test_patrol_star_without_module_falls_back_to_closest_bot():
    """The star patrol icon without a command module in play (e.g. Rescue Rangers): the closest bot."""
    s = make_state(bots=[bot("near", "A1"), bot("far", "F1")],
                   units=[guard("G1", "B5", "N", awareness=1, movement=2, patrol="star")])
    new, events = turn(s)
    assert moves_of(events, "G1")[0].path == ["B5", "B4", "B3"]


def test_guards_in_rooms_do_not_patrol():
    """"Guards in rooms do not patrol.\": every pattern stays put in a room."""
    for pattern in ("pace", "perimeter", "closest_bot", "star"):
        s = make_state(ROOMS, bots=[bot("byte", "E2")],
                       units=[guard("G1", "B1", "E", awareness=1, movement=3, patrol=pattern)])
        new, events = turn(s)
        assert new.unit("G1").space == "B1", pattern
        stayed = [e for e in of_type(events, "unit_stayed") if e.unit == "G1"]
        assert stayed and "room" in stayed[0].reason


def test_guards_in_rooms_still_pursue_and_investigate():
    """"Guards in rooms do not patrol\" — but they do pursue and investigate (priorities 1 and 2)."""
    s = make_state(ROOMS, bots=[bot("byte", "E1", detected=True)],
                   units=[guard("G1", "B1", "E", awareness=4, movement=3, patrol="pace")])
    new, events = turn(s)
    assert moves_of(events, "G1")[0].reason == "pursue"
    s = make_state(ROOMS, bots=[bot("byte", "E2", awareness="A2")],
                   units=[guard("G1", "B1", "E", awareness=1, movement=3, patrol="pace")])
    new, events = turn(s)
    assert moves_of(events, "G1")[0].reason == "investigate"


# Fauxbia's teleport: hallway posts 1 (A1), 3 (D2), 2 (G1), a star in the hallway (G2) and one in the room.
POSTS = floor_text("""
+-+-+-+-+-+-+-+
|1 . . . . . 2|
+ + + + + + + +
|E . . 3 . . *|
+-+-+D+-+-+-+-+
|* . . . . . .|
+-+-+-+-+-+-+-+
""", """
A1 hallway "Hall"
A3 room "Room"
""")


def test_teleport_to_unoccupied_hallway_post_closest_to_a_bot():
    """"Patrol: Teleport. Fauxbia teleports to the unoccupied hallway security post closest to a bot.\""""
    s = make_state(POSTS, bots=[bot("byte", "B1")], units=[captain("E1", "W", awareness=0)],
                   captain_card="fauxbia")
    new, events = turn(s)
    m = moves_of(events, "CAP")[0]
    assert m.reason == "teleport" and m.path == ["E1", "A1"]
    assert new.unit("CAP").space == "A1" and new.unit("CAP").facing == "E"  # facing the bot


def test_teleport_skips_occupied_posts():
    """"... the unoccupied hallway security post ...\": the closest post is taken, so the next closest."""
    s = make_state(POSTS, bots=[bot("byte", "B1")],
                   units=[captain("G2", "W", awareness=0), guard("G1", "A1", "S", awareness=0, stunned=True)],
                   captain_card="fauxbia")
    new, events = turn(s)
    assert new.unit("CAP").space == "D2"


def test_teleport_never_to_a_post_in_a_room():
    """"... hallway security post ...\": a star post in a room is no teleport destination, even when it
    is closest to the bot."""
    s = make_state(POSTS, bots=[bot("byte", "B3")], units=[captain("G1", "W", awareness=0)],
                   captain_card="fauxbia", unlocked=["C2/C3"])
    new, events = turn(s)
    assert new.unit("CAP").space != "A3"
    assert new.unit("CAP").space == "D2"  # distance 2 to B3 through the door (A1: 3, G2: 6)


def test_teleport_counts_star_posts_in_hallways():
    """"... the unoccupied hallway security post closest to a bot\": a mandatory (star) post standing in a
    hallway is a hallway security post too."""
    s = make_state(POSTS, bots=[bot("byte", "F2")], units=[captain("A1", "E", awareness=0)],
                   captain_card="fauxbia")
    new, _ = turn(s)
    assert new.unit("CAP").space == "G2"


def test_teleport_from_a_room():
    """"Patrol: Teleport.\" is Fauxbia's own patrol: the engine lets her teleport out of a room (e.g. after
    Ghost in the Dell places her on a captain space), reading "Guards in rooms do not patrol." as the rule
    for walking patrols (docs/rules-interpretations.md)."""
    s = make_state(POSTS, bots=[bot("byte", "F1")], units=[captain("D3", "N", awareness=0)],
                   captain_card="fauxbia")
    new, events = turn(s)
    assert new.unit("CAP").space == "G1"


def test_same_priority_units_act_in_the_order_they_entered_play():
    """Order among units of the same priority (the rulebook is silent): the order they entered play."""
    s = make_state(units=[guard("G2", "A5", "N", awareness=0, movement=1, patrol="pace"),
                          guard("G1", "F5", "N", awareness=0, movement=1, patrol="pace")])
    new, events = turn(s)
    assert order_of_moves(events) == ["G2", "G1"]


def test_security_units_pass_through_caches_without_collecting():
    """"Units can enter and pass through cache spaces. ... Security units do not collect caches\""""
    from tests.support.rules_scenarios import floor_text as ft
    text = ft("""
    +-+-+-+-+-+
    |E . C . .|
    +-+-+-+-+-+
    """, "A1 hallway")
    s = make_state(text, units=[guard("G1", "B1", "E", awareness=0, movement=3, patrol="pace")])
    s.floor.caches = ["C1"]
    new, events = turn(s)
    assert moves_of(events, "G1")[0].path == ["B1", "C1", "D1", "E1"]
    assert new.floor.caches == ["C1"]


def test_patrol_pace_turns_about_at_a_door():
    """Patrol "pace" keeps to its area: a door ahead (locked or not) turns it about like a wall."""
    s = make_state(ROOMS, units=[guard("G1", "B2", "E", awareness=0, movement=2, patrol="pace")],
                   unlocked=["C1/C2"])
    new, events = turn(s)
    assert moves_of(events, "G1")[0].path == ["B2", "C2", "D2"]
    s = make_state(ROOMS, units=[guard("G1", "D2", "W", awareness=0, movement=4, patrol="pace")])
    new, events = turn(s)
    assert moves_of(events, "G1")[0].path == ["D2", "C2", "B2", "A2", "B2"]


L_HALL = floor_text("""
+-+-+-+-+
|E . . .|
+ +-+-+-+
|.|# # #
+ + + + +
|.|# # #
+-+ + + +
""", "A1 hallway")


def test_patrol_perimeter_around_an_l_shaped_hallway():
    """Patrol "perimeter" follows the inside edge around corners and comes back round: in an L of
    one-space corridors it walks every space, one orthogonal step at a time."""
    s = make_state(L_HALL, units=[guard("G1", "A1", "E", awareness=0, movement=6, patrol="perimeter")])
    visited = ["A1"]
    for _ in range(2):
        s, events = turn(s)
        visited += moves_of(events, "G1")[0].path[1:]
    assert len(visited) == 13
    assert set(visited) == {"A1", "B1", "C1", "D1", "A2", "A3"}
    f = compile_floor(s.floor.text, s.floor.name)
    for a, b in zip(visited, visited[1:]):
        assert f.direction(f.space(a), f.space(b)) is not None, (a, b)


def test_teleport_clears_awareness_chip_on_the_post():
    """"When a security unit moves onto an awareness chip, the chip is cleared\": also by teleporting."""
    s = make_state(POSTS, bots=[bot("byte", "B1", awareness="A1")], units=[captain("G2", "W", awareness=0)],
                   captain_card="fauxbia", rules=RuleOptions(investigate="area"))
    s.security[0].space = "D3"  # in the room: no chip to investigate in its own area
    new, events = turn(s)
    assert new.unit("CAP").space == "A1" and new.bot("byte").awareness is None


def test_unit_entering_play_mid_phase_takes_the_remaining_tiers():
    """The rulebook is silent on a unit that enters play during the security phase (a threat event fired
    by a shut-down): it takes the tiers still to come that turn (here Investigate), never a tier already
    resolved (it does not pursue the bot it spotted on arrival)."""
    text = floor_text("""
    +-+-+-+-+-+
    |E . . . 1|
    + + + + + +
    |. . . . .|
    +-+-+-+-+-+
    """, "A1 hallway")
    s = make_state(text, bots=[bot("byte", "A2", power=1, detected=True), bot("bit", "C1")],
                   units=[guard("G1", "B2", "W", awareness=2, movement=1)], threat=5)
    new, events = turn(s, ["1"])
    assert [f.threshold for f in of_type(events, "threat_event_fired")] == [8]
    assert new.unit("G2").space == "D1"
    assert [m.reason for m in moves_of(events, "G2")] == ["investigate"]
    assert [a.unit for a in of_type(events, "attacked")] == ["G1"]
