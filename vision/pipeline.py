"""The whole per-frame pipeline: detect -> register -> snap -> filter, never raising on bad frames.

One `VisionPipeline` per floor and camera. `process` takes a grey image; `process_failure` takes a status
from a camera source that could not deliver one. Either way the stable observation survives: a bad frame
only ages it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from controller.rules.board.geometry import Floor
from vision.calibration import CameraCalibration
from vision.config import SIZE_TOLERANCE, VisionConfig
from vision.detect import MarkerDetection, MarkerDetector
from vision.filter import TemporalFilter, VisionEvent
from vision.observation import FrameReading, Observation, UnknownMarker
from vision.register import Registrar, Registration
from vision.sharpness import SharpnessMeter
from vision.snap import GridSnapper
from vision.status import BLUR_ADVICE, Status, ViewQuality
from vision.table_layout import TableLayout


@dataclass(frozen=True)
class FrameResult:
    reading: FrameReading
    observation: Observation
    events: list[VisionEvent]
    registration: Registration | None
    detections: tuple[MarkerDetection, ...] = ()


class VisionPipeline:
    def __init__(self, floor: Floor, config: VisionConfig | None = None,
                 calibration: CameraCalibration | None = None) -> None:
        self.floor = floor
        self.config = config or VisionConfig()
        self.layout = TableLayout.for_floor(floor, self.config.board)
        self.detector = MarkerDetector(self.config)
        self.registrar = Registrar(self.config, self.layout, calibration)
        self.snapper = GridSnapper(floor, self.config)
        self.filter = TemporalFilter([u.id for u in self.config.units], self.config.filter)
        self.sharpness = SharpnessMeter()
        self._units = self.config.marker_units
        self._anchors = self.config.anchor_ids

    @property
    def observation(self) -> Observation:
        return self.filter.observation

    def process(self, grey: np.ndarray, timestamp: float) -> FrameResult:
        if grey.ndim != 2 or grey.dtype != np.uint8 or grey.size == 0:
            return self.process_failure(Status("error", "bad_image",
                                               f"expected an 8-bit grey image, got shape {grey.shape} of "
                                               f"{grey.dtype}: convert the frame before passing it"), timestamp)
        view = self.sharpness.measure(grey, timestamp)
        detections = self.detector.detect(grey)
        return self.read(detections, timestamp, view)

    def read(self, detections: list[MarkerDetection], timestamp: float, view: ViewQuality | None = None) -> FrameResult:
        """Everything after OpenCV's detection: the part this project adds to each frame's cost."""
        anchors = [d for d in detections if d.id in self._anchors]
        reg = self.registrar.register(anchors, timestamp)
        sightings, unknown = [], []
        others = [d for d in detections if d.id not in self._anchors]
        if reg.homography is not None and others:
            corners = self.registrar.undistort(np.concatenate([d.corners for d in others]))
            table = reg.to_table(corners).reshape(-1, 4, 2)
            for d, mm in zip(others, table):
                if not self._plausible(mm):
                    continue
                unit = self._units.get(d.id)
                if unit is None:
                    c = mm.mean(axis=0)
                    unknown.append(UnknownMarker(d.id, d.centre, (float(c[0]), float(c[1]))))
                else:
                    sightings.append(self.snapper.snap(unit, d.id, mm, d.centre))
        elif others:
            unknown = [UnknownMarker(d.id, d.centre, None) for d in others if d.id not in self._units]
        status = reg.status
        if view is not None and view.blurred and status.ok:
            status = Status("warning", "blurred", f"{BLUR_ADVICE} (sharpness {view.ratio:.0%} of the recent best)")
        reading = FrameReading(timestamp, status, reg.anchors_seen, tuple(sightings), tuple(unknown), view)
        events = self.filter.update(reading)
        return FrameResult(reading, self.filter.observation, events, reg, tuple(detections))

    def _plausible(self, corners_mm: np.ndarray) -> bool:
        """A printed sticker is a square of known size on the table; a quad that is not is a misread.

        OpenCV sometimes decodes part of a marker (half of it, bounded by a shadow line) or a sliver of
        texture as some id; such a quad is far from a 21 mm square in table millimetres. Unknown markers
        are held to the same size: the ones worth reporting are stickers printed from another roster.
        """
        sides = np.linalg.norm(corners_mm - np.roll(corners_mm, 1, axis=0), axis=1)
        expected = self.config.board.marker_mm
        return bool(np.all(np.abs(sides - expected) <= SIZE_TOLERANCE * expected))

    def process_failure(self, status: Status, timestamp: float) -> FrameResult:
        """A frame that never came (camera lost, unreadable file): age the units, keep their places."""
        reading = FrameReading(timestamp, status)
        events = self.filter.update(reading)
        return FrameResult(reading, self.filter.observation, events, None)
