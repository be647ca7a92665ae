"""/api/hint and /api/threat: asked from a phone, thought out in the hint desk's worker, the same tap answered
the same, cancelled when the game moves on; the progress and the answer come on the live feed (issue 35)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from controller.service.table import TableService


@pytest.fixture(autouse=True)
def _desk_closed(service: TableService) -> Iterator[None]:
    """The desk's worker process ends with each test (a running table closes it when it stops)."""
    yield
    if "hint_desk" in service.__dict__:
        service.hint_desk.close()


def answered(client: TestClient, path: str, timeout: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while (body := client.get(path).json())["status"] == "thinking":
        assert time.monotonic() < deadline, f"{path}: no answer within {timeout} s"
        time.sleep(0.05)
    return body


def test_a_hint_asked_twice_is_the_same_and_comes_on_the_live_feed(service: TableService, player: TestClient) -> None:
    service.hint_desk.iterations = 40
    with player.websocket_connect("/ws") as feed:
        assert feed.receive_json()["type"] == "snapshot"
        asked = player.post("/api/hint")
        assert asked.status_code == 202 and asked.json()["status"] == "thinking"
        assert asked.json()["number"] == service.number
        pushed = []
        while not pushed or pushed[-1]["status"] == "thinking":
            message = feed.receive_json()
            if message["type"] == "hint":
                pushed.append(message["hint"])
        first = answered(player, "/api/hint")
        assert pushed[-1] == first
    assert first["status"] == "ready" and 1 <= len(first["hint"]["actions"]) <= 3
    for option in first["hint"]["actions"]:
        assert option["low"] <= option["chance"] <= option["high"]
        assert option["reason"] and option["action"]["action"]
    again = player.post("/api/hint")
    assert again.status_code == 200 and again.json() == first
    assert service.hint_desk.asked == 1


def test_the_threat_overlay_has_a_shade_for_every_space(player: TestClient) -> None:
    assert player.post("/api/threat").status_code in (200, 202)
    body = answered(player, "/api/threat")
    assert body["status"] == "ready" and body["samples"] == 40
    assert all(len(shade) == 2 and 0 <= min(shade) <= max(shade) <= 1 for shade in body["threat"].values())
    assert any(max(shade) > 0 for shade in body["threat"].values())


def test_a_hint_is_cancelled_when_the_game_moves_on(service: TableService, player: TestClient) -> None:
    service.hint_desk.iterations = 100_000
    service.hint_desk.seconds = 60.0
    assert player.post("/api/hint").json()["status"] == "thinking"
    assert player.post("/api/next").status_code in (200, 202)
    body = player.get("/api/hint").json()
    assert body["status"] == "cancelled" and body["message"] == "the game moved on"


def test_asking_needs_the_pin_and_the_table_s_own_page(anyone: TestClient) -> None:
    refused = anyone.post("/api/hint")
    assert refused.status_code == 401 and refused.json()["error"] == "pin_required"
    watched = anyone.get("/api/threat")  # how it stands may be read by anyone
    assert watched.status_code == 200 and watched.json()["status"] == "idle"


def test_a_phone_unlocked_warms_the_worker_once(service: TableService, player: TestClient, anyone: TestClient) -> None:
    assert anyone.post("/api/hint/warm").status_code == 401
    assert player.post("/api/hint/warm").json() == {"started": True}
    assert service.hint_desk.worker_pid is not None
    assert player.post("/api/hint/warm").json() == {"started": False}
    assert service.hint_desk.asked == 0
