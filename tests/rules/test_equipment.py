"""Inventory, equipment cards, caches, mods and trading cards ("Inventory, Equipment & Keys", "Equipment Cards",
"Mods & Imperatives", "Trading", "Caches")."""

from __future__ import annotations

import pytest

from controller.library import shipped_content_texts
from controller.rules import ContentError, StateError, check_state, parse_content
from controller.rules.actions import (
    BeginActions,
    Discard,
    EndTurn,
    InstallMod,
    Keypad,
    Move,
    Step,
    Strike,
    Terminal,
    Trade,
    UseEquipment,
    legal_actions,
)
from controller.rules.cards.equipment import EQUIPMENT_FACES
from controller.rules.state import DicePool
from tests.support.rules_scenarios import CONTENT, bot, guard, make_state, module, of_type
from tests.support.turn_scenarios import DOORS, act, chips, decks, illegal, in_turn

EQ = {c.id: c for c in CONTENT.equipment}
MODS = {c.id: c for c in CONTENT.mods}


def card(card_id: str):
    """A fresh copy of a shipped equipment card or mod, as held in an inventory."""
    if card_id in MODS:
        return MODS[card_id].__copy__()
    c = EQ[card_id].__copy__()
    c.die = c.charges if c.category == "counter" else None
    return c


def holding(equipment=(), mods=(), installed=(), byte="A1", module_at="B1", units=None, step="actions",
            text="", **kw):
    s = make_state(text, bots=[bot("byte", byte), module(module_at)], units=units,
                   slots=chips("general", "general", "general"), **kw)
    b = s.bot("byte")
    b.equipment = [card(c) for c in equipment]
    b.mods = [card(c) for c in mods]
    b.installed = [card(c) for c in installed]
    return in_turn(s, step=step)


def ids(cards) -> list[str]:
    return [c.id for c in cards]


def test_equipment_die_faces_match_the_content():
    """The equipment die of controller/content/dice.toml is the one the engine rolls."""
    assert list(EQUIPMENT_FACES) == CONTENT.dice["equipment"]


# -- Caches ----------------------------------------------------------------------------------------
def test_collecting_a_cache_draws_an_equipment_card_into_inventory():
    """"When a bot moves onto a cache, it may collect it: discard the chip and draw 1 equipment card into
    inventory." """
    s = holding(equipment_deck=[EQ["E05"], EQ["E06"]])
    s.floor.caches = ["A2"]
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    s, _ = act(s, Step(bot="byte", to="A2"))
    assert s.floor.caches == ["A2"] and not s.bot("byte").equipment  # "may collect it"
    s = holding(equipment_deck=[EQ["E05"], EQ["E06"]])
    s.floor.caches = ["A2"]
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    s, events = act(s, Step(bot="byte", to="A2", take_cache=True), ["E06"])
    assert s.floor.caches == [] and ids(s.bot("byte").equipment) == ["E06"]
    assert [e.card for e in of_type(events, "card_drawn")] == ["E06"] and s.progress["caches:byte"] == 1


def test_a_discard_card_triggers_when_drawn_then_is_discarded():
    """"Discard: Trigger immediately when drawn, then discard." "Keys are acquired from key equipment cards" """
    s = holding(equipment_deck=[EQ["E02"]])
    s.floor.caches = ["A2"]
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    s, _ = act(s, Step(bot="byte", to="A2", take_cache=True), ["E02"])
    assert s.bot("byte").keys == 2 and not s.bot("byte").equipment
    assert ids(s.equipment_discard) == ["E02"]


def test_a_cache_with_a_full_inventory_discards_down_to_two():
    """"equipment cards are kept in inventory (limit 2 cards total across mods and equipment)": the card the
    player names goes; without a name, the card just drawn."""
    s = holding(equipment=["E04", "E05"], equipment_deck=[EQ["E06"]])
    s.floor.caches = ["A2"]
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    named, _ = act(s, Step(bot="byte", to="A2", take_cache=True, discard=["E04"]), ["E06"])
    assert ids(named.bot("byte").equipment) == ["E05", "E06"] and ids(named.equipment_discard) == ["E04"]
    default, _ = act(s, Step(bot="byte", to="A2", take_cache=True), ["E06"])
    assert ids(default.bot("byte").equipment) == ["E04", "E05"] and ids(default.equipment_discard) == ["E06"]


def test_an_empty_equipment_deck_still_lets_the_chip_be_collected():
    """The cache chip is discarded even when no equipment card is left to draw."""
    s = holding()
    s.floor.caches = ["A2"]
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    s, _ = act(s, Step(bot="byte", to="A2", take_cache=True))
    assert s.floor.caches == [] and not s.bot("byte").equipment


