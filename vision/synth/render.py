"""Rendering a camera frame of a scene, with its ground truth.

Board (top-down, drawn once per floor) -> downscaled to a little above the camera's own resolution (so
warping does not alias) -> one remap through the homography and the lens distortion -> hands -> light,
glare, blur, noise, JPEG.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from controller.rules.board.geometry import Floor
from vision.config import VisionConfig
from vision.synth.board import BoardRenderer, marker_cells
from vision.synth.camera import CameraPose, VirtualCamera
from vision.synth.effects import Conditions, Hand, apply_conditions, draw_hands
from vision.synth.scene import Scene
from vision.table_layout import TableLayout


@dataclass(frozen=True)
class TruthUnit:
    space: str
    facing: str
    visible: bool                    # whole sticker in frame and uncovered
    image_px: tuple[float, float]
    marker_px: float                 # side of the black marker square in the image


@dataclass(frozen=True)
class SynthFrame:
    image: np.ndarray                # BGR, or one grey channel when rendered grey
    units: dict[str, TruthUnit]
    camera: VirtualCamera

    @property
    def grey(self) -> np.ndarray:
        return self.image if self.image.ndim == 2 else cv2.cvtColor(self.image, cv2.COLOR_BGR2GRAY)


class Renderer:
    def __init__(self, floor: Floor, config: VisionConfig | None = None, board_px_per_mm: float = 3.0) -> None:
        self.config = config or VisionConfig()
        self.floor = floor
        self.board = BoardRenderer(floor, self.config, board_px_per_mm)
        self.layout = TableLayout.for_floor(floor, self.config.board)
        self._last_view: tuple[tuple[CameraPose, tuple[int, int]],
                               tuple[VirtualCamera, float, tuple[np.ndarray, ...]]] | None = None

    def camera(self, pose: CameraPose, size: tuple[int, int]) -> VirtualCamera:
        return VirtualCamera(pose, self.layout.extent_mm(), size)

    def render(self, scene: Scene, pose: CameraPose = CameraPose(), size: tuple[int, int] = (1920, 1080),
               conditions: Conditions = Conditions(), hands: tuple[Hand, ...] = (),
               rng: np.random.Generator | None = None, grey: bool = False) -> SynthFrame:
        """A camera frame of `scene`. `grey`: the frame as a grey camera sees it (what the vision reads), made
        grey before the light, blur and noise: a third of the memory of a colour frame (at 1920 x 1080 the
        colour frame's float copies peak near 100 MB, which the demo's camera paid at every move)."""
        rng = rng if rng is not None else np.random.default_rng(0)
        cam, scale, maps = self._view(pose, size)
        top = self.board.render(scene)
        if scale < 1.0:
            top = cv2.resize(top, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        if grey and not hands:  # the hands are drawn in colour; without them, warp one channel only
            top = cv2.cvtColor(top, cv2.COLOR_BGR2GRAY)
        img = cv2.remap(top, maps[0], maps[1], cv2.INTER_LINEAR, borderValue=_border(top.ndim))
        mask = draw_hands(img, hands) if hands else None
        if grey and img.ndim == 3:
            img = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        img = apply_conditions(img, conditions, rng)
        return SynthFrame(img, self._truth(scene, cam, mask), cam)

    def _view(self, pose: CameraPose, size: tuple[int, int]) -> tuple[VirtualCamera, float, tuple[np.ndarray, ...]]:
        """Camera, board downscale and remap tables for a pose; a sequence from a fixed camera reuses them."""
        if self._last_view is not None and self._last_view[0] == (pose, size):
            return self._last_view[1]
        cam = self.camera(pose, size)
        # render the board at 1.5x the camera's finest scale: enough detail, no aliasing when warping
        scale = min(1.0, 1.5 * cam.px_per_mm() / self.board.ppm)
        view = (cam, scale, view_maps(cam, np.diag([scale, scale, 1.0]) @ self.board.mm_to_px_matrix()))
        self._last_view = ((pose, size), view)
        return view

    def _truth(self, scene: Scene, cam: VirtualCamera, mask: np.ndarray | None) -> dict[str, TruthUnit]:
        out = {}
        cells = marker_cells(self.config)
        half = self.config.board.marker_mm * 0.5 * (cells + 2) / cells  # sticker edge: one cell of quiet zone
        w, h = cam.size
        for pl in scene.placements:
            r, c = self.floor.coords[self.floor.index[pl.space]]
            x, y = self.layout.space_centre(r, c)
            x, y = x + pl.offset_mm[0], y + pl.offset_mm[1]
            box = np.array([[x - half, y - half], [x + half, y - half], [x + half, y + half], [x - half, y + half],
                            [x, y]])
            px = cam.project(box)
            inside = bool(np.all((px[:, 0] >= 2) & (px[:, 0] < w - 2) & (px[:, 1] >= 2) & (px[:, 1] < h - 2)))
            covered = False
            if inside and mask is not None:
                x0, y0 = np.floor(px[:4].min(axis=0)).astype(int)
                x1, y1 = np.ceil(px[:4].max(axis=0)).astype(int) + 1
                poly = np.zeros((y1 - y0, x1 - x0), np.uint8)
                cv2.fillConvexPoly(poly, (px[:4] - (x0, y0)).round().astype(np.int32), 255)
                covered = bool(np.any(mask[y0:y1, x0:x1][poly > 0]))
            side = float(np.mean(np.linalg.norm(px[:4] - np.roll(px[:4], 1, axis=0), axis=1))) * cells / (cells + 2)
            out[pl.unit] = TruthUnit(pl.space, pl.facing, inside and not covered, (float(px[4, 0]), float(px[4, 1])),
                                     side)
        return out


BORDER = (60, 70, 80)  # the table around the mat, BGR


def _border(channels: int) -> tuple[float, ...]:
    """The table's colour for a colour frame, or its grey for a grey one."""
    if channels == 3:
        return BORDER
    grey = cv2.cvtColor(np.array([[BORDER]], np.uint8), cv2.COLOR_BGR2GRAY)[0, 0]
    return (float(grey),)


def view_maps(cam: VirtualCamera, mm_to_px: np.ndarray) -> tuple[np.ndarray, ...]:
    """cv2.remap tables that film a flat picture (table mm -> its px by `mm_to_px`) through `cam`."""
    grid = cam.ideal_grid()
    maps = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), mm_to_px @ np.linalg.inv(cam.H)).reshape(grid.shape)
    return cv2.convertMaps(maps[..., 0], maps[..., 1], cv2.CV_16SC2)
