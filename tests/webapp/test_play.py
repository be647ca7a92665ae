"""The state-changing API (web/routers/play.py, games.py) on a real TableService: each route changes the game
when it should, and a malformed body (422), an illegal request (409), no PIN (401), another site's Origin (403)
and a read-only table (403) are refused with JSON that says why, leaving the session's status as it was."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from controller.cli.compose import build
from controller.service.frame.config import GameConfig
from controller.service.table import TableService
from tests.support.service_helpers import config
from tests.support.session_support import next_action
from tests.support.web_helpers import ORIGIN, PIN
from web import create_app


def act(service: TableService) -> None:
    service.apply(next_action(service.state))


def to_corporation(service: TableService) -> None:
    while service.state.turn.step != "corporation":
        service.next_step()


def waiting_for_dice(service: TableService) -> None:
    """Physical dice, and a move action that needs them: the session asks the table for a roll."""
    service.set_dice_mode("physical")
    service.next_step()  # route power done
    move = next(a for a in service.legal().actions if a["tag"] == "move")
    assert service.apply_json(move["action"]).kind == "dice_requested"


def two_games(service: TableService) -> None:
    service.new_game()


def exported(service: TableService) -> bytes:
    act(service)
    return service.export_game()


@dataclass
class Route:
    method: str
    path: str
    body: Callable[[TableService], Any] = lambda _: None
    prepare: Callable[[TableService], None] = lambda _: None
    bad: list[Any] = field(default_factory=list)  # malformed bodies: 422
    illegal: Callable[[TableService], Any] | None = None  # a body the rules refuse now: 409
    status: int = 200
    raw: bool = False  # the body is bytes, not JSON to encode
    moves: bool = False  # the game state itself changes (not only the session's: dice mode, a new game)

    def send(self, client: TestClient, body: Any, **kw: Any) -> Any:
        if self.raw:
            return client.request(self.method, self.path, content=body, **kw)
        return client.request(self.method, self.path, json=body, **kw)

    def __str__(self) -> str:
        return f"{self.method} {self.path}"


def first_legal(service: TableService) -> dict[str, Any]:
    return {"action": service.legal().actions[0]["action"]}


NEW_GAME = {"floor": "meridian-annex", "mission": "tower-run", "agents": ["nano", "bit", "byte"],
            "difficulty": "seasoned", "captain": "overseer"}
ROUTES = [
    Route("POST", "/api/actions", first_legal, moves=True, bad=[{}, {"action": {"action": "teleport"}}, {"action": 3},
                                                    {"action": {"action": "pass"}, "faces": "12"}],
          illegal=lambda _: {"action": {"action": "corporation_turn"}}),
    Route("POST", "/api/next", moves=True),
    Route("POST", "/api/corporation-turn", prepare=to_corporation, moves=True, illegal=lambda _: None),
    Route("POST", "/api/undo", prepare=act, moves=True, illegal=lambda _: None),
    Route("POST", "/api/redo", prepare=lambda s: (act(s), s.undo()), moves=True, illegal=lambda _: None),
    Route("POST", "/api/dice", lambda _: {"faces": ["1", "2", "blank", "1", "1"]}, prepare=waiting_for_dice, moves=True,
          bad=[{}, {"faces": []}, {"faces": [1, 2]}], illegal=lambda _: {"faces": ["2"]}),
    Route("DELETE", "/api/dice", prepare=waiting_for_dice, illegal=lambda _: None),
    Route("PUT", "/api/dice/mode", lambda _: {"mode": "physical"}, bad=[{"mode": "loaded"}, {}, []]),
    Route("POST", "/api/corrections", lambda _: {"unit": "casing", "space": "J3", "facing": None}, moves=True,
          bad=[{"unit": "casing"}, {"unit": "G1", "space": "K5", "facing": "up"}],
          illegal=lambda _: {"unit": "casing", "space": "Z99"}),
    Route("POST", "/api/games", lambda _: NEW_GAME, moves=True,
          bad=[{"floor": "meridian-lobby"}, {**NEW_GAME, "mission": "data-hiest"}, {**NEW_GAME, "agents": []},
               {**NEW_GAME, "difficulty": "hard"}, {**NEW_GAME, "floor_text": "not a floor"}]),
    Route("POST", "/api/games/import", exported, raw=True, bad=[b"", b"{}", b"not json", b'{"start": 1}']),
    Route("POST", "/api/games/1/resume", prepare=two_games, moves=True),
]


def status(service: TableService) -> dict[str, Any]:
    return service._session.status()


@pytest.mark.parametrize("route", ROUTES, ids=str)
def test_each_route_changes_the_game(service: TableService, player: TestClient, route: Route) -> None:
    route.prepare(service)
    body = route.body(service)
    before = status(service)
    reply = route.send(player, body)
    assert reply.status_code == route.status, reply.json()
    after = status(service)
    assert after["number"] > before["number"]
    assert reply.json()["change"]["number"] == after["number"]
    assert (after["digest"] != before["digest"]) == route.moves


def test_each_route_changes_what_it_says(service: TableService, player: TestClient) -> None:
    """A closer look at what some of them did."""
    assert player.put("/api/dice/mode", json={"mode": "physical"}).json()["change"]["dice_mode"] == "physical"
    assert status(service)["dice_mode"] == "physical"
    player.post("/api/corrections", json={"unit": "G1", "space": "K5", "facing": "north"})
    guard = next(u for u in service.state.security if u.id == "G1")
    assert (guard.space, guard.facing) == ("K5", "N")
    started = player.post("/api/games", json=NEW_GAME).json()["change"]
    state = service.state
    assert started["kind"] == "new_game" and state.mission.id == "tower-run"
    assert [b.id for b in state.bots if b.kind == "agent"] == ["nano", "bit", "byte"]
    assert [g["current"] for g in player.get("/api/games").json()["games"]] == [False, True]
    assert player.post("/api/games/1/resume").json()["change"]["kind"] == "resumed"
    assert service.game_id == 1


def test_an_action_that_needs_physical_dice_is_a_202_with_the_request(service: TableService,
                                                                      player: TestClient) -> None:
    service.set_dice_mode("physical")
    player.post("/api/next")
    move = next(a for a in player.get("/api/legal").json()["actions"] if a["tag"] == "move")
    assert move["choose"] == ["dice"]
    reply = player.post("/api/actions", json={"action": move["action"]})
    assert reply.status_code == 202 and reply.json()["change"]["kind"] == "dice_requested"
    pending = player.get("/api/status").json()["pending_dice"]
    assert pending["dice"] == [{"die": "basic die", "count": 5, "faces": ["1", "1", "1", "1", "2", "blank"]}]
    bad_face = player.post("/api/dice", json={"faces": ["7"] * 5})
    assert bad_face.status_code == 422 and "is not a face of the basic die" in bad_face.json()["message"]
    done = player.post("/api/dice", json={"faces": ["2", "2", "1", "blank", "blank"]})
    assert done.status_code == 200 and done.json()["change"]["kind"] == "action"
    assert player.get("/api/status").json()["pending_dice"] is None


def test_a_face_not_on_its_die_is_refused_when_given_and_the_request_stays(service: TableService,
                                                                           player: TestClient) -> None:
    """Issue 28, 2: "banana" was taken (202) and every later answer refused until the request was given up."""
    waiting_for_dice(service)
    asked = player.get("/api/status").json()["pending_dice"]
    for faces, says in ((["banana"], "face 1 ('banana') is not a face of the basic die; its faces are 1, 2, blank"),
                        (["1", "2", "3"], "face 3 ('3') is not a face of the basic die"),
                        (["1"] * 6, "6 faces given, but only 5 basic dice are still needed")):
        refused = player.post("/api/dice", json={"faces": faces})
        assert refused.status_code == 422, refused.json()
        assert refused.json()["error"] == "bad_face" and says in refused.json()["message"]
        assert player.get("/api/status").json()["pending_dice"] == asked
    partly = player.post("/api/dice", json={"faces": ["1", "blank"]})
    assert partly.status_code == 202 and partly.json()["change"]["faces"] == ["1", "blank"]
    pending = player.get("/api/status").json()["pending_dice"]
    assert pending["dice"] == [{"die": "basic die", "count": 3, "faces": ["1", "1", "1", "1", "2", "blank"]}]
    assert pending["message"].endswith("2 faces given; still needed: 3 basic dice")
    assert player.post("/api/dice", json={"faces": ["2", "2", "1"]}).status_code == 200


def test_casings_move_asks_for_every_die_at_once_and_counts_what_is_still_needed(tmp_path: Path) -> None:
    """Issue 27, 5: `demo --seed 7`, Next 8 times, physical dice, "move: Casing" asked for "another result for
    the pressure die" before any face, then said "needs 5 basic dice ... but only 1 was given"."""
    demo = build(config(tmp_path).model_copy(update={"game": GameConfig(agents=("nano", "casing"))}), seed=7)
    demo.new_game()
    client = TestClient(create_app(demo, pin=PIN), headers={"Origin": ORIGIN})
    client.post("/api/session", json={"pin": PIN})
    for _ in range(8):
        assert client.post("/api/next").status_code == 200
    client.put("/api/dice/mode", json={"mode": "physical"})
    move = next(a for a in client.get("/api/legal").json()["actions"] if a["tag"] == "move")
    assert client.post("/api/actions", json={"action": move["action"]}).status_code == 202
    pending = client.get("/api/status").json()["pending_dice"]
    assert set(pending) == {"action", "faces", "message", "dice", "purpose"}
    assert pending["message"] == "Casing's move action: still needed: 1 pressure die, 5 basic dice"
    assert [(d["die"], d["count"]) for d in pending["dice"]] == [("pressure die", 1), ("basic die", 5)]
    assert pending["dice"][0]["faces"] == ["0", "1", "2", "2", "3", "4"] and pending["faces"] == []
    assert client.post("/api/dice", json={"faces": ["2"]}).status_code == 202
    pending = client.get("/api/status").json()["pending_dice"]
    assert pending["message"] == "Casing's move action: 1 face given; still needed: 5 basic dice"
    assert client.post("/api/dice", json={"faces": ["1", "1", "2", "blank", "1"]}).status_code == 200
    assert client.get("/api/status").json()["pending_dice"] is None
    demo.close()


