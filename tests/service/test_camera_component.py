"""The camera component never queues frames: a slow reader reads the newest frame, fewer of them, never older ones,
and /health's figures say at which rate the camera delivers, at which the table reads, and how many it skipped."""

from __future__ import annotations

import asyncio
import queue
import threading
import time

import numpy as np

from controller.library import load_content
from controller.rules import new_game
from controller.service.camera.component import CameraComponent, NewestFrame
from controller.service.frame.config import ServiceConfig
from controller.service.table import setup_from_config
from vision.config import VisionConfig
from vision.pipeline import FrameResult, VisionPipeline
from vision.sources.base import Frame, FrameSource
from vision.status import Status

PERIOD = 0.005  # a camera of 200 frames a second
SLOW = 0.05     # a reader that takes 50 ms a frame


class FastCamera(FrameSource):
    """A live camera at its own pace, its driver queueing every frame taken (as V4L2's and libcamera's buffers
    do): a frame is stamped with the time it was taken, and `read` gives the oldest not yet read."""

    name = "fast camera"

    def __init__(self) -> None:
        super().__init__()
        self.taken: queue.Queue[Frame] = queue.Queue()
        self.running = threading.Event()

    def _open(self) -> Status:
        self.running.set()
        threading.Thread(target=self._film, daemon=True).start()
        return Status("ok", "ok", "running")

    def _film(self) -> None:
        k = 0
        while self.running.is_set():
            time.sleep(PERIOD)
            k += 1
            self.taken.put(Frame(np.full((120, 160), k % 256, np.uint8), time.monotonic(), k))

    def _read(self, timeout: float) -> Frame | Status:
        try:
            return self.taken.get(timeout=timeout)
        except queue.Empty:
            return Status("warning", "no_new_frame", "no frame")

    def _close(self) -> None:
        self.running.clear()


def test_the_newest_frame_replaces_one_not_yet_taken_and_counts_it_skipped() -> None:
    slot = NewestFrame()
    for k in range(3):
        slot.put(Frame(np.zeros((2, 2), np.uint8), float(k), k))
    taken = slot.take(0.1)
    assert isinstance(taken, Frame) and taken.index == 2
    assert (slot.delivered, slot.skipped) == (3, 2)
    assert slot.take(0.01) is None


def test_a_slow_reader_reads_the_newest_frames_and_health_says_at_which_rate() -> None:
    state = new_game(load_content(), setup_from_config(ServiceConfig().game, 1))
    camera = CameraComponent(FastCamera, lambda floor: VisionPipeline(floor, VisionConfig()),
                             floor_of=lambda: state.floor)
    lags: list[float] = []
    indices: list[int] = []

    def slow(result: FrameResult) -> None:
        lags.append(time.monotonic() - result.reading.timestamp)
        indices.append(camera.frames)
        time.sleep(SLOW)

    camera.on_frame(slow)

    async def play() -> None:
        await camera.start()
        task = asyncio.create_task(camera.run())
        await asyncio.sleep(3.0)
        body = camera.status()
        await camera.stop()
        await asyncio.wait_for(task, 5)
        assert body["camera_fps"] > 3 * body["reads_fps"] > 0, body
        assert body["skipped"] > 0 and "searched" in body

    asyncio.run(play())
    assert len(lags) >= 20
    # each frame read is about one reader's frame old (a loaded machine adds a little); with a queue the lag would
    # grow by SLOW every frame read, to over 2 s in these 3 s
    assert max(lags[5:]) < 0.5, f"lags grew to {max(lags):.3f} s"
    assert camera.skipped > len(lags)
    assert not [t for t in threading.enumerate() if t.name == "camera reader"]
