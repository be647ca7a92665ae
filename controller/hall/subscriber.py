"""The hall's MQTT subscriber: fills a HallView from the broker's retained topics, and keeps it live.

paho's network thread connects (with the same login and TLS as a table, controller/service/mqtt/client.py),
subscribes to the tables' state topics on every connect (the broker then sends every retained one: the hall needs
no history) and reconnects by itself with a growing wait when the broker goes away, saying so on the view. The
picture is what the broker holds: on every connect it is forgotten and rebuilt from the retained topics, so a table
that died while the broker was away (its last will never sent) is not listed online from the hall's memory.
"""

from __future__ import annotations

import os
from typing import Any

import paho.mqtt.client as mqtt

from controller.hall.view import HallView
from controller.service.frame.config import MqttConfig
from controller.service.mqtt.client import MqttClient, make_client

RECONNECT_MIN_S, RECONNECT_MAX_S = 1, 30


class HallSubscriber:
    def __init__(self, config: MqttConfig, view: HallView) -> None:
        if config.host is None:
            raise ValueError("HallSubscriber needs mqtt.host")
        self.config, self.view, self.host = config, view, config.host
        self._client: MqttClient | None = None

    def start(self) -> None:
        client = make_client(self.config, f"burncycle-hall-{os.getpid()}")
        client.reconnect_delay_set(RECONNECT_MIN_S, RECONNECT_MAX_S)
        client.on_connect = self._on_connect
        client.on_connect_fail = self._on_connect_fail
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self._client = client
        client.connect_async(self.host, self.config.port, keepalive=30)
        client.loop_start()

    def stop(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            client.disconnect()
            client.loop_stop()

    # -- paho's thread --

    def _on_connect(self, client: mqtt.Client, _userdata: Any, _flags: Any, reason: Any, _props: Any) -> None:
        if reason.is_failure:
            self.view.set_connection(False, f"the MQTT broker at {self.view.broker} refused the hall: {reason}; "
                                            f"trying again")
            return
        self.view.forget()
        client.subscribe([(topic, 1) for topic in self.view.topics()])
        self.view.set_connection(True, f"connected to the MQTT broker at {self.view.broker}")

    def _on_connect_fail(self, _client: mqtt.Client, _userdata: Any) -> None:
        why = (self._client.failure if self._client is not None else None) or "no answer"
        self.view.set_connection(False, f"cannot connect to the MQTT broker at {self.view.broker}: {why}; "
                                        f"trying again")

    def _on_disconnect(self, _client: mqtt.Client, _userdata: Any, _flags: Any, reason: Any, _props: Any) -> None:
        if self._client is not None and self.view.connected:  # a refusal's disconnect keeps the refusal's words
            self.view.set_connection(False, f"lost the MQTT broker at {self.view.broker} ({reason}); trying again")

    def _on_message(self, _client: mqtt.Client, _userdata: Any, message: mqtt.MQTTMessage) -> None:
        self.view.take(message.topic, bytes(message.payload))
