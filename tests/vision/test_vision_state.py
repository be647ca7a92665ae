"""From a real game state to a rendered table and back: what vision reads is what the state says."""

from __future__ import annotations

import numpy as np

from controller.library import floor_text, load_content, load_floor
from controller.rules import GameSetup, new_game
from tests.support.vision_helpers import HD, POSE
from vision.calibration import CameraCalibration
from vision.pipeline import VisionPipeline
from vision.roster import chips_for_state
from vision.synth import Renderer, scene_from_state


def test_a_new_game_reads_back_as_its_state(config):
    text, source = floor_text("meridian-labs")
    state = new_game(load_content(), GameSetup(floor=source, floor_text=text, players=4, seed=1))
    floor = load_floor("meridian-labs")
    chips = chips_for_state(state, config)
    assert len(chips) == len(state.bots) + len(state.security)
    scene = scene_from_state(state, config)
    pipeline = VisionPipeline(floor, config)
    frame = Renderer(floor, config).render(scene, POSE, HD)
    for k in range(6):
        pipeline.process(frame.grey, k / 15)
    placed = pipeline.observation.placed()
    for bot in state.bots:
        assert placed[chips[bot.id]] == (bot.space, None)
    for unit in state.security:
        assert placed[chips[unit.id]] == (unit.space, unit.facing)
    assert len(placed) == len(chips)


def test_calibration_round_trip_of_points():
    k = np.array([[1000.0, 0, 960], [0, 1000.0, 540], [0, 0, 1]])
    calib = CameraCalibration(k, np.array([[-0.2, 0.05, 0, 0, 0]]), HD)
    pts = np.array([[100.0, 80.0], [960.0, 540.0], [1800.0, 1000.0]])
    assert np.allclose(calib.undistort_points(calib.distort_points(pts)), pts, atol=0.05)
    assert not np.allclose(calib.distort_points(pts)[0], pts[0], atol=1.0)
    again = CameraCalibration.from_json(calib.to_json())
    assert np.allclose(again.camera_matrix, k) and again.image_size == HD
