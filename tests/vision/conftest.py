"""Shared fixtures for the vision tests: a shipped floor, the default config, a renderer, a scene.

Every test renders real frames and runs real OpenCV detection on them; randomness is always seeded.
"""

from __future__ import annotations

import pytest

from controller.library import load_floor
from vision.config import VisionConfig
from vision.synth import Placement, Renderer, Scene


@pytest.fixture(scope="session")
def floor():
    return load_floor("meridian-lobby")


@pytest.fixture(scope="session")
def config() -> VisionConfig:
    return VisionConfig()


@pytest.fixture(scope="session")
def renderer(floor, config) -> Renderer:
    return Renderer(floor, config)


@pytest.fixture(scope="session")
def scene(floor) -> Scene:
    """Four bots and twelve guards spread over the lobby, squarely placed, guards facing every way."""
    spaces = ["B2", "H3", "O2", "C9", "E5", "J6", "P7", "S4", "D12", "I11", "M13", "R12", "F15", "K16", "Q15", "T9"]
    units = ["module", "byte", "bit", "nano", "sentry-1", "rover-2", "tracker-1", "walker-1", "pacer-2", "hound-1",
             "sweeper-2", "enforcer-1", "warden-2", "marcher-1", "captain", "hound-2"]
    facings = "NESW"
    return Scene(tuple(Placement(u, s, facings[k % 4]) for k, (u, s) in enumerate(zip(units, spaces))))
