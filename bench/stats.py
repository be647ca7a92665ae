"""Figures the benchmarks print."""

from __future__ import annotations


def percentile(values: list[float], q: float) -> float:
    """The value below which a fraction q of the samples lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
