"""Rulebook "Utility Actions (Keypads)", "Resolving Inputs", "Brute Force" and "Keys": the keypad action.

Scripted results are given in the order the engine asks for them: the keypad card drawn (by id), the keypad
die once per icon of the column, then the action dice of a brute force.
"""

from __future__ import annotations

import pytest

from controller.rules.actions import Keypad, Move, Step, legal_actions
from controller.rules.corporation.threat_effects import apply_effect
from controller.rules.dice import SeededDice
from controller.rules.players.keypads import KEYPAD_FACES, brute_force_durability, chip_inputs_payable
from controller.rules.resolution import Resolution
from controller.rules.state import DicePool
from tests.support.rules_scenarios import CONTENT, bot, floor_text, guard, make_state, module, network, of_type
from tests.support.turn_scenarios import DOORS, act, chips, decks, illegal, in_turn, tags


def door_state(text: str = DOORS, slots=None, tracker: int = 0, personal=None, team=None, byte_kw=None,
               units=None, **kw):
    """Byte on B2, next to the locked door B2/B3 into the Lab; the command module on F1."""
    s = make_state(text, bots=[bot("byte", "B2", **(byte_kw or {})), module("F1")], units=units,
                   slots=slots or chips("general", "general", "general"), **decks(**kw))
    s.burncycle.personal_reserves = {"byte": list(personal or [])}
    s.burncycle.team_reserve = list(team or [])
    return in_turn(s, tracker=tracker)


def resolved(events):
    return of_type(events, "keypad_resolved")[-1]


# -- the card and the keypad die -------------------------------------------------------------------
def test_card_drawn_and_placed_faceup_next_to_the_door():
    """"If a keypad card is already assigned to the door, use it; otherwise, draw the top keypad card and
    place it faceup next to the door." and "If unsuccessful, leave the keypad card faceup by the door for
    future attempts.\""""
    s = door_state()
    new, events = act(s, Keypad(bot="byte", beyond="B3", approach="abort"), ["K01", "tech"])
    placed = of_type(events, "keypad_card_placed")
    assert [(p.door, p.card, p.level) for p in placed] == [("B2/B3", "K01", 1)]
    assert new.keypads["B2/B3"].id == "K01"
    assert "K01" not in [c.id for c in new.keypad_deck]
    assert "B2/B3" not in new.floor.unlocked_doors
    assert resolved(events).unlocked is False


@pytest.mark.parametrize("level", [1, 2, 3])
def test_column_corresponds_to_floor_number(level):
    """"The column used corresponds to the current floor number (Floor 1, 2, or 3). For every keypad die icon
    printed in the column, roll the keypad die.\""""
    s = door_state(floor_text(DOORS.split("grid:\n")[1].split("\nareas:")[0], 'A1 hallway "Hall"\nA3 room "Lab"\n'
                              'D3 room "Office"', level=level))
    card = next(c for c in CONTENT.keypads if c.id == "K01")
    column = card.columns[level - 1]
    rolls = ["K01"] + ["tech"] * column.dice
    new, events = act(s, Keypad(bot="byte", beyond="B3", approach="abort"), rolls)
    placed = of_type(events, "keypad_card_placed")[0]
    assert (placed.level, placed.inputs, placed.dice) == (level, column.inputs, column.dice)
    assert len([e for e in of_type(events, "die_rolled") if e.die == "keypad die"]) == column.dice


def test_keypad_die_faces_match_the_content():
    """The keypad die of controller/content/dice.toml is the one the engine rolls."""
    assert list(KEYPAD_FACES) == CONTENT.dice["keypad"]


def test_brute_force_durability_by_level_in_every_card():
    """"Level 1: 4 AP / Level 2: 6 AP / Level 3: 8 AP\""""
    for card in CONTENT.keypads:
        assert [c.durability for c in card.columns] == [4, 6, 8]


