"""GET /ws: the live feed. A snapshot on connect, then every change, table-view and health update (web/hub.py);
anyone may watch, but a handshake from another site's page is refused (`bad_origin`)."""

from __future__ import annotations

from collections.abc import AsyncIterator

from fastapi import APIRouter, WebSocket

from web.feed import accepted, feed
from web.hub import Hub

router = APIRouter(tags=["live"])


@router.websocket("/ws")
async def live(websocket: WebSocket) -> None:
    if not await accepted(websocket):
        return
    hub: Hub = websocket.app.state.hub
    client = hub.join()

    async def texts() -> AsyncIterator[str]:
        while True:
            yield await hub.next_text(client)

    try:
        await feed(websocket, texts())
    finally:
        hub.leave(client)
