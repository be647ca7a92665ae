"""Detection, registration and grid snapping on rendered frames, with real OpenCV marker detection."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tests.support.vision_helpers import HD, POSE, rng
from vision.config import FilterSettings, UnitSpec, VisionConfig
from vision.pipeline import VisionPipeline
from vision.synth import (
    CameraPose,
    Conditions,
    Placement,
    Renderer,
    Scene,
    random_conditions,
    random_pose,
    random_scene,
)

ONE_SHOT = FilterSettings(confirm_frames=1, confirm_seconds=0.0)


def one_shot(floor, config: VisionConfig) -> VisionPipeline:
    return VisionPipeline(floor, replace(config, filter=ONE_SHOT))


def test_every_unit_in_its_space_with_its_facing(floor, config, renderer, scene):
    frame = renderer.render(scene, POSE, HD)
    result = one_shot(floor, config).process(frame.grey, 0.0)
    assert result.reading.status.ok, result.reading.status
    placed = result.observation.placed()
    expected = {p.unit: (p.space, p.facing if config.units[[u.id for u in config.units].index(p.unit)].has_facing
                         else None) for p in scene.placements}
    assert placed == expected
    assert result.reading.unknown == ()


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_random_pose_light_blur_noise_jpeg(floor, config, renderer, seed):
    """Tilt up to 35 degrees, lens distortion, uneven light, glare, blur, noise, JPEG: no wrong space, no phantom."""
    g = rng(seed)
    scene = random_scene(floor, config, g)
    frame = renderer.render(scene, random_pose(g), HD, random_conditions(g), rng=g)
    result = one_shot(floor, config).process(frame.grey, 0.0)
    truth = frame.units
    seen = {s.unit: s for s in result.reading.sightings}
    assert set(seen) <= set(truth), "phantom unit"
    for unit, s in seen.items():
        assert s.doubt is None, s
        assert s.space == truth[unit].space
        if s.facing is not None:
            assert s.facing == truth[unit].facing
    visible = [u for u, t in truth.items() if t.visible]
    found = [u for u in visible if u in seen]
    assert len(found) >= len(visible) - 1, f"missed {set(visible) - set(found)}"


@pytest.mark.parametrize("roll", [170.0, 90.0, -45.0])
def test_facing_from_marker_rotation_for_each_direction(floor, config, renderer, roll):
    """Facing is read in the table's frame, so however the camera is turned on its mount, north is north."""
    scene = Scene(tuple(Placement(f"rover-{k % 2 + 1}" if k < 2 else f"sentry-{k - 1}", s, d, twist_deg=8.0)
                        for k, (s, d) in enumerate(zip(["C3", "F6", "K10", "P14"], "NESW"))))
    frame = renderer.render(scene, CameraPose(tilt_deg=30, azimuth_deg=200, roll_deg=roll, fill=0.98), HD)
    placed = one_shot(floor, config).process(frame.grey, 0.0).observation.placed()
    assert placed == {"rover-1": ("C3", "N"), "rover-2": ("F6", "E"),
                      "sentry-1": ("K10", "S"), "sentry-2": ("P14", "W")}


def _edge_spaces(floor, kind: str) -> str:
    """A space whose east neighbour is across an edge of `kind`."""
    return next(floor.ids[i] for i in range(len(floor.ids))
                if floor.neighbour[i].get("E", (None, None))[1] == kind)


def test_chip_between_two_spaces_or_on_a_wall_is_doubtful_not_rounded(floor, config, renderer):
    open_space, wall_space = _edge_spaces(floor, "open"), _edge_spaces(floor, "wall")
    half = config.board.space_mm * 0.47
    scene = Scene((Placement("byte", open_space, offset_mm=(half, 0.0)),
                   Placement("hound-1", wall_space, "S", offset_mm=(half, 0.0)),
                   Placement("rover-1", "K10", "N", twist_deg=44.0),
                   Placement("bit", "E5")))
    frame = renderer.render(scene, POSE, HD)
    result = one_shot(floor, config).process(frame.grey, 0.0)
    seen = {s.unit: s for s in result.reading.sightings}
    assert seen["byte"].doubt is not None and seen["byte"].doubt.startswith("between")
    assert seen["hound-1"].doubt is not None and "wall" in seen["hound-1"].doubt
    assert seen["rover-1"].doubt is not None and "facing unclear" in seen["rover-1"].doubt
    assert seen["bit"].doubt is None
    placed = result.observation.placed()
    assert "byte" not in placed and "hound-1" not in placed and "rover-1" not in placed
    assert placed["bit"] == ("E5", None)
    assert len(seen["byte"].candidates) == 2
    assert any("byte" in q for q in result.observation.questions)


