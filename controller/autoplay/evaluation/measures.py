"""The few statistics an evaluation prints: a win rate's interval, a percentile, and the paired test of two
players on the same seeds. Standard library only, so the Pi and a cluster's workers need nothing more."""

from __future__ import annotations

import math
from collections.abc import Sequence


def wilson_interval(wins: int, games: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% for the default z). Unlike the normal approximation it stays
    inside 0-1 and is honest at 0 or all games won, which is where a weak or a strong player's rate lies."""
    if games <= 0:
        return 0.0, 1.0
    rate = wins / games
    spread = z * z / games
    centre = (rate + spread / 2) / (1 + spread)
    half = z * math.sqrt(rate * (1 - rate) / games + spread / (4 * games)) / (1 + spread)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile (`share` 0.5 the median's upper neighbour, 0.99 the p99): a value that was
    measured, never one interpolated between two decisions."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(share * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def exact_paired_p(first_only: int, second_only: int) -> float:
    """McNemar's exact test, two-sided: how likely a split at least this uneven of the games won by one player
    and lost by the other would be if both players were as strong (each such game a fair coin's toss)."""
    discordant = first_only + second_only
    if discordant == 0:
        return 1.0
    tail = sum(math.comb(discordant, k) for k in range(min(first_only, second_only) + 1)) / 2 ** discordant
    return min(1.0, 2 * tail)
