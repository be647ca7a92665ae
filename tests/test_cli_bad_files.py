"""Damaged files handed to the commands, with stderr captured whole, down to what C libraries write to the
process's own file descriptor 2 (capfd): one line, naming the file, in the project's words. libpng once
printed "libpng error: Read Error" before the line, a photo one pixel high gave OpenCV's "!dsize.empty()"
without the file's name, and an action nested thousands deep did not name its file."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.support.cli_run import refused, run


def _png(image: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".png", image)
    assert ok
    return data.tobytes()


PHOTO = _png(np.random.default_rng(1).integers(0, 255, (480, 640, 3), dtype=np.uint8))


@pytest.mark.parametrize("kept", [len(PHOTO) // 2, len(PHOTO) - 20, len(PHOTO) - 5])
def test_a_truncated_png_is_one_line_naming_it(capfd: pytest.CaptureFixture[str], tmp_path: Path,
                                               kept: int) -> None:
    photo = tmp_path / "cut.png"
    photo.write_bytes(PHOTO[:kept])  # a copy that stopped half way
    line = refused(capfd, "detect", photo, "--floor", "meridian-lobby")
    assert line.startswith(f"burncycle-table: {photo}: "), line
    assert "libpng" not in line


@pytest.mark.parametrize("height, width", [(1, 1), (1, 4000), (3, 3)])
def test_an_image_too_small_to_show_the_table_is_one_line_naming_it(capfd: pytest.CaptureFixture[str],
                                                                    tmp_path: Path, height: int, width: int) -> None:
    photo = tmp_path / "tiny.png"
    photo.write_bytes(_png(np.zeros((height, width, 3), np.uint8)))
    line = refused(capfd, "detect", photo, "--floor", "meridian-lobby")
    assert line == (f"burncycle-table: {photo}: the image is {width}x{height} pixels, too small to show the table: "
                    f"give a photo of the table at least 16 pixels wide and high")


@pytest.mark.parametrize("text", ['{"action": ' + "[" * 5000 + "]" * 5000 + "}", "[" * 100_000 + "]" * 100_000,
                                  '{"action": "pass", "x": ' + "[" * 5000 + "]" * 5000 + "}"])
def test_an_action_file_nested_thousands_deep_is_one_line_naming_it(capfd: pytest.CaptureFixture[str],
                                                                    tmp_path: Path, text: str) -> None:
    state = tmp_path / "state.json"
    assert run(capfd, "new-game", "--seed", "3", "--out", state)[0] == 0
    action = tmp_path / "deep.json"
    action.write_text(text)
    line = refused(capfd, "act", state, action)
    assert line == (f"burncycle-table: {action}: nested too deeply to read; an action is a flat JSON object such "
                    f"as '{{\"action\": \"pass\"}}'")