def test_marker_outside_the_roster_is_reported_unknown(floor, config):
    stranger = replace(config, units=config.units + (UnitSpec("stranger", "guard", "Stranger", 1),))
    frame = Renderer(floor, stranger).render(Scene((Placement("stranger", "J6", "E"), Placement("byte", "C9"))),
                                             POSE, HD)
    result = one_shot(floor, config).process(frame.grey, 0.0)
    assert [m.marker for m in result.reading.unknown] == [stranger.marker_of("stranger")]
    assert result.observation.placed() == {"byte": ("C9", None)}


def test_one_corner_covered_still_registers(floor, config, renderer, scene):
    from vision.synth import Hand
    g = rng(5)
    cam = renderer.camera(POSE, HD)
    tl = cam.project(np.array([renderer.layout.anchor_centre(0)]))[0]
    hand = Hand(tl[0] / HD[0], tl[1] / HD[1], 45.0, 70.0)
    frame = renderer.render(scene, POSE, HD, Conditions(noise_sigma=2.0), (hand,), rng=g)
    result = one_shot(floor, config).process(frame.grey, 0.0)
    assert "top-left" not in result.reading.anchors_seen
    assert len(result.reading.anchors_seen) >= 5
    assert result.reading.status.ok
    assert result.registration.rms_mm < 1.5
    for unit, (space, _) in result.observation.placed().items():
        assert space == frame.units[unit].space


def _cover_anchors(frame, renderer, keep: set[int]) -> np.ndarray:
    grey = frame.grey.copy()
    for i in range(8):
        if i in keep:
            continue
        x, y = frame.camera.project(np.array([renderer.layout.anchor_centre(i)]))[0]
        grey[max(0, int(y) - 40):int(y) + 40, max(0, int(x) - 40):int(x) + 40] = 90
    return grey


def test_too_few_corner_markers_says_which_are_covered(floor, config, renderer, scene):
    frame = renderer.render(scene, POSE, HD)
    grey = _cover_anchors(frame, renderer, keep={1, 2})
    result = one_shot(floor, config).process(grey, 0.0)
    status = result.reading.status
    assert status.code == "too_few_anchors"
    assert status.message.startswith("2 of 8 registration markers visible")
    assert "top-left" in status.message and "top-right" not in status.message.split("visible")[1].split(":")[1]
    assert result.observation.placed() == {}


def test_covered_corners_hold_the_last_registration(floor, config, renderer, scene):
    frame = renderer.render(scene, POSE, HD)
    pipeline = VisionPipeline(floor, replace(config, filter=ONE_SHOT))
    first = pipeline.process(frame.grey, 0.0).observation.placed()
    result = pipeline.process(_cover_anchors(frame, renderer, keep={2}), 1.0)
    assert result.reading.status.code == "registration_held"
    assert "1 of 8" in result.reading.status.message
    assert result.observation.placed() == first
    assert all(s.space == frame.units[s.unit].space for s in result.reading.sightings)


def test_frame_without_the_play_area(floor, config):
    result = one_shot(floor, config).process(np.full((720, 1280), 128, np.uint8), 0.0)
    assert result.reading.status.code == "no_play_area"
    assert "point the camera" in result.reading.status.message


def test_colour_image_is_a_clear_status_not_a_crash(floor, config):
    result = one_shot(floor, config).process(np.zeros((10, 10, 3), np.uint8), 0.0)
    assert result.reading.status.code == "bad_image"


def test_a_partial_quad_read_as_another_unit_is_rejected(floor, config, renderer, scene):
    """OpenCV can decode half a sticker as another id; a quad that is not a 21 mm square is dropped."""
    from vision.detect import MarkerDetection
    frame = renderer.render(scene, POSE, HD)
    pipeline = one_shot(floor, config)
    detections = pipeline.detector.detect(frame.grey)
    real = next(d for d in detections if d.id == config.marker_of("byte"))
    top_half = real.corners.copy()
    top_half[2:] = (real.corners[2:] + real.corners[1::-1]) / 2  # bottom corners pulled to mid-height
    ghost = MarkerDetection(config.marker_of("rover-1"), top_half.astype(np.float32))
    result = pipeline.read(detections + [ghost], 0.0)
    assert "rover-1" not in {s.unit for s in result.reading.sightings}
    assert result.observation.placed()["byte"] == ("H3", None)


def test_apriltag_36h11_is_a_setting(floor, config, scene):
    april = replace(config, dictionary="apriltag_36h11")
    frame = Renderer(floor, april).render(scene, POSE, HD)
    assert one_shot(floor, config).process(frame.grey, 0.0).observation.placed() == {}  # 4x4 reads none of them
    placed = one_shot(floor, april).process(frame.grey, 0.0).observation.placed()
    assert {u: s for u, (s, _) in placed.items()} == {p.unit: p.space for p in scene.placements}


