"""Rulebook "Upgrading & Deactivating Slots": an event that deactivates a slot.

The shipped standard threat card's event at 18 ("Burnout") has the effect `deactivate_slot`: the rightmost
burncycle slot with a peg loses it. Every test quotes the sentence it checks.
"""

from __future__ import annotations

from controller.rules.actions import Strike, UnlockSlot
from controller.rules.corporation.threat import change_threat
from controller.rules.corporation.threat_effects import do_effect
from controller.rules.phrasing import phrase
from controller.rules.state import DicePool, Effect
from tests.support.rules_scenarios import CONTENT, bot, guard, make_state, module, of_type, table
from tests.support.turn_scenarios import act, chips, in_turn


def burnout(state):
    t = table(state)
    change_threat(t, 1, "test")
    return t.state, t.events


def test_an_event_deactivating_a_slot_removes_its_peg_and_returns_its_chip():
    """"If an event deactivates a slot, remove its peg and return its chip to the supply." (threat reaches 18:
    slot 3, the rightmost with a peg, is emptied; its tech chip goes to no reserve)"""
    s = make_state(threat=17, slots=chips("general", "physical", "tech"))
    new, events = burnout(s)
    assert [f.threshold for f in of_type(events, "threat_event_fired")] == [18]
    assert new.burncycle.slots == chips("general", "physical")
    changed = of_type(events, "chip_changed")
    assert [(c.slot, c.chip) for c in changed] == [(3, "none")]
    assert "Empty burncycle slot 3" in phrase(changed[0], new) and "supply" in phrase(changed[0], new)
    assert new.burncycle.team_reserve == [] and new.burncycle.personal_reserves == {}


def test_the_standard_threat_card_deactivates_a_slot_at_18():
    """"If an event deactivates a slot, remove its peg and return its chip to the supply." (the shipped
    content uses the effect)"""
    events = {e.threshold: e.effect for e in CONTENT.threat_cards["standard"].events}
    assert events[18] == Effect(kind="deactivate_slot")


def test_a_deactivated_slot_can_be_unlocked_again_at_its_printed_cost():
    """"If an event deactivates a slot, remove its peg and return its chip to the supply." "Players can
    unlock new slots during the power routing step by paying the power cost printed on the command module
    card." (4 slots, the 4th lost: unlocking it again costs the 4th slot's 4 power and brings a general chip)"""
    s = make_state(threat=17, bots=[bot("byte", "A1", power=5), module("B1", power=6)],
                   slots=chips("general", "general", "general", "tech"), module_slot_costs=[4, 6])
    s, _ = burnout(s)
    assert s.burncycle.slots[3] is None
    s, _ = act(in_turn(s, step="route"), UnlockSlot(payers={"module": 4}))
    assert s.burncycle.slots[3].kind == "general" and s.bot("module").power == 2


def test_the_last_peg_stays():
    """"If an event deactivates a slot, remove its peg and return its chip to the supply." (a burncycle of
    one slot keeps it: the players always have a chip to act on)"""
    s = make_state(slots=chips("general"))
    t = table(s)
    do_effect(t, Effect(kind="deactivate_slot", amount=2), "test")
    assert t.state.burncycle.slots == chips("general") and t.events == []


def test_a_slot_deactivated_under_the_tracker_ends_its_action():
    """"If an event deactivates a slot, remove its peg and return its chip to the supply." (Byte's strike on
    slot 3 pushes threat to 18: slot 3 loses its peg, and the tracker, with no usable chip to the right, moves
    on to the network step)"""
    s = make_state(threat=17, bots=[bot("byte", "A1"), module("F5")], units=[guard("G1", "A2", "S")],
                   slots=chips("general", "general", "general"))
    s = in_turn(s, tracker=2)
    s, events = act(s, Strike(bot="byte", unit="G1", dice=DicePool(basic=1)), ["1"])
    assert s.burncycle.slots[2] is None and s.turn.step == "network"