# -- Using equipment ---------------------------------------------------------------------------------
def test_single_use_is_a_free_action_then_discarded():
    """"Single Use: Discard after using." Using it is a free action: the tracker does not move."""
    s = holding(equipment=["E04"])
    s.bot("byte").awareness = "A1"
    s, events = act(s, UseEquipment(bot="byte", card="E04"))
    assert s.bot("byte").awareness is None and not s.bot("byte").equipment
    assert ids(s.equipment_discard) == ["E04"] and s.burncycle.tracker == 0 and s.turn.pending is None


def test_counter_turns_its_die_down_and_is_discarded_when_spent():
    """"Counter: Uses an equipment die showing charges or values." (E10: 2 charges, 1 power each)"""
    s = holding(equipment=["E10"])
    s, events = act(s, UseEquipment(bot="byte", card="E10"))
    assert s.bot("byte").power == 6 and s.bot("byte").equipment[0].die == 1
    assert of_type(events, "equipment_used")[0].die == 1
    s, _ = act(s, UseEquipment(bot="byte", card="E10"))
    assert s.bot("byte").power == 7 and not s.bot("byte").equipment and ids(s.equipment_discard) == ["E10"]


def test_breakable_rolls_the_die_and_breaks_on_a_hazard():
    """"Breakable: Uses a die. If the rolled result displays a hazard icon in the corner, discard the card after
    resolving." (E12 stuns an adjacent unit)"""
    s = holding(equipment=["E12"], units=[guard("G1", "A2", "N", awareness=0)])
    kept, _ = act(s, UseEquipment(bot="byte", card="E12", unit="G1"), ["2"])
    assert kept.unit("G1").stunned and ids(kept.bot("byte").equipment) == ["E12"]
    broken, _ = act(s, UseEquipment(bot="byte", card="E12", unit="G1"), ["1+hazard"])
    assert broken.unit("G1").stunned and not broken.bot("byte").equipment  # resolved, then discarded


def test_breakable_bonus_move_by_the_rolled_value_is_no_move_action():
    """">> Movement awarded outside of standard move actions (such as bonus movement from gear or abilities) does
    not count as a move action." (E11: move up to the rolled value)"""
    s = holding(equipment=["E11"])
    s, events = act(s, UseEquipment(bot="byte", card="E11", path=["A2", "A3", "A4"]), ["3"])
    assert s.bot("byte").space == "A4" and s.turn.pending is None and s.burncycle.tracker == 0
    assert s.turn.pool.basic == 5  # no dice rolled from the pool
    illegal(holding(equipment=["E11"]), UseEquipment(bot="byte", card="E11", path=["A2", "A3", "A4"]),
            "moves up to 2", ["2"])


def test_bonus_move_cannot_use_keys_on_locked_doors():
    """"using a key requires a move action and cannot be done during Nitro Shot movement" """
    s = holding(equipment=["E07"], byte="B2", module_at="F1", text=DOORS)
    s.bot("byte").keys = 1
    illegal(s, UseEquipment(bot="byte", card="E07", path=["B3"]), "locked doors")


def test_stun_needs_an_adjacent_unit():
    """E05 "Blind an adjacent security unit": a unit two spaces away is no target."""
    s = holding(equipment=["E05"], units=[guard("G1", "A3", "N", awareness=0)])
    illegal(s, UseEquipment(bot="byte", card="E05", unit="G1"), "adjacent security unit")


def test_unlocking_equipment_is_not_a_keypad_action():
    """E08 opens an adjacent locked door; ">> Unlocking doors via keys during a move action or through terminal
    cards is not a keypad action": no keypad card is drawn and the tracker stays."""
    s = holding(equipment=["E08"], byte="B2", module_at="F1", text=DOORS, **decks())
    s, _ = act(s, UseEquipment(bot="byte", card="E08", beyond="B3"))
    assert "B2/B3" in s.floor.unlocked_doors and not s.keypads and s.burncycle.tracker == 0
    assert s.bot("byte").equipment[0].die == 1


def test_pool_dice_join_in_the_action_step_only():
    """"During step 2 of their turn, a player builds their dice pool": an elite die from E06 joins the pool in
    the action step; in power routing the pool is not built yet."""
    s = holding(equipment=["E06"])
    s, _ = act(s, UseEquipment(bot="byte", card="E06"))
    assert s.turn.pool.elite == 1
    illegal(holding(equipment=["E06"], step="route"), UseEquipment(bot="byte", card="E06"), "built in step 2")


def test_the_command_module_cannot_activate_equipment():
    """The command module "can carry keys, equipment, and uninstalled mods, but cannot activate equipment or
    mods." """
    s = holding()
    s.bot("module").equipment = [card("E04")]
    illegal(s, UseEquipment(bot="module", card="E04"), "cannot activate equipment or mods")


