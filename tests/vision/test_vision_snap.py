"""Grid snapping as a property: inside the tolerance a chip is in its space, past it the reading is a doubt."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from controller.library import load_floor
from vision.config import VisionConfig
from vision.snap import FACINGS, GridSnapper

FLOOR = load_floor("meridian-lobby")
CONFIG = VisionConfig()
SNAPPER = GridSnapper(FLOOR, CONFIG)
GUARD = next(u for u in CONFIG.units if u.kind == "guard")
PITCH, SIDE = CONFIG.board.space_mm, CONFIG.board.marker_mm


def corners(x: float, y: float, angle_deg: float) -> np.ndarray:
    """A marker's corners (TL, TR, BR, BL as printed) centred at (x, y), turned clockwise by angle_deg."""
    a = math.radians(angle_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    h = SIDE / 2
    return np.array([[-h, -h], [h, -h], [h, h], [-h, h]]) @ rot.T + (x, y)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.integers(0, len(FLOOR.ids) - 1), st.floats(-0.49, 0.49), st.floats(-0.49, 0.49), st.integers(0, 3),
       st.floats(-44, 44))
def test_snapping_tolerances(i, dx, dy, k, twist):
    offset = max(abs(dx), abs(dy))
    assume(abs(offset - CONFIG.doubt_offset) > 1e-6 and abs(abs(twist) - CONFIG.doubt_angle_deg) > 1e-6)
    r, c = FLOOR.coords[i]
    x, y = (c + 0.5 + dx) * PITCH, (r + 0.5 + dy) * PITCH
    s = SNAPPER.snap(GUARD, 20, corners(x, y, 90 * k + twist), (0.0, 0.0))
    inside = offset <= CONFIG.doubt_offset
    square = abs(twist) <= CONFIG.doubt_angle_deg
    if inside and square:
        assert s.doubt is None and s.space == FLOOR.ids[i] and s.facing == FACINGS[k]
    else:
        assert s.doubt is not None
        if not inside:
            assert FLOOR.ids[i] in s.candidates and len(s.candidates) >= 1
    assert 0.0 <= s.confidence <= 1.0


def test_a_chip_beside_the_grid_is_off_the_floor():
    s = SNAPPER.snap(GUARD, 20, corners(-0.5 * PITCH, 3.5 * PITCH, 0.0), (0.0, 0.0))  # left of A4
    assert s.space is None and s.doubt == "off the floor"
    s = SNAPPER.snap(GUARD, 20, corners(-0.1 * PITCH, 3.5 * PITCH, 0.0), (0.0, 0.0))  # just over A4's west edge
    assert s.space is None and s.doubt == "off the floor, next to A4"
