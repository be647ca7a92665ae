"""`burncycle-table selfplay`: a player chosen by name, games in parallel with the same figures, two players
compared on the same seeds, the interval, the causes of defeat, the decision times, JSON, and the narration's
reasons. (The summary's first lines and the narration itself: tests/test_play_cli.py, tests/test_phrasing_golden.py.)"""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller.autoplay.player import AutoPlayer
from controller.autoplay.players import PLAYERS, PlayerSettings
from controller.rules import Action, GameState, legal_actions
from tests.support.cli_run import refused, run

ROOT = Path(__file__).resolve().parents[1]


class FirstListed:
    """Plays the first legal action listed: a weak player whose games end in a few rounds, lost two ways."""

    def choose(self, state: GameState) -> Action:
        return legal_actions(state)[0].action


class Explaining(AutoPlayer):
    """The heuristic, saying why, as a search player does with `explain()`."""

    def __init__(self) -> None:
        super().__init__()
        self.last = ""

    def choose(self, state: GameState) -> Action:
        action = super().choose(state)
        self.last = str(action.__struct_config__.tag)
        return action

    def explain(self) -> str | None:
        return f"{self.last} looked best" if self.last != "corporation_turn" else None


@pytest.fixture
def test_players(monkeypatch):
    """Two players registered by name for this test (registered as the search player is, in the registry)."""
    monkeypatch.setitem(PLAYERS, "first-listed", lambda settings: FirstListed())
    monkeypatch.setitem(PLAYERS, "explaining", lambda settings: Explaining())


def figures_of(capsys, *argv) -> dict:
    """The --json figures without the measured times (which differ from run to run)."""
    code, out, err = run(capsys, "selfplay", "--json", *argv)
    assert code == 0, err
    data = json.loads(out)
    for player in data["figures"]:
        del player["median_decision"], player["p99_decision"]
    return data


def test_games_in_parallel_give_the_same_figures(capsys):
    one = figures_of(capsys, "--games", 3, "--seed", 21)
    two = figures_of(capsys, "--games", 3, "--seed", 21, "--jobs", 2)
    assert one == two
    assert [g["seed"] for g in one["figures"][0]["results"]] == [21, 22, 23]
    assert one["figures"][0]["decisions"] == sum(g["decisions"] for g in one["figures"][0]["results"]) > 0


def test_against_prints_both_players_and_the_games_won_by_one_only(capsys, test_players):
    code, out, _ = run(capsys, "selfplay", "--games", 4, "--seed", 1, "--against", "first-listed")
    assert code == 0
    lines = out.splitlines()
    assert "player: heuristic" in lines and "player: first-listed" in lines
    rates = [line for line in lines if line.startswith("win rate: ")]
    assert rates == ["win rate: 100.0% (4 of 4); 95% interval 51.0%-100.0%",
                     "win rate: 0.0% (0 of 4); 95% interval 0.0%-49.0%"]
    assert lines[-1].startswith("paired on the same 4 seeds: heuristic won 4 that first-listed lost, first-listed "
                                "won 0 that heuristic lost (both won 0, neither 0); difference +100.0 points, "
                                "McNemar's exact p = 0.125")
    assert sum(line.startswith("decision times: median ") for line in lines) == 2


def test_causes_of_defeat_are_grouped_with_their_rounds(capsys, test_players):
    code, out, _ = run(capsys, "selfplay", "--games", 4, "--seed", 1, "--player", "first-listed")
    assert code == 0
    lines = out.splitlines()
    at = lines.index("causes of defeat:")
    assert lines[at + 1:at + 3] == ["     2  the command module was shut down (round 9.0 on average)",
                                    "     2  threat reached 26 (round 10.5 on average)"]


def test_json_holds_both_players_and_the_paired_counts(capsys, test_players):
    data = figures_of(capsys, "--games", 4, "--seed", 1, "--against", "first-listed", "--iterations", 50)
    assert [p["player"] for p in data["figures"]] == ["heuristic", "first-listed"]
    assert data["figures"][0]["settings"]["iterations"] == 50
    assert data["figures"][1]["defeats"][0] == {"cause": "module_shut_down",
                                                "text": "the command module was shut down", "games": 2,
                                                "average_round": 9.0}
    assert data["paired"] == {"first": "heuristic", "second": "first-listed", "games": 4, "first_only": 4,
                              "second_only": 0, "both": 0, "neither": 0, "difference": 1.0, "p_value": 0.125}
    assert data["agents"] == ["nano", "casing"] and data["seeds"] == [1, 4]


