"""The camera as a supervised component: frames off the event loop, through vision, to whoever listens.

A camera is slow and blocking (a USB read, the Pi's ISP, OpenCV's detection), so its loop runs in a thread
of its own and hands each frame's result to the listeners (the reconciler, the dashboard's view). A camera
that vanishes ends the loop with an error the supervisor shows on /health and retries with backoff; a frame
the board cannot be found in only degrades the component ("board not registered: is something covering the
registration markers?"), the last stable observation stands.

Frames never queue: a live camera is read on a thread of its own that keeps only the newest frame, and the
vision loop takes that one when it is ready for the next; when the machine cannot keep up the table reads fewer
frames, never older ones. /health says at which rate the camera delivers, at which the table reads, and how many
frames it skipped.

The dashboard sees what the camera sees: the newest frame and its result are kept (a reference, no copy), and
a picture is encoded only when someone asks for it. Its calibration flow finds the board in the newest frame
and, once a person confirms the grid lies right, saves that registration (registration.json beside the game
log); the pipeline then falls back on it when the markers stay covered, and reads it again at every start.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from controller.library import write_atomically
from controller.rules import BurncycleError, Floor, compile_floor
from controller.rules.state import FloorState
from controller.service.frame.components import Component
from vision.annotate import annotate
from vision.board_finder import BoardFinding, find_board, finding_overlay, straighten
from vision.pipeline import FrameResult, VisionPipeline
from vision.register import Registration
from vision.sources.base import Frame, FrameSource
from vision.status import Status
from vision.table_layout import TableLayout

JPEG_QUALITY = 80
MAT_PX_PER_MM = 1.5  # the floor editor's backdrop: a 16 x 16 floor of 50 mm spaces is 1200 px square
RATE_SECONDS = 2.0   # the rates on /health are counted over this long
ENDED = ("camera_lost", "source_ended")  # a source's statuses after which it gives nothing more


class CameraError(BurncycleError):
    """The camera cannot be opened or was lost."""

    code = "camera_error"


class NoPicture(CameraError):
    """The camera has no picture to give yet (not started, or no frame read), or its board is not found."""

    code = "no_picture"


@dataclass(frozen=True)
class SavedRegistration:
    """A registration a person confirmed in the calibration flow: the homography (undistorted image px to
    table mm) for one floor's size and one picture size, with what it was found from."""

    homography: np.ndarray
    rows: int
    cols: int
    image_size: tuple[int, int]
    anchors: tuple[str, ...]
    rms_mm: float
    floor: str
    saved_at: float

    def fits(self, rows: int, cols: int, image_size: tuple[int, int] | None) -> bool:
        """Whether it registers this floor in these pictures (another floor's size puts the markers elsewhere)."""
        return (self.rows, self.cols) == (rows, cols) and (image_size is None or image_size == self.image_size)

    def registration(self) -> Registration:
        return Registration(self.homography, Status("ok", "ok", "confirmed in calibration"), self.anchors,
                            self.rms_mm, self.saved_at)

    def to_json(self) -> str:
        return json.dumps({"homography": self.homography.tolist(), "rows": self.rows, "cols": self.cols,
                           "image_size": list(self.image_size), "anchors": list(self.anchors),
                           "rms_mm": round(self.rms_mm, 3), "floor": self.floor, "saved_at": round(self.saved_at, 3)},
                          indent=2)

    @classmethod
    def load(cls, path: Path) -> SavedRegistration:
        """Read a saved registration; anything wrong with the file is a CameraError naming it."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            h = np.array(data["homography"], np.float64)
            if h.shape != (3, 3) or not np.all(np.isfinite(h)):
                raise ValueError("the homography is not a 3 x 3 matrix of numbers")
            width, height = (int(v) for v in data["image_size"])
            return cls(h, int(data["rows"]), int(data["cols"]), (width, height),
                       tuple(str(a) for a in data["anchors"]), float(data["rms_mm"]), str(data["floor"]),
                       float(data["saved_at"]))
        except OSError as e:
            raise CameraError(f"{path}: cannot read the saved registration: {e.strerror}") from None
        except (ValueError, KeyError, TypeError, IndexError) as e:
            raise CameraError(f"{path}: not a registration saved by the calibration flow ({e}): calibrate "
                              "again on the camera page") from None


class NewestFrame:
    """One slot between a live camera's reader and the vision loop: a newer frame replaces one not yet taken,
    which counts as skipped. The reader never waits for the vision; the vision waits only for a frame."""

    def __init__(self) -> None:
        self._ready = threading.Condition()
        self._item: Frame | Status | None = None
        self.delivered = 0   # frames the camera gave
        self.skipped = 0     # frames replaced by a newer one before the vision took them

    def put(self, item: Frame | Status) -> None:
        with self._ready:
            if isinstance(self._item, Frame):
                self.skipped += 1
            self._item = item
            self.delivered += isinstance(item, Frame)
            self._ready.notify()

    def take(self, timeout: float) -> Frame | Status | None:
        """The newest frame (or the camera's latest complaint), or None if nothing came within `timeout`."""
        with self._ready:
            self._ready.wait_for(lambda: self._item is not None, timeout)
            item, self._item = self._item, None
            return item


def _jpeg(image: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not ok:
        raise CameraError("the picture could not be encoded as JPEG")
    return data.tobytes()


class CameraComponent(Component):
    """Reads `open_source()`'s frames through `pipeline`, calling each listener with every `FrameResult` from
    the camera's thread (a listener must be quick, or hand the work on)."""

    def __init__(self, open_source: Callable[[], FrameSource], make_pipeline: Callable[[Floor], VisionPipeline], *,
                 floor_of: Callable[[], FloorState], name: str = "camera",
                 registration_path: Path | None = None) -> None:
        super().__init__(name)
        self._open_source = open_source
        self.make_pipeline, self._floor_of = make_pipeline, floor_of  # public: a bench times its own pipelines
        self._floor_text = ""
        self.pipeline: VisionPipeline | None = None
        self.source: FrameSource | None = None
        self.last: FrameResult | None = None
        self.frames = 0
        self.fps = 0.0          # frames read through vision a second
        self.camera_fps = 0.0   # frames the camera delivered a second
        self.skipped = 0        # frames the camera delivered that the table never read (it read a newer one)
        self._posted: tuple[Callable[[str], None], str] | None = None  # the health last handed to the event loop
        self._listeners_of_frames: list[Callable[[FrameResult], None]] = []
        self._stop = threading.Event()
        self._newest: tuple[np.ndarray, FrameResult, VisionPipeline] | None = None
        self._finding: tuple[np.ndarray, BoardFinding, VisionPipeline] | None = None
        self.registration_path = registration_path
        self.saved: SavedRegistration | None = None
        self.saved_problem: str | None = None
        if registration_path is not None and registration_path.exists():
            try:
                self.saved = SavedRegistration.load(registration_path)
            except CameraError as e:
                self.saved_problem = str(e)

    def on_frame(self, listener: Callable[[FrameResult], None]) -> None:
        self._listeners_of_frames.append(listener)

    async def start(self) -> None:
        self._stop.clear()
        self._posted = None
        source = self._open_source()
        status = await asyncio.to_thread(source.open)
        if status.level == "error":
            source.close()
            raise CameraError(f"{source.name}: {status.message}")
        self.source = source

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        await asyncio.to_thread(self._loop, loop)

    async def stop(self) -> None:
        self._stop.set()
        source, self.source = self.source, None
        if source is not None:
            await asyncio.to_thread(source.close)

    def _pipeline(self, image_size: tuple[int, int] | None) -> VisionPipeline:
        """The pipeline for the game's floor now (a new one when the team changes floors), falling back on the
        confirmed registration when it was made for this floor's size and this camera's pictures."""
        floor = self._floor_of()
        if self.pipeline is None or floor.text != self._floor_text:
            self.pipeline = self.make_pipeline(compile_floor(floor.text, floor.name))
            self._floor_text = floor.text
            saved = self.saved
            if saved is not None and saved.fits(self.pipeline.floor.rows, self.pipeline.floor.cols, image_size):
                self.pipeline.registrar.confirmed = saved.registration()
        return self.pipeline

    # -- what the dashboard sees (called from the web's threads; the camera's thread only swaps references) --

    def newest(self) -> tuple[np.ndarray, FrameResult, VisionPipeline]:
        newest = self._newest
        if newest is None:
            raise NoPicture(f"{self.name}: no picture yet ({self.message})")
        return newest

    def overlay_jpeg(self) -> bytes:
        """The newest frame with what vision made of it drawn over (vision/annotate.py), as JPEG."""
        grey, result, pipeline = self.newest()
        return _jpeg(annotate(grey, result, pipeline))

    def mat_jpeg(self, rows: int, cols: int) -> bytes:
        """The newest frame straightened onto a grid of rows x cols spaces by the registration markers around
        it (the floor editor's backdrop for tracing a mat this project does not ship)."""
        grey, _, pipeline = self.newest()
        layout = TableLayout(rows, cols, pipeline.config.board)
        finding = find_board(grey, pipeline.config, layout, pipeline.registrar.calibration)
        if not finding.registered:
            raise NoPicture(f"the board of {cols} x {rows} spaces is not found in the picture: "
                            f"{finding.registration.status.message}")
        return _jpeg(straighten(grey, finding.registration, layout, MAT_PX_PER_MM))

    def find(self) -> BoardFinding:
        """Calibration, first step: the registration markers of the game's floor in the newest frame, afresh."""
        grey, _, pipeline = self.newest()
        finding = find_board(grey, pipeline.config, pipeline.layout, pipeline.registrar.calibration)
        self._finding = (grey, finding, pipeline)
        return finding

    def finding_jpeg(self) -> bytes:
        """The last finding's picture: the markers found, the missing ones' places, the grid laid over."""
        if self._finding is None:
            raise NoPicture("no board found yet: find the markers first (Find the markers, on the camera page)")
        grey, finding, pipeline = self._finding
        return _jpeg(finding_overlay(grey, finding, pipeline.config, pipeline.registrar.calibration))

    def confirm(self, now: float | None = None) -> SavedRegistration:
        """Calibration, last step: keep the registration of the last finding (a person saw its grid lie right),
        saved for every later start, and used at once."""
        if self._finding is None:
            raise CameraError("nothing to confirm: find the markers first (Find the markers, on the camera page)")
        grey, finding, pipeline = self._finding
        reg = finding.registration
        if reg.homography is None:
            raise CameraError(f"nothing to confirm: the markers found do not register the board "
                              f"({reg.status.message})")
        saved = SavedRegistration(reg.homography, pipeline.floor.rows, pipeline.floor.cols, finding.image_size,
                                  reg.anchors_seen, reg.rms_mm, pipeline.floor.name,
                                  time.time() if now is None else now)
        if self.registration_path is not None:
            try:
                write_atomically(self.registration_path, saved.to_json().encode())
            except BurncycleError as e:
                raise CameraError(f"the registration could not be saved: {e}") from None
        self.saved, self.saved_problem = saved, None
        pipeline.registrar.confirmed = saved.registration()
        return saved

    def view(self) -> dict[str, Any]:
        """The camera for the dashboard: health, frames, what the newest frame shows, the confirmed registration."""
        body: dict[str, Any] = {"health": self.status(), "frames": self.frames, "fps": round(self.fps, 1),
                                "source": self.source.name if self.source is not None else None, "picture": None}
        newest = self._newest
        if newest is not None:
            grey, result, pipeline = newest
            status = result.reading.status
            body["picture"] = {"width": int(grey.shape[1]), "height": int(grey.shape[0]),
                               "status": {"level": status.level, "code": status.code, "message": status.message},
                               "markers_seen": list(result.reading.anchors_seen),
                               "units_seen": len(result.reading.sightings), "floor": pipeline.floor.name}
        saved = self.saved
        in_use = self.pipeline is not None and self.pipeline.registrar.confirmed is not None
        body["confirmed"] = None if saved is None else {
            "floor": saved.floor, "rows": saved.rows, "cols": saved.cols, "markers": list(saved.anchors),
            "rms_mm": round(saved.rms_mm, 2), "saved_at": saved.saved_at, "in_use": in_use}
        body["confirmed_problem"] = self.saved_problem
        return body

    def status(self) -> dict[str, Any]:
        """Health, and how the camera keeps up: the rates it delivers and is read at, the frames skipped, and how
        much of the frames vision searched (whole, only where something changed, nothing as nothing changed)."""
        body = super().status()
        body.update(reads_fps=round(self.fps, 1), camera_fps=round(self.camera_fps, 1), skipped=self.skipped)
        pipeline = self.pipeline
        if pipeline is not None:
            body["searched"] = dict(pipeline.searches)
        return body

    def _read_newest(self, source: FrameSource, newest: NewestFrame, done: threading.Event) -> None:
        """The live camera's reader: every frame into the slot, until the camera ends or the loop is done."""
        while not done.is_set():
            item = source.read()
            newest.put(item)
            if isinstance(item, Status) and item.code in ENDED:
                return

    def _loop(self, loop: asyncio.AbstractEventLoop) -> None:
        source = self.source
        if source is None:
            return
        newest, done = NewestFrame(), threading.Event()
        reader: threading.Thread | None = None
        if source.live:
            reader = threading.Thread(target=self._read_newest, args=(source, newest, done), daemon=True,
                                      name=f"{self.name} reader")
            reader.start()
        try:
            self._read_frames(loop, source, newest if reader is not None else None)
        finally:
            done.set()
            if reader is not None:
                reader.join(3.0)

    def _read_frames(self, loop: asyncio.AbstractEventLoop, source: FrameSource, newest: NewestFrame | None) -> None:
        started, count, delivered = time.monotonic(), 0, 0 if newest is not None else self.frames
        while not self._stop.is_set():
            frame = source.read() if newest is None else newest.take(0.5)
            if frame is None:
                continue
            if newest is not None:
                self.skipped = newest.skipped
            size = None if isinstance(frame, Status) else (int(frame.grey.shape[1]), int(frame.grey.shape[0]))
            pipeline = self._pipeline(size)
            if isinstance(frame, Status):  # the camera could not deliver
                if frame.code in ENDED:
                    raise CameraError(f"{source.name}: {frame.message}")
                pipeline.process_failure(frame, time.monotonic())
                self._post(loop, self.degraded, f"{source.name}: {frame.message}")
                continue
            result = pipeline.process(frame.grey, frame.timestamp)
            self._newest = (frame.grey, result, pipeline)
            self.last, self.frames, count = result, self.frames + 1, count + 1
            now = time.monotonic()
            if now - started >= RATE_SECONDS:
                given = newest.delivered if newest is not None else self.frames
                self.fps, self.camera_fps = count / (now - started), (given - delivered) / (now - started)
                started, count, delivered = now, 0, given
            status = result.observation.status
            if status.level == "ok":
                self._post(loop, self.ok, f"{source.name}: board registered{self._rates()}")
            else:
                self._post(loop, self.degraded, f"{source.name}: {status.message}")
            for listener in list(self._listeners_of_frames):
                listener(result)

    def _post(self, loop: asyncio.AbstractEventLoop, health: Callable[[str], None], message: str) -> None:
        """Hand the health to the event loop when it changed: waking the loop for every frame of a still table
        cost more than reading the frame."""
        if (health, message) != self._posted:
            self._posted = (health, message)
            loop.call_soon_threadsafe(health, message)

    def _rates(self) -> str:
        if not self.fps:
            return ""
        if self.camera_fps > self.fps + 0.5:
            return f", reads {self.fps:.0f} of the camera's {self.camera_fps:.0f} frames a second (the newest)"
        return f", {self.fps:.0f} frames a second"
