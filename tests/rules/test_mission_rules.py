"""Mission special rules the engine enforces (Adaptable missions), each quoted from the expansion."""

from __future__ import annotations

from controller.rules.actions import DrawChip, EndTurn, Move, Step, StrikeWall, Terminal
from controller.rules.state import DicePool
from tests.support.rules_scenarios import CONTENT, bot, captain, floor_text, guard, make_state, module, network, turn
from tests.support.turn_scenarios import DOORS, act, chips, illegal, in_turn

# A safe zone beside the hallway, behind the door C1/C2.
SAFE_DOOR = floor_text("""
+-+-+-+-+
|E . . .|
+ + +D+-+
|. .|. .|
+-+-+-+-+
""", """
A1 hallway "Hall"
C2 safe "Safe zone"
""")


def mission_state(mission: str, text: str = DOORS, bots=None, **kw):
    s = make_state(text, bots=bots or [bot("byte", "B2"), module("A1")],
                   slots=chips("general", "general", "general"), **kw)
    s.mission = CONTENT.missions[mission]
    return in_turn(s)


def test_preconnaissance_unlocking_a_door_advances_threat_by_3():
    """"Whenever a non-safe zone door is unlocked or a wall is destroyed, advance threat by 3." """
    s = mission_state("preconnaissance", threat=8)
    s.bot("byte").keys = 1
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    s, _ = act(s, Step(bot="byte", to="B3"))
    assert "B2/B3" in s.floor.unlocked_doors and s.threat == 11


def test_preconnaissance_safe_zone_doors_do_not_count():
    """"... a non-safe zone door ...": a safe zone's door unlocks without threat."""
    s = mission_state("preconnaissance", text=SAFE_DOOR, bots=[bot("byte", "C1"), module("A1")], threat=8)
    s.bot("byte").keys = 1
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    s, _ = act(s, Step(bot="byte", to="C2"))
    assert "C1/C2" in s.floor.unlocked_doors and s.threat == 8


def test_preconnaissance_destroying_a_wall_advances_threat_by_3():
    """"... or a wall is destroyed, advance threat by 3." """
    s = mission_state("preconnaissance", bots=[bot("byte", "C2"), module("A1")], threat=8)
    s, _ = act(s, StrikeWall(bot="byte", beyond="C3", dice=DicePool(basic=5), move_through=False),
               ["2"] * 5)
    assert s.floor.destroyed_walls == ["C2/C3"] and s.threat == 11


def test_preconnaissance_locking_an_unlocked_door_reduces_threat_by_3():
    """"Whenever an unlocked non-safe zone door is locked, reduce threat by 3." (a surveillance autolock)"""
    s = mission_state("preconnaissance", text=DOORS.replace('"Lab"', '"Lab" surveillance=1'), threat=8,
                      unlocked=["B2/B3"])
    s.floor.surveillance = ["A3"]
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    s, _ = act(s, Step(bot="byte", to="B3"), ["autolock"])
    assert s.floor.unlocked_doors == [] and s.threat == 5


def test_preconnaissance_rules_end_and_ips_are_banned_on_calibration():
    """Surprise Inspection's result: "All IPs are immediately banned from the network. Ignore Mission Special
    Rules for the remainder of the mission." """
    s = mission_state("preconnaissance", threat=8)
    s.floor.surveillance, s.floor.terminals, s.floor.caches = [], {}, []
    s.progress["module_spaces:module"] = 3
    s.turn.step = "end"
    s, events = act(s, EndTurn(), ["1"])
    assert s.calibrated and all(ip.banned for ip in s.network.ips)
    s = in_turn(s)
    s.bot("byte").keys = 1
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    s, _ = act(s, Step(bot="byte", to="B3"))
    assert s.threat == 8  # the door rule no longer applies


