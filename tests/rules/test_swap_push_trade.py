"""Universal upgrades Swap and Push, and trading."""

from __future__ import annotations

from controller.rules.actions import Discard, Move, Push, Swap, Trade, legal_actions
from controller.rules.state import DicePool
from tests.support.rules_scenarios import CONTENT, bot, guard, make_state, module, of_type
from tests.support.turn_scenarios import DOORS, act, chips, illegal, in_turn


def moving(bots, units=None, text="", basic=5, **kw):
    s = make_state(text, bots=bots, units=units, slots=chips("general", "general", "general"), **kw)
    return in_turn(s, basic=basic)


def test_swap_exchanges_places_simultaneously():
    """"Swap (1 Power): Move into an adjacent bot's space, swapping positions simultaneously." """
    s = moving([bot("byte", "A1"), module("B1")])
    s.bot("byte").upgrades = ["swap"]
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    s, events = act(s, Swap(bot="byte", other="module"))
    assert s.bot("byte").space == "B1" and s.bot("module").space == "A1"
    assert len(of_type(events, "bot_moved")) == 2
    assert s.turn.pending is None  # the one AP is spent


def test_swap_needs_the_upgrade():
    """"Bots can acquire universal upgrades for 1 power each": without Swap, no swap."""
    s = moving([bot("byte", "A1"), module("B1")])
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    illegal(s, Swap(bot="byte", other="module"), "swap upgrade")


def test_push_shoves_the_unit_and_enters_its_space_with_detection():
    """"Push (1 Power): Spend +1 AP during a move action to shove a security unit to an adjacent empty space,
    entering its space (causes detection)." """
    s = moving([bot("byte", "A1"), module("F5")], units=[guard("G1", "B1", "S", awareness=0)])
    s.bot("byte").upgrades = ["push"]
    s, _ = act(s, Move(dice=DicePool(basic=2)), ["1", "1"])
    s, events = act(s, Push(bot="byte", unit="G1", to="C1"))
    assert s.unit("G1").space == "C1" and s.unit("G1").facing == "S"
    assert s.bot("byte").space == "B1" and s.bot("byte").detected
    assert s.turn.pending is None  # 1 AP for the move into the space + 1 for the push


def test_push_costs_the_extra_ap():
    """"Spend +1 AP during a move action": with 1 AP left there is no push."""
    s = moving([bot("byte", "A1"), module("F5")], units=[guard("G1", "B1", "S", awareness=0)])
    s.bot("byte").upgrades = ["push"]
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    illegal(s, Push(bot="byte", unit="G1", to="C1"), "needs 2 AP")


def test_push_needs_an_empty_space():
    """"shove a security unit to an adjacent empty space" """
    s = moving([bot("byte", "A1"), module("C1")], units=[guard("G1", "B1", "S", awareness=0)])
    s.bot("byte").upgrades = ["push"]
    s, _ = act(s, Move(dice=DicePool(basic=2)), ["1", "1"])
    illegal(s, Push(bot="byte", unit="G1", to="C1"), "occupied")
    listed = [la.action for la in legal_actions(s) if isinstance(la.action, Push)]
    assert {a.to for a in listed} == {"B2"}


def test_push_through_a_door_counts_for_the_calibration():
    """TSM-103C: "Each agent: Use the push ability to push a security unit through a door." """
    s = moving([bot("byte", "B1"), module("F1")], units=[guard("G1", "B2", "W", awareness=0)], text=DOORS)
    s.bot("byte").upgrades = ["push"]
    s, _ = act(s, Move(dice=DicePool(basic=2)), ["1", "1"])
    s, _ = act(s, Push(bot="byte", unit="G1", to="B3"))
    assert s.unit("G1").space == "B3"
    assert s.progress["push_through_door:byte"] == 1


def test_rescue_rangers_push_needs_no_additional_ap():
    """Rescue Rangers: "Using push does not require the additional AP." """
    s = moving([bot("byte", "A1"), module("F5")], units=[guard("G1", "B1", "S", awareness=0)])
    s.mission = CONTENT.missions["rescue-rangers"]
    s.bot("byte").upgrades = ["push"]
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    s, _ = act(s, Push(bot="byte", unit="G1", to="C1"))
    assert s.bot("byte").space == "B1"


def test_trade_keys_with_an_adjacent_bot():
    """"As a free action, an agent or command module may trade with any adjacent bot." ">> A trade is
    completely valid even if one participant receives nothing in return." """
    s = moving([bot("byte", "A1"), module("B1")])
    s.bot("byte").keys = 2
    s, _ = act(s, Trade(bot="byte", to="module", keys=2))
    assert s.bot("byte").keys == 0 and s.bot("module").keys == 2
    assert s.turn.pending is None and s.burncycle.tracker == 0  # free: the tracker does not move


def test_trade_only_with_an_adjacent_bot():
    """"... trade with any adjacent bot." """
    s = moving([bot("byte", "A1"), module("F5")])
    s.bot("byte").keys = 1
    illegal(s, Trade(bot="byte", to="module", keys=1), "not adjacent")


def test_no_trade_during_a_move():
    """">> Free actions cannot interrupt movement within an ongoing move action."
    Also: "For instance, two bots cannot trade equipment midway through a move action."
    """
    s = moving([bot("byte", "A1"), module("B1")])
    s.bot("byte").keys = 1
    s, _ = act(s, Move(dice=DicePool(basic=2)), ["1", "1"])
    illegal(s, Trade(bot="byte", to="module", keys=1), "move action is under way")


def test_push_keeps_the_bot_and_the_unit_adjacent():
    """"Push (1 Power): Spend +1 AP during a move action to shove a security unit to an adjacent empty space,
    entering its space (causes detection). Adjacency is preserved during movement." (the unit goes to a
    space next to its own, so it stays next to the bot that took its place; a space two away is refused)"""
    s = moving([bot("byte", "A1"), module("F5")], units=[guard("G1", "B1", "S", awareness=0)])
    s.bot("byte").upgrades = ["push"]
    s, _ = act(s, Move(dice=DicePool(basic=2)), ["1", "1"])
    illegal(s, Push(bot="byte", unit="G1", to="D1"), "adjacent")
    s, _ = act(s, Push(bot="byte", unit="G1", to="B2"))
    assert s.bot("byte").space == "B1" and s.unit("G1").space == "B2"


def test_an_uninstalled_mod_is_traded_and_its_discard_pays():
    """Mods: "Placed sideways as uninstalled (can be traded; discarding awards printed power)." (Byte trades
    its uninstalled M04 to the module, which discards it for the printed power)"""
    mod = next(m for m in CONTENT.mods if m.id == "M04")
    s = moving([bot("byte", "A1"), module("B1", power=3)])
    s.bot("byte").mods = [mod.__copy__()]
    s, _ = act(s, Trade(bot="byte", to="module", cards=["M04"]))
    assert [m.id for m in s.bot("module").mods] == ["M04"] and s.bot("byte").mods == []
    s, _ = act(s, Discard(bot="module", card="M04"))
    assert s.bot("module").power == 3 + mod.power and s.bot("module").mods == []
