"""The web API on a real TableService (built by compose.build over a temp game log), through FastAPI's
TestClient: /health's shape and its 503 while a part has failed, /api/state before a game, catching up on
/api/changes, and a malformed query refused with a readable 422 that changes nothing."""

from __future__ import annotations

import asyncio
import json
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from controller.autoplay.player import AutoPlayer
from controller.cli.compose import build
from controller.service.frame.components import Component
from controller.service.table import TableService
from tests.support.net import free_port
from tests.support.service_helpers import built_service, config
from vision.sources.base import Frame, FrameSource
from vision.status import Status
from web import create_app


class UnpluggedCamera(FrameSource):
    """A camera whose cable is out: it cannot be opened."""

    name = "usb camera"

    def _open(self) -> Status:
        return Status("error", "camera_lost", "no camera on /dev/video0")

    def _read(self, timeout: float) -> Frame | Status:
        return Status("error", "camera_lost", "no camera on /dev/video0")

    def _close(self) -> None:
        pass


@pytest.fixture
def service(tmp_path: Path) -> Iterator[TableService]:
    with built_service(tmp_path, game=False) as made:
        yield made


def test_state_is_404_before_a_game(service: TableService) -> None:
    client = TestClient(create_app(service))
    reply = client.get("/api/state")
    assert reply.status_code == 404
    assert reply.json()["error"] == "no_game" and "no game yet" in reply.json()["message"]
    assert client.get("/api/status").json() == {"game": None, "number": 0}


def test_health_names_every_component(service: TableService) -> None:
    client = TestClient(create_app(service))
    body = client.get("/health").json()
    assert set(body) >= {"status", "components", "game", "number"}
    assert set(body["components"]) == {"game", "web"}
    for part in body["components"].values():
        assert set(part) >= {"state", "message", "last_error", "retries", "for_s"}


def test_health_is_503_while_the_camera_has_failed(tmp_path: Path) -> None:
    """A monitor reads the status code alone: a failed camera must make it 503, with the reason in words."""
    service = build(config(tmp_path, free_port()), seed=5, source=UnpluggedCamera)
    running = threading.Thread(target=lambda: asyncio.run(service.run()))
    running.start()
    try:
        client = TestClient(create_app(service))
        for _ in range(500):  # until a reply shows the first try to open the camera failed
            body = client.get("/health")
            if body.json()["components"].get("camera", {}).get("state") == "failed":
                break
            time.sleep(0.01)
        assert body.status_code == 503
        camera = body.json()["components"]["camera"]
        assert camera["state"] == "failed"
        assert "no camera on /dev/video0" in camera["last_error"]
        assert body.json()["components"]["game"]["state"] == "ok"  # the rest goes on
    finally:
        service.stop()
        running.join(10)
        service.session.close()


class SlowToOpen(Component):
    """A part that takes its time to start (a camera on a busy Pi) until the test lets it."""

    def __init__(self, name: str, opened: threading.Event) -> None:
        super().__init__(name)
        self.opened = opened

    async def start(self) -> None:
        while not self.opened.is_set():
            await asyncio.sleep(0.01)


class Connecting(Component):
    """A part that starts at once but is not yet working (the MQTT bridge while the broker answers)."""

    async def start(self) -> None:
        self.degraded("connecting to the MQTT broker at 127.0.0.1:1883")


def test_health_says_starting_and_what_it_waits_for_from_the_first_answer(tmp_path: Path) -> None:
    opened = threading.Event()
    port = free_port()
    service = build(config(tmp_path, port), seed=5, extra=[Connecting("mqtt"), SlowToOpen("camera", opened)])
    running = threading.Thread(target=lambda: asyncio.run(service.run()))
    running.start()
    try:
        deadline = time.monotonic() + 20
        while True:  # the first answer of the real server
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as reply:
                    first = json.loads(reply.read())
                break
            except OSError:
                assert time.monotonic() < deadline, "the web server never answered"
                time.sleep(0.01)
        assert first["status"] == "starting", first
        assert first["waiting_for"] == {"camera": "starting"}
        opened.set()
        while service.health()["status"] == "starting":
            assert time.monotonic() < deadline, "the service never finished starting"
            time.sleep(0.01)
        assert service.health()["status"] == "degraded" and service.health()["waiting_for"] == {}
    finally:
        opened.set()
        service.stop()
        running.join(10)
        service.session.close()


def play(service: TableService, actions: int) -> None:
    """A few of the auto-player's actions, through the session as the dashboard would send them."""
    player = AutoPlayer()
    for _ in range(actions):
        service.session.apply(player.choose(service.session.state))


def test_changes_after_n_are_exactly_the_later_ones(service: TableService) -> None:
    client = TestClient(create_app(service))
    service.new_game()
    play(service, 6)
    everything = client.get("/api/changes").json()
    numbers = [c["number"] for c in everything["changes"]]
    assert numbers == list(range(1, service.session.number + 1)) and len(numbers) == 7
    assert everything["last"] == everything["number"] == service.session.number
    later = client.get("/api/changes", params={"after": 3}).json()
    assert later["changes"] == everything["changes"][3:]
    page = client.get("/api/changes", params={"after": 3, "limit": 2}).json()
    assert [c["number"] for c in page["changes"]] == [4, 5] and page["last"] == 5
    caught_up = client.get("/api/changes", params={"after": service.session.number}).json()
    assert caught_up["changes"] == [] and caught_up["last"] == service.session.number
    assert all("instructions" in c for c in everything["changes"] if c["kind"] == "action")


@pytest.mark.parametrize("query, names", [("after=-1", "query.after"), ("limit=abc", "query.limit"),
                                          ("after=x&limit=0", "query.after")])
def test_a_malformed_query_is_a_readable_422_that_changes_nothing(service: TableService, query: str,
                                                                   names: str) -> None:
    client = TestClient(create_app(service))
    service.new_game()
    play(service, 2)
    before = client.get("/api/status").json()
    reply = client.get(f"/api/changes?{query}")
    assert reply.status_code == 422
    body = reply.json()
    assert body["error"] == "bad_request"
    assert names in body["message"] and "\n" not in body["message"]
    assert client.get("/api/status").json() == before
