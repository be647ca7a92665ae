"""The demo's scratch folders: one left by a killed demo is cleared at the next start, one of a demo still
running (or of an older kind, unless empty) is kept."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from controller.service.demo.folder import PREFIX, clear_stale, demo_folder


def test_folders_of_demos_that_are_gone_are_cleared_and_only_those(tmp_path: Path) -> None:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    stale = tmp_path / f"{PREFIX}{gone.pid}-a1b2"
    (stale / "inner").mkdir(parents=True)
    (stale / "inner" / "demo.sqlite3").write_bytes(b"x")
    running = tmp_path / f"{PREFIX}{os.getpid()}-c3d4"
    running.mkdir()
    unnamed = tmp_path / f"{PREFIX}e5f6"   # an older demo's folder: its owner cannot be told, it holds a log
    unnamed.mkdir()
    (unnamed / "demo.sqlite3").write_bytes(b"x")
    left_empty = tmp_path / f"{PREFIX}g7h8"   # what a killed demo of that older version left: nothing to lose
    left_empty.mkdir()
    absurd = tmp_path / f"{PREFIX}{2**70}-x"
    absurd.mkdir()
    assert sorted(clear_stale(tmp_path)) == sorted([stale, absurd, left_empty])
    assert not stale.exists() and running.is_dir() and unnamed.is_dir() and not left_empty.exists()


def test_a_sigkilled_demo_leaves_a_folder_the_next_demo_clears() -> None:
    """A process holding a demo folder as `demo` does, killed with SIGKILL, then a new demo's start."""
    holder = subprocess.Popen([sys.executable, "-c", "import time; from controller.service.demo.folder import "
                               "demo_folder; f = demo_folder(); print(f.name, flush=True); time.sleep(60)"],
                              stdout=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parents[2])
    assert holder.stdout is not None
    left = Path(holder.stdout.readline().strip())
    assert left.is_dir() and left.name.startswith(f"{PREFIX}{holder.pid}-")
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait(5)
    assert left.is_dir()  # what a killed demo leaves behind
    mine = demo_folder()
    try:
        assert not left.exists() and Path(mine.name).parent == Path(tempfile.gettempdir())
    finally:
        mine.cleanup()
