"""What a client cannot make the table do with odd input: no number or nesting turns into a 500."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient


@pytest.mark.parametrize("after", ["9223372036854775808", "100000000000000000000", "9" * 400])
def test_a_change_number_beyond_any_the_log_holds_is_a_422(anyone: TestClient, after: str) -> None:
    reply = anyone.get(f"/api/changes?after={after}")
    assert reply.status_code == 422 and reply.json()["error"] == "bad_request"
    assert "after" in reply.json()["message"]


def test_the_largest_change_number_taken_answers_with_nothing_new(anyone: TestClient) -> None:
    reply = anyone.get(f"/api/changes?after={2**62}")
    assert reply.status_code == 200 and reply.json()["changes"] == []


@pytest.mark.parametrize("body", [b'{"a":' * 1000 + b"1" + b"}" * 1000,
                                  b'{"entries":[' + b'{"action":' * 100_000 + b"1" + b"}" * 100_000 + b"]}"])
def test_an_import_nested_deeper_than_any_record_is_a_422(player: TestClient, body: bytes) -> None:
    before = player.get("/api/status").json()
    reply = player.post("/api/games/import", content=body,
                        headers={"Content-Type": "application/json"})
    assert reply.status_code == 422, reply.text
    assert reply.json()["error"] in ("bad_request", "record_error")
    assert player.get("/api/status").json() == before
