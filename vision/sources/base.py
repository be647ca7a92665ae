"""The one interface every camera source offers: open, read a timestamped grey frame, close, reopen.

A source never raises on a camera problem: `read` returns a `Status` saying what went wrong and what to
do, so the table keeps its last stable observation and can try `reopen` on its own schedule.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.status import OK, Status


@dataclass(frozen=True)
class Frame:
    grey: np.ndarray                 # 8-bit, one channel: what detection runs on
    timestamp: float                 # seconds; monotonic for live cameras, media time for files
    index: int
    colour: np.ndarray | None = field(default=None, repr=False)  # BGR when the source has it (for overlays)


class FrameSource(ABC):
    """Base of all sources. Subclasses implement `_open`, `_read` and `_close`."""

    name: str = "source"
    # A live source is a camera: its frames come at its own pace whether they are read or not, and a reader that
    # falls behind should read the newest one. A recorded one (files, folders, the unpaced synthetic camera)
    # gives every frame in order, each one counted.
    live: bool = True

    def __init__(self) -> None:
        self.status: Status = Status("warning", "not_open", f"{self.name} is not open yet")
        self.is_open = False

    def open(self) -> Status:
        self.status = self._open()
        self.is_open = self.status.level != "error"
        return self.status

    def read(self, timeout: float = 2.0) -> Frame | Status:
        if not self.is_open:
            return self.status if self.status.level == "error" else Status(
                "error", "not_open", f"{self.name} is not open: call open() first")
        result = self._read(timeout)
        if isinstance(result, Status):
            self.status = result
            if result.code in ("camera_lost", "source_ended"):
                self.close()  # release the device now: a replugged camera must be free to reopen
        else:
            self.status = OK
        return result

    def reopen(self) -> Status:
        self.close()
        return self.open()

    def close(self) -> None:
        if self.is_open:
            self._close()
        self.is_open = False

    def __enter__(self) -> FrameSource:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @abstractmethod
    def _open(self) -> Status: ...

    @abstractmethod
    def _read(self, timeout: float) -> Frame | Status: ...

    @abstractmethod
    def _close(self) -> None: ...


def to_grey(image: np.ndarray) -> np.ndarray:
    if image.ndim == 2:
        return image
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
