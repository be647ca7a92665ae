"""Finding the board for the calibration flow: which registration markers one picture shows, where to look for
the others, the grid laid over the picture for a person to check, and the mat straightened to a top-down view.

The per-frame pipeline holds a good registration for a while when markers are covered; calibration must not:
it asks "what does this picture show now", so each call registers afresh from the picture alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from controller.rules.board.floor_text import space_name
from vision.annotate import CYAN, GREEN, RED, YELLOW, put_text
from vision.calibration import CameraCalibration
from vision.config import ANCHOR_PLACES, VisionConfig
from vision.detect import MarkerDetection, MarkerDetector
from vision.register import Registrar, Registration
from vision.table_layout import TableLayout

PLACE_WORDS = {"top-left": "the board's top-left corner", "top-right": "the board's top-right corner",
               "bottom-right": "the board's bottom-right corner", "bottom-left": "the board's bottom-left corner",
               "top": "the middle of the board's top side", "right": "the middle of the board's right side",
               "bottom": "the middle of the board's bottom side", "left": "the middle of the board's left side"}


@dataclass(frozen=True)
class MissingMarker:
    id: int
    name: str
    advice: str                                  # where to look, for a person
    expected_px: tuple[float, float] | None      # where the registration puts it in the picture, when it can


@dataclass(frozen=True)
class BoardFinding:
    """What one picture shows of the board: the registration markers found and missing, and the registration
    they give (its homography is None when they do not register the board)."""

    found: tuple[MarkerDetection, ...]
    missing: tuple[MissingMarker, ...]
    registration: Registration
    image_size: tuple[int, int]                  # (width, height)
    layout: TableLayout

    @property
    def registered(self) -> bool:
        return self.registration.homography is not None


def _place(name: str, layout: TableLayout) -> str:
    """Where a marker belongs, by the board's own spaces (the camera may see the board turned round)."""
    last_row, last_col, mid_row, mid_col = layout.rows - 1, layout.cols - 1, layout.rows // 2, layout.cols // 2
    beside = {"top-left": (0, 0), "top-right": (0, last_col), "bottom-right": (last_row, last_col),
              "bottom-left": (last_row, 0), "top": (0, mid_col), "right": (mid_row, last_col),
              "bottom": (last_row, mid_col), "left": (mid_row, 0)}
    where = PLACE_WORDS.get(name, name)
    return f"{where} (beside space {space_name(*beside[name])})" if name in beside else where


def _edge_words(x: float, y: float, size: tuple[int, int]) -> str:
    w, h = size
    sides = [word for word, out in (("left", x < 0), ("right", x >= w), ("top", y < 0), ("bottom", y >= h)) if out]
    return " and ".join(sides)


def find_board(grey: np.ndarray, config: VisionConfig, layout: TableLayout,
               calibration: CameraCalibration | None = None) -> BoardFinding:
    """The registration markers in `grey` and the registration they give for `layout`, from this picture alone."""
    detections = MarkerDetector(config).detect(grey)
    names = config.anchor_ids
    anchors = [d for d in detections if d.id in names]
    registrar = Registrar(config, layout, calibration)
    reg = registrar.register(anchors, 0.0)
    seen = {d.id for d in anchors}
    size = (int(grey.shape[1]), int(grey.shape[0]))
    missing = []
    for i, name in names.items():
        if i in seen:
            continue
        place = _place(name, layout)
        expected = None
        if reg.homography is not None:
            centre = reg.to_image(np.array([layout.anchor_centre(i)]))
            if calibration is not None:
                centre = calibration.distort_points(centre)
            x, y = float(centre[0][0]), float(centre[0][1])
            expected = (x, y)
            off = _edge_words(x, y, size)
            advice = (f"{place} is out of the picture (beyond its {off} edge): move the camera back or aim it at "
                      "the board's middle" if off else
                      f"{place} is in the picture but its marker is not seen there (marked with a red cross): "
                      "uncover it, or stick it down flat where the markers sheet shows")
        else:
            advice = (f"look at {place}, just outside the grid: the marker must be stuck down there, uncovered "
                      "and in the camera's view")
        missing.append(MissingMarker(i, name, advice, expected))
    return BoardFinding(tuple(sorted(anchors, key=lambda d: d.id)), tuple(missing), reg, size, layout)


def finding_overlay(grey: np.ndarray, finding: BoardFinding, config: VisionConfig,
                    calibration: CameraCalibration | None = None) -> np.ndarray:
    """The picture with the markers found (yellow, named), the missing ones' expected places (red crosses) and
    the floor's grid as the registration lays it over the picture (cyan): what a person checks before confirming."""
    out = cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR) if grey.ndim == 2 else grey.copy()
    reg, layout = finding.registration, finding.layout
    if reg.homography is not None:
        pitch = config.board.space_mm

        def to_image(points: np.ndarray) -> np.ndarray:
            ideal = reg.to_image(points)
            return ideal if calibration is None else calibration.distort_points(ideal)

        steps = 8  # each grid line drawn in pieces, so a lens's curve shows in it
        for r in range(layout.rows + 1):
            line = np.array([[c * pitch * layout.cols / steps, r * pitch] for c in range(steps + 1)])
            cv2.polylines(out, [to_image(line).round().astype(np.int32)], False, CYAN, 1, cv2.LINE_AA)
        for c in range(layout.cols + 1):
            line = np.array([[c * pitch, r * pitch * layout.rows / steps] for r in range(steps + 1)])
            cv2.polylines(out, [to_image(line).round().astype(np.int32)], False, CYAN, 1, cv2.LINE_AA)
    names = config.anchor_ids
    for d in finding.found:
        cv2.polylines(out, [d.corners.round().astype(np.int32)], True, YELLOW, 2, cv2.LINE_AA)
        x, y = (int(round(v)) for v in d.centre)
        put_text(out, names[d.id], (x + 14, y), YELLOW)
    for m in finding.missing:
        if m.expected_px is None:
            continue
        x, y = (int(round(v)) for v in m.expected_px)
        cv2.drawMarker(out, (x, y), RED, cv2.MARKER_TILTED_CROSS, 28, 3)
        put_text(out, f"{m.name}: not seen", (x + 16, y), RED)
    status = reg.status
    put_text(out, f"{len(finding.found)} of {len(ANCHOR_PLACES)} markers: {status.message}", (10, 28),
          GREEN if finding.registered else RED, scale=0.6)
    return out


def straighten(grey: np.ndarray, registration: Registration, layout: TableLayout,
               px_per_mm: float = 1.0) -> np.ndarray:
    """The grid's part of the picture seen from straight above: pixel (x, y) is table mm (x, y) * px_per_mm
    from space A1's north-west corner, so it lies under a drawing of the same grid (the floor editor's). A
    backdrop to trace a mat over: a lens's distortion is left in it."""
    assert registration.homography is not None
    scale = np.diag([px_per_mm, px_per_mm, 1.0])
    size = (max(1, int(round(layout.width_mm * px_per_mm))), max(1, int(round(layout.height_mm * px_per_mm))))
    return cv2.warpPerspective(grey, scale @ registration.homography, size, flags=cv2.INTER_AREA,
                               borderValue=40)
