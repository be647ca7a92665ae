"""The captain action chip: "Its designated event on the Captain card must be executed immediately when
reached, even if the player passes on taking an action with the chip."

A captain card's event is data: `chip_effect` (an Effect of the threat cards' vocabulary) is executed each
time the tracker reaches the chip, by stepping onto it or by jumping over it to pay a keypad input. A
card may instead describe a lasting effect that holds while the chip is active (Fauxbia's "the next threat
escalation is considered active", read by `threat.active_escalations`), so it has no `chip_effect`.
"""

from __future__ import annotations

from controller.rules.corporation.threat_effects import do_effect
from controller.rules.events import CAPTAIN_REF, CaptainChipReached
from controller.rules.resolution import Resolution


def reach_captain_chip(resolution: Resolution) -> None:
    captain = resolution.state.captain
    resolution.emit(CaptainChipReached())
    if captain.chip_effect is not None and not resolution.over:
        do_effect(resolution, captain.chip_effect, f"{CAPTAIN_REF}'s captain chip event")
