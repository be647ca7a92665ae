"""The Raspberry Pi camera through picamera2 (imported only when this source opens, i.e. only on a Pi).

The Y plane of a YUV420 stream is already the grey image detection wants, so no colour conversion runs
per frame. Exposure and focus are locked after a short settle: auto-exposure hunting when a hand enters
the frame would change marker contrast from frame to frame.
"""

from __future__ import annotations

import time
from typing import Any

from vision.sources.base import Frame, FrameSource
from vision.status import Status


class PiCameraSource(FrameSource):
    name = "Pi camera"

    def __init__(self, size: tuple[int, int] = (1920, 1080), settle_seconds: float = 1.0,
                 lens_position: float | None = None) -> None:
        super().__init__()
        self.size, self.settle_seconds, self.lens_position = size, settle_seconds, lens_position
        self._cam: Any = None
        self._index = 0

    def _open(self) -> Status:
        try:
            from picamera2 import Picamera2  # only present on a Raspberry Pi
        except ImportError:
            return Status("error", "camera_unavailable", "picamera2 is not installed: this source runs on a "
                                                         "Raspberry Pi (apt install python3-picamera2)")
        try:
            cam = Picamera2()
            cam.configure(cam.create_video_configuration(main={"size": self.size, "format": "YUV420"}))
            cam.start()
            time.sleep(self.settle_seconds)
            meta = cam.capture_metadata()
            controls: dict[str, Any] = {"AeEnable": False, "ExposureTime": meta["ExposureTime"],
                                        "AnalogueGain": meta["AnalogueGain"]}
            lens = self.lens_position if self.lens_position is not None else meta.get("LensPosition")
            if lens is not None:  # cameras with autofocus: hold the focus found while settling
                controls.update({"AfMode": 0, "LensPosition": lens})
            cam.set_controls(controls)
        except Exception as e:  # libcamera reports a missing or busy camera with assorted exception types
            return Status("error", "camera_unavailable", f"cannot start the Pi camera ({e}): check the ribbon "
                                                         "cable and that no other program uses the camera")
        self._cam, self._index = cam, 0
        return Status("ok", "ok", f"Pi camera at {self.size[0]}x{self.size[1]}, exposure locked")

    def _read(self, timeout: float) -> Frame | Status:
        try:
            yuv = self._cam.capture_array("main")
        except Exception as e:  # a camera unplugged mid-game surfaces as a libcamera runtime error
            return Status("error", "camera_lost", f"the Pi camera stopped ({e}): check the cable, then reopen it")
        w, h = self.size
        frame = Frame(yuv[:h, :w], time.monotonic(), self._index)
        self._index += 1
        return frame

    def _close(self) -> None:
        if self._cam is not None:
            self._cam.close()
            self._cam = None
