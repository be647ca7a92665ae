"""What `legal_actions` tells the players: structured parameters a dashboard can build its forms from, and
labels that say what an action costs and loses (issue 19's oddities of `actions --text`)."""

from __future__ import annotations

import itertools
import re

import msgspec

from controller.rules import SeededDice
from controller.rules.actions import (
    EndTurn,
    Escape,
    LegalAction,
    Move,
    NetworkStep,
    Repair,
    Strike,
    Terminal,
    apply_action,
    legal_actions,
)
from controller.rules.players.ap import FACES
from controller.rules.state import DicePool
from tests.support.rules_scenarios import CONTENT, bot, guard, make_state, module, network, of_type
from tests.support.turn_scenarios import DOORS, act, chips, decks, illegal, in_turn


def listed(state, kind) -> list[LegalAction]:
    return [la for la in legal_actions(state) if isinstance(la.action, kind)]


def test_a_move_lists_only_the_dice_left_with_the_ap_of_their_faces():
    """The dice a move may roll, per kind, with each face's AP; never "0-0 basic" for a spent grade."""
    s = in_turn(make_state(bots=[bot("byte", "A1"), module("F1")]), basic=2, elite=1)
    move = listed(s, Move)[0]
    assert [(d.field, d.most) for d in move.dice] == [("basic", 2), ("elite", 1)]
    assert move.dice[0].faces == FACES["basic"] and move.dice[0].ap == (1, 1, 1, 1, 2, 0)
    assert move.choose == ["dice"] and move.action == Move(dice=DicePool(basic=2, elite=1))
    assert "0-0" not in move.label and "advanced" not in move.label
    assert move.label == "choose the dice: up to 2 basic and 1 elite dice"


def test_a_move_with_the_pool_spent_says_it_has_no_ap():
    """"Dice can be rolled in any quantity (including 0)": still legal, and the label says what it gives."""
    s = in_turn(make_state(bots=[bot("byte", "A1"), module("F1")]), basic=0)
    move = listed(s, Move)[0]
    assert move.dice == [] and move.choose == []
    assert move.label == "no dice left in the pool and no bonus: 0 AP, the move ends at once (like a pass)"
    s = in_turn(make_state(bots=[bot("byte", "A1"), module("F1")], slots=chips("physical")), basic=0)
    assert listed(s, Move)[0].label == "no dice left in the pool: 2 AP without rolling"


def test_costs_and_targets_are_numbers():
    s = in_turn(make_state(bots=[bot("byte", "A1", power=6), module("A2", power=8)]))
    s.bot("byte").upgrades = ["repair"]
    repair = listed(s, Repair)[0]
    assert (repair.bot, repair.action.target, repair.cost.power, repair.options["amount"]) == (
        "byte", "module", 1, [1, 2])
    assert all(la.tag == la.action.__struct_config__.tag for la in legal_actions(s))


def test_terminal_options_show_the_card_the_virtual_dice_reveal():
    """Options are chosen before the roll, not blind: the label names the card the game's virtual dice turn over
    and each option's AP and effect; the access with those dice reveals that very card."""
    s = make_state(DOORS, bots=[bot("byte", "E3"), module("A1")], slots=chips("general"), **decks())
    s.floor.terminals = {"E3": "standard"}
    s = in_turn(s)
    offers = listed(s, Terminal)
    card = s.terminal_deck[SeededDice(s.seed, s.rolls).draw("terminal deck", [c.id for c in s.terminal_deck])]
    first = card.options[0]
    assert f"with the virtual dice the card is {card.id} {card.name}: 1) {first.ap} AP: {first.text}" \
        in offers[0].label
    _, events = apply_action(s, offers[0].action)
    assert of_type(events, "terminal_accessed")[0].card == card.id


def test_the_network_step_lists_its_transfers_in_the_games_words():
    """The movement steps and what may be chosen in the label, in words for players (no field names, no JSON: the
    dashboard shows it), and the first step's transfers listed ready to apply (the IP on L3-01 has a white line
    in, to the core)."""
    s = in_turn(make_state(bots=[bot("byte", "A1"), module("F1")], slots=chips("general", "tech")), step="network")
    s.network = network(["byte"], ips={"byte": "L3-01"})
    steps = listed(s, NetworkStep)
    assert steps[0].action == NetworkStep() and "transfers" in steps[0].choose
    assert 'movement steps: 1 general, 2 tech' in steps[0].label
    assert "before each step's movement the IP may transfer inward or outward" in steps[0].label
    assert not re.search(r'[{}"]', steps[0].label)
    inward = [la.action for la in steps if la.action.transfers == {1: "in"}]
    assert inward and "transfer inward from L3-01" in next(la.label for la in steps if la.action in inward)
    new, events = act(s, inward[0])
    assert of_type(events, "ip_moved")[0].path[:2] == ["L3-01", "CORE"]


