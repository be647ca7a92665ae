"""The camera's view and the calibration flow: the newest picture with what vision made of it, and the board
found in it, its grid laid over the picture for a person to confirm. The pictures show the players, so they
need the table's PIN (`Watcher`); saving the registration changes the table (`Player`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Depends, Query
from fastapi.responses import FileResponse, Response

from controller.service.views import BoardConfirmed, BoardFound, CameraState
from web.auth import Player, Watcher, check_origin
from web.contract import ViewResponse, refuses, returns
from web.deps import Service
from web.routers.page import page

router = APIRouter(tags=["camera"])
NO_STORE = {"Cache-Control": "no-store"}
JPEG: dict[int | str, dict[str, Any]] = {200: {"content": {"image/jpeg": {}}, "description": "a JPEG picture"},
                                          **refuses(404)}


def _picture(make: Callable[[], bytes]) -> Response:
    """A picture of the camera's (`NoCamera`, `NoPicture` when there is none to give: no frame yet, no board
    found)."""
    return Response(make(), media_type="image/jpeg", headers=NO_STORE)


@router.get("/camera", include_in_schema=False)
def camera_page() -> FileResponse:
    return page("camera")


@router.get("/api/camera/status", summary="The camera: health, frames a second, what the newest frame shows",
            **returns(CameraState))
def status(service: Service) -> ViewResponse:
    return ViewResponse(service.camera_status())


@router.get("/api/camera/frame.jpg", summary="The newest frame with the detection overlay (needs the PIN)",
            response_class=Response, responses=JPEG)
def frame(service: Service, _: Watcher) -> Response:
    return _picture(service.camera_picture)


@router.get("/api/camera/mat.jpg", summary="The newest frame straightened onto a grid of cols x rows spaces by "
            "its registration markers: the floor editor's backdrop (needs the PIN)",
            response_class=Response, responses=JPEG)
def mat(service: Service, _: Watcher, cols: int = Query(ge=1, le=26, examples=[16]),
        rows: int = Query(ge=1, le=26, examples=[16])) -> Response:
    return _picture(lambda: service.mat_picture(rows, cols))


@router.post("/api/calibration/find", summary="Find the registration markers in the newest frame and lay the "
             "grid over it (needs the PIN)", dependencies=[Depends(check_origin)],
             **returns(BoardFound, also=refuses(404)))
def find(service: Service, _: Watcher) -> ViewResponse:
    return ViewResponse(service.find_board())


@router.get("/api/calibration/overlay.jpg", summary="The last finding's picture: markers found and missing, the "
            "grid laid over (needs the PIN)", response_class=Response, responses=JPEG)
def overlay(service: Service, _: Watcher) -> Response:
    return _picture(service.finding_picture)


@router.post("/api/calibration/confirm", summary="Keep the last finding's registration: saved beside the game log "
             "and used when the markers are covered (needs the PIN)", **returns(BoardConfirmed, also=refuses(404, 409)))
def confirm(service: Service, _: Player) -> ViewResponse:
    return ViewResponse(service.confirm_board())  # CameraError: nothing found yet, or it does not register