def test_tsm_cache_gives_a_chip_of_choice():
    """TSM-103C: "After a bot collects a cache or accesses a terminal, they may draw an action chip of their
    choice from the supply and add it to their reserve." """
    s = mission_state("tsm-103c")
    s.floor.caches = ["C2"]
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    s, _ = act(s, Step(bot="byte", to="C2", take_cache=True, chip="utility"))
    assert s.burncycle.personal_reserves["byte"] == ["utility"]


def test_tsm_terminal_gives_the_module_a_team_chip():
    """"... accesses a terminal ... add it to their reserve" (the team reserve is the command module's).
    Also: "The team reserve serves as the command module's reserve."
    """
    s = mission_state("tsm-103c", bots=[bot("byte", "A1"), module("E3")], terminal_deck=list(CONTENT.terminals))
    s.floor.terminals = {"E3": "mainframe"}
    s, _ = act(s, Terminal(bot="module", options=[1], chip="tech"), [CONTENT.terminals[0].id])
    assert s.burncycle.team_reserve == ["tech"]


def test_tsm_general_action_trades_5_threat_for_a_chip():
    """"As a general action, an agent may advance threat by 5 to draw an action chip of their choice from
    the supply and add it to their reserve."
    Also: "Certain abilities and mission cards may provide other general actions."
    """
    s = mission_state("tsm-103c", threat=6)
    s, _ = act(s, DrawChip(chip="physical"))
    assert s.threat == 11 and s.burncycle.personal_reserves["byte"] == ["physical"]
    assert s.burncycle.tracker == 1


def test_draw_chip_only_where_the_mission_allows_it():
    """Without TSM-103C's rule there is no such general action."""
    s = mission_state("data-heist")
    illegal(s, DrawChip(chip="physical"), "no general action")


def ghost_state(ips, players=1):
    agents = ["byte", "bit"][:players]
    s = make_state(bots=[bot(a, f"{'AB'[k]}1") for k, a in enumerate(agents)] + [module("F5")], players=players,
                   units=[captain("C3", awareness=0), guard("G1", "E3", awareness=0)],
                   net=network(agents, ips=ips))
    s.security[1].chip = "Ghost"
    s.mission = CONTENT.missions["ghost-in-the-dell"]
    return s


def test_ghost_in_the_dell_ips_on_the_layers_stun_ghosts_and_captain():
    """"At the start of the corporation's turn, if there is at least one IP on each of the layers indicated by
    player count, the level 3 Ghosts and the captain are stunned and threat advances by 1" (level 2: layers 1
    and 2)."""
    s = ghost_state({"byte": "L1-02", "bit": "L2-04"}, players=2)
    new, events = turn(s, [])
    stayed = [e for e in events if type(e).__name__ == "UnitStayed"]
    assert {e.unit for e in stayed if "stunned" in e.reason} == {"CAP", "G1"}
    assert new.threat == 1 + 2  # +1 for the stuns, +2 at the end of the round


def test_ghost_in_the_dell_needs_every_layer():
    """"... at least one IP on each of the layers": both IPs on layer 1 do not count for layer 2."""
    s = ghost_state({"byte": "L1-02", "bit": "L1-06"}, players=2)
    new, events = turn(s, [])
    assert not [e for e in events if type(e).__name__ == "UnitStayed" and "stunned" in e.reason]
    assert new.threat == 2


def test_ghost_in_the_dell_an_ip_on_its_access_point_is_on_layer_1():
    """"if there is at least one IP on each of the layers indicated by player count" (level 1: layer 1): an IP
    on its access point, a node of the mat's outer ring, is on layer 1, so a lone agent's IP that never left
    it stuns the Ghosts and the captain at the start of every corporation turn, for 1 threat."""
    s = ghost_state({"byte": "L1-01"}, players=1)
    assert next(n for n in s.network.mat.nodes if n.id == "L1-01").kind == "access"
    new, events = turn(s, [])
    stayed = [e for e in events if type(e).__name__ == "UnitStayed"]
    assert {e.unit for e in stayed if "stunned" in e.reason} == {"CAP", "G1"}
    assert new.threat == 1 + 1  # +1 for the stuns, +1 at the end of the round
