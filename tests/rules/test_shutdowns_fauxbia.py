"""Rulebook "Shut Downs & Stuns", and the Robophobia captain Fauxbia (L453R, Teleport is in
test_security.py, her burncycle action in test_threat.py)."""

from __future__ import annotations

from tests.support.rules_scenarios import bot, captain, floor_text, guard, make_state, module, moves_of, of_type, turn


# -- Bot Shut Down ------------------------------------------------------------------------------------
def test_bot_shut_down_at_zero_power_threat_plus_three():
    """"Bot Shut Down: Power reaches 0. Threat increases by +3; bot chip flips.\""""
    s = make_state(bots=[bot("byte", "C3", power=2, detected=True)],
                   units=[guard("G1", "C4", "N", level=2, awareness=3)], difficulty="simplified", threat=1)
    new, events = turn(s)
    b = new.bot("byte")
    assert b.power == 0 and b.shut_down
    assert of_type(events, "bot_shut_down")[0].bot == "byte"
    changes = [(c.old, c.new) for c in of_type(events, "threat_changed")]
    assert changes == [(1, 4), (4, 5)]  # +3 for the shut-down, then +1 at the end of the round
    assert new.outcome is None


def test_damage_short_of_zero_does_not_shut_down():
    """"Bot Shut Down: Power reaches 0.\": a bot left with power is not shut down."""
    s = make_state(bots=[bot("byte", "C3", power=3, detected=True)],
                   units=[guard("G1", "C4", "N", level=2, awareness=3)])
    new, events = turn(s)
    assert new.bot("byte").power == 1 and not new.bot("byte").shut_down
    assert of_type(events, "bot_shut_down") == []


def test_power_never_below_zero():
    """"Power serves as bot health (0 power = shut down)\": a 3-damage attack on a 1-power bot leaves 0."""
    s = make_state(bots=[bot("byte", "C3", power=1, detected=True)],
                   units=[guard("G1", "C4", "N", level=3, awareness=3)])
    new, events = turn(s)
    assert new.bot("byte").power == 0
    assert of_type(events, "attacked")[0].damage == 1  # the power actually lost


def test_shut_down_bot_cannot_be_attacked_again():
    """"Cannot act or advance floors until repaired.\": a shut-down bot is out of play for security, which
    neither pursues nor attacks it."""
    s = make_state(bots=[bot("byte", "C3", power=0, detected=True, shut_down=True)],
                   units=[guard("G1", "C4", "N", level=3, awareness=3)])
    new, events = turn(s)
    assert of_type(events, "attacked") == []
    assert new.threat == 1


def test_command_module_shut_down_loses_the_game():
    """"If the command module shuts down, the game is immediately lost.\"
    Also: "If the command module is shut down, the game is immediately lost."
    """
    s = make_state(bots=[module("C3", power=1, detected=True), bot("byte", "F1")],
                   units=[guard("G1", "C4", "N", awareness=3)], net=None)
    new, events = turn(s)
    assert new.bot("module").shut_down
    assert new.outcome is not None and new.outcome.result == "defeat" and new.outcome.cause == "module_shut_down"
    assert of_type(events, "defeat")[0].reason == "the command module was shut down"
    phases = [e.phase for e in of_type(events, "phase_started")]
    assert phases == ["security activation"]  # immediately: no ping activation, no threat advancement
    assert of_type(events, "threat_changed") == []


def test_game_over_refuses_another_corporation_turn():
    """"the game is immediately lost.\": a lost game takes no further corporation turn."""
    import pytest

    from controller.rules import IllegalAction
    s = make_state(bots=[module("C3", power=1, detected=True)], units=[guard("G1", "C4", "N", awareness=3)])
    new, _ = turn(s)
    with pytest.raises(IllegalAction):
        turn(new)


# -- Stunned Security ---------------------------------------------------------------------------------
def test_stunned_unit_skips_activation():
    """"Stunned Security: Unit chip is flipped face down; skips activation this round\": even with a
    detected bot next to it."""
    s = make_state(bots=[bot("byte", "C3", detected=True)],
                   units=[guard("G1", "C4", "N", awareness=3, movement=3, patrol="pace", stunned=True)])
    new, events = turn(s)
    assert new.unit("G1").space == "C4"
    assert of_type(events, "attacked") == [] and moves_of(events, "G1") == []
    stayed = [e for e in of_type(events, "unit_stayed") if e.unit == "G1"]
    assert "stunned" in stayed[0].reason


def test_stunned_unit_ignores_awareness():
    """"Stunned Security: ... ignores awareness/abilities.\": a bot in a stunned unit's sight is not
    detected while it is stunned, and a stunned Fauxbia fires no L453R."""
    s = make_state(bots=[bot("byte", "C2"), bot("bit", "F4", detected=True)],
                   units=[guard("G1", "C5", "N", awareness=4, stunned=True),
                          captain("F1", "S", movement=0, stunned=True)],
                   captain_card="fauxbia")
    from controller.rules.board.awareness import recheck
    from tests.support.rules_scenarios import table
    t = table(s)
    recheck(t)
    assert not t.state.bot("byte").detected
    new, events = turn(s)
    assert of_type(events, "attacked") == []