@pytest.mark.parametrize("level", [1, 2, 3])
def test_brute_force_durability_of_a_door_with_or_without_its_card(level):
    """"Level 1: 4 AP / Level 2: 6 AP / Level 3: 8 AP": the door's own card once placed, any card before (the
    auto-player judges a brute force before the card is drawn)."""
    s = door_state(floor_text(DOORS.split("grid:\n")[1].split("\nareas:")[0], 'A1 hallway "Hall"\nA3 room "Lab"\n'
                              'D3 room "Office"', level=level))
    table = Resolution(s, SeededDice(0), apply_effect, copy=False)
    assert brute_force_durability(table, "B2/B3") == 2 + 2 * level
    s.keypads["B2/B3"] = s.keypad_deck[0]
    assert brute_force_durability(table, "B2/B3") == s.keypad_deck[0].columns[level - 1].durability


def test_automatic_unlock_opens_instantly():
    """"Automatic Unlock: The door opens instantly, resolving all requirements." (Even an attempt that would
    have aborted: nothing is paid, the card is discarded.)"""
    s = door_state(personal=["physical"])
    new, events = act(s, Keypad(bot="byte", beyond="B3", approach="abort"), ["K01", "unlock"])
    assert "B2/B3" in new.floor.unlocked_doors
    assert resolved(events).approach == "unlock"
    assert new.burncycle.personal_reserves["byte"] == ["physical"]
    assert "B2/B3" not in new.keypads and [c.id for c in new.keypad_discard] == ["K01"]


def test_other_rolled_icons_are_extra_inputs():
    """"Any other icon rolled ... is treated as an extra input that must be resolved." (K01 prints a physical
    input; the die adds a tech one: both chips are paid.)"""
    s = door_state(personal=["physical"], team=["tech", "utility"])
    new, events = act(s, Keypad(bot="byte", beyond="B3"), ["K01", "tech"])
    assert "B2/B3" in new.floor.unlocked_doors
    assert new.burncycle.personal_reserves["byte"] == [] and new.burncycle.team_reserve == ["utility"]


# -- Resolving Inputs ------------------------------------------------------------------------------
def test_inputs_paid_from_personal_and_team_reserve():
    """"Physical / Tech / Utility: Discard a matching chip from personal/team reserve\"
    Also: "Used to alter the burncycle or resolve keypad inputs."
    """
    s = door_state(personal=["tech"], team=["physical"])
    new, events = act(s, Keypad(bot="byte", beyond="B3"), ["K01", "tech"])
    assert "B2/B3" in new.floor.unlocked_doors
    assert new.burncycle.personal_reserves["byte"] == [] and new.burncycle.team_reserve == []
    assert [r.owner for r in of_type(events, "reserve_changed")] == ["team", "byte"]


def test_inputs_paid_by_jumping_the_tracker_forfeits_skipped_actions():
    """"OR jump the burncycle tracker ahead to a matching chip to the right of the current slot (forfeiting
    skipped actions).\" K09 prints one tech input: the tracker jumps from slot 1 over slot 2 to the tech chip
    in slot 3; the next action is on slot 4."""
    s = door_state(slots=chips("general", "general", "tech", "general"))
    new, events = act(s, Keypad(bot="byte", beyond="B3"), ["K09"])
    assert "B2/B3" in new.floor.unlocked_doors
    assert [e.slot for e in of_type(events, "slot_reached")] == [3, 4]
    assert new.burncycle.tracker == 3 and new.turn.step == "actions"


@pytest.mark.parametrize("card_id, slots, tracker, personal, payable", [
    ("K11", ("general", "general", "physical"), 0, [], True),  # a jump to slot 3
    ("K11", ("physical", "general", "general"), 0, [], False),  # the tracker's own chip cannot pay
    ("K11", ("general", "general", "general"), 0, ["physical"], True),  # the personal reserve
    ("K07", ("general", "general", "general"), 0, ["tech"], False),  # physical and tech: no physical chip
    ("K07", ("utility", "general", "general"), 0, ["tech"], True),  # optimized: the physical input ignored
])
def test_chip_inputs_payable_names_what_an_inputs_attempt_could_pay(card_id, slots, tracker, personal, payable):
    """"Physical / Tech / Utility: Discard a matching chip from personal/team reserve, OR jump the burncycle
    tracker ahead to a matching chip to the right of the current slot"; ">> The action chip currently holding
    the burncycle tracker cannot be used to pay for an input"; "If optimized, the player may ignore any single
    input." K11 prints a physical input on floor 1, K07 a physical and a tech one."""
    s = door_state(slots=chips(*slots), tracker=tracker, personal=personal)
    s.keypads["B2/B3"] = next(c for c in CONTENT.keypads if c.id == card_id)
    table = Resolution(s, SeededDice(0), apply_effect, copy=False)
    assert chip_inputs_payable(table, s.bot("byte"), s.keypads["B2/B3"]) is payable