def test_a_dice_request_given_up_by_redo_stays_given_up_after_a_restart(service: TableService,
                                                                         player: TestClient, tmp_path: Path) -> None:
    """Issue 28, 1: next; a move with 1 basic die; undo; physical dice; the same move (202); redo (200):
    pending_dice was null, and the request came back after a restart."""
    player.post("/api/next")
    move = next(a for a in player.get("/api/legal").json()["actions"] if a["tag"] == "move")["action"]
    move = {**move, "dice": {**move["dice"], "basic": 1}}
    assert player.post("/api/actions", json={"action": move}).status_code == 200
    assert player.post("/api/undo").status_code == 200
    player.put("/api/dice/mode", json={"mode": "physical"})
    assert player.post("/api/actions", json={"action": move}).status_code == 202
    assert player.post("/api/redo").status_code == 200
    live = player.get("/api/status").json()
    assert live["pending_dice"] is None
    service.close()
    restarted = build(config(tmp_path), seed=5)
    try:
        assert TestClient(create_app(restarted)).get("/api/status").json() == live
    finally:
        restarted.close()


def test_the_legal_actions_are_numbered_and_post_back_as_they_are(service: TableService,
                                                                   anyone: TestClient) -> None:
    legal = anyone.get("/api/legal").json()  # anyone may read them
    assert legal["number"] == service.number
    assert [a["index"] for a in legal["actions"]] == list(range(len(legal["actions"])))
    assert {"action", "label", "tag", "choose", "cost"} <= set(legal["actions"][0])
    kinds = anyone.get("/api/dice/kinds").json()["dice"]
    assert {"kind": "basic", "die": "basic die", "faces": ["1", "1", "1", "1", "2", "blank"]} in kinds
    options = anyone.get("/api/options").json()
    assert "meridian-lobby" in [f["name"] for f in options["floors"]]
    lobby = {"name": "meridian-lobby", "title": "Meridian Tower, Lobby", "shipped": True}
    assert lobby.items() <= next(f for f in options["floors"] if f["name"] == "meridian-lobby").items()  # its
    # name for people beside its id (and its level and safe zones: tests/webapp/test_start_options.py)
    assert {"data-heist", "tower-run"} <= {m["id"] for m in options["missions"]}
    assert options["difficulties"] == ["simplified", "standard", "seasoned"] and options["levels"] == [1, 2, 3]
    assert options["facings"] == [{"letter": "N", "word": "north"}, {"letter": "E", "word": "east"},
                                  {"letter": "S", "word": "south"}, {"letter": "W", "word": "west"}]  # the rules' words


