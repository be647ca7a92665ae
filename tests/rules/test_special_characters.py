"""The special characters: Interface's guard disguise and Memory's drone Joan.

Every test quotes the sentence it checks; the readings are in docs/rules-interpretations.md ("Special
characters"). Scripted results are given in the order the engine asks for them.
"""

from __future__ import annotations

from controller.rules import GameSetup, new_game, state_problems
from controller.rules.actions import JoanStun, JoanSurveil, Keypad, Move, Step, Strike, Swap, legal_actions
from controller.rules.state import DicePool, Drone, GuardChip
from tests.support.rules_scenarios import CONTENT, bot, captain, guard, make_state, module, of_type, turn
from tests.support.turn_scenarios import DOORS, act, chips, decks, illegal, in_turn

DISGUISE = GuardChip(name="Sentry", colour="blue", level=1, awareness=3, movement=2, patrol="pace")


def disguised(space: str, power: int = 5):
    interface = bot("interface", space, power=power)
    interface.disguise = DISGUISE
    return interface


# == Interface ======================================================================================
def test_interface_is_an_agent_card():
    cards = {a.id: a for a in CONTENT.agents}
    assert cards["interface"].name == "Interface"


def test_interface_takes_the_chip_of_a_guard_it_shuts_down_as_a_disguise():
    """"When disguised as a guard ...": Interface dons a disguise by keeping the chip of a guard its strike
    shut down (rules-interpretations.md). The strike still detects it ("Striking a security unit ...
    immediately causes the striking bot to become detected")."""
    s = make_state(bots=[bot("interface", "C3"), module("F5")],
                   units=[guard("G1", "C2", "N", movement=3, patrol="pace")])
    s = in_turn(s, elite=4)
    s, events = act(s, Strike(bot="interface", unit="G1", dice=DicePool(elite=4), disguise=True),
                    ["3", "3", "3", "3"])
    interface = s.bot("interface")
    assert interface.disguise is not None and interface.disguise.movement == 3
    assert of_type(events, "disguise_changed")[0].worn is True
    assert s.security == [] and interface.detected


def test_failed_strike_gives_no_disguise():
    s = make_state(bots=[bot("interface", "C3"), module("F5")], units=[guard("G1", "C2", "N")])
    s, events = act(in_turn(s, basic=2), Strike(bot="interface", unit="G1", dice=DicePool(basic=2),
                                                 disguise=True), ["1", "1"])
    assert s.bot("interface").disguise is None and of_type(events, "disguise_changed") == []


def test_only_interface_disguises_and_only_as_a_guard():
    """"When disguised as a guard": only Interface, and the captain's chip is no guard disguise."""
    s = make_state(bots=[bot("byte", "C3"), module("F5")], units=[guard("G1", "C2", "N")])
    illegal(in_turn(s, elite=4), Strike(bot="byte", unit="G1", dice=DicePool(elite=4), disguise=True),
            "only Interface")
    s = make_state(bots=[bot("interface", "C3"), module("F5")], units=[captain("C2", "N")])
    illegal(in_turn(s, elite=4), Strike(bot="interface", unit="CAP", dice=DicePool(elite=4), disguise=True),
            "captain's chip is no disguise")


def test_legal_actions_offer_interface_the_disguising_strike():
    s = in_turn(make_state(bots=[bot("interface", "C3"), module("F5")], units=[guard("G1", "C2", "N")]))
    strikes = [la.action for la in legal_actions(s) if isinstance(la.action, Strike) and la.action.bot == "interface"]
    assert [a.disguise for a in strikes] == [False, True]


def test_disguised_interface_ignores_detection_from_guard_awareness():
    """"When disguised as a guard, Interface ignores detection from guard awareness": a guard looking straight
    at it does not detect it; the captain is no guard and does."""
    s = make_state(bots=[disguised("C2"), module("F5")], units=[guard("G1", "C5", "N", awareness=4)])
    new, _ = turn(s)
    assert not new.bot("interface").detected
    s = make_state(bots=[bot("interface", "C2"), module("F5")], units=[guard("G1", "C5", "N", awareness=4)])
    new, _ = turn(s)
    assert new.bot("interface").detected
    s = make_state(bots=[disguised("C2"), module("F5")], units=[captain("C5", "N", movement=0)])
    new, _ = turn(s)
    assert new.bot("interface").detected


