"""Rulebook "Command Module", "Component Limits" and the threshold AP checks of strikes: what the shared bot
may and may not do, and what the table runs out of.

Every test quotes the sentence it checks.
"""

from __future__ import annotations

from controller.rules import GameSetup, new_game
from controller.rules.actions import BeginActions, EndTurn, Move, NetworkStep, Pass, Repair, Step, Strike, StrikeWall
from controller.rules.cards.imperatives import draw_imperative
from controller.rules.corporation.pings import add_ping
from controller.rules.state import DicePool
from tests.support.rules_scenarios import CONTENT, bot, guard, make_state, module, table
from tests.support.rules_scenarios import SAFE_BESIDE_HALL as SAFE
from tests.support.turn_scenarios import DOORS, act, chips, illegal, in_turn


def two_players(step: str = "actions", **kw):
    s = make_state(DOORS, bots=[bot("byte", "A1"), bot("casing", "F1"), module("C2")], players=2,
                   slots=chips("general", "general"), difficulty="simplified", **kw)
    return in_turn(s, step=step)


def test_the_module_is_shared_and_takes_no_turns_of_its_own():
    """"The command module is a shared unit accompanying the agent team." "It does not take its own turns;
    players allocate move AP and action slots to it instead." (Byte's move walks the module; on Casing's
    turn Casing's move walks it again; the turn order holds only the agents.)"""
    s = two_players()
    assert s.turn.order == ["byte", "casing"]
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    s, _ = act(s, Step(bot="module", to="D2"))
    s, _ = act(s, Pass())
    s, _ = act(s, NetworkStep())
    s, _ = act(s, EndTurn(), ["1"])
    assert s.turn.order[s.turn.active] == "casing"
    s, _ = act(s, BeginActions())
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    s, _ = act(s, Step(bot="module", to="E2"))
    assert s.bot("module").space == "E2" and s.burncycle.tracker == 1


def test_the_module_strikes_on_an_action_slot_with_the_players_dice():
    """"Either the agent or the command module may strike an adjacent target by conducting an AP check with
    any number of dice from their pool:" (the module, next to a level 1 guard, rolls 5 of the active
    player's dice for 10 AP)"""
    s = two_players(units=[guard("G1", "C1", "S", awareness=0)])
    s, _ = act(s, Strike(bot="module", unit="G1", dice=DicePool(basic=5)), ["2"] * 5)
    assert s.security == [] and s.bot("module").power == 7
    assert s.turn.pool.basic == 0 and s.burncycle.tracker == 1


def test_the_module_uses_a_key():
    """"It can use keys." (the module spends its key to step through the locked door B2/B3)"""
    s = make_state(DOORS, bots=[bot("byte", "A1"), module("B2")], slots=chips("general"))
    s = in_turn(s)
    s.bot("module").keys = 1
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    s, _ = act(s, Step(bot="module", to="B3"))
    assert s.bot("module").space == "B3" and s.bot("module").keys == 0 and "B2/B3" in s.floor.unlocked_doors


def test_the_module_receives_no_objective_power_reward():
    """"It does not receive objective power rewards." The objective cards that reward power are the
    imperatives, and the module never holds one: it draws none, and an agent's reward goes to that agent."""
    s = two_players(imperative_deck=list(CONTENT.imperatives[:2]))
    t = table(s, [CONTENT.imperatives[0].id])
    draw_imperative(t, t.state.bot("module"))
    assert t.state.bot("module").imperative is None and t.events == []
    draw_imperative(t, t.state.bot("byte"))
    assert t.state.bot("byte").imperative is not None


def test_the_module_starts_with_fixed_power_keeps_it_and_holds_up_to_ten():
    """"It starts with a fixed power level and does not need to spend power down to a limit, holding up to 10
    power." (setup gives it the card's power whatever the team; an end of turn leaves its 9 power; a repair
    may bring it to 10, not beyond)"""
    text = CONTENT.floors["meridian-lobby"]
    for players in (1, 3):
        g = new_game(CONTENT, GameSetup(floor="lobby.floor", floor_text=text, mission="data-heist", players=players,
                                        difficulty="standard", captain="fauxbia", seed=1))
        assert g.bot("module").power == CONTENT.module.power
    s = two_players(step="end")
    s.bot("module").power = 9
    s, _ = act(s, EndTurn(), ["1"])
    assert s.bot("module").power == 9
    s = two_players()
    s.bot("byte").upgrades = ["repair"]
    s.bot("module").power = 9
    illegal(s, Repair(bot="byte", target="module", amount=2), "absolute maximum is 10")
    s, _ = act(s, Repair(bot="byte", target="module", amount=1))
    assert s.bot("module").power == 10


