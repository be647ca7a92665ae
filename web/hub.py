"""The live feed's hub: every connected page gets a snapshot, then each change of the game, as it happens.

One hub per app follows the session (woken by `session.watch`, catching up with `changes_since`), builds each
message once (the state encoded once per batch of changes, spliced into every message as raw JSON) and offers
it to every client's bounded queue without waiting for anyone. A client whose queue is full has fallen
behind: its queue is replaced by one fresh snapshot, built when it is next sent, so the newest state wins and a
slow phone holds back neither the table nor the other phones, and costs at most `QUEUE_LIMIT` messages of
memory. The reconciler's table view and the components' health are looked at a few times a second and pushed
when they change.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec

if TYPE_CHECKING:
    from controller.service.table import TableService

QUEUE_LIMIT = 32      # messages waiting for one client before it counts as fallen behind
LOOK_EVERY_S = 0.25   # how often the table view and health are compared with what was last pushed
SNAPSHOT = "snapshot"  # the marker, in a queue, of a snapshot to build when it is sent


@dataclass(frozen=True)
class Message:
    """One message for the clients: its text, and the change number it brings a client up to (0: none)."""

    text: str
    number: int = 0


class Client:
    """One connected page: its bounded queue of messages not yet sent, and the last change it was sent."""

    def __init__(self, limit: int) -> None:
        self.queue: asyncio.Queue[Message | str] = asyncio.Queue(limit)
        self.sent_number = 0
        self.snapshots = 0  # snapshots it was sent (one on connect, one each time it fell behind)
        self.fell_behind = 0  # times its queue was full and replaced by a snapshot

    def offer(self, message: Message) -> None:
        """Queue `message`, or, when the client has fallen behind, replace what waits by one fresh snapshot."""
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.fell_behind += 1
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(SNAPSHOT)


class Hub:
    """The clients of one app and the task that feeds them; it runs while at least one client is connected."""

    def __init__(self, service: TableService, *, limit: int = QUEUE_LIMIT, look_every_s: float = LOOK_EVERY_S) -> None:
        self.service, self.limit, self.look_every_s = service, limit, look_every_s
        self.clients: set[Client] = set()
        self._task: asyncio.Task[None] | None = None
        self._wake: asyncio.Event | None = None
        self._unwatch: Any = None

    # -- clients --

    def join(self) -> Client:
        client = Client(self.limit)
        client.queue.put_nowait(SNAPSHOT)
        self.clients.add(client)
        if self._task is None:
            self._start()
        return client

    def leave(self, client: Client) -> None:
        self.clients.discard(client)
        if not self.clients and self._task is not None:
            self._task.cancel()
            self._task = None
            self._unwatch()

    async def next_text(self, client: Client) -> str:
        """The next text to send `client`: a queued message, or a snapshot of the game as it is now. A change
        the client's snapshot already holds is not sent again."""
        while True:
            item = await client.queue.get()
            if item == SNAPSHOT:
                message = self.snapshot()
                client.snapshots += 1
            else:
                assert isinstance(item, Message)
                message = item
                if message.number and message.number <= client.sent_number:
                    continue
            client.sent_number = max(client.sent_number, message.number)
            return message.text

    def snapshot(self) -> Message:
        s = self.service
        status = s.session.status()
        state = msgspec.Raw(s.state_bytes()) if s.session.has_game() else None
        text = _encode({"type": "snapshot", "number": status["number"], "status": status, "state": state,
                        "table": s.table_view(), "health": s.health()})
        return Message(text, status["number"])

    # -- feeding them --

    def _start(self) -> None:
        loop = asyncio.get_running_loop()
        wake = self._wake = asyncio.Event()
        # the session's watchers run on the writer's thread: they only wake the hub
        self._unwatch = self.service.session.watch(lambda _: loop.call_soon_threadsafe(wake.set))
        self._task = loop.create_task(self._run(self.service.session.number))

    async def _run(self, last: int) -> None:
        assert self._wake is not None
        table, health = self.service.table_view(), _steady(self.service.health())
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.look_every_s)
            self._wake.clear()
            last = self._changes(last)
            now = self.service.table_view()
            if now != table:
                table = now
                self._offer(Message(_encode({"type": "table", "table": now})))
            body = self.service.health()
            if _steady(body) != health:
                health = _steady(body)
                self._offer(Message(_encode({"type": "health", "health": body})))

    def _changes(self, last: int) -> int:
        """Offer every change after `last` (the state and status read once for the batch); the last one sent."""
        s = self.service
        batch = s.session.changes_since(last)
        if not batch:
            return last
        status = s.session.status()
        state = msgspec.Raw(s.state_bytes()) if s.session.has_game() else None
        for change in batch:
            self._offer(Message(_encode({"type": "change", "number": change.number, "change": s.change_json(change),
                                         "status": status, "state": state}), change.number))
        return batch[-1].number

    def _offer(self, message: Message) -> None:
        for client in list(self.clients):
            client.offer(message)


def _steady(health: dict[str, Any]) -> Any:
    """Health without what changes all the time: the seconds each part has been in its state, and the last
    change number (each change message says it)."""
    parts = {name: {k: v for k, v in part.items() if k != "for_s"} for name, part in health["components"].items()}
    return {**{k: v for k, v in health.items() if k != "number"}, "components": parts}


def _encode(value: Any) -> str:
    return msgspec.json.encode(value).decode()