def test_disguised_interface_acts_as_a_guard_in_the_corporation_turn():
    """"Disguised Interface acts as a guard during the corporation's turn": guards neither pursue nor attack
    it even when its awareness chip lies on its space, and a Closest Bot patrol passes it over."""
    s = make_state(bots=[disguised("C4"), module("F1")],
                   units=[guard("G1", "C5", "N", movement=0, patrol="stationary")])
    s.bot("interface").awareness = "C4"
    new, events = turn(s)
    assert of_type(events, "attacked") == [] and new.bot("interface").power == 5
    s = make_state(bots=[disguised("A2"), module("F1")], units=[guard("G1", "A4", "E", patrol="closest_bot")])
    new, events = turn(s)
    assert new.unit("G1").space != "A3" and new.bot("interface").space == "A2"


def test_attacked_disguised_interface_loses_the_disguise_and_takes_2_damage():
    """"If attacked, the disguise is lost and Interface takes 2 damage." (the captain deals 3 otherwise)"""
    s = make_state(bots=[disguised("C4"), module("F1")], units=[captain("C5", "N", movement=0)])
    new, events = turn(s)
    attack = of_type(events, "attacked")[0]
    assert attack.damage == 2 and new.bot("interface").power == 3
    assert new.bot("interface").disguise is None
    assert of_type(events, "disguise_changed")[0].worn is False


def test_disguised_interface_shut_down_by_a_keypad_shock_loses_the_disguise():
    """"Bot Shut Down: Power reaches 0. Threat increases by +3; bot chip flips." Only an attack is printed to
    end the disguise ("If attacked, the disguise is lost"), but a flipped chip shows a shut-down bot: the
    disguise goes with any shut down, here a keypad shock ("Shock: The acting bot suffers 1 power loss.")."""
    s = make_state(DOORS, bots=[disguised("B2", power=1), module("F1")],
                   slots=chips("general", "general", "general"), **decks())
    s, events = act(in_turn(s), Keypad(bot="interface", beyond="B3"), ["K06", "alarm"])
    interface = s.bot("interface")
    assert interface.shut_down and interface.disguise is None and s.threat == 3
    lost = of_type(events, "disguise_changed")
    assert [(e.worn, e.reason) for e in lost] == [(False, "shut down: its bot chip flips")]
    assert of_type(events, "attacked") == []


def test_a_shut_down_bot_wearing_a_disguise_is_an_invalid_state():
    """"bot chip flips": a state with a shut-down, still disguised Interface is refused by the invariants."""
    down = disguised("C3", power=0)
    down.shut_down = True
    s = make_state(bots=[module("F5")])
    s.bots.append(down)
    assert any("shut down but disguised" in p for p in state_problems(s))


def test_disguised_interface_moves_up_to_the_disguise_movement_value():
    """"Interface ... moves up to the disguise's movement value": at most 2 spaces in one move action with a
    Sentry's chip, whatever AP is left (which the command module may still spend)."""
    s = make_state(bots=[disguised("A1"), module("F5")], slots=chips("general", "general"))
    s = in_turn(s, basic=2)
    s, _ = act(s, Move(dice=DicePool(basic=2)), ["2", "2"])
    s, _ = act(s, Step(bot="interface", to="B1"))
    s, _ = act(s, Step(bot="interface", to="C1"))
    illegal(s, Step(bot="interface", to="D1"), "disguise's movement value")
    steps = [la.action for la in legal_actions(s) if isinstance(la.action, Step)]
    assert steps and all(a.bot == "module" for a in steps)
    s, _ = act(s, Step(bot="module", to="E5"))
    assert s.turn.pending.ap == 1


# == Memory & Joan the drone ========================================================================
def memory_state(joan: str = "C3", charged: bool = True, text: str = "", units=None, memory_at: str = "A1"):
    s = make_state(text, bots=[bot("memory", memory_at), bot("byte", "F1"), module("F4")], units=units,
                   players=2, slots=chips("general", "general", "general"))
    s.joan = Drone(space=joan, charged=charged)
    return in_turn(s, basic=3)


