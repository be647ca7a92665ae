"""A folder of still images played as a camera: replaying a session, or checking a set of photos.

An unreadable file is reported and skipped on the next read, never fatal.
"""

from __future__ import annotations

from pathlib import Path

import cv2

from vision.sources.base import Frame, FrameSource, to_grey
from vision.status import Status

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


class ImageFolderSource(FrameSource):
    live = False  # every image is read, in order

    def __init__(self, folder: str | Path, fps: float = 10.0) -> None:
        self.folder = Path(folder)
        self.name = f"image folder {self.folder}"
        super().__init__()
        self.fps = fps
        self._files: list[Path] = []
        self._next = 0

    def _open(self) -> Status:
        if not self.folder.is_dir():
            return Status("error", "camera_unavailable", f"{self.folder} is not a folder: give a folder of images")
        self._files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        self._next = 0
        if not self._files:
            return Status("error", "camera_unavailable", f"{self.folder} holds no images ({', '.join(IMAGE_SUFFIXES)})")
        return Status("ok", "ok", f"{len(self._files)} images in {self.folder}")

    def _read(self, timeout: float) -> Frame | Status:
        if self._next >= len(self._files):
            return Status("error", "source_ended", f"{self.name}: all {len(self._files)} images read")
        i, path = self._next, self._files[self._next]
        self._next += 1
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            return Status("error", "unreadable_image", f"{path} is not an image OpenCV can read: skipped")
        return Frame(to_grey(image), i / self.fps, i, image)

    def _close(self) -> None:
        self._files = []
