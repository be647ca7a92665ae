"""Threat & Defeat: the threat track, its events and escalations.

"Threat events trigger once when reached; escalation effects remain active while threat equals or exceeds
their threshold." Every change of threat goes through `change_threat`, so events fire and defeat at 26
happens no matter what moved the track (pings, shut-downs, the end of the round, Seasoned awareness).
"""

from __future__ import annotations

from controller.rules.events import Defeat, EscalationActive, ThreatChanged, ThreatEventFired
from controller.rules.resolution import Resolution
from controller.rules.state import GameState, Outcome, OutcomeCause, ThreatEvent

MAX_THREAT = 26


def fauxbia_chip_active(state: GameState) -> bool:
    """Fauxbia's burncycle action: "While this chip is active in the burncycle, the next threat escalation
    is considered active." Active = in a slot on its active (not degraded) face."""
    if "next_escalation" not in state.captain.abilities:
        return False
    return any(c is not None and c.kind == "captain" and not c.degraded for c in state.burncycle.slots)


def active_escalations(state: GameState) -> list[ThreatEvent]:
    """Escalations in force now, including the next one while Fauxbia's chip is active."""
    active = [e for e in state.threat_card.escalations if state.threat >= e.threshold]
    if fauxbia_chip_active(state):
        upcoming = sorted((e for e in state.threat_card.escalations if e.threshold > state.threat),
                          key=lambda e: e.threshold)
        if upcoming:
            active.append(upcoming[0])
    return active


def escalation_bonus(resolution: Resolution, kind: str) -> int:
    """The modifier of that kind from the escalations in force (cached per threat value: sight is checked
    thousands of times a turn, threat changes a few)."""
    key = (resolution.state.threat, kind)
    bonus = resolution.bonus_cache.get(key)
    if bonus is None:
        bonus = sum(e.effect.amount for e in active_escalations(resolution.state) if e.effect.kind == kind)
        resolution.bonus_cache[key] = bonus
    return bonus


def change_threat(resolution: Resolution, delta: int, reason: str) -> None:
    state = resolution.state
    if resolution.over or delta == 0:
        return
    old = state.threat
    new = max(0, min(MAX_THREAT, old + delta))
    if new == old:
        return
    state.threat = new
    resolution.emit(ThreatChanged(old=old, new=new, reason=reason))
    if new > old:
        for k, e in enumerate(state.threat_card.escalations):
            if old < e.threshold <= new:
                resolution.emit(EscalationActive(threshold=e.threshold, index=k))
        for i, ev in enumerate(state.threat_card.events):
            if i not in state.fired_events and old < ev.threshold <= new:
                state.fired_events.append(i)
                resolution.emit(ThreatEventFired(threshold=ev.threshold, index=i))
                resolution.apply_effect(resolution, ev)
                if resolution.over:
                    return
    if state.threat >= MAX_THREAT:
        declare_defeat(resolution, "threat_maxed", "threat reached 26")


def declare_defeat(resolution: Resolution, cause: OutcomeCause, reason: str) -> None:
    """The game is lost, once: `cause` for programs, `reason` (the rule that ended it) for people."""
    if resolution.state.outcome is None:
        resolution.state.outcome = Outcome(result="defeat", cause=cause, text=reason)
        resolution.emit(Defeat(reason=reason))


def events_passed_at_start(state: GameState) -> list[int]:
    """Publisher's FAQ: when a game starts with threat above 0, the events already passed never trigger."""
    return [i for i, ev in enumerate(state.threat_card.events) if ev.threshold <= state.threat]
