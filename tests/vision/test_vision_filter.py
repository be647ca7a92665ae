"""The temporal filter: on rendered sequences (hands over the board) and on hand-built readings."""

from __future__ import annotations

import pytest

from tests.support.vision_helpers import HD, POSE, rng
from vision.config import FilterSettings
from vision.filter import TemporalFilter, UnitNotSeen, UnitSighted
from vision.observation import FrameReading
from vision.pipeline import VisionPipeline
from vision.snap import Sighting
from vision.status import OK, Status
from vision.synth import Conditions, Hand

FPS = 15.0
LIGHT = Conditions(light_gradient=0.2, noise_sigma=2.0, jpeg_quality=85)


def run(pipeline, renderer, frames, start: int = 0, seed: int = 0):
    """Feed (scene, hands) frames at FPS; returns the events of each frame and the units unseen in each."""
    g = rng(seed)
    events, unseen = [], []
    for k, (scene, hands) in enumerate(frames, start):
        result = pipeline.process(renderer.render(scene, POSE, HD, LIGHT, hands, rng=g).grey, k / FPS)
        events.append(result.events)
        unseen.append({u for u, s in result.observation.units.items() if s.space is not None and not s.seen})
    return events, unseen


def settled(floor, config, renderer, scene):
    pipeline = VisionPipeline(floor, config)
    events, _ = run(pipeline, renderer, [(scene, ())] * 7)
    placed = [e for ev in events for e in ev if isinstance(e, UnitSighted)]
    assert {e.unit for e in placed} == {p.unit for p in scene.placements}
    assert all(e.from_space is None for e in placed)
    return pipeline


@pytest.mark.slow  # renders and reads many frames of a whole move
def test_a_hand_sweeping_across_the_board_moves_nothing(floor, config, renderer, scene):
    pipeline = settled(floor, config, renderer, scene)
    before = pipeline.observation.placed()
    sweep = [(scene, (Hand(0.05 + 0.9 * k / 19, 0.45 + 0.1 * (k % 3), 80.0 + 5 * k, 120.0),)) for k in range(20)]
    events, unseen = run(pipeline, renderer, sweep, start=7, seed=1)
    assert [e for ev in events for e in ev if isinstance(e, UnitSighted)] == []
    hidden = set().union(*unseen)
    assert len(hidden) >= 4, f"the hand should have covered several chips, covered {hidden}"
    assert pipeline.observation.placed() == before
    events, unseen = run(pipeline, renderer, [(scene, ())] * 2, start=27)
    assert unseen[-1] == set()
    assert pipeline.observation.placed() == before


@pytest.mark.slow  # renders and reads many frames of a whole move
def test_a_chip_moved_under_a_hand_moves_once_when_seen_settled(floor, config, renderer, scene):
    pipeline = settled(floor, config, renderer, scene)
    moved = scene.moved("hound-1", "J8", "S")
    cam = renderer.camera(POSE, HD)
    old = cam.project([renderer.layout.space_centre(*floor.coords[floor.index["I11"]])])[0]
    new = cam.project([renderer.layout.space_centre(*floor.coords[floor.index["J8"]])])[0]
    over_old = Hand(old[0] / HD[0], old[1] / HD[1], 60.0, 90.0)
    part_new = Hand((new[0] + 35) / HD[0], (new[1] + 25) / HD[1], 60.0, 60.0)  # partly over the chip
    frames = [(scene, (over_old,))] * 3 + [(moved, (over_old,))] * 3 + [(moved, (part_new,))] * 4 + [(moved, ())] * 8
    events, _ = run(pipeline, renderer, frames, start=7, seed=2)
    moves = [(k, e) for k, ev in enumerate(events) for e in ev if isinstance(e, UnitSighted)]
    assert [e for _, e in moves] == [UnitSighted("hound-1", "I11", "J8", "E", "S")]
    assert moves[0][0] >= 3 + config.filter.confirm_frames - 1  # not before it was seen at J8 long enough
    assert pipeline.observation.placed()["hound-1"] == ("J8", "S")


