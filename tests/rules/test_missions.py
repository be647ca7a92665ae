"""Missions & Objectives: qualifiers, team levels, calibrations before the win condition."""

from __future__ import annotations

from controller.rules.actions import EndTurn, Pass
from controller.rules.events import GameWon
from controller.rules.state import Mission, Objective
from tests.support.rules_scenarios import CONTENT, bot, make_state, module
from tests.support.rules_scenarios import SAFE_BESIDE_HALL as SAFE
from tests.support.turn_scenarios import act, in_turn

HEIST = Mission(
    id="test-heist", name="Test heist", win_name="Clean Exit",
    calibrations=[Objective(text="Any bots: access 2 terminals.", qualifier="any", task="terminals:2")],
    win=[Objective(text="All bots simultaneously: occupy safe zones.", qualifier="all_simultaneously",
                   task="safe_zones")])


def heist_state(spaces: dict[str, str], progress: dict[str, int] | None = None, mission: Mission = HEIST,
                players: int = 1):
    bots = [module(spaces["module"]), bot("byte", spaces["byte"])]
    state = make_state(SAFE, bots=bots, players=players, progress=progress or {})
    state.mission = mission
    return in_turn(state, step="end")


def test_win_needs_the_calibrations_first():
    """Missions specify "objectives, and win condition": with the calibration open, bots in safe zones do not
    win."""
    state = heist_state({"module": "C2", "byte": "D2"}, progress={"terminals:byte": 1})
    new, events = act(state, EndTurn(), ["1"])
    assert new.outcome is None and not new.calibrated
    assert not [e for e in events if isinstance(e, GameWon)]


def test_all_bots_simultaneously_in_safe_zones_wins_at_the_end_of_a_turn():
    """"ALL BOTS/AGENTS SIMULTANEOUSLY: All must satisfy the condition concurrently." """
    state = heist_state({"module": "C2", "byte": "D2"}, progress={"terminals:byte": 2})
    new, events = act(state, EndTurn(), ["1"])
    assert new.calibrated
    assert str(new.outcome) == "victory: Clean Exit"
    assert [e for e in events if isinstance(e, GameWon)]


def test_one_bot_outside_keeps_the_game_going():
    """"All must satisfy the condition concurrently": the agent still in the hallway means no win."""
    state = heist_state({"module": "C2", "byte": "A2"}, progress={"terminals:byte": 2})
    new, _ = act(state, EndTurn(), ["1"])
    assert new.calibrated and new.outcome is None


def test_safe_zone_task_is_judged_at_the_end_of_a_turn():
    """Changing floors and the safe-zone win are judged "at the end of a turn", not mid-turn."""
    state = heist_state({"module": "C2", "byte": "D2"}, progress={"terminals:byte": 2})
    state.turn.step = "actions"  # type: ignore[union-attr]
    new, _ = act(state, Pass())
    assert new.outcome is None


def test_each_qualifier_needs_every_agent():
    """"EACH BOT / AGENT: Must be fulfilled independently by every bot/agent." """
    mission = Mission(id="m", name="Each", calibrations=[
        Objective(text="Each agent: access a terminal.", qualifier="each", task="terminals:1")],
        win=[Objective(text="Win", qualifier="all_simultaneously", task="safe_zones")])
    state = make_state(SAFE, bots=[module("C2"), bot("byte", "D2"), bot("bit", "A1")], players=2,
                       progress={"terminals:byte": 3})
    state.mission = mission
    new, _ = act(in_turn(state, step="end"), EndTurn(), ["1"])
    assert not new.calibrated
    state.progress["terminals:bit"] = 1
    new, _ = act(in_turn(state, step="end"), EndTurn(), ["1"])
    assert new.calibrated


def test_tasks_for_a_bigger_team_do_not_apply():
    """"Level 3+ team: ..." applies only when the team level (the player count) is at least 3."""
    mission = Mission(id="m", name="Team", calibrations=[
        Objective(text="Level 3+ team: no terminal chips.", qualifier="any", team=3, task="no_terminals")],
        win=[Objective(text="Win", qualifier="all_simultaneously", task="safe_zones")], win_name="Out")
    state = heist_state({"module": "C2", "byte": "D2"}, mission=mission)
    state.floor.terminals = {"B1": "standard"}
    new, _ = act(state, EndTurn(), ["1"])
    assert str(new.outcome) == "victory: Out"


def test_module_qualifier_counts_only_the_command_module():
    """"Command Module: Access at least 3 terminals." counts the command module's accesses alone."""
    mission = CONTENT.missions["tsm-103c"]
    module_task = next(o for o in mission.calibrations if o.qualifier == "module")
    from controller.rules.missions.objectives import done
    from tests.support.rules_scenarios import table
    state = heist_state({"module": "C2", "byte": "D2"}, progress={"terminals:byte": 5})
    assert not done(state, table(state), module_task, True)
    state.progress["terminals:module"] = 3
    assert done(state, table(state), module_task, True)


def test_each_agent_network_card_and_push_tasks_count_per_agent():
    """TSM-103C: "Each agent: Complete at least 1 network card." and "Each agent: Use the push ability to push
    a security unit through a door." count what each agent did."""
    from controller.rules.missions.objectives import done
    from tests.support.rules_scenarios import table
    mission = CONTENT.missions["tsm-103c"]
    card_task = next(o for o in mission.calibrations if o.task.startswith("network_card"))
    push_task = next(o for o in mission.calibrations if o.task == "push_through_door")
    state = make_state(SAFE, bots=[module("C2"), bot("byte", "D2"), bot("bit", "A1")], players=2,
                       progress={"network_card:byte": 1, "push_through_door:byte": 1})
    assert not done(state, table(state), card_task, False) and not done(state, table(state), push_task, False)
    state.progress.update({"network_card:bit": 2, "push_through_door:bit": 1})
    assert done(state, table(state), card_task, False) and done(state, table(state), push_task, False)
