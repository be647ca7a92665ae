"""Running `burncycle-table` in-process for the command-line tests."""

from __future__ import annotations

from controller.cli import main


def run(capsys, *argv):
    """Exit code, stdout and stderr of one command."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys, *argv) -> str:
    """A refused command: exit code 2 and one readable line on stderr, never a traceback."""
    code, out, err = run(capsys, *argv)
    assert code == 2, (out, err)
    assert "Traceback" not in err and "Traceback" not in out
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("burncycle-table: ")
    return lines[0]
