"""The service's tests start from a clean environment: a BURNCYCLE_* variable of the machine running
them must not change what a config loads to."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.service.mqtt_broker import Broker


@pytest.fixture(autouse=True)
def _no_burncycle_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.upper().startswith("BURNCYCLE_"):
            monkeypatch.delenv(name)


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    """A real mosquitto, anonymous, on a free loopback port (tests/service/mqtt_broker.py)."""
    made = Broker(tmp_path)
    made.start()
    yield made
    made.stop()
