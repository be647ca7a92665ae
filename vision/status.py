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
