"""A status a person can act on: what is wrong, where, and what to do.

Every stage of the pipeline reports through this one shape instead of raising, so a bad frame or a lost
camera degrades the table (the last stable observation is kept) rather than stopping it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Status:
    level: str    # "ok", "warning" (working, but look), "error" (this frame told us nothing)
    code: str     # stable machine-readable name, e.g. "too_few_anchors"
    message: str  # one sentence for the players

    @property
    def ok(self) -> bool:
        return self.level == "ok"

    def to_dict(self) -> dict[str, str]:
        return {"level": self.level, "code": self.code, "message": self.message}


OK = Status("ok", "ok", "board registered, markers read")


BLUR_ADVICE = ("the camera's view is blurred: the table was knocked or shaken, or the exposure is too long for a "
               "moving hand; moves wait for a sharp view (light the table more so the exposure can be shorter, "
               "see docs/vision.md)")


@dataclass(frozen=True)
class ViewQuality:
    """How sharp a frame is, against the sharpest frame of the last while: what the health endpoint shows.

    The camera is fixed, so a frame much softer than its recent best is motion blur (a shaken table, a
    long exposure), not a change of scene.
    """

    sharpness: float   # mean absolute Laplacian at half resolution, grey levels
    reference: float   # the sharpest frame's of the last REFERENCE_SECONDS
    blurred: bool

    @property
    def ratio(self) -> float:
        return self.sharpness / self.reference if self.reference > 0 else 1.0

    def to_dict(self) -> dict[str, object]:
        return {"sharpness": round(self.sharpness, 2), "reference": round(self.reference, 2),
                "ratio": round(self.ratio, 3), "blurred": self.blurred}