def test_an_exported_game_imports_on_another_table(service: TableService, player: TestClient,
                                                   tmp_path_factory: pytest.TempPathFactory) -> None:
    for _ in range(5):
        act(service)
    digest = status(service)["digest"]
    exported_file = player.get("/api/games/1/export")
    assert exported_file.status_code == 200
    assert "attachment" in exported_file.headers["content-disposition"]
    assert player.get("/api/games/7/export").json()["error"] == "not_found"
    service.new_game()
    reply = player.post("/api/games/import", content=exported_file.content)
    assert reply.status_code == 200 and status(service)["digest"] == digest and status(service)["game"] == 3


@pytest.mark.parametrize("route", [r for r in ROUTES if r.bad], ids=str)
def test_a_malformed_body_is_a_readable_422_that_changes_nothing(service: TableService, player: TestClient,
                                                                 route: Route) -> None:
    route.prepare(service)
    before = status(service)
    for body in route.bad:
        reply = route.send(player, body)
        assert reply.status_code == 422, (body, reply.json())
        assert reply.json()["error"] in ("bad_request", "record_error", "bad_face", "floor_error")
        assert reply.json()["message"] and "\n" not in reply.json()["message"], body
        assert status(service) == before, body


@pytest.mark.parametrize("route", [r for r in ROUTES if r.illegal is not None], ids=str)
def test_what_the_rules_refuse_is_a_409_with_the_rule_that_changes_nothing(service: TableService,
                                                                           player: TestClient, route: Route) -> None:
    assert route.illegal is not None
    before = status(service)
    reply = route.send(player, route.illegal(service))
    assert reply.status_code == 409, reply.json()
    assert reply.json()["error"] in ("illegal_action", "refused")
    assert len(reply.json()["message"]) > 20
    assert status(service) == before


