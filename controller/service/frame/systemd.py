"""sd_notify: tells systemd the table service is ready, what it is doing, and that it is alive.

The unit (hardware/systemd/burncycle-table.service) is Type=notify with WatchdogSec: systemd starts
the players' table only once the service says READY=1, and restarts it if the event loop stops
answering (a hung camera driver, a deadlock) for longer than the watchdog interval. The protocol is one
datagram on the unix socket named in $NOTIFY_SOCKET, so the stdlib socket module is all it takes.
Outside systemd (no $NOTIFY_SOCKET) every call does nothing.
"""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import Mapping

from controller.service.frame.components import Component


def notify(*fields: str, environ: Mapping[str, str] = os.environ) -> bool:
    """Sends `fields` ("READY=1", "STATUS=...") to systemd; False when not started by systemd."""
    address = environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):  # an abstract socket: its name starts with a NUL byte
        address = "\0" + address[1:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
        sock.connect(address)
        sock.sendall("\n".join(fields).encode("utf-8"))
    return True


def ready(status: str) -> bool:
    """The service is up: systemd finishes `start` and begins watching the watchdog."""
    return notify("READY=1", f"STATUS={status}")


def stopping(status: str = "stopping") -> bool:
    return notify("STOPPING=1", f"STATUS={status}")


def watchdog_interval(environ: Mapping[str, str] = os.environ) -> float | None:
    """Seconds between two pings systemd expects at most, or None when it is not watching us."""
    usec = environ.get("WATCHDOG_USEC")
    pid = environ.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        return int(usec) / 1_000_000
    except ValueError:
        return None


class Watchdog(Component):
    """Pings systemd's watchdog from the event loop at half the interval, so a blocked loop gets the
    service restarted; with no watchdog configured it only waits."""

    def __init__(self, environ: Mapping[str, str] = os.environ) -> None:
        super().__init__("systemd")
        self.environ = environ
        self.pings = 0

    async def run(self) -> None:
        interval = watchdog_interval(self.environ)
        if interval is None:
            self.ok("not watched by systemd")
            await asyncio.Event().wait()  # until the service stops
            return
        self.ok(f"telling systemd every {interval / 2:g} s that the service is alive")
        while True:
            notify("WATCHDOG=1", environ=self.environ)
            self.pings += 1
            await asyncio.sleep(interval / 2)
