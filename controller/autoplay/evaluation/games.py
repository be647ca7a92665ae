"""One evaluated game: a pure function of its setup (the seed included) and its player's name and settings, so
it can be played in this process, in another or on another machine, in any order, and give the same result."""

from __future__ import annotations

import time
from collections.abc import Iterable

import msgspec

from controller.autoplay.player import play_game
from controller.autoplay.players import Player, PlayerSettings, make_player
from controller.autoplay.start import chosen_setup
from controller.library import load_content
from controller.rules import Action, GameSetup, GameState, new_game


class GameJob(msgspec.Struct, frozen=True, kw_only=True):
    """A game to play: the setup (its seed is the game's) and the player, by name, with its settings."""

    setup: GameSetup
    player: str
    settings: PlayerSettings = PlayerSettings()


class GameResult(msgspec.Struct, frozen=True, kw_only=True):
    """How one game ended, and how long each of the player's decisions took (seconds, in the order taken)."""

    seed: int
    result: str
    """"victory", "defeat", or "unfinished" when no outcome came within the actions allowed."""
    cause: str
    """The outcome's cause for programs (`mission_won`, `threat_maxed`...), or "unfinished"."""
    text: str
    """The outcome's text for people ("Clean Exit", "threat reached 26"), or "unfinished"."""
    rounds: int
    threat: int
    decisions: list[float]

    @property
    def won(self) -> bool:
        return self.result == "victory"


def game_jobs(setup: GameSetup, seeds: Iterable[int], player: str,
              settings: PlayerSettings | None = None) -> list[GameJob]:
    """One job per seed: `setup` with each seed in turn, played by `player`."""
    return [GameJob(setup=msgspec.structs.replace(setup, seed=seed), player=player,
                    settings=settings or PlayerSettings()) for seed in seeds]


def player_for(job: GameJob) -> Player:
    """The job's player, seeded with the game's seed: a search's random choices differ from game to game and are
    the same every time that game is played."""
    return make_player(job.player, msgspec.structs.replace(job.settings, seed=job.setup.seed))


def start_of(job: GameJob) -> GameState:
    """The job's starting table, the team's start spaces chosen by the auto-player where the rules let it."""
    content = load_content()
    return new_game(content, chosen_setup(content, job.setup))


class TimedPlayer:
    """A player whose every decision is timed (the time `choose` takes, nothing of the engine's around it)."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.decisions: list[float] = []

    def choose(self, state: GameState) -> Action:
        started = time.perf_counter()
        action = self.player.choose(state)
        self.decisions.append(time.perf_counter() - started)
        return action


def reason_of(player: object) -> str | None:
    """Why the player made its last choice, for a player that can say (a search's `explain()`), else None."""
    explain = getattr(player, "explain", None)
    reason = explain() if callable(explain) else None
    return reason if isinstance(reason, str) and reason else None


def result_of(seed: int, final: GameState, decisions: list[float]) -> GameResult:
    outcome = final.outcome
    if outcome is None:
        return GameResult(seed=seed, result="unfinished", cause="unfinished", text="unfinished", rounds=final.round,
                          threat=final.threat, decisions=decisions)
    return GameResult(seed=seed, result=outcome.result, cause=outcome.cause, text=outcome.text, rounds=final.round,
                      threat=final.threat, decisions=decisions)


def play_one(job: GameJob) -> GameResult:
    """Play the job's game to its end (a process pool's or a cluster's task: it takes and returns plain data)."""
    player = TimedPlayer(player_for(job))
    final = play_game(start_of(job), player)
    return result_of(job.setup.seed, final, player.decisions)
