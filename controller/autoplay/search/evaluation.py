"""What a rollout's last position is worth: the chance the team goes on to win it, estimated.

A rollout stops after a round or two (`SearchSettings.horizon`); a game that ended is worth 1 (won) or 0 (lost),
one still going is scored from what the table shows: how far the mission has come (calibrations, objectives,
floors, bots escaped), what it has left (threat to 26, the agents' power, bots shut down or in a guard's
sight), how far the bots are from where they are going (terminals before the calibration, the safe zones
after it), the chips left in the burncycle (a reboot buys them back for threat), the floor's security level and
the threat squared (a late point of threat costs more). The weights (`WEIGHTS`, search/tuning.py) were fitted
by logistic regression on the positions at each round's start of 1,200 games of the heuristic (Data Heist,
two players, the three floors) and their results
(bench/bench_search_winrate.py --fit); the tower run and Rescue Rangers have their own (`MISSION_WEIGHTS`),
fitted on their own games; docs/autoplay.md, "Search player".
"""

from __future__ import annotations

import math

from controller.autoplay.search.tuning import BIAS, MISSION_WEIGHTS, WEIGHTS
from controller.rules import GameState, Resolution, SeededDice, apply_effect, chip_usable

FEATURES = ("calibrated", "progress", "floor", "escaped", "threat", "module_power", "agent_power", "shut_down",
            "detected", "distance", "live_chips", "level", "threat_late")
"""The evaluation's features, in the order of WEIGHTS. `level` is the floor's security level less 1 (the labs
are harder than the lobby: a position there is worth less); `threat_late` the threat squared over 26, so a
point of threat costs more the closer the threat is to 26."""



def features(state: GameState) -> tuple[float, ...]:
    """The position as the evaluation reads it (see FEATURES)."""
    table = Resolution(state, SeededDice(0), apply_effect, copy=False)
    floor = table.floor
    distances = table.distances()
    if state.calibrated:
        targets = [i for i in range(len(floor.ids)) if floor.in_safe_zone(i)]
    else:
        targets = [i for i, f in enumerate(floor.feature) if f in ("terminal", "mainframe")]
    module = next((b for b in state.bots if b.kind == "module"), None)
    agents = [b for b in state.bots if b.kind == "agent"]
    far = 0
    on_board = [b for b in state.bots if b.space is not None and not b.escaped]
    for bot in on_board:
        here = floor.index.get(bot.space or "")
        if here is not None and targets:
            far += min(min(distances[here][t] for t in targets), 30)
    return (float(state.calibrated),
            float(min(sum(state.progress.values()), 12)),
            float(state.floor_number - 1),
            float(sum(b.escaped for b in state.bots)),
            float(state.threat),
            float(module.power if module is not None and not module.shut_down else 0),
            float(sum(b.power for b in agents if not b.shut_down)) / max(1, len(agents)),
            float(sum(b.shut_down for b in state.bots)),
            float(sum(b.detected for b in state.bots if not b.escaped)),
            float(far) / max(1, len(on_board)),
            float(sum(1 for k in range(len(state.burncycle.slots)) if chip_usable(state, k))),
            float(state.floor.level - 1),
            float(state.threat) ** 2 / 26)  # the threat that loses the game


def value(state: GameState) -> float:
    """The estimated chance to win from `state`: 1 or 0 once the game is over."""
    if state.outcome is not None:
        return 1.0 if state.outcome.won else 0.0
    bias, weights = MISSION_WEIGHTS.get(state.mission.id, (BIAS, WEIGHTS))
    z = bias + sum(w * f for w, f in zip(weights, features(state), strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
