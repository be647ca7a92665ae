"""GET /api/floor against the shipped lobby: the page draws what the engine plays on, and what play changed.

The lobby's drawing (controller/content/floors/meridian-lobby.floor) is read by eye here: its entrance
row, the door under B2, the wall between J1 and K1, its terminals, caches and safe zones; then a game whose
doors, walls, terminals and caches were changed in play shows those changes, and a guard's awareness range is
the engine's own sight.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from controller.rules import GameSetup, new_game
from controller.service.table import TableService
from tests.support.service_helpers import built_service
from web import create_app

LOBBY = GameSetup(floor="meridian-lobby", mission="data-heist", players=2, agents=["nano", "casing"], seed=3)


@pytest.fixture
def service(tmp_path: Path) -> Iterator[TableService]:
    with built_service(tmp_path, game=False) as made:
        yield made


def test_no_game_is_a_404_that_says_so(service: TableService) -> None:
    response = TestClient(create_app(service)).get("/api/floor")
    assert response.status_code == 404
    assert response.json() == {"error": "no_game",
                               "message": "there is no game yet, so no floor: start a new game"}


def test_the_lobby_as_drawn(service: TableService) -> None:
    service.play_from(new_game(service._content, LOBBY))
    body = TestClient(create_app(service)).get("/api/floor").json()
    assert (body["name"], body["level"], body["rows"], body["columns"]) == ("Meridian Tower, Lobby", 1, 16, 20)
    assert len(body["spaces"]) == 320 and body["number"] == service.number
    at = {s["id"]: s for s in body["spaces"]}
    assert (at["F3"]["column"], at["F3"]["row"], at["F3"]["feature"]) == (5, 2, "entrance")
    assert body["entrances"] == ["F3", "H3", "I3", "J3", "K3"]
    doors = {d["id"]: d for d in body["doors"]}
    assert doors["B2/B3"] == {"id": "B2/B3", "space": "B2", "side": "S", "column": 1, "row": 1, "locked": True}
    walls = {w["id"]: w for w in body["walls"]}
    assert walls["J1/K1"]["side"] == "E" and not walls["J1/K1"]["destroyed"]
    assert walls["A1/N"]["outer"] and walls["T16/E"]["outer"]
    assert "A1/A2" not in walls and "A1/B1" not in walls  # open: the plaza runs on
    terminals = {t["space"]: t for t in body["terminals"]}
    assert terminals["T7"]["kind"] == "mainframe" and terminals["I5"] == {"space": "I5", "kind": "standard",
                                                                         "accessed": False}
    assert {c["space"] for c in body["caches"]} == {"E1", "S1", "A3", "N7", "Q12", "K14"}
    assert body["hiding_spots"] == ["D6", "A8", "G8", "R9", "G14", "Q16"]
    areas = {a["name"]: a for a in body["areas"]}
    assert areas["East safe zone"]["kind"] == "safe" and "Q3" in body["safe_zones"] and "A13" in body["safe_zones"]
    assert areas["Server room"]["surveilled"] and areas["Server room"]["surveillance"] == 2
    assert {p["space"]: p["post"] for p in body["posts"]}["K4"] == "post1"


def test_what_play_changed_on_the_floor_and_what_each_guard_sees(service: TableService) -> None:
    start = new_game(service._content, LOBBY)
    start.floor.unlocked_doors.append("B2/B3")
    start.floor.destroyed_walls += ["J1/K1", "A1/N"]
    del start.floor.terminals["I5"]
    start.floor.caches.remove("E1")
    start.floor.surveillance.remove("G5")
    start.security[1].stunned = True
    service.play_from(start)
    body = TestClient(create_app(service)).get("/api/floor").json()
    assert {d["id"]: d["locked"] for d in body["doors"]}["B2/B3"] is False
    walls = {w["id"]: w for w in body["walls"]}
    assert walls["J1/K1"]["destroyed"] and walls["A1/N"]["destroyed"] and not walls["A1/W"]["destroyed"]
    assert {t["space"]: t["accessed"] for t in body["terminals"]} == {
        "A12": False, "I5": True, "J14": False, "K8": False, "M12": False, "T16": False, "T7": False}
    assert {c["space"]: c["taken"] for c in body["caches"]}["E1"] is True
    assert not {a["name"]: a for a in body["areas"]}["Server room"]["surveilled"]
    # G1 stands on K4 facing west with awareness 4: four spaces straight ahead, two to each other side, in the
    # main hallway only (the wall above K4's row-mate K3 is a door line, so it sees K3 but nothing past it)
    guard = start.security[0]
    assert (guard.id, guard.space, guard.facing, guard.awareness) == ("G1", "K4", "W", 4)
    assert body["sight"]["G1"] == ["F4", "G4", "H4", "I4", "J4", "K3", "L4", "M4", "N4"]
    assert body["sight"][start.security[1].id] == []  # stunned: it sees nothing
