"""Rulebook "Free Actions": the very end of a turn, after the burncycle has degraded.

`degrade` rolls the burncycle die and degrades (step 5's first half); free actions may follow; `end_turn`
then passes the turn without rolling again. `end_turn` alone still does both, as before.
Every test quotes the sentence it checks.
"""

from __future__ import annotations

from controller.rules.actions import Alter, Degrade, EndTurn, InstallMod, Trade, UseEquipment, legal_actions
from tests.support.rules_scenarios import CONTENT, bot, make_state, module
from tests.support.turn_scenarios import act, chips, illegal, in_turn, tags

MODS = {c.id: c for c in CONTENT.mods}
EQ = {c.id: c for c in CONTENT.equipment}


def ending(**kw):
    """Byte and the module side by side at the end of Byte's turn, a physical chip in the team reserve."""
    s = make_state(bots=[bot("byte", "A1", power=4), module("B1")], slots=chips("general", "general", "general"),
                   **kw)
    s.burncycle.team_reserve = ["physical"]
    return in_turn(s, step="end")


def test_free_actions_after_degrading_the_burncycle():
    """">> Free actions are permitted at the very beginning of a turn before taking any action-step actions,
    or at the very end after degrading the burncycle." (the burncycle die degrades slot 2; Byte then alters
    slot 2 back to an active physical chip and hands a key to the module, and only then ends the turn)"""
    s = ending()
    s.bot("byte").keys = 1
    s, events = act(s, Degrade(), ["2"])
    assert tags(events)[:2] == ["die_rolled", "chip_changed"]
    assert s.burncycle.slots[1].degraded and s.turn.step == "end" and s.turn.degraded
    s, _ = act(s, Alter(slot=2, chip="physical"))
    s, _ = act(s, Trade(bot="byte", to="module", keys=1))
    assert s.burncycle.slots[1].kind == "physical" and not s.burncycle.slots[1].degraded
    assert s.bot("module").keys == 1
    s, events = act(s, EndTurn())  # no second burncycle die
    assert "die_rolled" not in tags(events) and s.turn.step == "corporation" and not s.turn.degraded


def test_equipment_and_mods_after_the_degrade():
    """">> Free actions are permitted ... at the very end after degrading the burncycle." (equipment use and
    installing a mod are free actions too: a detected Byte clears its awareness chip with equipment and
    installs a mod after the degrade)"""
    s = ending()
    s.bot("byte").awareness = "A1"
    s.bot("byte").equipment = [EQ["E04"].__copy__()]
    s.bot("byte").mods = [MODS["M01"].__copy__()]
    s, _ = act(s, Degrade(choose=None), ["1"])
    s, _ = act(s, UseEquipment(bot="byte", card="E04"))
    s, _ = act(s, InstallMod(bot="byte", card="M01"))
    assert not s.bot("byte").detected and [m.id for m in s.bot("byte").installed] == ["M01"]
    s, _ = act(s, EndTurn())
    assert s.turn.step == "corporation"


def test_end_turn_alone_still_degrades_and_passes():
    """"At the end of every turn, roll the burncycle die to degrade a slot" (an end_turn without a degrade
    before it rolls the die itself, as it always has)"""
    s, events = act(ending(), EndTurn(), ["3"])
    assert s.burncycle.slots[2].degraded and tags(events)[:2] == ["die_rolled", "chip_changed"]
    assert s.turn.step == "corporation"


def test_the_burncycle_degrades_once_a_turn():
    """"At the end of every turn, roll the burncycle die to degrade a slot" (once: a second degrade, or a
    chooser slot given to end_turn after it, is refused and changes nothing)"""
    s, _ = act(ending(), Degrade(), ["1"])
    illegal(s, Degrade(), "already degraded this turn")
    illegal(s, EndTurn(choose=2), "already degraded this turn")
    illegal(ending(), Degrade(choose=6), "slots 1 to 5")


def test_degrade_belongs_to_the_end_of_the_turn():
    """"At the end of every turn, roll the burncycle die to degrade a slot" (not during the action step)"""
    s = make_state(bots=[bot("byte", "A1"), module("B1")], slots=chips("general"))
    illegal(in_turn(s), Degrade(), "belongs to the end of the turn")


def test_the_next_turn_starts_undegraded():
    """"At the end of every turn, roll the burncycle die to degrade a slot" (each turn rolls its own: the
    next player's end step offers the degrade again)"""
    s = make_state(bots=[bot("byte", "A1"), bot("bit", "C1"), module("B1")],
                   slots=chips("general", "general", "general"))
    s = in_turn(s, step="end", order=["byte", "bit"])
    s, _ = act(s, Degrade(), ["1"])
    s, _ = act(s, EndTurn())
    assert s.turn.order[s.turn.active] == "bit" and not s.turn.degraded


def test_legal_actions_offer_the_degrade_then_only_the_end():
    """">> Free actions are permitted ... at the very end after degrading the burncycle." (before the degrade
    the list offers degrade and end_turn; after it, end_turn without a die and the free actions, and no
    second degrade)"""
    s = ending()
    before = [type(la.action).__name__ for la in legal_actions(s)]
    assert "Degrade" in before and "EndTurn" in before
    s, _ = act(s, Degrade(), ["1"])
    after = legal_actions(s)
    names = [type(la.action).__name__ for la in after]
    assert "Degrade" not in names and "EndTurn" in names and "Alter" in names
    for la in after:
        if isinstance(la.action, (EndTurn, Alter)):
            act(s, la.action)
