"""Rulebook "Threat & Defeat Conditions", "Difficulty Levels", the publisher's FAQ on starting threat, and
Fauxbia's burncycle action.

The shipped standard card: events at 4 (a ping), 8 (a guard), 12 (CEO +1), 16 (two pings), 18 (a slot loses
its peg), 20 (a guard), 23 (CEO +2); escalations at 6 (+1 awareness), 14 (+1 ping step), 18 (+1 movement).
The simplified card has no events and escalations at 10 (+1 awareness) and 18 (+1 movement).
"""

from __future__ import annotations

import pytest

from controller.rules import GameSetup, active_escalations, new_game
from controller.rules.corporation.threat import change_threat
from controller.rules.state import Chip
from tests.support.rules_scenarios import CONTENT, bot, guard, make_state, network, of_type, table, turn


def bump(state, *deltas, rolls=None):
    t = table(state, rolls)
    for d in deltas:
        change_threat(t, d, "test")
    return t.state, t.events


# -- the threat track ---------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_end_of_round_increase_equals_player_count(players):
    """"End-of-round increase equals the player count.\""""
    s = make_state(players=players, threat=0, difficulty="simplified")
    new, events = turn(s)
    assert new.threat == players
    last = of_type(events, "threat_changed")[-1]
    assert (last.old, last.new) == (0, players) and "player count" in last.reason


def test_threat_ranges_from_zero_to_twenty_six():
    """"Threat tracks the corporation's overall alert level on the threat track (ranging from 0 to 26).\""""
    s = make_state(threat=2, difficulty="simplified")
    new, _ = bump(s, -5)
    assert new.threat == 0
    s = make_state(threat=25, difficulty="simplified")
    new, _ = bump(s, 4)
    assert new.threat == 26


def test_reaching_26_is_immediate_defeat():
    """"Reaching 26 causes immediate defeat.\""""
    s = make_state(threat=24, players=2, difficulty="simplified")
    new, events = turn(s)
    assert new.threat == 26
    assert str(new.outcome) == "defeat: threat reached 26"
    assert of_type(events, "defeat")[0].reason == "threat reached 26"


def test_defeat_at_26_mid_turn_stops_the_turn():
    """"Reaching 26 causes immediate defeat.\": a shut-down at 23 (+3) ends the game during the security
    phase; no ping activation or end-of-round advance follows."""
    s = make_state(bots=[bot("byte", "C3", power=1, detected=True)], units=[guard("G1", "C4", "N", awareness=3)],
                   threat=23, difficulty="simplified", net=network(["byte"], pings=["L2-01"]))
    new, events = turn(s)
    assert str(new.outcome) == "defeat: threat reached 26"
    assert [e.phase for e in of_type(events, "phase_started")] == ["security activation"]
    assert of_type(events, "ping_moved") == []


# -- threat events ------------------------------------------------------------------------------------
def test_threat_event_fires_when_reached():
    """"Threat events trigger once when reached\": reaching 4 adds a ping to the core."""
    s = make_state(threat=3)
    new, events = bump(s, 1)
    fired = of_type(events, "threat_event_fired")
    assert [f.threshold for f in fired] == [4]
    assert [p.node for p in new.network.pings] == ["CORE"]
    assert new.fired_events == [0]


def test_threat_event_fires_once():
    """"Threat events trigger once when reached\": dropping below and climbing past it again does not fire
    it a second time."""
    s = make_state(threat=3)
    new, events = bump(s, 1, -2, 3)
    assert [f.threshold for f in of_type(events, "threat_event_fired")] == [4]
    assert len(new.network.pings) == 1
    new2, events2 = bump(new, -3, 3)
    assert of_type(events2, "threat_event_fired") == []


def test_every_event_passed_in_one_jump_fires():
    """"Threat events trigger once when reached\": a jump past two thresholds fires both, in order."""
    s = make_state(threat=3)
    new, events = bump(s, 10)
    assert [f.threshold for f in of_type(events, "threat_event_fired")] == [4, 8, 12]
    assert new.network.ceo_level == 2
    assert new.fired_events == [0, 1, 2]


