"""What a client cannot make the table do with odd input: no number or nesting turns into a 500."""

from __future__ import annotations

import copy
import json
import socket
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from controller.service.table import TableService
from web.body_limit import MOST_BODY_BYTES
from web.routers.games import MOST_IMPORT_BYTES


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
    exported = player.get(f"/api/games/{service.game_id}/export").json()
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
    exported = player.get(f"/api/games/{service.game_id}/export").json()
    reply = player.post("/api/games/import", content=_tampered(exported, lambda r: None))
    assert reply.status_code == 200, reply.text
    assert player.post("/api/next").status_code in (200, 202)


def test_a_body_over_the_routes_limit_is_a_413_naming_the_limit(player: TestClient, anyone: TestClient) -> None:
    before = player.get("/api/status").json()
    padded = {"action": {"action": "begin_actions", "note": "x" * 20_000}}
    reply = player.post("/api/actions", json=padded)
    assert reply.status_code == 413 and reply.json()["error"] == "too_large"
    assert str(MOST_BODY_BYTES) in reply.json()["message"] and "/api/actions" in reply.json()["message"]
    assert player.get("/api/status").json() == before
    # a floor is larger than an action: its routes take more (a floor's text at its longest)
    floor = {"text": "name: x\n" + "#" * 19_000, "name": "big"}
    assert anyone.post("/api/floors/check", json=floor).status_code == 200
    assert anyone.post("/api/floors/check", json={**floor, "text": "\u2603" * 20_000 + "x" * 200_000}
                       ).status_code == 413


def test_an_import_takes_a_whole_record_but_not_more(player: TestClient, service: TableService) -> None:
    for _ in range(3):
        service.next_step()
    exported = player.get(f"/api/games/{service.game_id}/export").content
    assert len(exported) > MOST_BODY_BYTES
    assert player.post("/api/games/import", content=exported).status_code == 200
    huge = exported[:-1] + b', "padding": "' + b"x" * MOST_IMPORT_BYTES + b'"}'
    reply = player.post("/api/games/import", content=huge)
    assert reply.status_code == 413 and str(MOST_IMPORT_BYTES) in reply.json()["message"]


def _answer(sock: socket.socket, seconds: float = 3.0) -> bytes:
    """The server's answer, up to the connection's close (or what came in `seconds`; b"" if nothing did)."""
    sock.settimeout(seconds)
    answer = b""
    try:
        while data := sock.recv(65536):
            answer += data
    except (TimeoutError, ConnectionResetError):
        pass
    return answer


def test_a_too_large_content_length_is_refused_before_any_of_the_body_is_sent(
        served: tuple[TableService, int]) -> None:
    _, port = served
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(b"POST /api/floors/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 52428800\r\n\r\n")
        answer = _answer(sock)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"too_large" in answer


def test_a_chunked_body_is_refused_once_the_bytes_read_pass_the_limit(served: tuple[TableService, int]) -> None:
    _, port = served
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(b"POST /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Transfer-Encoding: chunked\r\n\r\n")
        chunk = b"%x\r\n%s\r\n" % (4096, b" " * 4096)
        answer = b""
        for _ in range(64):  # 256 KB offered, never the closing chunk: only a limit can answer
            try:
                sock.sendall(chunk)
            except OSError:  # the server closed its side after answering
                break
            answer = _answer(sock, 0.05)
            if answer:
                break
        answer = answer or _answer(sock)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
