"""The two waits every kind of test needs: a free loopback port to serve on, and a condition to come true."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on (tests bind only to loopback)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(check: Callable[[], bool], timeout: float = 20.0, what: str = "") -> None:
    """Waits until `check()` is true, or fails the test after `timeout` seconds, saying what it waited for."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what or 'the condition'}"
        time.sleep(0.01)
