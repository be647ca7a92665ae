"""The MQTT bridge: the table on the home network (docs/mqtt.md).

Out, it publishes the game as retained topics (so a late subscriber reads the game as it stands), every change's
events on a stream, and its availability with a last will, so the broker says "offline" for a table whose process
died, and Home Assistant discovery documents (discovery.py), sent again whenever Home Assistant says it is online.
In, it obeys a few commands (next, undo, dice faces, a unit placed by a reader, a door sensor) through the same
service API as the dashboard and the buttons: same rules, same log, and a refusal or a malformed payload is
answered on the errors topic and changes nothing. A door sensor's report is a check, never a change
(camera/door_sensors.py). An empty payload is someone clearing a topic, never a command, and a command published
retained is never obeyed, found at connect or delivered live (the bridge speaks MQTT 5 and asks for the publisher's
retain flag, which MQTT 3.1.1 drops on a live delivery).

On every connect, before it takes commands, the bridge sweeps what the broker keeps under the table's root and
its discovery configs: a retained topic the table no longer owns (a bot of an earlier game, kept by a broker
with persistence while the table was away) is cleared, so a late subscriber never reads a unit not in the game.

paho runs its network loop on its own thread and reconnects by itself with a growing wait. Commands are
handed to the event loop, like button presses, and taken there one at a time in the order they came: a change
(next, undo, dice faces) is handed on to the game session's one writer without waiting (so the loop never
waits for a write to disk, and a flood of commands is written back to back, in order); a unit placed goes
through the service's `correct` on a worker thread (the reconciler's lock is not the writer's to take) once
every change before it is done; a door sensor's report is a check, kept at once. Retained state (and
"online") is sent at QoS 0 and sent again whole on every connect, so an old state queued during an outage
can never arrive after the new one; events are QoS 1 and wait in paho's queue during an outage, a queue with a bound
so a dead broker never grows memory (what it drops is counted on the health page).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
from collections.abc import Callable
from typing import Any

import msgspec
import paho.mqtt.client as mqtt
from paho.mqtt.enums import MQTTErrorCode
from paho.mqtt.subscribeoptions import SubscribeOptions

from controller.rules import BurncycleError
from controller.service.frame.components import Component
from controller.service.frame.config import MqttConfig
from controller.service.game.session import Change
from controller.service.mqtt.client import MqttClient, make_client
from controller.service.mqtt.discovery import DISCOVERY_PREFIX, STATUS_TOPIC, discovery_payloads, node_id
from controller.service.mqtt.topics import CommandError, DiceFaces, Door, Place, Topics, parse_command, state_payloads
from controller.service.table import TableService

ONLINE, OFFLINE = "online", "offline"
QUEUE_LIMIT = 1000       # events kept for a broker that is away; more are dropped and counted
RECONNECT_MIN_S, RECONNECT_MAX_S = 1, 30
# the table speaks at least this often; the broker gives up on a silent table (a network loss) after 1.5 times
# this and publishes its last will: offline about 45 s after the loss (docs/mqtt.md)
KEEPALIVE_S = 30
LONGEST_ECHO = 200       # characters of a command's topic or refusal the errors topic repeats
log = logging.getLogger(__name__)


class MqttBridge(Component):
    """The table's MQTT client, as a supervised component of the service."""

    def __init__(self, service: TableService, config: MqttConfig, *, queue_limit: int = QUEUE_LIMIT) -> None:
        super().__init__("mqtt")
        if config.host is None:
            raise ValueError("MqttBridge needs mqtt.host")
        self.service, self.config, self.host = service, config, config.host
        self.topics = Topics(config.base_topic, config.table_id)
        self.queue_limit = queue_limit
        self.dropped = 0
        self.received = 0                       # commands taken off the broker (paho's thread counts)
        self.handled = 0                        # commands obeyed or answered on the errors topic (the loop's)
        self._lock = threading.Lock()           # guards the retained picture and its publishing
        self._published: dict[str, str] = {}    # retained topic -> payload, as last published
        self._connected = False
        self._refused: str | None = None        # why the broker refused the last connection, until one succeeds
        self._client: MqttClient | None = None
        self._subscribing: int | None = None  # the message id of the commands' subscription, until it is taken
        self._sweeping: int | None = None     # the message id of the sweep's unsubscription, until it is done
        # the discovery configs first: the broker hands over what it keeps filter by filter, so a stale entity is
        # cleared before the stale state it reads
        self.sweep = [f"{DISCOVERY_PREFIX}/+/{node_id(self.topics)}/+/config", f"{self.topics.root}/#"]
        self._loop: asyncio.AbstractEventLoop | None = None
        self._commands: asyncio.Queue[tuple[str, str, bytes]] = asyncio.Queue()

    @property
    def broker(self) -> str:
        return f"{self.host}:{self.config.port}"

    # -- the component's life --

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._commands = asyncio.Queue()
        client_id = f"burncycle-{self.topics.root.replace('/', '-')}"
        client = make_client(self.config, client_id, mqtt.MQTTv5)
        client.will_set(self.topics.availability, OFFLINE, qos=1, retain=True)
        client.reconnect_delay_set(RECONNECT_MIN_S, RECONNECT_MAX_S)
        client.max_queued_messages_set(self.queue_limit)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_connect_fail = self._on_connect_fail
        client.on_message = self._on_message
        client.on_subscribe = self._on_subscribe
        client.on_unsubscribe = self._on_unsubscribe
        self._client = client
        self._refresh()
        client.connect_async(self.host, self.config.port, keepalive=KEEPALIVE_S)
        client.loop_start()
        self.degraded(f"connecting to the MQTT broker at {self.broker}")

    async def run(self) -> None:
        obeying = asyncio.create_task(self._obey_commands())
        try:
            async for change in self.service.follow(self.service.number):
                self._publish_change(change)
        finally:
            obeying.cancel()

    async def stop(self) -> None:
        """Say "offline" (waiting up to 2 s for the broker to take it), disconnect and end paho's thread, all on a
        worker thread: a broker slow to answer never stalls the loop (the live feed, the buttons) meanwhile."""
        client, self._client = self._client, None
        if client is None:
            return
        connected, self._connected = self._connected, False
        await asyncio.to_thread(_leave, client, self.topics.availability if connected else None)

    def status(self) -> dict[str, Any]:
        body = super().status()
        body["dropped"] = self.dropped
        body["commands"] = {"received": self.received, "handled": self.handled}
        return body

    # -- out --

    def _publish_change(self, change: Change) -> None:
        """One change of the session: its events on the stream, then whatever state topics it changed."""
        event = self.service.change_view(change)
        self._send(self.topics.events, _json(event), qos=1)
        self._refresh()

    def _refresh(self) -> None:
        """Publish the state topics whose payload changed; clear those of units no longer in the game."""
        service = self.service
        if not service.has_game():
            return
        state = service.state
        current = {self.topics.state(name): payload for name, payload in state_payloads(state, service.number).items()}
        current.update(discovery_payloads(self.topics, state))
        with self._lock:
            # a unit gone: its entity first (Home Assistant drops the sensor), then the state it read, so no sensor
            # renders its template on the emptied topic
            gone = sorted(set(self._published) - set(current), key=lambda topic: not _is_discovery(topic))
            for topic in gone:
                if _is_discovery(topic):
                    self._send_retained(topic, "")
            # a unit new: its state first (current lists the states before the discovery documents), so a new
            # entity reads a state at once
            for topic, payload in current.items():
                if self._published.get(topic) != payload:
                    self._send_retained(topic, payload)
            for topic in gone:
                if not _is_discovery(topic):
                    self._send_retained(topic, "")
            self._published = current

    def _send_retained(self, topic: str, payload: str) -> None:
        """A retained topic at QoS 0: while disconnected it is not queued (the whole picture is sent again on
        connect); an empty payload removes the retained message (and a discovered entity)."""
        client = self._client
        if client is not None and self._connected:
            client.publish(topic, payload, qos=0, retain=True)

    def _send(self, topic: str, payload: str, qos: int = 1) -> None:
        client = self._client
        if client is None:
            return
        info = client.publish(topic, payload, qos=qos, retain=False)
        if info.rc == MQTTErrorCode.MQTT_ERR_QUEUE_SIZE:
            self.dropped += 1
            self._tell_loop(self.degraded, f"the MQTT broker at {self.broker} is away: {self.dropped} messages "
                                           f"dropped since the queue of {self.queue_limit} is full; trying again")

    def _error(self, topic: str, message: str) -> None:
        """A refusal on the errors topic: the command's topic and what is wrong, each cut to LONGEST_ECHO
        characters (a 1 MB unit name is not sent back whole)."""
        self._send(self.topics.errors, _json({"topic": _cut(topic), "error": _cut(message)}))

    # -- paho's thread --

    def _on_connect(self, client: mqtt.Client, _userdata: Any, _flags: Any, reason: Any, _props: Any) -> None:
        if reason.is_failure:
            self._refused = f"the MQTT broker at {self.broker} refused the table: {reason}; trying again"
            self._tell_loop(self.degraded, self._refused)
            return
        self._refused = None
        with self._lock:
            self._connected = True
            # the state before "online": a restarted table's entities come back available already showing the game
            # in play, never the killed game the broker kept
            for topic, payload in self._published.items():
                client.publish(topic, payload, qos=0, retain=True)
            client.publish(self.topics.availability, ONLINE, qos=0, retain=True)
        # the broker takes these publishes before the sweep's subscription, so the sweep sees the picture as it
        # is now: what it holds beyond that is stale
        self._sweeping, self._subscribing = None, None
        client.subscribe([(topic, SubscribeOptions(qos=1)) for topic in self.sweep])
        self._tell_loop(self.degraded, f"connected to the MQTT broker at {self.broker}; clearing what it keeps "
                                       f"that the table no longer owns, then subscribing to the commands")

    def _on_subscribe(self, client: mqtt.Client, _userdata: Any, mid: int, reasons: Any, _props: Any) -> None:
        """The sweep's subscription was taken: the broker sends what it keeps right after this answer, and before
        it answers an unsubscription sent now, so the sweep ends with that answer (`_on_unsubscribe`). The
        commands' subscription was taken: from now on a command sent to the table reaches it, so only now is
        the bridge healthy (a command sent between the connection and this answer would be lost)."""
        if self._sweeping is None and self._subscribing is None:
            _, self._sweeping = client.unsubscribe(self.sweep)
            return
        if mid != self._subscribing:
            return
        refused = [r for r in reasons if r.is_failure]
        if refused:
            self._tell_loop(self.degraded, f"the MQTT broker at {self.broker} refused the table's subscription to "
                            f"its commands ({refused[0]}): commands from MQTT are not heard")
            return
        self._tell_loop(self.ok, f"connected to the MQTT broker at {self.broker} as {self.topics.root}")

    def _on_unsubscribe(self, client: mqtt.Client, _userdata: Any, mid: int, _reasons: Any, _props: Any) -> None:
        """The sweep is over: now the commands (each delivered with its publisher's retain flag)."""
        if mid != self._sweeping:
            return
        options = SubscribeOptions(qos=1, retainAsPublished=True)
        _, self._subscribing = client.subscribe([(self.topics.commands, options), (STATUS_TOPIC, options)])

    def _on_connect_fail(self, _client: mqtt.Client, _userdata: Any) -> None:
        """No connection at all (no answer, a refused port, TLS that fails): the reason the client kept."""
        why = (self._client.failure if self._client is not None else None) or "no answer"
        self._tell_loop(self.degraded, f"cannot connect to the MQTT broker at {self.broker}: {why}; trying again")

    def _on_disconnect(self, _client: mqtt.Client, _userdata: Any, _flags: Any, reason: Any, _props: Any) -> None:
        with self._lock:
            self._connected = False
        if self._client is not None:  # a refusal's disconnect keeps the refusal's reason, the one that helps
            self._tell_loop(self.degraded, self._refused or f"lost the MQTT broker at {self.broker} ({reason}); "
                                                            f"trying again")

    def _on_message(self, _client: mqtt.Client, _userdata: Any, message: mqtt.MQTTMessage) -> None:
        if message.topic == STATUS_TOPIC:
            if message.payload == b"online":
                self._rediscover()
            return
        if not message.payload:  # a topic cleared (mosquitto_pub -n), never a command
            return
        if self._subscribing is None:  # the sweep: what the broker keeps under the table's root
            if message.retain:
                self._clear_stale(message.topic)
            return
        name = message.topic.rsplit("/", 1)[-1]
        if message.retain:
            self._error(message.topic, "a retained command was ignored: commands are never retained (clear it "
                                       f"with: mosquitto_pub -r -n -t {message.topic})")
            return
        if self._loop is not None:
            self.received += 1
            self._loop.call_soon_threadsafe(self._commands.put_nowait, (message.topic, name, bytes(message.payload)))

    def _clear_stale(self, topic: str) -> None:
        """A retained topic found by the sweep: cleared unless the table publishes it now. A retained command
        is never obeyed: it is answered on the errors topic, and cleared too."""
        with self._lock:
            owned = topic in self._published or topic == self.topics.availability
            if not owned:
                self._send_retained(topic, "")
        if topic.startswith(f"{self.topics.root}/command/"):
            self._error(topic, "a retained command was ignored and cleared: commands are never retained")

    def _rediscover(self) -> None:
        """Home Assistant (re)started: send the discovery documents again, as its docs ask."""
        with self._lock:
            for topic, payload in self._published.items():
                if _is_discovery(topic):
                    self._send_retained(topic, payload)

    def _tell_loop(self, method: Any, message: str) -> None:
        """Health changes are made on the event loop's thread, where their listeners expect them."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(method, message)

    # -- in: on the event loop's thread --

    async def _obey_commands(self) -> None:
        """The commands, one at a time in the order they came, each through the service's API; a malformed
        payload or a refusal goes to the errors topic. Changes are not waited for (their answer comes when the
        writer is done); a unit placed waits for the changes before it, so it lands after them."""
        in_flight: set[asyncio.Future[Any]] = set()
        while True:
            topic, name, payload = await self._commands.get()
            try:
                command = parse_command(name, payload)
                change = self._change(name, command)
                if change is not None:
                    future = asyncio.wrap_future(self.service.submit(change))
                    in_flight.add(future)
                    future.add_done_callback(in_flight.discard)
                    future.add_done_callback(functools.partial(self._answered, topic))
                    continue
                if isinstance(command, Place):
                    if in_flight:
                        await asyncio.wait(in_flight)
                    await asyncio.to_thread(self.service.correct, command.unit, command.space, command.facing)
                elif isinstance(command, Door):
                    self._report(command)
            except (CommandError, BurncycleError) as err:
                self._error(topic, str(err))
            except Exception:  # noqa: BLE001 - a command the table fails on must not end the commands
                log.exception("the MQTT command on %s failed", topic)
                self._error(topic, "the table could not carry out this command (its log says why)")
            self.handled += 1

    def _report(self, door: Door) -> None:
        """A door sensor's report, kept by the table (`report_door`)."""
        self.service.report_door(door.door, door.state == "open")

    def _change(self, name: str, command: Any) -> Callable[[], object] | None:
        """The change a command makes, to run on the session's writer; None for a command that is no change of
        the game alone (a unit placed, a door sensor's report)."""
        if name == "next":
            return self.service.next_step
        if name == "undo":
            return self.service.undo
        if isinstance(command, DiceFaces):
            return functools.partial(self.service.supply_faces, command.faces)
        return None

    def _answered(self, topic: str, future: asyncio.Future[Any]) -> None:
        """A change handed to the writer is done: a refusal goes to the errors topic."""
        self.handled += 1
        if future.cancelled():
            return
        err = future.exception()
        if isinstance(err, (CommandError, BurncycleError)):
            self._error(topic, str(err))
        elif err is not None:
            log.error("the MQTT command on %s failed", topic, exc_info=err)
            self._error(topic, "the table could not carry out this command (its log says why)")


def _json(value: Any) -> str:
    return msgspec.json.encode(value).decode()


def _is_discovery(topic: str) -> bool:
    return topic.startswith(f"{DISCOVERY_PREFIX}/")


def _cut(text: str) -> str:
    return text if len(text) <= LONGEST_ECHO else text[:LONGEST_ECHO - 1] + "…"


def _leave(client: MqttClient, availability: str | None) -> None:
    """The bridge's goodbye, blocking: "offline" on `availability` (None: not connected, nothing to say), then
    disconnect and stop paho's network thread."""
    if availability is not None:
        client.publish(availability, OFFLINE, qos=1, retain=True).wait_for_publish(2.0)
    client.disconnect()
    client.loop_stop()
