"""The detect, markers and calibrate-camera commands, through controller.cli.main as a person runs them."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from controller.cli import main
from tests.support.vision_helpers import HD, POSE
from vision.calibrate import SQUARE_MM, board_image
from vision.calibration import CameraCalibration
from vision.pipeline import VisionPipeline
from vision.synth import CameraPose, VirtualCamera, view_maps


@pytest.fixture(scope="module")
def photo(tmp_path_factory, renderer, scene):
    path = tmp_path_factory.mktemp("photo") / "table.jpg"
    cv2.imwrite(str(path), renderer.render(scene, POSE, HD).image)
    return path


def test_detect_prints_the_observation_and_draws_the_overlay(photo, scene, tmp_path, capsys):
    out = tmp_path / "overlay.png"
    assert main(["detect", str(photo), "--floor", "meridian-lobby", "--annotate", str(out)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"]["level"] == "ok"
    assert {u: s["space"] for u, s in data["units"].items()} == {p.unit: p.space for p in scene.placements}
    assert data["units"]["captain"]["facing"] == "S"
    assert len(data["sightings"]) == len(scene.placements)
    overlay = cv2.imread(str(out))
    assert overlay.shape == (HD[1], HD[0], 3)
    original = cv2.imread(str(photo))
    assert np.mean(cv2.absdiff(overlay, original)) > 1.0  # something was drawn


@pytest.mark.parametrize("content, expect", [
    (b"", "not an image OpenCV can read"),
    (b"\x89PNG\r\n\x1a\nbroken", "not an image OpenCV can read"),
])
def test_detect_unreadable_image(tmp_path, capsys, content, expect):
    bad = tmp_path / "bad.png"
    bad.write_bytes(content)
    assert main(["detect", str(bad), "--floor", "meridian-lobby"]) == 2
    err = capsys.readouterr().err
    assert expect in err and str(bad) in err and "Traceback" not in err


def test_detect_missing_file_and_board_out_of_view(tmp_path, capsys):
    assert main(["detect", str(tmp_path / "none.png"), "--floor", "meridian-lobby"]) == 2
    assert "no such image file" in capsys.readouterr().err
    empty = tmp_path / "wall.png"
    cv2.imwrite(str(empty), np.full((720, 1280, 3), 200, np.uint8))
    assert main(["detect", str(empty), "--floor", "meridian-lobby"]) == 2
    assert "0 of 8" in capsys.readouterr().err


def test_markers_pdf_on_a4_and_letter(tmp_path, capsys):
    for paper in ("a4", "letter"):
        out = tmp_path / f"markers-{paper}.pdf"
        assert main(["markers", "--out", str(out), "--paper", paper]) == 0
        data = out.read_bytes()
        assert data.startswith(b"%PDF")
        pages = data.count(b"/Type /Page\n") + data.count(b"/Type /Page ")
        assert pages >= 2
        size = b"[ 0 0 595.2756 841.8898 ]" if paper == "a4" else b"[ 0 0 612 792 ]"
        assert data.count(b"/MediaBox " + size) == pages  # true paper size, every page
        said = capsys.readouterr()
        # the summary goes to stderr, so `markers --out /dev/stdout | lp` sends the PDF alone
        assert "27 chip stickers and 8 registration markers" in said.err and said.out == ""


def _charuco_photos(k1: float, size=(1280, 720)) -> list[np.ndarray]:
    ppm = 4.0
    board = board_image(ppm)
    h, w = board.shape
    margin = SQUARE_MM  # board_image's margin, in mm
    extent = (-margin, -margin, w / ppm - margin, h / ppm - margin)
    to_px = np.array([[ppm, 0, margin * ppm], [0, ppm, margin * ppm], [0, 0, 1]])
    photos = []
    for k, (tilt, az) in enumerate([(0, 0), (25, 0), (25, 90), (25, 180), (25, 270), (35, 45), (35, 225), (15, 135)]):
        cam = VirtualCamera(CameraPose(tilt, az, 10.0 * k - 30, 0.95, 66.0, k1), extent, size)
        photos.append(cv2.remap(board, *view_maps(cam, to_px), cv2.INTER_LINEAR, borderValue=128))
    return photos


def test_calibrate_camera_recovers_the_lens(tmp_path, capsys):
    paths = []
    for k, photo in enumerate(_charuco_photos(-0.15)):
        paths.append(str(tmp_path / f"view{k}.png"))
        cv2.imwrite(paths[-1], photo)
    out = tmp_path / "calibration.json"
    assert main(["calibrate-camera", *paths, "--out", str(out)]) == 0
    assert "calibrated from" in capsys.readouterr().out
    calib = CameraCalibration.load(out)
    f_true = 640 / np.tan(np.radians(33))
    assert calib.camera_matrix[0, 0] == pytest.approx(f_true, rel=0.05)
    assert calib.distortion[0, 0] == pytest.approx(-0.15, abs=0.04)
    assert calib.rms_px < 1.0


def test_calibrate_camera_with_too_few_views(tmp_path, capsys):
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((720, 1280), 128, np.uint8))
    assert main(["calibrate-camera", str(blank), "--out", str(tmp_path / "c.json")]) == 2
    assert "found in 0 of 1 photos" in capsys.readouterr().err
    assert main(["calibrate-camera", "--print-board", str(tmp_path / "board.png")]) == 0
    assert cv2.imread(str(tmp_path / "board.png")) is not None


def test_calibration_straightens_registration(floor, config, renderer, scene):
    """With strong barrel distortion the anchors disagree; the lens calibration brings them back in line."""
    pose = CameraPose(tilt_deg=10, azimuth_deg=30, roll_deg=0, fill=0.95, hfov_deg=70.0, k1=-0.2)
    frame = renderer.render(scene, pose, HD)
    cam = frame.camera
    plain = VisionPipeline(floor, config).process(frame.grey, 0.0)
    calib = CameraCalibration(cam.K, cam.dist, HD)
    corrected = VisionPipeline(floor, config, calib).process(frame.grey, 0.0)
    assert corrected.registration.rms_mm < 0.5
    assert corrected.registration.rms_mm < plain.registration.rms_mm / 3


def test_watch_prints_moves_from_a_video(renderer, scene, tmp_path, capsys):
    path = tmp_path / "game.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, HD)
    moved = renderer.render(scene.moved("byte", "F7"), POSE, HD).image
    for image in [renderer.render(scene, POSE, HD).image] * 6 + [moved] * 6:
        writer.write(image)
    writer.release()
    assert main(["watch", str(path), "--floor", "meridian-lobby"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    moves = [line for line in lines if line["type"] == "unit_sighted"]
    assert len([m for m in moves if m["from"] is None]) == len(scene.placements)
    assert [m["text"] for m in moves if m["from"] is not None] == ["unit byte moved from H3 to F7"]
    assert lines[-1]["type"] == "observation" and lines[-1]["units"]["byte"]["space"] == "F7"


def test_watch_reports_a_blurred_view_and_when_it_is_sharp_again(renderer, scene, tmp_path, capsys):
    from vision.synth import Conditions
    path = tmp_path / "shaken.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, HD)
    sharp = renderer.render(scene, POSE, HD).image
    shaken = renderer.render(scene, POSE, HD, Conditions(blur_px=6.0)).image
    for image in [sharp] * 3 + [shaken] * 3 + [sharp] * 2:
        writer.write(image)
    writer.release()
    assert main(["watch", str(path), "--floor", "meridian-lobby"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    views = [line for line in lines if line["type"] == "view"]
    assert [v["blurred"] for v in views] == [True, False]
    assert "blurred" in views[0]["text"] and views[0]["ratio"] < 0.8
    assert lines[-1]["view"]["blurred"] is False


def test_watch_a_camera_that_is_not_there(capsys):
    assert main(["watch", "/dev/video99", "--floor", "meridian-lobby"]) == 2
    assert "cannot open camera /dev/video99" in capsys.readouterr().err


def test_detect_on_many_copies_of_one_registration_marker_says_so(tmp_path, capsys):
    """A sheet of twelve marker-0 stickers is not a table of this project, and the error says what was seen."""
    from vision.config import VisionConfig
    from vision.synth.board import marker_image
    sheet = np.full((1080, 1920), 235, np.uint8)
    tile = cv2.copyMakeBorder(marker_image(VisionConfig(), 0, 60), 15, 15, 15, 15, cv2.BORDER_CONSTANT, value=255)
    for k in range(12):
        y, x = 150 + (k // 4) * 250, 200 + (k % 4) * 400
        sheet[y:y + 90, x:x + 90] = tile
    path = tmp_path / "sheet.png"
    cv2.imwrite(str(path), sheet)
    assert main(["detect", str(path), "--floor", "meridian-lobby"]) == 2
    err = capsys.readouterr().err
    assert "saw 12 copies of marker 0 (top-left)" in err and "not a table of this project" in err
    assert "(0 of 8)" in err and len(err.strip().splitlines()) == 1
