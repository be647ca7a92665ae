"""Lens calibration: intrinsics and distortion, stored as JSON, applied to marker corners.

Correcting the handful of detected corner points (not the whole image) keeps calibration nearly free per
frame: the homography is solved on undistorted points, so wide-angle barrel distortion no longer bends
the grid toward the board's edges.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

# OpenCV's default of 5 iterations leaves ~0.1 px at a wide lens's corners; 20 converge to 0.01 px.
UNDISTORT_CRITERIA = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 20, 1e-8)


@dataclass(frozen=True)
class CameraCalibration:
    camera_matrix: np.ndarray   # 3x3
    distortion: np.ndarray      # 1xN (k1, k2, p1, p2, k3, ...)
    image_size: tuple[int, int]  # (width, height) the calibration was made at
    rms_px: float = 0.0

    def undistort_points(self, points: np.ndarray) -> np.ndarray:
        """Image points (N, 2) as an ideal pinhole camera with the same matrix would have seen them."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        out = cv2.undistortPoints(pts, self.camera_matrix, self.distortion, P=self.camera_matrix,
                                  criteria=UNDISTORT_CRITERIA)
        return out.reshape(-1, 2)

    def distort_points(self, points: np.ndarray) -> np.ndarray:
        """The inverse of undistort_points: where ideal pinhole points land in the real image (overlays)."""
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        k_inv = np.linalg.inv(self.camera_matrix)
        norm = (np.column_stack([pts, np.ones(len(pts))]) @ k_inv.T)[:, :2]
        obj = np.column_stack([norm, np.ones(len(pts))]).reshape(-1, 1, 3)
        out, _ = cv2.projectPoints(obj, np.zeros(3), np.zeros(3), self.camera_matrix, self.distortion)
        return out.reshape(-1, 2)

    def to_json(self) -> str:
        return json.dumps({
            "camera_matrix": self.camera_matrix.tolist(),
            "distortion": np.asarray(self.distortion).ravel().tolist(),
            "image_size": list(self.image_size),
            "rms_px": self.rms_px,
        }, indent=2)

    @classmethod
    def from_json(cls, text: str) -> CameraCalibration:
        data = json.loads(text)
        return cls(np.array(data["camera_matrix"], np.float64), np.array([data["distortion"]], np.float64),
                   (int(data["image_size"][0]), int(data["image_size"][1])), float(data.get("rms_px", 0.0)))

    @classmethod
    def load(cls, path: str | Path) -> CameraCalibration:
        return cls.from_json(Path(path).read_text(encoding="utf-8"))
