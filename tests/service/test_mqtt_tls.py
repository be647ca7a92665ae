"""A shared broker that asks for a password and speaks only TLS: a real mosquitto with a password file made by
mosquitto_passwd and a TLS listener whose certificates openssl makes in the test. The table gets in with its
user, password and the broker's certificate authority (mqtt.ca_file); a wrong password or a certificate it
cannot trust leaves the `mqtt` component degraded with a reason in words, and the game goes on."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from controller.service.frame.components import Health
from controller.service.frame.config import MqttConfig
from controller.service.mqtt.client import make_client
from controller.service.table import TableService
from tests.support.mqtt_broker import Broker, Listener, table
from tests.support.service_helpers import until

pytestmark = pytest.mark.slow  # a real mosquitto per test, each waiting out the broker

LOGIN = ("table", "s3cret")


@pytest.fixture
def secure(tmp_path: Path) -> Iterator[Broker]:
    made = Broker(tmp_path, users=dict([LOGIN, ("hall", "h4ll")]), tls=True)
    made.start()
    yield made
    made.stop()


def _run(service: TableService, check: Callable[[], bool], body: Callable[[], Awaitable[None]] | None = None,
         ) -> dict[str, Any]:
    """Runs the table until `check()`, then `body`; returns the `mqtt` component as the health page showed it
    then (before the stop)."""
    shown: dict[str, Any] = {}

    async def main() -> None:
        task = asyncio.create_task(service.run())
        try:
            await until(check, 15)
            shown.update(msgspec.to_builtins(service.health().components["mqtt"]))
            if body is not None:
                await body()
        finally:
            service.stop()
            await task
    asyncio.run(main())
    return shown


def test_the_table_gets_in_with_its_password_over_tls(tmp_path: Path, secure: Broker) -> None:
    service, bridge = table(tmp_path, secure.port, user=LOGIN[0], password=LOGIN[1], tls=True,
                            ca_file=secure.ca_file)
    seen = Listener(secure.port, "burncycle/t1/#", broker=secure, login=("hall", "h4ll"))

    async def body() -> None:
        await until(lambda: seen.latest("burncycle/t1/availability") == "online")
        service.next_step()
        await until(lambda: seen.latest("burncycle/t1/phase") == "actions")
        assert json.loads(seen.all("burncycle/t1/events")[-1])["number"] == service.number

    shown = _run(service, lambda: bridge.health is Health.OK, body)
    assert shown["message"] == f"connected to the MQTT broker at 127.0.0.1:{secure.port} as burncycle/t1"
    seen.close()


def _reason(shown: dict[str, Any]) -> str:
    """The health page's words for a table kept out: degraded, one line, never a password."""
    message = str(shown["message"])
    assert shown["state"] == "degraded"
    assert "\n" not in message and "Traceback" not in message
    assert LOGIN[1] not in message and "wrong" not in message
    return message


def test_a_wrong_password_is_degraded_with_the_brokers_reason(tmp_path: Path, secure: Broker) -> None:
    service, bridge = table(tmp_path, secure.port, user=LOGIN[0], password="wrong", tls=True, ca_file=secure.ca_file)
    shown = _run(service, lambda: "refused" in bridge.message)
    assert _reason(shown) == (f"the MQTT broker at 127.0.0.1:{secure.port} refused the table: "
                                        "Not authorized; trying again")
    assert service.has_game()  # the table plays on without its broker


def test_a_certificate_the_table_cannot_trust_is_said_in_words(tmp_path: Path, secure: Broker) -> None:
    service, bridge = table(tmp_path, secure.port, user=LOGIN[0], password=LOGIN[1], tls=True)  # system CAs only
    shown = _run(service, lambda: "cannot connect" in bridge.message)
    message = _reason(shown)  # OpenSSL's reason in the brackets: "self-signed certificate in certificate chain"
    assert message.startswith(f"cannot connect to the MQTT broker at 127.0.0.1:{secure.port}: TLS: the broker's "
                              f"certificate is not trusted (")
    assert message.endswith("): give the certificate authority that signed it as mqtt.ca_file; "
                            "trying again")


def test_a_ca_file_that_is_no_certificate_fails_the_component_in_words(tmp_path: Path, secure: Broker) -> None:
    junk = tmp_path / "junk.crt"
    junk.write_text("not a certificate\n")
    service, bridge = table(tmp_path, secure.port, user=LOGIN[0], password=LOGIN[1], tls=True, ca_file=junk)
    shown = _run(service, lambda: bridge.health is Health.FAILED)
    assert shown["message"].startswith(f"mqtt.ca_file = '{junk}': not a certificate (PEM) TLS can use: ")
    assert "\n" not in shown["message"] and "Traceback" not in shown["message"]


@pytest.mark.parametrize("tls", [False, True], ids=["plain", "tls"])
def test_the_tables_client_sends_each_packet_at_once(tmp_path: Path, tls: bool) -> None:
    """TCP_NODELAY: a change is a burst of small packets, and Nagle's algorithm would hold each after the first
    for the broker's delayed acknowledgement (some 40 ms; bench/bench_mqtt.py)."""
    broker = Broker(tmp_path, tls=tls)
    broker.start()
    client = make_client(MqttConfig(host="127.0.0.1", port=broker.port, tls=tls, ca_file=broker.ca_file), "nodelay")
    try:
        client.connect("127.0.0.1", broker.port)
        sock = client.socket()
        assert sock is not None and sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 1
    finally:
        client.disconnect()
        broker.stop()
