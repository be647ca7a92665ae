"""The camera as a supervised component: frames off the event loop, through vision, to whoever listens.

A camera is slow and blocking (a USB read, the Pi's ISP, OpenCV's detection), so its loop runs in a thread
of its own and hands each frame's result to the listeners (the reconciler, the dashboard's view). A camera
that vanishes ends the loop with an error the supervisor shows on /health and retries with backoff; a frame
the board cannot be found in only degrades the component ("board not registered: is something covering the
registration markers?"), the last stable observation stands.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable

from controller.rules import Floor, TableError, compile_floor
from controller.rules.state import FloorState
from controller.service.components import Component
from vision.pipeline import FrameResult, VisionPipeline
from vision.sources.base import FrameSource
from vision.status import Status


class CameraError(TableError):
    """The camera cannot be opened or was lost."""

    code = "camera_error"


class CameraComponent(Component):
    """Reads `open_source()`'s frames through `pipeline`, calling each listener with every `FrameResult` from
    the camera's thread (a listener must be quick, or hand the work on)."""

    def __init__(self, open_source: Callable[[], FrameSource], make_pipeline: Callable[[Floor], VisionPipeline], *,
                 floor_of: Callable[[], FloorState], name: str = "camera") -> None:
        super().__init__(name)
        self._open_source = open_source
        self._make_pipeline, self._floor_of = make_pipeline, floor_of
        self._floor_text = ""
        self.pipeline: VisionPipeline | None = None
        self.source: FrameSource | None = None
        self.last: FrameResult | None = None
        self.frames = 0
        self.fps = 0.0
        self._listeners_of_frames: list[Callable[[FrameResult], None]] = []
        self._stop = threading.Event()

    def on_frame(self, listener: Callable[[FrameResult], None]) -> None:
        self._listeners_of_frames.append(listener)

    async def start(self) -> None:
        self._stop.clear()
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

    def _pipeline(self) -> VisionPipeline:
        """The pipeline for the game's floor now (a new one when the team changes floors)."""
        floor = self._floor_of()
        if self.pipeline is None or floor.text != self._floor_text:
            self.pipeline = self._make_pipeline(compile_floor(floor.text, floor.name))
            self._floor_text = floor.text
        return self.pipeline

    def _loop(self, loop: asyncio.AbstractEventLoop) -> None:
        source = self.source
        if source is None:
            return
        started, count = time.monotonic(), 0
        while not self._stop.is_set():
            pipeline = self._pipeline()
            frame = source.read()
            if isinstance(frame, Status):  # the camera could not deliver
                if frame.code in ("camera_lost", "source_ended"):
                    raise CameraError(f"{source.name}: {frame.message}")
                pipeline.process_failure(frame, time.monotonic())
                loop.call_soon_threadsafe(self.degraded, f"{source.name}: {frame.message}")
                continue
            result = pipeline.process(frame.grey, frame.timestamp)
            self.last, self.frames, count = result, self.frames + 1, count + 1
            now = time.monotonic()
            if now - started >= 2.0:
                self.fps, started, count = count / (now - started), now, 0
            status = result.observation.status
            if status.level == "ok":
                rate = f", {self.fps:.0f} frames a second" if self.fps else ""
                loop.call_soon_threadsafe(self.ok, f"{source.name}: board registered{rate}")
            else:
                loop.call_soon_threadsafe(self.degraded, f"{source.name}: {status.message}")
            for listener in list(self._listeners_of_frames):
                listener(result)
