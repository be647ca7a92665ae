"""Helpers the service tests share: a healthy component that counts, and waiting for a condition."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from controller.service.components import Component


class Ticker(Component):
    """A healthy part: counts while it runs, so a test can see it kept running."""

    def __init__(self, name: str = "ticker") -> None:
        super().__init__(name)
        self.ticks = 0
        self.stopped = 0

    async def run(self) -> None:
        while True:
            self.ticks += 1
            await asyncio.sleep(0.002)

    async def stop(self) -> None:
        self.stopped += 1


async def until(check: Callable[[], bool], timeout: float = 5.0) -> None:
    """Waits until `check()` is true, or fails the test after `timeout` seconds."""
    async def poll() -> None:
        while not check():
            await asyncio.sleep(0.002)
    await asyncio.wait_for(poll(), timeout)