def test_joan_starts_charged_with_memory():
    """Joan the drone comes with Memory: setup puts her, charged, on Memory's space."""
    s = new_game(CONTENT, GameSetup(floor="meridian-lobby", players=2, agents=["memory", "byte"]))
    assert s.joan is not None and s.joan.charged and s.joan.space == s.bot("memory").space
    s = new_game(CONTENT, GameSetup(floor="meridian-lobby", players=2, agents=["byte", "casing"]))
    assert s.joan is None


def test_joan_is_not_a_bot_and_does_not_trigger_guard_awareness():
    """"Joan is not a bot and does not trigger guard awareness": in a guard's sight, nobody is detected."""
    s = memory_state(joan="C3", units=[guard("G1", "C5", "N", awareness=4)])
    s.turn.step = "corporation"
    new, events = turn(s)
    assert of_type(events, "bot_detected") == [] and of_type(events, "awareness_placed") == []
    assert new.joan.space == "C3"


def test_memory_spends_move_ap_on_joan():
    """Memory's move AP may be spent on Joan's steps, like the command module's (rules-interpretations.md);
    walls and locked doors stop her as they stop bots."""
    s = memory_state(joan="B1", text=DOORS)
    s, _ = act(s, Move(dice=DicePool(basic=2)), ["2", "1"])
    s, events = act(s, Step(bot="joan", to="B2"))
    assert s.joan.space == "B2" and of_type(events, "joan_moved")[0].path == ["B1", "B2"]
    assert s.turn.pending.ap == 2
    illegal(s, Step(bot="joan", to="B3"), "walls and locked doors")
    assert any(isinstance(la.action, Step) and la.action.bot == "joan" for la in legal_actions(s))


def test_joan_acts_only_on_memorys_turn():
    s = memory_state(joan="B1")
    s.turn.order = ["byte", "memory"]
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    illegal(s, Step(bot="joan", to="B2"), "Joan acts on Memory's turn")
    assert not any(isinstance(la.action, Step) and la.action.bot == "joan" for la in legal_actions(s))


def test_units_pass_through_joan_via_automatic_swap():
    """"Units can pass through Joan via automatic swap": a bot stepping onto her space puts her on the space
    it left; she herself enters no unit's space but Memory's."""
    s = memory_state(joan="B1", memory_at="A1")
    s.turn.order = ["byte", "memory"]
    s.bot("byte").space = "C1"
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    s, events = act(s, Step(bot="byte", to="B1"))
    assert s.joan.space == "C1" and s.bot("byte").space == "B1"
    assert "automatic swap" in of_type(events, "joan_moved")[0].reason
    s = memory_state(joan="E1")
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    illegal(s, Step(bot="joan", to="F1"), "Joan shares a space only with Memory")


def test_guard_patrol_passes_through_joan():
    """"Units can pass through Joan via automatic swap": a pacing guard walks over her."""
    s = memory_state(joan="C3", units=[guard("G1", "C4", "N", movement=2, patrol="pace")])
    s.turn.step = "corporation"
    new, events = turn(s)
    assert new.unit("G1").space == "C2" and new.joan.space == "C4"


def test_joan_surveils_a_room_remotely_and_is_depleted():
    """"Depleted by surveilling ... via abilities": Joan in a room holding a surveillance bead rolls its
    surveillance dice as if Memory had entered it (a powercell powers Memory), then she is depleted."""
    text = DOORS.replace('A3 room "Lab"', 'A3 room "Lab" surveillance=1')
    s = memory_state(joan="A4", text=text)
    s.floor.surveillance = ["A3"]
    assert any(isinstance(la.action, JoanSurveil) for la in legal_actions(s))
    s, events = act(s, JoanSurveil(), ["powercell"])
    assert s.floor.surveillance == [] and s.bot("memory").power == 6
    assert of_type(events, "bead_removed")[0].space == "A4"
    assert s.joan.charged is False and s.burncycle.tracker == 1
    illegal(s, JoanSurveil(), "Joan is depleted")


