"""The Python protocol code against the vectors the C host tests also check."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.leds import protocol as p

VECTORS = json.loads((Path(__file__).resolve().parents[2] / "firmware" / "protocol" / "vectors.json").read_text())


@pytest.mark.parametrize("vector", VECTORS["crc"], ids=lambda v: v["name"])
def test_crc(vector: dict) -> None:
    assert p.crc16(bytes.fromhex(vector["data"])) == vector["crc"]


@pytest.mark.parametrize("vector", VECTORS["frames"], ids=lambda v: v["name"])
def test_frame_encodes_and_parses(vector: dict) -> None:
    payload = bytes.fromhex(vector["payload"])
    wire = bytes.fromhex(vector["bytes"])
    assert p.encode(vector["type"], vector["seq"], payload) == wire
    assert p.Parser(1024).feed(wire) == [p.Frame(vector["type"], vector["seq"], payload)]


def _events(events: list[p.Event]) -> str:
    return ",".join(
        f"F{e.type:02x}:{e.seq}" if isinstance(e, p.Frame) else f"E{int(e.reason)}:{e.seq}" for e in events
    )


@pytest.mark.parametrize("vector", VECTORS["streams"], ids=lambda v: v["name"])
def test_stream(vector: dict) -> None:
    parser = p.Parser(vector["max_len"])
    assert _events(parser.feed(bytes.fromhex(vector["stream"]))) == vector["expect"]


@pytest.mark.parametrize("vector", VECTORS["commands"], ids=lambda v: v["name"])
def test_command_check(vector: dict) -> None:
    reason = p.check_command(vector["type"], bytes.fromhex(vector["payload"]), vector["led_count"])
    assert (int(reason) if reason else 0) == vector["reason"]


def test_stream_fed_byte_by_byte_gives_the_same_events() -> None:
    for vector in VECTORS["streams"]:
        parser = p.Parser(vector["max_len"])
        events = [e for b in bytes.fromhex(vector["stream"]) for e in parser.feed(bytes((b,)))]
        assert _events(events) == vector["expect"], vector["name"]


def test_abort_drops_a_partial_frame() -> None:
    parser = p.Parser(64)
    frame = p.encode(p.Type.PING, 42)
    assert parser.feed(frame[:3]) == [] and parser.busy
    assert parser.abort(p.Reason.TIMEOUT) == p.Error(p.Reason.TIMEOUT, 42)
    assert parser.abort(p.Reason.TIMEOUT) is None
    assert parser.feed(frame) == [p.Frame(p.Type.PING, 42, b"")]


def test_hello_round_trip() -> None:
    hello = p.Hello(1, (1, 0), 38, p.max_payload(38), p.STATUS_HOST_FRAME)
    assert p.Hello.parse(hello.to_payload()) == hello
    with pytest.raises(ValueError):
        p.Hello.parse(b"\x01")


def test_full_frame_overhead_is_under_ten_percent() -> None:
    leds = 38
    assert (p.frame_bytes(leds) - 3 * leds) / (3 * leds) <= 0.10
