"""The one edge of the command line: every expected failure of every command is one line, exit code 2.

Each test is a class of bad input found by throwing malformed input at the commands: deep nesting, number
options that are not numbers a person means, outputs that cannot be written, files that are not text,
images OpenCV refuses. None may print a traceback or leave a partial file.
"""

from __future__ import annotations

import struct
import subprocess
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.support.cli_run import refused, run

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def state_file(tmp_path, capsys) -> Path:
    path = tmp_path / "state.json"
    assert run(capsys, "new-game", "--seed", 7, "--out", path)[0] == 0
    return path


@pytest.fixture
def photo(tmp_path) -> Path:
    path = tmp_path / "photo.png"
    cv2.imwrite(str(path), np.full((60, 80, 3), 200, np.uint8))
    return path


def test_deeply_nested_action_json_is_refused(capsys, state_file, tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text('{"action":' * 100_000 + "1" + "}" * 100_000)
    before = state_file.read_bytes()
    line = refused(capsys, "act", state_file, deep)
    assert "nested too deeply" in line
    assert state_file.read_bytes() == before


@pytest.mark.parametrize("argv, option", [
    (["leds", "test", "--step", "-1"], "--step"),
    (["leds", "test", "--step", "nan"], "--step"),
    (["leds", "test", "--step", "inf"], "--step"),
    (["leds", "show", "STATE", "--seconds", "nan"], "--seconds"),
    (["leds", "test", "--baud", "0"], "--baud"),
    (["leds", "test", "--baud", "-9600"], "--baud"),
    (["new-game", "--seed", "²"], "--seed"),
    (["new-game", "--players", "0"], "--players"),
    (["selfplay", "--games", "1_0"], "--games"),
    (["watch", "0", "--floor", "meridian-lobby", "--retry-seconds", "nan"], "--retry-seconds"),
    (["watch", "0", "--floor", "meridian-lobby", "--frames", "-3"], "--frames"),
])
def test_number_options_refuse_what_no_person_means(capsys, state_file, argv, option):
    """nan never ends a wait, a negative sleep or a zero baud rate crashed inside; all stop at argparse."""
    line = refused(capsys, *[str(state_file) if a == "STATE" else a for a in argv])
    assert f"argument {option}" in line and "--help" in line


def test_a_usage_mistake_is_one_line(capsys):
    line = refused(capsys, "new-game", "--no-such-option")
    assert "unrecognized arguments: --no-such-option" in line


def test_out_whose_parent_is_a_file_is_refused(capsys, state_file):
    line = refused(capsys, "new-game", "--out", state_file / "new.json")
    assert f"{state_file / 'new.json'}: cannot write: Not a directory" in line


@pytest.mark.parametrize("argv", [["new-game", "--out", ""], ["markers", "--out", ""]])
def test_an_empty_output_name_says_so(capsys, argv):
    assert "output file name is empty" in refused(capsys, *argv)


def test_markers_pdf_is_written_whole_or_not_at_all(capsys, tmp_path):
    """The PDF goes to a temporary file that is renamed over the old one: when the write fails the old PDF
    is left as it was (on a full disk it used to be left half written)."""
    out = tmp_path / "markers.pdf"
    out.write_bytes(b"the old sheet")
    (tmp_path / ".markers.pdf.tmp").mkdir()  # the temporary file cannot be made
    line = refused(capsys, "markers", "--out", out)
    assert str(out) in line
    assert out.read_bytes() == b"the old sheet"
    (tmp_path / ".markers.pdf.tmp").rmdir()
    assert run(capsys, "markers", "--out", out)[0] == 0
    assert out.read_bytes().startswith(b"%PDF") and not (tmp_path / ".markers.pdf.tmp").exists()


def test_a_layout_that_is_not_text_is_refused(capsys, tmp_path):
    layout = tmp_path / "leds.toml"
    layout.write_bytes(b"\xff\xfe[strip]")
    line = refused(capsys, "leds", "test", "--layout", layout, "--step", "0")
    assert str(layout) in line and "not a text layout file" in line


def test_an_image_header_claiming_50000_pixels_square_is_refused(capsys, tmp_path):
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    huge = tmp_path / "huge.png"
    huge.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 50000, 50000, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(b"\0" * 100)) + chunk(b"IEND", b""))
    line = refused(capsys, "detect", huge, "--floor", "meridian-lobby")
    assert str(huge) in line and "OpenCV cannot read this image" in line


def test_an_annotation_file_type_opencv_cannot_write_is_refused(capsys, photo, tmp_path):
    out = tmp_path / "drawn.xyz"
    line = refused(capsys, "detect", photo, "--floor", "meridian-lobby", "--annotate", out)
    assert "drawn.xyz: cannot encode an image of that type" in line
    assert not out.exists()


@pytest.mark.parametrize("content, why", [(b"\xff\xfe{", "not text"), (b"{", "not a calibration"),
                                          (b"[1, 2]", "not a calibration")])
def test_a_bad_calibration_file_is_refused(capsys, photo, tmp_path, content, why):
    calibration = tmp_path / "lens.json"
    calibration.write_bytes(content)
    for command in (["detect", photo], ["watch", photo.parent]):
        line = refused(capsys, *command, "--floor", "meridian-lobby", "--calibration", calibration)
        assert str(calibration) in line and why in line


@pytest.mark.parametrize("command", [["detect", "PHOTO"], ["watch", "FOLDER"]])
def test_a_bad_floor_file_is_refused(capsys, photo, tmp_path, command):
    floor = tmp_path / "bad.floor"
    floor.write_text("name: x\nlevel: 9\n")
    argv = [str(photo) if a == "PHOTO" else str(photo.parent) if a == "FOLDER" else a for a in command]
    line = refused(capsys, *argv, "--floor", floor)
    assert line.startswith(f"burncycle-table: {floor}:")


@pytest.mark.parametrize("source", ["99", "rtsp://127.0.0.1:1/none"])
def test_opencv_and_ffmpeg_log_nothing_before_our_message(source):
    """OpenCV's and ffmpeg's own log lines ("can't open camera by index", "Connection refused") are C++ writes
    to stderr; a fresh process shows only our line."""
    done = subprocess.run([sys.executable, "-m", "controller.cli", "watch", source, "--floor", "meridian-lobby",
                           "--frames", "1"], capture_output=True, text=True, cwd=ROOT, timeout=60,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 2
    assert done.stderr.splitlines() == [done.stderr.strip()] and done.stderr.startswith("burncycle-table: ")
