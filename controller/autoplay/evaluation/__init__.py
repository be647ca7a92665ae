"""Evaluating players: many seeded games, their figures with intervals, and two players compared on the same seeds.

The command line's `selfplay` and the benches call the same functions: `game_jobs` lists the games, `run_games`
plays them (one by one, in processes, or on a Dask cluster) and `figures` and `paired` sum them up. A game is a
pure function of its setup (its seed included) and its player's name and settings, so the figures are the same
whoever plays it and in whatever order (a budget in seconds is the exception: a busier machine searches less).
"""

from controller.autoplay.evaluation.figures import DefeatCause, Figures, Paired, figures, paired
from controller.autoplay.evaluation.games import (
    GameJob,
    GameResult,
    TimedPlayer,
    game_jobs,
    play_one,
    player_for,
    reason_of,
    result_of,
    start_of,
)
from controller.autoplay.evaluation.measures import exact_paired_p, percentile, wilson_interval
from controller.autoplay.evaluation.runners import ClusterError, run_games

__all__ = ["ClusterError", "DefeatCause", "Figures", "GameJob", "GameResult", "Paired", "TimedPlayer",
           "exact_paired_p", "figures", "game_jobs", "paired", "percentile", "play_one", "player_for", "reason_of",
           "result_of", "run_games", "start_of", "wilson_interval"]
