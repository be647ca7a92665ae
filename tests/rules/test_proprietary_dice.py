"""Rulebook "Agents" and "Move Actions": the agents' proprietary dice.

Casing's card prints the pressure die (move AP only Casing may spend), Bit's the lift die (AP for a strike on
a wall or a brute force on a door). The die joins the agent's pool in step 2 and is rolled when the action's
dice name it (`proprietary = 1`), before the pool dice. Every test quotes the sentence it checks.
"""

from __future__ import annotations

import pytest

from controller.rules import StateError, check_state
from controller.rules.actions import BeginActions, Keypad, Move, Step, Strike, StrikeWall, Swap, legal_actions
from controller.rules.characters.proprietary_dice import FACES
from controller.rules.phrasing import phrase
from controller.rules.state import DicePool, PendingMove
from tests.support.rules_scenarios import CONTENT, bot, guard, make_state, module
from tests.support.turn_scenarios import DOORS, act, chips, decks, illegal, in_turn


def casing_and_module(step="actions", slots=None, **kw):
    """Casing on C3 and the module on D3 of the open hallway, Casing's pressure die in the pool."""
    casing = bot("casing", "C3")
    casing.proprietary_die = "pressure"
    s = make_state(bots=[casing, module("D3")], slots=slots or chips("general", "general", "general"), **kw)
    s = in_turn(s, step=step)
    s.turn.pool.proprietary = 1 if step == "actions" else 0
    return s


def bit_at(space="A1", text="", module_at="F4", **kw):
    b = bot("bit", space)
    b.proprietary_die = "lift"
    s = make_state(text, bots=[b, module(module_at)], slots=chips("general", "general", "general"), **kw)
    s = in_turn(s)
    s.turn.pool.proprietary = 1
    return s


def test_shipped_agent_cards_print_their_proprietary_dice():
    """"Certain agents possess proprietary dice (e.g., Casing's Pressure die, Bit's Lift die) that are only
    used when playing as an agent." (bots.toml: Casing's pressure die and Bit's lift die, with the faces of
    dice.toml; the other agents have none)"""
    dice = {a.id: a.die for a in CONTENT.agents}
    assert dice["casing"] == "pressure" and dice["bit"] == "lift"
    assert all(die is None for agent, die in dice.items() if agent not in ("casing", "bit"))
    for die, faces in FACES.items():
        assert list(faces) == CONTENT.dice[die]


def test_the_proprietary_die_joins_its_agents_pool():
    """"Certain agents possess proprietary dice ... that are only used when playing as an agent." (step 2:
    Casing's pool holds the pressure die)"""
    s, events = act(casing_and_module(step="route"), BeginActions())
    assert s.turn.pool == DicePool(basic=5, proprietary=1)
    assert "1 pressure die" in phrase(events[0], s)


def test_pressure_die_ap_move_only_casing():
    """">> Powers that explicitly modify agent movement (e.g., Casing's Pressure die) cannot be applied to the
    command module." (the pressure die shows 3 and a basic die 1: the module takes the 1 step it may; its
    second step is refused, naming the rule, and the table is unchanged; Casing takes the die's 3)"""
    s, events = act(casing_and_module(), Move(dice=DicePool(basic=1, proprietary=1)), ["3", "1"])
    assert s.turn.pending == PendingMove(ap=1, agent_ap=3)
    assert s.turn.pool.proprietary == 0
    started = next(e for e in events if type(e).__name__ == "StepStarted" and e.step == "move")
    assert "3 AP only Casing may spend (pressure die)" in phrase(started, s)
    s, _ = act(s, Step(bot="module", to="E3"))
    illegal(s, Step(bot="module", to="F3"), "cannot be applied to the command module")
    for to in ("C2", "C1"):
        s, _ = act(s, Step(bot="casing", to=to))
    assert s.turn.pending is not None and s.turn.pending.agent_ap == 1
    s, _ = act(s, Step(bot="casing", to="B1"))
    assert s.turn.pending is None and s.burncycle.tracker == 1


