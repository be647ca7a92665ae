"""The web server as a supervised component: uvicorn serving the app inside the service's own event loop.

One process, one loop: the dashboard's requests and WebSockets run beside the LED loop and the buttons, and
the service's Ctrl-C (or systemd's stop) stops them all together, so uvicorn must not take the signals for
itself. A port already in use fails the component with a message that says so, and it is retried.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Generator
from typing import Any

import uvicorn

from controller.rules import BurncycleError
from controller.service.frame.components import Component


class WebError(BurncycleError):
    code = "web_error"


class _Server(uvicorn.Server):
    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:  # the service handles the signals
        yield


class WebServer(Component):
    def __init__(self, app: Any, host: str, port: int, proxies: tuple[str, ...] = ()) -> None:
        super().__init__("web")
        self.app, self.host, self.port, self.proxies = app, host, port, proxies
        self.server: _Server | None = None
        self._socket: socket.socket | None = None

    @property
    def address(self) -> str:
        return f"http://{self.host}:{self.port}"

    async def start(self) -> None:
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((self.host, self.port))
        except OSError as err:
            sock.close()
            raise WebError(f"cannot listen on {self.host}:{self.port}: {err.strerror} (is another table service "
                           f"running? choose another web.port)") from None
        sock.listen(128)
        sock.setblocking(False)
        self.port = sock.getsockname()[1]  # port 0 asks for a free one
        self._socket = sock
        # no per-message deflate on the live feed: compressing each ~30 KB state once per viewer costs the Pi's
        # CPU (the vision loop's) far more than the bytes cost the table's Wi-Fi (bench/bench_websockets.py)
        # X-Forwarded-For is believed only from the proxies web.proxies names: uvicorn's default believes it from
        # loopback, so any local process could name itself any address and never meet the PIN's limits
        config = uvicorn.Config(self.app, log_level=logging.WARNING, access_log=False, lifespan="off",
                                ws_ping_interval=20, timeout_graceful_shutdown=2, ws_per_message_deflate=False,
                                proxy_headers=bool(self.proxies), forwarded_allow_ips=list(self.proxies) or None)
        self.server = _Server(config)

    async def run(self) -> None:
        server, sock = self.server, self._socket
        if server is None or sock is None:
            return
        task = asyncio.create_task(server.serve(sockets=[sock]))
        try:
            while not server.started and not task.done():
                await asyncio.sleep(0.01)
            if server.started:
                self.ok(f"serving the dashboard at {self.address}")
            await asyncio.shield(task)
        except asyncio.CancelledError:
            # let uvicorn shut down by itself: cancelled mid-serve, it left its listening server registered
            # with the loop, and the socket closed under it was a traceback on a request during the stop
            server.should_exit = True
            await task
            raise
        raise WebError("the web server stopped")

    async def stop(self) -> None:
        server, self.server = self.server, None
        if server is not None:
            server.should_exit = True
        sock, self._socket = self._socket, None
        if sock is not None:
            sock.close()
