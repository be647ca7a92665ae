"""A camera that films a rendered table: the demo's and the tests' camera when there is no hardware."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.sources.base import Frame, FrameSource
from vision.status import Status
from vision.synth import CameraPose, Conditions, Hand, Renderer, Scene, SynthFrame


class SyntheticSource(FrameSource):
    """Frame k shows `scene_at(k)` through a fixed pose, with optional hands per frame; time is k / fps."""

    name = "synthetic camera"
    live = False  # frame k is rendered when asked for, timed k / fps

    def __init__(self, renderer: Renderer, scene_at: Callable[[int], Scene], pose: CameraPose = CameraPose(),
                 size: tuple[int, int] = (1280, 720), fps: float = 15.0, conditions: Conditions = Conditions(),
                 hands_at: Callable[[int], tuple[Hand, ...]] | None = None, frames: int | None = None,
                 seed: int = 0) -> None:
        super().__init__()
        self.renderer, self.scene_at, self.pose, self.size, self.fps = renderer, scene_at, pose, size, fps
        self.conditions, self.hands_at, self.frames, self.seed = conditions, hands_at, frames, seed
        self.last: SynthFrame | None = None
        self._index = 0
        self._rng = np.random.default_rng(seed)

    def _open(self) -> Status:
        self._index, self._rng = 0, np.random.default_rng(self.seed)
        return Status("ok", "ok", "synthetic camera running")

    def _read(self, timeout: float) -> Frame | Status:
        k = self._index
        if self.frames is not None and k >= self.frames:
            return Status("error", "source_ended", f"synthetic camera: all {self.frames} frames played")
        self._index += 1
        hands = self.hands_at(k) if self.hands_at else ()
        self.last = self.renderer.render(self.scene_at(k), self.pose, self.size, self.conditions, hands, self._rng)
        return Frame(self.last.grey, k / self.fps, k, self.last.image)

    def _close(self) -> None:
        self.last = None
