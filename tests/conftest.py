"""Fixtures more than one folder of tests uses."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.service.mqtt_broker import Broker


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    """A real mosquitto, anonymous, on a free loopback port (tests/service/mqtt_broker.py): the MQTT tests and the
    hall's browser test."""
    made = Broker(tmp_path)
    made.start()
    yield made
    made.stop()
