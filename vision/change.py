"""Where the picture changed: the camera is fixed, so only the parts of the board that changed need a marker search.

Each frame is sampled on a sparse grid (every `sample_px`-th pixel each way, a copy of 1/16 of the frame at 4)
and compared with a reference sampling of the board. A sample further than `threshold` grey levels from its
reference has changed; the reference takes the new value there, so a slow drift (light fading over minutes)
adds up until it crosses the threshold and is then searched, never lost. Changes are kept per cell (a square of
`cell_px` pixels) with the time they last happened: a cell is *dirty* while it changed in the last
`settle_seconds`, so a chip put down is searched for a few more frames after the hand has left, on settled
pictures. The dirty cells grow by a chip's size (a sticker beside a hand is searched whole) and fall into
separate windows, one per connected patch; each window is searched with a pad of the largest marker around it,
so every marker whose centre lies in a dirty cell lies whole inside its window.

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

    @property
    def still(self) -> bool:
        return not self.full and not self.windows

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
        dirty = (self._changed_at >= timestamp - s.settle_seconds).astype(np.uint8)
        if not dirty.any():
            return Look(False)
        reach = max(1, int(math.ceil(self.margin_px / self.cell_px)))
        grown = cv2.dilate(dirty, cv2.getStructuringElement(cv2.MORPH_RECT, (2 * reach + 1, 2 * reach + 1)))
        return self._windows(grown, (w, h))

    def _windows(self, grown: np.ndarray, size: tuple[int, int]) -> Look:
        """Tiles holding a dirty cell, joined along each row of tiles into one window per run (an arm reaching
        across the board is a diagonal of short runs, not one box the size of the frame)."""
        per = self.settings.tile_cells
        rows, cols = grown.shape
        tr, tc = -(-rows // per), -(-cols // per)
        whole = np.zeros((tr * per, tc * per), np.uint8)
        whole[:rows, :cols] = grown
        tiles = whole.reshape(tr, per, tc, per).max(axis=(1, 3))
        owner = np.zeros((tr, tc), np.int32)
        windows: list[Window] = []
        tile_px = per * self.cell_px
        w, h = size
        for r in range(tr):
            line = tiles[r]
            c = 0
            while c < tc:
                if not line[c]:
                    c += 1
                    continue
                start = c
                while c < tc and line[c]:
                    c += 1
                windows.append((max(0, start * tile_px - self.pad_px), max(0, r * tile_px - self.pad_px),
                                min(w, c * tile_px + self.pad_px), min(h, (r + 1) * tile_px + self.pad_px)))
                owner[r, start:c] = len(windows)
        labels = np.repeat(np.repeat(owner, per, axis=0), per, axis=1)[:rows, :cols] * (grown > 0)
        return Look(False, windows=tuple(windows), labels=labels)

    def _full(self, sample: np.ndarray, size: tuple[int, int], timestamp: float, reason: str) -> Look:
        if self._size != size or self._changed_at is None:
            self._board = None
            rows, cols = -(-size[1] // self.cell_px), -(-size[0] // self.cell_px)
            self._changed_at = np.full((rows, cols), -math.inf)
        self._reference, self._size, self._last_full = sample, size, timestamp
        return Look(True, reason)
