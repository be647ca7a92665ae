"""The camera as the dashboard shows it, and the calibration flow: the newest picture with what vision made of
it, the board found in it (its grid laid over for a person to confirm), and the confirmed registration kept.
A table without a camera answers each of these with `NoCamera`, and its status with `configured: false`."""

from __future__ import annotations

import msgspec

from controller.service import views
from controller.service.camera.component import CameraComponent, CameraError


class NoCamera(CameraError):
    """This table has no camera, so there is no picture to show and no board to calibrate."""

    code = "no_camera"


class Calibration:
    """The camera's pictures and the calibration's steps, for the table's faces."""

    def __init__(self, camera: CameraComponent | None) -> None:
        self._camera = camera

    def status(self) -> views.CameraState:
        """The camera's health, frames a second and what the newest frame shows."""
        if self._camera is None:
            return views.CameraState(configured=False)
        return msgspec.convert({"configured": True, **self._camera.view()}, views.CameraState)

    def picture(self) -> bytes:
        """The newest frame with what vision made of it drawn over, as JPEG (`NoPicture` before the first)."""
        return self._present().overlay_jpeg()

    def mat(self, rows: int, cols: int) -> bytes:
        """The newest frame straightened onto a grid of rows x cols spaces: the floor editor's backdrop."""
        return self._present().mat_jpeg(rows, cols)

    def find(self) -> views.BoardFound:
        """First step: the registration markers in the newest frame, and the grid they give."""
        camera = self._present()
        finding = camera.find()
        return views.board_found(finding, camera.newest()[2].config.anchor_ids, camera.frames)

    def finding_picture(self) -> bytes:
        """The last finding's picture: markers found and missing, the grid laid over, as JPEG."""
        return self._present().finding_jpeg()

    def confirm(self) -> views.BoardConfirmed:
        """Last step: keep the last finding's registration (a person saw its grid lie right), used whenever the
        markers are covered, at this start and every later one."""
        return views.board_confirmed(self._present().confirm())

    def _present(self) -> CameraComponent:
        if self._camera is None:
            raise NoCamera("this table has no camera: set camera.source in table.toml (docs/service.md)")
        return self._camera
