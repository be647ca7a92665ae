"""A virtual pinhole camera above the table: pose, projection and barrel distortion.

The pose is drawn like a real mount: tilted up to 35 degrees from straight down, turned any way around
its axis, at the distance where the board fills a chosen part of the frame. Projection of table mm to
image px is exact (a homography composed with radial distortion), so the ground truth of every chip's
pixel position is known.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class CameraPose:
    tilt_deg: float = 0.0      # away from looking straight down
    azimuth_deg: float = 0.0   # which side of the board the camera leans from
    roll_deg: float = 0.0      # rotation about the optical axis
    fill: float = 0.85         # how much of the frame the board's extent may take
    hfov_deg: float = 66.0     # horizontal field of view (Raspberry Pi Camera Module 3)
    k1: float = 0.0            # radial distortion (negative = barrel)
    distance_mm: float | None = None  # lens to the board's centre; None = as close as `fill` allows


def random_pose(rng: np.random.Generator, max_tilt_deg: float = 35.0) -> CameraPose:
    """A mount's pose: the board's long side roughly along the frame's (either way round), any lean."""
    roll = float(rng.choice([0.0, 180.0]) + rng.uniform(-15, 15))
    return CameraPose(float(rng.uniform(0, max_tilt_deg)), float(rng.uniform(0, 360)), roll,
                      float(rng.uniform(0.8, 0.95)), float(rng.uniform(55, 75)), float(rng.uniform(-0.12, 0.0)))


class VirtualCamera:
    """A pose looking at the centre of a table extent (x0, y0, x1, y1) in mm, for a frame of `size`."""

    def __init__(self, pose: CameraPose, extent_mm: tuple[float, float, float, float], size: tuple[int, int]) -> None:
        self.pose, self.size = pose, size
        w, h = size
        f = (w / 2) / math.tan(math.radians(pose.hfov_deg) / 2)
        self.K = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]], np.float64)
        self.dist = np.array([[pose.k1, 0, 0, 0, 0]], np.float64)
        x0, y0, x1, y1 = extent_mm
        self._target = np.array([(x0 + x1) / 2, (y0 + y1) / 2, 0.0])
        self._corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)
        self.rotation = self._rotation_matrix()
        if pose.distance_mm is not None:  # a real mount: the distance is measured, not chosen to fit
            self.distance_mm = pose.distance_mm
            self.H = self._homography(pose.distance_mm)
            return
        lo, hi = 10.0, 1e5
        for _ in range(40):  # bisect the distance at which the board just fits the fill box
            mid = math.sqrt(lo * hi)
            self.H = self._homography(mid)
            if self._fits():
                hi = mid
            else:
                lo = mid
        self.H = self._homography(hi)
        self.distance_mm = hi

    def _rotation_matrix(self) -> np.ndarray:
        """World (x east, y south, z down into the table) -> camera rows (x right, y down, z forward)."""
        t, a, r = (math.radians(v) for v in (self.pose.tilt_deg, self.pose.azimuth_deg, self.pose.roll_deg))
        z = np.array([math.sin(t) * math.cos(a), math.sin(t) * math.sin(a), math.cos(t)])
        hint = np.array([0.0, -1.0, 0.0]) if abs(z[1]) < 0.99 else np.array([1.0, 0.0, 0.0])
        x = np.cross(hint, z)
        x /= np.linalg.norm(x)
        y = np.cross(z, x)
        xr = math.cos(r) * x + math.sin(r) * y
        yr = -math.sin(r) * x + math.cos(r) * y
        return np.stack([xr, yr, z])

    def centre_mm(self, distance: float) -> np.ndarray:
        """Where the lens is (x, y, z with z down into the table) when it is `distance` from the board's centre."""
        return self._target - distance * self.rotation[2]

    def _homography(self, distance: float) -> np.ndarray:
        R = self.rotation
        t = -R @ self.centre_mm(distance)
        return self.K @ np.column_stack([R[:, 0], R[:, 1], t])

    def _fits(self) -> bool:
        pts = cv2.perspectiveTransform(self._corners.reshape(-1, 1, 2), self.H).reshape(-1, 2)
        w, h = self.size
        half = np.array([w, h]) * self.pose.fill / 2
        return bool(np.all(np.abs(pts - np.array([w / 2, h / 2])) <= half))

    def project(self, points_mm: np.ndarray) -> np.ndarray:
        """Table mm (N, 2) -> distorted image px (N, 2)."""
        ideal = cv2.perspectiveTransform(np.asarray(points_mm, np.float64).reshape(-1, 1, 2), self.H).reshape(-1, 2)
        return self.distort(ideal)

    def distort(self, ideal_px: np.ndarray) -> np.ndarray:
        f, c = self.K[0, 0], self.K[:2, 2]
        n = (ideal_px - c) / f
        r2 = np.sum(n * n, axis=1, keepdims=True)
        return n * (1 + self.pose.k1 * r2) * f + c

    def ideal_grid(self) -> np.ndarray:
        """For every output pixel, where an undistorted camera would have seen it: (h, w, 2) float32.

        Inverts x_d = x_u (1 + k1 |x_u|^2) by fixed-point iteration, which converges in a few steps for
        the mild barrel distortion of camera modules.
        """
        w, h = self.size
        f, c = np.float32(self.K[0, 0]), self.K[:2, 2].astype(np.float32)
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        nd = (np.stack([xs, ys], axis=2) - c) / f
        nu = nd
        for _ in range(4):
            nu = nd / (1 + np.float32(self.pose.k1) * np.sum(nu * nu, axis=2, keepdims=True))
        return nu * f + c

    def px_per_mm(self) -> float:
        """The largest image scale over the board (its nearest corner), to choose a render resolution."""
        pts = self.project(np.vstack([self._corners, self._corners + 1.0]))
        return float(np.max(np.linalg.norm(pts[4:] - pts[:4], axis=1)) / math.sqrt(2))

