"""The game log's health: the session's SQLite file as a supervised component, so a full disk or a file another
program holds shows on the health page like any other part."""

from __future__ import annotations

import asyncio

from controller.service.frame.components import Component
from controller.service.game.session import GameSession


class GameLog(Component):
    """The game log (SQLite) as a component: it is the session's, so it has no loop of its own; its health
    tells whether the last write went to disk, as the session's writer tells it (`watch_log`), at once."""

    def __init__(self, session: GameSession) -> None:
        super().__init__("game")
        self.session = session

    async def start(self) -> None:
        self.ok(f"game log {self.session.path}")

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        unwatch = self.session.watch_log(lambda error: loop.call_soon_threadsafe(self._show, error))
        try:
            self._show(self.session.last_error)
            await asyncio.Event().wait()
        finally:
            unwatch()

    def _show(self, error: str | None) -> None:
        if error is None:
            self.ok(f"game log {self.session.path}")
        else:
            self.degraded(f"{error}; the change was refused and nothing acknowledged is lost")
