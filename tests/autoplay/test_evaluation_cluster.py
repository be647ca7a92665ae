"""`selfplay --cluster`: the same games on a real Dask cluster on loopback (a scheduler and worker processes)
give the same figures as the games played here, and a scheduler nobody runs is one line."""

from __future__ import annotations

import json
import logging

import distributed  # the cluster extra, which the test command installs (.ci/install)
import pytest

from tests.support.cli_run import refused, run
from tests.support.net import free_port

pytestmark = pytest.mark.slow  # a Dask scheduler and its worker processes start for each test


def figures(capsys, *argv) -> list[dict]:
    """Each player's figures without the measured times."""
    code, out, err = run(capsys, "selfplay", "--json", "--games", 4, "--seed", 30, "--against", "heuristic", *argv)
    assert code == 0, err
    found = json.loads(out)["figures"]
    for player in found:
        del player["median_decision"], player["p99_decision"]
    return found


def test_games_on_a_scheduler_equal_the_games_played_here(capsys):
    here = figures(capsys)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None, silence_logs=logging.ERROR) as cluster:
        assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        there = figures(capsys, "--cluster", cluster.scheduler_address)
    assert there == here
    assert [g["seed"] for g in there[0]["results"]] == [30, 31, 32, 33]


def test_a_local_cluster_is_started_and_stopped_for_the_run(capsys):
    assert figures(capsys, "--cluster", "local", "--jobs", 2) == figures(capsys, "--jobs", 2)


def test_a_scheduler_nobody_runs_is_one_line(capsys):
    address = f"tcp://127.0.0.1:{free_port()}"
    message = refused(capsys, "selfplay", "--games", 1, "--cluster", address)
    assert f"cannot reach the Dask scheduler at {address}" in message
