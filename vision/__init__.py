"""Vision: from camera frames to a stable board observation.

`VisionPipeline(floor, config, calibration).process(grey, timestamp)` is the whole per-frame job; its
`observation` is what the rest of the table may act on. See docs/vision.md.
"""

from vision.calibration import CameraCalibration
from vision.config import BoardGeometry, FilterSettings, UnitSpec, VisionConfig
from vision.filter import UnitNotSeen, UnitSighted, VisionEvent
from vision.observation import FrameReading, Observation, UnitState, UnknownMarker
from vision.pipeline import FrameResult, VisionPipeline
from vision.roster import ChipRoster, chips_for_state
from vision.snap import Sighting
from vision.status import Status

__all__ = [
    "CameraCalibration", "BoardGeometry", "FilterSettings", "UnitSpec", "VisionConfig", "UnitSighted", "UnitNotSeen",
    "VisionEvent", "FrameReading", "Observation", "UnitState", "UnknownMarker", "FrameResult", "VisionPipeline",
    "ChipRoster", "chips_for_state", "Sighting", "Status",
]
