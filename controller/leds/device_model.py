"""A pure-Python stand-in for the firmware, for fast tests of the host side.

It parses with the same protocol code the host uses (itself checked against the shared vectors)
and executes commands like firmware/src/main.c, behind the small part of pyserial's interface the
serial driver uses. With a baud rate it also makes replies wait for the wire and the strip, so the
benchmark has a timing reference without a simulator. It does not model the fallback pattern or
the UART's byte timing: that is what the simavr harness is for.
"""

from __future__ import annotations

import threading
import time

from controller.leds import protocol as p


class DeviceModel:
    """The firmware's behaviour at the frame level, seen through a serial-port-like object."""

    def __init__(self, led_count: int, *, baud: int | None = None, firmware: tuple[int, int] = (1, 0)) -> None:
        self.led_count = led_count
        self.baud = baud
        self.firmware = firmware
        self.pixels = bytearray(3 * led_count)
        self.brightness = 255
        self.status = 0
        self.latched: list[bytes] = []
        self.timeout: float | None = 0.1
        self.is_open = True
        self._parser = p.Parser(p.max_payload(led_count))
        self._replies: list[tuple[float, bytes]] = []
        self._rx = bytearray()
        self._cond = threading.Condition()
        self._line_free = 0.0

    # -- the pyserial surface the driver uses ---------------------------------------------------
    def write(self, data: bytes) -> int:
        now = time.monotonic()
        with self._cond:
            if self.baud:
                self._line_free = max(self._line_free, now) + len(data) * 10 / self.baud
            for event in self._parser.feed(bytes(data)):
                self._handle(event)
            self._cond.notify_all()
        return len(data)

    @property
    def in_waiting(self) -> int:
        with self._cond:
            self._collect()
            return len(self._rx)

    def read(self, size: int = 1) -> bytes:
        deadline = time.monotonic() + (self.timeout or 0.0)
        with self._cond:
            while True:
                self._collect()
                if self._rx or time.monotonic() >= deadline:
                    out = bytes(self._rx[:size])
                    del self._rx[:size]
                    return out
                wait = deadline - time.monotonic()
                if self._replies:
                    wait = min(wait, self._replies[0][0] - time.monotonic())
                self._cond.wait(max(wait, 0.0005))

    def reset_input_buffer(self) -> None:
        with self._cond:
            self._rx.clear()
            self._replies.clear()

    def close(self) -> None:
        self.is_open = False

    # -- board events ---------------------------------------------------------------------------
    def reboot(self) -> None:
        """A reset: the partial frame and the settings are gone, the strip keeps its picture."""
        with self._cond:
            self._parser = p.Parser(p.max_payload(self.led_count))
            self.brightness = 255
            self.status = 0
            self._reply(p.Type.HELLO_REPLY, 0, self._hello(), time.monotonic())
            self._cond.notify_all()

    # -- firmware behaviour ---------------------------------------------------------------------
    def _collect(self) -> None:
        now = time.monotonic()
        while self._replies and self._replies[0][0] <= now:
            self._rx.extend(self._replies.pop(0)[1])

    def _reply(self, type_: int, seq: int, payload: bytes, ready: float) -> None:
        frame = p.encode(type_, seq, payload)
        if self.baud:
            ready += len(frame) * 10 / self.baud
        self._replies.append((ready, frame))

    def _hello(self, extra_status: int = 0) -> bytes:
        status = self.status | extra_status
        return p.Hello(p.PROTOCOL_VERSION, self.firmware, self.led_count, p.max_payload(self.led_count),
                       status).to_payload()

    def _handle(self, event: p.Event) -> None:
        ready = max(self._line_free, time.monotonic())
        if isinstance(event, p.Error):
            self._reply(p.Type.NAK, event.seq, bytes((event.reason,)), ready)
            return
        reason = p.check_command(event.type, event.payload, self.led_count)
        if reason is not None:
            self._reply(p.Type.NAK, event.seq, bytes((reason,)), ready)
            return
        fell_back = self.status & p.STATUS_FALLBACK  # the answer says so once, as the firmware's does
        self.status &= ~p.STATUS_FALLBACK
        data = event.payload
        if event.type == p.Type.HELLO:
            self._reply(p.Type.HELLO_REPLY, event.seq, self._hello(fell_back), ready)
            return
        if event.type == p.Type.SET:
            start = int.from_bytes(data[:2], "little")
            self.pixels[3 * start : 3 * start + len(data) - 2] = data[2:]
        elif event.type == p.Type.SHOW:
            self.pixels[: len(data)] = data
            shown = (bytes(v * (self.brightness + 1) >> 8 for v in self.pixels) if self.brightness != 255
                     else bytes(self.pixels))
            self.latched.append(shown)
            self.status |= p.STATUS_HOST_FRAME
            if self.baud:
                ready += p.strip_s(self.led_count) + p.LATCH_S
        elif event.type == p.Type.FILL:
            self.pixels[:] = bytes(data) * self.led_count
        elif event.type == p.Type.BRIGHTNESS:
            self.brightness = data[0]
        self._reply(p.Type.ACK, event.seq, bytes((self.status | fell_back,)), ready)