def test_the_budget_is_given_to_the_player(capsys, monkeypatch):
    given: list[PlayerSettings] = []
    monkeypatch.setitem(PLAYERS, "noting", lambda settings: given.append(settings) or FirstListed())
    code, out, _ = run(capsys, "selfplay", "--games", 2, "--seed", 7, "--player", "noting", "--budget", "0.25",
                       "--iterations", 300)
    assert code == 0 and "player: noting (up to 300 iterations or 0.25 s a decision)" in out
    assert given == [PlayerSettings(seed=7, iterations=300, seconds=0.25),  # each game's player, seeded by the game
                     PlayerSettings(seed=8, iterations=300, seconds=0.25)]


def test_the_narration_gives_the_players_reasons_when_it_has_them(capsys, test_players):
    code, out, _ = run(capsys, "selfplay", "--games", 1, "--seed", 4, "--narrate", "--player", "explaining")
    assert code == 0
    lines = out.splitlines()
    reasons = [line for line in lines if line.startswith("Why: ")]
    assert "Why: begin_actions looked best" in reasons and "Why: corporation_turn looked best" not in reasons
    first = lines.index("Why: begin_actions looked best")
    assert lines[first + 1].startswith("Nano's dice pool: ")  # the reason, then what came of it
    plain = run(capsys, "selfplay", "--games", 1, "--seed", 4, "--narrate")[1]
    assert [line for line in out.splitlines() if not line.startswith(("Why: ", "decision times", "player: "))] == \
        [line for line in plain.splitlines() if not line.startswith(("decision times", "player: "))]


def test_an_unknown_player_is_refused_naming_the_players(capsys, test_players):
    message = refused(capsys, "selfplay", "--player", "serch")
    assert "--player: invalid choice: 'serch'" in message
    assert all(name in message for name in ("'heuristic'", "'first-listed'", "'explaining'"))
    assert "--against: invalid choice: 'nobody'" in refused(capsys, "selfplay", "--against", "nobody")


@pytest.mark.parametrize(("options", "named"), [
    (["--jobs", "2"], "--jobs"), (["--against", "heuristic"], "--against"), (["--json"], "--json"),
    (["--cluster", "local"], "--cluster"),
])
def test_a_narration_is_one_players_games_in_order(capsys, options, named):
    assert f"leave out {named}" in refused(capsys, "selfplay", "--narrate", "--games", 1, *options)


def test_a_budget_of_nothing_is_refused(capsys):
    assert "--budget must be more than 0" in refused(capsys, "selfplay", "--budget", "0")


def test_the_cluster_without_dask_says_what_to_install(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "dask", None)  # as on a machine without the cluster extra
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    message = refused(capsys, "selfplay", "--games", 1, "--cluster", "local")
    assert "Dask is not installed" in message and "burncycle-table[cluster]" in message


def test_a_progress_bar_shows_on_a_terminal_and_never_in_a_pipe(tmp_path):
    """stderr a terminal (a pseudo-terminal here): the bar counts the games; stdout keeps the figures alone."""
    leader, follower = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "selfplay", "--games", "3", "--seed", "1"],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=follower, text=True)
    os.close(follower)
    shown = b""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the process ended and closed the terminal
            break
        if not chunk:
            break
        shown += chunk
    out, _ = proc.communicate(timeout=60)
    os.close(leader)
    assert proc.returncode == 0
    assert b"games" in shown and b"3/3" in shown
    assert out.startswith("3 games of data-heist") and "\x1b" not in out
    piped = subprocess.run([sys.executable, "-m", "controller.cli", "selfplay", "--games", "1"], cwd=tmp_path,
                           env=env, capture_output=True, text=True, timeout=60)
    assert piped.returncode == 0 and piped.stderr == ""
