"""`demo --player NAME`: the booth's games are played by the player of that name from the players' registry
(controller/autoplay/players.py), the heuristic unless told; a name no player has is one line naming them."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from controller.autoplay.players import PLAYERS
from controller.rules import Action, GameState, legal_actions
from controller.service.demo.booth import DemoPlayers, DemoTable
from tests.support.cli_run import refused
from tests.support.service_helpers import built_service


class FirstListed:
    """Plays the first legal action listed (a game lost in a few rounds), counting its decisions."""

    decisions = 0

    def choose(self, state: GameState) -> Action:
        FirstListed.decisions += 1
        return legal_actions(state)[0].action


@pytest.fixture
def first_listed(monkeypatch):
    monkeypatch.setitem(PLAYERS, "first-listed", lambda settings: FirstListed())
    monkeypatch.setattr(FirstListed, "decisions", 0)


def test_the_booth_plays_its_game_with_the_player_named(tmp_path: Path, first_listed) -> None:
    with built_service(tmp_path, game=True) as service:  # no camera: every step goes to the session at once
        players = DemoPlayers(service, DemoTable(), once=True, step_timeout_s=0, player="first-listed")
        assert isinstance(players.player, FirstListed)
        asyncio.run(asyncio.wait_for(players.run(), timeout=60))
        assert players.results and players.results[0].startswith("defeat: ")  # as the first listed actions play it
        assert FirstListed.decisions > 0 and service.state.outcome is not None


def test_the_booth_plays_the_heuristic_unless_told(tmp_path: Path) -> None:
    from controller.autoplay.player import AutoPlayer

    with built_service(tmp_path, game=False) as service:
        assert isinstance(DemoPlayers(service, DemoTable()).player, AutoPlayer)


def test_the_demo_command_plays_the_search_unless_told() -> None:
    """Issue 35: the search is "the booth's default once it is stronger" (it won 38 labs games of 200 where the
    heuristic won 28, McNemar p 0.013, docs/autoplay.md); a booth built in-process keeps the heuristic above."""
    from controller.cli import build_parser

    assert build_parser().parse_args(["demo"]).player == "search"
    assert build_parser().parse_args(["demo", "--player", "heuristic"]).player == "heuristic"


def test_the_demo_refuses_a_player_nobody_is(capsys, first_listed) -> None:
    message = refused(capsys, "demo", "--player", "serch")
    assert "--player: invalid choice: 'serch'" in message and "'heuristic'" in message and "'first-listed'" in message


def test_a_game_with_no_end_in_sight_is_left_unfinished_and_the_next_one_starts(tmp_path: Path) -> None:
    """The rules set no limit on rounds, and a team can hold the threat down on the network's hubs while its bots
    stay stuck (the heuristic on the labs, seed 7028, past round 1,000): the booth leaves a game unfinished after
    `max_rounds` and deals the next, instead of showing one game all day."""
    with built_service(tmp_path, game=True) as service:
        players = DemoPlayers(service, DemoTable(), games=2, step_timeout_s=0, max_rounds=2)
        first = service.state.seed
        asyncio.run(asyncio.wait_for(players.run(), timeout=60))
        assert players.results == ["unfinished: no end by round 2"] * 2
        assert service.state.round == 3 and service.state.outcome is None and service.state.seed != first
