"""OpenCV VideoCapture sources: a USB camera (index or /dev/video path), a video file, an RTSP/HTTP stream.

Live sources are read on their own thread that keeps only the newest frame, so a slow pipeline always
works on what the table looks like now instead of falling behind a queue. Files are read in order on the
caller's thread (every frame counts in a test or a replay). A camera that stops delivering frames is
reported as lost and can be reopened.
"""

from __future__ import annotations

import threading
import time

import cv2

from vision.sources.base import Frame, FrameSource, to_grey
from vision.status import Status


def _is_stream(target: int | str) -> bool:
    return isinstance(target, str) and target.split("://", 1)[0].lower() in ("rtsp", "http", "https")


def _is_device(target: int | str) -> bool:
    return isinstance(target, int) or (isinstance(target, str) and target.startswith("/dev/video"))


class VideoCaptureSource(FrameSource):
    def __init__(self, target: int | str, threaded: bool | None = None, size: tuple[int, int] | None = None,
                 mjpg: bool = True) -> None:
        self.target = target
        self.name = f"camera {target}" if _is_device(target) else f"video {target}"
        super().__init__()
        self.threaded = threaded if threaded is not None else (_is_device(target) or _is_stream(target))
        self.live = self.threaded
        self.size, self.mjpg = size, mjpg
        self._cap: cv2.VideoCapture | None = None
        self._lock = threading.Condition()
        self._latest: Frame | None = None
        self._delivered = -1
        self._failed = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._index = 0

    def _open(self) -> Status:
        backend = cv2.CAP_V4L2 if _is_device(self.target) else cv2.CAP_ANY
        cap = cv2.VideoCapture(self.target, backend)
        if not cap.isOpened():
            cap.release()
            what = "is it plugged in and not used by another program?" if _is_device(self.target) else \
                "check the path or address"
            return Status("error", "camera_unavailable", f"cannot open {self.name}: {what}")
        if _is_device(self.target):
            if self.mjpg:
                cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG"))
            if self.size:
                cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
                cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
            cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        self._cap, self._latest, self._delivered, self._failed, self._index = cap, None, -1, False, 0
        if self.threaded:
            self._stop.clear()
            self._thread = threading.Thread(target=self._pump, name=f"capture {self.target}", daemon=True)
            self._thread.start()
        return Status("ok", "ok", f"{self.name} open")

    def _grab(self) -> Frame | None:
        assert self._cap is not None
        ok, image = self._cap.read()
        if not ok or image is None:
            return None
        if self.threaded:
            ts = time.monotonic()
        else:
            ts = self._cap.get(cv2.CAP_PROP_POS_MSEC) / 1000.0
        frame = Frame(to_grey(image), ts, self._index, image if image.ndim == 3 else None)
        self._index += 1
        return frame

    def _pump(self) -> None:
        while not self._stop.is_set():
            frame = self._grab()
            with self._lock:
                if frame is None:
                    self._failed = True
                    self._lock.notify_all()
                    return
                self._latest = frame
                self._lock.notify_all()

    def _read(self, timeout: float) -> Frame | Status:
        if not self.threaded:
            frame = self._grab()
            if frame is None:
                return Status("error", "source_ended", f"{self.name} has no more frames")
            return frame
        deadline = time.monotonic() + timeout
        with self._lock:
            while (self._latest is None or self._latest.index <= self._delivered) and not self._failed:
                left = deadline - time.monotonic()
                if left <= 0:
                    return Status("warning", "no_new_frame", f"{self.name} sent no frame for {timeout:.1f} s")
                self._lock.wait(left)
            if self._latest is not None and self._latest.index > self._delivered:
                self._delivered = self._latest.index
                return self._latest
        return Status("error", "camera_lost", f"{self.name} stopped sending frames: check its cable, then reopen it "
                                              "(the last stable board is kept meanwhile)")

    def _close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
            self._thread = None
        if self._cap is not None:
            self._cap.release()
            self._cap = None
