"""Rulebook "Terminal Actions" and "Mainframe Terminals".

Scripted results: the terminal card revealed (by id), then the action dice of the AP check.
"""

from __future__ import annotations

import pytest

from controller.rules.actions import Terminal, legal_actions
from controller.rules.state import DicePool
from tests.support.rules_scenarios import CONTENT, bot, guard, make_state, module, network, of_type
from tests.support.turn_scenarios import DOORS, act, chips, decks, illegal, in_turn


def on_terminal(slots=None, kind: str = "standard", byte_kw=None, units=None, **kw):
    """Byte on the terminal chip E3 in the Office (its door E2/E3 is locked)."""
    s = make_state(DOORS, bots=[bot("byte", "E3", **(byte_kw or {})), module("A1")], units=units,
                   slots=slots or chips("general", "general"), **decks(**kw))
    s.floor.terminals = {"E3": kind}
    return in_turn(s)


def accessed(events):
    return of_type(events, "terminal_accessed")[0]


def test_terminal_option_met_resolves_and_everything_is_discarded():
    """"Select an option before rolling dice, then roll an AP check. Meeting or exceeding the requirement
    resolves the chosen effect. The terminal card and the floor chip are discarded regardless of success."
    (T01 option 1: 2 AP, gain 1 power.)"""
    s = on_terminal()
    new, events = act(s, Terminal(bot="byte", options=[1], dice=DicePool(basic=2)), ["T01", "1", "1"])
    assert new.bot("byte").power == 6
    assert accessed(events).resolved == [1]
    assert new.floor.terminals == {} and [c.id for c in new.terminal_discard] == ["T01"]
    assert "T01" not in [c.id for c in new.terminal_deck]
    assert new.turn.pool.basic == 3 and new.burncycle.tracker == 1


def test_terminal_option_missed_still_discards():
    """"The terminal card and the floor chip are discarded regardless of success.\"
    Also: ">> Selected options cannot be altered after the roll." (the 3 AP rolled would have met option 1's 2 AP,
    but option 3 was selected)
    """
    s = on_terminal()
    new, events = act(s, Terminal(bot="byte", options=[3], dice=DicePool(basic=2)), ["T01", "1", "2"])
    assert new.bot("byte").power == 5 and accessed(events).resolved == []
    assert new.floor.terminals == {} and [c.id for c in new.terminal_discard] == ["T01"]
    assert of_type(events, "terminal_changed")[0].kind == "discarded"


def test_zero_dice_still_discards_the_chip():
    """">> Players may choose to roll 0 dice or decline to apply rolled AP, but the terminal chip is still
    discarded.\""""
    s = on_terminal()
    new, events = act(s, Terminal(bot="byte", options=[2]), ["T01"])
    assert accessed(events).ap == 0 and new.floor.terminals == {}


def test_terminal_needs_a_bot_on_a_terminal_chip():
    """"A bot occupying a terminal chip may take a terminal action.\""""
    s = on_terminal()
    illegal(s, Terminal(bot="module", options=[1]), "not on a terminal chip")


def test_one_option_unless_optimized():
    """"Select an option before rolling dice" / "Optimized: The player may select up to 2 options prior to
    rolling." On a general chip two options are refused, and no option at all too."""
    s = on_terminal()
    illegal(s, Terminal(bot="byte", options=[1, 2]), "only an optimized terminal action")
    illegal(s, Terminal(bot="byte", options=[]), "select an option")
    illegal(s, Terminal(bot="byte", options=[4]), "3 distinct options")
    t = on_terminal(slots=chips("tech", "general"))
    illegal(t, Terminal(bot="byte", options=[1, 2, 3]), "up to 2 options")
    illegal(t, Terminal(bot="byte", options=[2, 2]), "3 distinct options")


def test_optimized_two_options_share_the_rolled_ap():
    """"Rolled AP can be distributed between both options." (T01: 2 AP + 4 AP with 6 rolled, on a tech chip:
    "Tech actions include terminal actions ... They are optimized by the tech action chip.")"""
    s = on_terminal(slots=chips("tech", "general"))
    new, events = act(s, Terminal(bot="byte", options=[1, 2], dice=DicePool(basic=3)), ["T01", "2", "2", "2"])
    assert accessed(events).resolved == [1, 2]
    assert new.bot("byte").power == 6 and "E2/E3" in new.floor.unlocked_doors


@pytest.mark.parametrize("options,rolled,resolved", [([2, 1], ["2", "2"], [2]), ([1, 2], ["2", "2"], [1]),
                                                      ([3, 1], ["2", "1"], [1])])
def test_optimized_insufficient_for_both_player_chooses(options, rolled, resolved):
    """"If insufficient for both, the player chooses which option to satisfy": the option named first, when
    the AP meets it; otherwise the other one."""
    s = on_terminal(slots=chips("tech", "general"))
    new, events = act(s, Terminal(bot="byte", options=options, dice=DicePool(basic=2)), ["T01"] + rolled)
    assert accessed(events).resolved == resolved


def test_optimization_adds_no_ap_to_a_terminal():
    """Only physical actions gain "+2 AP"; a tech chip lets a terminal action select 2 options instead."""
    s = on_terminal(slots=chips("tech", "general"))
    new, events = act(s, Terminal(bot="byte", options=[1], dice=DicePool(basic=1)), ["T01", "1"])
    assert accessed(events).ap == 1 and accessed(events).resolved == []


