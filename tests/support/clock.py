"""A monotonic clock a test steps forward, for the parts that take one (web/auth.py's TableAuth, the buttons'
long press): a wait is measured on it instead of slept through."""

from __future__ import annotations


class Clock:
    """Starts at 1000 s and moves only when the test steps it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def step(self, seconds: float) -> None:
        self.now += seconds
