"""`burncycle-table run --config table.toml` as a real process: the config written by `init` and edited
as a builder would (the web on a free loopback port, the game log in a temp folder). It becomes ready
(/health answers JSON), stops cleanly on SIGTERM (exit 0), and a restart recovers the same game. A bad
config is one line naming the key, exit 2, no traceback."""

from __future__ import annotations

from pathlib import Path

from controller.autoplay.player import AutoPlayer
from controller.library import load_content
from controller.rules import GameSetup, new_game
from controller.service.game.session import GameSession
from tests.support.net import free_port
from tests.support.run_process import cli, get, stop, wait_ready, write_config


def played_log(path: Path) -> str:
    """A game log holding a game the players have been playing for a while; returns its digest."""
    path.parent.mkdir()
    session = GameSession.open(str(path))
    session.start_game(new_game(load_content(), GameSetup(floor="meridian-lobby", mission="data-heist",
                                                          players=2, agents=["nano", "casing"], seed=4)))
    player = AutoPlayer()
    for _ in range(12):
        session.apply(player.choose(session.state))
    digest = session.status()["digest"]
    session.close()
    return digest


def test_run_serves_stops_on_sigterm_and_recovers_the_game(tmp_path: Path) -> None:
    port = free_port()
    config = write_config(tmp_path, port)
    digest = played_log(tmp_path / "log" / "games.sqlite3")
    proc = cli("run", "--config", str(config), cwd=tmp_path)
    try:
        health = wait_ready(proc, port)
        assert set(health["components"]) >= {"game", "web"} and health["game"] == 1
        status = get(port, "/api/status")[1]
        assert status["digest"] == digest and status["entries"] == 12
    finally:
        code, err = stop(proc)
    assert code == 0, err
    assert "Traceback" not in err

    again = cli("run", "--config", str(config), cwd=tmp_path)
    try:
        wait_ready(again, port)
        assert get(port, "/api/status")[1] == status
        assert get(port, "/api/state")[0] == 200
    finally:
        code, err = stop(again)
    assert code == 0, err


def test_a_bad_config_is_one_line_naming_the_key(tmp_path: Path) -> None:
    config = write_config(tmp_path, free_port())
    config.write_text(config.read_text().replace("\nport = 1883", '\nport = "mqtt"'))
    proc = cli("run", "--config", str(config), cwd=tmp_path)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2
    assert "Traceback" not in err and out == ""
    assert err.strip().count("\n") == 0
    assert 'mqtt.port = "mqtt": expected a port number from 1 to 65535' in err
