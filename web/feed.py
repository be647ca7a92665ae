"""One way every page's live feed is served (the table's /ws and the hall's /ws): a handshake from another
site's page is refused, then each text the feed makes is sent until the page goes away.

Why one helper: the page sends nothing, so a feed must both send and listen for the page leaving; written twice,
the two copies drifted (the hall refused another site's page without the HTTP denial the table gives)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import anyio
from fastapi import WebSocket, WebSocketDisconnect

from web.auth import check_websocket_origin
from web.errors import refusal


async def accepted(websocket: WebSocket) -> bool:
    """Accepts a page's handshake, or refuses one from another site's page (`bad_origin`): as an HTTP 403 where
    the server can answer a handshake so, else as a close with code 1008. True when accepted."""
    refused = check_websocket_origin(websocket)
    if refused is None:
        await websocket.accept()
        return True
    if "websocket.http.response" in websocket.scope.get("extensions", {}):
        await websocket.send_denial_response(refusal(refused))
    else:
        await websocket.close(code=1008, reason=refused.code)
    return False


async def feed(websocket: WebSocket, texts: AsyncIterator[str]) -> None:
    """Sends each of `texts` to an accepted page until it goes away (a send that fails, or its close), and then
    stops waiting for the next text."""
    async with anyio.create_task_group() as tasks:
        async def send() -> None:
            with contextlib.suppress(WebSocketDisconnect, OSError):  # the page went away mid-send
                async for text in texts:
                    await websocket.send_text(text)
            tasks.cancel_scope.cancel()

        async def receive() -> None:  # the page sends nothing; this notices it going away
            while (await websocket.receive())["type"] != "websocket.disconnect":
                pass
            tasks.cancel_scope.cancel()

        tasks.start_soon(send)
        tasks.start_soon(receive)
