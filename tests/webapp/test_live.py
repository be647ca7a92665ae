"""GET /ws, the live feed (web/hub.py): a snapshot on connect, then every change in order with the state; table
and health pushes; another site's handshake refused; and, under uvicorn on loopback, a client that never reads
holds back neither the table nor the other clients, costs a bounded queue, and catches up with one snapshot."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse
from websockets.sync.client import connect

from controller.service.frame.web_server import WebServer
from controller.service.table import TableService
from tests.support.session_support import next_action
from tests.support.web_helpers import ORIGIN


def test_a_snapshot_then_every_change_in_order(service: TableService, anyone: TestClient) -> None:
    with anyone.websocket_connect("/ws", headers={"Origin": ORIGIN}) as ws:
        snapshot = ws.receive_json()
        assert snapshot["type"] == "snapshot" and snapshot["number"] == service.session.number
        assert snapshot["status"] == service.session.status()
        assert snapshot["state"] == service.state_json()
        assert set(snapshot["table"]) == {"misplaced", "questions", "instructions", "camera"}
        assert snapshot["health"]["components"]["game"]["state"] in ("ok", "stopped")
        numbers = []
        for _ in range(4):
            service.session.apply(next_action(service.session.state))
            numbers.append(service.session.number)
        got: list[dict[str, Any]] = []
        while len(got) < len(numbers):  # (a unit moved also changes the players' instructions: a table message)
            message = ws.receive_json()
            if message["type"] not in ("table", "floor"):
                got.append(message)
        assert [m["type"] for m in got] == ["change"] * 4
        assert [m["number"] for m in got] == [m["change"]["number"] for m in got] == numbers
        assert got[-1]["state"] == service.state_json() and got[-1]["status"] == service.session.status()
        assert all(m["change"]["kind"] == "action" and m["change"]["instructions"] for m in got)


def test_the_table_view_and_health_are_pushed_when_they_change(service: TableService, anyone: TestClient) -> None:
    seen: dict[str, Any] = {"misplaced": [], "questions": [], "instructions": []}
    service.camera_view = lambda: seen  # the hook a service built with a camera has: its reconciler's view
    with anyone.websocket_connect("/ws") as ws:
        assert ws.receive_json()["type"] == "snapshot"
        seen = {**seen, "questions": [{"id": "vision-1", "text": "two chips on one space"}]}
        service.announce("table")  # what each camera frame announces
        assert ws.receive_json() == {"type": "table", "table": {**seen, "camera": False}}
        service.game_log.degraded("the disk is full")
        health = ws.receive_json()
        assert health["type"] == "health"
        assert health["health"]["components"]["game"]["message"] == "the disk is full"


def test_the_floor_is_pushed_after_the_change_that_changed_it(service: TableService, anyone: TestClient) -> None:
    """The snapshot brings the floor and the LEDs; after a change the floor comes again, in its own message, only
    when play changed it (a guard's sight, a door): a phone never fetches the floor again after a change."""
    def drawn() -> dict[str, Any]:
        return {k: v for k, v in anyone.get("/api/floor").json().items() if k != "number"}

    with anyone.websocket_connect("/ws", headers={"Origin": ORIGIN}) as ws:
        snapshot = ws.receive_json()
        assert snapshot["floor"] == drawn() and snapshot["floor"]["version"]
        assert snapshot["leds"] == {"configured": False, "threat": [], "slots": [], "status": None}  # no LEDs here
        held, brought, kept = drawn(), 0, 0
        for k in range(60):
            service.session.apply(next_action(service.session.state))
            message = ws.receive_json()
            while message["type"] != "change":
                message = ws.receive_json()
            now = drawn()
            if k == 0 or now["version"] != held["version"]:  # (a feed's first round pushes the floor it starts on)
                floor = ws.receive_json()
                while floor["type"] == "table":
                    floor = ws.receive_json()
                assert floor == {"type": "floor", "number": message["number"], "floor": now}
                brought += k > 0
            else:
                kept += 1
            held = now
        assert brought and kept  # the guards moved (their sight) and most changes left the floor as it was
        service.session.apply(next_action(service.session.state))
        message = ws.receive_json()
        while message["type"] == "table":
            message = ws.receive_json()
        assert message["type"] == "change"  # (no floor message was left unread above)


def test_another_sites_handshake_is_refused(anyone: TestClient) -> None:
    with pytest.raises(WebSocketDenialResponse) as refused:
        with anyone.websocket_connect("/ws", headers={"Origin": "http://evil.example"}):
            pass
    assert refused.value.status_code == 403 and refused.value.json()["error"] == "bad_origin"


def app_of(service: TableService) -> FastAPI:
    web = service.supervisor.get("web", WebServer)
    assert web is not None
    app: FastAPI = web.app
    return app


def test_a_client_that_never_reads_holds_back_no_one_and_catches_up_with_one_snapshot(
        served: tuple[TableService, int]) -> None:
    service, port = served
    hub = app_of(service).state.hub
    url = f"ws://127.0.0.1:{port}/ws"
    with connect(url, compression=None, max_queue=1, proxy=None) as slow, \
            connect(url, compression=None, proxy=None) as fast:
        while len(hub.clients) < 2:
            time.sleep(0.01)
        assert json.loads(fast.recv(timeout=10))["type"] == "snapshot"
        numbers, deepest, k = [], 0, 0
        # changes of ~30 KB each until the sleeper's socket buffers are full and its queue overflowed, and well
        # beyond; the reading client gets each one before the next is made
        while max(c.fell_behind for c in hub.clients) < 3:
            assert k < 3000, "the sleeper never fell behind"
            service.session.set_dice_mode("physical" if k % 2 == 0 else "virtual")
            k += 1
            message = json.loads(fast.recv(timeout=5))
            while message["type"] == "floor":  # (a feed's first changes push the floor once)
                message = json.loads(fast.recv(timeout=5))
            assert message["type"] == "change" and message["number"] == service.session.number
            numbers.append(message["number"])
            deepest = max(deepest, *(c.queue.qsize() for c in hub.clients))
        final = service.session.number
        sleeper, reader = sorted(hub.clients, key=lambda c: -c.fell_behind)
        assert reader.fell_behind == 0 and reader.sent_number == final
        assert numbers == list(range(numbers[0], final + 1))  # every change, in order, to the reader
        assert deepest <= hub.limit  # the sleeper's queue stayed bounded
        caught_up: list[dict[str, Any]] = []
        while not caught_up or caught_up[-1]["number"] < final:
            caught_up.append(json.loads(slow.recv(timeout=10)))
        seen = [m["number"] for m in caught_up]
        assert seen == sorted(seen) and len(caught_up) < k  # it skipped what a fresh snapshot replaced
        assert [m["type"] for m in caught_up].count("snapshot") == 2 == sleeper.snapshots
        assert caught_up[-1]["type"] == "snapshot" and caught_up[-1]["status"]["number"] == final


def test_the_feed_is_sent_uncompressed_even_to_a_browser_that_offers_deflate(
        served: tuple[TableService, int]) -> None:
    """Compressing each ~30 KB state once per viewer would cost the vision loop's CPU (bench_websockets.py)."""
    with connect(f"ws://127.0.0.1:{served[1]}/ws", proxy=None) as ws:  # offers permessage-deflate by default
        assert ws.response is not None and "Sec-WebSocket-Extensions" not in ws.response.headers
        assert json.loads(ws.recv(timeout=10))["type"] == "snapshot"


def test_a_table_view_that_fails_does_not_end_the_feed(served: tuple[TableService, int]) -> None:
    """The reconciler's view raising (a bug there) costs its pushes only: the changes still arrive."""
    service, port = served
    failing = {"now": False}

    def view() -> dict[str, Any]:
        if failing["now"]:
            raise RuntimeError("the reconciler's bug")
        return {"misplaced": [], "questions": [], "instructions": []}

    service.camera_view = view
    with connect(f"ws://127.0.0.1:{port}/ws", proxy=None) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "snapshot"
        failing["now"] = True
        for _ in range(2):
            service.session.apply(next_action(service.session.state))
            message = json.loads(ws.recv(timeout=10))
            while message["type"] == "floor":  # (a feed's first changes push the floor once)
                message = json.loads(ws.recv(timeout=10))
            assert message["number"] == service.session.number


def test_the_feed_is_woken_by_news_and_an_idle_table_costs_it_nothing(served: tuple[TableService, int]) -> None:
    """The hub looks at nothing on a timer (it used to look at the table view and health four times a second):
    with nothing happening it does no round at all, and a change wakes it at once."""
    service, port = served
    hub = app_of(service).state.hub
    with connect(f"ws://127.0.0.1:{port}/ws", proxy=None) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "snapshot"
        time.sleep(0.3)  # the rounds of what happened before it listened are over
        looks = hub.looks
        time.sleep(1.0)
        assert hub.looks == looks
        service.session.apply(next_action(service.session.state))
        message = json.loads(ws.recv(timeout=10))
        while message["type"] != "change":
            message = json.loads(ws.recv(timeout=10))
        assert message["number"] == service.session.number and hub.looks > looks
