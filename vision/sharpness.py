"""Sharpness per frame, so blurred frames can be told apart and the filter can prefer sharp ones.

Blur is the one condition that costs reads (the bench: 95 % of chips at 3-4 px of blur, 76 % at 5-6 px,
about 10 % at 7-8 px). The measure is the mean absolute Laplacian of the frame at half resolution (about
1 ms at 1920 x 1080): it falls as edges spread. It depends on what is in view, so a frame is judged
against the sharpest frame of the last REFERENCE_SECONDS from the same fixed camera, never an absolute.
"""

from __future__ import annotations

from collections import deque

import cv2
import numpy as np

from vision.status import ViewQuality

REFERENCE_SECONDS = 60.0  # how long the sharpest frame stays the reference; a lasting change becomes the new normal
BLURRED_RATIO = 0.8       # softer than this fraction of the reference is blurred (about 3 px of motion blur)


def sharpness(grey: np.ndarray) -> float:
    small = cv2.resize(grey, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    return float(np.mean(np.abs(cv2.Laplacian(small, cv2.CV_16S, ksize=3))))


class SharpnessMeter:
    """Measures each frame and keeps the recent sharpest (a monotonic deque: max over a time window)."""

    def __init__(self) -> None:
        self._best: deque[tuple[float, float]] = deque()  # (timestamp, sharpness), sharpness decreasing

    def measure(self, grey: np.ndarray, timestamp: float) -> ViewQuality:
        s = sharpness(grey)
        while self._best and self._best[-1][1] <= s:
            self._best.pop()
        self._best.append((timestamp, s))
        while timestamp - self._best[0][0] > REFERENCE_SECONDS:
            self._best.popleft()
        reference = self._best[0][1]
        return ViewQuality(s, reference, s < BLURRED_RATIO * reference)
