"""Drives the project's LED firmware (firmware/) over a USB serial port, in its own thread.

The rest of the service calls `submit(pixels)` and goes on: the newest frame wins, older ones that
were never sent are dropped. The thread is stop-and-wait: it sends one frame and waits for its
acknowledgement, which the board sends only after the strip has latched, so nothing is ever sent
while the board has interrupts off for the strip. Any doubt (a NAK for damage, a timeout, a board
that says hello again after a reset, a reconnect) makes it send the whole current frame again; a
frame the board refuses for what it is (NAK TYPE or ARG) is not sent again. Unread stale replies are
dropped before each frame, and only frames that got nothing at all back count towards reopening
the port (PROTOCOL.md, "Rules for the host"). A pulled cable is retried until it comes back, and
the current frame is restored.

Opening the port resets an Arduino (DTR) and its bootloader listens for ~1.5 s, dropping what it
hears; pyserial also discards input that came before the open. So the host starts the handshake:
it repeats HELLO until the board answers.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol

import serial

from controller.leds import protocol as p
from controller.leds.render import LogicalFrame
from controller.leds.strip_layout import Layout

DEFAULT_BAUD = p.DEFAULT_BAUD
MARGIN_S = 0.25        # beyond wire + strip time before an unanswered frame counts as lost
HELLO_EVERY_S = 0.25
SETTLE_S = 0.05       # after a stray NAK: long enough for a frame in flight to be shown and ACKed
FAILURES_BEFORE_REOPEN = 3
ERROR_BACKOFF = 20       # retry_s multiples between attempts on a board with the wrong firmware


class SerialPort(Protocol):
    """The part of pyserial's `Serial` the driver uses (the device model has it too)."""

    def write(self, data: bytes) -> int | None: ...
    def read(self, size: int = 1) -> bytes: ...
    @property
    def in_waiting(self) -> int: ...
    def close(self) -> None: ...


class LinkState(str, Enum):
    STARTING = "starting"
    UP = "up"
    DOWN = "down"
    ERROR = "error"  # the board answers but cannot be used (wrong protocol or LED count)


@dataclass
class LinkStats:
    """Counters and submit-to-ACK latencies (seconds), for the status page and the benchmark."""

    frames_sent: int = 0
    frames_acked: int = 0
    naks: int = 0
    timeouts: int = 0
    reconnects: int = 0
    device_resets: int = 0
    latencies: deque[float] = field(default_factory=lambda: deque(maxlen=100_000))


class _Lost(Exception):
    """The link needs reopening."""


def wire_s(nbytes: int, baud: int) -> float:
    """Seconds `nbytes` take on an 8N1 line."""
    return nbytes * 10 / baud


def update_s(led_count: int, baud: int) -> float:
    """The wire-and-latch time of one full update: SHOW out, strip written and latched, ACK back.

    Nothing overlaps (stop-and-wait), so this is the floor of an update and 1 / update_s the
    ceiling of updates per second.
    """
    return (
        wire_s(p.frame_bytes(led_count), baud)
        + p.strip_s(led_count)
        + p.LATCH_S
        + wire_s(p.ACK_BYTES, baud)
    )


