"""The live feed's hub: every connected page gets a snapshot, then each change of the game, as it happens.

One hub per app listens to the service (`TableService.listen`: a change accepted, a health changed, a camera
frame or a door report that may change the table view) and does nothing until it hears something: it never
looks on a timer. Woken, it catches up with the session's changes (`changes_since` the last it sent), builds
each message once (the state encoded once per batch of changes, spliced into every message as raw JSON) and
offers it to every client's bounded queue without waiting for anyone; the table view, the health and the LEDs'
colours at rest, looked at again after news that may change them, are pushed when they differ from what was last
pushed. The floor as drawn (doors, walls, what the guards see) is pushed right after the changes that changed it
(looked at once they are on their way, so a change reaches the pages no later for it), so no page fetches the
floor again after a change. News heard while
the hub works is kept and handled in the next round, so none is lost. A client whose queue is full has fallen
behind: its queue is replaced by one fresh snapshot, built when it is next sent, so the newest state wins and a
slow phone holds back neither the table nor the other phones, and costs at most `QUEUE_LIMIT` messages of
memory.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec

from controller.service.views import (
    ChangeHeard,
    FloorHeard,
    HealthHeard,
    HintHeard,
    HintView,
    LedsHeard,
    Snapshot,
    TableHeard,
)

if TYPE_CHECKING:
    from controller.service.news import News
    from controller.service.table import TableService

QUEUE_LIMIT = 32      # messages waiting for one client before it counts as fallen behind
SNAPSHOT = "snapshot"  # the marker, in a queue, of a snapshot to build when it is sent
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Message:
    """One message for the clients: its text, and the change number it brings a client up to (0: none); `after`
    marks one about the game as it is after that change (the floor), which a client at that change still needs."""

    text: str
    number: int = 0
    after: bool = False


SNAPSHOT_FOR_ALL = Message("")  # offered to every client: each catches up with a fresh snapshot


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
            self.catch_up()

    def catch_up(self) -> None:
        """Drop what waits: the client gets one snapshot of the game as it is when it is next sent."""
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(SNAPSHOT)


class Hub:
    """The clients of one app and the task that feeds them; it runs while at least one client is connected, on
    the event loop of the server (one loop: the clients' queues are asyncio's)."""

    def __init__(self, service: TableService, *, limit: int = QUEUE_LIMIT) -> None:
        self.service, self.limit = service, limit
        self._unhear_hints: Any = None
        self.clients: set[Client] = set()
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._news: set[News] = set()
        self._unlisten: Any = None
        # the version of the floor last pushed (snapshots carry their own): none yet, so a feed's first changes push
        # the floor once whatever it is (a page's snapshot may be older than the feed's start)
        self._floor_version: str | None = None
        self._floor_inputs = b""  # what the floor last looked at was drawn from (see `_floor`)
        self.looks = 0  # rounds the feed ran (each woken by news): a table no one changes costs none

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
            self._unlisten()
            if self._unhear_hints is not None:
                self._unhear_hints()

    async def next_text(self, client: Client) -> str:
        """The next text to send `client`: a queued message, or a snapshot of the game as it is now. A change
        the client's snapshot already holds is not sent again."""
        while True:
            item = await client.queue.get()
            if item == SNAPSHOT:
                message = await asyncio.to_thread(self.snapshot)
                client.snapshots += 1
            else:
                assert isinstance(item, Message)
                message = item
                if message.number and (message.number < client.sent_number
                                       or message.number == client.sent_number and not message.after):
                    continue
            client.sent_number = max(client.sent_number, message.number)
            return message.text

    def snapshot(self) -> Message:
        s = self.service
        status = s.status()
        state = msgspec.Raw(s.state_bytes()) if s.has_game() else None
        text = _encode(Snapshot(number=status.number, status=status, state=state, floor=s.floor_drawn(),
                                table=s.table_view(), health=s.health(), leds=s.leds_at_rest()))
        return Message(text, status.number)

    # -- feeding them --

    def _start(self) -> None:
        loop = asyncio.get_running_loop()
        self._wake, self._news = asyncio.Event(), {"change", "table", "health", "leds"}
        # the service's news comes from the writer's thread, the camera's or the loop's: it only wakes the hub
        self._unlisten = self.service.listen(lambda news: loop.call_soon_threadsafe(self._hear, news))
        # a hint's progress and its answer go to every page as they come (the desk is made at the first question)
        self._unhear_hints = self.service.listen_hints(lambda view: loop.call_soon_threadsafe(self._hint, view))
        self._wake.set()  # a first round: what happened before the hub listened
        self._task = loop.create_task(self._run(self.service.number))

    def _hint(self, view: HintView) -> None:
        self._offer(Message(_encode(HintHeard(hint=view))))

    def _hear(self, news: News) -> None:
        self._news.add(news)
        self._wake.set()

    async def _run(self, last: int) -> None:
        # the table view is read on the loop: the reconciler never makes a reader wait for its writes (it gives
        # the view from before one, and announces "table" once it has landed)
        table, health, leds = self.service.table_view(), self.service.health().steady(), self.service.leds_at_rest()
        while True:
            await self._wake.wait()
            self._wake.clear()
            news, self._news = self._news, set()
            self.looks += 1
            if "change" in news:
                try:
                    messages, last = await asyncio.to_thread(self._changes, last)
                except Exception:  # a change the feed cannot send must not end the feed: everyone starts afresh
                    log.exception("the live feed could not send the changes after %d", last)
                    last = self.service.number
                    messages = [SNAPSHOT_FOR_ALL]
                for message in messages:
                    self._offer(message)
                try:
                    floor = await asyncio.to_thread(self._floor, last) if messages else None
                except Exception:
                    log.exception("the live feed could not read the floor after change %d", last)
                    floor = None
                if floor is not None:
                    self._offer(floor)
            try:
                if news & {"change", "table"}:
                    now = self.service.table_view()
                    if now != table:
                        table = now
                        self._offer(Message(_encode(TableHeard(table=now))))
                body = self.service.health()  # (a change moves the dice being typed in, which health shows)
            except Exception:
                log.exception("the live feed could not read the table view or the health")
                continue
            if body.steady() != health:
                health = body.steady()
                self._offer(Message(_encode(HealthHeard(health=body))))
            if news & {"leds", "health"}:  # (the LEDs unplugged: not configured, unlit)
                now_lit = self.service.leds_at_rest()
                if now_lit != leds:
                    leds = now_lit
                    self._offer(Message(_encode(LedsHeard(leds=leds))))

    def _changes(self, last: int) -> tuple[list[Message], int]:
        """The message of every change after `last` (the state and status read once for the batch), and the
        number of the last one."""
        s = self.service
        batch = s.changes_since(last)
        if not batch:
            return [], last
        status = s.status()
        state = msgspec.Raw(s.state_bytes()) if s.has_game() else None
        return [Message(_encode(ChangeHeard(number=c.number, change=s.change_view(c), status=status, state=state)),
                        c.number) for c in batch], batch[-1].number

    def _floor(self, number: int) -> Message | None:
        """The floor as drawn after change `number`, when it is not the one last pushed (its version differs).
        Most changes leave what the floor is drawn from as it was (`floor_inputs`), and then it is not drawn
        again."""
        inputs = self.service.floor_inputs()
        if inputs is None or inputs == self._floor_inputs:
            return None
        self._floor_inputs = inputs
        floor = self.service.floor_drawn()
        if floor is None or floor.version == self._floor_version:
            return None
        self._floor_version = floor.version if isinstance(floor.version, str) else None
        return Message(_encode(FloorHeard(number=number, floor=floor)), number, after=True)

    def _offer(self, message: Message) -> None:
        for client in list(self.clients):
            if message is SNAPSHOT_FOR_ALL:
                client.catch_up()
            else:
                client.offer(message)


def _encode(value: msgspec.Struct) -> str:
    return msgspec.json.encode(value).decode()
