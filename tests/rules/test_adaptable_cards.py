"""The Robophobia expansion's cards, sentence by sentence, where no other test file quotes them: the Adaptable
rules card's setup choices, the four mission cards' setup, tasks and win conditions, Fauxbia's security detail,
and the base game's task qualifiers they are scored with.

Every test quotes the sentence it checks.
"""

from __future__ import annotations

import pytest

from controller.rules import GameSetup, RulesError, new_game
from controller.rules.actions import EndTurn, Reboot
from controller.rules.board.geometry import compile_floor
from controller.rules.missions.objectives import done
from controller.rules.state import Objective
from tests.support.rules_scenarios import CONTENT, bot, captain, guard, make_state, module, network, table, turn
from tests.support.rules_scenarios import SAFE_BESIDE_HALL as SAFE
from tests.support.turn_scenarios import act, illegal, in_turn

LOBBY, LABS = CONTENT.floors["meridian-lobby"], CONTENT.floors["meridian-labs"]


def game(floor=LOBBY, mission="tsm-103c", level=1, players=2, seed=5):
    return new_game(CONTENT, GameSetup(floor="test.floor", floor_text=floor, mission=mission, level=level,
                                       players=players, difficulty="standard", captain="fauxbia", seed=seed))


def floor_level(text: str) -> int:
    return compile_floor(text, "x.floor").level


# -- the Adaptable rules card ----------------------------------------------------------------------
def test_adaptable_any_floor_any_level():
    """"When setting up, freely choose a corporation and floor to play." "The floor will be used only for its
    layout and not its level, so feel free to pick any floor without regard to its floor number." "Then,
    choose a level between 1 and 3." (the lobby, a floor 1, played at level 3 has level 3 guards on its
    star posts; the labs, a floor 2, played at level 1; a level 4 is refused)"""
    assert floor_level(LOBBY) == 1 and floor_level(LABS) == 2
    s = game(LOBBY, level=3)
    assert s.floor.level == 3
    assert s.floor.text == LOBBY
    s = game(LABS, level=1)
    assert s.floor.level == 1
    with pytest.raises(RulesError, match="level 4: expected 1, 2 or 3"):
        game(LOBBY, level=4)


# -- Operation Module TSM-103C ---------------------------------------------------------------------
def test_tsm_103c_cannot_reboot():
    """"Mission Special Rules: The burncycle cannot be rebooted." """
    s = game(mission="tsm-103c")
    s = in_turn(s, step="route")
    illegal(s, Reboot(), "cannot be rebooted")


# -- Operation Rescue Rangers ----------------------------------------------------------------------
def test_rescue_rangers_agents_have_push_for_free_and_the_module_card_works():
    """"All agents start with the push ability at no cost." "The command module's mat and card function as
    normal." (the agents hold push at their card's power; the burncycle has the module card's active slots
    and the module its card's power, though it is not on the floor)"""
    s = game(mission="rescue-rangers", players=2)
    agents = [b for b in s.bots if b.kind == "agent"]
    cards = {a.id: a for a in CONTENT.agents}
    assert all(a.upgrades == ["push"] and a.power == cards[a.id].power for a in agents)
    assert len([c for c in s.burncycle.slots if c is not None]) == CONTENT.module.active_slots
    assert s.bot("module").power == CONTENT.module.power and s.bot("module").space is None


@pytest.mark.parametrize("mission", ["rescue-rangers", "preconnaissance"])
def test_all_bots_in_safe_zones_win_after_the_calibration(mission):
    """"All bots simultaneously: Occupy safe zones." (Chips Are Never Down, Without a Trace: the module and
    Byte in the safe zone at the end of a turn win; Byte outside does not)"""
    def ending(byte_space):
        s = make_state(SAFE, bots=[bot("byte", byte_space), module("C2")])
        s.mission = CONTENT.missions[mission]
        s.calibrated = True
        return in_turn(s, step="end")
    won, _ = act(ending("D2"), EndTurn(), ["1"])
    assert str(won.outcome) == f"victory: {CONTENT.missions[mission].win_name}"
    lost, _ = act(ending("A2"), EndTurn(), ["1"])
    assert lost.outcome is None


