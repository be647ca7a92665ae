"""render(scene, t): what the table shows for a game situation, checked colour by colour."""

from __future__ import annotations

import pytest

from controller.leds import render as r
from controller.leds.render import OFF, render
from controller.leds.scene import LedScene, Link, Outcome, SlotChip, advance

SLOTS = (SlotChip("physical"), SlotChip("tech", degraded=True), None, SlotChip("captain"), SlotChip("utility"))


def lit(frame: r.LogicalFrame) -> list[int]:
    return [i for i, c in enumerate(frame.threat) if c != OFF]


def test_track_is_lit_up_to_the_threat() -> None:
    frame = render(LedScene(threat=7), 0.0)
    assert lit(frame) == list(range(8))
    assert frame.threat[7] == r._track_colour(7)


def test_thresholds_and_escalations_are_marked() -> None:
    scene = LedScene(threat=5, event_thresholds=(4, 10, 18), fired_thresholds=(4,),
                     escalation_thresholds=(8, 16), active_escalations=(16,))
    frame = render(scene, 0.0)
    assert frame.threat[10] == r.PENDING_EVENT and frame.threat[18] == r.PENDING_EVENT
    assert frame.threat[4] == r._track_colour(4)  # lit track wins over a fired marker below the threat
    assert frame.threat[8] == r.ESCALATION
    assert frame.threat[16] == r.ACTIVE_ESCALATION
    assert frame.threat[6] == OFF


def test_fired_event_above_the_threat_is_marked_as_fired() -> None:
    frame = render(LedScene(threat=2, event_thresholds=(6,), fired_thresholds=(6,)), 0.0)
    assert frame.threat[6] == r.FIRED_EVENT


def test_chase_runs_from_the_old_threat_to_the_new() -> None:
    scene = advance(LedScene(threat=9), LedScene(threat=5), now=100.0)
    assert (scene.threat_from, scene.advanced_at) == (5, 100.0)
    heads = []
    for step in range(6):
        frame = render(scene, 100.0 + (step + 0.5) * r.CHASE_STEP_S)
        heads.append([i for i, c in enumerate(frame.threat) if c == r.CHASE_HEAD])
    assert heads == [[6], [7], [8], [9], [], []]
    assert lit(render(scene, 100.0 + 0.5 * r.CHASE_STEP_S)) == list(range(6)) + [6]
    assert lit(render(scene, 200.0)) == list(range(10))


def test_advance_keeps_or_cancels_the_chase() -> None:
    first = advance(LedScene(threat=9), LedScene(threat=5), now=1.0)
    same = advance(LedScene(threat=9), first, now=2.0)
    assert (same.threat_from, same.advanced_at) == (5, 1.0)
    down = advance(LedScene(threat=3), first, now=3.0)
    assert (down.threat_from, down.advanced_at) == (3, None)
    assert advance(LedScene(threat=4), None, now=0.0).advanced_at is None


def test_warning_pulse_near_26() -> None:
    scene = LedScene(threat=24)
    levels = {render(scene, t / 20).threat[3] for t in range(40)}
    assert len(levels) > 5
    assert all(level[0] <= r._track_colour(3)[0] for level in levels)
    assert len({render(LedScene(threat=20), t / 20).threat[3] for t in range(40)}) == 1


def test_defeat_blinks_everything_red() -> None:
    scene = LedScene(threat=26, outcome=Outcome.DEFEAT)
    on, off = render(scene, 0.1), render(scene, 0.35)
    assert set(on.threat) == {r.DEFEAT} and set(off.threat) == {OFF}
    assert set(on.slots) == {r.scale(r.DEFEAT, 0.5)}


def test_victory_is_green() -> None:
    frame = render(LedScene(outcome=Outcome.VICTORY), 0.0)
    assert all(c[1] > c[0] and c[2] < c[1] for c in frame.threat)


def test_slots_by_kind_degraded_inactive_and_tracker() -> None:
    scene = LedScene(slots=SLOTS, tracker=2)
    frame = render(scene, 0.25)  # pulse at its peak: the tracker's scale is 1.0
    assert frame.slots[0] == r.KIND_COLOURS["physical"]
    assert frame.slots[1] == r.scale(r.KIND_COLOURS["tech"], r.DEGRADED_SCALE)
    assert frame.slots[2] == r.TRACKER_EMPTY  # inactive, but the tracker is on it
    assert frame.slots[3] == r.KIND_COLOURS["captain"]
    dark = render(LedScene(slots=SLOTS, tracker=0), 0.25)
    assert dark.slots[2] == OFF


def test_tracker_slot_pulses() -> None:
    scene = LedScene(slots=SLOTS, tracker=3)
    assert len({render(scene, t / 10).slots[3] for t in range(10)}) > 3
    assert len({render(scene, t / 10).slots[0] for t in range(10)}) == 1


@pytest.mark.parametrize("link", list(Link))
def test_status_pixel_shows_the_link(link: Link) -> None:
    assert render(LedScene(link=link), 0.1).status == r.LINK_COLOURS[link]


def test_link_down_blinks() -> None:
    assert render(LedScene(link=Link.DOWN), 0.75).status == OFF


def test_render_is_pure() -> None:
    scene = LedScene(threat=25, slots=SLOTS, tracker=1, event_thresholds=(3,))
    assert render(scene, 1.234) == render(scene, 1.234)


@pytest.mark.parametrize(
    "kwargs", [{"threat": 27}, {"threat": -1}, {"tracker": 5}, {"slots": (None,) * 4},
               {"slots": (SlotChip("laser"),) + (None,) * 4}],
)
def test_scene_rejects_impossible_values(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        LedScene(**kwargs)