def test_the_rule_is_the_message(player: TestClient) -> None:
    reply = player.post("/api/actions", json={"action": {"action": "corporation_turn"}})
    assert reply.json()["error"] == "illegal_action" and "corporation" in reply.json()["message"]
    assert "nothing to undo" in player.post("/api/undo").json()["message"]


def refusals(app: FastAPI, read_only_app: FastAPI) -> dict[str, tuple[TestClient, int, str]]:
    stranger = TestClient(app, headers={"Origin": ORIGIN})
    elsewhere = TestClient(app, headers={"Origin": "http://evil.example"})
    elsewhere.cookies.update(logged_in(app).cookies)
    spectator = logged_in(read_only_app)
    return {"no PIN": (stranger, 401, "pin_required"), "another site": (elsewhere, 403, "bad_origin"),
            "read-only": (spectator, 403, "read_only")}


def logged_in(app: FastAPI) -> TestClient:
    client = TestClient(app, headers={"Origin": ORIGIN})
    assert client.post("/api/session", json={"pin": PIN}).status_code == 200
    return client


@pytest.mark.parametrize("route", ROUTES, ids=str)
def test_no_pin_another_site_and_a_read_only_table_change_nothing(service: TableService, app: FastAPI,
                                                                   route: Route) -> None:
    route.prepare(service)
    body = route.body(service)
    before = status(service)
    for why, (client, code, error) in refusals(app, create_app(service, pin=PIN, read_only=True)).items():
        reply = route.send(client, body)
        assert (reply.status_code, reply.json()["error"]) == (code, error), why
        assert status(service) == before, why


def test_no_game_is_a_404(tmp_path: Any) -> None:
    from controller.cli.compose import build
    from tests.support.service_helpers import config

    empty = build(config(tmp_path))
    client = logged_in(create_app(empty, pin=PIN))
    for method, path in (("GET", "/api/legal"), ("POST", "/api/undo"), ("POST", "/api/corporation-turn")):
        reply = client.request(method, path)
        assert (reply.status_code, reply.json()["error"]) == (404, "no_game"), path
    empty.close()
