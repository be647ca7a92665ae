"""`games list|export|import`: a game moves from one table's log to another's, checked by replaying it."""

from __future__ import annotations

from controller.rules import state_digest
from controller.service.game.session import GameSession
from tests.support.cli_run import run
from tests.support.session_support import next_action, start_state


def _played(path, actions: int) -> str:
    session = GameSession.open(str(path))
    session.start_game(start_state(seed=5))
    for _ in range(actions):
        session.apply(next_action(session.state))
    digest = state_digest(session.state)
    session.close()
    return digest


def test_a_game_exported_from_one_table_is_imported_on_another_and_plays_on(capsys, tmp_path):
    digest = _played(tmp_path / "a.sqlite3", 25)
    code, out, err = run(capsys, "games", "--db", tmp_path / "a.sqlite3", "list")
    assert code == 0 and "* " in out and "Operation Data Heist" in out
    assert run(capsys, "games", "--db", tmp_path / "a.sqlite3", "export", "--out", tmp_path / "game.json")[0] == 0
    code, _, err = run(capsys, "games", "--db", tmp_path / "b.sqlite3", "import", tmp_path / "game.json")
    assert code == 0 and "current game" in err
    other = GameSession.open(str(tmp_path / "b.sqlite3"))
    assert state_digest(other.state) == digest and len(other.record.entries) == 25
    other.apply(next_action(other.state))  # and the game goes on at the other table


def test_a_damaged_export_is_refused_in_one_line_and_changes_nothing(capsys, tmp_path):
    _played(tmp_path / "a.sqlite3", 5)
    bad = tmp_path / "bad.json"
    bad.write_text('{"start": 1}')
    code, out, err = run(capsys, "games", "--db", tmp_path / "b.sqlite3", "import", bad)
    assert code == 2 and err.count("\n") == 1 and "game record" in err
    assert GameSession.open(str(tmp_path / "b.sqlite3")).games() == []


def test_exporting_a_game_that_is_not_there_names_it(capsys, tmp_path):
    _played(tmp_path / "a.sqlite3", 1)
    code, _, err = run(capsys, "games", "--db", tmp_path / "a.sqlite3", "export", "--game", "9", "--out",
                       tmp_path / "x.json")
    assert code == 2 and "no game 9" in err and not (tmp_path / "x.json").exists()
