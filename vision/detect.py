"""Finding fiducial markers in a grey image with OpenCV's `cv2.aruco.ArucoDetector`.

The detector's parameters are set for small stickers: the perimeter limits are derived from the expected
marker size in pixels (too-large candidates are rejected early, which is most of the speed), and corners
are refined to sub-pixel accuracy because the registration homography is solved from them.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.config import DICTIONARIES, VisionConfig


@dataclass(frozen=True)
class MarkerDetection:
    """One decoded marker: its id and its 4 image corners in ArUco order (printed TL, TR, BR, BL)."""

    id: int
    corners: np.ndarray  # shape (4, 2), float32, image pixels

    @property
    def centre(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])


def detector_parameters(config: VisionConfig, image_size: tuple[int, int]) -> cv2.aruco.DetectorParameters:
    """Parameters tuned for markers of config.min_marker_px..max_marker_px in an image of this size."""
    longest = float(max(image_size))
    p = cv2.aruco.DetectorParameters()
    p.minMarkerPerimeterRate = 4 * config.min_marker_px / longest
    p.maxMarkerPerimeterRate = 4 * config.max_marker_px / longest
    # windows of 3, 6 and 9 px: a marker cell is 2.5-7 px, so larger windows only cost time
    p.adaptiveThreshWinSizeMin = 3
    p.adaptiveThreshWinSizeMax = 9
    p.adaptiveThreshWinSizeStep = 3
    p.perspectiveRemovePixelPerCell = 10  # upsample tiny markers before reading their bits
    # correct the one bit 4x4_50 allows: a 16 px marker under blur often has one cell misread; the other
    # codes are still far enough away, and the pipeline's size check rejects the odd sliver
    p.errorCorrectionRate = 1.0
    p.polygonalApproxAccuracyRate = 0.05
    p.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    p.cornerRefinementWinSize = 3
    p.cornerRefinementMinAccuracy = 0.05
    return p


class MarkerDetector:
    """A configured ArucoDetector per image size (the perimeter limits depend on it)."""

    def __init__(self, config: VisionConfig) -> None:
        self.config = config
        self.dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARIES[config.dictionary])
        self._by_size: dict[tuple[int, int], cv2.aruco.ArucoDetector] = {}

    def opencv_detector(self, image_size: tuple[int, int]) -> cv2.aruco.ArucoDetector:
        """The underlying OpenCV detector for (width, height): the bench times it alone."""
        det = self._by_size.get(image_size)
        if det is None:
            det = cv2.aruco.ArucoDetector(self.dictionary, detector_parameters(self.config, image_size))
            self._by_size[image_size] = det
        return det

    def detect(self, grey: np.ndarray) -> list[MarkerDetection]:
        h, w = grey.shape[:2]
        corners, ids, _ = self.opencv_detector((w, h)).detectMarkers(grey)
        if ids is None:
            return []
        return [MarkerDetection(int(i), c.reshape(4, 2)) for c, i in zip(corners, ids.ravel())]
