"""Rulebook "Awareness & Detection" (with "Awareness Range", "Awareness Through Doors", "Awareness in Safe
Zones", "Awareness in Hiding Spots" and "Hiding Spots"): one scenario per sentence."""

from __future__ import annotations

from controller.rules.board.awareness import sight, step_bot
from controller.rules.board.geometry import compile_floor
from controller.rules.state import RuleOptions
from tests.support.rules_scenarios import bot, floor_text, guard, make_state, moves_of, of_type, table, turn


def seen_by(state, unit_id: str) -> set[str]:
    """The spaces a unit of the state sees, by name."""
    f = compile_floor(state.floor.text, state.floor.name)
    u = state.unit(unit_id)
    return {f.ids[i] for i in sight(f, f.space(u.space), u.facing, u.awareness, state.rules.peripheral)}


# -- the awareness chip ------------------------------------------------------------------------------
def test_awareness_chip_marks_last_confirmed_position():
    """"Each bot has an awareness chip placed on the floor to mark its last confirmed position.\": a
    detected bot that moves out of sight leaves its chip where it was last seen."""
    s = make_state(bots=[bot("byte", "A3", detected=True)], units=[guard("G1", "A5", "N", awareness=3)])
    t = table(s)
    b = t.state.bot("byte")
    step_bot(t, b, t.floor.space("B3"))  # out of the guard's sight (A4..A2 ahead, B5/C5 to the side)
    assert b.awareness == "A3" and b.space == "B3"
    assert not b.detected


def test_bot_whose_chip_occupies_its_space_is_detected():
    """"A bot whose awareness chip occupies its current space is detected.\""""
    assert bot("byte", "C3", awareness="C3").detected
    assert not bot("byte", "C3", awareness="C2").detected
    assert not bot("byte", "C3", awareness=None).detected


def test_detection_upon_entering_a_guards_awareness_range():
    """"Detection occurs upon entering a guard's awareness range\": a bot stepping into sight is detected
    at once, its chip placed on its space."""
    s = make_state(bots=[bot("byte", "B3")], units=[guard("G1", "A5", "N", awareness=3)])
    t = table(s)
    b = t.state.bot("byte")
    assert not b.detected
    step_bot(t, b, t.floor.space("A3"))
    assert b.detected and b.awareness == "A3"
    assert [type(e).__name__ for e in t.events] == ["AwarenessPlaced", "BotDetected"]


def test_awareness_checked_continuously_during_a_guards_move():
    """"Security awareness is continuously checked at all times, during any phase or turn.\": a guard that
    walks past a bot detects it on the step it sees the bot, not only where it stops."""
    # The guard paces east along row 5; from B5 facing east it sees C5..E5 but only B4/B3 to the north.
    s = make_state(bots=[bot("byte", "B3")],
                   units=[guard("G1", "A5", "E", awareness=3, movement=3, patrol="pace")])
    assert "B3" not in seen_by(s, "G1")
    new, events = turn(s)
    assert moves_of(events, "G1")[0].path == ["A5", "B5", "C5", "D5"]
    assert "B3" not in seen_by(new, "G1")  # not seen from where the guard stopped...
    assert new.bot("byte").awareness == "B3"  # ...but seen on the way
    detected = of_type(events, "bot_detected")
    assert detected and detected[0].space == "B3"


def test_awareness_checked_at_start_of_corporation_turn():
    """"Security awareness is continuously checked at all times, during any phase or turn.\": a bot that
    already stands in a guard's sight when the corporation turn begins is detected before the guards
    activate, so the guard pursues and attacks it in that activation."""
    s = make_state(bots=[bot("byte", "A2", power=5)], units=[guard("G1", "A5", "N", awareness=3, movement=2)])
    new, events = turn(s)
    assert new.unit("G1").space == "A3"
    assert of_type(events, "attacked")[0].bot == "byte"
    assert new.bot("byte").power == 4


def test_awareness_checked_after_a_guard_turns():
    """"Security awareness is continuously checked at all times": a guard that turns to face the bot it
    attacks detects the bot now straight ahead of it (direct sight 3, peripheral only 2)."""
    s = make_state(bots=[bot("a", "D3", detected=True), bot("b", "F3")],
                   units=[guard("G1", "C3", "N", awareness=3, movement=2)])
    assert "F3" not in seen_by(s, "G1")
    new, events = turn(s)
    assert new.unit("G1").facing == "E" and new.unit("G1").space == "C3"
    assert of_type(events, "unit_turned")
    assert new.bot("b").detected


