"""An overlay a person can check at a glance: the floor grid as vision sees it, each unit, its facing, doubts.

Green is a clean reading, red a doubt, magenta a marker the config does not know; the status line at the
top says whether the board is registered.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.pipeline import FrameResult, VisionPipeline

GREEN, RED, MAGENTA, CYAN, YELLOW = (60, 200, 60), (40, 40, 230), (220, 60, 220), (220, 200, 40), (40, 220, 240)
ARROWS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def annotate(image: np.ndarray, result: FrameResult, pipeline: VisionPipeline) -> np.ndarray:
    out = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR) if image.ndim == 2 else image.copy()
    reg = result.registration
    pitch = pipeline.config.board.space_mm
    calibration = pipeline.registrar.calibration

    def to_image(points_mm: np.ndarray) -> np.ndarray:
        assert reg is not None
        ideal = reg.to_image(points_mm)
        return ideal if calibration is None else calibration.distort_points(ideal)

    if reg is not None and reg.homography is not None:
        for r, c in pipeline.floor.coords:
            quad = np.array([[c, r], [c + 1, r], [c + 1, r + 1], [c, r + 1]], np.float64) * pitch
            pts = to_image(quad).round().astype(np.int32)
            cv2.polylines(out, [pts], True, CYAN, 1, cv2.LINE_AA)
    for d in result.detections:
        if d.id in pipeline.config.anchor_ids:
            cv2.polylines(out, [d.corners.round().astype(np.int32)], True, YELLOW, 2, cv2.LINE_AA)
    for s in result.reading.sightings:
        colour = GREEN if s.doubt is None else RED
        x, y = (int(round(v)) for v in s.image_px)
        cv2.circle(out, (x, y), 14, colour, 2, cv2.LINE_AA)
        label = f"{s.unit} {s.space or '?'}" + (f" {s.facing}" if s.facing else "")
        if s.facing and reg is not None and reg.homography is not None:
            dx, dy = ARROWS[s.facing]
            tip = to_image(np.array([[s.table_mm[0] + dx * pitch * 0.6, s.table_mm[1] + dy * pitch * 0.6]]))[0]
            cv2.arrowedLine(out, (x, y), (int(tip[0]), int(tip[1])), colour, 2, cv2.LINE_AA, tipLength=0.3)
        put_text(out, label, (x + 16, y - 4), colour)
        if s.doubt:
            put_text(out, s.doubt, (x + 16, y + 14), RED)
    for m in result.reading.unknown:
        x, y = (int(round(v)) for v in m.image_px)
        cv2.drawMarker(out, (x, y), MAGENTA, cv2.MARKER_TILTED_CROSS, 20, 2)
        put_text(out, f"unknown marker {m.marker}", (x + 12, y), MAGENTA)
    status = result.reading.status
    put_text(out, f"{status.level}: {status.message}", (10, 28), GREEN if status.ok else RED, scale=0.7)
    return out


def put_text(img: np.ndarray, text: str, at: tuple[int, int], colour: tuple[int, int, int], scale: float = 0.5) -> None:
    """Text on a dark box: readable over the light floor and the dark table alike."""
    (w, h), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
    x, y = at
    cv2.rectangle(img, (x - 2, y - h - 3), (x + w + 2, y + base + 1), (20, 20, 20), -1)
    cv2.putText(img, text, at, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 1, cv2.LINE_AA)