def test_no_equipment_during_a_move():
    """">> Free actions cannot interrupt movement within an ongoing move action." """
    s = holding(equipment=["E04"])
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["2"])
    illegal(s, UseEquipment(bot="byte", card="E04"), "move action is under way")


# -- Trading -----------------------------------------------------------------------------------------
def test_trade_equipment_and_uninstalled_mods():
    """"Bots can exchange any quantity of keys, equipment cards, and uninstalled mod cards currently stored in
    their inventory." """
    s = holding(equipment=["E04"], mods=["M01"])
    s, events = act(s, Trade(bot="byte", to="module", cards=["E04", "M01"]))
    assert ids(s.bot("module").equipment) == ["E04"] and ids(s.bot("module").mods) == ["M01"]
    assert s.bot("byte").inventory == 0 and len(of_type(events, "card_traded")) == 2


def test_installed_mods_can_never_be_traded():
    """">> Once a mod card is installed, it can never be traded." """
    s = holding(installed=["M01"])
    illegal(s, Trade(bot="byte", to="module", cards=["M01"]), "can never be traded")


def test_after_a_trade_discard_down_to_two_and_a_mod_still_pays():
    """">> Following a trade, any bot whose inventory holds more than 2 total mods and equipment must discard
    down to the maximum hand limit of 2. Discarding an uninstalled mod in this manner still awards the power value
    printed on the card." (M04 prints 3 power)"""
    s = holding(mods=["M04"])
    s.bot("module").equipment = [card("E04"), card("E05")]
    s, events = act(s, Trade(bot="byte", to="module", cards=["M04"], discard=["M04"]))
    assert s.bot("module").inventory == 2 and s.bot("module").power == 9
    assert ids(s.mod_discard) == ["M04"]


def test_a_trade_must_hand_something_over():
    """A trade names keys or cards (">> A trade is completely valid even if one participant receives nothing in
    return", but something changes hands)."""
    illegal(holding(), Trade(bot="byte", to="module"), "name some")


# -- Mods --------------------------------------------------------------------------------------------
def test_terminals_are_the_source_of_mods():
    """Mods: "Obtained from terminals. Placed sideways as uninstalled" (T13 option 1 draws a mod)."""
    s = holding(terminal_deck=[c for c in CONTENT.terminals if c.id == "T13"], mod_deck=[MODS["M02"]])
    s.floor.terminals = {"A1": "mainframe"}
    s, events = act(s, Terminal(bot="byte", options=[1]), ["T13", "M02"])
    assert ids(s.bot("byte").mods) == ["M02"] and not s.bot("byte").installed


def test_installing_a_mod_is_a_free_action():
    """"At any time, an agent can install a mod upright to gain its permanent ongoing benefit" """
    s = holding(mods=["M01"])
    s, events = act(s, InstallMod(bot="byte", card="M01"))
    assert ids(s.bot("byte").installed) == ["M01"] and not s.bot("byte").mods and s.burncycle.tracker == 0
    assert of_type(events, "mod_installed")


def test_the_command_module_cannot_install_a_mod():
    """The command module "can carry ... uninstalled mods, but cannot activate equipment or mods" """
    s = holding()
    s.bot("module").mods = [card("M01")]
    illegal(s, InstallMod(bot="module", card="M01"), "cannot activate equipment or mods")


def test_discarding_mods_uninstalled_pays_installed_does_not():
    """"discarding awards printed power" (uninstalled); "installed mods cannot be traded or uninstalled;
    discarding them yields 0 power" """
    s = holding(mods=["M04"], installed=["M01"])
    s, _ = act(s, Discard(bot="byte", card="M04"))
    assert s.bot("byte").power == 8
    s, _ = act(s, Discard(bot="byte", card="M01"))
    assert s.bot("byte").power == 8 and s.bot("byte").inventory == 0


def test_move_ap_mod_adds_to_the_move_action():
    """M01: "+1 AP on each of your move actions" (an ongoing benefit of an installed mod)."""
    s = holding(installed=["M01"])
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    assert s.turn.pending.ap == 2


def test_dice_mods_join_the_pool():
    """"a player builds their dice pool: 1 basic die for each current power point, plus advanced and elite dice
    matching their activated upgrades" (M05 and M06 add one each)."""
    s = holding(installed=["M05", "M06"], step="route")
    s, _ = act(s, BeginActions())
    assert (s.turn.pool.basic, s.turn.pool.advanced, s.turn.pool.elite) == (5, 1, 1)


