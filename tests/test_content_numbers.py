"""Every number of every content file has a range, checked when the file is read, before the number is used.

A number drives work: `count = 99999999999999999999` in guards.toml once made `validate` build that many guard
chips (past 60 s of CPU). Hypothesis puts numbers (huge, negative, zero, small) in place of each number of each
shipped content file, one at a time, and runs `burncycle-table validate` on the file: every run ends within 2 s
of CPU, and a number far from any the game uses is refused in one line naming the file, its line and the field.
The limit is the process's CPU time, not the wall clock: a machine busy with other work (a CI runner, a
parallel test run) slows the clock, not the work, and the bug this guards against is work.
"""

from __future__ import annotations

import contextlib
import io
import re
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.cli import main
from controller.library import CONTENT
from controller.rules.content import FILES

FUZZ = settings(derandomize=True, max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
LONGEST_S = 2.0
FAR = 1000  # no number of the game comes near this: such a number must be refused, by line and field
# a string, a comment, or an integer literal outside them (group 1)
TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'|#.*$|(?<![\w.+-])(-?\d+)(?![\w.:-])', re.M)


def number_sites(text: str) -> list[tuple[int, int]]:
    """(start, end) of every integer literal of a TOML text, outside strings and comments."""
    return [m.span(1) for m in TOKENS.finditer(text) if m.group(1) is not None]


SITES = {name: number_sites((CONTENT / name).read_text(encoding="utf-8")) for name in FILES}
numbers = st.one_of(st.integers(min_value=-(10**25), max_value=10**25), st.integers(min_value=-5, max_value=40),
                    st.sampled_from([10**20, 99999999999999999999, 2**63, 2**64 + 1, -(2**63) - 1, 10**6]))


@contextlib.contextmanager
def at_most(seconds: float) -> Iterator[None]:
    """Fails the test when the body uses more than `seconds` of this process's CPU (the body is stopped, not
    waited out)."""
    def too_long(_signum: int, _frame: FrameType | None) -> None:
        raise AssertionError(f"used more than {seconds} s of CPU")
    previous = signal.signal(signal.SIGPROF, too_long)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def validate(path: Path) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["validate", str(path)])
    return code, err.getvalue()


def test_every_content_file_has_numbers_to_fuzz() -> None:
    assert all(SITES[name] for name in FILES if name != "dice.toml"), {n: len(s) for n, s in SITES.items()}


@pytest.mark.parametrize("name", [name for name in FILES if SITES[name]])
@FUZZ
@given(data=st.data())
def test_a_number_out_of_place_is_refused_fast_by_file_line_and_field(tmp_path: Path, name: str,
                                                                      data: st.DataObject) -> None:
    text = (CONTENT / name).read_text(encoding="utf-8")
    start, end = data.draw(st.sampled_from(SITES[name]), label="site")
    value = data.draw(numbers, label="value")
    path = tmp_path / name
    path.write_text(text[:start] + str(value) + text[end:], encoding="utf-8")
    line = text.count("\n", 0, start) + 1
    began = time.process_time()
    with at_most(LONGEST_S):
        code, err = validate(path)
    assert time.process_time() - began < LONGEST_S
    assert "Traceback" not in err
    if code == 0:
        assert abs(value) < FAR, f"{name}:{line}: {value} was taken"
        return
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith(f"burncycle-table: {path}"), err
    if abs(value) >= FAR:
        assert re.match(rf"burncycle-table: {re.escape(str(path))}:{line}: [\w.\[\]]+: ", lines[0]), (line, err)
