"""What a client cannot make the table do with odd input: no number or nesting turns into a 500."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from controller.service.table import TableService


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


def _tampered(exported: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> bytes:
    record = copy.deepcopy(exported)
    record["entries"], record["undone"] = [], []
    change(record)
    return json.dumps(record).encode()


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """Set the field at `path` (dots, list indices as numbers) of the record to `value`."""
    def change(record: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = record
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        node[int(last) if isinstance(node, list) else last] = value
    return change


TAMPERED = {
    "a bot off the floor": (_set("start.bots.0.space", "Z99"), "Z99"),
    "an active player beyond the turn order": (_set("start.turn.active", 9), "turn.active"),
    "an unknown agent in the turn order": (lambda r: r["start"]["turn"]["order"].append("nobody"), "nobody"),
    "no bots": (_set("start.bots", []), "bots"),
    "a guard off the floor": (_set("start.security.0.space", "Z99"), "Z99"),
    "a floor that does not compile": (_set("start.floor.text", "garbage"), "floor"),
    "a record of a later release": (_set("version", 99), "version 99"),
}


@pytest.mark.parametrize("case", TAMPERED, ids=str)
def test_an_unplayable_import_is_one_422_naming_the_problem_and_the_game_stays(
        service: TableService, player: TestClient, anyone: TestClient, case: str) -> None:
    change, named = TAMPERED[case]
    service.next_step()
    exported = player.get(f"/api/games/{service.session.game_id}/export").json()
    before = player.get("/api/status").json()
    games = player.get("/api/games").json()
    reply = player.post("/api/games/import", content=_tampered(exported, change))
    assert reply.status_code == 422, reply.text
    assert reply.json()["error"] == "record_error" and named in reply.json()["message"], reply.json()
    assert "\n" not in reply.json()["message"]
    assert player.get("/api/status").json() == before
    assert player.get("/api/games").json() == games
    for path in ("/api/legal", "/api/floor", "/api/table", "/api/state"):
        assert anyone.get(path).status_code == 200, path


def test_an_untampered_record_with_no_entries_still_imports(service: TableService, player: TestClient) -> None:
    exported = player.get(f"/api/games/{service.session.game_id}/export").json()
    reply = player.post("/api/games/import", content=_tampered(exported, lambda r: None))
    assert reply.status_code == 200, reply.text
    assert player.post("/api/next").status_code in (200, 202)
