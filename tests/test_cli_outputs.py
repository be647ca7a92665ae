"""Where a command writes: a regular file is replaced whole or not at all, and nothing else is ever replaced.

Outputs are written to a temporary file and renamed; the rename once replaced whatever the path named, so as
root `markers --out /dev/full` swapped the machine's device for a PDF and `--out link.pdf` replaced a symlink
and left its target empty. These tests write through every kind of path a person can give."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.support.cli_run import refused, run

NEW_GAME = ("new-game", "--seed", 7, "--players", 2)


def test_a_regular_file_is_replaced_whole(capsys, tmp_path: Path) -> None:
    out = tmp_path / "state.json"
    out.write_text("old")
    assert run(capsys, *NEW_GAME, "--out", out)[0] == 0
    assert out.read_bytes().startswith(b"{") and stat.S_ISREG(out.lstat().st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["state.json"]  # no temporary file left beside it


def test_a_symlink_is_followed_to_its_target(capsys, tmp_path: Path) -> None:
    target = tmp_path / "games" / "state.json"
    target.parent.mkdir()
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    assert run(capsys, *NEW_GAME, "--out", link)[0] == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_bytes().startswith(b"{")


def test_a_dangling_symlink_creates_its_target(capsys, tmp_path: Path) -> None:
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "new.json")
    assert run(capsys, *NEW_GAME, "--out", link)[0] == 0
    assert link.is_symlink() and (tmp_path / "new.json").read_bytes().startswith(b"{")


def test_a_fifo_is_written_into_not_replaced(capsys, tmp_path: Path) -> None:
    """`--out` a pipe (as `lp` reads one): the bytes go down the pipe and the pipe stays a pipe."""
    fifo = tmp_path / "to-printer"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    assert run(capsys, "markers", "--out", fifo)[0] == 0
    reader.join(timeout=30)
    assert got and got[0].startswith(b"%PDF")
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["to-printer"]


def test_a_link_to_standard_output_sends_the_output_down_the_pipe(tmp_path: Path) -> None:
    """`--out /dev/stdout | lp` works: the PDF arrives on standard output and the link is untouched. The link is
    a copy of /dev/stdout's (to /proc/self/fd/1) made in the test's folder, so a regression replaces that copy
    and never the machine's own /dev/stdout (which is how this bug was found)."""
    stdout = tmp_path / "stdout"
    stdout.symlink_to("/proc/self/fd/1")
    done = subprocess.run([sys.executable, "-c", "from controller.cli import main; raise SystemExit(main())",
                           "markers", "--out", str(stdout)], capture_output=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.startswith(b"%PDF") and b"%%EOF" in done.stdout[-64:]
    assert stdout.is_symlink() and os.readlink(stdout) == "/proc/self/fd/1"


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root (the CI runs as root)")
def test_a_full_device_exits_2_and_stays_a_device(capsys, tmp_path: Path) -> None:
    """A copy of /dev/full (the same major and minor) made in the test's folder, so a regression replaces
    that copy and never the machine's own device."""
    full = tmp_path / "full"
    os.mknod(full, stat.S_IFCHR | 0o666, os.makedev(1, 7))
    line = refused(capsys, "markers", "--out", full)
    assert f"{full}: cannot write: No space left on device" in line
    assert stat.S_ISCHR(full.lstat().st_mode)
    line = refused(capsys, *NEW_GAME, "--out", full)
    assert "No space left on device" in line and stat.S_ISCHR(full.lstat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["full"]


def test_a_socket_is_refused_in_one_line(capsys, tmp_path: Path) -> None:
    import socket

    path = tmp_path / "s"
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(path))
        line = refused(capsys, *NEW_GAME, "--out", path)
    assert "is not a file, a terminal or a pipe" in line
    assert stat.S_ISSOCK(path.lstat().st_mode)


def test_a_folder_is_refused(capsys, tmp_path: Path) -> None:
    assert "is a folder; give a file name inside it" in refused(capsys, *NEW_GAME, "--out", tmp_path)
