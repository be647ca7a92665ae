"""Mission objectives: calibrations first, then the win condition.

Task qualifiers: "ONE BOT / AGENT: Any single bot/agent must accomplish the task. TWO BOTS / AGENTS: Requires
participation by two distinct bots/agents. ANY BOTS / AGENTS: Tasks can be split in any combination. EACH
BOT / AGENT: Must be fulfilled independently by every bot/agent. ALL BOTS/AGENTS SIMULTANEOUSLY: All must
satisfy the condition concurrently." A task tagged "Level N+ team" applies when the team level (the player
count) is at least N. Each task names what it counts (`task` in missions.toml); the actions that do the
counting write `state.progress`.
"""

from __future__ import annotations

from controller.rules.events import GameWon, StepStarted
from controller.rules.missions import special_rules
from controller.rules.resolution import Resolution
from controller.rules.state import GameState, Objective, Outcome

# The tasks `done` judges, as missions.toml names them. Content is checked against these names: a task
# spelt any other way ("termnals:2") would load and then never complete.
COUNTED_TASKS = ("terminals", "module_terminals", "network_card", "push_through_door", "module_spaces")  # ":N"
SHUT_DOWN_KINDS = ("captain", "guard", "ghost", "guard_on_terminal")  # "shut_down:KIND"
PLAIN_TASKS = ("safe_zones", "escape", "no_unsurveilled_rooms", "no_terminals", "no_caches",
               "module_on_captain_terminal_when_core", "core_while_on_terminals")  # set by special_rules


def task_problem(task: str) -> str | None:
    """Why `task` is not a task the engine can judge, or None when it is."""
    name, colon, arg = task.partition(":")
    if name in COUNTED_TASKS:
        if colon and not (arg.isascii() and arg.isdigit() and int(arg) >= 1):
            return f"{name} counts to a number: {name}:N with N 1 or more, not {task!r}"
        return None
    if name == "shut_down":
        return None if arg in SHUT_DOWN_KINDS else (f"shut_down names what is shut down: "
                                                    f"{', '.join('shut_down:' + k for k in SHUT_DOWN_KINDS)}")
    if name in PLAIN_TASKS and not colon:
        return None
    return (f"unknown task {task!r}; the engine judges {', '.join(n + '[:N]' for n in COUNTED_TASKS)}, "
            f"shut_down:KIND, {', '.join(PLAIN_TASKS)}")


def applies(state: GameState, objective: Objective) -> bool:
    return objective.team <= state.players


def _counts(state: GameState, key: str) -> dict[str, int]:
    """Per-bot counts of a progress key ("terminals" -> {"byte": 2, "module": 1})."""
    prefix = key + ":"
    return {k[len(prefix):]: v for k, v in state.progress.items() if k.startswith(prefix)}


def _counted(state: GameState, objective: Objective, key: str, need: int) -> bool:
    counts = _counts(state, key)
    agents = [b.id for b in state.bots if b.kind == "agent"]
    q = objective.qualifier
    if q == "module":
        return counts.get("module", 0) >= need
    if q == "each":
        return all(counts.get(a, 0) >= need for a in agents)
    if q == "one":
        return any(v >= need for v in counts.values())
    if q == "two":
        return sum(counts.values()) >= need and sum(1 for v in counts.values() if v > 0) >= 2
    return sum(counts.values()) >= need  # any / all


def done(state: GameState, resolution: Resolution, objective: Objective, end_of_turn: bool) -> bool:
    task, _, arg = objective.task.partition(":")
    floor = resolution.floor
    if task in ("terminals", "module_terminals"):
        return _counted(state, objective, "terminals", int(arg or 1))
    if task in ("network_card", "push_through_door", "module_spaces"):
        return _counted(state, objective, task, int(arg or 1))
    if task == "safe_zones":
        # Judged "at the end of a turn", as changing floors is.
        bots = [b for b in state.bots if not b.escaped]
        return end_of_turn and bool(bots) and all(
            b.on_board and not b.shut_down and floor.in_safe_zone(floor.index[b.at]) for b in bots)
    if task == "escape":
        # "When an agent satisfies escape conditions, it is removed from the board"
        return all(b.escaped for b in state.bots)
    if task == "shut_down":
        # Ghost in the Dell lists "Shut down a level 3 Ghost." for a level 2+ and again for a level 3+ team:
        # each task that applies needs its own unit, so a level 3 team shuts down both Ghosts.
        tasks = state.mission.win if objective in state.mission.win else state.mission.calibrations
        need = sum(1 for o in tasks if o.task == objective.task and applies(state, o))
        return state.progress.get(f"shut_down:{arg}", 0) >= max(1, need)
    if task == "no_unsurveilled_rooms":
        return not state.floor.surveillance
    if task == "no_terminals":
        return not state.floor.terminals
    if task == "no_caches":
        return not state.floor.caches
    # Tasks set once when they happen (landing on the core, special_rules.ip_on_core)
    return state.progress.get(objective.task, 0) >= 1


def check_mission(resolution: Resolution, end_of_turn: bool = False) -> None:
    """Mark calibrations complete and declare victory when the win condition holds."""
    state = resolution.state
    if state.outcome is not None:
        return
    mission = state.mission
    if state.later_floors:
        return  # the calibrations and the win condition belong to the mission's last floor
    if not state.calibrated:
        tasks = [o for o in mission.calibrations if applies(state, o)]
        if all(done(state, resolution, o, end_of_turn) for o in tasks):
            state.calibrated = True
            resolution.emit(StepStarted(step="calibrated"))
            special_rules.on_calibration(resolution)
    if state.calibrated:
        tasks = [o for o in mission.win if applies(state, o)]
        if tasks and all(done(state, resolution, o, end_of_turn) for o in tasks):
            state.outcome = Outcome(result="victory", cause="mission_won", text=mission.win_name or mission.name)
            resolution.emit(GameWon(reason=mission.win_name or mission.name))
