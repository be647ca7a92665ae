"""Instructions found wrong by playing from the command line: each says what happened at the table."""

from __future__ import annotations

from controller.rules.actions import Move, Step, StrikeWall
from controller.rules.phrasing import phrase
from controller.rules.state import DicePool
from tests.support.rules_scenarios import CONTENT, bot, guard, make_state, module, of_type, turn
from tests.support.turn_scenarios import DOORS, act, chips, in_turn

MODS = {c.id: c for c in CONTENT.mods}


def test_nano_discarding_two_keys_says_so():
    """Reassemble: "all keys, equipment, and mods (not including his innate mod) in his inventory are
    discarded" was told as "Nano takes a key (now 0)"."""
    nano = bot("nano", "B2")
    nano.abilities = ["reassemble"]
    nano.keys = 2
    s = in_turn(make_state(DOORS, bots=[nano, module("F1")], slots=chips("general", "general", "general")),
                step="actions")
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    s, events = act(s, Step(bot="nano", to="B3", reassemble=True))
    [keys] = of_type(events, "key_taken")
    assert keys.change == -2 and keys.keys == 0
    assert phrase(keys, s) == "Nano discards 2 keys (now 0)."


def test_a_failed_wall_strike_tells_its_result():
    """"Failure: No chip is placed and the bot remains undetected." happened without a word."""
    s = in_turn(make_state(DOORS, bots=[bot("byte", "C3"), module("A1")], slots=chips("general", "general")),
                step="actions")
    s, events = act(s, StrikeWall(bot="byte", beyond="D3", dice=DicePool(basic=4)), ["2"] * 4)
    [held] = of_type(events, "wall_held")
    assert held.wall == "C3/D3" and held.bot == "byte" and held.ap == 8 and held.durability == 10
    assert phrase(held, s) == ("Byte strikes the wall C3/D3 with 8 AP against durability 10: the wall holds; "
                                  "no chip is placed and Byte stays undetected.")


def test_a_guard_beside_an_occupied_awareness_chip_is_not_blocked():
    """"Security units move toward active awareness chips to clear them": beside a chip another unit stands on,
    the unit waits; it used to say its way was blocked."""
    s = make_state(bots=[bot("byte", "E5", awareness="A1"), module("E4")],
                   units=[guard("G1", "A2", "S", awareness=1, movement=2, patrol="pace"),
                          guard("G2", "A1", "N", awareness=0, movement=0, patrol="stationary")])
    s, events = turn(s)
    [stayed] = [e for e in of_type(events, "unit_stayed") if e.unit == "G1"]
    assert "blocked" not in stayed.reason
    assert phrase(stayed, s) == "Guard 1 stays on A2 (investigating the awareness chip on A1, where guard 2 stands)."
