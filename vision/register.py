"""Board registration: a homography from image pixels to table millimetres, solved from anchor markers.

Every visible registration marker gives four point pairs, so three markers already over-determine the
homography and a misplaced or misread one can be dropped. When a hand covers the anchors the last good homography
is held for a while (the camera is fixed to its mount), and the status says which anchors are covered.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import cv2
import numpy as np

from vision.calibration import CameraCalibration
from vision.config import VisionConfig
from vision.detect import MarkerDetection
from vision.status import OK, Status
from vision.table_layout import TableLayout

OUTLIER_MM = 6.0   # an anchor whose corners miss by more than this is dropped
MAX_RMS_MM = 6.0   # beyond this the registration is not trusted at all


@dataclass(frozen=True)
class Registration:
    homography: np.ndarray | None   # image (undistorted) px -> table mm
    status: Status
    anchors_seen: tuple[str, ...]
    rms_mm: float = 0.0
    timestamp: float = 0.0

    def to_table(self, points_px: np.ndarray) -> np.ndarray:
        assert self.homography is not None
        pts = np.asarray(points_px, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)

    def to_image(self, points_mm: np.ndarray) -> np.ndarray:
        """Table mm -> undistorted image px (drawing overlays)."""
        assert self.homography is not None
        pts = np.asarray(points_mm, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, np.linalg.inv(self.homography)).reshape(-1, 2)


class Registrar:
    """Solves the registration per frame and remembers the last good one."""

    def __init__(self, config: VisionConfig, layout: TableLayout, calibration: CameraCalibration | None) -> None:
        self.config = config
        self.layout = layout
        self.calibration = calibration
        self.last_good: Registration | None = None
        # the registration a person confirmed in calibration (the camera is fixed to its mount): used when the
        # markers are covered for longer than the last good registration is held
        self.confirmed: Registration | None = None
        self._anchor_names = config.anchor_ids

    def undistort(self, points_px: np.ndarray) -> np.ndarray:
        if self.calibration is None:
            return np.asarray(points_px, np.float64).reshape(-1, 2)
        return self.calibration.undistort_points(points_px)

    def register(self, anchors: list[MarkerDetection], timestamp: float) -> Registration:
        """Solve from the registration markers seen once; an id seen several times says which table is not ours.

        The table has each registration marker once, so copies of one cannot say which is the real one:
        they are left out, and when the rest do not register the board the status says what was seen.
        """
        copies = {i: n for i, n in Counter(d.id for d in anchors).items() if n > 1}
        anchors = [d for d in anchors if d.id not in copies]
        reg = self._register(anchors, timestamp)
        if not copies or reg.status.level != "error":
            return reg
        what = ", ".join(f"{n} copies of marker {i} ({self._anchor_names[i]})" for i, n in sorted(copies.items()))
        return Registration(reg.homography, Status(
            "error", "duplicate_anchors", f"saw {what}, a registration marker this project's table has once: "
            f"this is not a table of this project, or a sheet of markers is in view; {reg.status.message}"),
            reg.anchors_seen, reg.rms_mm, reg.timestamp)

    def _register(self, anchors: list[MarkerDetection], timestamp: float) -> Registration:
        seen = sorted({d.id for d in anchors})
        names = tuple(self._anchor_names[i] for i in seen)
        total = len(self._anchor_names)
        if len(seen) >= self.config.min_anchors:
            img = self.undistort(np.concatenate([d.corners for d in anchors]))
            table = np.concatenate([self.layout.anchor_corners(d.id) for d in anchors])
            reg = self._solve(img, table, names, timestamp)
            if reg.homography is not None:
                self.last_good = reg
                return reg
            failure = reg.status
        else:
            covered = [n for i, n in self._anchor_names.items() if i not in seen]
            if not seen:
                failure = Status("error", "no_play_area",
                                 f"no registration markers visible (0 of {total}): point the camera at the whole "
                                 "board and check the corner markers are stuck down")
            else:
                failure = Status("error", "too_few_anchors",
                                 f"{len(seen)} of {total} registration markers visible, at least "
                                 f"{self.config.min_anchors} needed: {_listing(covered)} covered or out of view; "
                                 "uncover them or move the camera so the whole board is in view")
        held = self.last_good
        if held is not None and timestamp - held.timestamp <= self.config.filter.hold_registration_seconds:
            return Registration(held.homography, Status("warning", "registration_held",
                                                        f"{failure.message} (using the registration from "
                                                        f"{timestamp - held.timestamp:.1f} s ago)"),
                                names, held.rms_mm, held.timestamp)
        if self.confirmed is not None:
            return Registration(self.confirmed.homography, Status(
                "warning", "registration_confirmed", f"{failure.message} (using the registration confirmed in "
                "calibration)"), names, self.confirmed.rms_mm, timestamp)
        return Registration(None, failure, names, timestamp=timestamp)

    def _solve(self, img: np.ndarray, table: np.ndarray, names: tuple[str, ...], timestamp: float) -> Registration:
        """Least squares on every anchor corner, dropping the worst-fitting anchor while one stands out.

        Anchors are identified, so there is no correspondence to guess and RANSAC's random subsets only add
        risk (a consensus of two anchors fits itself exactly and extrapolates wildly). A misplaced or
        misread anchor shows up as the one whose corners disagree most; it is dropped as long as enough
        anchors remain.
        """
        keep = np.ones(len(img) // 4, bool)
        while True:
            idx = np.repeat(keep, 4)
            h, _ = cv2.findHomography(img[idx], table[idx], 0)
            if h is None:
                return Registration(None, Status("error", "registration_failed",
                                                 "the registration markers do not fit the board's shape: check "
                                                 "they are placed as the markers sheet shows"), names)
            pred = cv2.perspectiveTransform(img.reshape(-1, 1, 2), h).reshape(-1, 2)
            err = np.linalg.norm(pred - table, axis=1).reshape(-1, 4).mean(axis=1)
            worst = int(np.argmax(np.where(keep, err, -1.0)))
            if err[worst] <= OUTLIER_MM or keep.sum() <= self.config.min_anchors:
                break
            keep[worst] = False
        rms = float(np.sqrt(np.mean(np.sum((pred[np.repeat(keep, 4)] - table[np.repeat(keep, 4)]) ** 2, axis=1))))
        if rms > MAX_RMS_MM:
            return Registration(None, Status("error", "registration_poor",
                                             f"the registration markers disagree by {rms:.1f} mm: one may be "
                                             "misplaced, or the lens needs calibrating (calibrate-camera)"), names)
        return Registration(h, OK, names, rms, timestamp)


def _listing(names: list[str]) -> str:
    if len(names) == 1:
        return f"the {names[0]} one is"
    return "the " + ", ".join(names[:-1]) + f" and {names[-1]} ones are"
