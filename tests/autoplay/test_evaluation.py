"""Evaluating players (controller/autoplay/evaluation): the interval, the percentiles, the paired test, the causes of
defeat grouped, and games that come out the same wherever they are played."""

from __future__ import annotations

import pytest

from controller.autoplay.evaluation import (
    GameResult,
    exact_paired_p,
    figures,
    game_jobs,
    paired,
    percentile,
    play_one,
    run_games,
    wilson_interval,
)
from controller.autoplay.players import PlayerSettings
from controller.library import floor_text
from controller.rules import GameSetup


@pytest.mark.parametrize(("wins", "games", "low", "high"), [
    (0, 10, 0.0, 0.2775),  # Wilson's interval at z = 1.96, as the tables give it
    (10, 10, 0.7225, 1.0),
    (5, 10, 0.2366, 0.7634),
    (1, 1, 0.2065, 1.0),
    (128, 200, 0.5714, 0.7033),
])
def test_the_win_rates_interval_is_wilsons(wins, games, low, high):
    got = wilson_interval(wins, games)
    assert got == pytest.approx((low, high), abs=1e-4)


def test_no_games_tell_nothing():
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_percentiles_are_measured_values():
    times = [float(k) for k in range(1, 101)]
    assert percentile(times, 0.99) == 99.0 and percentile(times, 0.5) == 50.0
    assert percentile([3.0], 0.99) == 3.0 and percentile([], 0.99) == 0.0


@pytest.mark.parametrize(("first_only", "second_only", "p"), [
    (0, 0, 1.0), (3, 3, 1.0), (0, 5, 0.0625), (5, 0, 0.0625), (1, 9, 0.021484375),
])
def test_the_paired_test_is_mcnemars_exact(first_only, second_only, p):
    assert exact_paired_p(first_only, second_only) == pytest.approx(p)


def result(seed: int, ending: str, text: str, rounds: int, cause: str = "", decisions=(0.001,)) -> GameResult:
    """A game's result as a worker returns it: `ending` is "victory", "defeat" or "unfinished"."""
    return GameResult(seed=seed, result=ending, cause=cause or ending, text=text, rounds=rounds, threat=20,
                      decisions=list(decisions))


def test_defeats_are_grouped_by_how_they_came_most_frequent_first():
    results = [result(1, "victory", "Clean Exit", 7, "mission_won"),
               result(2, "defeat", "threat reached 26", 8, "threat_maxed"),
               result(3, "defeat", "the command module was shut down", 5, "module_shut_down"),
               result(4, "defeat", "threat reached 26", 10, "threat_maxed"),
               result(5, "unfinished", "unfinished", 40)]
    made = figures("heuristic", PlayerSettings(), results)
    assert (made.games, made.wins, made.win_rate) == (5, 1, 0.2)
    assert made.victories == {"Clean Exit": 1}
    assert [(d.text, d.games, d.average_round) for d in made.defeats] == [
        ("threat reached 26", 2, 9.0), ("the command module was shut down", 1, 5.0), ("unfinished", 1, 40.0)]
    assert made.interval == wilson_interval(1, 5)


def test_decision_times_are_summed_over_every_game():
    results = [result(1, "victory", "Clean Exit", 7, decisions=[0.001] * 98),
               result(2, "victory", "Clean Exit", 7, decisions=[0.5, 2.0])]
    made = figures("search", PlayerSettings(seconds=0.5), results)
    assert made.decisions == 100 and made.median_decision == 0.001 and made.p99_decision == 0.5


def test_two_players_on_the_same_seeds_are_compared_game_by_game():
    mine = figures("search", PlayerSettings(), [result(1, "victory", "w", 5), result(2, "victory", "w", 5),
                                                result(3, "defeat", "l", 5), result(4, "defeat", "l", 5)])
    theirs = figures("heuristic", PlayerSettings(), [result(4, "victory", "w", 5), result(2, "victory", "w", 5),
                                                     result(1, "defeat", "l", 5), result(3, "defeat", "l", 5)])
    compared = paired(mine, theirs)
    assert (compared.first_only, compared.second_only, compared.both, compared.neither) == (1, 1, 1, 1)
    assert compared.difference == 0.0 and compared.p_value == 1.0
    with pytest.raises(ValueError):
        paired(mine, figures("heuristic", PlayerSettings(), [result(9, "victory", "w", 5)]))


@pytest.fixture(scope="module")
def lobby() -> GameSetup:
    text, source = floor_text("meridian-lobby")
    return GameSetup(floor=source, floor_text=text, players=2, agents=["nano", "casing"], seed=0)


def test_a_game_is_the_same_in_another_process(lobby):
    """The games of a run are spread over processes; each must come out as it does here (its seed and its player
    settings decide it, not the process or the order)."""
    jobs = game_jobs(lobby, [11, 12, 13], "heuristic")
    here = [play_one(job) for job in jobs]
    ticks: list[int] = []
    there = run_games(jobs, workers=2, on_done=lambda: ticks.append(1))
    assert [(r.seed, r.result, r.text, r.rounds, r.threat, len(r.decisions)) for r in there] == \
        [(r.seed, r.result, r.text, r.rounds, r.threat, len(r.decisions)) for r in here]
    assert len(ticks) == 3 and [r.seed for r in there] == [11, 12, 13]
