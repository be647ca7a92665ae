"""Rulebook "The Burncycle", "Action Chips & Reserves", "Actions Overview" and "Free Actions": what chips are,
which actions a chip optimizes, and when free actions may (and may not) come.

Every test quotes the sentence it checks.
"""

from __future__ import annotations

import typing

import msgspec
import pytest

from controller.rules.actions import (
    Alter,
    EndTurn,
    Keypad,
    Move,
    NetworkCardAction,
    NetworkStep,
    Pass,
    Reboot,
    Repair,
    Strike,
    StrikeWall,
    Terminal,
    Trade,
    UnlockSlot,
    legal_actions,
)
from controller.rules.state import Chip, ChipKind, DicePool
from tests.support.rules_scenarios import CONTENT, bot, floor_text, guard, make_state, module, network, of_type
from tests.support.turn_scenarios import DOORS, act, chips, decks, illegal, in_turn, tags


def test_five_varieties_of_action_chips():
    """"Action chips exist in five varieties: general, physical, tech, utility, and captain." (no other chip
    can be put in a slot: a state naming another kind does not load)"""
    assert set(typing.get_args(ChipKind)) == {"general", "physical", "tech", "utility", "captain"}
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(b'{"kind": "network"}', type=Chip)


def test_a_degraded_chip_is_inactive_for_actions_and_network_movement():
    """"Chips have an active side and a degraded side." "The degraded side is only used while slotted in the
    burncycle track to signify that the chip is inactive for both actions and network movement." "Active
    slots contain action chips used for both physical/tech/utility actions and network movement." "During
    step 4 of a turn, each non-degraded chip grants network movement." (general, degraded tech, general: two
    actions, then two nodes of movement)"""
    s = make_state(bots=[bot("byte", "A1"), module("F5")], slots=chips("general", "-tech", "general"),
                   net=network(["byte"]))
    s = in_turn(s)
    s, _ = act(s, Pass())
    assert s.burncycle.tracker == 2
    s, _ = act(s, Pass())
    assert s.turn.step == "network"
    s, _ = act(s, NetworkStep())
    assert s.network.ips[0].node == "L1-03"


def test_the_burncycle_has_up_to_five_slots():
    """"The burncycle represents the operational instruction sequence on the command module mat, consisting
    of up to 5 slots." (with all 5 unlocked, no sixth can be bought)"""
    s = make_state(bots=[bot("byte", "A1"), module("F5", power=9)], module_slot_costs=[4, 6],
                   slots=chips("general", "general", "general", "general", "general"))
    illegal(in_turn(s, step="route"), UnlockSlot(payers={"module": 6}), "all 5 burncycle slots")


# -- which chip optimizes which action -------------------------------------------------------------
def striking(slots, units=None, text="", bots=None):
    s = make_state(text, bots=bots or [bot("byte", "C3"), module("F5")], units=units, slots=slots)
    return in_turn(s, basic=10)


def test_an_action_need_not_match_its_chip():
    """"An action is not required to match the type of chip it is activated on." "Matching is entirely
    optional." (a strike on a tech chip is allowed, and unoptimized: 8 AP leaves a level 1 guard standing,
    where the same roll on a physical chip shuts it down)"""
    s = striking(chips("tech", "general"), units=[guard("G1", "C4", "S", awareness=0)])
    s, _ = act(s, Strike(bot="byte", unit="G1", dice=DicePool(basic=4), stun_only=False), ["2"] * 4)
    assert s.security and s.burncycle.tracker == 1
    t = striking(chips("physical", "general"), units=[guard("G1", "C4", "S", awareness=0)])
    t, _ = act(t, Strike(bot="byte", unit="G1", dice=DicePool(basic=4)), ["2"] * 4)
    assert t.security == []


def test_physical_actions_are_moves_and_strikes_on_units_and_walls():
    """"Physical actions comprise move actions and strike actions." "Strike actions allow bots to attack
    security units and demolish walls." "However, if a physical, tech, or utility action aligns with a
    matching action chip in the burncycle track, that action becomes optimized, granting enhanced benefits
    or greater chances of success." (on a physical chip: a move gets +2 AP, and 8 rolled AP break a wall of
    durability 10)"""
    s = striking(chips("physical", "general"))
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    assert s.turn.pending.ap == 3 and s.turn.pending.optimized
    t = striking(chips("physical", "general"), text=DOORS, bots=[bot("byte", "C3"), module("A1")])
    t, _ = act(t, StrikeWall(bot="byte", beyond="D3", dice=DicePool(basic=4), move_through=False), ["2"] * 4)
    assert t.floor.destroyed_walls == ["C3/D3"]


def test_tech_actions_are_terminal_and_network_card_actions():
    """"Tech actions include terminal actions and network card actions." (on a tech chip a terminal action
    may take 2 options, and a network card action grants the extra action; on a general chip neither)"""
    def on_terminal(slots):
        s = make_state(DOORS, bots=[bot("byte", "E3"), module("A1")], slots=slots, net=network(["byte"]),
                       network_deck=list(CONTENT.network_cards[:1]), **decks())
        s.floor.terminals = {"E3": "mainframe"}
        return in_turn(s)

    card = CONTENT.terminals[0].id
    s, events = act(on_terminal(chips("tech", "general")), Terminal(bot="byte", options=[1, 2]), [card])
    assert len(of_type(events, "terminal_accessed")[0].resolved) == 2
    illegal(on_terminal(chips("general", "general")), Terminal(bot="byte", options=[1, 2]),
            "only an optimized terminal action")
    net_card = CONTENT.network_cards[0].id
    s, _ = act(on_terminal(chips("tech", "general")), NetworkCardAction(), [net_card])
    assert s.turn.extra_action and s.burncycle.tracker == 0
    s, _ = act(on_terminal(chips("general", "general")), NetworkCardAction(), [net_card])
    assert not s.turn.extra_action and s.burncycle.tracker == 1


