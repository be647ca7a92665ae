"""Where things are on the table, in millimetres, for one floor.

The table frame has its origin at the north-west corner of space A1, x growing east (columns) and y
growing south (rows), so a space's centre is ((col + 0.5) * pitch, (row + 0.5) * pitch). Registration
markers sit just outside the grid; their corners in this frame are what the homography is solved against.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from controller.rules.board.geometry import Floor
from vision.config import ANCHOR_PLACES, BoardGeometry


@dataclass(frozen=True)
class TableLayout:
    rows: int
    cols: int
    geometry: BoardGeometry

    @classmethod
    def for_floor(cls, floor: Floor, geometry: BoardGeometry) -> TableLayout:
        return cls(floor.rows, floor.cols, geometry)

    @property
    def width_mm(self) -> float:
        return self.cols * self.geometry.space_mm

    @property
    def height_mm(self) -> float:
        return self.rows * self.geometry.space_mm

    def anchor_centre(self, index: int) -> tuple[float, float]:
        """Centre of registration marker `index`, pushed outward from the grid by the anchor offset."""
        _, fx, fy = ANCHOR_PLACES[index]
        off = self.geometry.anchor_offset_mm
        x = fx * self.width_mm + (off if fx == 1.0 else -off if fx == 0.0 else 0.0)
        y = fy * self.height_mm + (off if fy == 1.0 else -off if fy == 0.0 else 0.0)
        return x, y

    def anchor_corners(self, index: int) -> np.ndarray:
        """The 4 corners (ArUco order: TL, TR, BR, BL) of an upright registration marker, in mm."""
        cx, cy = self.anchor_centre(index)
        h = self.geometry.anchor_mm / 2
        return np.array([[cx - h, cy - h], [cx + h, cy - h], [cx + h, cy + h], [cx - h, cy + h]], np.float64)

    def extent_mm(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of everything printed on the table: grid plus registration markers."""
        reach = self.geometry.anchor_offset_mm + self.geometry.anchor_mm / 2 + 4.0
        return -reach, -reach, self.width_mm + reach, self.height_mm + reach

    def space_centre(self, row: int, col: int) -> tuple[float, float]:
        p = self.geometry.space_mm
        return (col + 0.5) * p, (row + 0.5) * p
