"""Who may do what (web/auth.py) on a real app: the PIN opens a session cookie, wrong PINs wait longer and
longer per client, Origin checks, the read-only table, the PIN from the config or made at random, and every
refusal as JSON {"error", "message"}."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi import APIRouter, FastAPI
from fastapi.testclient import TestClient

from controller.cli.compose import build
from controller.service.frame.config import ServiceConfig, load_config
from controller.service.table import TableService
from tests.support.clock import Clock
from tests.support.service_helpers import config
from tests.support.web_helpers import ORIGIN, PIN
from web import create_app
from web.auth import COOKIE, FIRST_WAIT_S, FREE_TRIES, Player, Watcher


def guarded(app: FastAPI) -> FastAPI:
    """The app with one route behind each dependency, as the other routers use them."""
    router = APIRouter()

    @router.post("/probe/player")
    def as_player(_: Player) -> dict[str, str]:
        return {"ok": "player"}

    @router.get("/probe/watcher")
    def as_watcher(_: Watcher) -> dict[str, str]:
        return {"ok": "watcher"}

    app.include_router(router)
    return app


def test_a_correct_pin_sets_an_httponly_strict_session_cookie(anyone: TestClient) -> None:
    boot = anyone.get("/api/session").json()["boot"]
    assert anyone.get("/api/session").json() == {"player": False, "read_only": False, "boot": boot}
    reply = anyone.post("/api/session", json={"pin": PIN})
    assert reply.status_code == 200 and reply.json() == {"player": True}
    cookie = reply.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie and "SameSite=strict" in cookie
    assert anyone.get("/api/session").json() == {"player": True, "read_only": False, "boot": boot}
    assert anyone.delete("/api/session").json() == {"player": False}
    assert anyone.get("/api/session").json()["player"] is False


def test_player_needs_the_cookie_and_the_tables_own_origin(app: FastAPI) -> None:
    guarded(app)
    stranger = TestClient(app)
    refused = stranger.post("/probe/player")
    assert refused.status_code == 401 and refused.json()["error"] == "pin_required"
    assert "type it on the page" in refused.json()["message"]  # for a player: no route, no JSON
    assert not re.search(r'/api/|[{}"]', refused.json()["message"])
    assert stranger.get("/probe/watcher").json()["error"] == "pin_required"
    stranger.post("/api/session", json={"pin": PIN})
    assert stranger.post("/probe/player").json() == {"ok": "player"}  # no Origin: curl, a script
    assert stranger.post("/probe/player", headers={"Origin": ORIGIN}).json() == {"ok": "player"}
    elsewhere = stranger.post("/probe/player", headers={"Origin": "http://evil.example"})
    assert elsewhere.status_code == 403 and elsewhere.json()["error"] == "bad_origin"
    assert "evil.example" in elsewhere.json()["message"]
    assert stranger.get("/probe/watcher").json() == {"ok": "watcher"}


def test_a_login_from_another_site_is_refused(anyone: TestClient) -> None:
    reply = anyone.post("/api/session", json={"pin": PIN}, headers={"Origin": "http://evil.example"})
    assert reply.status_code == 403 and reply.json()["error"] == "bad_origin"
    assert "set-cookie" not in reply.headers


def test_wrong_pins_wait_longer_and_longer_per_client(app: FastAPI, clock: Clock) -> None:
    guesser = TestClient(app, client=("10.0.0.9", 5000))
    for left in range(FREE_TRIES - 1, 0, -1):
        reply = guesser.post("/api/session", json={"pin": "000000"})
        assert reply.status_code == 401
        assert reply.json()["error"] == "wrong_pin" and reply.json()["tries_left"] == left
    waits = []
    for _ in range(3):
        reply = guesser.post("/api/session", json={"pin": "000000"})
        assert reply.status_code == 429 and reply.json()["error"] == "too_many_tries"
        assert reply.headers["retry-after"] == str(reply.json()["retry_after"])
        waits.append(reply.json()["retry_after"])
        # even the right PIN waits its turn
        assert guesser.post("/api/session", json={"pin": PIN}).status_code == 429
        clock.now += waits[-1]
    assert waits == [FIRST_WAIT_S, FIRST_WAIT_S * 2, FIRST_WAIT_S * 4]
    # another phone at the table is not held back by the guesser
    assert TestClient(app, client=("10.0.0.10", 5000)).post("/api/session", json={"pin": PIN}).status_code == 200
    assert guesser.post("/api/session", json={"pin": PIN}).status_code == 200  # the wait is over
    assert guesser.post("/api/session", json={"pin": "1"}).json()["tries_left"] == FREE_TRIES - 1  # a fresh start


def test_a_restarted_table_says_so_by_its_boot_id_and_has_forgotten_every_session(service: TableService) -> None:
    """A page that reconnects after a restart must drop the rights it had (the sessions live in memory): the boot
    id it remembered differs from the new run's, and its cookie no longer makes it a player."""
    first = TestClient(create_app(service, pin=PIN))
    first.post("/api/session", json={"pin": PIN})
    before = first.get("/api/session").json()
    again = TestClient(create_app(service, pin=PIN), cookies=dict(first.cookies))  # the same phone, a new run
    after = again.get("/api/session").json()
    assert before["player"] is True and after["player"] is False
    assert re.fullmatch(r"[0-9a-f]{16}", before["boot"]) and after["boot"] != before["boot"]
    assert first.get("/api/session").json()["boot"] == before["boot"]  # steady within one run


