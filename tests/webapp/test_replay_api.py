"""The post-game summary and the replay on a real TableService: the state the replay gives after k actions is
the state the table was in after k actions, for the game on the table and for a past one; the summary's threat
and rounds are the game's; a step past the end or an unknown game is a 404 with the error body."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from controller.autoplay.player import AutoPlayer
from controller.service.table import TableService


def play(service: TableService, actions: int) -> list[Any]:
    """The auto-player's actions through the session; the state as JSON before the first and after each."""
    player = AutoPlayer()
    seen = [service.state_json()]
    for _ in range(actions):
        service.session.apply(player.choose(service.session.state))
        seen.append(service.state_json())
    return seen


def test_a_replayed_state_is_the_state_at_that_point(anyone: TestClient, service: TableService) -> None:
    seen = play(service, 30)
    game = service.session.game_id
    for k in (0, 1, 7, 18, 30):
        body = anyone.get(f"/api/games/{game}/replay/{k}").json()
        assert body["state"] == seen[k], k
        assert body["k"] == k and body["entries"] == 30
        assert (body["round"], body["threat"]) == (seen[k]["round"], seen[k]["threat"])
    first = anyone.get(f"/api/games/{game}/replay/1").json()["entry"]
    recorded = service.session.record.entries[0]
    assert first["number"] == 1 and first["kind"] == recorded.action.__struct_config__.tag
    assert len(first["events"]) == len(recorded.events) and all(isinstance(e, str) for e in first["events"])
    assert anyone.get(f"/api/games/{game}/replay/0").json()["entry"] is None


def test_the_summary_tells_threat_by_round_outcome_and_actions(anyone: TestClient, service: TableService) -> None:
    seen = play(service, 60)
    body = anyone.get(f"/api/games/{service.session.game_id}/summary").json()
    assert body["actions"] == 60 and sum(body["actions_by_kind"].values()) == 60
    assert body["threat_by_action"] == [s["threat"] for s in seen]
    assert body["rounds"] == seen[-1]["round"] > 1
    last_of_round = {s["round"]: s["threat"] for s in seen[1:]}
    assert body["threat_by_round"] == [{"round": r, "threat": t} for r, t in sorted(last_of_round.items())]
    assert body["outcome"] is None and body["start_threat"] == seen[0]["threat"]


def test_a_past_game_replays_too(anyone: TestClient, service: TableService) -> None:
    seen = play(service, 12)
    past = service.session.game_id
    service.new_game()
    play(service, 3)
    assert service.session.game_id != past
    assert anyone.get(f"/api/games/{past}/replay/12").json()["state"] == seen[12]
    assert anyone.get(f"/api/games/{past}/summary").json()["actions"] == 12


def test_a_step_out_of_range_or_an_unknown_game_is_404(anyone: TestClient, service: TableService) -> None:
    play(service, 4)
    game = service.session.game_id
    before = service.session.status()
    reply = anyone.get(f"/api/games/{game}/replay/5")
    assert reply.status_code == 404
    assert reply.json() == {"error": "not_found", "message": f"game {game} has 4 actions: a replay step is 0 "
                                                             "(the start) to 4, not 5"}
    assert anyone.get(f"/api/games/{game}/replay/-1").status_code == 404
    unknown = anyone.get("/api/games/99/summary")
    assert unknown.status_code == 404 and unknown.json()["error"] == "not_found"
    assert "there is no game 99" in unknown.json()["message"]
    assert anyone.get("/api/games/99/replay/0").status_code == 404
    assert anyone.get(f"/api/games/{game}/replay/x").json()["error"] == "bad_request"
    assert service.session.status() == before  # looking changes nothing


def test_the_replay_follows_a_game_that_goes_on_and_is_undone(anyone: TestClient, service: TableService) -> None:
    """The states kept from the last look are reused only as far as the record still agrees with them."""
    game = service.session.game_id
    seen = play(service, 10)
    assert anyone.get(f"/api/games/{game}/summary").json()["actions"] == 10
    player = AutoPlayer()
    for _ in range(3):
        service.session.apply(player.choose(service.session.state))
    assert anyone.get(f"/api/games/{game}/replay/13").json()["state"] == service.state_json()
    for _ in range(4):
        service.session.undo()
    assert anyone.get(f"/api/games/{game}/replay/9").json()["state"] == seen[9] == service.state_json()
    assert anyone.get(f"/api/games/{game}/replay/10").status_code == 404
    service.session.apply(AutoPlayer().choose(service.session.state))
    assert anyone.get(f"/api/games/{game}/replay/10").json()["state"] == service.state_json()


def test_a_replay_step_lays_out_its_floor_as_the_live_board_does(anyone: TestClient, service: TableService) -> None:
    """The replay draws with the live board's drawing, so a step carries the floor as GET /api/floor gives it
    (its version aside)."""
    play(service, 9)
    game = service.session.game_id
    live = anyone.get("/api/floor").json()
    drawn = {k: v for k, v in live.items() if k not in ("number", "version")}
    assert anyone.get(f"/api/games/{game}/replay/9").json()["floor"] == drawn
    start = anyone.get(f"/api/games/{game}/replay/0").json()
    assert start["floor"]["name"] == start["state"]["floor"]["name"]
    assert set(start["floor"]["sight"]) == {u["id"] for u in start["state"]["security"]}
