"""Finding fiducial markers in a grey image with OpenCV's `cv2.aruco.ArucoDetector`.

The detector's parameters follow the expected sticker size in pixels (`VisionConfig.sticker_px`): the
perimeter limits (quads that cannot be a sticker or a registration marker are never decoded, which is
most of the speed) and the adaptive-threshold windows. Corners are refined to sub-pixel accuracy because
the registration homography is solved from them.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.config import DICTIONARIES, SIZE_TOLERANCE, VisionConfig


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
    p.adaptiveThreshWinSizeMin, p.adaptiveThreshWinSizeMax, p.adaptiveThreshWinSizeStep = threshold_windows(config)
    # Quads are grouped as one candidate (the largest tried first, the rest only if it fails) when their
    # corners are closer than this fraction of the smaller one's perimeter. OpenCV's 0.125 groups a chip's
    # outline (1.7-2.6 times the sticker) with the sticker inside it; with one-bit correction the outline
    # can decode as another id and the sticker is never tried. At 0.05 they stay apart, the sticker is
    # read first (OpenCV reads inner quads first) and the outline around it is skipped.
    p.minMarkerDistanceRate = 0.05
    p.perspectiveRemovePixelPerCell = 10  # upsample tiny markers before reading their bits
    # correct the one bit 4x4_50 allows: a 16 px marker under blur often has one cell misread; the other
    # codes are still far enough away, and the pipeline's size check rejects the odd sliver
    p.errorCorrectionRate = 1.0
    p.polygonalApproxAccuracyRate = 0.05
    # Drop quads with two corners closer than a tenth of their perimeter (a side under 40 % of the mean side,
    # which no sticker has at the tilts a mount allows; the pipeline rejects sides 30 % off the expected size
    # anyway). OpenCV's 0.05 keeps slivers cut from a marker's own white cells (marker 8, the Command
    # Module's, has an L of white cells along two sides that makes a quad with one 4 px side in a 20 px
    # marker), and with them beside it the marker itself went unread in a third of the frames at some
    # places (the demo's Command Module on Q4); the bench's accuracy is the same at 0.05 and 0.1.
    p.minCornerDistanceRate = 0.1
    p.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    p.cornerRefinementWinSize = 3
    p.cornerRefinementMinAccuracy = 0.05
    return p


def threshold_windows(config: VisionConfig) -> tuple[int, int, int]:
    """Adaptive-threshold windows (min, max, step) for the expected cell sizes: three windows, from 1.5 times
    the smallest sticker's cell to twice the nearest registration marker's.

    A window narrower than a cell sees only black inside a marker's border and breaks the border up, so
    the largest marker needs a window of about two cells; the smallest needs one of about 1.5 cells. The
    threshold runs once per window over the whole frame, so three windows cost the same at any size.
    """
    cells = config.marker_cells
    smallest = max(3, int(round(1.5 * config.min_marker_px / cells)) | 1)
    largest = max(smallest, int(round(2 * config.max_marker_px / (1 + SIZE_TOLERANCE) / cells)) | 1)
    step = max(1, (largest - smallest) // 2)
    return smallest, largest, step


DETECTORS_KEPT = 64  # sizes kept: a search where the picture changed asks for windows of many sizes


class MarkerDetector:
    """A configured ArucoDetector per image size (the perimeter limits depend on it). Making one takes a few
    microseconds, so when windows of many sizes were asked for, the kept ones are dropped and made again."""

    def __init__(self, config: VisionConfig) -> None:
        self.config = config
        self.dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARIES[config.dictionary])
        self._by_size: dict[tuple[int, int], cv2.aruco.ArucoDetector] = {}

    def opencv_detector(self, image_size: tuple[int, int]) -> cv2.aruco.ArucoDetector:
        """The underlying OpenCV detector for (width, height): the bench times it alone."""
        det = self._by_size.get(image_size)
        if det is None:
            if len(self._by_size) >= DETECTORS_KEPT:
                self._by_size.clear()
            det = cv2.aruco.ArucoDetector(self.dictionary, detector_parameters(self.config, image_size))
            self._by_size[image_size] = det
        return det

    def detect(self, grey: np.ndarray) -> list[MarkerDetection]:
        h, w = grey.shape[:2]
        corners, ids, _ = self.opencv_detector((w, h)).detectMarkers(grey)
        if ids is None:
            return []
        return [MarkerDetection(int(i), c.reshape(4, 2)) for c, i in zip(corners, ids.ravel())]