def test_casing_spends_the_pressure_ap_first():
    """">> Powers that explicitly modify agent movement (e.g., Casing's Pressure die) cannot be applied to the
    command module." (Casing's steps use the die's AP first, so the AP the module may spend stay for it)"""
    s, _ = act(casing_and_module(), Move(dice=DicePool(basic=1, proprietary=1)), ["2", "2"])
    s, _ = act(s, Step(bot="casing", to="C2"))
    s, _ = act(s, Step(bot="casing", to="C1"))
    assert s.turn.pending == PendingMove(ap=2, agent_ap=0, steps={})
    s, _ = act(s, Step(bot="module", to="E3"))
    s, _ = act(s, Step(bot="module", to="F3"))
    assert s.bot("module").space == "F3" and s.turn.pending is None


def test_the_module_cannot_swap_with_pressure_ap():
    """">> Powers that explicitly modify agent movement (e.g., Casing's Pressure die) cannot be applied to the
    command module." (a swap is movement too: the module cannot pay it with the die's AP, Casing can)"""
    s = casing_and_module()
    s.bot("module").upgrades = ["swap"]
    s.bot("casing").upgrades = ["swap"]
    s, _ = act(s, Move(dice=DicePool(proprietary=1)), ["2"])
    illegal(s, Swap(bot="module", other="casing"), "cannot be applied to the command module")
    s, _ = act(s, Swap(bot="casing", other="module"))
    assert s.bot("casing").space == "D3" and s.turn.pending.agent_ap == 1


def test_legal_steps_of_the_module_stop_at_the_shared_ap():
    """">> Powers that explicitly modify agent movement (e.g., Casing's Pressure die) cannot be applied to the
    command module." (with only the die's AP left, legal_actions list Casing's steps and none of the
    module's, and every listed step applies)"""
    s, _ = act(casing_and_module(), Move(dice=DicePool(proprietary=1)), ["2"])
    steps = [la.action for la in legal_actions(s) if isinstance(la.action, Step)]
    assert steps and {a.bot for a in steps} == {"casing"}
    for a in steps:
        act(s, a)


def test_a_pressure_die_showing_0_with_no_other_ap_ends_the_move():
    """">> Powers that explicitly modify agent movement (e.g., Casing's Pressure die) cannot be applied to the
    command module." (0 on the die and no other dice: nothing to spend, the move action is over)"""
    s, _ = act(casing_and_module(), Move(dice=DicePool(proprietary=1)), ["0"])
    assert s.turn.pending is None and s.burncycle.tracker == 1


def test_the_die_is_rolled_once_a_turn():
    """"Certain agents possess proprietary dice ... that are only used when playing as an agent." (like the
    pool's dice, it returns to the supply once rolled: a second move action cannot roll it again)"""
    s, _ = act(casing_and_module(), Move(dice=DicePool(basic=1, proprietary=1)), ["0", "1"])
    s, _ = act(s, Step(bot="module", to="E3"))
    illegal(s, Move(dice=DicePool(basic=1, proprietary=1)), "has been rolled this turn")


def test_only_the_dice_that_fit_the_check():
    """"Certain agents possess proprietary dice (e.g., Casing's Pressure die, Bit's Lift die) that are only
    used when playing as an agent." (the pressure die joins no strike; Bit's lift die joins no move action;
    an agent without one rolls none; a card prints one die; nothing changes on a refusal)"""
    s = casing_and_module(units=[guard("G1", "C2", "S")])
    illegal(s, Strike(bot="casing", unit="G1", dice=DicePool(basic=1, proprietary=1)), "no proprietary die joins")
    illegal(s, Move(dice=DicePool(proprietary=2)), "prints one proprietary die")
    illegal(bit_at(), Move(dice=DicePool(proprietary=1)), "lift die is rolled with a strike on a wall")
    byte = make_state(bots=[bot("byte", "A1"), module("F5")], slots=chips("general"))
    byte = in_turn(byte)
    illegal(byte, Move(dice=DicePool(proprietary=1)), "agent card has no proprietary die")


