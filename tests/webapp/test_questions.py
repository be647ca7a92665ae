"""Answering the table view's questions from the dashboard: POST /api/questions/{id}/answer.

The reconciler is the service's own (compose.build with the demo's camera as its source); what the camera saw
is given to it the way the temporal filter reports it (tests/service/test_reconciler.py), so the question is
the real one: the command module lifted from F3 and put down on E4, two cheapest ways that differ (one passes
through a guard's sight)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from controller.cli.compose import build
from controller.rules import Step, compile_floor
from controller.service.demo.booth import DemoCamera, DemoTable
from controller.service.table import TableService
from tests.support.observations import seen
from tests.support.service_helpers import config
from tests.support.session_support import played_until
from tests.support.web_helpers import ORIGIN, PIN
from web import create_app


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TableService]:
    service = build(config(tmp_path), seed=5, source=lambda: DemoCamera(DemoTable()))
    _, state = played_until(lambda s: s.turn.pending is not None)
    service.session.start_game(state)
    yield service
    service.session.close()


@pytest.fixture
def client(table: TableService) -> TestClient:
    made = TestClient(create_app(table, pin=PIN), headers={"Origin": ORIGIN})
    assert made.post("/api/session", json={"pin": PIN}).status_code == 200
    return made


def _asked(table: TableService) -> dict:
    assert table.reconciler is not None
    state = table.session.state
    table.reconciler.observe(seen(state, 1.0))
    table.reconciler.observe(seen(state, 2.0, unseen=("module",)))
    table.reconciler.observe(seen(state, 3.0, moved={"module": ("E4", None)}))
    return next(q for q in table.table_view()["questions"] if q["kind"] == "route")


def test_a_route_question_answered_from_the_page_becomes_the_steps_of_that_way(table, client) -> None:
    question = _asked(table)
    assert client.get("/api/table").json()["questions"][0]["id"] == question["id"]  # what the page shows
    quiet = next(k for k, o in enumerate(question["options"]) if o.startswith("F3 > E3"))
    before = table.session.number
    reply = client.post(f"/api/questions/{question['id']}/answer", json={"option": quiet})
    assert reply.status_code == 200 and reply.json()["table"]["questions"] == []
    steps = [(e.action.bot, e.action.to) for e in table.session.record.entries[-2:] if isinstance(e.action, Step)]
    assert steps == [("module", "E3"), ("module", "E4")] and table.session.number == before + 2


def test_an_answer_that_fits_no_question_or_no_option_changes_nothing(table, client) -> None:
    question = _asked(table)
    digest = table.session.status()["digest"]
    wrong = client.post(f"/api/questions/{question['id']}/answer", json={"option": 7})
    assert wrong.status_code == 409 and "7 is not one of its options (0: F3 > " in wrong.json()["message"]
    gone = client.post("/api/questions/route-nobody/answer", json={"option": 0})
    assert gone.status_code == 409 and "is not open" in gone.json()["message"]
    malformed = client.post(f"/api/questions/{question['id']}/answer", json={"option": [1]})
    assert malformed.status_code == 422 and malformed.json()["error"] == "bad_request"
    assert table.session.status()["digest"] == digest
    assert client.get("/api/table").json()["questions"][0]["id"] == question["id"]  # still asked


def test_answering_needs_the_pin(table) -> None:
    question = _asked(table)
    stranger = TestClient(create_app(table, pin=PIN))
    reply = stranger.post(f"/api/questions/{question['id']}/answer", json={"option": 0})
    assert reply.status_code == 401 and reply.json()["error"] == "pin_required"


def test_a_table_without_a_camera_says_it_asks_nothing(player) -> None:
    reply = player.post("/api/questions/route-module/answer", json={"option": 0})
    assert reply.status_code == 409 and "this table has no camera" in reply.json()["message"]


def test_a_door_sensors_question_needs_no_answer(table, client) -> None:
    state = table.session.state
    locked = next(d for d in sorted(compile_floor(state.floor.text, state.floor.name).doors)
                  if d not in state.floor.unlocked_doors)
    table.doors.report(state, locked, True)  # the peg says open; the game holds it locked
    question = next(q for q in table.table_view()["questions"] if q["kind"] == "door")
    reply = client.post(f"/api/questions/{question['id']}/answer", json={"option": 0})
    assert reply.status_code == 409 and "needs no answer" in reply.json()["message"]