def test_jump_to_the_last_chip_ends_the_action_step():
    """"forfeiting skipped actions": paying with the last chip leaves no action in this turn."""
    s = door_state(slots=chips("general", "physical", "general", "tech"))
    new, events = act(s, Keypad(bot="byte", beyond="B3"), ["K09"])
    assert "B2/B3" in new.floor.unlocked_doors
    assert new.turn.step == "network"


def test_chip_under_the_tracker_cannot_pay():
    """">> The action chip currently holding the burncycle tracker cannot be used to pay for an input; only
    chips to its right may be used." (The tech chip holds the tracker; K09's tech input cannot be paid.)"""
    s = door_state(slots=chips("general", "tech", "general"), tracker=1)
    new, events = act(s, Keypad(bot="byte", beyond="B3"), ["K09"])
    assert "B2/B3" not in new.floor.unlocked_doors
    assert resolved(events).unlocked is False
    assert new.keypads["B2/B3"].id == "K09"


def test_degraded_chips_cannot_pay():
    """"Degraded chips are skipped." A degraded tech chip is no matching chip."""
    s = door_state(slots=chips("general", "-tech", "general"))
    new, events = act(s, Keypad(bot="byte", beyond="B3"), ["K09"])
    assert resolved(events).unlocked is False


def test_jumping_over_the_captain_chip_reaches_it():
    """"Captain Action Chip: Its designated event on the Captain card must be executed immediately when
    reached, even if the player passes on taking an action with the chip." Forfeited by a jump, it is still
    reached (rules-interpretations.md)."""
    s = door_state(slots=chips("general", "captain", "tech"))
    new, events = act(s, Keypad(bot="byte", beyond="B3"), ["K09"])
    assert len(of_type(events, "captain_chip_reached")) == 1


def test_pay_order_chosen_by_the_player():
    """"Discard a matching chip from personal/team reserve, OR jump the burncycle tracker": `pay` orders the
    sources; here the jump is preferred to the reserve.
    Also: "All displayed and rolled inputs must be fulfilled during the same action in any chosen sequence."
    """
    s = door_state(slots=chips("general", "tech", "general"), personal=["tech"])
    new, _ = act(s, Keypad(bot="byte", beyond="B3", pay=["jump", "personal"]), ["K09"])
    assert new.burncycle.personal_reserves["byte"] == ["tech"]
    assert new.burncycle.tracker == 2


def test_inputs_that_cannot_all_be_paid_pay_nothing():
    """">> Inputs do not carry over across separate actions; all must be satisfied in one go." K12 prints
    tech and alarm; the die adds physical, which nothing pays: the door stays locked, the tech chip stays in
    reserve and the alarm is not triggered.
    Also: "Resolving Inputs: Satisfy every icon in the column."
    """
    s = door_state(personal=["tech"])
    new, events = act(s, Keypad(bot="byte", beyond="B3"), ["K12", "physical"])
    assert "B2/B3" not in new.floor.unlocked_doors
    assert new.burncycle.personal_reserves["byte"] == ["tech"]
    assert not new.bot("byte").detected


def test_alarm_detects_the_acting_bot():
    """"Alarm: The acting bot becomes detected\" (K04 prints an alarm; the die adds physical.)"""
    s = door_state(personal=["physical"])
    new, events = act(s, Keypad(bot="byte", beyond="B3", move_through=False), ["K04", "physical"])
    assert new.bot("byte").detected and "B2/B3" in new.floor.unlocked_doors
    assert of_type(events, "bot_detected")[0].reason.startswith("a keypad alarm")


def test_alarm_when_already_detected_counts_as_resolved():
    """"(if already detected, counts as resolved)\""""
    s = door_state(personal=["physical"], byte_kw={"detected": True})
    new, events = act(s, Keypad(bot="byte", beyond="B3", move_through=False), ["K04", "physical"])
    assert "B2/B3" in new.floor.unlocked_doors
    assert of_type(events, "awareness_placed") == []


