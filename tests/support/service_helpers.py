"""Helpers the service and web tests share: a healthy component that counts, waiting for a condition on the
loop, and a table's config on loopback."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from controller.cli.compose import build
from controller.service.frame.components import Component
from controller.service.frame.config import ServiceConfig
from controller.service.table import TableService


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


def config(tmp_path: Path, port: int = 8080) -> ServiceConfig:
    """A table on loopback `port` with its game log in `tmp_path` and no camera."""
    return ServiceConfig(database={"path": tmp_path / "games.sqlite3"},  # type: ignore[arg-type]
                         web={"host": "127.0.0.1", "port": port}, camera={"source": "none"})


@contextmanager
def built_service(tmp_path: Path, *, game: bool) -> Iterator[TableService]:
    """A table service as `build` makes it from `config` (seed 5, nothing started), with a new game when `game`;
    its game log closed at the end."""
    made = build(config(tmp_path), seed=5)
    if game:
        made.new_game()
    try:
        yield made
    finally:
        made.session.close()
