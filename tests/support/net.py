"""The two waits every kind of test needs: a free loopback port to serve on, and a condition to come true."""

from __future__ import annotations

import time
from collections.abc import Callable

from controller.service.frame.address import free_port  # the one free port: tests bind only to loopback

__all__ = ["free_port", "wait_for"]




def wait_for(check: Callable[[], bool], timeout: float = 20.0, what: str = "") -> None:
    """Waits until `check()` is true, or fails the test after `timeout` seconds, saying what it waited for."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what or 'the condition'}"
        time.sleep(0.01)