def test_ping_input_places_a_ping_on_the_core():
    """"Ping: The CEO places 1 ping on the core\" (K05: one printed ping, no keypad die.)"""
    s = door_state()
    new, events = act(s, Keypad(bot="byte", beyond="B3"), ["K05"])
    core = next(n.id for n in new.network.mat.nodes if n.kind == "core")
    assert [(p.node) for p in of_type(events, "ping_added")] == [core]
    assert "B2/B3" in new.floor.unlocked_doors


def test_ping_input_resolved_even_if_all_pings_are_deployed():
    """"(resolved even if all pings are deployed)": no ping is added beyond the supply, and the door opens."""
    nodes = [n.id for n in CONTENT.network.nodes if n.kind == "node"][:CONTENT.network.ping_supply]
    s = door_state(net=network(["byte"], pings=nodes))
    new, events = act(s, Keypad(bot="byte", beyond="B3"), ["K05"])
    assert of_type(events, "ping_added") == []
    assert len(new.network.pings) == CONTENT.network.ping_supply
    assert "B2/B3" in new.floor.unlocked_doors


def test_shock_costs_one_power():
    """"Shock: The acting bot suffers 1 power loss.\" (K06: shock; the die adds an alarm.)"""
    s = door_state()
    new, events = act(s, Keypad(bot="byte", beyond="B3"), ["K06", "alarm"])
    assert new.bot("byte").power == 4
    assert "B2/B3" in new.floor.unlocked_doors and new.bot("byte").awareness == "B2"  # then it moved through


def test_shock_can_shut_the_bot_down():
    """"Shock: The acting bot suffers 1 power loss." and "Bot Shut Down: Power reaches 0. Threat increases by
    +3": the door still opens (its inputs are resolved) but a shut-down bot takes no free move."""
    s = door_state(byte_kw={"power": 1})
    new, events = act(s, Keypad(bot="byte", beyond="B3"), ["K06", "alarm"])
    assert new.bot("byte").shut_down and new.threat == 3
    assert "B2/B3" in new.floor.unlocked_doors and new.bot("byte").space == "B2"


def test_optimized_ignores_one_input():
    """"If optimized, the player may ignore any single input." On a utility chip (the keypad action is
    optimized by the utility action chip) K04's alarm is ignored when the player names it."""
    s = door_state(slots=chips("utility", "general"), personal=["physical"])
    new, events = act(s, Keypad(bot="byte", beyond="B3", ignore="alarm"), ["K04", "physical"])
    assert "B2/B3" in new.floor.unlocked_doors and not new.bot("byte").detected
    assert "alarm ignored" in resolved(events).detail


def test_optimized_ignores_an_input_nothing_could_pay():
    """"If optimized, the player may ignore any single input": with no choice named, the engine ignores the
    input no chip can pay (K01's physical)."""
    s = door_state(slots=chips("utility", "general"), personal=["tech"])
    new, events = act(s, Keypad(bot="byte", beyond="B3"), ["K01", "tech"])
    assert "B2/B3" in new.floor.unlocked_doors


def test_unoptimized_cannot_ignore():
    """Only an optimized keypad action ignores an input: on a general chip `ignore` changes nothing."""
    s = door_state(personal=["physical"])
    new, events = act(s, Keypad(bot="byte", beyond="B3", ignore="alarm", move_through=False), ["K04", "physical"])
    assert new.bot("byte").detected


# -- Brute Force -----------------------------------------------------------------------------------
@pytest.mark.parametrize("level,durability", [(1, 4), (2, 6), (3, 8)])
def test_brute_force_against_durability(level, durability):
    """"Unless the column states "Jam", a bot may attempt to force the door via an AP check: Level 1: 4 AP /
    Level 2: 6 AP / Level 3: 8 AP\" (K01 is never jammed.)
    Also: "Brute Force: Pass an AP check against the keypad's durability (if not Jammed)."
    """
    grid = DOORS.split("grid:\n")[1].split("\nareas:")[0]
    text = floor_text(grid, 'A1 hallway "Hall"\nA3 room "Lab"\nD3 room "Office"', level=level)
    keypad_dice = CONTENT.keypads[0].columns[level - 1].dice
    for ap, opens in ((durability, True), (durability - 1, False)):
        s = door_state(text)
        s.turn.pool = DicePool(basic=10)
        new, events = act(s, Keypad(bot="byte", beyond="B3", approach="brute_force", dice=DicePool(basic=ap)),
                          ["K01"] + ["tech"] * keypad_dice + ["1"] * ap)
        assert ("B2/B3" in new.floor.unlocked_doors) is opens
        assert new.turn.pool.basic == 10 - ap