def test_seasoned_threat_plus_one_when_chip_enters_from_off_board():
    """"On Seasoned difficulty, threat increases by +1 whenever an awareness chip enters the board from
    off-board.\""""
    for difficulty, expected in (("seasoned", 2), ("standard", 1)):
        s = make_state(bots=[bot("byte", "C3")], units=[guard("G1", "C5", "N", awareness=3)],
                       difficulty=difficulty, players=1)
        new, events = turn(s)
        assert new.bot("byte").detected
        assert new.threat == expected, difficulty  # +1 for the chip (Seasoned only), +1 end of round
        placed = of_type(events, "awareness_placed")
        assert placed[0].from_off_board


def test_seasoned_no_threat_when_chip_moves_on_the_board():
    """"... whenever an awareness chip enters the board from off-board.\": a chip already on the floor that
    moves to the bot's new space does not advance threat."""
    s = make_state(bots=[bot("byte", "A1", awareness="F1")], units=[guard("G1", "A5", "N", awareness=4)],
                   difficulty="seasoned")
    new, events = turn(s)
    assert new.bot("byte").detected
    assert not of_type(events, "awareness_placed")[0].from_off_board
    assert new.threat == 1  # the end of round only


def test_security_unit_moving_onto_chip_clears_it():
    """"When a security unit moves onto an awareness chip, the chip is cleared and returned to the bot's
    mat.\""""
    s = make_state(bots=[bot("byte", "F1", awareness="C3")],
                   units=[guard("G1", "C5", "N", awareness=1, movement=2)])
    new, events = turn(s)
    assert new.unit("G1").space == "C3"
    assert new.bot("byte").awareness is None
    cleared = of_type(events, "awareness_cleared")
    assert [(c.bot, c.space, c.unit) for c in cleared] == [("byte", "C3", "G1")]


def test_chip_cleared_by_a_unit_passing_over_it():
    """"When a security unit moves onto an awareness chip, the chip is cleared\": also when the unit only
    passes over it on a patrol."""
    s = make_state(bots=[bot("byte", "F1", awareness="B5")],
                   units=[guard("G1", "A5", "E", awareness=1, movement=3, patrol="pace")])
    # investigating comes first: the guard walks onto the chip
    new, _ = turn(s)
    assert new.bot("byte").awareness is None


# -- Awareness Range ----------------------------------------------------------------------------------
def test_direct_sight_full_stat_straight_ahead():
    """"Direct Sight: Equal to the full awareness stat in spaces straight ahead in the direction of the
    unit's facing, within the same area.\"
    Also: "Security units have an awareness stat printed on their chip:"
    """
    s = make_state(units=[guard("G1", "A5", "N", awareness=3)])
    seen = seen_by(s, "G1")
    assert {"A4", "A3", "A2"} <= seen and "A1" not in seen
    s = make_state(units=[guard("G1", "A5", "N", awareness=4)])
    assert "A1" in seen_by(s, "G1")


def test_peripheral_half_rounded_up_in_other_directions():
    """"Peripheral Awareness: Equal to half of the awareness stat (rounded up) in all other directions
    within the same area.\""""
    # awareness 3 -> 2 spaces east, west and behind; awareness 4 -> 2; awareness 5 -> 3
    for stat, reach in ((3, 2), (4, 2), (5, 3), (1, 1)):
        s = make_state(units=[guard("G1", "F3", "W", awareness=stat)])
        seen = seen_by(s, "G1")
        north = [sp for sp in ("F2", "F1") if sp in seen]
        south = [sp for sp in ("F4", "F5") if sp in seen]
        assert len(north) == min(reach, 2) and len(south) == min(reach, 2), stat
        ahead = [sp for sp in ("E3", "D3", "C3", "B3", "A3") if sp in seen]
        assert len(ahead) == min(stat, 5), stat
    s = make_state(units=[guard("G1", "C3", "N", awareness=3)])
    seen = seen_by(s, "G1")
    assert {"D3", "E3", "B3", "A3", "C4", "C5"} <= seen and "F3" not in seen  # behind counts too


def test_peripheral_is_straight_lines_by_default():
    """"Peripheral Awareness: ... in all other directions\": read as the three other straight lines
    (RuleOptions.peripheral = "cross"); "diamond" reads every space within the range."""
    s = make_state(units=[guard("G1", "C3", "N", awareness=4)])
    assert "D4" not in seen_by(s, "G1")
    s = make_state(units=[guard("G1", "C3", "N", awareness=4)], rules=RuleOptions(peripheral="diamond"))
    assert {"D4", "B2", "D2", "E3"} <= seen_by(s, "G1")


