"""Hints and the threat overlay for the table's players: the search's thinking in a worker process, never on the
event loop or the session's writer (desk.py, `HintDesk`)."""

from controller.service.hints.desk import (
    HintAnswer,
    HintDesk,
    HintKind,
    HintOption,
    HintStatus,
    HintView,
    ThreatShare,
    attach,
)

__all__ = ["HintAnswer", "HintDesk", "attach", "HintKind", "HintOption", "HintStatus", "HintView", "ThreatShare"]