def test_joan_cannot_surveil_outside_a_surveilled_room():
    illegal(memory_state(joan="C1"), JoanSurveil(), "not in a room that still holds a surveillance bead")


def test_joan_stuns_an_adjacent_guard_without_detection_or_threat():
    """"Depleted by ... stunning guards via abilities": the guard is stunned, Joan depleted; "Joan is not a
    bot and does not trigger guard awareness", so nobody is detected and threat stays."""
    s = memory_state(joan="C3", units=[guard("G1", "C4", "N")])
    assert [la.action.unit for la in legal_actions(s) if isinstance(la.action, JoanStun)] == ["G1"]
    s, events = act(s, JoanStun(unit="G1"))
    assert s.unit("G1").stunned and s.joan.charged is False and s.threat == 0
    assert of_type(events, "bot_detected") == [] and of_type(events, "joan_stunned")[0].unit == "G1"


def test_a_shut_down_memory_directs_no_joan():
    """"Bot Shut Down: ... Cannot act ... until repaired": Memory shut down mid-turn lists no Joan ability."""
    s = memory_state(joan="C3", units=[guard("G1", "C4", "N")])
    s.bot("memory").power, s.bot("memory").shut_down = 0, True
    assert not [la for la in legal_actions(s) if isinstance(la.action, (JoanStun, JoanSurveil))]
    illegal(s, JoanStun(unit="G1"), "shut down")


def test_joan_stuns_only_adjacent_guards():
    s = memory_state(joan="C2", units=[guard("G1", "C4", "N"), captain("D2", "N")])
    illegal(s, JoanStun(unit="G1"), "not adjacent to Joan")
    illegal(s, JoanStun(unit="CAP"), "stuns guards, not the captain")
    illegal(memory_state(joan="C3", charged=False, units=[guard("G1", "C4", "N")]), JoanStun(unit="G1"),
            "Joan is depleted")


def test_joan_recharges_when_sharing_a_space_with_memory():
    """"Joan recharges when sharing a space with Memory": Memory stepping onto her space, or she onto
    Memory's, charges her.
    Also: "She has two states: charged and depleted."
    """
    s = memory_state(joan="B1", charged=False, memory_at="A1")
    s, _ = act(s, Move(dice=DicePool(basic=2)), ["1", "1"])
    s, events = act(s, Step(bot="memory", to="B1"))
    assert s.joan.charged and s.joan.space == "B1" and of_type(events, "joan_charge")[0].charged
    s = memory_state(joan="B1", charged=False, memory_at="A1")
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    s, _ = act(s, Step(bot="joan", to="A1"))
    assert s.joan.charged and s.joan.space == "A1"


def test_invariants_of_the_special_characters():
    """validate.py: Joan needs Memory; a disguise is Interface's only; activated dice match the track."""
    from controller.rules import state_problems
    s = memory_state()
    s.bots = [b for b in s.bots if b.id != "memory"]
    assert any("only with Memory" in p for p in state_problems(s))
    s = make_state(bots=[bot("byte", "A1")])
    s.bot("byte").disguise = DISGUISE
    assert any("only Interface" in p for p in state_problems(s))
    s = make_state(bots=[bot("byte", "A1")])
    s.bot("byte").dice_track = list(CONTENT.agents[0].upgrades)
    s.bot("byte").advanced_dice = 1
    assert any("activated upgrades give 0" in p for p in state_problems(s))


def test_joan_follows_memory_when_a_bot_swaps_into_their_space():
    """"Units can pass through Joan via automatic swap": Byte swapping places with Memory enters Joan's space,
    so she takes the space Byte left, where Memory now stands."""
    s = memory_state(joan="A1", charged=False, memory_at="A1")
    s.turn.order = ["byte", "memory"]
    s.bot("byte").space = "B1"
    s.bot("byte").upgrades = ["swap"]
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    s, events = act(s, Swap(bot="byte", other="memory"))
    assert s.bot("memory").space == "B1" and s.joan.space == "B1" and s.joan.charged
