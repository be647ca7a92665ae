"""The floor editor's routes on a real TableService: a drawn floor checked with the `validate` command's own
words, saved into the table's floors folder beside the game log and listed with the shipped ones; a broken floor
or a name that would leave the folder is refused and nothing is written; saving needs the table's PIN."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from controller.cli import main
from controller.rules import compile_floor
from controller.service.table import TableService

CLOSET = """name: Closet
level: 1

grid:
+-+-+-+
|E T H|
+-+D+-+
|. . .|
+-+-+-+

areas:
  A1 room "Closet" surveillance=1
  A2 hallway "Corridor"
"""
BROKEN = CLOSET.replace("|E T H|", "|E x H|")


def validate_says(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> str:
    """What `burncycle-table validate closet.floor` prints (the line after the program's name on an error)."""
    path = tmp_path / "closet.floor"
    path.write_text(text)
    main(["validate", str(path)])
    out, err = capsys.readouterr()
    return (out or err).strip().replace(str(tmp_path) + "/", "").removeprefix("burncycle-table: ")


def test_a_good_floor_is_saved_beside_the_game_log_and_listed(player: TestClient, service: TableService) -> None:
    reply = player.post("/api/floors", json={"name": "closet", "text": CLOSET})
    assert reply.status_code == 201, reply.text
    assert reply.json()["ok"] and reply.json()["spaces"] == 6
    saved = service._session.path.parent / "floors" / "closet.floor"
    assert saved.read_text() == CLOSET
    listed = {f["name"]: f for f in player.get("/api/floors").json()["floors"]}
    assert listed["closet"] == {"name": "closet", "source": "saved", "title": "Closet", "level": 1, "cols": 3,
                                "rows": 2}
    assert listed["meridian-lobby"]["source"] == "shipped"
    back = player.get("/api/floors/closet").json()
    assert back == {"name": "closet", "source": "saved", "text": CLOSET}
    assert compile_floor(back["text"]).name == "Closet"


def test_the_check_says_what_validate_says(anyone: TestClient, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    for text, ok in ((CLOSET, True), (BROKEN, False)):
        body = anyone.post("/api/floors/check", json={"name": "closet", "text": text}).json()
        assert body["ok"] is ok
        assert body["message"] == validate_says(tmp_path, text, capsys)
    assert "closet.floor:6:4: unknown space character 'x' at B1" in body["message"]


def test_the_editor_reads_a_floor_through_the_rules_parser(anyone: TestClient) -> None:
    """POST /api/floors/parse: the floor editor has no parser of its own; the rules' answers with the grid in the
    format's characters, the edges and the areas, or the line and column of the first mistake."""
    body = anyone.post("/api/floors/parse", json={"name": "closet", "text": CLOSET}).json()
    assert body == {"ok": True, "floor": {
        "name": "Closet", "level": 1, "rows": 2, "cols": 3,
        "spaces": [["E", "T", "H"], [".", ".", "."]],
        "east": [["open", "open"], ["open", "open"]], "south": [["wall", "door", "wall"]],
        "areas": [{"space": "A1", "kind": "room", "name": "Closet", "surveillance": 1, "reserve": None},
                  {"space": "A2", "kind": "hallway", "name": "Corridor", "surveillance": 0, "reserve": None}]}}
    broken = anyone.post("/api/floors/parse", json={"name": "closet", "text": BROKEN}).json()
    assert broken == {"ok": False, "line": 6, "column": 4,
                      "message": anyone.post("/api/floors/check", json={"name": "closet", "text": BROKEN}).json()[
                          "message"]}


def test_a_broken_floor_gets_validates_message_and_nothing_is_saved(player: TestClient, service: TableService,
                                                                    tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    reply = player.post("/api/floors", json={"name": "closet", "text": BROKEN})
    assert reply.status_code == 422  # the one refusal of a body its schema calls valid (checked beyond it)
    assert reply.json() == {"error": "floor_error", "message": validate_says(tmp_path, BROKEN, capsys)}
    assert not (service._session.path.parent / "floors").exists()
    assert "closet" not in {f["name"] for f in player.get("/api/floors").json()["floors"]}


@pytest.mark.parametrize("name", ["../escaped", "..", "a/b", "/tmp/x", "Closet", "closet.floor", "", "-x",
                                  "x" * 41, "clo set", "%2e%2e",
                                  "closet\n", "closet\n\n"])
def test_a_name_that_could_leave_the_folder_is_refused(player: TestClient, service: TableService,
                                                       name: str) -> None:
    reply = player.post("/api/floors", json={"name": name, "text": CLOSET})
    assert reply.status_code == 422, name
    assert reply.json()["error"] == "bad_request"
    folder = service._session.path.parent
    assert not list(folder.rglob("*.floor")) and not (folder.parent / "escaped.floor").exists()


def test_a_shipped_floor_is_not_overwritten(player: TestClient) -> None:
    shipped = player.get("/api/floors/meridian-lobby").json()
    reply = player.post("/api/floors", json={"name": "meridian-lobby", "text": CLOSET})
    assert reply.status_code == 409 and reply.json()["error"] == "name_taken"  # a name the schema allows, taken
    assert "shipped floor" in reply.json()["message"]
    assert player.get("/api/floors/meridian-lobby").json() == shipped


def test_saving_needs_the_pin_and_an_unknown_floor_is_404(anyone: TestClient, player: TestClient,
                                                          service: TableService) -> None:
    reply = anyone.post("/api/floors", json={"name": "closet", "text": CLOSET})
    assert reply.status_code == 401 and reply.json()["error"] == "pin_required"
    elsewhere = player.post("/api/floors", json={"name": "closet", "text": CLOSET},
                            headers={"Origin": "http://evil.example"})
    assert elsewhere.status_code == 403 and elsewhere.json()["error"] == "bad_origin"
    assert not (service._session.path.parent / "floors").exists()
    missing = anyone.get("/api/floors/nowhere")
    assert missing.status_code == 404 and missing.json()["error"] == "not_found"
    assert "meridian-lobby" in missing.json()["message"]


def test_the_editor_page_and_its_files_are_served(anyone: TestClient) -> None:
    page = anyone.get("/floors/edit")
    assert page.status_code == 200 and "/static/floor-editor.js" in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]
    script = anyone.get("/static/floor-editor.js")
    assert script.status_code == 200 and script.headers["content-type"].startswith("text/javascript")
    assert anyone.get("/static/..%2fapp.py").status_code == 404
    assert anyone.get("/static/floor-editor.html").status_code == 404  # a page only at its route, with its CSP


def test_a_saved_floor_is_offered_for_a_new_game_and_played_on(player: TestClient, service: TableService) -> None:
    annex = (Path(__file__).resolve().parents[2] / "docs" / "example.floor").read_text()
    assert player.post("/api/floors", json={"name": "my-annex", "text": annex}).status_code == 201
    offered = {f["name"]: f["shipped"] for f in player.get("/api/options").json()["floors"]}
    assert offered["my-annex"] is False and offered["meridian-lobby"] is True
    reply = player.post("/api/games", json={"floor": "my-annex", "mission": "data-heist", "agents": ["nano", "casing"]})
    assert reply.status_code == 200, reply.text
    assert service.state.floor.name == "Example annex"


def test_a_floor_is_laid_out_for_the_new_games_form_as_a_game_would_find_it(player: TestClient,
                                                                             service: TableService) -> None:
    """GET /api/floors/{name}/board: the floor as GET /api/floor lays out a game's, before any game is on it
    (the form draws it to show where the team would start): the same spaces, areas and edges as a new game's on
    that floor, every door locked, no terminal accessed and no guard's sight; a saved floor too."""
    lobby = player.get("/api/floors/meridian-lobby/board")
    assert lobby.status_code == 200, lobby.text
    drawn = lobby.json()
    assert player.post("/api/games", json={"floor": "meridian-lobby", "mission": "data-heist",
                                           "agents": ["nano", "casing"]}).status_code == 200
    played = player.get("/api/floor").json()
    for part in ("rows", "columns", "spaces", "areas", "walls", "doors", "terminals", "safe_zones", "entrances"):
        assert drawn[part] == played[part], part
    assert drawn["sight"] == {} and played["sight"]  # a game's guards see; the form's floor has none yet
    assert all(d["locked"] for d in drawn["doors"]) and not any(t["accessed"] for t in drawn["terminals"])
    assert player.post("/api/floors", json={"name": "closet", "text": CLOSET}).status_code == 201
    closet = player.get("/api/floors/closet/board").json()
    assert [s["id"] for s in closet["spaces"]] == ["A1", "B1", "C1", "A2", "B2", "C2"]
    assert [(d["id"], d["locked"]) for d in closet["doors"]] == [("B1/B2", True)]
    missing = player.get("/api/floors/nowhere/board")
    assert missing.status_code == 404 and missing.json()["error"] == "not_found"
    # a saved floor broken on disk after it was saved: what and where, not a traceback
    (service._session.path.parent / "floors" / "closet.floor").write_text(BROKEN)
    broken = player.get("/api/floors/closet/board")
    assert broken.status_code == 422 and broken.json()["error"] == "floor_error"
    assert "unknown space character 'x' at B1" in broken.json()["message"]
