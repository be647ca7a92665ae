"""The missions the auto-player plays with its own rules only: Data Heist and the tower run."""

from __future__ import annotations

from controller.autoplay.missions.strategy import StandardPlay


class DataHeist(StandardPlay):
    """Data Heist: terminals, then a safe zone; the auto-player's rules were measured on it first."""


class TowerRun(StandardPlay):
    """The tower run: each floor's objectives (terminals), then up the stairwells, then the last floor's
    calibration and the escape; its floor changes and escapes are the auto-player's own rules."""
