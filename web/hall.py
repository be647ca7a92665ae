"""The hall's web app: one page listing every table on a broker, and the JSON it is built from.

Separate from the table's app (web/app.py): the hall serves no table, only what its subscriber reads from
the broker's retained topics (controller/hall). `GET /` is the page (web/static/hall.html, sent by the pages'
one `page` with their Content-Security-Policy; its script and style are files under the one /static mount, the
dashboard's own), `GET /api/tables` the picture as JSON, and `GET /ws` pushes the picture to the page: once on
connect, then each time the broker's news changed it (never on a timer).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any

import anyio
from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse

from controller.rules import BurncycleError
from web.auth import check_websocket_origin
from web.errors import refusal
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
        refusal = check_websocket_origin(websocket)
        if refusal is not None:
            await websocket.close(code=1008, reason=refusal.code)
            return
        await websocket.accept()
        loop, changed = asyncio.get_running_loop(), asyncio.Event()
        unlisten = view.listen(lambda: loop.call_soon_threadsafe(changed.set))
        try:
            async with anyio.create_task_group() as tasks:
                async def send() -> None:
                    with contextlib.suppress(WebSocketDisconnect, OSError):  # the page went away mid-send
                        shown = view.to_dict()
                        await websocket.send_json({"type": "snapshot", "hall": shown})
                        while True:
                            await changed.wait()
                            changed.clear()
                            now = view.to_dict()
                            if now != shown:
                                shown = now
                                await websocket.send_json({"type": "hall", "hall": now})
                    tasks.cancel_scope.cancel()

                async def receive() -> None:  # the page sends nothing; this notices it going away
                    while (await websocket.receive())["type"] != "websocket.disconnect":
                        pass
                    tasks.cancel_scope.cancel()

                tasks.start_soon(send)
                tasks.start_soon(receive)
        finally:
            unlisten()

    app.mount("/static", Assets(), name="static")  # the page's script and style, the dashboard's modules

    @app.exception_handler(BurncycleError)
    async def refused(request: Request, exc: BurncycleError) -> JSONResponse:
        """A refusal of the one tree (a file that is no asset of the page): its code and status, as the table's
        app answers it (web/errors.py), never a server error."""
        return refusal(exc)

    return app
