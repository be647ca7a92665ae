"""The auto-player's network step: where the active agent's IP goes along the burncycle's chips.

Every choice of transfers is tried on a copy of the game (the engine is pure), and the one kept scores best:
threat (3 a point) and pings (2) against the agent's power (NETWORK_POWER_WEIGHT a point: an agent's power is
its dice pool, worth more than a point of threat; LATE_POWER_WEIGHT after the calibration from threat
LATE_THREAT on; on the tower run only up to the agent's power bank limit), the IP's level and layer 2's hubs,
with Ghost in the Dell's held layers before them; a landing on the core that completes a task comes first, and
while such a task is open what counts is how few nodes are left to the core.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Literal

from controller.autoplay.tuning import CORE_REACH, LATE_POWER_WEIGHT, LATE_THREAT, NETWORK_POWER_WEIGHT
from controller.rules import (
    GameState,
    IpMoved,
    NetworkStep,
    RulesError,
    SeededDice,
    active_agent,
    apply_action,
    copy_state,
    movement_chips,
    power_bank,
)

if TYPE_CHECKING:
    from controller.autoplay.missions.strategy import MissionStrategy

CORE_TASKS = ("module_on_captain_terminal_when_core", "core_while_on_terminals")  # done by landing on the core
FAR = 1 << 20  # nodes to the core from a node that has no way there


def network_step(state: GameState, mission: MissionStrategy) -> NetworkStep:
    """Try each single transfer (in or out, at each movement step) and keep the one that scores best on
    threat, pings and the agent's power (NETWORK_POWER_WEIGHT a point against 3 a point of threat), then the
    IP's level and layer 2 (whose hubs reduce threat); a landing that wins the mission, then one on the core
    that completes a task, comes before all of it, and while such a task is open each layer further in
    counts; the mission's play says how far in the IP is steered and whether the team's layers are held."""
    agent = active_agent(state)
    steps = len(movement_chips(state))
    layers = {n.id: n.layer for n in state.network.mat.nodes}
    straight = apply_action(state, NetworkStep(), SeededDice(state.seed, state.rolls))
    stun = mission.holds_layers(state)
    # a transfer starts from a node the IP passes anyway: only the directions its white lines offer
    by_id = {n.id: n for n in state.network.mat.nodes}
    ip = next((i for i in state.network.ips if i.agent == agent.id), None)
    passed = {ip.node} if ip is not None and ip.node is not None else set()
    for event in straight[1]:
        if isinstance(event, IpMoved) and event.agent == agent.id:
            passed.update(event.path)
    lines_out: tuple[tuple[Literal["in", "out"], str], ...] = (("in", "inward"), ("out", "outward"))
    ways = [d for d, attr in lines_out
            if any(getattr(by_id[n], attr) for n in passed if n in by_id)]
    deepest = mission.core_layer(state)
    to_core = core_distances(state) if deepest >= 3 else {}
    # a single transfer leaves from the node its movement step starts on in the straight run: only those
    # with a white line that way are tried (each try copies the game)
    starts = [e.path[0] for e in straight[1] if isinstance(e, IpMoved) and e.agent == agent.id
              and (e.reason == "network step" or e.reason.endswith(" chip"))]
    lines = {"in": "inward", "out": "outward"}
    candidates = [NetworkStep()] + [NetworkStep(transfers={k: d}) for k in range(1, steps + 1) for d in ways
                                    if len(starts) != steps or getattr(by_id[starts[k - 1]], lines[d])]
    if deepest >= 3:
        # headed for the core: several transfers inward in one network step
        candidates += [NetworkStep(transfers={k + 1: "in" for k, inward in enumerate(combo) if inward})
                       for combo in itertools.product((False, True), repeat=steps) if sum(combo) > 1]
    if deepest == 4 and "asterisk" in agent.abilities:
        # the landing is what is left: "Nano may treat one chip in the burncycle as a general action chip", whose
        # single node stops the IP on a node with a white line inward that a chip's extended movement runs past
        extended = [k + 1 for k, chip in enumerate(state.burncycle.slots)
                if chip is not None and not chip.degraded and chip.kind != "general"]
        candidates += [NetworkStep(asterisk=slot, transfers={k + 1: "in" for k, inward in enumerate(combo) if inward})
                       for slot in extended for combo in itertools.product((False, True), repeat=steps)]
    # on the way home, with the threat nearly out, a point of threat comes nearer the power it costs
    power_weight = LATE_POWER_WEIGHT if state.calibrated and state.threat >= LATE_THREAT else NETWORK_POWER_WEIGHT
    best, best_score = candidates[0], None
    for candidate in candidates:
        try:
            after, _ = straight if not candidate.transfers and candidate.asterisk is None else \
                apply_action(state, candidate, SeededDice(state.seed, state.rolls))
        except RulesError:
            continue
        ip = next((i for i in after.network.ips if i.agent == agent.id), None)
        layer = layers.get(ip.node, 0) if ip is not None and ip.node is not None else 0
        # threat now, and the pings that will roll the ping die later: a ping booted is worth more than a
        # level, a level (to win boots) more than a turn on layer 2
        level = ip.level if ip is not None and not ip.banned else 0
        # on the way to the core what counts is how few nodes are left: white lines inward leave from a few
        # nodes only, and a chip's extended movement runs past them
        node = ip.node if ip is not None and not ip.banned else None
        inward = 4 * min(layer, deepest) if deepest < 3 or node is None else \
            4 * deepest - 2 * min(to_core.get(node, FAR), 14)
        held = {layers.get(i.node) for i in after.network.ips if i.node is not None and not i.banned} \
            if stun else set()
        # a landing that wins the mission (Dial Out) before all else, then any step that does not lose it; with
        # the bots in their places, the nodes left to the core before threat (measured from the 30 calibrations
        # of 3600 games of TSM-103C, 20 plays each: wins 1 -> 9 of 600 with Nano's Asterisk, 21 with the bots
        # holding their terminal spaces)
        won = after.outcome is not None and after.outcome.won
        landing = -min(to_core.get(node, FAR), 14) if deepest == 4 and node is not None else 0
        power = after.bot(agent.id).power
        if not mission.power_above_bank_counts:
            # "Agents must spend down to their power bank limit at the end of step 5": a hub's or a card's power
            # above it is lost before it rolls a die, where a point of threat off stays off
            power = min(power, power_bank(after.bot(agent.id)))
        score = (won, won or after.outcome is None, sum(after.progress.get(t, 0) for t in CORE_TASKS), landing,
                 stun and set(range(1, state.players + 1)) <= held,
                 -3 * after.threat - 2 * len(after.network.pings) + level + (layer == 2)
                 + power_weight * power + inward, layer == 2)
        if best_score is None or score > best_score:
            best, best_score = candidate, score
    return best


def core_in_reach(state: GameState) -> bool:
    """Whether the active agent's IP can land on the core in this turn's network step: some choice of
    transfers inward, tried on a copy of the game."""
    agent = active_agent(state)
    core = next(n.id for n in state.network.mat.nodes if n.kind == "core")
    ip = next((i for i in state.network.ips if i.agent == agent.id), None)
    if ip is None or ip.node is None or ip.banned or core_distances(state).get(ip.node, FAR) > CORE_REACH:
        return False
    trial = copy_state(state)
    trial_turn = trial.turn
    trial_turn.step, trial_turn.pending = "network", None
    steps = len(movement_chips(trial))
    for combo in itertools.product((False, True), repeat=steps):
        try:
            _, events = apply_action(trial, NetworkStep(transfers={k + 1: "in" for k, inward in enumerate(combo)
                                                                   if inward}),
                                     SeededDice(state.seed, state.rolls))
        except RulesError:
            continue
        if any(isinstance(e, IpMoved) and e.agent == agent.id and core in e.path for e in events):
            return True
    return False


def core_distances(state: GameState) -> dict[str, int]:
    """Nodes an IP passes on its way to the core (clockwise and inward), from each node of the mat."""
    back: dict[str, list[str]] = {}
    for node in state.network.mat.nodes:
        for nxt in (node.next, node.inward):
            if nxt is not None:
                back.setdefault(nxt, []).append(node.id)
    core = next(n.id for n in state.network.mat.nodes if n.kind == "core")
    dist, todo = {core: 0}, [core]
    while todo:
        here = todo.pop(0)
        for prev in back.get(here, ()):
            if prev not in dist:
                dist[prev] = dist[here] + 1
                todo.append(prev)
    return dist