def test_general_actions_are_never_optimized():
    """"General actions cannot be optimized." (a repair on a general chip: one action, the tracker moves on
    and no extra action or AP comes of it)"""
    s = make_state(bots=[bot("byte", "A1"), bot("casing", "B1", power=2), module("F5")],
                   slots=chips("general", "general"))
    s = in_turn(s)
    s.bot("byte").upgrades = ["repair"]
    s, _ = act(s, Repair(bot="byte", target="casing", amount=1))
    assert s.burncycle.tracker == 1 and not s.turn.extra_action and s.turn.pending is None


# -- free actions ----------------------------------------------------------------------------------
def altering(step="actions", slots=None, team=("physical",)):
    s = make_state(bots=[bot("byte", "A1"), module("B1")], slots=slots or chips("general", "-general", "general"))
    s.burncycle.team_reserve = list(team)
    return in_turn(s, step=step)


def test_free_actions_use_no_slot_and_come_outside_the_action_step():
    """"Free actions do not advance the burncycle tracker and can be executed outside the standard action
    step." "In contrast, free actions do not consume burncycle slots and may be triggered at any eligible
    moment during a player's turn, provided they do not disrupt an action or resolution already taking
    place." (an alter in the action step leaves the tracker; a trade in power routing and at the end of the
    turn is allowed)"""
    s, _ = act(altering(), Alter(slot=2, chip="physical"))
    assert s.burncycle.tracker == 0 and s.burncycle.slots[1] == Chip("physical")
    for step in ("route", "end"):
        t = altering(step=step)
        t.bot("byte").keys = 1
        t, _ = act(t, Trade(bot="byte", to="module", keys=1))
        assert t.bot("module").keys == 1 and t.turn.step == step


def test_typical_free_actions_are_listed_at_the_start_of_a_turn():
    """"Typical free actions include altering the burncycle and trading items." (both are offered in power
    routing, before any action)"""
    s = altering(step="route")
    s.bot("byte").keys = 1
    offered = {type(la.action) for la in legal_actions(s)}
    assert {Alter, Trade} <= offered


def test_the_replaced_chip_returns_to_the_supply():
    """"The replaced chip (whether active or degraded) is returned to the general supply." (neither the
    degraded general chip nor the active one goes to a reserve: the reserves only lose the chip put in)"""
    for slot in (2, 3):
        s, _ = act(altering(team=("physical", "tech")), Alter(slot=slot, chip="physical"))
        assert s.burncycle.team_reserve == ["tech"] and s.burncycle.personal_reserves.get("byte", []) == []
        assert s.burncycle.slots[slot - 1] == Chip("physical")


def test_no_alter_can_come_between_the_keypad_roll_and_its_inputs():
    """">> You cannot alter the burncycle midway through a keypad action." ">> Because free actions cannot
    interrupt other resolutions, you cannot alter the burncycle during a keypad action to fulfill required
    inputs." (the keypad action rolls its die and settles its inputs within the one action, paid only from
    what the reserves and the burncycle held when it was declared: K09's tech input finds no tech chip, and
    the door stays locked; nothing is left under way for an alter to slip into)"""
    s = make_state(DOORS, bots=[bot("byte", "B2"), module("F1")], slots=chips("general", "general"), **decks())
    s.burncycle.team_reserve = ["physical"]
    s = in_turn(s)
    s, events = act(s, Keypad(bot="byte", beyond="B3"), ["K09"])
    assert "B2/B3" not in s.floor.unlocked_doors and s.burncycle.team_reserve == ["physical"]
    assert s.turn.pending is None and s.burncycle.tracker == 1
    assert tags(events).index("keypad_card_placed") < tags(events).index("keypad_resolved")


def test_no_alter_between_the_burncycle_die_and_the_degrade():
    """">> You cannot alter the burncycle after rolling the burncycle die but prior to degrading the
    indicated slot." (rolling and degrading are one end-of-turn action: the next thing the table can do is
    the next player's turn)"""
    s = altering(step="end", slots=chips("general", "general", "general"))
    s, events = act(s, EndTurn(), ["2"])
    names = tags(events)
    assert names.index("die_rolled") < names.index("chip_changed")
    assert s.burncycle.slots[1].degraded and s.turn.step in ("route", "corporation")


def test_reboot_regenerates_the_reserves():
    """"Regenerate team and personal reserves." (the old team chip goes; Byte in the yard with a utility icon
    gets a utility chip)"""
    text = floor_text("""
    +-+-+-+-+
    |E . . .|
    +-+-+-+-+
    """, 'A1 outdoor "Yard" reserve=utility')
    s = make_state(text, bots=[bot("byte", "B1"), module("D1")], slots=chips("-", "general"))
    s.burncycle.team_reserve = ["tech"]
    s = in_turn(s, step="route")
    s, _ = act(s, Reboot(), ["captain", "1"])
    assert s.burncycle.personal_reserves == {"byte": ["utility"]}
    assert s.burncycle.team_reserve == ["utility"]