def test_the_command_module_never_rolls_a_proprietary_die():
    """"Certain agents possess proprietary dice (e.g., Casing's Pressure die, Bit's Lift die) that are only used
    when playing as an agent." (the module strikes a wall with the player's pool, but not with Bit's lift die)"""
    s = bit_at(space="C3", module_at="F5")
    illegal(s, StrikeWall(bot="module", side="S", dice=DicePool(basic=4, proprietary=1)),
            "only used when playing as an agent")


def test_bits_lift_die_helps_break_a_wall():
    """"Certain agents possess proprietary dice (e.g., Casing's Pressure die, Bit's Lift die) that are only
    used when playing as an agent." (Bit's lift die shows 4, four basic dice 7: 11 AP break the exterior wall
    north of A1, where 7 alone would not)"""
    s, events = act(bit_at(), StrikeWall(bot="bit", side="N", dice=DicePool(basic=4, proprietary=1)),
                    ["4", "2", "2", "2", "1"])
    assert s.floor.destroyed_walls == ["A1/N"] and s.turn.pool == DicePool(basic=1)
    assert [e.die for e in events if type(e).__name__ == "DieRolled"][0] == "lift die"


def test_bits_lift_die_helps_force_a_door():
    """"Certain agents possess proprietary dice (e.g., Casing's Pressure die, Bit's Lift die) that are only
    used when playing as an agent." (brute force on a level 1 door, durability 4: the lift die's 3 and one
    basic die's 1)"""
    s = bit_at(space="B2", text=DOORS, **decks())
    keypad_dice = CONTENT.keypads[0].columns[0].dice
    s, _ = act(s, Keypad(bot="bit", beyond="B3", approach="brute_force", dice=DicePool(basic=1, proprietary=1)),
               ["K01"] + ["tech"] * keypad_dice + ["3", "1"])
    assert "B2/B3" in s.floor.unlocked_doors


def test_legal_actions_name_the_die():
    """"Certain agents possess proprietary dice ... that are only used when playing as an agent." (the dice
    the player may choose include the agent's own die while it is in the pool, with the AP checks it joins:
    Casing's with a move action; Bit's with Bit's strikes on walls, not the module's, and not with a move)"""
    s = casing_and_module()
    move = next(la for la in legal_actions(s) if isinstance(la.action, Move))
    assert ("proprietary", "pressure die", 1) in [(d.field, d.die, d.most) for d in move.dice]
    assert "the pressure die" in move.label
    listed = legal_actions(bit_at(module_at="F5"))
    walls = {la.action.bot: [d.die for d in la.dice] for la in listed if isinstance(la.action, StrikeWall)}
    assert "lift die" in walls["bit"] and "lift die" not in walls["module"]
    assert "lift die" not in [d.die for d in next(la for la in listed if isinstance(la.action, Move)).dice]


def test_proprietary_state_invariants():
    """"Certain agents possess proprietary dice ... that are only used when playing as an agent." (no die on
    the command module, none in the pool of an agent without one, no agent-only AP without a movement die)"""
    s = casing_and_module()
    s.bot("module").proprietary_die = "lift"
    with pytest.raises(StateError, match="proprietary die on the command module"):
        check_state(s)
    s = bit_at()
    s.turn.pending = PendingMove(ap=0, agent_ap=2)
    with pytest.raises(StateError, match="no die that modifies movement"):
        check_state(s)
    s = in_turn(make_state(bots=[bot("byte", "A1")], slots=chips("general")))
    s.turn.pool.proprietary = 1
    with pytest.raises(StateError, match="an agent whose card has none"):
        check_state(s)
