"""Start time of the `burncycle-table` commands (issue 31: `validate` took 1.0-1.4 s, 0.85 s of it importing
OpenCV, FastAPI and the service it never uses). Each command runs in a fresh `python -m controller.cli`, as a
person at a shell runs it; the figures are the whole process (start, imports, the command, exit), median and
p99, against `python -c pass` and `python -c "import controller.rules"` run side by side with it.

    .venv/bin/python bench/bench_cli_start.py [--runs 10]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from stats import percentile

ROOT = Path(__file__).resolve().parents[1]
BASELINES = {"python -c pass": ["-c", "pass"],
             "python -c 'import controller.rules'": ["-c", "import controller.rules"]}


def commands(folder: Path) -> dict[str, list[str]]:
    """The commands timed, each with real input: a shipped floor, a state file, a legal action."""
    state, corp = folder / "state.json", folder / "corp.json"
    cli = ["-m", "controller.cli"]
    subprocess.run([sys.executable, *cli, "new-game", "--out", str(state)], cwd=ROOT, check=True,
                   stderr=subprocess.DEVNULL)
    data = json.loads(state.read_text())  # the same game at the corporation's turn (tests/test_cli.py's way)
    data["turn"]["step"] = "corporation"
    data["turn"]["active"] = data["turn"]["order"].index(data["turn"]["marker"])
    corp.write_text(json.dumps(data))
    return {
        "--help": [*cli, "--help"],
        "schema state": [*cli, "schema", "state"],
        "validate meridian-lobby.floor": [*cli, "validate", "controller/content/floors/meridian-lobby.floor"],
        "validate STATE": [*cli, "validate", str(state)],
        "actions STATE": [*cli, "actions", str(state)],
        "act STATE begin_actions": [*cli, "act", str(state), '{"action": "begin_actions"}'],
        "corp-turn --help": [*cli, "corp-turn", "--help"],
        "corp-turn STATE": [*cli, "corp-turn", str(corp), "--seed", "1"],
        "leds --help": [*cli, "leds", "--help"],
        "detect --help (OpenCV)": [*cli, "detect", "--help"],
    }


def seconds(argv: list[str]) -> float:
    """The whole process's time; a command that fails is reported, since its time would not be the command's."""
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, *argv], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    elapsed = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {done.stderr.strip()}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        timed = {**BASELINES, **commands(Path(folder))}
        samples: dict[str, list[float]] = {name: [] for name in timed}
        for _ in range(args.runs):  # interleaved, so a busy moment of the machine falls on every command alike
            for name, argv in timed.items():
                samples[name].append(seconds(argv))
    base = statistics.median(samples["python -c pass"])
    rules = statistics.median(samples["python -c 'import controller.rules'"])
    print(f"{'command':<34} {'median':>9} {'p99':>9} {'x pass':>7} {'x rules':>8}")
    for name, times in samples.items():
        med = statistics.median(times)
        print(f"{name:<34} {med * 1000:7.0f} ms {percentile(times, 0.99) * 1000:6.0f} ms "
              f"{med / base:6.1f}x {med / rules:7.2f}x")


if __name__ == "__main__":
    main()
