"""GET /ws: the live feed. A snapshot on connect, then every change, table-view and health update (web/hub.py);
anyone may watch, but a handshake from another site's page is refused (`bad_origin`)."""

from __future__ import annotations

import contextlib

import anyio
from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from web.auth import check_websocket_origin
from web.errors import refusal
from web.hub import Hub

router = APIRouter(tags=["live"])


@router.websocket("/ws")
async def live(websocket: WebSocket) -> None:
    refused = check_websocket_origin(websocket)
    if refused is not None:
        if "websocket.http.response" in websocket.scope.get("extensions", {}):
            await websocket.send_denial_response(refusal(refused))
        else:
            await websocket.close(code=1008, reason=refused.code)
        return
    await websocket.accept()
    hub: Hub = websocket.app.state.hub
    client = hub.join()
    try:
        async with anyio.create_task_group() as tasks:
            async def send() -> None:
                with contextlib.suppress(WebSocketDisconnect, OSError):  # the page went away mid-send
                    while True:
                        await websocket.send_text(await hub.next_text(client))
                tasks.cancel_scope.cancel()

            async def receive() -> None:  # the page sends nothing; this notices it going away
                while (await websocket.receive())["type"] != "websocket.disconnect":
                    pass
                tasks.cancel_scope.cancel()

            tasks.start_soon(send)
            tasks.start_soon(receive)
    finally:
        hub.leave(client)
