"""render(scene, t) -> LogicalFrame: what every logical LED shows at time t (seconds).

A pure function: the same scene and time give the same frame, so the drivers only move bytes and
tests can check a frame without any hardware. Colours are full-scale; the layout applies the
brightness cap and the current budget afterwards.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from controller.leds.scene import SLOT_COUNT, TRACK_LENGTH, LedScene, Link, Outcome

RGB = tuple[int, int, int]
OFF: RGB = (0, 0, 0)

CHASE_STEP_S = 0.08   # the chase head moves one position per step
WARNING_FROM = 23     # threat at or above this pulses the track: defeat is near 26
DEFEAT_BLINK_HZ = 2.0

KIND_COLOURS: dict[str, RGB] = {
    "general": (200, 200, 200),
    "physical": (255, 40, 0),
    "tech": (0, 110, 255),
    "utility": (0, 210, 60),
    "captain": (255, 170, 0),
}
DEGRADED_SCALE = 0.2
TRACKER_EMPTY: RGB = (40, 40, 40)
CHASE_HEAD: RGB = (255, 255, 255)
PENDING_EVENT: RGB = (0, 40, 70)
FIRED_EVENT: RGB = (110, 0, 160)
ESCALATION: RGB = (70, 0, 35)
ACTIVE_ESCALATION: RGB = (255, 0, 150)
DEFEAT: RGB = (255, 0, 0)
VICTORY: RGB = (0, 255, 40)
LINK_COLOURS: dict[Link, RGB] = {
    Link.OK: (0, 60, 0),
    Link.DEGRADED: (90, 50, 0),
    Link.DOWN: (120, 0, 0),
    Link.STARTING: (0, 0, 80),
}


@dataclass(frozen=True, slots=True)
class LogicalFrame:
    """One colour per logical LED: 27 threat positions, 5 burncycle slots, 1 status pixel."""

    threat: tuple[RGB, ...]
    slots: tuple[RGB, ...]
    status: RGB


def scale(colour: RGB, factor: float) -> RGB:
    """The colour dimmed by `factor` (0..1), rounded down so it never gets brighter."""
    return (int(colour[0] * factor), int(colour[1] * factor), int(colour[2] * factor))


def _track_colour(position: int) -> RGB:
    """The lit track runs from amber at 0 to red at 26, so its length reads at a glance."""
    f = position / (TRACK_LENGTH - 1)
    return (255, int(150 * (1 - f)), 0)


def _pulse(t: float, hz: float, low: float) -> float:
    return low + (1 - low) * (0.5 + 0.5 * math.sin(2 * math.pi * hz * t))


def _threat_track(scene: LedScene, t: float) -> tuple[RGB, ...]:
    lit_to = scene.threat
    head = None
    if scene.advanced_at is not None and t >= scene.advanced_at:
        step = int((t - scene.advanced_at) / CHASE_STEP_S)
        if scene.threat_from + step < scene.threat:
            head = scene.threat_from + 1 + step
            lit_to = scene.threat_from
    warning = 1.0
    if scene.threat >= WARNING_FROM and head is None:
        warning = _pulse(t, 1.0 + (scene.threat - WARNING_FROM) * 0.75, 0.25)
    events = set(scene.event_thresholds)
    fired = set(scene.fired_thresholds)
    escalations = set(scene.escalation_thresholds)
    active = set(scene.active_escalations)
    track = []
    for pos in range(TRACK_LENGTH):
        if pos in active:
            colour = ACTIVE_ESCALATION
        elif pos == head:
            colour = CHASE_HEAD
        elif pos <= lit_to:
            colour = scale(_track_colour(pos), warning if pos < scene.threat else 1.0)
        elif pos in fired:
            colour = FIRED_EVENT
        elif pos in events:
            colour = PENDING_EVENT
        elif pos in escalations:
            colour = ESCALATION
        else:
            colour = OFF
        track.append(colour)
    return tuple(track)


def _slots(scene: LedScene, t: float) -> tuple[RGB, ...]:
    slots = []
    for index, chip in enumerate(scene.slots):
        colour = OFF if chip is None else KIND_COLOURS[chip.kind]
        if chip is not None and chip.degraded:
            colour = scale(colour, DEGRADED_SCALE)
        if index == scene.tracker:
            colour = scale(colour if chip is not None else TRACKER_EMPTY, _pulse(t, 1.0, 0.45))
        slots.append(colour)
    return tuple(slots)


def _status(scene: LedScene, t: float) -> RGB:
    colour = LINK_COLOURS[scene.link]
    if scene.link is Link.DOWN and (t % 1.0) >= 0.5:
        return OFF
    return colour


def render(scene: LedScene, t: float) -> LogicalFrame:
    """The frame for `scene` at time `t` (seconds, any epoch, the same clock as `advanced_at`)."""
    status = _status(scene, t)
    if scene.outcome is Outcome.DEFEAT:
        on = (t * DEFEAT_BLINK_HZ) % 1.0 < 0.5
        colour = DEFEAT if on else OFF
        return LogicalFrame((colour,) * TRACK_LENGTH, (scale(DEFEAT, 0.5),) * SLOT_COUNT, status)
    if scene.outcome is Outcome.VICTORY:
        colour = scale(VICTORY, _pulse(t, 0.5, 0.3))
        return LogicalFrame((colour,) * TRACK_LENGTH, _slots(scene, t), status)
    return LogicalFrame(_threat_track(scene, t), _slots(scene, t), status)


def at_rest(scene: LedScene) -> LogicalFrame:
    """The frame a glance remembers: the threat's chase run to its end, every pulse near its brightest and a blink
    on. A page previewing the LEDs is sent this once per scene (not the 30 frames a second the strips get)."""
    settled = 0.0
    if scene.advanced_at is not None:
        settled = scene.advanced_at + (scene.threat - scene.threat_from + 1) * CHASE_STEP_S
    # an even second plus 0.2 s: the 1 Hz pulses at 95 %, the 0.5 Hz one at 79 %, the 2 Hz blink and the link's on
    return render(scene, 2 * math.ceil(settled / 2) + 0.2)
