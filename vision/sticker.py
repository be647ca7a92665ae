"""The chip sticker as printed and as rendered: a white disc with the marker in the middle and, on guards,
a black triangle at the front, outside the marker's quiet zone.

One layout serves the printed sheet (`vision/printable.py`) and the synthetic renderer
(`vision/synth/board.py`), so the stickers the tests read are the stickers a venue prints. OpenCV finds a
marker by its black border against white, so the marker needs one cell of white all round (its quiet
zone): on a disc that holds where the quiet zone is farthest out, one cell beyond the marker's corners.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # config.py checks every config's sticker with this module
    from vision.config import VisionConfig

FRONT_GAP_MM = 0.5      # white between the quiet zone and the front triangle
FRONT_HEIGHT_MM = 2.5
FRONT_HALF_BASE_MM = 2.0
EDGE_MM = 0.5           # white between the triangle's tip and the cut line, for a cut a little off


@dataclass(frozen=True)
class StickerLayout:
    """Distances from the sticker's centre, in mm."""

    disc_mm: float          # the sticker's diameter: the cut line
    marker_mm: float        # the black square, border included
    cell_mm: float          # one marker cell: the quiet zone's width
    front_base_mm: float    # the triangle's base, above the marker's top edge (toward the chip's front)
    front_tip_mm: float
    front_half_base_mm: float = FRONT_HALF_BASE_MM

    @property
    def quiet_reach_mm(self) -> float:
        """How far from the centre the quiet zone reaches: one cell beyond a marker corner."""
        return self.marker_mm / 2 * math.sqrt(2) + self.cell_mm


def sticker_layout(config: VisionConfig) -> StickerLayout:
    b = config.board
    cell = b.marker_mm / config.marker_cells
    base = b.marker_mm / 2 + cell + FRONT_GAP_MM
    return StickerLayout(b.sticker_mm, b.marker_mm, cell, base, base + FRONT_HEIGHT_MM)


def sticker_problem(config: VisionConfig) -> str | None:
    """Why this config's sticker cannot hold its marker's quiet zone and front mark, or None when it can."""
    s = sticker_layout(config)
    radius = s.disc_mm / 2
    if s.quiet_reach_mm > radius:
        return (f"a {s.marker_mm:g} mm marker needs {s.quiet_reach_mm * 2:.1f} mm of sticker for its quiet zone of one "
                f"{s.cell_mm:.1f} mm cell at the corners, the sticker is {s.disc_mm:g} mm: use a smaller marker_mm")
    if s.front_tip_mm + EDGE_MM > radius or s.disc_mm > config.board.chip_mm:
        return (f"the front triangle reaches {s.front_tip_mm:.1f} mm from the centre and the sticker is "
                f"{s.disc_mm:g} mm "
                f"on a {config.board.chip_mm:g} mm chip: the sticker must hold the triangle and fit the chip")
    return None