def test_the_network_step_offers_exactly_the_transfers_the_rules_take():
    """Issue 37: the dashboard offered inward and outward at every movement step, and most were refused ("No white
    line leads outward from L1-12"). The listing's options name every choice of transfers the engine takes, and
    only those: each listed one is applied, every other combination of a direction or none per step is refused."""
    for ip, slots in (("L3-01", ("general", "tech")), ("L2-12", ("general", "general", "physical")),
                      ("L3-07", ("general", "general", "physical")), ("CORE", ("captain", "general", "utility"))):
        s = in_turn(make_state(bots=[bot("byte", "A1"), module("F1")], slots=chips(*slots)), step="network")
        s.network = network(["byte"], ips={"byte": ip})
        offered = listed(s, NetworkStep)[0].options["transfers"]
        assert offered[0] == {} and len(offered) > 1, (ip, offered)
        for combo in itertools.product([None, "in", "out"], repeat=len(slots)):
            transfers = {k + 1: d for k, d in enumerate(combo) if d is not None}
            if transfers in offered:
                act(s, NetworkStep(transfers=transfers))  # type: ignore[arg-type]
            else:
                illegal(s, NetworkStep(transfers=transfers), "white line")  # type: ignore[arg-type]


def test_escaping_the_last_agent_before_the_module_warns_that_it_loses():
    s = make_state(DOORS, bots=[bot("byte", "A1"), module("F1")], slots=chips("general"))
    s.mission = CONTENT.missions["tower-run"]
    s.floor_number, s.calibrated = 2, True
    s = in_turn(s)
    byte = next(la for la in listed(s, Escape) if la.bot == "byte")
    assert byte.warning.startswith("this loses the game: all agents escaped before the command module")
    new, _ = apply_action(s, byte.action)
    assert new.outcome is not None and not new.outcome.won


def test_ending_the_turn_above_the_bank_warns_of_the_power_lost():
    """"Agents must spend down to their power bank limit at the end of step 5": the end is listed with a warning
    naming the power it loses."""
    s = in_turn(make_state(bots=[bot("byte", "A1", power=9), module("F1")]), step="end")
    s.bot("byte").bank = 6
    end = listed(s, EndTurn)[0]
    assert end.warning.startswith("Byte holds 9 power and its bank 6: the end of the turn loses 3 power")
    new, _ = act(s, end.action, ["1"])
    assert new.bot("byte").power == 6
    s.bot("byte").power = 6
    assert listed(s, EndTurn)[0].warning == ""


def test_a_strike_names_the_durability_to_reach():
    s = in_turn(make_state(bots=[bot("byte", "A1"), module("F1")], units=[guard("G1", "A2", "N", awareness=0)]))
    strike = listed(s, Strike)[0]
    assert strike.target_ap == s.unit("G1").durability and strike.choose == ["dice"]
    assert msgspec.json.decode(msgspec.json.encode(strike), type=LegalAction) == strike


def test_the_chooser_face_names_a_slot_that_can_degrade():
    """The end of the turn lists the slots the chooser face may pick; a slot without a usable chip is refused
    (it used to be accepted and silently replaced by the rightmost usable chip)."""
    s = in_turn(make_state(bots=[bot("byte", "A1"), module("F1")], slots=chips("general", "-", "physical")),
                step="end")
    assert listed(s, EndTurn)[0].options["choose"] == [1, 3]
    illegal(s, EndTurn(choose=2), "slot 2 holds no chip that can degrade")
    illegal(s, EndTurn(choose=4), "slot 4 holds no chip that can degrade")
    new, _ = act(s, EndTurn(choose=1), ["choose"])
    assert new.burncycle.slots[0].degraded


def test_each_step_and_strike_names_the_space_it_aims_at():
    """A board lights these spaces when the bot is tapped: the steps' spaces, the guard's for a strike."""
    s = in_turn(make_state(bots=[bot("byte", "B4"), module("F1")], units=[guard("G1", "C4", facing="E")]))
    s_move, _ = act(s, Move(dice=DicePool(basic=1)), ["2"])
    steps = {la.at for la in legal_actions(s_move) if la.tag == "step" and la.bot == "byte"}
    assert steps == {"A4", "B3", "B5"}  # C4 holds the guard
    strike = listed(s, Strike)[0]
    assert (strike.bot, strike.at) == ("byte", "C4")
    assert listed(s, Move)[0].at is None
