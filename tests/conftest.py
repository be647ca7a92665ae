"""Fixtures more than one folder of tests uses. What tests share that is not a fixture is in tests/support."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.mqtt_broker import Broker


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    """A real mosquitto, anonymous, on a free loopback port (tests/support/mqtt_broker.py): the MQTT tests and the
    hall's browser test."""
    made = Broker(tmp_path)
    made.start()
    yield made
    made.stop()


@pytest.fixture
def no_burncycle_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """A clean environment: a BURNCYCLE_* variable of the machine running the tests must not change what a
    config loads to (the service's and the web's tests use it for every test)."""
    for name in list(os.environ):
        if name.upper().startswith("BURNCYCLE_"):
            monkeypatch.delenv(name)
