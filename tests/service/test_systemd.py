"""sd_notify against a real unix datagram socket, as systemd listens on one."""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.service.frame import systemd
from controller.service.frame.components import Health
from controller.service.frame.supervisor import Supervisor
from tests.support.service_helpers import until


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2)
    yield sock, str(path)
    sock.close()


def test_ready_sends_one_datagram(listener: tuple[socket.socket, str], monkeypatch: pytest.MonkeyPatch) -> None:
    sock, path = listener
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    assert systemd.ready("table ready on port 8080")
    assert sock.recv(4096) == b"READY=1\nSTATUS=table ready on port 8080"
    assert systemd.stopping()
    assert sock.recv(4096) == b"STOPPING=1\nSTATUS=stopping"


def test_an_abstract_socket_name_is_understood() -> None:
    name = f"burncycle-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(2)
        assert systemd.notify("STATUS=hello", environ={"NOTIFY_SOCKET": "@" + name})
        assert sock.recv(4096) == b"STATUS=hello"


def test_outside_systemd_nothing_is_sent() -> None:
    assert not systemd.notify("READY=1", environ={})
    assert systemd.watchdog_interval({}) is None


def test_the_watchdog_is_only_ours_when_its_pid_is() -> None:
    assert systemd.watchdog_interval({"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": str(os.getpid())}) == 20.0
    assert systemd.watchdog_interval({"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "1"}) is None


def test_the_watchdog_component_pings_at_half_the_interval(listener: tuple[socket.socket, str]) -> None:
    sock, path = listener
    sock.setblocking(False)
    watchdog = systemd.Watchdog({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "100000"})

    async def test() -> None:
        async with Supervisor([watchdog]):
            await until(lambda: watchdog.pings >= 4)
            assert watchdog.health is Health.OK
            assert watchdog.message == "telling systemd every 0.05 s that the service is alive"

    asyncio.run(test())
    received = []
    while True:
        try:
            received.append(sock.recv(4096))
        except BlockingIOError:
            break
    assert len(received) >= 4 and set(received) == {b"WATCHDOG=1"}
