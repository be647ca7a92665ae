"""The whole per-frame pipeline: detect -> register -> snap -> filter, never raising on bad frames.

One `VisionPipeline` per floor and camera. `process` takes a grey image; `process_failure` takes a status
from a camera source that could not deliver one. Either way the stable observation survives: a bad frame
only ages it.

Markers are searched only where the picture changed (vision/change.py): a marker in a part of the board that
did not change is read as it was in the last frame, so the filter gets a reading for every frame, the same one
a search of the whole frame would give, at a fraction of the cost. A frame where nothing changed costs a
comparison and the filter's update. The whole frame is searched every few seconds, when much of the board
changed at once, and whenever the registration found in the changed parts differs from the last frame's.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from controller.rules.board.geometry import Floor
from vision.calibration import CameraCalibration
from vision.change import ChangeDetector, Look
from vision.config import SIZE_TOLERANCE, VisionConfig
from vision.detect import MarkerDetection, MarkerDetector
from vision.filter import TemporalFilter, VisionEvent
from vision.observation import FrameReading, Observation, UnknownMarker
from vision.register import Registrar, Registration
from vision.sharpness import SharpnessMeter
from vision.snap import GridSnapper
from vision.status import BLUR_ADVICE, Status, ViewQuality
from vision.table_layout import TableLayout

MOVED_PX = 3.0  # the board's outline moved further than this in the picture: the camera moved, search everything


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
        board = self.config.board
        self.change: ChangeDetector | None = None
        if self.config.change.enabled:
            chip_px = self.config.sticker_px[1] * board.chip_mm / board.marker_mm
            self.change = ChangeDetector(self.config.change, chip_px, self.config.max_marker_px)
        self.searches = {"whole": 0, "changed": 0, "still": 0}  # frames by how much of them was searched
        self._last: FrameResult | None = None  # the last frame read from an image

    @property
    def observation(self) -> Observation:
        return self.filter.observation

    def process(self, grey: np.ndarray, timestamp: float) -> FrameResult:
        if grey.ndim != 2 or grey.dtype != np.uint8 or grey.size == 0:
            return self.process_failure(Status("error", "bad_image",
                                               f"expected an 8-bit grey image, got shape {grey.shape} of "
                                               f"{grey.dtype}: convert the frame before passing it"), timestamp)
        if self.change is None:
            return self.read(self.detector.detect(grey), timestamp, self.sharpness.measure(grey, timestamp))
        look, last = self.change.look(grey, timestamp), self._last
        if look.full or last is None:
            return self._whole(grey, timestamp)
        if look.still and last.registration is not None and last.registration.status.code == "ok":
            # nothing changed and the registration was solved, not held (a held one's message ages): the last
            # reading stands, at this frame's time
            self.searches["still"] += 1
            return self._fold(replace(last.reading, timestamp=timestamp), last.registration, last.detections)
        view = self.sharpness.measure(grey, timestamp) if look.windows else last.reading.view
        detections = self._changed(grey, look, last.detections)
        reading, reg = self._reading(detections, timestamp, view)
        if self._registration_moved(last.registration, reg):
            return self._whole(grey, timestamp, view)  # the registration changed: look at everything again
        self.searches["changed"] += 1
        return self._fold(reading, reg, tuple(detections))

    def _whole(self, grey: np.ndarray, timestamp: float, view: ViewQuality | None = None) -> FrameResult:
        """Search the whole frame, and frame the change detector's comparison on the board found."""
        self.searches["whole"] += 1
        detections = self.detector.detect(grey)
        reading, reg = self._reading(detections, timestamp, view or self.sharpness.measure(grey, timestamp))
        if self.change is not None and reg.status.code == "ok":
            self._frame_board(reg)
        elif self.change is not None:
            self.change.forget_board()
        return self._fold(reading, reg, tuple(detections))

    def _changed(self, grey: np.ndarray, look: Look, before: tuple[MarkerDetection, ...]) -> list[MarkerDetection]:
        """The last frame's markers where nothing changed, and the markers found in each window around a change
        whose centres lie in that window's own cells (a marker in two windows' pads is read once)."""
        assert self.change is not None
        cell = self.change.cell_px
        found = [d for d in before if not look.is_stale(*d.centre, cell)]
        for k, (x0, y0, x1, y1) in enumerate(look.windows):
            for d in self.detector.detect(grey[y0:y1, x0:x1]):
                moved = MarkerDetection(d.id, d.corners + np.array([x0, y0], np.float32))
                if look.window_of(*moved.centre, cell) == k:
                    found.append(moved)
        return found

    def _registration_moved(self, before: Registration | None, now: Registration) -> bool:
        """Whether the board was lost or found, or now lies elsewhere in the picture (the camera was knocked):
        a hand over a registration marker changes which markers are seen, not where the board is."""
        if before is None or before.status.code != now.status.code:
            return True
        if before.homography is None or now.homography is None or before.homography is now.homography:
            return before.homography is not now.homography
        x0, y0, x1, y1 = self.layout.extent_mm()
        outline = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)
        return bool(np.max(np.linalg.norm(now.to_image(outline) - before.to_image(outline), axis=1)) > MOVED_PX)

    def _frame_board(self, reg: Registration) -> None:
        """The board's outline in the image (everything printed, grown by a chip) and its scale: the chip and
        the largest marker in px at the nearest edge."""
        assert self.change is not None
        board = self.config.board
        x0, y0, x1, y1 = self.layout.extent_mm()
        grow = board.chip_mm
        outline = np.array([[x0 - grow, y0 - grow], [x1 + grow, y0 - grow], [x1 + grow, y1 + grow],
                            [x0 - grow, y1 + grow]], np.float64)
        px = reg.to_image(outline)
        mm = np.linalg.norm(outline - np.roll(outline, 1, axis=0), axis=1)
        px_per_mm = float(np.max(np.linalg.norm(px - np.roll(px, 1, axis=0), axis=1) / mm))
        self.change.frame_board(px, board.chip_mm * px_per_mm, board.anchor_mm * px_per_mm * (1 + SIZE_TOLERANCE))

    def _fold(self, reading: FrameReading, reg: Registration | None,
              detections: tuple[MarkerDetection, ...]) -> FrameResult:
        events = self.filter.update(reading)
        result = FrameResult(reading, self.filter.observation, events, reg, detections)
        self._last = result
        return result

    def read(self, detections: list[MarkerDetection], timestamp: float, view: ViewQuality | None = None) -> FrameResult:
        """Everything after OpenCV's detection: the part this project adds to each frame's cost."""
        reading, reg = self._reading(detections, timestamp, view)
        events = self.filter.update(reading)
        return FrameResult(reading, self.filter.observation, events, reg, tuple(detections))

    def _reading(self, detections: list[MarkerDetection], timestamp: float,
                 view: ViewQuality | None) -> tuple[FrameReading, Registration]:
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
        return FrameReading(timestamp, status, reg.anchors_seen, tuple(sightings), tuple(unknown), view), reg

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
        self._last = None  # the next picture is searched whole: nothing is known to have stayed the same
        events = self.filter.update(reading)
        return FrameResult(reading, self.filter.observation, events, None)