def test_stunned_unit_flips_back_at_end_of_security_phase():
    """"Reactivates at end of corporation turn.\" (the engine flips it back at the end of the security
    phase, before ping activation, as issue 2 states) and acts normally on the next turn."""
    s = make_state(bots=[bot("byte", "C3", detected=True)],
                   units=[guard("G1", "C4", "N", awareness=3, stunned=True)])
    new, events = turn(s)
    assert not new.unit("G1").stunned
    kinds = [type(e).__struct_config__.tag for e in events]
    assert kinds.index("unit_stun_ended") < [i for i, e in enumerate(events)
                                            if kinds[i] == "phase_started" and e.phase == "ping activation"][0]
    new2, events2 = turn(new)
    assert of_type(events2, "attacked")[0].unit == "G1"


# -- Fauxbia: L453R ----------------------------------------------------------------------------------
def test_l453r_damage_by_distance():
    """"L453R: Fauxbia can attack detected bots up to 3 spaces away. Bots that are attacked from 2 spaces
    away lose 2 power instead of 3, and bots that are 3 spaces away lose only 1 power.\""""
    for space, damage in (("C4", 3), ("C3", 2), ("C2", 1)):
        s = make_state(bots=[bot("byte", space, power=5, detected=True)],
                       units=[captain("C5", "N", movement=0)], captain_card="fauxbia")
        new, events = turn(s)
        attack = of_type(events, "attacked")
        assert attack and attack[0].damage == damage, space
        assert attack[0].distance == 5 - int(space[1])
        assert new.bot("byte").power == 5 - damage


def test_l453r_not_beyond_three_spaces():
    """"Fauxbia can attack detected bots up to 3 spaces away.\": at 4 spaces she does not."""
    s = make_state(bots=[bot("byte", "C1", detected=True)],
                   units=[captain("C5", "N", movement=0)], captain_card="fauxbia")
    new, events = turn(s)
    assert of_type(events, "attacked") == []


def test_l453r_after_pursuit_movement():
    """L453R in a pursuit: Fauxbia closes in by her movement (3), then fires from where she stands: a bot
    5 spaces away straight ahead ends 2 spaces away and loses 2 power."""
    text = floor_text("""
    +-+-+-+-+-+-+-+
    |E . . . . . .|
    +-+-+-+-+-+-+-+
    """, "A1 hallway")
    s = make_state(text, bots=[bot("byte", "G1", power=5, detected=True)],
                   units=[captain("B1", "E")], captain_card="fauxbia")
    new, events = turn(s)
    assert moves_of(events, "CAP")[0].path == ["B1", "C1", "D1", "E1"]
    attack = of_type(events, "attacked")[0]
    assert (attack.damage, attack.distance) == (2, 2)


def test_l453r_needs_sight():
    """L453R targets "detected bots" Fauxbia is aware of: not through a door into another area."""
    text = floor_text("""
    +-+-+-+-+-+
    |E . . . .|
    +-+-+D+-+-+
    |. . . . .|
    +-+-+-+-+-+
    """, """
    A1 hallway "Hall"
    A2 room "Room"
    """)
    s = make_state(text, bots=[bot("byte", "C2", detected=True)],
                   units=[captain("B1", "E", movement=0)], captain_card="fauxbia")
    new, events = turn(s)
    assert of_type(events, "attacked") == []


def test_l453r_disabled_on_simplified():
    """"Simplified: ... Security unit special abilities are disabled.\": no L453R, but her ordinary adjacent
    attack (3 damage) remains."""
    s = make_state(bots=[bot("byte", "C3", power=5, detected=True)],
                   units=[captain("C5", "N", movement=0)], captain_card="fauxbia", difficulty="simplified")
    new, events = turn(s)
    assert of_type(events, "attacked") == []
    s = make_state(bots=[bot("byte", "C4", power=5, detected=True)],
                   units=[captain("C5", "N", movement=0)], captain_card="fauxbia", difficulty="simplified")
    new, events = turn(s)
    assert of_type(events, "attacked")[0].damage == 3


def test_l453r_active_on_standard():
    """"Standard: Standard threat card and all abilities active.\""""
    s = make_state(bots=[bot("byte", "C3", power=5, detected=True)],
                   units=[captain("C5", "N", movement=0)], captain_card="fauxbia", difficulty="standard")
    new, events = turn(s)
    assert of_type(events, "attacked")[0].damage == 2


def test_only_fauxbia_has_a_ranged_attack():
    """L453R is Fauxbia's: the Overseer (and every guard) attacks only when adjacent."""
    s = make_state(bots=[bot("byte", "C3", detected=True)],
                   units=[captain("C5", "N", name="overseer", movement=0)])
    new, events = turn(s)
    assert of_type(events, "attacked") == []
