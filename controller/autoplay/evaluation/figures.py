"""The figures of a player's games (win rate with its interval, how it lost, how long it thought) and the paired
comparison of two players on the same seeds: plain data, for the command line's text and JSON and for benches."""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence

import msgspec

from controller.autoplay.evaluation.games import GameResult
from controller.autoplay.evaluation.measures import exact_paired_p, percentile, wilson_interval
from controller.autoplay.players import PlayerSettings


class DefeatCause(msgspec.Struct, frozen=True, kw_only=True):
    """The games lost one way ("threat reached 26", "the command module was shut down", "unfinished")."""

    cause: str
    text: str
    games: int
    average_round: float


class Figures(msgspec.Struct, frozen=True, kw_only=True):
    """One player's games summed up. Times are in seconds; `interval` is the win rate's 95% Wilson interval."""

    player: str
    settings: PlayerSettings
    games: int
    wins: int
    win_rate: float
    interval: tuple[float, float]
    average_rounds: float
    average_threat: float
    victories: dict[str, int]
    """The games won, by the win's name (a mission may be won more than one way)."""
    defeats: list[DefeatCause]
    """The games lost or left unfinished, grouped by how, the most frequent first."""
    decisions: int
    median_decision: float
    p99_decision: float
    results: list[GameResult]


class Paired(msgspec.Struct, frozen=True, kw_only=True):
    """Two players on the same seeds: the games one won and the other lost, each way; `difference` is the first's
    win rate less the second's, and `p_value` McNemar's exact test of a difference that large by chance."""

    first: str
    second: str
    games: int
    first_only: int
    second_only: int
    both: int
    neither: int
    difference: float
    p_value: float


def figures(player: str, settings: PlayerSettings, results: Sequence[GameResult]) -> Figures:
    games = len(results)
    wins = sum(r.won for r in results)
    rounds_by_loss: dict[tuple[str, str], list[int]] = defaultdict(list)
    for r in results:
        if not r.won:
            rounds_by_loss[(r.cause, r.text)].append(r.rounds)
    defeats = [DefeatCause(cause=cause, text=text, games=len(rounds), average_round=sum(rounds) / len(rounds))
               for (cause, text), rounds in rounds_by_loss.items()]
    defeats.sort(key=lambda d: (-d.games, d.text))
    times = [t for r in results for t in r.decisions]
    victories = Counter(r.text for r in results if r.won)
    return Figures(player=player, settings=settings, games=games, wins=wins, win_rate=wins / games if games else 0.0,
                   interval=wilson_interval(wins, games),
                   average_rounds=sum(r.rounds for r in results) / games if games else 0.0,
                   average_threat=sum(r.threat for r in results) / games if games else 0.0,
                   victories=dict(victories.most_common()), defeats=defeats, decisions=len(times),
                   median_decision=statistics.median(times) if times else 0.0,
                   p99_decision=percentile(times, 0.99), results=list(results))


def paired(first: Figures, second: Figures) -> Paired:
    """The two players' games seed by seed; both must have played the same seeds."""
    theirs = {r.seed: r.won for r in second.results}
    if sorted(theirs) != sorted(r.seed for r in first.results):
        raise ValueError("the two players did not play the same seeds")
    pairs = [(r.won, theirs[r.seed]) for r in first.results]
    first_only = sum(a and not b for a, b in pairs)
    second_only = sum(b and not a for a, b in pairs)
    return Paired(first=first.player, second=second.player, games=len(pairs), first_only=first_only,
                  second_only=second_only, both=sum(a and b for a, b in pairs),
                  neither=sum(not a and not b for a, b in pairs),
                  difference=first.win_rate - second.win_rate, p_value=exact_paired_p(first_only, second_only))
