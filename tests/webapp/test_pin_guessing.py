"""Guessing the PIN from many addresses: the whole table's limit slows every guesser, a long press of "next" at
the table lifts it, and X-Forwarded-For is believed only from a proxy the config names."""

from __future__ import annotations

import asyncio
import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from controller.cli.compose import build
from controller.service.frame.config import ServiceConfig
from controller.service.frame.web_server import WebServer
from controller.service.table import TableService
from tests.support.clock import Clock
from tests.support.net import free_port
from tests.support.web_helpers import PIN
from web.auth import FIRST_WAIT_S, FREE_TRIES, TABLE_FREE_TRIES


def guesser(app: FastAPI, k: int) -> TestClient:
    """A device at its own address (a laptop that takes a new address for each guess)."""
    return TestClient(app, client=(f"10.1.{k // 250}.{k % 250 + 1}", 5000))


def pause_the_table(app: FastAPI) -> None:
    for k in range(TABLE_FREE_TRIES + 1):
        assert guesser(app, k).post("/api/session", json={"pin": "000000"}).status_code == 401


def test_wrong_pins_from_many_addresses_pause_every_login(app: FastAPI, clock: Clock) -> None:
    pause_the_table(app)
    waits = []
    for k in range(3):
        # the table's count is past its free tries: even the right PIN, from a device never seen, waits
        reply = guesser(app, 1000 + k).post("/api/session", json={"pin": PIN})
        assert reply.status_code == 429 and reply.json()["error"] == "too_many_tries"
        assert "paused for everyone" in reply.json()["message"] and "long press" in reply.json()["message"]
        assert reply.headers["retry-after"] == str(reply.json()["retry_after"])
        waits.append(reply.json()["retry_after"])
        clock.now += waits[-1]
        assert guesser(app, 2000 + k).post("/api/session", json={"pin": "000000"}).status_code == 401
    assert waits == [FIRST_WAIT_S, FIRST_WAIT_S * 2, FIRST_WAIT_S * 4]


def test_a_phone_logged_in_plays_on_while_logins_are_paused(app: FastAPI, player: TestClient) -> None:
    pause_the_table(app)
    assert player.post("/api/next").status_code in (200, 202)


def test_a_long_press_of_next_lifts_the_pause_and_does_not_step_the_game(
        app: FastAPI, service: TableService) -> None:
    pause_the_table(app)
    number = service.session.number
    service.press("next", held=True).result(5)
    assert service.session.number == number and service.last_refusal is None
    assert guesser(app, 5000).post("/api/session", json={"pin": PIN}).status_code == 200
    # with nothing to lift, a long press steps the game as it always did
    service.press("next", held=True).result(5)
    assert service.session.number > number


def log_in_as(port: int, forwarded_for: str) -> int:
    """The status of a wrong PIN sent from loopback saying it forwards for `forwarded_for`."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/session", data=json.dumps({"pin": "000000"})
                                     .encode(), headers={"Content-Type": "application/json",
                                                         "X-Forwarded-For": forwarded_for})
    try:
        with urllib.request.urlopen(request, timeout=5) as reply:
            return int(reply.status)
    except urllib.error.HTTPError as refused:
        return refused.code


@pytest.fixture
def served_behind(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[TableService, int, str]]:
    """The service served by uvicorn on loopback with web.proxies = the test's parameter."""
    port = free_port()
    config = ServiceConfig(database={"path": tmp_path / "games.sqlite3"}, camera={"source": "none"},  # type: ignore[arg-type]
                           web={"host": "127.0.0.1", "port": port, "proxies": request.param})  # type: ignore[arg-type]
    service = build(config, seed=5)
    running = threading.Thread(target=lambda: asyncio.run(service.run()))
    running.start()
    web = service.supervisor.get("web", WebServer)
    assert web is not None
    deadline = time.monotonic() + 10
    while web.health.value != "ok":
        assert time.monotonic() < deadline, "the web server did not start"
        time.sleep(0.01)
    yield service, port, web.app.state.auth.pin
    service.stop()
    running.join(10)
    service.session.close()


@pytest.mark.parametrize("served_behind", [()], indirect=True)
def test_a_forwarded_address_is_not_believed_without_a_proxy_in_the_config(
        served_behind: tuple[TableService, int, str]) -> None:
    _, port, _ = served_behind
    codes = [log_in_as(port, f"10.9.0.{k}") for k in range(1, FREE_TRIES + 1)]
    assert codes == [401] * (FREE_TRIES - 1) + [429]  # one device: loopback, whatever it says it forwards


@pytest.mark.parametrize("served_behind", [("127.0.0.1",)], indirect=True)
def test_a_proxy_named_in_the_config_is_believed(served_behind: tuple[TableService, int, str]) -> None:
    _, port, _ = served_behind
    codes = [log_in_as(port, f"10.9.0.{k}") for k in range(1, FREE_TRIES + 1)]
    assert codes == [401] * FREE_TRIES  # five devices behind the proxy, one wrong PIN each
