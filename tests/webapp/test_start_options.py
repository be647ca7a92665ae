"""What GET /api/options tells the new game's form about where the team starts: each floor's level and safe zones
(their spaces in reading order), and each mission's levels at which the team chooses its start, as the rules'
own `starts_in_safe_zones` says (the page re-implements none of it), with whether the players place the command
module too. A start the form builds from them is the game's; one that does not fit is the table's 409."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from controller.cli.compose import build
from controller.library import load_content
from controller.rules import LEVELS, compile_floor, players_place_module, starts_in_safe_zones
from controller.service.frame.config import ServiceConfig
from controller.service.table import TableService
from tests.webapp.test_floors_api import CLOSET

ROOMY = CLOSET.replace('  A2 hallway "Corridor"', '  A2 safe "Stairs"')  # its second row a safe zone


def test_each_floor_says_its_level_and_its_safe_zones_in_reading_order(anyone: TestClient) -> None:
    content = load_content()
    floors = {f["name"]: f for f in anyone.get("/api/options").json()["floors"]}
    assert set(floors) == set(content.floors)
    for name, text in content.floors.items():
        floor = compile_floor(text, f"{name}.floor")
        assert floors[name]["level"] == floor.level
        assert floors[name]["safe_zones"] == [{"name": a.name, "spaces": [floor.ids[s] for s in a.spaces]}
                                              for a in floor.areas if a.kind == "safe"]
    lobby = floors["meridian-lobby"]
    assert lobby["level"] == 1 and floors["meridian-labs"]["level"] == 2
    assert [z["name"] for z in lobby["safe_zones"]] == ["East safe zone", "West safe zone"]
    assert lobby["safe_zones"][0]["spaces"][:5] == ["Q3", "R3", "S3", "T3", "Q4"]  # row by row
    assert lobby["safe_zones"][1]["spaces"][-1] == "D16"


def test_each_mission_says_at_which_levels_the_team_chooses_its_start(anyone: TestClient) -> None:
    content = load_content()
    options = anyone.get("/api/options").json()
    missions = {m["id"]: m for m in options["missions"]}
    for mission in content.missions.values():
        assert missions[mission.id]["start_levels"] == [n for n in LEVELS if starts_in_safe_zones(mission, n)]
        assert missions[mission.id]["places_module"] == players_place_module(mission)
    # the rulebook's sentences, as the page will read them
    assert missions["data-heist"]["start_levels"] == [] and missions["tower-run"]["start_levels"] == []
    assert missions["tsm-103c"]["start_levels"] == [2, 3] and missions["tsm-103c"]["places_module"]
    assert missions["preconnaissance"]["start_levels"] == [2, 3]
    assert missions["rescue-rangers"]["start_levels"] == [1, 2, 3]
    assert not missions["rescue-rangers"]["places_module"]  # "Do not place the command module"
    assert missions["ghost-in-the-dell"]["start_levels"] == [1, 2, 3]
    assert not missions["ghost-in-the-dell"]["places_module"]  # it starts on the hiding spot furthest away
    assert options["module"] == {"id": "module", "name": content.module.name}


def test_a_saved_floors_safe_zones_are_offered_until_its_file_no_longer_compiles(player: TestClient,
                                                                                 service: TableService) -> None:
    assert player.post("/api/floors", json={"name": "roomy", "text": ROOMY}).status_code == 201
    floors = {f["name"]: f for f in player.get("/api/options").json()["floors"]}
    assert floors["roomy"] == {"name": "roomy", "title": "Closet", "shipped": False, "level": 1,
                               "safe_zones": [{"name": "Stairs", "spaces": ["A2", "B2", "C2"]}]}
    (service._session.path.parent / "floors" / "roomy.floor").write_text(ROOMY.replace("|E T H|", "|E x H|"))
    floors = {f["name"]: f for f in player.get("/api/options").json()["floors"]}
    assert floors["roomy"] == {"name": "roomy", "title": "roomy", "shipped": False, "safe_zones": []}


def test_a_start_built_from_the_options_is_where_the_game_puts_the_bots(player: TestClient,
                                                                        service: TableService) -> None:
    options = player.get("/api/options").json()
    lobby = next(f for f in options["floors"] if f["name"] == "meridian-lobby")
    east, west = (zone["spaces"] for zone in lobby["safe_zones"])
    game = {"floor": "meridian-lobby", "mission": "rescue-rangers", "agents": ["nano", "casing", "byte"]}
    reply = player.post("/api/games", json={**game, "start": {"nano": west[-1], "casing": east[5]}})
    assert reply.status_code == 200, reply.text
    where = {b.id: b.space for b in service.state.bots}
    assert where == {"nano": "D16", "casing": "R4", "byte": "Q3", "module": None}  # byte: the first free one
    # two bots on one space, and a space outside the safe zones: the table's refusals, which the form shows
    number = service.number
    twice = player.post("/api/games", json={**game, "start": {"nano": east[0], "casing": east[0]}})
    assert twice.status_code == 409 and twice.json()["error"] == "setup_mismatch"
    assert "nano and casing both start on Q3" in twice.json()["message"]
    outside = player.post("/api/games", json={**game, "start": {"nano": "A1"}})
    assert outside.status_code == 409 and "nano's start space A1 is not in a safe zone" in outside.json()["message"]
    assert service.number == number


def test_the_forms_default_start_is_table_tomls(tmp_path: Path) -> None:
    table = ServiceConfig(database={"path": tmp_path / "games.sqlite3"},  # type: ignore[arg-type]
                          camera={"source": "none"},  # type: ignore[arg-type]
                          game={"mission": "rescue-rangers", "start": {"nano": "D15"}})  # type: ignore[arg-type]
    made = build(table, seed=5)
    try:
        assert made.options().default.start == {"nano": "D15"}
    finally:
        made._session.close()