# -- Operation Preconnaissance: Surprise Inspection ------------------------------------------------
def inspection(players):
    s = make_state(SAFE, bots=[bot("byte", "A1"), module("C2")], players=players)
    s.mission = CONTENT.missions["preconnaissance"]
    return s, {o.task: o for o in s.mission.calibrations}


def test_surprise_inspection_no_unsurveilled_rooms():
    """"Level 1+ team: Have no unsurveilled rooms on the floor." (a room holding a surveillance bead is
    unsurveilled)"""
    s, tasks = inspection(1)
    s.floor.surveillance = ["C2"]
    assert not done(s, table(s), tasks["no_unsurveilled_rooms"], False)
    s.floor.surveillance = []
    assert done(s, table(s), tasks["no_unsurveilled_rooms"], False)


@pytest.mark.parametrize("players,terminals_count,caches_count", [(2, False, False), (3, True, False),
                                                                  (4, True, True)])
def test_surprise_inspection_terminals_and_caches_by_team_level(players, terminals_count, caches_count):
    """"Level 3+ team: Have no terminal chips on the floor." "Level 4 team: Have no cache chips on the
    floor." (a terminal chip and a cache chip left on the floor hold the calibration back only for the team
    levels the tasks name)"""
    s, tasks = inspection(players)
    s.floor.surveillance, s.floor.terminals, s.floor.caches = [], {"A2": "standard"}, ["B2"]
    s.progress["module_spaces:module"] = 3
    s = in_turn(s, step="end")
    new, _ = act(s, EndTurn(), ["1"])
    assert new.calibrated is not (terminals_count or caches_count)
    if players == 4:
        s.floor.terminals = {}
        new, _ = act(s, EndTurn(), ["1"])
        assert not new.calibrated  # the cache still counts
    assert done(s, table(s), tasks["no_terminals"], False) is not bool(s.floor.terminals)
    assert done(s, table(s), tasks["no_caches"], False) is False


# -- Operation Ghost in the Dell -------------------------------------------------------------------
def test_ghost_in_the_dell_captain_in_a_room_with_a_terminal_without_an_executive_office():
    """"If not, place the captain on any captain space in a room with a terminal." (the labs have no executive
    office)"""
    s = game(LABS, mission="ghost-in-the-dell", level=2)
    f = compile_floor(s.floor.text, "labs.floor")
    assert not any("executive" in a.name.lower() for a in f.areas)
    cap = next(u for u in s.security if u.rank == "captain")
    i = f.space(cap.space)
    assert f.feature[i] == "captain"
    assert any(f.feature[x] in ("terminal", "mainframe") for x in f.area(i).spaces)


AGENTS = ["byte", "bit", "casing", "memory"]
LAYER_NODES = {1: "L1-02", 2: "L2-04", 3: "L3-02"}


def ghost_state(players, layers):
    agents = AGENTS[:players]
    ips = {a: LAYER_NODES[layer] for a, layer in zip(agents, layers)}
    s = make_state(bots=[bot(a, f"{'ABCD'[k]}1") for k, a in enumerate(agents)] + [module("F5")],
                   players=players, units=[captain("C3", awareness=0), guard("G1", "E3", awareness=0)],
                   net=network(agents, ips=ips))
    s.security[1].chip = "Ghost"
    s.mission = CONTENT.missions["ghost-in-the-dell"]
    return s


def stunned(events):
    return {e.unit for e in events if type(e).__name__ == "UnitStayed" and "stunned" in e.reason}


@pytest.mark.parametrize("players,layers,stun", [
    (1, [1], True), (1, [2], False),
    (3, [1, 2, 3], True), (3, [1, 2, 2], False),
    (4, [1, 2, 3, 3], False)])
def test_ghost_in_the_dell_layers_by_team_level(players, layers, stun):
    """"Level 1: Layer 1" "Level 3: Layers 1, 2, and 3" "Level 4: Layers 1, 2, 3, and 4" (an IP on every layer
    the team level names stuns the Ghosts and the captain; one layer short does not)"""
    s = ghost_state(players, layers)
    new, events = turn(s, [])
    assert (stunned(events) == {"CAP", "G1"}) is stun
    assert new.threat == players + (1 if stun else 0)