def sighting(unit: str, space: str, facing: str | None = "N") -> Sighting:
    return Sighting(unit, 10, space, facing, 1.0, None, (space,), (0.0, 0.0), (0.0, 0.0), 0.0)


def feed(flt: TemporalFilter, frames: list[list[Sighting]], t0: float = 0.0, dt: float = 0.1):
    out = []
    for k, sightings in enumerate(frames):
        out += flt.update(FrameReading(t0 + k * dt, OK, (), tuple(sightings)))
    return out


def test_a_brief_misreading_never_moves_a_unit():
    flt = TemporalFilter(["g"], FilterSettings(confirm_frames=5, confirm_seconds=0.3))
    assert feed(flt, [[sighting("g", "C4")]] * 5) == [UnitSighted("g", None, "C4", None, "N")]
    assert feed(flt, [[sighting("g", "C5")]] * 4 + [[sighting("g", "C4")]], t0=1.0) == []
    assert flt.observation.placed() == {"g": ("C4", "N")}
    # enough frames but not enough time: still no move
    assert feed(flt, [[sighting("g", "C5")]] * 6, t0=2.0, dt=0.05) == []
    assert feed(flt, [[sighting("g", "C5")]], t0=2.31) == [UnitSighted("g", "C4", "C5", "N", "N")]


def test_turning_in_place_is_reported_as_a_turn():
    flt = TemporalFilter(["g"], FilterSettings(confirm_frames=2, confirm_seconds=0.0))
    feed(flt, [[sighting("g", "C4", "N")]] * 2)
    (turn,) = feed(flt, [[sighting("g", "C4", "W")]] * 2, t0=1.0)
    assert turn.text == "unit g turned from N to W at C4"


def test_a_unit_seen_twice_is_a_question_not_a_move():
    flt = TemporalFilter(["g"], FilterSettings(confirm_frames=2, confirm_seconds=0.0))
    feed(flt, [[sighting("g", "C4")]] * 2)
    assert feed(flt, [[sighting("g", "C4"), sighting("g", "H9")]] * 6, t0=1.0) == []
    assert flt.observation.placed() == {"g": ("C4", "N")}
    assert any("seen in 2 places" in q for q in flt.observation.questions)


def test_two_units_in_one_space_is_a_question_not_a_move():
    flt = TemporalFilter(["a", "b"], FilterSettings(confirm_frames=2, confirm_seconds=0.0))
    feed(flt, [[sighting("a", "C4"), sighting("b", "D4")]] * 2)
    assert feed(flt, [[sighting("a", "C4"), sighting("b", "C4")]] * 5, t0=1.0) == []
    assert flt.observation.placed() == {"a": ("C4", "N"), "b": ("D4", "N")}
    assert any("both seem to be at C4" in q for q in flt.observation.questions)


def test_a_unit_put_where_an_unseen_one_stood_takes_the_space():
    """A guard taken off the board (shut down), then a bot moved onto its space: the bot is confirmed there,
    and the guard's place is unknown, not a crowded space."""
    flt = TemporalFilter(["guard", "bot"], FilterSettings(confirm_frames=3, confirm_seconds=0.0))
    feed(flt, [[sighting("guard", "C4"), sighting("bot", "D4", None)]] * 3)
    feed(flt, [[sighting("bot", "D4", None)]] * 3, t0=1.0)  # the guard's chip is gone
    assert flt.observation.placed() == {"guard": ("C4", "N"), "bot": ("D4", None)}  # a vanished unit keeps its place
    assert feed(flt, [[sighting("bot", "C4", None)]] * 3, t0=2.0) == [UnitSighted("bot", "D4", "C4", None, None)]
    assert flt.observation.placed() == {"bot": ("C4", None)}
    assert flt.observation.questions == ()


