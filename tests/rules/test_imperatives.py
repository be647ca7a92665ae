"""Imperatives ("Mods & Imperatives", "Changing Floors" step 5, the Imperative surveillance face)."""

from __future__ import annotations

from controller.rules import GameSetup, new_game
from controller.rules.actions import Discard, EndTurn, Move, Step, Strike
from controller.rules.cards.imperatives import check_imperatives, draw_imperative, draw_imperatives
from controller.rules.state import DicePool
from tests.support.rules_scenarios import CONTENT, bot, floor_text, guard, make_state, module, of_type, table
from tests.support.turn_scenarios import act, chips, illegal, in_turn

IMP = {c.id: c for c in CONTENT.imperatives}


def with_imperative(card_id: str, units=None, power: int = 5, **kw):
    s = make_state(bots=[bot("byte", "A1", power=power), module("F5")], units=units,
                   slots=chips("general", "general", "general"), **kw)
    s.bot("byte").imperative = IMP[card_id].__copy__()
    return in_turn(s)


def test_every_agent_draws_one_at_the_start_of_the_floor_the_module_never():
    """"Drawn at the start of each floor (limit 1 per agent; command modules never draw imperatives)." """
    s = new_game(CONTENT, GameSetup(floor="meridian-lobby", players=2, seed=3))
    agents = [b for b in s.bots if b.kind == "agent"]
    assert all(b.imperative is not None for b in agents)
    assert s.bot("module").imperative is None
    assert len(s.imperative_deck) == len(CONTENT.imperatives) - len(agents)


def test_changing_floors_agents_lacking_an_imperative_draw_one():
    """"5. Agents lacking an imperative card draw one." (`draw_imperatives`, called on a floor change)"""
    s = make_state(bots=[bot("byte", "A1"), bot("bit", "B1"), module("F5")], players=2,
                   imperative_deck=[IMP["I02"], IMP["I03"]])
    s.bot("byte").imperative = IMP["I01"].__copy__()
    t = table(s, ["I03"])
    draw_imperatives(t)
    assert t.state.bot("byte").imperative.id == "I01" and t.state.bot("bit").imperative.id == "I03"
    assert t.state.bot("module").imperative is None


def test_completing_awards_the_power_immediately():
    """"Completing an imperative awards the listed power immediately." (I02: collect 2 caches, 1 power)"""
    s = with_imperative("I02")
    s.floor.caches = ["A2", "A3"]
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["2"])
    s, _ = act(s, Step(bot="byte", to="A2", take_cache=True))
    assert s.bot("byte").imperative is not None and s.bot("byte").power == 5
    s, events = act(s, Step(bot="byte", to="A3", take_cache=True))
    assert s.bot("byte").imperative is None and s.bot("byte").power == 6
    assert of_type(events, "imperative_resolved")[0].completed and [c.id for c in s.imperative_discard] == ["I02"]


def test_the_goal_counts_from_the_draw():
    """The goal counts from the draw: an agent that had collected 5 caches before drawing I02 still needs 2."""
    s = with_imperative("I02")
    s.progress["caches:byte"] = 5
    s.bot("byte").imperative.base = 5
    s.floor.caches = ["A2"]
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    s, _ = act(s, Step(bot="byte", to="A2", take_cache=True))
    assert s.bot("byte").imperative is not None


def test_failing_costs_one_power():
    """"Failing or discarding an imperative costs 1 power." (I01 fails when the agent is detected)"""
    s = with_imperative("I01", units=[guard("G1", "A4", "N", awareness=3)])
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    s, events = act(s, Step(bot="byte", to="A2"))
    assert s.bot("byte").detected and s.bot("byte").imperative is None and s.bot("byte").power == 4
    assert not of_type(events, "imperative_resolved")[0].completed


def test_striking_fails_ghost_protocol():
    """I03 fails when its agent strikes ("Failing ... costs 1 power")."""
    s = with_imperative("I03", units=[guard("G1", "A2", "N", awareness=0)])
    s, _ = act(s, Strike(bot="byte", unit="G1", dice=DicePool(basic=1)), ["1"])
    assert s.bot("byte").imperative is None and s.bot("byte").power == 4


def test_discarding_costs_one_power():
    """"Failing or discarding an imperative costs 1 power." """
    s = with_imperative("I04")
    s, _ = act(s, Discard(bot="byte", card="I04"))
    assert s.bot("byte").imperative is None and s.bot("byte").power == 4


def test_discarding_the_last_power_is_refused():
    """Power is health ("0 power = shut down"): a discard that would spend the last power is refused."""
    illegal(with_imperative("I04", power=1), Discard(bot="byte", card="I04"), "0 power is a shut down")


HIDEOUT = floor_text("""
+-+-+-+
|H . .|
+ + + +
|E . .|
+-+-+-+
""")


def test_hidden_at_the_end_of_a_turn_completes_ghost_protocol():
    """I03: "End a turn hidden on a hiding spot without ever striking." (judged as the turn ends)"""
    s = make_state(HIDEOUT, bots=[bot("byte", "A1", hidden=True), module("C2")],
                   slots=chips("general", "general", "general"))
    s.bot("byte").imperative = IMP["I03"].__copy__()
    s = in_turn(s, step="end")
    s, events = act(s, EndTurn(), ["1"])
    assert s.bot("byte").imperative is None and s.bot("byte").power == 7
    assert of_type(events, "imperative_resolved")[0].completed


def test_surveilling_agent_with_an_imperative_draws_none():
    """"(limit 1 per agent ...)": the Imperative face draws nothing for an agent already holding one."""
    s = with_imperative("I01", imperative_deck=[IMP["I02"]])
    t = table(s)
    draw_imperative(t, t.state.bot("byte"))
    assert t.state.bot("byte").imperative.id == "I01" and len(t.state.imperative_deck) == 1


def test_root_access_fails_when_threat_reaches_its_threshold():
    """I05 fails when threat reaches 15 ("Failing ... an imperative costs 1 power"), checked after the
    corporation's turn as after every action."""
    s = with_imperative("I05", threat=14)
    t = table(s)
    t.state.threat = 15
    check_imperatives(t)
    assert t.state.bot("byte").imperative is None and t.state.bot("byte").power == 4
