"""The ChArUco calibration flow: print a board, photograph it from several angles, solve the lens.

A ChArUco board is used rather than a plain chessboard because each corner is identified by the ArUco
markers around it, so partial views near the frame's edges (where distortion is strongest and matters
most) still count. It uses the 5x5 dictionary so its markers are never mistaken for the table's 4x4 ones.
"""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np

from vision.calibration import CameraCalibration
from vision.status import Status

SQUARES = (7, 5)
SQUARE_MM = 30.0
MARKER_MM = 22.0
MIN_CORNERS = 8
MIN_VIEWS = 4


def charuco_board() -> cv2.aruco.CharucoBoard:
    d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_5X5_100)
    return cv2.aruco.CharucoBoard(SQUARES, SQUARE_MM, MARKER_MM, d)


def board_image(px_per_mm: float = 10.0) -> np.ndarray:
    """The board to print, with a quiet margin of one square (270 x 210 mm at true size).

    Print it at any scale that fits the page: the square size only scales the board's distance from the
    camera in the solution, never the lens's intrinsics or distortion, which is all calibration keeps.
    """
    w, h = (int(round(n * SQUARE_MM * px_per_mm)) for n in SQUARES)
    margin = int(round(SQUARE_MM * px_per_mm))
    return charuco_board().generateImage((w + 2 * margin, h + 2 * margin), marginSize=margin, borderBits=1)


def calibrate(images: Iterable[np.ndarray]) -> tuple[CameraCalibration | None, Status]:
    """Solve intrinsics and distortion from grey photos of the board; a status says why when it cannot."""
    board = charuco_board()
    detector = cv2.aruco.CharucoDetector(board)
    obj_points, img_points, size, views = [], [], None, 0
    for grey in images:
        views += 1
        h, w = grey.shape[:2]
        if size is not None and size != (w, h):
            return None, Status("error", "mixed_sizes", f"photo {views} is {w}x{h}, the first was "
                                                        f"{size[0]}x{size[1]}: take all photos at one resolution")
        size = (w, h)
        corners, ids, _, _ = detector.detectBoard(grey)
        if ids is None or len(ids) < MIN_CORNERS:
            continue
        # OpenCV's stubs type the corners as a sequence of arrays (an InputArrayOfArrays, one per ArUco marker);
        # a ChArUco board takes its corners as the one array detectBoard returned
        obj, img = board.matchImagePoints(corners, ids)  # type: ignore[call-overload]
        obj_points.append(obj)
        img_points.append(img)
    if size is None:
        return None, Status("error", "no_images", "no photos given: photograph the printed board 10-20 times")
    if len(obj_points) < MIN_VIEWS:
        return None, Status("error", "too_few_views",
                            f"the board was found in {len(obj_points)} of {views} photos, at least {MIN_VIEWS} "
                            "needed: fill more of the frame with it, tilt it, and keep it in focus")
    rms, k, dist, _, _ = cv2.calibrateCamera(obj_points, img_points, size, None, None)
    calib = CameraCalibration(k, dist, size, float(rms))
    level = "ok" if rms < 1.0 else "warning"
    return calib, Status(level, "calibrated", f"calibrated from {len(obj_points)} of {views} photos, "
                                              f"reprojection error {rms:.2f} px" +
                         ("" if level == "ok" else ": high, retake blurred or flat-on photos"))