def test_jammed_keypad_cannot_be_forced():
    """"Unless the column states "Jam", a bot may attempt to force the door" (K07 is jammed on floor 1): with
    the card already by the door brute force is refused; a card revealed by the attempt itself makes it fail
    (no die rolled) and stays by the door."""
    s = door_state()
    s.keypads = {"B2/B3": next(c for c in CONTENT.keypads if c.id == "K07")}
    illegal(s, Keypad(bot="byte", beyond="B3", approach="brute_force", dice=DicePool(basic=4)), "Jam",
            ["1", "1", "1", "1"])
    s = door_state()
    new, events = act(s, Keypad(bot="byte", beyond="B3", approach="brute_force", dice=DicePool(basic=4)), ["K07"])
    assert resolved(events).unlocked is False and new.keypads["B2/B3"].id == "K07"
    assert new.turn.pool.basic == 5 and new.burncycle.tracker == 1


def test_optimizing_gives_brute_force_no_benefit():
    """">> Optimizing a keypad action provides no benefit when using brute force." (3 AP on a utility chip
    stays 3 against 4.)"""
    s = door_state(slots=chips("utility", "general"))
    new, events = act(s, Keypad(bot="byte", beyond="B3", approach="brute_force", dice=DicePool(basic=3)),
                      ["K01", "tech", "1", "1", "1"])
    assert "B2/B3" not in new.floor.unlocked_doors
    assert "3 AP" in resolved(events).detail


# -- Keys, abort, success --------------------------------------------------------------------------
def test_key_unlocks_without_inputs_or_rolls():
    """"A bot in possession of a key may discard it at any point during a keypad action to immediately
    unlock the door without resolving inputs or rolling AP." (No keypad die is rolled either.)
    Also: "Key: Discard a key to unlock the door immediately."
    """
    s = door_state(byte_kw={})
    s.bot("byte").keys = 1
    new, events = act(s, Keypad(bot="byte", beyond="B3", approach="key"), ["K12"])
    assert "B2/B3" in new.floor.unlocked_doors and new.bot("byte").keys == 0
    assert of_type(events, "die_rolled") == []


def test_key_approach_needs_a_key():
    """"A bot in possession of a key may discard it\""""
    illegal(door_state(), Keypad(bot="byte", beyond="B3", approach="key"), "no key", ["K01"])


def test_abort_leaves_the_card_and_a_second_attempt_reuses_it():
    """"Abort: Conclude the action without unlocking. The card remains by the door." ">> Multiple keypad
    attempts can be made on the same door in the same turn, keeping the same revealed card." ">> Keypad die
    results are re-rolled on subsequent attempts.\""""
    s = door_state(personal=["physical", "utility"])
    mid, events = act(s, Keypad(bot="byte", beyond="B3", approach="abort"), ["K01", "tech"])
    assert mid.keypads["B2/B3"].id == "K01" and mid.burncycle.tracker == 1
    new, events = act(mid, Keypad(bot="byte", beyond="B3"), ["utility"])
    assert of_type(events, "keypad_card_placed") == []
    assert "B2/B3" in new.floor.unlocked_doors
    assert new.burncycle.personal_reserves["byte"] == []  # physical printed + utility re-rolled; no tech


def test_success_discards_card_and_frees_a_move_through():
    """"Upon success, discard the card, place an unlocked door peg in the board hole, and the bot may take a
    free move through into an empty space\"
    Also: "Once unlocked, insert an unlocked door peg."
    """
    s = door_state(byte_kw={})
    s.bot("byte").keys = 1
    new, events = act(s, Keypad(bot="byte", beyond="B3", approach="key"), ["K01"])
    assert new.bot("byte").space == "B3" and "B2/B3" in new.floor.unlocked_doors
    assert tags(events).index("door_changed") < tags(events).index("bot_moved")
    assert [c.id for c in new.keypad_discard] == ["K01"] and new.keypads == {}
    assert new.turn.pool.basic == 5  # the free move costs no AP


