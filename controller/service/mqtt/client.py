"""A paho client set up from [mqtt]: the user and password, TLS with the system's or a given certificate
authority, and the reason a connection could not be made.

Shared by the table's bridge and the `hall` page, so both log in to a shared broker the same way. paho says
only *that* a connection attempt failed (its `on_connect_fail` gets no reason); a TLS certificate the table
does not trust, a refused port or an unknown host name must reach the health page in words, so the client
keeps the last attempt's error as one line.

The socket is set TCP_NODELAY: a change goes out as several small packets (its event, then each state
topic it changed), and with Nagle's algorithm every packet after the first waits for the broker's delayed
acknowledgement, some 40 ms on Linux (bench/bench_mqtt.py measured it), twice the target for a change to
reach a subscriber.
"""

from __future__ import annotations

import socket
import ssl
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTErrorCode, MQTTProtocolVersion

from controller.rules import BurncycleError
from controller.service.frame.config import MqttConfig


class MqttError(BurncycleError):
    code = "mqtt_error"


class MqttClient(mqtt.Client):
    """paho's client, which remembers why its last connection attempt failed (`failure`, one line)."""

    def __init__(self, client_id: str, protocol: MQTTProtocolVersion = mqtt.MQTTv311) -> None:
        super().__init__(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=protocol)
        self.failure: str | None = None
        self.on_socket_open = _no_delay

    def reconnect(self) -> MQTTErrorCode:
        try:
            code = super().reconnect()
        except OSError as err:
            self.failure = failure_text(err)
            raise
        self.failure = None
        return code


def _no_delay(_client: mqtt.Client, _userdata: Any, sock: Any) -> None:
    """Each packet sent at once, not held back for the previous one's acknowledgement (Nagle)."""
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def failure_text(err: OSError) -> str:
    """Why a connection attempt failed, in words a builder can act on."""
    if isinstance(err, ssl.SSLCertVerificationError):
        return (f"TLS: the broker's certificate is not trusted ({err.verify_message}): give the certificate "
                f"authority that signed it as mqtt.ca_file")
    if isinstance(err, ssl.SSLError):
        return f"TLS failed ({err.reason or err}): is the port a TLS listener of the broker? (mqtt.tls, mqtt.port)"
    if isinstance(err, socket.gaierror):
        return f"the broker's host name is not known ({err.strerror})"
    return err.strerror or str(err) or type(err).__name__


def tls_context(config: MqttConfig) -> ssl.SSLContext:
    """TLS that checks the broker's certificate and name: against mqtt.ca_file, or the system's authorities."""
    try:
        return ssl.create_default_context(cafile=str(config.ca_file) if config.ca_file is not None else None)
    except (ssl.SSLError, OSError) as err:
        raise MqttError(f"mqtt.ca_file = {str(config.ca_file)!r}: not a certificate (PEM) TLS can use: "
                        f"{getattr(err, 'reason', None) or err}") from None


def make_client(config: MqttConfig, client_id: str, protocol: MQTTProtocolVersion = mqtt.MQTTv311) -> MqttClient:
    """A client for `config`'s broker, not yet connected: logged in as mqtt.user, over TLS with mqtt.tls."""
    client = MqttClient(client_id, protocol)
    if config.user is not None:
        password = config.password.get_secret_value() if config.password is not None else None
        client.username_pw_set(config.user, password)
    if config.tls:
        client.tls_set_context(tls_context(config))
    return client