def test_excess_power_from_a_repair_stays_until_the_bots_own_step_5():
    """">> A bot repaired above its normal capacity does not have to discard excess power until step 5 of its
    subsequent turn." (Byte repairs Casing to 8 over a bank of 5: Byte's end of turn leaves Casing at 8,
    Casing's own end of turn brings it down to 5)"""
    s = two_players()
    s.bot("byte").upgrades = ["repair"]
    s.bot("casing").bank = 5
    s, _ = act(s, Repair(bot="byte", target="casing", amount=3))
    assert s.bot("casing").power == 8
    s, _ = act(s, Pass())
    s, _ = act(s, NetworkStep())
    s, _ = act(s, EndTurn(), ["1"])
    assert s.bot("casing").power == 8 and s.turn.order[s.turn.active] == "casing"
    s, _ = act(s, BeginActions())
    s, _ = act(s, Pass())  # slot 1 degraded at the end of Byte's turn: one action left
    s, _ = act(s, NetworkStep())
    s, _ = act(s, EndTurn(), ["1"])
    assert s.bot("casing").power == 5


# -- threshold AP checks ---------------------------------------------------------------------------
def striking(units, basic=10, **kw):
    s = make_state(bots=[bot("byte", "C3"), module("F5")], units=units, slots=chips("general", "general"), **kw)
    return in_turn(s, basic=basic)


def test_a_threshold_check_sends_every_die_to_the_supply_and_loses_the_excess():
    """"In threshold AP checks (such as strikes or terminals), all rolled dice are sent to the supply
    regardless of success, and excess AP is lost." (a failed strike spends its 2 dice; a 14 AP shut down of a
    10-durability guard keeps nothing of the 4 extra AP: no move follows, the tracker moves on)"""
    s = striking([guard("G1", "C4", "S", awareness=0)])
    s, _ = act(s, Strike(bot="byte", unit="G1", dice=DicePool(basic=2)), ["1", "1"])
    assert s.turn.pool.basic == 8 and s.security[0].space == "C4"
    s, _ = act(s, Strike(bot="byte", unit="G1", dice=DicePool(basic=7)), ["2"] * 7)
    assert s.security == [] and s.turn.pool.basic == 1
    assert s.turn.pending is None and s.turn.step == "network"


def test_strike_ap_is_not_accumulated_across_actions():
    """"The total AP rolled must equal or exceed the durability of the target in a single attempt; AP cannot
    be accumulated across multiple actions." (4 AP and then 4 AP more against durability 10: no effect)"""
    s = striking([guard("G1", "C4", "S", awareness=0)])
    s, _ = act(s, Strike(bot="byte", unit="G1", dice=DicePool(basic=2)), ["2", "2"])
    s, events = act(s, Strike(bot="byte", unit="G1", dice=DicePool(basic=2)), ["2", "2"])
    assert s.security[0].space == "C4" and not s.security[0].stunned
    assert [e.result for e in events if type(e).__name__ == "UnitStruck"] == ["no effect"]


def test_breaking_a_wall_inside_a_safe_zone_detects_the_bot_there():
    """"However, performing noisy actions inside (attacking or breaking walls) causes detection within the
    safe zone." (Byte breaks the safe zone's wall D1/D2 and stays inside: its awareness chip is on D2)"""
    s = in_turn(make_state(SAFE, bots=[bot("byte", "D2"), module("A1")], slots=chips("general")), basic=5)
    s, _ = act(s, StrikeWall(bot="byte", beyond="D1", dice=DicePool(basic=5), move_through=False), ["2"] * 5)
    assert s.floor.destroyed_walls == ["D1/D2"]
    assert s.bot("byte").space == "D2" and s.bot("byte").detected


# -- component limits ------------------------------------------------------------------------------
def test_pings_are_limited_and_keys_are_not():
    """"Limited: Action chips, action dice, security unit chips, pings, destroyed wall chips (max 3 per
    floor)." "Unlimited: Beads, cache/key chips, terminal chips, pegs." (with every ping of the mat's supply
    on the mat no ping is added; a bot holding 9 keys still takes the 10th from a guard it shuts down)"""
    s = striking([guard("G1", "C4", "S", awareness=0, key=True)])
    supply = s.network.mat.ping_supply
    t = table(s)
    for _ in range(supply + 2):
        add_ping(t)
    assert len(t.state.network.pings) == supply
    s.bot("byte").keys = 9
    s, _ = act(s, Strike(bot="byte", unit="G1", dice=DicePool(basic=5)), ["2"] * 5)
    assert s.bot("byte").keys == 10


def test_a_roll_modifier_of_the_agent_counts_when_the_module_spends_all_the_ap():
    """">> Because action dice are rolled prior to dividing AP between the agent and command module, abilities
    modifying die rolls (such as Byte's Tumble Magnet) can be triggered even if all resulting AP is allocated
    to the command module." (Byte's installed M01 adds +1 to the move action's AP check: 1 rolled + 1, and
    the module walks both steps while Byte stays put)"""
    s = two_players()
    s.bot("byte").installed = [next(m for m in CONTENT.mods if m.id == "M01").__copy__()]
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    assert s.turn.pending.ap == 2
    s, _ = act(s, Step(bot="module", to="D2"))
    s, _ = act(s, Step(bot="module", to="E2"))
    assert s.bot("module").space == "E2" and s.bot("byte").space == "A1" and s.turn.pending is None
