"""The web tests' fixtures: a real TableService (compose.build over a temp game log, no camera) with a game, and
a TestClient of its app with a clock the PIN's waits are measured on, stepped by the test instead of sleeping."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from controller.cli.compose import build
from controller.service.table import TableService
from tests.support.clock import Clock
from tests.support.net import free_port
from tests.support.service_helpers import built_service, config
from tests.support.web_helpers import ORIGIN, PIN
from web import create_app


@pytest.fixture(autouse=True)
def _clean_environment(no_burncycle_env: None) -> None:
    """Every web test runs without the machine's BURNCYCLE_* variables (tests/conftest.py)."""


@pytest.fixture
def service(tmp_path: Path) -> Iterator[TableService]:
    with built_service(tmp_path, game=True) as made:
        yield made


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(service: TableService, clock: Clock) -> FastAPI:
    return create_app(service, pin=PIN, clock=clock)


@pytest.fixture
def anyone(app: FastAPI) -> TestClient:
    """A phone on the table's network that has not typed the PIN."""
    return TestClient(app)


@pytest.fixture
def player(app: FastAPI) -> TestClient:
    """A phone logged in with the table's PIN, sending the Origin the table's own page sends."""
    client = TestClient(app, headers={"Origin": ORIGIN})
    assert client.post("/api/session", json={"pin": PIN}).status_code == 200
    return client


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[TableService, int]]:
    """The service running for real (its web server on a free loopback port, in its own event loop)."""
    port = free_port()
    service = build(config(tmp_path, port), seed=5)
    service.new_game()
    running = threading.Thread(target=lambda: asyncio.run(service.run()))
    running.start()
    deadline = time.monotonic() + 10
    # serving, as its health says (it says "working" a moment before): no health news of its own start comes later
    while not any(c.name == "web" and c.message.startswith("serving") for c in service.components):
        assert time.monotonic() < deadline, "the web server did not start"
        time.sleep(0.01)
    yield service, port
    service.stop()
    running.join(10)
    service.session.close()