def test_threat_event_spawns_a_guard():
    """A threat event in play (8: "a guard of the floor's level arrives at a free hallway post")."""
    from tests.support.rules_scenarios import floor_text
    text = floor_text("""
    +-+-+-+-+
    |E . . 1|
    +-+-+-+-+
    """, "A1 hallway")
    s = make_state(text, threat=7)
    new, events = bump(s, 1, rolls=["2"])  # the second level-1 chip left in the bag
    assert [u.space for u in new.security] == ["D1"]
    level1 = [c for c in s.guard_bag if c.level == 1]
    assert new.security[0].level == 1 and new.security[0].chip == level1[1].name
    assert len(new.guard_bag) == len(s.guard_bag) - 1
    assert of_type(events, "unit_placed")[0].space == "D1"


def test_events_fire_at_end_of_round_advance():
    """Events fire whatever moved the track: here the end-of-round advance from 3 to 5 fires the 4."""
    s = make_state(threat=3, players=2)
    new, events = turn(s)
    assert [f.threshold for f in of_type(events, "threat_event_fired")] == [4]


# -- escalations --------------------------------------------------------------------------------------
def thresholds(state) -> list[int]:
    return [e.threshold for e in active_escalations(state)]


def test_escalations_active_while_at_or_above_threshold():
    """"escalation effects remain active while threat equals or exceeds their threshold.\""""
    assert thresholds(make_state(threat=5)) == []
    assert thresholds(make_state(threat=6)) == [6]
    assert thresholds(make_state(threat=17)) == [6, 14]
    assert thresholds(make_state(threat=25)) == [6, 14, 18]


def test_escalation_inactive_again_below_threshold():
    """"remain active while threat equals or exceeds their threshold\": once threat drops below, it stops."""
    s = make_state(threat=5)
    new, events = bump(s, 1)
    assert thresholds(new) == [6] and of_type(events, "escalation_active")[0].threshold == 6
    new, _ = bump(new, -1)
    assert thresholds(new) == []


def test_awareness_escalation_in_play():
    """An active escalation changes play: at 6+ (+1 awareness) a guard with awareness 3 sees 4 ahead."""
    for threat, detected in ((5, False), (6, True)):
        s = make_state(bots=[bot("byte", "C1")], units=[guard("G1", "C5", "N", awareness=3, movement=0)],
                       threat=threat)
        new, _ = turn(s)
        assert new.bot("byte").detected is detected, threat


def test_movement_escalation_in_play():
    """Escalation 18 (+1 movement) in play: a guard of movement 2 walks 3 spaces."""
    s = make_state(units=[guard("G1", "A5", "N", awareness=0, movement=2, patrol="pace")], threat=18)
    new, events = turn(s)
    assert of_type(events, "unit_moved")[0].path == ["A5", "A4", "A3", "A2"]


def test_ping_step_escalation_in_play():
    """Escalation 14 (+1 ping step) in play: pings move up to 4 nodes."""
    s = make_state(bots=[bot("byte", "A5")], net=network(["byte"], pings=["L2-03"]), threat=14)
    new, events = turn(s, ["threat"])
    assert of_type(events, "ping_moved")[0].path == ["L2-03", "L2-04", "L2-05", "L2-06", "L2-07"]


# -- Fauxbia's burncycle action ------------------------------------------------------------------------
def test_fauxbia_chip_makes_next_escalation_active():
    """Fauxbia: "Burncycle Action: While this chip is active in the burncycle, the next threat escalation
    is considered active.\""""
    active = [Chip("general"), Chip("captain"), Chip("general"), None, None]
    degraded = [Chip("general"), Chip("captain", degraded=True), Chip("general"), None, None]
    s = make_state(threat=0, captain_card="fauxbia", slots=active)
    assert thresholds(s) == [6]
    s = make_state(threat=7, captain_card="fauxbia", slots=active)
    assert thresholds(s) == [6, 14]
    assert thresholds(make_state(threat=0, captain_card="fauxbia", slots=degraded)) == []
    no_chip = [Chip("general")] * 3 + [None, None]
    assert thresholds(make_state(threat=0, captain_card="fauxbia", slots=no_chip)) == []
    assert thresholds(make_state(threat=0, captain_card="overseer", slots=active)) == []


