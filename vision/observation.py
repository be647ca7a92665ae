"""The values vision hands to the rest of the table: a frame's raw reading and the stable observation.

`FrameReading` is what one frame showed (it may be wrong: a hand, glare); `Observation` is what the
temporal filter believes, the only thing the reconciler should act on. Both turn into plain JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from vision.snap import Sighting
from vision.status import Status, ViewQuality


@dataclass(frozen=True)
class UnknownMarker:
    """A decoded marker that is neither a registration marker nor a unit of the config."""

    marker: int
    image_px: tuple[float, float]
    table_mm: tuple[float, float] | None

    def to_dict(self) -> dict[str, object]:
        return {"marker": self.marker, "image_px": [round(v, 1) for v in self.image_px],
                "table_mm": None if self.table_mm is None else [round(v, 1) for v in self.table_mm]}


@dataclass(frozen=True)
class FrameReading:
    timestamp: float
    status: Status
    anchors_seen: tuple[str, ...] = ()
    sightings: tuple[Sighting, ...] = ()
    unknown: tuple[UnknownMarker, ...] = ()
    view: ViewQuality | None = None  # None when no image came (a camera failure)

    @property
    def registered(self) -> bool:
        return self.status.level != "error"

    @property
    def blurred(self) -> bool:
        return self.view is not None and self.view.blurred


@dataclass
class UnitState:
    """What the filter believes about one unit."""

    unit: str
    space: str | None = None
    facing: str | None = None
    confidence: float = 0.0
    last_seen: float | None = None
    seen: bool = False               # seen in the latest frame
    doubt: str | None = None         # the latest sighting's doubt, if it had one
    candidates: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {"space": self.space, "facing": self.facing, "confidence": round(self.confidence, 3),
                "last_seen": None if self.last_seen is None else round(self.last_seen, 3), "seen": self.seen,
                "doubt": self.doubt, "candidates": list(self.candidates)}


@dataclass
class Observation:
    timestamp: float
    status: Status
    units: dict[str, UnitState] = field(default_factory=dict)
    unknown: tuple[UnknownMarker, ...] = ()
    questions: tuple[str, ...] = ()
    view: ViewQuality | None = None   # the latest frame's sharpness and whether it is blurred

    def placed(self) -> dict[str, tuple[str, str | None]]:
        """unit -> (space, facing) for every unit the filter has placed on the floor."""
        return {u: (s.space, s.facing) for u, s in self.units.items() if s.space is not None}

    def to_dict(self) -> dict[str, object]:
        return {"timestamp": round(self.timestamp, 3), "status": self.status.to_dict(),
                "units": {u: s.to_dict() for u, s in sorted(self.units.items())},
                "unknown_markers": [m.to_dict() for m in self.unknown], "questions": list(self.questions),
                "view": None if self.view is None else self.view.to_dict()}
