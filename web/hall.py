"""The hall's web app: one page listing every table on a broker, and the JSON it is built from.

Separate from the table's app (web/app.py): the hall serves no table, only what its subscriber reads from
the broker's retained topics (controller/hall). `GET /` is the page (web/static/hall.html, sent by the pages'
one `page` with their Content-Security-Policy; its script and style are files under the one /static mount, the
dashboard's own), `GET /api/tables` the picture as JSON, and `GET /ws` pushes the picture to the page: once on
connect, then each time the broker's news changed it (never on a timer).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse

from controller.rules import BurncycleError
from web.errors import refusal
from web.feed import accepted, feed
from web.routers.page import Assets, page

if TYPE_CHECKING:
    from controller.hall.view import HallView


def create_hall_app(view: HallView) -> FastAPI:
    app = FastAPI(title="burncycle-table hall", version="1",
                  description="Every burncycle table on one MQTT broker, from their retained topics.")

    @app.get("/", include_in_schema=False)
    def hall_page() -> FileResponse:
        return page("hall")

    @app.get("/api/tables", summary="Every table on the broker: mission, threat, phase, round, online")
    def tables() -> dict[str, Any]:
        return view.to_dict()

    @app.websocket("/ws")
    async def live(websocket: WebSocket) -> None:
        """The hall as it changes: `{"type": "snapshot", "hall": ...}` on connect, then `{"type": "hall", ...}`
        each time the broker's messages changed it (what `GET /api/tables` answers)."""
        if not await accepted(websocket):
            return
        loop, changed = asyncio.get_running_loop(), asyncio.Event()
        unlisten = view.listen(lambda: loop.call_soon_threadsafe(changed.set))

        async def texts() -> AsyncIterator[str]:
            shown = view.to_dict()
            yield _text({"type": "snapshot", "hall": shown})
            while True:
                await changed.wait()
                changed.clear()
                now = view.to_dict()
                if now != shown:
                    shown = now
                    yield _text({"type": "hall", "hall": now})

        try:
            await feed(websocket, texts())
        finally:
            unlisten()

    app.mount("/static", Assets(), name="static")  # the page's script and style, the dashboard's modules

    @app.exception_handler(BurncycleError)
    async def refused(request: Request, exc: BurncycleError) -> JSONResponse:
        """A refusal of the one tree (a file that is no asset of the page): its code and status, as the table's
        app answers it (web/errors.py), never a server error."""
        return refusal(exc)

    return app


def _text(message: dict[str, Any]) -> str:
    """A message as the page reads it (compact JSON, as Starlette's `send_json` writes it)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)
