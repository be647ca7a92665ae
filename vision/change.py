"""Where the picture changed: the camera is fixed, so only the parts of the board that changed need a marker search.

Each frame is sampled on a sparse grid (every `sample_px`-th pixel each way, a copy of 1/16 of the frame at 4)
and compared with a reference sampling of the board. A sample further than `threshold` grey levels from its
reference has changed; the reference takes the new value there, so a slow drift (light fading over minutes)
adds up until it crosses the threshold and is then searched, never lost. Changes are kept per cell (a square of
`cell_px` pixels) with the time they last happened. A marker near a cell that changed in the last `settle_seconds`
is no longer trusted where it was, and that cell is searched, this frame and the next few, so a chip put down is
read on the settled pictures after the hand has left it. (Searching a cell only once it stopped changing saved
the search under a moving hand, but a cell that flickers over the threshold on a sticker's edge, JPEG's ringing
on a marker, was then never searched and its sticker never seen.) The cells grow by a chip's size (a sticker
beside a change is searched whole) and fall into bands of `tile_cells` rows of cells, each band's runs of
columns one window; each window is searched with a pad of the largest marker around it, so every marker whose
centre lies in a changed cell lies whole inside its window.

A full search (the whole frame) is asked for at the start, every `full_search_seconds`, and when a large part
of the board changed at once (the light changed, or the camera was knocked): the pipeline also asks for one
when the registration changed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.config import ChangeSettings

Window = tuple[int, int, int, int]  # x0, y0, x1, y1 in image px, x1 and y1 exclusive


@dataclass(frozen=True)
class Look:
    """What one frame asks of the detector: a full search, nothing (`still`), or the `windows` around changes."""

    full: bool
    reason: str = ""                      # why a full search ("start", "every 3 s", "light or camera")
    windows: tuple[Window, ...] = ()
    labels: np.ndarray | None = field(default=None, repr=False)  # per cell: 0 clean, k = in window k-1
    stale: np.ndarray | None = field(default=None, repr=False)   # per cell: a marker there may have changed

    @property
    def still(self) -> bool:
        return not self.full and self.stale is None

    def is_stale(self, x: float, y: float, cell_px: int) -> bool:
        """Whether a marker last read with its centre at image point (x, y) may no longer be there."""
        if self.stale is None:
            return False
        r, c = int(y) // cell_px, int(x) // cell_px
        return bool(0 <= r < self.stale.shape[0] and 0 <= c < self.stale.shape[1] and self.stale[r, c])

    def window_of(self, x: float, y: float, cell_px: int) -> int:
        """The window (0-based) whose dirty cells hold image point (x, y), or -1 where nothing changed."""
        if self.labels is None:
            return -1
        r, c = int(y) // cell_px, int(x) // cell_px
        if not (0 <= r < self.labels.shape[0] and 0 <= c < self.labels.shape[1]):
            return -1
        return int(self.labels[r, c]) - 1


class ChangeDetector:
    """Compares each frame with the reference sampling of the board and says where to search."""

    def __init__(self, settings: ChangeSettings, chip_px: float, marker_px: float) -> None:
        """`chip_px`, `marker_px`: a chip's and the largest marker's size in the image before the board is
        registered (the config's largest expected sizes); `frame_board` sets them from the registration."""
        self.settings = settings
        self._default_chip, self._default_marker = int(math.ceil(chip_px)), int(math.ceil(marker_px))
        self.cell_px = settings.sample_px * settings.cell_samples
        self._reference: np.ndarray | None = None
        self._board: np.ndarray | None = None       # 255 on the samples inside the board, None: the whole frame
        self._changed_at: np.ndarray | None = None  # per cell, the timestamp it last changed
        self._last_full = -math.inf
        self._size: tuple[int, int] | None = None
        self.margin_px, self.pad_px = self._default_chip, self._default_marker

    def frame_board(self, corners_px: np.ndarray | None, chip_px: float | None, marker_px: float | None) -> None:
        """Compare only inside the board's outline in the image (None: the whole frame), and size the margin
        (a chip) and the pad (the largest marker) from the registration's scale."""
        self.margin_px = int(math.ceil(chip_px)) if chip_px else self._default_chip
        self.pad_px = int(math.ceil(marker_px)) if marker_px else self._default_marker
        if corners_px is None or self._size is None:
            self._board = None
            return
        w, h = self._size
        step = self.settings.sample_px
        board = np.zeros(((h + step - 1) // step, (w + step - 1) // step), np.uint8)
        cv2.fillPoly(board, [np.round(np.asarray(corners_px, np.float64) / step).astype(np.int32)], 255)
        self._board = board

    def forget_board(self) -> None:
        """Compare the whole frame: the board is not registered (or only held), so where it lies is not known."""
        self._board = None

    def look(self, grey: np.ndarray, timestamp: float) -> Look:
        s = self.settings
        h, w = grey.shape[:2]
        sample = np.ascontiguousarray(grey[::s.sample_px, ::s.sample_px])
        reference = self._reference
        if reference is None or self._size != (w, h):
            return self._full(sample, (w, h), timestamp, "start")
        if timestamp - self._last_full >= s.full_search_seconds:
            return self._full(sample, (w, h), timestamp, f"every {s.full_search_seconds:g} s")
        changed = cv2.threshold(cv2.absdiff(sample, reference), s.threshold, 255, cv2.THRESH_BINARY)[1]
        if self._board is not None:
            changed = cv2.bitwise_and(changed, self._board)
        moved = cv2.countNonZero(changed)
        assert self._changed_at is not None
        if moved:
            area = cv2.countNonZero(self._board) if self._board is not None else changed.size
            if moved > s.light_change_fraction * area:
                return self._full(sample, (w, h), timestamp, "light or camera")
            np.copyto(reference, sample, where=changed.astype(bool))
            rows, cols = self._changed_at.shape
            whole = np.zeros((rows * s.cell_samples, cols * s.cell_samples), np.uint8)
            whole[:changed.shape[0], :changed.shape[1]] = changed
            cells = cv2.resize(whole, (cols, rows), interpolation=cv2.INTER_AREA)  # exact: cell_samples to one
            self._changed_at[cells > 0] = timestamp
        recent = self._changed_at >= timestamp - s.settle_seconds
        if not recent.any():
            return Look(False)
        reach = max(1, int(math.ceil(self.margin_px / self.cell_px)))
        kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (2 * reach + 1, 2 * reach + 1))
        grown = cv2.dilate(recent.astype(np.uint8), kernel)
        return self._windows(grown, grown > 0, (w, h))

    def _windows(self, grown: np.ndarray, stale: np.ndarray, size: tuple[int, int]) -> Look:
        """Bands of `tile_cells` rows; in each, the runs of columns holding a cell to search (runs closer than
        two pads joined, their windows would overlap anyway) are one window each, padded all round. An arm reaching
        across the board is a diagonal of short windows, not one box the size of the frame."""
        per, cell, w, h = self.settings.tile_cells, self.cell_px, size[0], size[1]
        join = 2 * self.pad_px // cell + 1
        labels = np.zeros(grown.shape, np.int32)
        windows: list[Window] = []
        for r0 in range(0, grown.shape[0], per):
            band = grown[r0:r0 + per]
            columns = np.flatnonzero(band.any(axis=0))
            if not columns.size:
                continue
            breaks = np.flatnonzero(np.diff(columns) > join)
            for first, last in zip(np.r_[0, breaks + 1], np.r_[breaks, columns.size - 1]):
                c0, c1 = int(columns[first]), int(columns[last]) + 1
                windows.append((max(0, c0 * cell - self.pad_px), max(0, r0 * cell - self.pad_px),
                                min(w, c1 * cell + self.pad_px), min(h, (r0 + band.shape[0]) * cell + self.pad_px)))
                labels[r0:r0 + per, c0:c1] = np.where(band[:, c0:c1] > 0, len(windows), 0)
        return Look(False, windows=tuple(windows), labels=labels, stale=stale)

    def _full(self, sample: np.ndarray, size: tuple[int, int], timestamp: float, reason: str) -> Look:
        if self._size != size or self._changed_at is None:
            self._board = None
            rows, cols = -(-size[1] // self.cell_px), -(-size[0] // self.cell_px)
            self._changed_at = np.full((rows, cols), -math.inf)
        self._reference, self._size, self._last_full = sample, size, timestamp
        return Look(True, reason)
