"""The hall's picture of the tables on a broker, made only of their retained state topics.

Each table publishes under `<base>/<table_id>/`; the hall keeps, per table, the few topics a person walking
the hall wants: which mission, the threat, the phase and round, who is playing, how the game ended, and
whether the table is online (its availability, which the broker turns to "offline" by the table's last will).
Payloads come from the network, so they are kept as text, bounded in length, and never trusted as markup.
An empty retained payload clears a topic; a table with nothing left is no longer listed.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

from controller.service.mqtt.topics import NOBODY

FIELDS = ("availability", "mission", "threat", "phase", "round", "player", "result", "number")
LONGEST = 200  # characters kept of one payload: a table's topics are short, anything longer is cut


class HallView:
    """Thread-safe: paho's thread puts messages in, the web's requests read `to_dict()`, and each listener
    (`listen`) is told, on paho's thread, that the picture may have changed (the page is pushed it)."""

    def __init__(self, base: str, broker: str) -> None:
        self.base, self.broker = base, broker
        self._lock = threading.Lock()
        self._tables: dict[str, dict[str, str]] = {}
        self.connected = False
        self.message = f"connecting to the MQTT broker at {broker}"
        self._listeners: list[Callable[[], object]] = []

    def listen(self, callback: Callable[[], object]) -> Callable[[], None]:
        """Call `callback()` after each message or connection change (it must only wake its reader); returns the
        function that stops the listening."""
        with self._lock:
            self._listeners.append(callback)

        def unlisten() -> None:
            with self._lock:
                if callback in self._listeners:
                    self._listeners.remove(callback)
        return unlisten

    def _tell(self) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for callback in listeners:
            callback()

    def topics(self) -> list[str]:
        """The subscriptions: each table's retained topics the hall shows, and no others."""
        return [f"{self.base}/+/{name}" for name in FIELDS]

    def take(self, topic: str, payload: bytes) -> None:
        """One message of a table's topic; others (a deeper topic, another base) are ignored."""
        prefix = f"{self.base}/"
        if not topic.startswith(prefix):
            return
        parts = topic[len(prefix):].split("/")
        if len(parts) != 2 or parts[1] not in FIELDS or not parts[0]:
            return
        table, name = parts
        text = payload.decode("utf-8", errors="replace")[:LONGEST]
        with self._lock:
            fields = self._tables.setdefault(table, {})
            if text:
                fields[name] = text
            else:
                fields.pop(name, None)
                if not fields:
                    del self._tables[table]
        self._tell()

    def forget(self) -> None:
        """Drop every table: the broker is about to send what it holds (on a connect), and only that counts."""
        with self._lock:
            self._tables.clear()
        self._tell()

    def set_connection(self, connected: bool, message: str) -> None:
        with self._lock:
            self.connected, self.message = connected, message
        self._tell()

    def to_dict(self) -> dict[str, Any]:
        """The hall as JSON: the broker's state, then each table sorted by id."""
        with self._lock:
            tables = {k: dict(v) for k, v in self._tables.items()}
            connected, message = self.connected, self.message
        return {"broker": self.broker, "base": self.base, "connected": connected, "message": message,
                "tables": [_table(table_id, fields) for table_id, fields in sorted(tables.items())]}


def _table(table_id: str, fields: dict[str, str]) -> dict[str, Any]:
    availability, player = fields.get("availability"), fields.get("player")
    return {"id": table_id, "online": availability == "online",
            "availability": availability or "unknown",
            "mission": fields.get("mission"), "threat": _number(fields.get("threat")),
            "phase": fields.get("phase"), "round": _number(fields.get("round")),
            "player": None if player in (None, "", NOBODY) else player, "number": _number(fields.get("number")),
            "result": _result(fields.get("result"))}


def _number(text: str | None) -> int | None:
    return int(text) if text is not None and text.isascii() and text.isdigit() else None


def _result(text: str | None) -> str | None:
    """How the game ended, as the table's `result` topic says it (`null` while it goes on)."""
    if text is None:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    if not isinstance(value, dict):
        return None
    words = [str(value[k]) for k in ("result", "text") if isinstance(value.get(k), str)]
    return ": ".join(words) or None