def test_no_free_move_into_an_occupied_space():
    """"the bot may take a free move through into an empty space (without triggering swap or push)\""""
    s = door_state(units=[guard("G1", "B3", "S", awareness=0)])
    s.bot("byte").keys = 1
    new, events = act(s, Keypad(bot="byte", beyond="B3", approach="key"), ["K01"])
    assert "B2/B3" in new.floor.unlocked_doors and new.bot("byte").space == "B2"


def test_free_move_is_optional():
    """"the bot may take a free move through": move_through=False stays."""
    s = door_state()
    s.bot("byte").keys = 1
    new, _ = act(s, Keypad(bot="byte", beyond="B3", approach="key", move_through=False), ["K01"])
    assert new.bot("byte").space == "B2"


def test_free_move_into_a_surveilled_room_surveils_it():
    """"Entering an unsurveilled room (containing a surveillance bead) halts movement on the first space to
    roll the surveillance dice indicated in the room's infobar": also on the free move through."""
    text = DOORS.replace('A3 room "Lab"', 'A3 room "Lab" surveillance=1')
    s = door_state(text)
    s.floor.surveillance = ["A3"]
    s.bot("byte").keys = 1
    new, events = act(s, Keypad(bot="byte", beyond="B3", approach="key"), ["K01", "powercell"])
    assert new.floor.surveillance == [] and new.bot("byte").power == 6


# -- who and where ---------------------------------------------------------------------------------
def test_keypad_needs_a_locked_door_next_to_the_bot():
    """"A bot adjacent to a locked door may attempt to open it with a keypad action.\""""
    s = door_state()
    illegal(s, Keypad(bot="byte", beyond="C2"), "no door stands")
    illegal(s, Keypad(bot="byte", beyond="C3"), "no door stands")  # diagonal
    s.floor.unlocked_doors = ["B2/B3"]
    illegal(s, Keypad(bot="byte", beyond="B3"), "already unlocked")


def test_command_module_takes_a_keypad_action():
    """"Depending on the nature of the action, it is executed by the player's agent, the command module"; the
    module "can use keys".\""""
    s = make_state(DOORS, bots=[bot("byte", "A1"), module("E2")], slots=chips("general"), **decks())
    in_turn(s)
    s.bot("module").keys = 1
    new, _ = act(s, Keypad(bot="module", beyond="E3", approach="key"), ["K03"])
    assert "E2/E3" in new.floor.unlocked_doors and new.bot("module").space == "E3"


def test_key_during_a_move_is_not_a_keypad_action():
    """">> Unlocking doors via keys during a move action or through terminal cards is not a keypad action.":
    no keypad card is drawn, and a card left by the door goes to the discards."""
    s = door_state(personal=["physical", "tech"])
    mid, _ = act(s, Keypad(bot="byte", beyond="B3", approach="abort"), ["K01", "tech"])
    mid.bot("byte").keys = 1
    mid, _ = act(mid, Move(dice=DicePool(basic=1)), ["1"])
    new, events = act(mid, Step(bot="byte", to="B3"))
    assert "B2/B3" in new.floor.unlocked_doors and new.bot("byte").keys == 0
    assert of_type(events, "keypad_resolved") == [] and [c.id for c in new.keypad_discard] == ["K01"]


def test_legal_actions_list_the_keypad_approaches():
    """The legal actions name each approach: inputs, brute force (not when Jammed), a key (with one) and
    abort."""
    s = door_state()
    found = [a.action for a in legal_actions(s) if type(a.action).__name__ == "Keypad"]
    assert [(a.beyond, a.approach) for a in found] == [("B3", "inputs"), ("B3", "brute_force"), ("B3", "abort")]
    jammed = next(c for c in CONTENT.keypads if c.id == "K07")
    s.keypads = {"B2/B3": jammed}
    s.bot("byte").keys = 1
    found = [a.action for a in legal_actions(s) if type(a.action).__name__ == "Keypad"]
    assert [a.approach for a in found] == ["inputs", "key", "abort"]


def test_keypad_is_an_action_step_action():
    """"During the action phase of their turn, players can execute several categories of actions":
    a keypad action outside step 3 is refused."""
    s = door_state()
    s.turn.step = "route"
    illegal(s, Keypad(bot="byte", beyond="B3"), "belongs to the action step")
