"""The request schemas say what the table checks (issue 36, "the schema is the contract"): a new game's names are
the content's, listed in /openapi.json from GET /api/options; a request the schema calls valid is accepted, or
refused with a status its route declares for that reason (404 a floor that is not here, 409 choices that do not
fit together or a shipped floor's name), and 422 only for a bad body or, for a body the schema calls valid, an
error code the route declares as checked beyond the schema (a floor's text that does not compile)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from controller.service.table import TableService
from web.contract import BEYOND

GAME = {"floor": "meridian-lobby", "mission": "data-heist", "agents": ["nano", "casing"]}


def new_game_schema(client: TestClient) -> dict[str, Any]:
    properties: dict[str, Any] = client.get("/openapi.json").json()["components"]["schemas"]["NewGameBody"]
    return properties["properties"]


def test_a_new_games_names_are_the_contents_as_the_options_list_them(anyone: TestClient) -> None:
    options, fields = anyone.get("/api/options").json(), new_game_schema(anyone)
    assert fields["mission"]["enum"] == [m["id"] for m in options["missions"]]
    assert fields["agents"]["items"]["enum"] == [a["id"] for a in options["agents"]]
    assert fields["agents"]["uniqueItems"] is True
    assert [b["enum"] for b in fields["captain"]["anyOf"] if "enum" in b] == [[c["id"] for c in options["captains"]]]
    shipped, saved = fields["floor"]["anyOf"]
    assert shipped["enum"] == [f["name"] for f in options["floors"] if f["shipped"]]
    # every shipped name is also one a saved floor could have: the pattern the route checks
    assert all(re.search(saved["pattern"], name) for name in shipped["enum"])
    assert fields["level"]["anyOf"][0] == {"type": "integer", "minimum": 1, "maximum": 3}


REFUSED = {
    "a level for a mission that is not Adaptable": ({**GAME, "level": 2}, 409, "setup_mismatch", "not an Adaptable"),
    "a floor neither shipped nor saved": ({**GAME, "floor": "nowhere"}, 404, "not_found", "meridian-lobby"),
    "a floor not here and a level that does not fit": (
        {**GAME, "floor": "nowhere", "level": 2}, 404, "not_found", "not an Adaptable"),
    "a custom floor that does not compile": (
        {**GAME, "floor": "mine", "floor_text": "name: x\n"}, 422, "floor_error", "mine:"),
    "a mission the content lacks (schema-invalid)": ({**GAME, "mission": "data-hiest"}, 422, "bad_request", "mission"),
    "an agent named twice (schema-invalid)": ({**GAME, "agents": ["nano", "nano"]}, 422, "bad_request", "twice"),
    "a floor's name no floor can have (schema-invalid)": ({**GAME, "floor": "../x"}, 422, "bad_request", "floor"),
    "start spaces where the bots start at the entrance": (
        {**GAME, "start": {"nano": "Q3"}}, 409, "setup_mismatch", "where the bots start at the entrance"),
    "a start space outside the safe zones": (
        {**GAME, "mission": "rescue-rangers", "level": 1, "start": {"nano": "P4"}}, 409, "setup_mismatch",
        "nano's start space P4 is not in a safe zone"),
}


def test_a_new_game_starts_the_bots_where_the_team_chose(player: TestClient, service: TableService) -> None:
    """Rescue Rangers: "Agents start on any safe zone space." The body's `start` names each agent's space."""
    body = {**GAME, "mission": "rescue-rangers", "level": 1, "start": {"nano": "D15", "casing": "T6"}}
    assert player.post("/api/games", json=body).status_code == 200
    assert {b.id: b.space for b in service.state.bots if b.kind == "agent"} == {"nano": "D15", "casing": "T6"}


@pytest.mark.parametrize("body,status,code,said", REFUSED.values(), ids=REFUSED.keys())
def test_a_new_game_is_refused_with_the_status_its_schema_declares(player: TestClient, service: TableService,
                                                                   body: dict[str, Any], status: int, code: str,
                                                                   said: str) -> None:
    game = service.game_id
    reply = player.post("/api/games", json=body)
    assert (reply.status_code, reply.json()["error"]) == (status, code), reply.text
    assert said in reply.json()["message"]
    assert service.game_id == game  # nothing changed
    operation = player.get("/openapi.json").json()["paths"]["/api/games"]["post"]
    assert str(status) in operation["responses"]
    assert operation[BEYOND] == {"floor_error": operation[BEYOND]["floor_error"]}
    assert "floor_error" in operation["responses"]["422"]["description"]


def test_a_saved_floors_name_is_as_its_schema_says(player: TestClient) -> None:
    """The name's pattern is the one the floors' folder checks; a shipped floor's name fits it but is taken (409);
    a text that does not compile is the route's one refusal beyond its schema."""
    schema = player.get("/openapi.json").json()
    name = schema["components"]["schemas"]["SavedFloor"]["properties"]["name"]
    assert (name["pattern"], name["maxLength"]) == ("^[a-z0-9][a-z0-9-]{0,39}$", 40)
    operation = schema["paths"]["/api/floors"]["post"]
    assert "name_taken" in operation["responses"]["409"]["description"]
    assert set(operation[BEYOND]) == {"floor_error"}
    assert player.post("/api/floors", json={"name": "x" * 41, "text": ""}).json()["error"] == "bad_request"


def test_an_imports_schema_is_the_records_and_a_record_it_calls_valid_is_read(player: TestClient,
                                                                              service: TableService) -> None:
    """The import's body is declared as the export's record; a JSON schema's integer may be written 5.0, so the
    table reads a record whose whole numbers are so written (msgspec's strict decoding refused it)."""
    operation = player.get("/openapi.json").json()["paths"]["/api/games/import"]["post"]
    assert operation["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/GameRecord"}
    assert set(operation[BEYOND]) == {"record_error"}
    exported = player.get(f"/api/games/{service.game_id}/export").json()
    exported["version"] = float(exported["version"])
    exported["start"]["seed"] = float(exported["start"]["seed"])
    reply = player.post("/api/games/import", content=json.dumps(exported))
    assert reply.status_code == 200, reply.text
