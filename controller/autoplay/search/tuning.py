"""The search player's tuning constants, each saying what was measured (docs/autoplay.md, "Search player")."""

MAX_CANDIDATES = 8
"""The most candidates one decision is searched over (the blueprint's among them): each costs a rollout per
future, and beyond a handful the budget spread over them tells them apart no better."""

MAX_WIDE = 12
"""The most candidates of a hint's decision: a step of a move has up to four ways and an end of the move."""

THREAT_WORRY = 20
"""Threat at a rollout's end worth naming as a cause (26 loses the game)."""

HINT_ITERATIONS = 240
"""A hint's rollouts when no budget is given: about 2 s on a Pi 4's core (bench/bench_search.py)."""

WEIGHTS = (1.2, 0.15, 1.5, 0.8, -0.18, 0.12, 0.05, -0.8, -0.25, -0.04)
"""The evaluation's weight of each feature (evaluation.FEATURES), for a logistic estimate of the chance to win."""

BIAS = 1.5
"""The evaluation's constant term (with WEIGHTS)."""
