"""A real mosquitto for the tests, with real paho subscribers and publishers.

The broker runs on a free loopback port, as the test's own user, from a config the test writes: anonymous,
or with a password file (made by `mosquitto_passwd`), and optionally TLS with a CA and a server certificate
for 127.0.0.1 and localhost that `openssl` makes in the test's folder. It sends each packet at once
(`set_tcp_nodelay true`), as docs/mqtt.md advises for a table's broker. `table()` makes a table service with
its MQTT bridge on such a broker, `running()` runs tables while a test's body talks to them.
"""

from __future__ import annotations

import asyncio
import functools
import getpass
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from controller.library import load_content
from controller.service.frame.components import Health
from controller.service.frame.config import DatabaseConfig, GameConfig, MqttConfig, ServiceConfig
from controller.service.game.session import GameSession
from controller.service.mqtt.bridge import MqttBridge
from controller.service.table import TableService
from tests.support.net import free_port
from tests.support.service_helpers import until

MOSQUITTO = "/usr/sbin/mosquitto"  # the Debian package .ci/install puts in


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def make_certificates(folder: Path) -> Path:
    """A CA and a server certificate it signed for 127.0.0.1 and localhost (ca.crt, server.crt, server.key in
    `folder`); returns the CA's file, which a client trusts."""
    curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    _openssl("req", "-x509", *curve, "-keyout", "ca.key", "-out", "ca.crt", "-days", "2",
             "-subj", "/CN=burncycle test CA", cwd=folder)
    _openssl("req", *curve, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost", cwd=folder)
    (folder / "server.ext").write_text("basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\n"
                                       "extendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n"
                                       "authorityKeyIdentifier=keyid\nsubjectKeyIdentifier=hash\n")
    _openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
             "-out", "server.crt", "-days", "2", "-extfile", "server.ext", cwd=folder)
    return folder / "ca.crt"


class Broker:
    """A mosquitto of the test's own, on a free loopback port; `stop()` then `start()` restarts it on the
    same port. With `users`, only they get in; with `tls`, the listener speaks only TLS (`ca_file` is the CA
    a client must trust)."""

    def __init__(self, folder: Path, users: dict[str, str] | None = None, tls: bool = False) -> None:
        self.port = free_port()
        self.config = folder / "mosquitto.conf"
        self.ca_file: Path | None = None
        access = "allow_anonymous true\n"
        if users:
            passwords = folder / "passwords"
            for k, (user, password) in enumerate(users.items()):
                create = ["-c"] if k == 0 else []
                subprocess.run(["mosquitto_passwd", "-b", *create, str(passwords), user, password], check=True)
            access = f"allow_anonymous false\npassword_file {passwords}\n"
        listener = f"listener {self.port} 127.0.0.1\nset_tcp_nodelay true\n"
        if tls:
            self.ca_file = make_certificates(folder)
            listener += f"cafile {self.ca_file}\ncertfile {folder}/server.crt\nkeyfile {folder}/server.key\n"
        # `user`: run as whoever runs the tests (as root, mosquitto would switch to a user that cannot read
        # the test's folder, where the passwords and the saved sessions are)
        self.config.write_text(f"user {getpass.getuser()}\n{listener}{access}"
                               f"persistence true\npersistence_location {folder}/\n")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.config)], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:  # (the port taken meanwhile, or a config it refused)
                raise RuntimeError(f"mosquitto on 127.0.0.1:{self.port} exited with {self.process.returncode}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"mosquitto did not listen on 127.0.0.1:{self.port}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(5)
            self.process = None


def client(broker: Broker | None = None, client_id: str = "", clean: bool = True,
           login: tuple[str, str] | None = None) -> mqtt.Client:
    """A paho client set up for `broker` (its TLS CA, a user and password), not yet connected."""
    made = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=clean)
    if broker is not None and broker.ca_file is not None:
        made.tls_set_context(ssl.create_default_context(cafile=str(broker.ca_file)))
    if login is not None:
        made.username_pw_set(*login)
    return made


