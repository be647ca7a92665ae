"""Top-down drawing of the table: floor grid, walls, doors, voids, registration markers and chips.

The static floor is drawn once per floor and copied per frame; only chips are drawn each time. Stickers
are real markers of the configured dictionary (`generateImageMarker`), so detection on the rendered frame
exercises exactly what a printed sheet would.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from controller.rules.board.geometry import Floor
from vision.config import DICTIONARIES, VisionConfig
from vision.sticker import sticker_layout
from vision.synth.scene import Scene
from vision.table_layout import TableLayout

TABLE = (70, 85, 95)
SPACE = (205, 210, 210)
VOID = (45, 45, 50)
GRID = (150, 150, 150)
WALL = (25, 25, 30)
DOOR = (40, 110, 190)
CHIP_COLOURS = {"bot": (170, 150, 40), "captain": (120, 40, 130), 1: (160, 90, 30), 2: (40, 180, 210),
                3: (40, 40, 180)}


def marker_image(config: VisionConfig, marker: int, side_px: int) -> np.ndarray:
    """The black marker square (border included), `side_px` wide, grey."""
    d = cv2.aruco.getPredefinedDictionary(DICTIONARIES[config.dictionary])
    return cv2.aruco.generateImageMarker(d, marker, side_px, borderBits=1)


def marker_cells(config: VisionConfig) -> int:
    """Cells across a marker, border included (6 for 4x4, 8 for AprilTag 36h11)."""
    return config.marker_cells


class BoardRenderer:
    def __init__(self, floor: Floor, config: VisionConfig, px_per_mm: float = 3.0) -> None:
        self.floor, self.config, self.ppm = floor, config, px_per_mm
        self.layout = TableLayout.for_floor(floor, config.board)
        x0, y0, x1, y1 = self.layout.extent_mm()
        self.origin_mm = (x0, y0)
        self.size = (int(math.ceil((x1 - x0) * px_per_mm)), int(math.ceil((y1 - y0) * px_per_mm)))
        self._units = {u.id: u for u in config.units}
        self._stickers: dict[tuple[int, bool], tuple[np.ndarray, np.ndarray]] = {}
        self.background = self._draw_floor()

    def px(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        return (x_mm - self.origin_mm[0]) * self.ppm, (y_mm - self.origin_mm[1]) * self.ppm

    def mm_to_px_matrix(self) -> np.ndarray:
        """3x3 affine: table mm -> board image px."""
        return np.array([[self.ppm, 0, -self.origin_mm[0] * self.ppm], [0, self.ppm, -self.origin_mm[1] * self.ppm],
                         [0, 0, 1]], np.float64)

    def _pt(self, x_mm: float, y_mm: float) -> tuple[int, int]:
        x, y = self.px(x_mm, y_mm)
        return int(round(x)), int(round(y))

    def _draw_floor(self) -> np.ndarray:
        img = np.full((self.size[1], self.size[0], 3), TABLE, np.uint8)
        p = self.config.board.space_mm
        cv2.rectangle(img, self._pt(0, 0), self._pt(self.layout.width_mm, self.layout.height_mm), VOID, -1)
        for r, c in self.floor.coords:
            cv2.rectangle(img, self._pt(c * p, r * p), self._pt((c + 1) * p, (r + 1) * p), SPACE, -1)
            cv2.rectangle(img, self._pt(c * p, r * p), self._pt((c + 1) * p, (r + 1) * p), GRID, 1)
        thick = max(2, int(round(3.0 * self.ppm)))
        for (i, j), kind in self.floor.edges.items():
            if kind == "open":
                continue
            r1, (r2, c2) = self.floor.coords[i][0], self.floor.coords[j]
            a, b = (((c2 * p, r2 * p), (c2 * p, (r2 + 1) * p)) if r1 == r2
                    else ((c2 * p, r2 * p), ((c2 + 1) * p, r2 * p)))
            cv2.line(img, self._pt(*a), self._pt(*b), WALL if kind == "wall" else DOOR, thick)
        for i in range(len(self.floor.ids)):  # the grid's outline is a wall wherever a space meets the outside
            r, c = self.floor.coords[i]
            for d, (a, b) in {"N": ((c, r), (c + 1, r)), "S": ((c, r + 1), (c + 1, r + 1)),
                              "W": ((c, r), (c, r + 1)), "E": ((c + 1, r), (c + 1, r + 1))}.items():
                if d not in self.floor.neighbour[i]:
                    cv2.line(img, self._pt(a[0] * p, a[1] * p), self._pt(b[0] * p, b[1] * p), WALL, thick)
        for k in self.config.anchor_ids:
            cx, cy = self.layout.anchor_centre(k)
            self._paste_sticker(img, k, self.config.board.anchor_mm, (cx, cy), 0.0)
        return img

    def _sticker(self, marker: int, side_mm: float, chip: bool, front: bool) -> tuple[np.ndarray, np.ndarray]:
        """A sticker and its mask, upright: on a chip the printed disc (with the front triangle on a guard),
        for a registration marker a white square one cell (its quiet zone) wider than the marker."""
        cached = self._stickers.get((marker, front))
        if cached is not None:
            return cached
        cells = marker_cells(self.config)
        cell_px = max(1, int(round(side_mm * self.ppm / cells)))
        m = marker_image(self.config, marker, cell_px * cells)
        if not chip:
            sticker = cv2.copyMakeBorder(m, cell_px, cell_px, cell_px, cell_px, cv2.BORDER_CONSTANT, value=255)
            mask = np.full(sticker.shape, 255, np.uint8)
        else:
            layout = sticker_layout(self.config)
            s = int(math.ceil(layout.disc_mm * self.ppm)) | 1
            c, r = s / 2, layout.disc_mm / 2 * self.ppm
            sticker, mask = np.full((s, s), 255, np.uint8), np.zeros((s, s), np.uint8)
            cv2.circle(mask, (s // 2, s // 2), int(round(r)), 255, -1, cv2.LINE_AA)
            o = int(round(c - m.shape[0] / 2))
            sticker[o:o + m.shape[0], o:o + m.shape[0]] = m
            if front:  # toward the marker's top edge, as printed
                k = self.ppm
                tri = np.array([[c - layout.front_half_base_mm * k, c - layout.front_base_mm * k],
                                [c + layout.front_half_base_mm * k, c - layout.front_base_mm * k],
                                [c, c - layout.front_tip_mm * k]])
                cv2.fillConvexPoly(sticker, tri.round().astype(np.int32), 0, cv2.LINE_AA)
        out = (cv2.cvtColor(sticker, cv2.COLOR_GRAY2BGR), mask)
        self._stickers[(marker, front)] = out
        return out

    def _paste_sticker(self, img: np.ndarray, marker: int, side_mm: float, centre_mm: tuple[float, float],
                       angle_deg: float, chip: bool = False, front: bool = False) -> None:
        sticker, mask = self._sticker(marker, side_mm, chip, front)
        s = sticker.shape[0]
        span = int(math.ceil(s * 1.5)) | 1
        cx, cy = self.px(*centre_mm)
        x0, y0 = int(round(cx)) - span // 2, int(round(cy)) - span // 2
        # rotate clockwise by angle about the sticker's centre, landing it at the exact sub-pixel centre
        rot = cv2.getRotationMatrix2D((s / 2, s / 2), -angle_deg, 1.0)
        rot[:, 2] += (cx - x0 - s / 2, cy - y0 - s / 2)
        patch = cv2.warpAffine(sticker, rot, (span, span), flags=cv2.INTER_LINEAR)
        alpha = cv2.warpAffine(mask, rot, (span, span), flags=cv2.INTER_LINEAR)
        _blend(img, patch, alpha, x0, y0)

    def render(self, scene: Scene) -> np.ndarray:
        img = self.background.copy()
        radius = int(round(self.config.board.chip_mm / 2 * self.ppm))
        sticker_mm = self.config.board.marker_mm
        for pl in scene.placements:
            unit = self._units[pl.unit]
            r, c = self.floor.coords[self.floor.index[pl.space]]
            x, y = self.layout.space_centre(r, c)
            x, y = x + pl.offset_mm[0], y + pl.offset_mm[1]
            colour = CHIP_COLOURS[unit.level if unit.kind == "guard" else unit.kind]
            centre = self._pt(x, y)
            cv2.circle(img, centre, radius, (30, 30, 30), -1, cv2.LINE_AA)
            cv2.circle(img, centre, radius - max(1, int(2 * self.ppm)), colour, -1, cv2.LINE_AA)
            self._paste_sticker(img, self.config.marker_of(pl.unit), sticker_mm, (x, y), pl.angle_deg, chip=True,
                                front=unit.has_facing)
        return img


def _blend(img: np.ndarray, patch: np.ndarray, alpha: np.ndarray, x0: int, y0: int) -> None:
    h, w = alpha.shape
    ys, xs = slice(max(0, y0), min(img.shape[0], y0 + h)), slice(max(0, x0), min(img.shape[1], x0 + w))
    py, px = slice(ys.start - y0, ys.stop - y0), slice(xs.start - x0, xs.stop - x0)
    a = alpha[py, px, None].astype(np.float32) / 255.0
    region = img[ys, xs].astype(np.float32)
    img[ys, xs] = (patch[py, px].astype(np.float32) * a + region * (1 - a)).astype(np.uint8)
