"""`burncycle-table hall`: every table on one broker, from their retained topics only. Two real tables (a
table service with its MQTT bridge each) on a real mosquitto; the hall's subscriber and its JSON (FastAPI's
TestClient) list both with mission, threat, phase and online, follow them live, and show one offline when
its availability goes offline. A bad --broker (or other option) is one line, exit 2."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse

from controller.hall.subscriber import HallSubscriber
from controller.hall.view import HallView
from controller.service.frame.config import MqttConfig
from controller.service.mqtt.topics import NOBODY
from tests.support.cli_run import refused
from tests.support.mqtt_broker import Broker, publish, running, table
from tests.support.service_helpers import until
from web.hall import create_hall_app
from web.routers.page import CSP


def _hall(broker: Broker) -> tuple[HallSubscriber, TestClient]:
    view = HallView("burncycle", f"127.0.0.1:{broker.port}")
    subscriber = HallSubscriber(MqttConfig(host="127.0.0.1", port=broker.port), view)
    subscriber.start()
    return subscriber, TestClient(create_hall_app(view))


def _tables(client: TestClient) -> dict[str, dict[str, Any]]:
    reply = client.get("/api/tables")
    assert reply.status_code == 200
    return {t["id"]: t for t in reply.json()["tables"]}


@pytest.mark.slow  # a real mosquitto
def test_the_hall_lists_every_table_on_the_broker_live(tmp_path: Path, broker: Broker) -> None:
    one, _ = table(tmp_path, broker.port, table_id="hall-a")
    two, two_bridge = table(tmp_path, broker.port, table_id="hall-b")
    subscriber, client = _hall(broker)

    async def body() -> None:
        await until(lambda: {"hall-a", "hall-b"} <= set(_tables(client)))
        await until(lambda: all(t["online"] and t["phase"] for t in _tables(client).values()))
        listed = _tables(client)
        for service, table_id in ((one, "hall-a"), (two, "hall-b")):
            shown = listed[table_id]
            state = service.state
            assert shown["mission"] == state.mission.name == "Operation Data Heist"
            assert shown["threat"] == state.threat and shown["round"] == 1
            assert shown["phase"] == "route" and shown["availability"] == "online"
        assert client.get("/api/tables").json()["connected"] is True

        two.next_step()  # one table plays on: the hall follows it, and only it
        await until(lambda: _tables(client)["hall-b"]["phase"] == "actions")
        assert _tables(client)["hall-a"]["phase"] == "route"

        await two_bridge.stop()  # table b goes away: its availability says offline
        await until(lambda: not _tables(client)["hall-b"]["online"])
        shown = _tables(client)
        assert shown["hall-b"]["availability"] == "offline" and shown["hall-b"]["mission"] == "Operation Data Heist"
        assert shown["hall-a"]["online"]

    try:
        running(one, two, body=body)
    finally:
        subscriber.stop()


@pytest.mark.slow  # a real mosquitto
def test_a_hall_started_late_reads_the_tables_from_retained_topics_alone(tmp_path: Path, broker: Broker) -> None:
    one, _ = table(tmp_path, broker.port, table_id="early")

    async def body() -> None:
        one.next_step()

    running(one, body=body)  # the table played and stopped before the hall existed
    subscriber, client = _hall(broker)
    try:
        deadline = time.monotonic() + 5
        while "early" not in _tables(client) or _tables(client)["early"]["phase"] is None:
            assert time.monotonic() < deadline, _tables(client)
            time.sleep(0.02)
        shown = _tables(client)["early"]
        assert shown["phase"] == "actions" and not shown["online"] and shown["availability"] == "offline"
        assert shown["mission"] == "Operation Data Heist"
    finally:
        subscriber.stop()


@pytest.mark.slow  # a real mosquitto
def test_the_page_is_served_with_its_policy_and_no_asset_from_outside(broker: Broker) -> None:
    """The hall's page is the table's kind of page: the one Content-Security-Policy, no inline script or style (its
    script and style are files of the one /static mount, beside the dashboard's modules it imports)."""
    subscriber, client = _hall(broker)
    try:
        page = client.get("/")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert page.headers["content-security-policy"] == CSP
        html = page.text
        assert "http://" not in html and "https://" not in html and "<style" not in html and " style=" not in html
        assert re.findall(r"<script[^>]*>", html) == ['<script type="module" src="/static/hall.js">']
        for asset in ("/static/hall.js", "/static/hall.css", "/static/dom.js", "/static/live.js"):
            reply = client.get(asset)
            assert reply.status_code == 200, asset
            assert "innerHTML" not in reply.text and "document.write" not in reply.text, asset
        assert client.get("/static/hall.html").status_code == 404  # a page only at its route, with its policy
    finally:
        subscriber.stop()


@pytest.mark.slow  # a real mosquitto
def test_the_hall_is_pushed_to_the_page_when_a_table_says_something(broker: Broker) -> None:
    """GET /ws: the hall on connect, then again when a table's retained topic changes it; nothing on a timer."""
    subscriber, client = _hall(broker)
    try:
        with client.websocket_connect("/ws") as ws:
            first = ws.receive_json()
            assert first["type"] == "snapshot" and first["hall"]["tables"] == []
            publish(broker.port, "burncycle/pushed/mission", "Operation Data Heist", retain=True)
            message = ws.receive_json()
            while not message["hall"]["tables"]:  # (the broker's connection news may come first)
                message = ws.receive_json()
            assert message["type"] == "hall" and message["hall"] == client.get("/api/tables").json()
            assert [t["mission"] for t in message["hall"]["tables"]] == ["Operation Data Heist"]
        publish(broker.port, "burncycle/pushed/mission", "", retain=True)
    finally:
        subscriber.stop()


def test_another_sites_page_is_refused_the_hall_as_the_table_refuses_it(broker: Broker) -> None:
    """The hall's feed refuses a handshake from another site's page with the table's answer: an HTTP 403 saying
    `bad_origin` (it closed the socket without a word before the two feeds were one helper, web/feed.py)."""
    subscriber, client = _hall(broker)
    try:
        with pytest.raises(WebSocketDenialResponse) as refused_:
            with client.websocket_connect("/ws", headers={"Origin": "http://evil.example"}):
                pass
        assert refused_.value.status_code == 403 and refused_.value.json()["error"] == "bad_origin"
    finally:
        subscriber.stop()


@pytest.mark.slow  # a real mosquitto
def test_an_empty_retained_payload_removes_a_table_and_odd_payloads_stay_text(broker: Broker) -> None:
    subscriber, client = _hall(broker)
    try:
        publish(broker.port, "burncycle/odd/mission", "<img src=x onerror=alert(1)>" + "x" * 500, retain=True)
        publish(broker.port, "burncycle/odd/threat", "lots", retain=True)
        publish(broker.port, "burncycle/odd/bots/byte", "{}", retain=True)  # not a topic the hall reads
        deadline = time.monotonic() + 5
        while _tables(client).get("odd", {}).get("mission") is None:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        odd = _tables(client)["odd"]
        assert odd["mission"].startswith("<img src=x") and len(odd["mission"]) == 200  # bounded, kept as text
        assert odd["threat"] is None and odd["availability"] == "unknown" and not odd["online"]
        publish(broker.port, "burncycle/odd/mission", "", retain=True)
        publish(broker.port, "burncycle/odd/threat", "", retain=True)
        while "odd" in _tables(client):
            assert time.monotonic() < deadline
            time.sleep(0.02)
    finally:
        subscriber.stop()


@pytest.mark.parametrize("argv, says", [
    (["--broker", "nowhere"], "hall: argument --broker: 'nowhere' is not HOST:PORT (e.g. localhost:1883)"),
    (["--broker", "localhost:0"], "expected a port number from 1 to 65535"),
    (["--broker", "localhost:1883", "--base", "burncycle/#"],
     "hall: --base 'burncycle/#': expected topic words of letters, digits, _ or -, joined by /"),
    (["--broker", "localhost:1883", "--ca-file", "no-such.crt", "--tls"],
     "hall: --ca-file no-such.crt: expected the path of an existing file"),
    (["--broker", "localhost:1883", "--ca-file", __file__], "is given without --tls: add --tls to use it"),
    (["--broker", "localhost:1883", "--port", "70000"], "hall: --port 70000: expected a port number from 0 to 65535"),
    ([], "the following arguments are required: --broker"),
])
def test_a_bad_option_is_one_line(capsys: pytest.CaptureFixture[str], argv: list[str], says: str) -> None:
    assert says in refused(capsys, "hall", *argv)


@pytest.mark.slow  # a real mosquitto
def test_the_hall_shows_what_the_broker_holds_after_it_comes_back(tmp_path: Path, broker: Broker) -> None:
    """A table killed while the broker was down, and a broker restarted without its saved retained messages:
    the hall must not go on listing the table online from its own memory."""
    for name, payload in (("availability", "online"), ("mission", "Operation Data Heist"), ("phase", "actions")):
        publish(broker.port, f"burncycle/ghost/{name}", payload, retain=True)
    subscriber, client = _hall(broker)
    try:
        deadline = time.monotonic() + 10
        while not _tables(client).get("ghost", {}).get("online"):
            assert time.monotonic() < deadline, "the hall never listed the table"
            time.sleep(0.05)
        broker.stop()
        for saved in tmp_path.glob("*.db"):  # a broker without persistence keeps nothing over a restart
            saved.unlink()
        broker.start()
        deadline = time.monotonic() + 30
        while not client.get("/api/tables").json()["connected"] or "ghost" in _tables(client):
            assert time.monotonic() < deadline, f"the hall still lists {_tables(client).get('ghost')}"
            time.sleep(0.05)
    finally:
        subscriber.stop()


def test_a_game_over_lists_no_player() -> None:
    view = HallView("burncycle", "127.0.0.1:1883")
    view.take("burncycle/t1/player", b"byte")
    assert view.to_dict()["tables"][0]["player"] == "byte"
    view.take("burncycle/t1/player", NOBODY.encode())  # what a table publishes once its game is over
    assert view.to_dict()["tables"][0]["player"] is None
