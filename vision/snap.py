"""Grid snapping: a marker's table position and rotation -> a floor space and a facing, or a doubt.

A chip resting between two spaces, on a wall, or off the floor is reported as doubtful with the spaces it
touches, never rounded to the nearest one: the filter will not move a unit on a doubtful sighting, and
the players are asked instead.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from controller.rules.board.floor_text import space_name
from controller.rules.board.geometry import Floor
from vision.config import UnitSpec, VisionConfig

FACINGS = ("N", "E", "S", "W")


@dataclass(frozen=True)
class Sighting:
    """One unit marker seen in one frame, placed on the floor."""

    unit: str
    marker: int
    space: str | None          # the space it stands in; None when doubtful off the floor
    facing: str | None         # None for bots, or when the rotation is between two directions
    confidence: float          # 1.0 = centred and square to the grid; 0.0 = on a boundary
    doubt: str | None          # why this sighting must not move the unit, in words
    candidates: tuple[str, ...]  # the spaces it touches (one when clean)
    table_mm: tuple[float, float]
    image_px: tuple[float, float]
    angle_deg: float           # marker rotation in the table frame, 0 = top edge to the north, clockwise

    def to_dict(self) -> dict[str, object]:
        return {"unit": self.unit, "marker": self.marker, "space": self.space, "facing": self.facing,
                "confidence": round(self.confidence, 3), "doubt": self.doubt, "candidates": list(self.candidates),
                "table_mm": [round(v, 1) for v in self.table_mm], "image_px": [round(v, 1) for v in self.image_px]}


class GridSnapper:
    def __init__(self, floor: Floor, config: VisionConfig) -> None:
        self.floor = floor
        self.config = config
        self.pitch = config.board.space_mm
        self._at = {rc: i for i, rc in enumerate(floor.coords)}

    def snap(self, unit: UnitSpec, marker: int, corners_mm: np.ndarray, image_px: tuple[float, float]) -> Sighting:
        cx, cy = (float(v) for v in corners_mm.mean(axis=0))
        top = (corners_mm[0] + corners_mm[1]) / 2
        angle = math.degrees(math.atan2(top[0] - cx, -(top[1] - cy))) % 360.0
        u, v = cx / self.pitch, cy / self.pitch
        col, row = math.floor(u), math.floor(v)
        dx, dy = u - col - 0.5, v - row - 0.5
        limit = self.config.doubt_offset
        offset = max(abs(dx), abs(dy))
        touched = self._touched(row, col, dx, dy, limit)
        names = tuple(space_name(r, c) for r, c in touched if (r, c) in self._at)
        doubt: str | None = None
        space: str | None = None
        if (row, col) not in self._at:
            doubt = "off the floor" if not names else f"off the floor, next to {', '.join(names)}"
        elif len(touched) > 1:
            doubt = self._between(row, col, touched)
            space = space_name(row, col)
        else:
            space = space_name(row, col)
        facing, angle_err = self._facing(unit, angle)
        if unit.has_facing and facing is None and doubt is None:
            doubt = f"facing unclear ({angle:.0f} degrees, between two directions)"
        confidence = max(0.0, 1.0 - max(offset / 0.5, angle_err / 45.0 if unit.has_facing else 0.0))
        if doubt is not None:
            confidence = min(confidence, 0.5)
        return Sighting(unit.id, marker, space, facing, confidence, doubt, names, (cx, cy), image_px, angle)

    def _touched(self, row: int, col: int, dx: float, dy: float, limit: float) -> list[tuple[int, int]]:
        """The cell itself plus the neighbours the chip leans into past the tolerance."""
        rs = [row] + ([row + (1 if dy > 0 else -1)] if abs(dy) > limit else [])
        cs = [col] + ([col + (1 if dx > 0 else -1)] if abs(dx) > limit else [])
        return [(r, c) for r in rs for c in cs]

    def _between(self, row: int, col: int, touched: list[tuple[int, int]]) -> str:
        here = self._at[(row, col)]
        kinds = set()
        for rc in touched[1:]:
            other = self._at.get(rc)
            if other is None:
                kinds.add("void")
            else:
                kinds.add(self.floor.edge_between(here, other) or "corner")
        names = [space_name(r, c) for r, c in touched]
        if "wall" in kinds:
            return f"on the wall between {' and '.join(names)}"
        if "void" in kinds:
            return f"at the floor's edge by {names[0]}"
        return f"between {' and '.join(names)}"

    def _facing(self, unit: UnitSpec, angle: float) -> tuple[str | None, float]:
        if not unit.has_facing:
            return None, 0.0
        k = int(round(angle / 90.0)) % 4
        err = abs((angle - 90.0 * k + 180.0) % 360.0 - 180.0)
        if err > self.config.doubt_angle_deg:
            return None, err
        return FACINGS[k], err
