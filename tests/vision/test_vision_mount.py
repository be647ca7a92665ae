"""The camera mount: computed from the shipped floors' real sizes, and checked on frames rendered from it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from controller.cli import main
from controller.library import load_content, load_floor
from tests.support.vision_helpers import HD, rng
from vision.config import FilterSettings, VisionConfig
from vision.mount import DOCUMENTED_MOUNT, LENSES, Mount, check_mount, height_range
from vision.pipeline import VisionPipeline
from vision.synth import CameraPose, Renderer, random_scene
from vision.table_layout import TableLayout

SHIPPED = sorted(load_content().floors)
CONFIG = VisionConfig()


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_floor_fits_the_documented_mount(name):
    layout = TableLayout.for_floor(load_floor(name), CONFIG.board)
    check = check_mount(layout, DOCUMENTED_MOUNT, CONFIG)
    assert check.fits, check.reason
    r = height_range(layout, DOCUMENTED_MOUNT.lens, DOCUMENTED_MOUNT.size, DOCUMENTED_MOUNT.tilt_deg, CONFIG)
    assert r.lowest_mm + 50 <= DOCUMENTED_MOUNT.height_mm <= r.highest_mm - 50  # 5 cm of margin both ways


@pytest.mark.parametrize("name", SHIPPED)
@pytest.mark.parametrize("roll", [-2.0, 2.0])
def test_the_documented_mount_turned_two_degrees_still_sees_every_marker(name, roll):
    """Rendered at the documented height, the camera turned 2 degrees on its mount: all 8 markers, every chip."""
    floor = load_floor(name)
    g = rng(11)
    scene = random_scene(floor, CONFIG, g)
    pose = CameraPose(tilt_deg=0.0, roll_deg=roll, hfov_deg=DOCUMENTED_MOUNT.lens.hfov_deg,
                      distance_mm=DOCUMENTED_MOUNT.distance_mm)
    frame = Renderer(floor, CONFIG).render(scene, pose, DOCUMENTED_MOUNT.size)
    pipeline = VisionPipeline(floor, replace(CONFIG, filter=FilterSettings(confirm_frames=1, confirm_seconds=0.0)))
    result = pipeline.process(frame.grey, 0.0)
    assert len(result.reading.anchors_seen) == 8, result.reading.status.message
    assert {u: s for u, (s, _) in result.observation.placed().items()} == {p.unit: p.space for p in scene.placements}


def test_the_old_mounts_lose_markers():
    """1.10 m straight down leaves the lobby's markers a few px from the edge; 35 degrees at 0.9 m cuts them off."""
    lobby = TableLayout.for_floor(load_floor("meridian-lobby"), CONFIG.board)
    for mount in (Mount(LENSES["module3"], HD, 1100.0, 0.0), Mount(LENSES["module3"], HD, 900.0, 35.0)):
        check = check_mount(lobby, mount, CONFIG)
        assert not check.fits and "leaves the frame" in check.reason


def test_a_steep_tilt_has_no_height_for_the_lobby():
    lobby = TableLayout.for_floor(load_floor("meridian-lobby"), CONFIG.board)
    r = height_range(lobby, LENSES["module3"], HD, 35.0, CONFIG)
    assert r.lowest_mm is not None and r.highest_mm is None and r.marker_px[0] < CONFIG.needed_marker_px


def test_camera_mount_command(capsys):
    assert main(["camera-mount", "--floor", "meridian-annex", "--floor", "meridian-lobby"]) == 0
    out = capsys.readouterr().out
    assert "Meridian Tower, Lobby: 20 x 16 spaces, 984 x 804 mm" in out
    assert "tilt  0.0 deg: 1.34-1.55 m; mount at 1.45 m" in out
    assert "tilt 35.0 deg: no height fits them all" in out
    assert main(["camera-mount", "--floor", "meridian-annex", "--focal-mm", "6", "--sensor-width-mm", "6.287"]) == 0
    assert "6 mm lens on a 6.287 mm wide sensor" in capsys.readouterr().out


@pytest.mark.parametrize("argv, expect", [
    (["--size", "1920by1080"], "--size 1920by1080: give the capture size as WIDTHxHEIGHT"),
    (["--focal-mm", "4"], "give both --focal-mm and --sensor-width-mm"),
    (["--floor", "nowhere"], "nowhere"),
])
def test_camera_mount_bad_input_is_one_line(argv, expect, capsys):
    assert main(["camera-mount", *argv]) == 2
    err = capsys.readouterr().err
    assert expect in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
