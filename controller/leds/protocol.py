"""The LED link protocol, framing layer: the Python twin of firmware/src/protocol.c.

Both sides are checked against the same vectors (firmware/protocol/vectors.json), so the protocol is
defined once even though it is written twice. Byte-by-byte description: firmware/PROTOCOL.md.
"""

from __future__ import annotations

import binascii
from dataclasses import dataclass
from enum import IntEnum

SYNC = 0xA5
HEADER_LEN = 5
OVERHEAD = HEADER_LEN + 2
PROTOCOL_VERSION = 1
DEFAULT_BAUD = 500_000  # the firmware's line rate unless built with another (docs/leds.md)
# One pixel byte on the data pin, as firmware/src/ws2812.c writes it at 16 MHz: 8 bits of 20 cycles
# (1.25 us) and 11 cycles between bytes, so 171 cycles. The simulator test measures the firmware
# against this, and the docs' strip times are checked against it (tests/firmware).
STRIP_BYTE_S = 171 / 16e6
LATCH_S = 300e-6     # the board keeps the line low this long before it acknowledges a show


def strip_s(led_count: int) -> float:
    """Seconds the board takes to write `led_count` LEDs to the strip (interrupts off)."""
    return 3 * led_count * STRIP_BYTE_S


class Type(IntEnum):
    """Frame types: host-to-device below 0x80, device-to-host from 0x80."""

    HELLO = 0x01
    PING = 0x02
    SET = 0x03
    SHOW = 0x04
    FILL = 0x05
    BRIGHTNESS = 0x06
    ACK = 0x80
    HELLO_REPLY = 0x81
    NAK = 0x82


class Reason(IntEnum):
    """Why a frame was refused: the one payload byte of a NAK."""

    CRC = 1
    LENGTH = 2
    TYPE = 3
    ARG = 4
    OVERRUN = 5
    TIMEOUT = 6


STATUS_HOST_FRAME = 0x01
STATUS_FALLBACK = 0x02


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE, the checksum over type, seq, length and payload."""
    return binascii.crc_hqx(data, crc)


def encode(type_: int, seq: int, payload: bytes = b"") -> bytes:
    """One whole frame, ready for the wire."""
    body = bytes((type_ & 0xFF, seq & 0xFF, len(payload) & 0xFF, len(payload) >> 8)) + payload
    crc = crc16(body)
    return bytes((SYNC,)) + body + bytes((crc & 0xFF, crc >> 8))


@dataclass(frozen=True, slots=True)
class Frame:
    """A frame that arrived whole with a good CRC."""

    type: int
    seq: int
    payload: bytes


@dataclass(frozen=True, slots=True)
class Error:
    """A frame that was dropped, and why (`seq` is what arrived, if the header got that far)."""

    reason: Reason
    seq: int


Event = Frame | Error


class Parser:
    """Byte-at-a-time frame parser with the same states and decisions as the firmware's."""

    def __init__(self, max_len: int) -> None:
        self.max_len = max_len
        self._state = "hunt"
        self._header = bytearray()
        self._payload = bytearray()
        self._len = 0
        self._crc = bytearray()

    @property
    def busy(self) -> bool:
        """True while a frame is partly received."""
        return self._state != "hunt"

    def feed(self, data: bytes) -> list[Event]:
        """Consumes bytes and returns the frames and errors they complete, in order."""
        events: list[Event] = []
        for byte in data:
            event = self._feed_byte(byte)
            if event is not None:
                events.append(event)
        return events

    def abort(self, reason: Reason) -> Error | None:
        """Drops a partly received frame (timeout, overrun); None if nothing was in progress."""
        if not self.busy:
            return None
        return self._fail(reason)

    def _seq(self) -> int:
        return self._header[1] if len(self._header) > 1 else 0

    def _fail(self, reason: Reason) -> Error:
        error = Error(reason, self._seq())
        self._state = "hunt"
        return error

    def _feed_byte(self, b: int) -> Event | None:
        state = self._state
        if state == "hunt":
            if b == SYNC:
                self._state = "header"
                self._header = bytearray()
            return None
        if state == "header":
            self._header.append(b)
            if len(self._header) == 4:
                self._len = self._header[2] | self._header[3] << 8
                if self._len > self.max_len:
                    return self._fail(Reason.LENGTH)
                self._payload = bytearray()
                self._crc = bytearray()
                self._state = "payload" if self._len else "crc"
            return None
        if state == "payload":
            self._payload.append(b)
            if len(self._payload) == self._len:
                self._state = "crc"
            return None
        self._crc.append(b)
        if len(self._crc) < 2:
            return None
        self._state = "hunt"
        if self._crc[0] | self._crc[1] << 8 != crc16(bytes(self._header) + bytes(self._payload)):
            return Error(Reason.CRC, self._header[1])
        return Frame(self._header[0], self._header[1], bytes(self._payload))


def check_command(type_: int, payload: bytes, led_count: int) -> Reason | None:
    """Checks a good frame's type and payload against a strip of `led_count` LEDs."""
    n = len(payload)
    if type_ in (Type.HELLO, Type.PING):
        ok = n == 0
    elif type_ == Type.SET:
        ok = n >= 5 and (n - 2) % 3 == 0 and int.from_bytes(payload[:2], "little") + (n - 2) // 3 <= led_count
    elif type_ == Type.SHOW:
        ok = n % 3 == 0 and n // 3 <= led_count
    elif type_ == Type.FILL:
        ok = n == 3
    elif type_ == Type.BRIGHTNESS:
        ok = n == 1
    else:
        return Reason.TYPE
    return None if ok else Reason.ARG


def max_payload(led_count: int) -> int:
    """The longest payload a device with `led_count` LEDs accepts (a SET of every LED)."""
    return 2 + 3 * led_count


@dataclass(frozen=True, slots=True)
class Hello:
    """What a device says about itself in its HELLO_REPLY."""

    protocol: int
    firmware: tuple[int, int]
    led_count: int
    max_payload: int
    status: int

    @classmethod
    def parse(cls, payload: bytes) -> Hello:
        if len(payload) != 8:
            raise ValueError(f"HELLO_REPLY payload has {len(payload)} bytes, expected 8")
        return cls(
            protocol=payload[0],
            firmware=(payload[1], payload[2]),
            led_count=int.from_bytes(payload[3:5], "little"),
            max_payload=int.from_bytes(payload[5:7], "little"),
            status=payload[7],
        )

    def to_payload(self) -> bytes:
        return bytes((self.protocol, *self.firmware)) + self.led_count.to_bytes(2, "little") + (
            self.max_payload.to_bytes(2, "little") + bytes((self.status,))
        )


def frame_bytes(led_count: int) -> int:
    """Bytes on the wire, host to device, for one full SHOW of `led_count` LEDs."""
    return OVERHEAD + 3 * led_count


ACK_BYTES = OVERHEAD + 1