def test_a_read_only_table_refuses_every_change_even_to_a_player(service: TableService) -> None:
    app = guarded(create_app(service, pin=PIN, read_only=True))
    client = TestClient(app)
    assert client.post("/api/session", json={"pin": PIN}).status_code == 200  # the camera still needs it
    assert client.get("/api/session").json() | {"boot": ""} == {"player": True, "read_only": True, "boot": ""}
    reply = client.post("/probe/player")
    assert reply.status_code == 403 and reply.json()["error"] == "read_only"
    assert client.get("/probe/watcher").status_code == 200


def test_the_pin_and_read_only_come_from_the_config(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text('[web]\npin = "4321"\nread_only = true\n', encoding="utf-8")
    loaded = load_config(path)
    assert loaded.web.pin == "4321" and loaded.web.read_only is True
    service = build(loaded.model_copy(update={"database": config(tmp_path).database}))
    app = create_app(service)
    assert app.state.auth.pin == "4321" and app.state.auth.read_only is True
    service.session.close()


def test_a_table_without_a_pin_makes_a_random_six_digit_one(tmp_path: Path) -> None:
    service = build(ServiceConfig(database={"path": tmp_path / "g.sqlite3"}))  # type: ignore[arg-type]
    pins = {create_app(service).state.auth.pin for _ in range(5)}
    assert all(re.fullmatch(r"\d{6}", pin) for pin in pins) and len(pins) > 1
    service.session.close()


@pytest.mark.parametrize("method, path, body, status, code", [
    ("GET", "/api/nowhere", None, 404, "not_found"),
    ("PUT", "/api/status", None, 405, "method_not_allowed"),
    ("POST", "/api/session", {"pin": 1234, "extra": True}, 422, "bad_request"),
    ("POST", "/api/session", None, 422, "bad_request"),
])
def test_every_refusal_is_json_with_a_code_and_a_message(anyone: TestClient, method: str, path: str,
                                                         body: object, status: int, code: str) -> None:
    reply = anyone.request(method, path, json=body)
    assert reply.status_code == status
    assert set(reply.json()) == {"error", "message"} and reply.json()["error"] == code
    assert reply.json()["message"] and "\n" not in reply.json()["message"]


@pytest.mark.parametrize("method, path, allowed", [
    ("PUT", "/api/dice", {"POST", "DELETE"}),
    ("PUT", "/api/session", {"GET", "POST", "DELETE"}),
    ("DELETE", "/api/games", {"GET", "POST"}),
])
def test_a_wrong_method_is_answered_with_every_method_the_path_takes(anyone: TestClient, method: str, path: str,
                                                                    allowed: set[str]) -> None:
    reply = anyone.request(method, path)
    assert reply.status_code == 405 and reply.json()["error"] == "method_not_allowed"
    assert set(reply.headers["allow"].split(", ")) == allowed
    for name in allowed:
        assert name in reply.json()["message"]
