"""The address phones at the table open: what the service prints at start and the page shows with a QR code; and a
free port to serve on (the demo's --port 0, the tests' and the benches' tables)."""

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


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nothing listens on at `host` now (an IPv6 address as well as an IPv4 one)."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])