def test_detection_by_direct_and_peripheral_sight_in_a_turn():
    """"Direct Sight ... Peripheral Awareness ...\": in play, bots inside the range are detected and bots
    just outside it are not."""
    s = make_state(bots=[bot("a", "A2"), bot("b", "A1"), bot("c", "C5"), bot("d", "D5")],
                   units=[guard("G1", "A5", "N", awareness=3, movement=0)])
    new, _ = turn(s)
    assert [new.bot(x).detected for x in "abcd"] == [True, False, True, False]


# Hallway on row 1, a room on row 2 behind the door C1/C2, a safe zone on row 3 behind the door C2/C3...
DOORS = floor_text("""
+-+-+-+-+-+
|E . . . .|
+-+-+D+-+-+
|. . . . .|
+-+-+D+-+-+
|. . . . .|
+-+-+-+-+-+
""", """
A1 hallway "Hall"
A2 room "Room"
A3 safe "Safe zone"
""")


def test_sight_does_not_cross_doors_or_walls():
    """"... within the same area.\": rays stop at doors (locked or not) and walls."""
    s = make_state(DOORS, units=[guard("G1", "C1", "S", awareness=5)], unlocked=["C1/C2"])
    seen = seen_by(s, "G1")
    assert seen == {"A1", "B1", "D1", "E1"}


def test_awareness_through_door_chip_follows_when_range_reaches():
    """"Security units only see into another area when a detected bot moves through a door: the unit
    temporarily sees 1 space beyond that door, provided its range reaches it. If the bot is spotted
    entering the space, its awareness chip follows it.\""""
    s = make_state(DOORS, bots=[bot("byte", "C1", detected=True)],
                   units=[guard("G1", "A1", "E", awareness=4)], unlocked=["C1/C2"])
    t = table(s)
    b = t.state.bot("byte")
    step_bot(t, b, t.floor.space("C2"))
    assert b.awareness == "C2" and b.detected


def test_chip_following_through_door_is_not_from_off_board():
    """"If the bot is spotted entering the space, its awareness chip follows it.": the chip moves along the
    floor, so it does not "enter the board from off-board" and Seasoned adds no threat."""
    s = make_state(DOORS, bots=[bot("byte", "C1", detected=True)],
                   units=[guard("G1", "A1", "E", awareness=4)], unlocked=["C1/C2"], difficulty="seasoned",
                   threat=2)
    t = table(s)
    b = t.state.bot("byte")
    step_bot(t, b, t.floor.space("C2"))
    assert b.awareness == "C2"
    assert t.state.threat == 2
    assert not of_type(t.events, "awareness_placed")[0].from_off_board


def test_awareness_through_door_not_beyond_range():
    """"... the unit temporarily sees 1 space beyond that door, provided its range reaches it.\": with
    range 2 the guard sees C1 but not the space beyond the door; the chip stays on C1."""
    s = make_state(DOORS, bots=[bot("byte", "C1", detected=True)],
                   units=[guard("G1", "A1", "E", awareness=2)], unlocked=["C1/C2"])
    t = table(s)
    b = t.state.bot("byte")
    step_bot(t, b, t.floor.space("C2"))
    assert b.awareness == "C1" and not b.detected


def test_no_sight_beyond_door_for_an_undetected_bot():
    """"Security units only see into another area when a detected bot moves through a door": a hidden
    (undetected) bot on the door space, in the guard's sight, slips through the door unseen; the same move
    by a detected bot is seen."""
    text = floor_text("""
    +-+-+-+-+-+
    |E . H . .|
    +-+-+D+-+-+
    |. . . . .|
    +-+-+-+-+-+
    """, """
    A1 hallway "Hall"
    A2 room "Room"
    """)
    for hidden, seen in ((True, False), (False, True)):
        s = make_state(text, bots=[bot("byte", "C1", hidden=hidden, detected=not hidden)],
                       units=[guard("G1", "A1", "E", awareness=4)], unlocked=["C1/C2"])
        t = table(s)
        b = t.state.bot("byte")
        step_bot(t, b, t.floor.space("C2"))
        assert b.detected is seen, hidden
        assert (b.awareness == "C2") is seen


def test_guards_outside_safe_zones_cannot_see_into_them():
    """"Guards outside safe zones cannot see into them when bots enter through doors; awareness chips are
    left outside.\""""
    s = make_state(DOORS, bots=[bot("byte", "C2", detected=True)],
                   units=[guard("G1", "A2", "E", awareness=5)], unlocked=["C2/C3"])
    t = table(s)
    b = t.state.bot("byte")
    step_bot(t, b, t.floor.space("C3"))
    assert b.awareness == "C2" and not b.detected
    new, events = turn(t.state)
    assert not new.bot("byte").detected  # the guard (investigating) cannot see into the safe zone