def _outlined_sticker(config: VisionConfig, marker: int, outline_mm: float, px_per_mm: float, blur: float,
                      angle: float) -> np.ndarray:
    """A sticker inside a dark square outline (a chip's edge, 1.5 mm wide, around a darker body)."""
    import cv2

    from vision.synth.board import marker_image
    img = np.full((400, 400), 140, np.uint8)
    c, h = 200, outline_mm * px_per_mm / 2
    cv2.rectangle(img, (int(c - h), int(c - h)), (int(c + h), int(c + h)), 30, -1)
    inner = h - 1.5 * px_per_mm
    cv2.rectangle(img, (int(c - inner), int(c - inner)), (int(c + inner), int(c + inner)), 90, -1)
    cell = config.board.marker_mm / config.marker_cells
    q = int(round(cell * px_per_mm))
    sticker = cv2.copyMakeBorder(marker_image(config, marker, int(round(config.board.marker_mm * px_per_mm))),
                                 q, q, q, q, cv2.BORDER_CONSTANT, value=255)
    s = sticker.shape[0]
    img[c - s // 2:c - s // 2 + s, c - s // 2:c - s // 2 + s] = sticker
    img = cv2.warpAffine(img, cv2.getRotationMatrix2D((c, c), angle, 1.0), (400, 400), borderValue=140)
    return cv2.GaussianBlur(img, (0, 0), blur)


def test_a_chip_outline_never_hides_the_sticker_inside_it():
    """With one-bit correction a 38-50 mm outline can decode as another id; the sticker inside is still read."""
    from vision.detect import MarkerDetector
    config = VisionConfig(sticker_px=(25.0, 40.0))  # a mount at 1.3-1.8 px/mm
    detector = MarkerDetector(config)
    wrong = []
    for marker in config.marker_units:
        for outline_mm in (38.0, 42.0, 46.0, 50.0):
            for ppm, blur in ((1.3, 0.6), (1.3, 1.2), (1.8, 0.6), (1.8, 1.2)):
                ids = [d.id for d in detector.detect(_outlined_sticker(config, marker, outline_mm, ppm, blur, 20.0))]
                if ids != [marker]:
                    wrong.append((marker, outline_mm, ppm, blur, ids))
    assert wrong == []


def test_near_stickers_of_45_px_on_a_tilted_camera_are_read(config):
    """Threshold windows follow the expected sticker size (up to two cells of the nearest registration
    marker, 23 px by default, where they stopped at 9 px): the near side's 38-48 px stickers are all read."""
    from controller.library import load_floor
    from vision.detect import MarkerDetector, threshold_windows
    assert threshold_windows(config) == (3, 23, 10)
    near = replace(config, sticker_px=(30.0, 90.0))
    assert threshold_windows(near)[1] >= 2 * near.max_marker_px / 1.3 / near.marker_cells - 1
    annex = load_floor("meridian-annex")
    renderer = Renderer(annex, config)
    detector = MarkerDetector(config)
    g = rng(5)
    big = missed = 0
    for _ in range(4):
        pose = CameraPose(tilt_deg=35, azimuth_deg=float(g.uniform(0, 360)), fill=0.98, hfov_deg=55)
        frame = renderer.render(random_scene(annex, config, g), pose, HD, random_conditions(g), rng=g)
        ids = {d.id for d in detector.detect(frame.grey)}
        for unit, truth in frame.units.items():
            if truth.visible and truth.marker_px > 38:
                big += 1
                missed += config.marker_of(unit) not in ids
    assert big >= 25 and missed == 0


def test_the_minimum_tag_size_follows_the_dictionary_and_the_sticker_size():
    four, april = VisionConfig(), VisionConfig(dictionary="apriltag_36h11")
    assert (four.marker_cells, april.marker_cells) == (6, 8)
    assert four.needed_marker_px == pytest.approx(20.0) and april.needed_marker_px == pytest.approx(20.0)
    assert (four.min_marker_px, april.min_marker_px) == (9.0, 12.0)  # 1.5 px a cell at least
    assert VisionConfig(sticker_px=(25.0, 30.0)).min_marker_px == pytest.approx(17.5)  # the sticker less 30 %


def test_apriltag_36h11_tags_of_16_to_20_px_are_read(floor):
    """Below the old 30 px budget: 36h11 tags of 16-20 px on rendered frames, with light blur, noise and JPEG."""
    april = VisionConfig(dictionary="apriltag_36h11")
    renderer = Renderer(floor, april)
    g = rng(8)
    sizes, missed = [], 0
    for k in range(3):
        scene = random_scene(floor, april, g)
        pose = CameraPose(tilt_deg=10.0, azimuth_deg=90.0 * k, fill=0.9, hfov_deg=75.0)
        frame = renderer.render(scene, pose, (1440, 810), Conditions(0.2 * k, 0.0, (), 1.5, 30.0, 3.0, 85), rng=g)
        placed = one_shot(floor, april).process(frame.grey, 0.0).observation.placed()
        for unit, truth in frame.units.items():
            if truth.visible:
                sizes.append(truth.marker_px)
                missed += placed.get(unit, (None,))[0] != truth.space
    assert 15.5 < min(sizes) and max(sizes) < 21.0
    assert missed == 0
