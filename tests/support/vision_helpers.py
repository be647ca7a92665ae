"""Constants and helpers shared by the vision tests (conftest.py holds the fixtures)."""

from __future__ import annotations

import numpy as np

from vision.synth import CameraPose

HD = (1920, 1080)
POSE = CameraPose(tilt_deg=20.0, azimuth_deg=60.0, roll_deg=4.0, fill=0.9, hfov_deg=66.0, k1=-0.04)


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)
