"""The few facts the LEDs show, taken out of the game state.

The renderer depends on this small frozen record rather than on the rules engine's state, so the
LEDs can be tested (and the rules engine can change) independently; `scene_from_state` is the one
place that knows the state's shape.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from controller.rules import GameState, active_escalations
from controller.rules import Outcome as GameOutcome

TRACK_LENGTH = 27  # threat positions 0..26
SLOT_COUNT = 5
CHIP_KINDS = ("general", "physical", "tech", "utility", "captain")


class Link(str, Enum):
    """The table's link state, shown on the status pixel."""

    OK = "ok"
    DEGRADED = "degraded"
    DOWN = "down"
    STARTING = "starting"


class Outcome(str, Enum):
    """How the game stands, as far as the LEDs care."""

    PLAYING = "playing"
    VICTORY = "victory"
    DEFEAT = "defeat"


@dataclass(frozen=True, slots=True)
class SlotChip:
    """The bot chip in a burncycle slot."""

    kind: str
    degraded: bool = False


@dataclass(frozen=True, slots=True)
class LedScene:
    """Everything a frame is rendered from, besides the time.

    `threat_from` and `advanced_at` describe the last advance of the threat (from which value, at
    which time), so the chase animation is a pure function of scene and time.
    """

    threat: int = 0
    event_thresholds: tuple[int, ...] = ()
    fired_thresholds: tuple[int, ...] = ()
    escalation_thresholds: tuple[int, ...] = ()
    active_escalations: tuple[int, ...] = ()
    outcome: Outcome = Outcome.PLAYING
    slots: tuple[SlotChip | None, ...] = (None,) * SLOT_COUNT
    tracker: int = 0
    link: Link = Link.OK
    threat_from: int = 0
    advanced_at: float | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.threat < TRACK_LENGTH:
            raise ValueError(f"threat {self.threat} is outside the track 0..{TRACK_LENGTH - 1}")
        if len(self.slots) != SLOT_COUNT:
            raise ValueError(f"a burncycle has {SLOT_COUNT} slots, got {len(self.slots)}")
        if not 0 <= self.tracker < SLOT_COUNT:
            raise ValueError(f"tracker slot {self.tracker} is outside 0..{SLOT_COUNT - 1}")
        for chip in self.slots:
            if chip is not None and chip.kind not in CHIP_KINDS:
                raise ValueError(f"unknown chip kind {chip.kind!r}, expected one of {', '.join(CHIP_KINDS)}")


def _outcome(value: GameOutcome | None) -> Outcome:
    if value is None:
        return Outcome.PLAYING
    return Outcome.VICTORY if value.won else Outcome.DEFEAT


def scene_from_state(
    state: GameState, *, link: Link = Link.OK, previous: LedScene | None = None, now: float = 0.0
) -> LedScene:
    """Builds the scene for a rules-engine `GameState`.

    `previous` (the scene shown before) and `now` let the scene remember when the threat last
    advanced, which drives the chase; the state itself has no clock.
    """
    card = state.threat_card
    events = tuple(e.threshold for e in card.events)
    fired = tuple(events[i] for i in state.fired_events if 0 <= i < len(events))
    scene = LedScene(
        threat=max(0, min(TRACK_LENGTH - 1, int(state.threat))),
        event_thresholds=events,
        fired_thresholds=fired,
        escalation_thresholds=tuple(e.threshold for e in card.escalations),
        active_escalations=tuple(e.threshold for e in active_escalations(state)),
        outcome=_outcome(state.outcome),
        slots=tuple(
            None if chip is None else SlotChip(str(chip.kind), bool(chip.degraded))
            for chip in (list(state.burncycle.slots) + [None] * SLOT_COUNT)[:SLOT_COUNT]
        ),
        tracker=int(state.burncycle.tracker),
        link=link,
    )
    return advance(scene, previous, now)


def advance(scene: LedScene, previous: LedScene | None, now: float) -> LedScene:
    """Carries the chase over from the previous scene, or starts one if the threat went up."""
    if previous is None:
        return replace(scene, threat_from=scene.threat, advanced_at=None)
    if scene.threat > previous.threat:
        return replace(scene, threat_from=previous.threat, advanced_at=now)
    if scene.threat < previous.threat:
        return replace(scene, threat_from=scene.threat, advanced_at=None)
    return replace(scene, threat_from=previous.threat_from, advanced_at=previous.advanced_at)