class SerialDriver:
    """Keeps the board showing the newest submitted frame, whatever happens to the link."""

    def __init__(
        self,
        port: str | None = None,
        *,
        baud: int = DEFAULT_BAUD,
        expect_leds: int | None = None,
        open_port: Callable[[], SerialPort] | None = None,
        on_link: Callable[[LinkState], None] | None = None,
        handshake_s: float = 4.0,
        keepalive_s: float = 0.5,
        retry_s: float = 0.5,
    ) -> None:
        if port is None and open_port is None:
            raise ValueError("give a port name or an open_port factory")
        self.port_name = port
        self.baud = baud
        self.expect_leds = expect_leds
        self._open_port = open_port or self._open_serial
        self._on_link = on_link
        self.handshake_s = handshake_s
        self.keepalive_s = keepalive_s
        self.retry_s = retry_s
        self.stats = LinkStats()
        self.hello: p.Hello | None = None
        self.error: str | None = None
        self.link = LinkState.STARTING
        self._port: SerialPort | None = None
        self._parser = p.Parser(1024)
        self._seq = 0
        self._cond = threading.Condition()
        self._pending: bytes | None = None
        self._version = 0
        self._submitted_at: dict[int, float] = {}
        self._shown = -1
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="leds-serial", daemon=True)
        self._failures = 0
        self._last_traffic = 0.0
        self._reset_seen = False
        self._heard = False  # the board sent some frame while the current one was awaited

    # -- public ----------------------------------------------------------------------------------
    def start(self) -> SerialDriver:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        self._thread.join(timeout=5)
        self._close()

    def __enter__(self) -> SerialDriver:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def submit(self, pixels: bytes) -> None:
        """Asks for `pixels` (wire-order bytes) to be shown; returns at once."""
        if self.expect_leds is not None and len(pixels) != 3 * self.expect_leds:
            raise ValueError(f"a frame for {self.expect_leds} LEDs has {3 * self.expect_leds} bytes, not {len(pixels)}")
        with self._cond:
            if pixels == self._pending:
                return
            self._pending = bytes(pixels)
            self._version += 1
            self._submitted_at = {self._version: time.monotonic()}
            self._cond.notify_all()

    def wait_shown(self, timeout: float) -> bool:
        """Waits until the board has acknowledged the newest submitted frame."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._shown != self._version or self._pending is None:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
            return True

    def wait_link(self, timeout: float) -> LinkState:
        """Waits until the link is up or has failed for good (or the timeout passes)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self.link not in (LinkState.UP, LinkState.ERROR) and time.monotonic() < deadline:
                self._cond.wait(deadline - time.monotonic())
            return self.link

    # -- thread ----------------------------------------------------------------------------------
    def _open_serial(self) -> SerialPort:
        return serial.Serial(self.port_name, self.baud, timeout=0.01, write_timeout=1.0, exclusive=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                if self._port is None:
                    self._connect()
                else:
                    self._service()
            except (_Lost, serial.SerialException, OSError) as err:
                self._close()
                if not isinstance(err, _Lost):
                    self.error = str(err)
                broken = self.link is LinkState.ERROR
                self._set_link(LinkState.ERROR if broken else LinkState.DOWN)
                self.stats.reconnects += 1
                # Each open resets an Arduino: a board that cannot be used is asked again rarely.
                self._stop.wait(self.retry_s * (ERROR_BACKOFF if broken else 1))

    def _set_link(self, state: LinkState) -> None:
        with self._cond:
            changed = state is not self.link
            self.link = state
            self._cond.notify_all()
        if changed and self._on_link is not None:
            self._on_link(state)

    def _close(self) -> None:
        port, self._port = self._port, None
        with self._cond:
            self._shown = -1
        if port is not None:
            with contextlib.suppress(serial.SerialException, OSError):  # a pulled cable is already closed
                port.close()

    def _next_seq(self) -> int:
        self._seq = self._seq % 255 + 1  # 1..255: seq 0 is the board's unsolicited boot hello
        return self._seq

    def _send(self, type_: int, payload: bytes = b"") -> tuple[int, int]:
        assert self._port is not None
        self._drop_stale()
        seq = self._next_seq()
        frame = p.encode(type_, seq, payload)
        self._port.write(frame)
        self._last_traffic = time.monotonic()
        return seq, len(frame)

    def _drop_stale(self) -> None:
        """Reads and drops what the board sent that is still unread (PROTOCOL.md, rule 2).

        Such bytes answer frames already given up: left for the next wait, a stray NAK among them
        would cut that wait short, or pass for a sign of life. Only a restart is noted.
        """
        assert self._port is not None
        waiting = self._port.in_waiting
        if not waiting:
            return
        for event in self._parser.feed(self._port.read(waiting)):
            if isinstance(event, p.Frame) and event.type == p.Type.HELLO_REPLY and event.seq == 0:
                self._board_restarted()

    def _board_restarted(self) -> None:
        self.stats.device_resets += 1
        self._reset_seen = True

    def _await(self, seq: int, deadline: float, settle: float) -> p.Frame | None:
        """The board's answer to `seq`, or None by the deadline (or at once if the board restarts).

        A NAK for another seq means the board refused something else (line noise that looked like
        a frame); our frame may still be on its way or on the strip, so instead of resending at
        once (and talking over the strip) the wait is cut to `settle`.
        """
        assert self._port is not None
        self._heard = False
        while True:
            # What already waits is read even past the deadline: on a busy host (a Pi drawing pages for 50
            # phones) this thread may run again only after the deadline, though the answer came in time; taken
            # for lost, the frame would go again and the LEDs wait another round trip.
            late = time.monotonic() >= deadline
            waiting = self._port.in_waiting
            if late and not waiting:
                return None
            data = self._port.read(waiting if late else max(1, waiting))
            for event in self._parser.feed(data):
                if not isinstance(event, p.Frame):
                    continue
                self._heard = True
                if event.seq == seq and event.type in (p.Type.ACK, p.Type.NAK, p.Type.HELLO_REPLY):
                    return event
                if event.type == p.Type.HELLO_REPLY and event.seq == 0:
                    # The board restarted: whatever we sent is gone, no answer will come.
                    self._board_restarted()
                    return None
                if event.type == p.Type.NAK:
                    deadline = min(deadline, time.monotonic() + settle)

    def _connect(self) -> None:
        self._set_link(LinkState.STARTING if self.link is LinkState.STARTING else LinkState.DOWN)
        self._port = self._open_port()
        self._parser = p.Parser(1024)
        deadline = time.monotonic() + self.handshake_s
        while time.monotonic() < deadline and not self._stop.is_set():
            seq, _ = self._send(p.Type.HELLO)
            reply = self._await(seq, min(deadline, time.monotonic() + HELLO_EVERY_S), HELLO_EVERY_S)
            if reply is None or reply.type != p.Type.HELLO_REPLY:
                continue
            hello = p.Hello.parse(reply.payload)
            problem = self._check(hello)
            self.hello = hello
            if problem:
                self.error = problem
                self._set_link(LinkState.ERROR)
                raise _Lost(problem)
            self.error = None
            self._failures = 0
            self._reset_seen = False
            with self._cond:
                self._shown = -1
            self._set_link(LinkState.UP)
            return
        raise _Lost(f"no answer to HELLO within {self.handshake_s:g} s")

    def _check(self, hello: p.Hello) -> str | None:
        if hello.protocol != p.PROTOCOL_VERSION:
            return (f"board speaks LED protocol {hello.protocol}, this host speaks {p.PROTOCOL_VERSION}: "
                    f"reflash the firmware")
        if self.expect_leds is not None and hello.led_count != self.expect_leds:
            return (f"board drives {hello.led_count} LEDs but the layout has {self.expect_leds}: "
                    f"rebuild the firmware with make LED_COUNT={self.expect_leds} or fix the layout")
        return None

    def _service(self) -> None:
        with self._cond:
            if self._reset_seen:
                self._reset_seen = False
                self._shown = -1
            due = self._pending is not None and self._shown != self._version
            if not due:
                left = self._last_traffic + self.keepalive_s - time.monotonic()
                if left > 0:
                    self._cond.wait(left)
                    return
            pending, version = self._pending, self._version
        if due and pending is not None:
            self._show(pending, version)
        else:
            self._ping()

    def _failed(self) -> None:
        """The frame got no answer of its own: it goes again, and the link may be dead."""
        if self._reset_seen:
            return  # not a lost frame: the board restarted, and the frame goes again
        self.stats.timeouts += 1
        if self._heard:
            # A NAK for another SEQ: the board is alive, so this does not count towards reopening
            # the port (which would reset an Arduino for a noisy line; PROTOCOL.md rule 4).
            self._failures = 0
            return
        self._failures += 1
        if self._failures >= FAILURES_BEFORE_REOPEN:
            raise _Lost("no answer from the board")

    def _give_up(self, version: int, why: str) -> None:
        """Marks a frame done without showing it: sending it again could not help."""
        self.error = why
        with self._cond:
            self._shown = version
            self._cond.notify_all()

    def _show(self, pixels: bytes, version: int) -> None:
        if self.hello is not None and len(pixels) > 3 * self.hello.led_count:
            self._give_up(version, f"a frame of {len(pixels)} bytes is too long for {self.hello.led_count} LEDs")
            return
        seq, nbytes = self._send(p.Type.SHOW, pixels)
        self.stats.frames_sent += 1
        strip_s = update_s(len(pixels) // 3, self.baud)
        reply = self._await(seq, time.monotonic() + strip_s + MARGIN_S, strip_s + SETTLE_S)
        if reply is None:
            self._failed()
            return
        if reply.type == p.Type.NAK:
            self.stats.naks += 1
            if reply.payload and reply.payload[0] in (p.Reason.ARG, p.Reason.TYPE):
                # Refused for what it is, not for how it travelled.
                self._give_up(version, f"board refused a frame of {len(pixels)} bytes: "
                                       f"{p.Reason(reply.payload[0]).name}")
            return
        self._failures = 0
        if reply.type == p.Type.ACK:
            now = time.monotonic()
            with self._cond:
                self._shown = version
                self.stats.frames_acked += 1
                started = self._submitted_at.pop(version, None)
                if started is not None:
                    self.stats.latencies.append(now - started)
                self._cond.notify_all()

    def _ping(self) -> None:
        seq, nbytes = self._send(p.Type.PING)
        reply = self._await(seq, time.monotonic() + wire_s(nbytes + p.ACK_BYTES, self.baud) + MARGIN_S, SETTLE_S)
        if reply is None:
            self._failed()
            return
        self._failures = 0
        if reply.type == p.Type.ACK and reply.payload and not reply.payload[0] & p.STATUS_HOST_FRAME:
            with self._cond:
                self._shown = -1  # the board restarted or fell back: show our frame again


class SerialLeds:
    """The layout's chain on a serial board: logical frames in, wire bytes to the driver."""

    def __init__(self, layout: Layout, driver: SerialDriver) -> None:
        self.layout = layout
        self.driver = driver

    def show(self, frame: LogicalFrame) -> None:
        self.driver.submit(self.layout.wire_bytes(self.layout.physical(frame)))

    def close(self) -> None:
        self.driver.stop()
