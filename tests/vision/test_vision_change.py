"""Searching only where the picture changed: the same moves as a search of every whole frame, for a fraction of it.

The sequences are rendered (vision/synth) once per picture and filmed with fresh sensor noise on every frame, as a
fixed camera sees a still table: the noise must never look like a change, and a hand, a chip put down, a guard
turned or the light coming on must always be searched.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.vision_helpers import HD, POSE
from vision.change import ChangeDetector
from vision.config import ChangeSettings
from vision.filter import UnitSighted
from vision.pipeline import VisionPipeline
from vision.synth import Conditions, Hand

FPS = 30.0
CLEAN = Conditions(light_gradient=0.15, vignette=0.1, blur_px=1.0, noise_sigma=0.0)
NOISE_SIGMA = 2.0


def noisy_frames(pictures: list[np.ndarray], seed: int) -> list[np.ndarray]:
    """Each picture as the camera films it: fresh noise on every frame (a few noise fields, cycled)."""
    g = np.random.default_rng(seed)
    fields = [g.normal(0.0, NOISE_SIGMA, pictures[0].shape).astype(np.float32) for _ in range(3)]
    return [np.clip(p + fields[k % 3], 0, 255).astype(np.uint8) for k, p in enumerate(pictures)]


def hand_over(renderer, floor, space: str, dx: float = 0.0, dy: float = 0.0) -> Hand:
    centre = renderer.camera(POSE, HD).project([renderer.layout.space_centre(*floor.coords[floor.index[space]])])[0]
    return Hand((centre[0] + dx) / HD[0], (centre[1] + dy) / HD[1], 70.0, 90.0)


@pytest.fixture(scope="module")
def play(floor, renderer, scene):
    """A table's minute in 30 fps frames: settled, a hand sweeping, a chip moved under a hand, a guard turned in
    place, a chip moved with no hand in view, the light brightening, and still frames in between."""
    def shot(s, hands=()):
        return renderer.render(s, POSE, HD, CLEAN, hands, rng=np.random.default_rng(0)).grey

    still = shot(scene)
    moved = scene.moved("hound-1", "J8", "S")
    turned = moved.moved("sentry-1", "B2", "E")
    slid = turned.moved("byte", "H4")
    pictures = [still] * 12
    pictures += [shot(scene, (hand_over(renderer, floor, "E5", 40.0 * k, 10.0 * k),)) for k in range(4)]
    pictures += [still] * 10
    pictures += [shot(scene, (hand_over(renderer, floor, "I11"),))] * 3
    pictures += [shot(moved, (hand_over(renderer, floor, "J8", 30.0, 20.0),))] * 3
    pictures += [shot(moved)] * 14
    pictures += [shot(turned)] * 14
    pictures += [shot(slid)] * 14
    brighter = np.clip(shot(slid).astype(np.int16) + 40, 0, 255).astype(np.uint8)
    pictures += [brighter] * 10
    return noisy_frames(pictures, seed=5), ["hound-1", "sentry-1", "byte"]


def run(pipeline: VisionPipeline, frames: list[np.ndarray]) -> list[tuple[int, UnitSighted]]:
    out = []
    for k, grey in enumerate(frames):
        out += [(k, e) for e in pipeline.process(grey, k / FPS).events if isinstance(e, UnitSighted)]
    return out


def test_searching_where_it_changed_sees_the_same_moves_as_searching_every_frame(floor, config, play):
    frames, movers = play
    full = VisionPipeline(floor, replace(config, change=ChangeSettings(enabled=False)))
    changed = VisionPipeline(floor, config)
    expected, seen = run(full, frames), run(changed, frames)
    moves = [e for _, e in expected if e.from_space is not None]
    assert [e.unit for e in moves] == movers  # the sequence does move these three, and full detection sees them
    assert [e for _, e in seen] == [e for _, e in expected]  # 0 missed, 0 false, 0 wrong spaces or facings
    # confirmed within a frame or two of full detection (a window's read may differ by a frame's noise)
    assert all(abs(a - b) <= 2 for (a, _), (b, _) in zip(seen, expected))
    assert changed.observation.placed() == full.observation.placed()
    s = changed.searches
    assert s["still"] >= 25 and s["changed"] > 0 and s["whole"] >= 2  # the start and the light coming on


def test_still_frames_search_nothing_and_keep_the_units_seen(floor, config, play):
    frames, _ = play
    pipeline = VisionPipeline(floor, config)
    for k, grey in enumerate(frames[:12]):
        result = pipeline.process(grey, k / FPS)
    assert pipeline.searches == {"whole": 1, "changed": 0, "still": 11}
    assert result.observation.status.ok
    assert all(u.seen for u in result.observation.units.values() if u.space is not None)
    assert len(result.observation.placed()) == 16


def test_the_whole_frame_is_searched_every_few_seconds(floor, config, play):
    frames, _ = play
    pipeline = VisionPipeline(floor, replace(config, change=ChangeSettings(full_search_seconds=0.2)))
    for k in range(12):
        pipeline.process(frames[k], k / FPS)
    assert pipeline.searches["whole"] == 2  # at 0 s and at 0.2 s


def test_a_camera_failure_makes_the_next_frame_a_whole_search(floor, config, play):
    from vision.status import Status

    frames, _ = play
    pipeline = VisionPipeline(floor, config)
    pipeline.process(frames[0], 0.0)
    pipeline.process_failure(Status("error", "timeout", "no frame"), 0.05)
    pipeline.process(frames[1], 0.1)
    assert pipeline.searches["whole"] == 2


SIZE = (640, 360)
SETTINGS = ChangeSettings()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, SIZE[0] - 1), st.integers(0, SIZE[1] - 1), st.integers(1, 60),
                          st.integers(1, 60), st.integers(-120, 120)), min_size=1, max_size=4),
       st.integers(0, 2**16))
def test_every_changed_pixel_is_searched_with_a_markers_pad_around_it(patches, seed):
    """Whatever changes (patches of any size and contrast, over noise), a marker read at any pixel that changed by
    more than the threshold is no longer trusted there, and that pixel lies in a window that holds the pad all
    round it, in the frame that changed and while the picture settles; unchanged noise asks for nothing."""
    g = np.random.default_rng(seed)
    base = g.integers(60, 200, (SIZE[1], SIZE[0])).astype(np.float32)
    detector = ChangeDetector(SETTINGS, chip_px=40.0, marker_px=30.0)

    def film(picture: np.ndarray) -> np.ndarray:
        return np.clip(picture + g.normal(0, NOISE_SIGMA, picture.shape), 0, 255).astype(np.uint8)

    first = film(base)
    assert detector.look(first, 0.0).full
    assert detector.look(film(base), 0.04).still
    after = base.copy()
    for x, y, w, h, delta in patches:
        after[y:y + h, x:x + w] += delta
    frame = film(after)
    moving = detector.look(frame, 0.08)
    if moving.full:  # most of the picture changed at once: a whole search covers everything
        return
    settled = [moving] + [detector.look(film(after), 0.08 + 0.04 * k) for k in range(1, 4)]
    step = SETTINGS.sample_px
    diff = np.abs(frame[::step, ::step].astype(np.int16) - first[::step, ::step].astype(np.int16))
    for sy, sx in zip(*np.nonzero(diff > SETTINGS.threshold)):
        x, y = sx * step, sy * step
        assert moving.is_stale(x, y, detector.cell_px)
        for look in settled:
            k = look.window_of(x, y, detector.cell_px)
            assert k >= 0, f"pixel ({x}, {y}) changed and is in no window"
            x0, y0, x1, y1 = look.windows[k]
            assert x0 <= max(0, x - detector.pad_px) and y0 <= max(0, y - detector.pad_px)
            assert x1 >= min(SIZE[0], x + detector.pad_px) and y1 >= min(SIZE[1], y + detector.pad_px)


def test_windows_of_many_sizes_keep_a_bounded_number_of_detectors(config):
    """Each window size has its own detector (the perimeter limits follow the size); a long game asks for
    thousands of sizes, and the detectors kept must not grow with it."""
    from vision.detect import DETECTORS_KEPT, MarkerDetector

    detector = MarkerDetector(config)
    for k in range(3 * DETECTORS_KEPT):
        detector.detect(np.zeros((64 + k, 96), np.uint8))
    assert len(detector._by_size) <= DETECTORS_KEPT
