"""The camera view and the calibration flow on a real TableService whose camera is the demo's: the rendered
table filmed by DemoCamera (or a rendered frame with markers covered) goes through the real vision code. The
pictures need the PIN; the markers found and missing are named with where to look; a confirmed registration is
saved beside the game log, used at once, and read again by the next start, which then registers the board
although every marker is covered."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

from controller.cli.compose import build
from controller.rules import compile_floor
from controller.service.demo.booth import DEMO_CONDITIONS, DEMO_POSE, DemoCamera, DemoTable
from controller.service.frame.config import ServiceConfig
from controller.service.table import TableService
from tests.support.net import free_port
from tests.support.web_helpers import ORIGIN, PIN
from vision.config import VisionConfig
from vision.sources.base import Frame, FrameSource
from vision.status import Status
from vision.synth import Renderer
from vision.synth.scene import scene_from_state
from vision.table_layout import TableLayout

SIZE = (960, 540)


class StillCamera(FrameSource):
    """A camera over one rendered picture (with some of its markers covered)."""

    name = "still camera"

    def __init__(self, grey: np.ndarray) -> None:
        super().__init__()
        self.grey, self.index = grey, 0

    def _open(self) -> Status:
        return Status("ok", "ok", "still camera running")

    def _read(self, timeout: float) -> Frame | Status:
        time.sleep(0.02)
        self.index += 1
        return Frame(self.grey, time.monotonic(), self.index)

    def _close(self) -> None:
        pass


def config(folder: Path) -> ServiceConfig:
    return ServiceConfig(database={"path": folder / "games.sqlite3"},  # type: ignore[arg-type]
                         web={"host": "127.0.0.1", "port": free_port()}, camera={"source": "none"})  # type: ignore[arg-type]


@contextmanager
def camera_table(folder: Path, source: Callable[[TableService], FrameSource]) -> Iterator[TableService]:
    """A running table service whose camera is `source(service)`, once its first frames went through vision."""
    holder: list[TableService] = []
    service = build(config(folder), seed=5, source=lambda: source(holder[0]))
    holder.append(service)
    thread = threading.Thread(target=lambda: asyncio.run(service.run()), daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while service._camera is None or service._camera.frames < 3:
            assert time.monotonic() < deadline, "the camera gave no frames within 30 s"
            time.sleep(0.02)
        yield service
    finally:
        service.stop()
        thread.join(15)
        service.close()


def demo_camera(service: TableService) -> FrameSource:
    table = DemoTable()
    table.lay_out(service.record)
    return DemoCamera(table, size=SIZE, fps=30)


def covered(service: TableService, markers: list[int]) -> FrameSource:
    """The demo's picture of the table, rendered, with a grey card over each of `markers`."""
    state, vision = service.state, VisionConfig()
    floor = compile_floor(state.floor.text, state.floor.name)
    shot = Renderer(floor, vision).render(scene_from_state(state, vision), DEMO_POSE, SIZE, DEMO_CONDITIONS)
    grey = shot.grey.copy()
    layout = TableLayout.for_floor(floor, vision.board)
    for i in markers:
        corners = shot.camera.project(layout.anchor_corners(i))
        centre = corners.mean(axis=0)
        cv2.fillConvexPoly(grey, ((corners - centre) * 1.6 + centre).round().astype(np.int32), 95)
    return StillCamera(grey)


def clients(service: TableService) -> tuple[TestClient, TestClient]:
    from web import create_app

    app = create_app(service, pin=PIN)
    player = TestClient(app, headers={"Origin": ORIGIN})
    assert player.post("/api/session", json={"pin": PIN}).status_code == 200
    return TestClient(app), player


def test_the_frame_shows_the_overlay_and_needs_the_pin(tmp_path: Path) -> None:
    with camera_table(tmp_path, demo_camera) as service:
        anyone, player = clients(service)
        refused = anyone.get("/api/camera/frame.jpg")
        assert refused.status_code == 401 and refused.json()["error"] == "pin_required"
        reply = player.get("/api/camera/frame.jpg")
        assert reply.status_code == 200 and reply.headers["content-type"] == "image/jpeg"
        picture = cv2.imdecode(np.frombuffer(reply.content, np.uint8), cv2.IMREAD_COLOR)
        assert picture.shape == (SIZE[1], SIZE[0], 3)
        b, g, r = (picture[..., i].astype(int) for i in range(3))
        assert np.count_nonzero((b - r > 80) & (g - r > 60)) > 500  # the cyan grid vision laid over the table
        status = anyone.get("/api/camera/status").json()
        assert status["configured"] and status["frames"] >= 3 and status["source"] == "demo camera"
        assert status["picture"]["status"]["level"] == "ok" and len(status["picture"]["markers_seen"]) == 8
        assert status["picture"]["width"] == SIZE[0] and status["confirmed"] is None


def test_a_table_without_a_camera_says_so(player: TestClient) -> None:
    for reply in (player.get("/api/camera/frame.jpg"), player.post("/api/calibration/find"),
                  player.get("/api/camera/mat.jpg?cols=3&rows=2")):
        assert reply.status_code == 404
        assert reply.json() == {"error": "no_camera", "message": "this table has no camera: set camera.source in "
                                                                 "table.toml (docs/service.md)"}
    assert player.get("/api/camera/status").json() == {"configured": False}
    assert player.get("/camera").status_code == 200