def test_a_unit_seen_on_the_space_while_another_is_confirmed_there_is_a_question():
    flt = TemporalFilter(["guard", "bot"], FilterSettings(confirm_frames=3, confirm_seconds=0.0))
    feed(flt, [[sighting("guard", "C4"), sighting("bot", "D4", None)]] * 3)
    # the guard's sticker shows once while the bot stands on C4: both are there, the players are asked
    frames = [[sighting("bot", "C4", None), sighting("guard", "C4")]] + [[sighting("bot", "C4", None)]] * 5
    assert feed(flt, frames, t0=1.0) == []
    assert flt.observation.placed() == {"guard": ("C4", "N"), "bot": ("D4", None)}
    assert any("both seem to be at C4" in q for q in flt.observation.questions)


def test_a_vanished_unit_keeps_its_place_and_is_reported_once():
    flt = TemporalFilter(["a", "b"], FilterSettings(confirm_frames=1, confirm_seconds=0.0, not_seen_seconds=3.0))
    feed(flt, [[sighting("a", "C4"), sighting("b", "D4")]])
    events = feed(flt, [[sighting("b", "D4")]] * 40, t0=0.1)
    assert len(events) == 1 and isinstance(events[0], UnitNotSeen) and events[0].unit == "a"
    assert events[0].text.startswith("unit a not seen for 3 s (last at C4)")
    assert flt.observation.units["a"].space == "C4" and not flt.observation.units["a"].seen


def test_frames_without_registration_move_nothing(floor, config):
    pipeline = VisionPipeline(floor, config)
    flt = pipeline.filter
    feed(flt, [[sighting("byte", "C4", None)]] * 6)
    for k in range(50):
        result = pipeline.process_failure(Status("error", "camera_lost", "unplugged"), 1.0 + k * 0.1)
        assert [e for e in result.events if isinstance(e, UnitSighted)] == []
    assert pipeline.observation.placed() == {"byte": ("C4", None)}
    assert pipeline.observation.status.code == "camera_lost"


def test_vision_event_types_do_not_share_the_rules_tags():
    """A log or a feed that holds both the rules' events and the camera's must tell them apart by "type":
    the rules' `unit_moved` is a guard's move to make, the camera's a sticker confirmed somewhere."""
    import typing

    from controller.rules.events import AnyEvent
    rules_tags = {kind.__struct_config__.tag for kind in typing.get_args(AnyEvent)}
    vision_tags = {UnitSighted("g", "C4", "C5", "N", "N").to_dict()["type"],
                   UnitNotSeen("g", "C4", 3.0).to_dict()["type"]}
    assert vision_tags == {"unit_sighted", "unit_not_seen"}
    assert not vision_tags & rules_tags


@pytest.mark.slow  # renders and reads many frames of a whole move
def test_a_move_seen_only_in_blurred_frames_waits_for_a_sharp_view(floor, config, renderer, scene):
    """A shaken table blurs 4-5 px: the chip is still read, but the move is confirmed on sharp frames only."""
    pipeline = settled(floor, config, renderer, scene)
    moved = scene.moved("byte", "F7")
    g = rng(3)
    blurred_events = []
    for k in range(10):
        shaken = Conditions(light_gradient=0.2, noise_sigma=2.0, jpeg_quality=85, blur_px=4.5, blur_angle_deg=20.0)
        result = pipeline.process(renderer.render(moved, POSE, HD, shaken, rng=g).grey, (7 + k) / FPS)
        assert result.reading.status.code == "blurred" and result.observation.view.blurred
        blurred_events += result.events
    assert [e for e in blurred_events if isinstance(e, UnitSighted)] == []
    assert pipeline.observation.to_dict()["view"]["blurred"] is True
    events, _ = run(pipeline, renderer, [(moved, ())] * 6, start=17)
    assert [e.text for ev in events for e in ev if isinstance(e, UnitSighted)] == ["unit byte moved from H3 to F7"]
    assert pipeline.observation.view.blurred is False and pipeline.observation.status.ok
