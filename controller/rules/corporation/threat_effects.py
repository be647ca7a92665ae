"""What threat events do when they fire, in the engine's small effect vocabulary.

Escalations (guard_movement, guard_awareness, ping_steps) do nothing when reached: they are modifiers that
the security and ping phases read while they are active.
"""

from __future__ import annotations

from controller.rules.corporation.deploy import spawn_guard
from controller.rules.corporation.pings import add_ping, change_ceo_level
from controller.rules.corporation.threat import change_threat
from controller.rules.players.burncycle import deactivate_slot
from controller.rules.resolution import Resolution
from controller.rules.state import Effect, ThreatEvent


def apply_effect(resolution: Resolution, event: ThreatEvent) -> None:
    do_effect(resolution, event.effect, f"threat event at {event.threshold}")


def do_effect(resolution: Resolution, effect: Effect, reason: str) -> None:
    """One effect of the vocabulary (threat events, captain chip events); modifiers do nothing here."""
    if effect.kind == "add_ping":
        for _ in range(effect.amount):
            add_ping(resolution)
    elif effect.kind == "ceo_level":
        change_ceo_level(resolution, effect.amount)
    elif effect.kind == "spawn_guard":
        for _ in range(effect.amount):
            spawn_guard(resolution, effect.post or "star", resolution.state.floor.level)
    elif effect.kind == "threat":
        change_threat(resolution, effect.amount, reason)
    elif effect.kind == "deactivate_slot":
        for _ in range(effect.amount):
            deactivate_slot(resolution, reason)