def test_every_marker_is_found_in_the_demos_picture(tmp_path: Path) -> None:
    with camera_table(tmp_path, demo_camera) as service:
        anyone, player = clients(service)
        assert anyone.post("/api/calibration/find").status_code == 401
        elsewhere = player.post("/api/calibration/find", headers={"Origin": "http://evil.example"})
        assert elsewhere.status_code == 403 and elsewhere.json()["error"] == "bad_origin"
        found = player.post("/api/calibration/find").json()
        assert found["registered"] and found["missing"] == [] and found["rms_mm"] < 3
        assert [m["name"] for m in found["found"]] == ["top-left", "top-right", "bottom-right", "bottom-left", "top",
                                                       "right", "bottom", "left"]
        overlay = player.get(found["overlay"])
        assert overlay.status_code == 200 and overlay.headers["content-type"] == "image/jpeg"
        floor = service.state.floor
        mat = player.get("/api/camera/mat.jpg", params={"cols": found["cols"], "rows": found["rows"]})
        assert mat.status_code == 200, mat.text
        top_down = cv2.imdecode(np.frombuffer(mat.content, np.uint8), cv2.IMREAD_GRAYSCALE)
        pitch = VisionConfig().board.space_mm
        assert top_down.shape == (round(found["rows"] * pitch * 1.5), round(found["cols"] * pitch * 1.5)), floor.name
        wrong = player.get("/api/camera/mat.jpg", params={"cols": 3, "rows": 2})
        assert wrong.status_code == 404 and "board of 3 x 2 spaces is not found" in wrong.json()["message"]


def test_a_covered_marker_is_named_with_where_to_look(tmp_path: Path) -> None:
    with camera_table(tmp_path, lambda s: covered(s, [0])) as service:
        _, player = clients(service)
        found = player.post("/api/calibration/find").json()
        assert found["registered"] and len(found["found"]) == 7
        (missing,) = found["missing"]
        assert missing["name"] == "top-left"
        assert missing["advice"].startswith("the board's top-left corner (beside space A1) is in the picture but its "
                                            "marker is not seen there")
        state, vision = service.state, VisionConfig()
        floor = compile_floor(state.floor.text, state.floor.name)
        shot = Renderer(floor, vision).render(scene_from_state(state, vision), DEMO_POSE, SIZE, DEMO_CONDITIONS)
        truth = shot.camera.project(TableLayout.for_floor(floor, vision.board).anchor_corners(0)).mean(axis=0)
        assert np.linalg.norm(np.array(missing["expected"]) - truth) < 5  # the red cross is where the marker is


def test_too_few_markers_say_where_each_belongs(tmp_path: Path) -> None:
    with camera_table(tmp_path, lambda s: covered(s, [0, 1, 2, 3, 4, 5])) as service:
        _, player = clients(service)
        found = player.post("/api/calibration/find").json()
        assert not found["registered"] and found["status"]["code"] == "too_few_anchors"
        advice = {m["name"]: m["advice"] for m in found["missing"]}
        assert set(advice) == {"top-left", "top-right", "bottom-right", "bottom-left", "top", "right"}
        floor = compile_floor(service.state.floor.text)
        middle = f"{chr(ord('A') + floor.cols // 2)}1"  # the space the top side's middle marker is beside
        assert advice["top"] == (f"look at the middle of the board's top side (beside space {middle}), just outside "
                                 "the grid: the marker must be stuck down there, uncovered and in the camera's view")
        refused = player.post("/api/calibration/confirm")
        assert refused.status_code == 409 and "do not register the board" in refused.json()["message"]
        assert not (tmp_path / "registration.json").exists()


def test_a_confirmed_registration_is_saved_and_read_at_the_next_start(tmp_path: Path) -> None:
    with camera_table(tmp_path, demo_camera) as service:
        anyone, player = clients(service)
        early = player.post("/api/calibration/confirm")
        assert early.status_code == 409 and "find the markers first" in early.json()["message"]
        player.post("/api/calibration/find")
        assert anyone.post("/api/calibration/confirm").status_code == 401
        saved = player.post("/api/calibration/confirm")
        assert saved.status_code == 200 and saved.json()["markers"] == ["top-left", "top-right", "bottom-right",
                                                                        "bottom-left", "top", "right", "bottom", "left"]
        assert (tmp_path / "registration.json").exists()
        assert anyone.get("/api/camera/status").json()["confirmed"]["in_use"] is True
    # the next start: every marker covered (a hand, a coffee cup...), but the confirmed registration holds
    with camera_table(tmp_path, lambda s: covered(s, list(range(8)))) as service:
        status = service._camera.view() if service._camera is not None else {}
        assert status["confirmed"]["in_use"] is True
        picture = status["picture"]
        assert picture["markers_seen"] == [] and picture["status"]["code"] == "registration_confirmed"
        assert picture["units_seen"] > 0  # the chips are still read, on the confirmed grid


def test_without_a_confirmed_registration_covered_markers_leave_the_board_unregistered(tmp_path: Path) -> None:
    """The test above, before the fix: the same covered picture, nothing saved."""
    with camera_table(tmp_path, lambda s: covered(s, list(range(8)))) as service:
        status = service._camera.view() if service._camera is not None else {}
        assert status["confirmed"] is None
        assert status["picture"]["status"]["code"] == "no_play_area" and status["picture"]["units_seen"] == 0


@pytest.mark.parametrize("text", ["not json", '{"homography": [[1, 0], [0, 1]]}'])
def test_a_damaged_saved_registration_is_said_and_the_camera_still_runs(tmp_path: Path, text: str) -> None:
    (tmp_path / "registration.json").write_text(text)
    with camera_table(tmp_path, demo_camera) as service:
        status = service._camera.view() if service._camera is not None else {}
        assert status["confirmed"] is None
        assert status["confirmed_problem"].startswith(f"{tmp_path / 'registration.json'}: not a registration saved "
                                                      "by the calibration flow")
        assert status["picture"]["status"]["level"] == "ok"
