"""Golden narrations: the instructions the players read, for whole seeded games, stay word for word.

Events carry ids and numbers and `controller.rules.phrasing` turns them into words; these files were
written from the engine before that split, so they hold the phrasing to what the players read then.
Regenerate one only for a deliberate change of wording (and read the diff):
`burncycle-table selfplay --games 1 --seed 0 --narrate ... | grep -v '^decision times:' > tests/golden/<name>.txt`
(the summary's decision times are measured, so they differ from run to run; every other line is compared).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli_run import run

GOLDEN = Path(__file__).parent / "golden"

# name -> selfplay arguments: together they phrase most event types (the rest: tests/test_phrasing.py)
GAMES = {
    "data-heist-byte-casing": ["--mission", "data-heist", "--floor", "meridian-lobby", "--agents", "byte,casing"],
    "tower-run-memory-interface-nano": ["--mission", "tower-run", "--floor", "meridian-lobby", "--players", "3",
                                        "--agents", "memory,interface,nano", "--captain", "overseer"],
    "rescue-rangers-byte-memory": ["--mission", "rescue-rangers", "--floor", "meridian-lobby", "--level", "1",
                                   "--agents", "byte,memory"],
    "preconnaissance-casing-interface": ["--mission", "preconnaissance", "--floor", "meridian-annex", "--level",
                                         "2", "--agents", "casing,interface", "--captain", "overseer"],
    "ghost-in-the-dell-nano-bit-byte": ["--mission", "ghost-in-the-dell", "--floor", "meridian-labs", "--level",
                                        "1", "--players", "3", "--agents", "nano,bit,byte"],
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_seeded_game_is_narrated_word_for_word(capsys, name):
    code, out, err = run(capsys, "selfplay", "--games", "1", "--seed", "0", "--narrate", *GAMES[name])
    assert code == 0, err
    golden = (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")
    lines = [line for line in out.splitlines() if not line.startswith("decision times: ")]
    assert len(lines) == len(out.splitlines()) - 1  # the one measured line, left out of the comparison
    # compare line by line so a failure names the first instruction that changed
    for number, (got, want) in enumerate(zip(lines, golden.splitlines()), start=1):
        assert got == want, f"{name}.txt line {number}"
    assert len(lines) == len(golden.splitlines())