def test_mainframe_terminal_options_cost_zero():
    """"Terminals flipped to their mainframe side ... reduce the AP cost of all options on terminal cards to
    0 AP." (T06 option 3 needs 9 AP on a standard terminal.)"""
    s = on_terminal(kind="mainframe", threat=5)
    new, events = act(s, Terminal(bot="byte", options=[3]), ["T06"])
    assert new.threat == 2 and accessed(events).mainframe


def test_mainframe_option_limits_still_apply():
    """"Option limits still apply: 1 option for standard actions, 2 options when optimized.\""""
    illegal(on_terminal(kind="mainframe"), Terminal(bot="byte", options=[1, 3]), "only an optimized")
    s = on_terminal(kind="mainframe", slots=chips("tech", "general"), threat=5)
    new, events = act(s, Terminal(bot="byte", options=[1, 3]), ["T06"])
    assert new.threat == 1 and accessed(events).resolved == [1, 3]


def test_progress_counts_terminals_per_bot():
    """Mission objectives read how many terminals each bot accessed (`progress["terminals:<bot>"]`)."""
    s = on_terminal()
    s.progress = {"terminals:byte": 1}
    new, _ = act(s, Terminal(bot="byte", options=[1]), ["T01"])
    assert new.progress["terminals:byte"] == 2


def test_command_module_accesses_a_terminal():
    """"Depending on the nature of the action, it is executed by the player's agent, the command module":
    the module on a terminal; a chip effect goes to the team reserve (its reserve)."""
    s = make_state(DOORS, bots=[bot("byte", "A1"), module("E3")], slots=chips("general"), **decks())
    s.floor.terminals = {"E3": "standard"}
    in_turn(s)
    new, events = act(s, Terminal(bot="module", options=[1], dice=DicePool(basic=1)), ["T04", "2"])
    assert new.burncycle.team_reserve == ["physical"] and new.progress["terminals:module"] == 1


# -- the effects of the terminal cards -------------------------------------------------------------
def _resolve(card: str, option: int, s=None):
    s = s or on_terminal(kind="mainframe")
    return act(s, Terminal(bot="byte", options=[option]), [card])


def test_effect_reduce_threat():
    new, _ = _resolve("T02", 1, on_terminal(kind="mainframe", threat=4))
    assert new.threat == 3


def test_effect_unlock_a_door_of_the_room_is_not_a_keypad_action():
    """">> Unlocking doors via keys during a move action or through terminal cards is not a keypad action."
    The door's keypad card goes to the discards."""
    s = on_terminal(kind="mainframe")
    s.keypads = {"E2/E3": CONTENT.keypads[0]}
    new, events = _resolve("T05", 1, s)
    assert new.floor.unlocked_doors == ["E2/E3"] and new.keypads == {}
    assert of_type(events, "keypad_resolved") == []


def test_effect_lower_ceo_level():
    new, _ = _resolve("T03", 3, on_terminal(kind="mainframe", net=network(["byte"], ceo_level=3)))
    assert new.network.ceo_level == 2


def test_effect_reserve_chip_to_the_agent():
    new, _ = _resolve("T04", 2)
    assert new.burncycle.personal_reserves["byte"] == ["tech"]


def test_effect_remove_ping_outermost_first():
    nodes = {n.layer: n.id for n in CONTENT.network.nodes if n.kind == "node"}
    s = on_terminal(kind="mainframe", net=network(["byte"], pings=[nodes[3], nodes[1]]))
    new, events = _resolve("T03", 2, s)
    assert [p.node for p in new.network.pings] == [nodes[3]]


def test_effect_raise_ip_level():
    new, _ = _resolve("T08", 3)
    assert new.network.ips[0].level == 3


def test_effect_key():
    new, _ = _resolve("T09", 1)
    assert new.bot("byte").keys == 1


def test_effect_clear_awareness_unless_seen():
    """The awareness chip returns to the mat; "Security awareness is continuously checked at all times", so
    a unit that sees the bot detects it again at once."""
    new, _ = _resolve("T02", 2, on_terminal(kind="mainframe", byte_kw={"detected": True}))
    assert new.bot("byte").awareness is None
    seen = on_terminal(kind="mainframe", byte_kw={"detected": True}, units=[guard("G1", "E4", "N")])
    new, _ = _resolve("T02", 2, seen)
    assert new.bot("byte").detected


def test_effect_power_up_to_ten():
    new, _ = _resolve("T01", 3, on_terminal(kind="mainframe", byte_kw={"power": 9}))
    assert new.bot("byte").power == 10


def test_every_terminal_card_has_three_options():
    """"which presents 3 distinct options, each detailing an AP requirement and an effect\""""
    assert CONTENT.terminals and all(len(c.options) == 3 for c in CONTENT.terminals)


def test_legal_actions_list_terminal_options():
    """One option each on a general chip; pairs too when optimized."""
    s = on_terminal()
    found = [a.action.options for a in legal_actions(s) if type(a.action).__name__ == "Terminal"]
    assert found == [[1], [2], [3]]
    s = on_terminal(slots=chips("tech"))
    found = [a.action.options for a in legal_actions(s) if type(a.action).__name__ == "Terminal"]
    assert found == [[1], [2], [3], [1, 2], [1, 3], [2, 3]]