def test_ghost_in_the_dell_level_four_needs_an_ip_on_the_core():
    """"Level 4: Layers 1, 2, 3, and 4" (layer 4 is the core)"""
    s = ghost_state(4, [1, 2, 3, 3])
    core = next(n.id for n in s.network.mat.nodes if n.kind == "core")
    s.network.ips[3].node = core
    new, events = turn(s, [])
    assert stunned(events) == {"CAP", "G1"}


def puppet(players, **progress):
    s = make_state(SAFE, bots=[bot("byte", "A1"), module("C2")], players=players, progress=dict(progress))
    s.mission = CONTENT.missions["ghost-in-the-dell"]
    s.calibrated = True
    return s


def won(s) -> bool:
    return all(done(s, table(s), o, False) for o in s.mission.win if o.team <= s.players)


@pytest.mark.parametrize("players,progress,victory", [
    (1, {"shut_down:captain": 1}, True),
    (1, {}, False),
    (2, {"shut_down:captain": 1}, False),
    (2, {"shut_down:captain": 1, "shut_down:ghost": 1}, True),
    (3, {"shut_down:captain": 1, "shut_down:ghost": 1}, False),
    (3, {"shut_down:captain": 1, "shut_down:ghost": 2}, True),
    (4, {"shut_down:captain": 1, "shut_down:ghost": 2}, False),
    (4, {"shut_down:captain": 1, "shut_down:ghost": 2, "shut_down:guard_on_terminal": 1}, True)])
def test_puppet_without_a_ghost_by_team_level(players, progress, victory):
    """"Level 1+ team, one bot: Shut down the captain." "Level 2+ team, one bot: Shut down a level 3 Ghost."
    "Level 3+ team, one bot: Shut down a level 3 Ghost." "Level 4 team, one bot: Shut down a guard while it
    occupies a terminal space." (a level 3 team's two Ghost tasks need both Ghosts shut down)"""
    assert won(puppet(players, **progress)) is victory


# -- Fauxbia's security detail ---------------------------------------------------------------------
def test_fauxbia_security_detail_layer_two():
    """Fauxbia's security detail, layer 2: "2 yellow 2 yellow 2 blue 1, key" (posts 1 and 2 a yellow level 2
    guard, post 3 a blue level 1 guard with a key; the labs are a floor 2)"""
    row = CONTENT.captains["fauxbia"].security_detail[1]
    assert [(g.colour, g.level, g.key) for g in row] == [("yellow", 2, False), ("yellow", 2, False),
                                                         ("blue", 1, True)]
    s = new_game(CONTENT, GameSetup(floor="labs.floor", floor_text=LABS, mission="data-heist", players=2,
                                    difficulty="standard", captain="fauxbia", seed=5))
    f = compile_floor(s.floor.text, "labs.floor")
    on = {f.feature[f.space(u.space)]: u for u in s.security}
    assert (on["post1"].level, on["post2"].level, on["post3"].level, on["post3"].key) == (2, 2, 1, True)


# -- task qualifiers -------------------------------------------------------------------------------
def qualified(qualifier, **progress):
    s = make_state(SAFE, bots=[bot("byte", "A1"), bot("bit", "B1"), module("C2")], players=2,
                   progress=dict(progress))
    return done(s, table(s), Objective(text="t", qualifier=qualifier, task="terminals:2"), False)


def test_one_bot_qualifier():
    """"ONE BOT / AGENT: Any single bot/agent must accomplish the task." (two terminals by Byte, not one
    each)"""
    assert qualified("one", **{"terminals:byte": 2})
    assert not qualified("one", **{"terminals:byte": 1, "terminals:bit": 1})


def test_two_bots_qualifier():
    """"TWO BOTS / AGENTS: Requires participation by two distinct bots/agents." (one terminal each, not two by
    Byte)"""
    assert qualified("two", **{"terminals:byte": 1, "terminals:bit": 1})
    assert not qualified("two", **{"terminals:byte": 2})


def test_any_bots_qualifier():
    """"ANY BOTS / AGENTS: Tasks can be split in any combination." (two by Byte, or one by Byte and one by the
    module)"""
    assert qualified("any", **{"terminals:byte": 2})
    assert qualified("any", **{"terminals:byte": 1, "terminals:module": 1})
    assert not qualified("any", **{"terminals:byte": 1})