def test_fauxbia_chip_in_play():
    """Fauxbia's burncycle action in play: with her chip active at threat 0 the "+1 awareness" escalation
    (threshold 6) is active, so a guard with awareness 3 sees 4 ahead."""
    active = [Chip("captain"), Chip("general"), Chip("general"), None, None]
    for captain_card, detected in (("fauxbia", True), ("overseer", False)):
        s = make_state(bots=[bot("byte", "C1")], units=[guard("G1", "C5", "N", awareness=3, movement=0)],
                       captain_card=captain_card, slots=active)
        new, _ = turn(s)
        assert new.bot("byte").detected is detected, captain_card


# -- FAQ: starting with threat above 0 ---------------------------------------------------------------
def faq_game(start: int):
    content = CONTENT
    mission = {6: "tsm-103c", 8: "preconnaissance"}[start]
    return new_game(content, GameSetup(floor="meridian-lobby", mission=mission, level=1, players=2,
                                       difficulty="standard", captain="fauxbia", seed=3))


def test_faq_passed_events_never_fire():
    """Publisher's FAQ: "when a game starts with threat above 0, the events already passed never trigger,
    even if threat later drops and climbs past them again\""""
    s = faq_game(8)
    assert s.threat == 8 and s.fired_events == [0, 1]
    pings = len(s.network.pings)
    guards = len(s.security)
    new, events = bump(s, -6, 6)
    assert of_type(events, "threat_event_fired") == []
    assert len(new.network.pings) == pings and len(new.security) == guards
    new, events = bump(new, 4)
    assert [f.threshold for f in of_type(events, "threat_event_fired")] == [12]


def test_faq_passed_escalations_active():
    """Publisher's FAQ: "... while the escalations already passed are active.\""""
    s = faq_game(6)
    assert s.threat == 6 and s.fired_events == [0]
    assert 6 in thresholds(s)


# -- Difficulty Levels --------------------------------------------------------------------------------
def test_simplified_uses_simplified_threat_card():
    """"Simplified: Use the simplified threat card (no threat events).\""""
    s = new_game(CONTENT, GameSetup(floor="meridian-lobby", players=1, difficulty="simplified", captain="overseer",
                                    seed=1))
    assert s.threat_card.name == CONTENT.threat_cards["simplified"].name
    assert s.threat_card.events == []
    s.threat = 3
    new, events = bump(s, 20)
    assert of_type(events, "threat_event_fired") == []


def test_standard_and_seasoned_use_standard_card():
    """"Standard: Standard threat card and all abilities active.\" / "Seasoned: Standard rules, plus ...\""""
    for difficulty in ("standard", "seasoned"):
        s = new_game(CONTENT, GameSetup(floor="meridian-lobby", players=1, difficulty=difficulty, captain="overseer",
                                        seed=1))
        assert s.threat_card.name == CONTENT.threat_cards["standard"].name
        assert s.threat_card.events


def test_seasoned_is_standard_plus_chip_rule():
    """"Seasoned: Standard rules, plus threat advances by +1 whenever an awareness chip enters play from
    off-board.\": two bots spotted in one turn, two extra threat."""
    s = make_state(bots=[bot("a", "C3"), bot("b", "A5")], units=[guard("G1", "C5", "N", awareness=3,
                                                                       movement=0)],
                   difficulty="seasoned", players=2)
    new, events = turn(s)
    assert new.bot("a").detected and new.bot("b").detected
    assert new.threat == 2 + 2
