"""scene_from_state on real states from the rules engine."""

from __future__ import annotations

import msgspec
import pytest

from controller.leds.render import render
from controller.leds.scene import LedScene, Link, Outcome, SlotChip, scene_from_state
from controller.library import floor_text, load_content
from controller.rules import GameSetup, active_escalations, new_game
from controller.rules import Outcome as GameOutcome
from controller.rules.state import Chip


@pytest.fixture(scope="module")
def state():
    text, name = floor_text("meridian-lobby")
    return new_game(load_content(), GameSetup(floor=name, floor_text=text, players=2, seed=3))


def test_scene_from_a_new_game(state) -> None:
    scene = scene_from_state(state, link=Link.DEGRADED)
    assert scene.threat == state.threat
    assert scene.event_thresholds == tuple(e.threshold for e in state.threat_card.events)
    assert scene.escalation_thresholds == tuple(e.threshold for e in state.threat_card.escalations)
    assert scene.active_escalations == tuple(e.threshold for e in active_escalations(state))
    assert scene.outcome is Outcome.PLAYING and scene.link is Link.DEGRADED
    want_slots = tuple(None if c is None else SlotChip(c.kind, c.degraded) for c in state.burncycle.slots)
    assert scene.slots == want_slots
    assert scene.tracker == state.burncycle.tracker
    assert len(render(scene, 0.0).threat) == 27


def test_fired_events_degraded_chips_and_defeat(state) -> None:
    slots = list(state.burncycle.slots)
    slots[1] = Chip(kind="tech", degraded=True)
    changed = msgspec.structs.replace(
        state, threat=12, fired_events=[0, 1], outcome=GameOutcome("defeat", "threat_maxed", "threat reached 26"),
        burncycle=msgspec.structs.replace(state.burncycle, slots=slots, tracker=1),
    )
    scene = scene_from_state(changed)
    events = [e.threshold for e in state.threat_card.events]
    assert scene.fired_thresholds == (events[0], events[1])
    assert scene.slots[1] == SlotChip("tech", True) and scene.tracker == 1
    assert scene.outcome is Outcome.DEFEAT


def test_threat_advance_starts_a_chase(state) -> None:
    before = scene_from_state(state)
    after = scene_from_state(msgspec.structs.replace(state, threat=state.threat + 3), previous=before, now=50.0)
    assert (after.threat_from, after.advanced_at) == (state.threat, 50.0)
    assert isinstance(after, LedScene)
