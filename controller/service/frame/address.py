"""The address phones at the table open: what the service prints at start and the page shows with a QR code."""

from __future__ import annotations

import socket


def phone_address(host: str, port: int) -> str:
    """This machine's own address when the service listens on every interface (0.0.0.0 means nothing to a
    phone), else the address it listens on."""
    if host not in ("0.0.0.0", "::"):
        return f"http://{host}:{port}/"
    try:
        name = socket.gethostbyname(socket.gethostname())
    except OSError:
        name = "127.0.0.1"
    return f"http://{name}:{port}/"
