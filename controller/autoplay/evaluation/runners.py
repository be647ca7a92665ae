"""Where the games are played: here one after the other, in `workers` processes of this machine, or on a Dask
cluster (an optional extra, `pip install 'burncycle-table[cluster]'`, never needed on the Pi). Each game's
result is put back in its job's place, so the figures do not depend on which game ended first."""

from __future__ import annotations

import logging
import multiprocessing
from collections.abc import Callable, Sequence
from typing import Any

from controller.autoplay.evaluation.games import GameJob, GameResult, play_one


class ClusterError(RuntimeError):
    """The cluster cannot be used: Dask is not installed, or its scheduler cannot be reached."""


def run_games(jobs: Sequence[GameJob], *, workers: int = 1, cluster: str | None = None,
              on_done: Callable[[], None] | None = None) -> list[GameResult]:
    """Every job's result, in the jobs' order. `cluster` is a Dask scheduler's address ("tcp://host:8786"), or
    "local" for a cluster of `workers` processes started here on 127.0.0.1 and stopped at the end; otherwise
    `workers` > 1 plays the games in that many processes (spawned: a script calling this from its top level needs
    the `if __name__ == "__main__":` guard). `on_done` is called once per game ended (a progress bar's tick)."""
    tick = on_done or (lambda: None)
    if cluster is not None:
        return _on_cluster(jobs, cluster, workers, tick)
    if workers <= 1 or len(jobs) <= 1:
        results = []
        for job in jobs:
            results.append(play_one(job))
            tick()
        return results
    return _in_processes(jobs, workers, tick)


def _in_processes(jobs: Sequence[GameJob], workers: int, tick: Callable[[], None]) -> list[GameResult]:
    # spawned, not forked: the caller may have threads (a progress bar's), and a fork copies their locks. Leaving
    # the pool terminates its processes at once, so an interrupted run (Ctrl-C) stops without playing on.
    results: list[GameResult | None] = [None] * len(jobs)
    with multiprocessing.get_context("spawn").Pool(min(workers, len(jobs))) as pool:
        for place, result in pool.imap_unordered(_play_in_place, enumerate(jobs)):
            results[place] = result
            tick()
    return [r for r in results if r is not None]


def _play_in_place(numbered: tuple[int, GameJob]) -> tuple[int, GameResult]:
    place, job = numbered
    return place, play_one(job)


def _on_cluster(jobs: Sequence[GameJob], address: str, workers: int,
                tick: Callable[[], None]) -> list[GameResult]:
    try:
        from dask.distributed import Client, LocalCluster
        from dask.distributed import as_completed as completed_on_cluster
    except ImportError:
        raise ClusterError("Dask is not installed here: install the cluster extra "
                           "(pip install 'burncycle-table[cluster]')") from None
    local: Any = None
    try:
        if address == "local":
            local = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                                 dashboard_address=None, silence_logs=logging.ERROR)
            client = Client(local)
        else:
            client = Client(address, timeout="10s")
    except (OSError, TimeoutError, ValueError) as err:
        if local is not None:
            local.close()
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {err}") from None
    try:
        futures = client.map(play_one, list(jobs), pure=False)
        places = {future.key: k for k, future in enumerate(futures)}
        results: list[GameResult | None] = [None] * len(jobs)
        for future in completed_on_cluster(futures):
            results[places[future.key]] = future.result()
            tick()
        return [r for r in results if r is not None]
    finally:
        client.close()
        if local is not None:
            local.close()
