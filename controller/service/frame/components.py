"""A part of the table service that can fail on its own: the camera, the LED board, the buttons, the web.

Each component says how it is in words a person at the table understands ("LED board not answering on
/dev/burncycle-leds: retrying"), because the health page is read by players, not by developers. The
supervisor starts, restarts and stops components; a component only opens, works and closes its part.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from enum import Enum
from typing import Any


class Health(str, Enum):
    """How a component stands. DEGRADED: working, but not fully (a board that comes and goes)."""

    STARTING = "starting"
    OK = "ok"
    DEGRADED = "degraded"
    FAILED = "failed"
    STOPPED = "stopped"


def error_text(err: BaseException) -> str:
    """An exception as a sentence: an OS error's own words and file, else its message, else its kind."""
    if isinstance(err, OSError) and err.strerror:
        return f"{err.strerror}: {err.filename}" if err.filename else err.strerror
    return str(err) or type(err).__name__


class Component:
    """Subclass and override `start` (open the part: raise if it cannot), `run` (work until cancelled;
    raise if the part is lost) and `stop` (close it; called after a failure too, so it must cope with a
    half-open part). Report a working-but-impaired part with `degraded(...)` and its return with `ok(...)`."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.health = Health.STOPPED
        self.message = "not started"
        self.last_error: str | None = None
        self.retries = 0
        self._since = time.monotonic()
        self._listeners: list[Callable[[Component], None]] = []

    async def start(self) -> None:
        """Opens the part. The default has nothing to open."""

    async def run(self) -> None:
        """Does the component's work until cancelled. The default waits: the part works by itself."""
        await asyncio.Event().wait()

    async def stop(self) -> None:
        """Closes the part. The default has nothing to close."""

    # -- health ----------------------------------------------------------------------------------
    def ok(self, message: str = "working") -> None:
        self.set_health(Health.OK, message)

    def degraded(self, message: str) -> None:
        self.set_health(Health.DEGRADED, message)

    def set_health(self, health: Health, message: str) -> None:
        """Records a new state; listeners hear of it only when state or message changed."""
        if (health, message) == (self.health, self.message):
            return
        if health is not self.health:
            self._since = time.monotonic()
        self.health, self.message = health, message
        for listener in list(self._listeners):
            listener(self)

    def listen(self, listener: Callable[[Component], None]) -> None:
        """Calls `listener(component)` on the event loop's thread at every change of health."""
        self._listeners.append(listener)

    def status(self) -> dict[str, Any]:
        """The JSON-able health of this component, for GET /health."""
        return {
            "state": self.health.value,
            "message": self.message,
            "last_error": self.last_error,
            "retries": self.retries,
            "for_s": round(time.monotonic() - self._since, 1),
        }
