"""Figures the benchmarks print."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable


def percentile(values: list[float], q: float) -> float:
    """The value below which a fraction q of the samples lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def time_pairs(items: Iterable, subject: Callable, baseline: Callable) -> tuple[list[float], list[float]]:
    """Seconds `subject(item)` and `baseline(item)` take on each item, measured side by side in one process."""
    subject_times, baseline_times = [], []
    for item in items:
        t0 = time.perf_counter()
        baseline(item)
        t1 = time.perf_counter()
        subject(item)
        t2 = time.perf_counter()
        baseline_times.append(t1 - t0)
        subject_times.append(t2 - t1)
    return subject_times, baseline_times


def report(label: str, times: list[float], baseline_label: str, baseline_times: list[float]) -> None:
    """Median and p99 of a measurement, of its baseline, and their ratios, in milliseconds."""
    med, p99 = statistics.median(times), percentile(times, 0.99)
    bmed, bp99 = statistics.median(baseline_times), percentile(baseline_times, 0.99)
    print(f"{label}: median {med * 1000:.3f} ms, p99 {p99 * 1000:.3f} ms")
    print(f"baseline ({baseline_label}): median {bmed * 1000:.3f} ms, p99 {bp99 * 1000:.3f} ms")
    print(f"ratio: median {med / bmed:.2f}x, p99 {p99 / bp99:.2f}x")