class Listener:
    """A real subscriber: records every message (topic, payload, retained flag) on the topics given."""

    def __init__(self, port: int, topic: str, client_id: str = "", clean: bool = True,
                 broker: Broker | None = None, login: tuple[str, str] | None = None) -> None:
        self.messages: list[tuple[str, str, bool]] = []
        self._lock = threading.Lock()
        self.client = client(broker, client_id, clean, login)
        self.client.reconnect_delay_set(0.1, 0.5)  # type: ignore[arg-type]  # (paho takes seconds as floats too)
        self.subscribed = threading.Event()
        self.refusals: list[str] = []  # what the broker answered a connection it refused, for the failure's words
        self.client.on_connect = functools.partial(self._connected, topic)
        self.client.on_subscribe = lambda *_: self.subscribed.set()
        self.client.on_message = self._record
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        # (15 s: a TLS handshake and a password check on a machine busy with the rest of the suite)
        if not self.subscribed.wait(15):
            self.close()
            raise AssertionError(f"the listener could not subscribe on {port}: {self.refusals or 'no answer'}")

    def _connected(self, topic: str, client: mqtt.Client, _userdata: Any, _flags: Any, reason: Any,
                   _properties: Any = None) -> None:
        """Subscribes once the broker took the connection; a refused one is kept for the failure's message,
        and paho's loop connects again."""
        if reason.is_failure:
            self.refusals.append(str(reason))
            return
        client.subscribe(topic, qos=1)

    def _record(self, _client: Any, _userdata: Any, message: mqtt.MQTTMessage) -> None:
        with self._lock:
            self.messages.append((message.topic, message.payload.decode(), bool(message.retain)))

    def latest(self, topic: str) -> str | None:
        with self._lock:
            found = [payload for t, payload, _ in self.messages if t == topic]
        return found[-1] if found else None

    def all(self, topic: str) -> list[str]:
        with self._lock:
            return [payload for t, payload, _ in self.messages if t == topic]

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def publish(port: int, topic: str, payload: str, retain: bool = False) -> None:
    """A real publisher, as mosquitto_pub would: connect, send at QoS 1, wait for the broker, leave."""
    publish_all(port, [(topic, payload)], retain)


def publish_all(port: int, messages: list[tuple[str, str]], retain: bool = False) -> None:
    """One real publisher sending (topic, payload)s in order, at QoS 1, back to back (a sensor's burst)."""
    sender = mqtt.Client(CallbackAPIVersion.VERSION2)
    sender.connect("127.0.0.1", port)
    sender.loop_start()
    for sent in [sender.publish(topic, payload, qos=1, retain=retain) for topic, payload in messages]:
        sent.wait_for_publish(5)
    sender.loop_stop()
    sender.disconnect()


def table(tmp_path: Path, port: int, table_id: str = "t1", dice: str = "virtual", queue_limit: int = 1000,
          **mqtt_keys: Any) -> tuple[TableService, MqttBridge]:
    db = tmp_path / f"{table_id}.sqlite3"
    config = ServiceConfig(game=GameConfig(dice=dice), database=DatabaseConfig(path=db),  # type: ignore[arg-type]
                           mqtt=MqttConfig(host="127.0.0.1", port=port, table_id=table_id, **mqtt_keys))
    service = TableService(config, load_content(), GameSession.open(str(db)), seed=3)
    bridge = MqttBridge(service, config.mqtt, queue_limit=queue_limit)
    service.add(bridge)
    return service, bridge


def _healthy(service: TableService) -> bool:
    return all(c.health is Health.OK for c in service.components)


def running(*services: TableService, body: Callable[[], Awaitable[None]]) -> None:
    """Run the services until `body` is done, then stop them."""
    async def main() -> None:
        tasks = [asyncio.create_task(s.run()) for s in services]
        try:
            for s in services:
                await until(functools.partial(_healthy, s), 10)
            await body()
        finally:
            for s in services:
                s.stop()
            await asyncio.gather(*tasks)
    asyncio.run(main())
