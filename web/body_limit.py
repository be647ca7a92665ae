"""How large a request body may be, per route, refused before it is read whole or parsed.

A Pi has 1-2 GB, and every route used to read its body whole and parse it before any size or PIN check: one
50 MB body cost the service 150 MB of peak memory. Here a body larger than its route takes is a 413 `too_large`
at once by its Content-Length (the client has sent none of it yet), or, for a body that does not say its size
(chunked), as soon as the bytes read pass the limit, so no more than the limit is ever held. Most routes take an
action, a login, faces or a correction (well under 1 KB); a floor, a new game with a custom floor and an
imported game file take more, each named here with its own limit.
"""

from __future__ import annotations

from collections.abc import Mapping

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from web.errors import TooLarge, refusal

MOST_BODY_BYTES = 16 * 1024


def too_large(method: str, path: str, limit: int) -> TooLarge:
    return TooLarge(f"{method} {path}: the body is larger than the {limit} bytes this endpoint takes",
                    headers={"Connection": "close"})


class BodyLimit:
    """ASGI middleware: `limits` maps a path to the most bytes its body may have; any other path takes `default`."""

    def __init__(self, app: ASGIApp, limits: Mapping[str, int], default: int = MOST_BODY_BYTES) -> None:
        self.app, self.limits, self.default = app, dict(limits), default

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limits.get(scope["path"], self.default)
        refused = too_large(scope["method"], scope["path"], limit)
        length = Headers(scope=scope).get("content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await refusal(refused)(scope, receive, send)
            return
        read = 0

        async def counted() -> Message:
            nonlocal read
            message = await receive()
            if message["type"] == "http.request":
                read += len(message.get("body", b""))
                if read > limit:
                    raise refused
            return message

        await self.app(scope, counted, send)