def test_guard_inside_safe_zone_sees_within_it():
    """"Safe zones are distinct rooms and separate areas.\": a unit inside a safe zone sees its own area
    (only guards outside cannot see in)."""
    s = make_state(DOORS, bots=[bot("byte", "E3")], units=[guard("G1", "A3", "E", awareness=5)])
    new, _ = turn(s)
    assert new.bot("byte").detected


# -- Hiding spots -------------------------------------------------------------------------------------
HIDE = floor_text("""
+-+-+-+-+-+
|E . . . .|
+-+-+D+-+-+
|. . H . .|
+ + + + + +
|. . . . .|
+-+-+-+-+-+
""", """
A1 hallway "Hall"
A2 room "Room"
""")


def test_undetected_bot_entering_hiding_spot_hides():
    """"When entered by an undetected bot (or outside enemy awareness), the bot hides and cannot be detected
    via awareness.\""""
    s = make_state(HIDE, bots=[bot("byte", "C3")], units=[guard("G1", "A2", "E", awareness=4)])
    t = table(s)
    b = t.state.bot("byte")
    step_bot(t, b, t.floor.space("C2"))  # C2 lies in the guard's direct sight
    assert b.hidden and not b.detected
    assert [type(e).__name__ for e in t.events] == ["BotHidden"]


def test_hidden_bot_cannot_be_detected_via_awareness():
    """"... the bot hides and cannot be detected via awareness.\": a guard looking straight at a hidden bot
    two spaces away does not detect it during a corporation turn."""
    s = make_state(HIDE, bots=[bot("byte", "C2", hidden=True)], units=[guard("G1", "A2", "E", awareness=4)])
    new, events = turn(s)
    assert new.bot("byte").hidden and not new.bot("byte").detected


def test_enemy_entering_hiding_spot_detects_bot():
    """"If an enemy enters the space, the bot is detected.\" (a unit cannot share a space, so the engine
    reads a unit stepping next to the spot inside its area as entering it)"""
    s = make_state(HIDE, bots=[bot("byte", "C2", hidden=True)],
                   units=[guard("G1", "A2", "E", awareness=4, movement=1, patrol="pace")])
    t = table(s)
    from controller.rules.board.awareness import step_unit
    step_unit(t, t.state.unit("G1"), t.floor.space("B2"))
    b = t.state.bot("byte")
    assert b.detected and not b.hidden


def test_detected_bot_entering_visible_hiding_spot_stays_detected():
    """"A bot moving onto a hiding spot becomes hidden only if undetected when entering ... If a detected
    bot steps into a visible hiding spot, hiding fails and detection remains.\""""
    s = make_state(HIDE, bots=[bot("byte", "D2", detected=True)], units=[guard("G1", "A2", "E", awareness=4)])
    t = table(s)
    b = t.state.bot("byte")
    step_bot(t, b, t.floor.space("C2"))
    assert not b.hidden and b.detected and b.awareness == "C2"


def test_detected_bot_entering_hiding_spot_outside_awareness_hides():
    """"... or if the hiding spot lies outside enemy awareness when entering.\": a detected bot (its chip
    on its space) steps onto a hiding spot no unit sees, and hides."""
    s = make_state(HIDE, bots=[bot("byte", "C3", detected=True)], units=[guard("G1", "E3", "S", awareness=1)])
    t = table(s)
    b = t.state.bot("byte")
    step_bot(t, b, t.floor.space("C2"))
    assert b.hidden and not b.detected
    assert b.awareness == "C3"  # the chip stays where it was last confirmed


def test_awareness_checked_when_a_guard_enters_play():
    """"Security awareness is continuously checked at all times, during any phase or turn.\": a guard that a
    threat event places on a post (threat advancement phase) detects the bot it sees at once."""
    text = floor_text("""
    +-+-+-+-+-+
    |E . . . 1|
    +-+-+-+-+-+
    """, "A1 hallway")
    s = make_state(text, bots=[bot("byte", "C1")], threat=7)
    new, events = turn(s, ["1"])  # the guard bag draw
    assert [u.space for u in new.security] == ["E1"] and new.security[0].facing == "W"
    assert new.bot("byte").detected
    tags = [type(e).__struct_config__.tag for e in events]
    assert tags.index("unit_placed") < tags.index("bot_detected")


def test_awareness_checked_when_a_stunned_unit_flips_back():
    """"Security awareness is continuously checked at all times\": a stunned unit ignores awareness, and
    sees again as soon as it flips back (end of the security phase)."""
    s = make_state(bots=[bot("byte", "C3")], units=[guard("G1", "C5", "N", awareness=3, stunned=True)])
    new, events = turn(s)
    tags = [type(e).__struct_config__.tag for e in events]
    assert tags.index("unit_stun_ended") < tags.index("bot_detected")
    assert new.bot("byte").detected