def test_bank_mod_raises_the_power_bank_limit():
    """"Agents must spend down to their power bank limit at the end of step 5." (M04: bank +1)"""
    s = holding(installed=["M04"], step="end")
    s.bot("byte").power = 9
    s.bot("byte").bank = 5
    s, _ = act(s, EndTurn(), ["1"])
    assert s.bot("byte").power == 6


def test_strike_mod_adds_ap():
    """M02: "+2 AP on each of your strikes": 8 rolled + 2 reaches a level 1 guard's 10."""
    s = holding(installed=["M02"], units=[guard("G1", "A2", "N", awareness=0)])
    s, _ = act(s, Strike(bot="byte", unit="G1", dice=DicePool(basic=4)), ["2", "2", "2", "2"])
    assert not s.security


def test_grounded_chassis_ignores_keypad_shocks():
    """"Shock: The acting bot suffers 1 power loss." — not with M07 installed."""
    s = holding(installed=["M07"], byte="B2", module_at="F1", text=DOORS, **decks())
    s, _ = act(s, Keypad(bot="byte", beyond="B3"), ["K06", "alarm"])
    assert s.bot("byte").power == 5 and "B2/B3" in s.floor.unlocked_doors


# -- listing and invariants ----------------------------------------------------------------------------
def test_legal_actions_list_uses_installs_and_discards():
    s = holding(equipment=["E04"], mods=["M04"])
    listed = [la for la in legal_actions(s)]
    actions = [la.action for la in listed]
    assert UseEquipment(bot="byte", card="E04") in actions and InstallMod(bot="byte", card="M04") in actions
    discard = next(la for la in listed if la.action == Discard(bot="byte", card="M04"))
    assert discard.cost.power == -3 and discard.label.startswith("gain 3 power")
    assert Trade(bot="byte", to="module", cards=["E04"]) in actions


def test_state_with_three_cards_in_inventory_is_refused():
    """"Each bot has 2 inventory slots for equipment/mods" """
    s = holding(equipment=["E04", "E05"], mods=["M01"])
    with pytest.raises(StateError, match="a bot holds at most 2 equipment and mods"):
        check_state(s)


def test_a_card_in_two_places_is_refused():
    s = holding(equipment=["E04"], equipment_deck=[EQ["E04"]])
    with pytest.raises(StateError, match="E04 is in two places"):
        check_state(s)


# -- content ---------------------------------------------------------------------------------------
def _parse_with(name: str, text: str):
    texts = shipped_content_texts()
    texts[name] = text
    return parse_content(texts)


def test_content_errors_name_file_line_and_field():
    """Content is validated on load: a category that does not exist names the file, the line and the field."""
    text = shipped_content_texts()["equipment.toml"].replace('category = "single_use"', 'category = "fragile"', 1)
    with pytest.raises(ContentError, match=r"equipment\.toml:\d+: equipment\[3\]\.category"):
        _parse_with("equipment.toml", text)


def test_a_discard_card_cannot_need_a_target():
    """"Discard: Trigger immediately when drawn": such a card cannot stun (there is no moment to choose a unit)."""
    text = shipped_content_texts()["equipment.toml"].replace('effect = { kind = "key" }',
                                                              'effect = { kind = "stun" }', 1)
    with pytest.raises(ContentError, match="equipment E01: a discard card triggers immediately"):
        _parse_with("equipment.toml", text)


def test_legal_actions_name_each_target_of_an_equipment_card():
    """"Blind an adjacent security unit", "unlocks an adjacent locked door", "move up to 3 spaces": the listing
    offers one use per adjacent unit, per adjacent locked door and per first space of a bonus move, names the
    card, and every use listed applies as it stands."""
    s = holding(equipment=["E05", "E08"], byte="B2", module_at="F1", text=DOORS,
                units=[guard("G1", "B1", "S", awareness=0), guard("G2", "D2", "N", awareness=0)])
    uses = [la for la in legal_actions(s) if isinstance(la.action, UseEquipment)]
    assert sorted((la.action.card, la.action.unit, la.action.beyond) for la in uses) == [
        ("E05", "G1", None), ("E08", None, "B3")]
    assert all(la.label.startswith(EQ[la.action.card].name) for la in uses)
    s = holding(equipment=["E07"], byte="A1", module_at="F1")
    jumps = [la for la in legal_actions(s) if isinstance(la.action, UseEquipment)]
    assert sorted(la.action.path for la in jumps) == [["A2"], ["B1"]]
    assert "up to 3 in all" in jumps[0].label and jumps[0].choose == ["path"]
    for la in uses + jumps:
        start = s if la.action.card == "E07" else holding(equipment=["E05", "E08"], byte="B2", module_at="F1",
                                                             text=DOORS, units=[guard("G1", "B1", "S", awareness=0)])
        act(start, la.action)
