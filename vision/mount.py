"""The camera mount, computed from a floor's real size: which heights and tilts see the whole board.

A mount fits a floor when the grid and its eight registration markers (`TableLayout.extent_mm`) stay
`EDGE_PX` inside the frame even after the camera is knocked by `KNOCK_DEG` about any axis (a bumped
arm, a loose ball head), and when the smallest chip sticker is still as large in the image as the
dictionary needs (`VisionConfig.needed_marker_px`). Too low and a corner marker leaves the frame; too high
and the far stickers shrink below what can be read. Between the two is the height range a person can
mount at. The camera model is the synthetic renderer's (`VirtualCamera`): a pinhole aimed at the board's
centre, the board's long side along the frame's long side. Lens distortion is left out: the Camera
Module 3's is small, and calibration corrects it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vision.config import VisionConfig
from vision.synth.camera import CameraPose, VirtualCamera
from vision.table_layout import TableLayout

KNOCK_DEG = 3.0   # the camera may turn this far on its mount, about any axis, and still see every marker
EDGE_PX = 10.0    # and the board's extent must then stay this far inside the frame
TILTS = (0.0, 5.0, 10.0, 15.0, 20.0, 25.0, 30.0, 35.0)


@dataclass(frozen=True)
class Lens:
    name: str
    hfov_deg: float  # horizontal field of view at the capture size

    @classmethod
    def from_focal(cls, focal_mm: float, sensor_width_mm: float) -> Lens:
        """A lens given as focal length on a sensor of this width (the capture mode must use the whole width)."""
        hfov = math.degrees(2 * math.atan(sensor_width_mm / (2 * focal_mm)))
        return cls(f"{focal_mm:g} mm lens on a {sensor_width_mm:g} mm wide sensor", hfov)


# Published horizontal fields of view; the Camera Module 3's 66 degrees are what docs/vision.md assumes.
LENSES: dict[str, Lens] = {
    "module3": Lens("Raspberry Pi Camera Module 3, standard lens", 66.0),
    "module3-wide": Lens("Raspberry Pi Camera Module 3 Wide", 102.0),
    "hq-6mm": Lens.from_focal(6.0, 6.287),  # HQ Camera (IMX477) with the 6 mm CS-mount lens
}


@dataclass(frozen=True)
class Mount:
    lens: Lens
    size: tuple[int, int]   # capture width, height in px
    height_mm: float        # lens above the table
    tilt_deg: float = 0.0   # optical axis from straight down, aimed at the board's centre

    @property
    def distance_mm(self) -> float:
        return self.height_mm / math.cos(math.radians(self.tilt_deg))


@dataclass(frozen=True)
class MountCheck:
    fits: bool
    edge_px: float                      # worst clearance to the frame's edge over every knock; < 0 is out of view
    marker_px: tuple[float, float]      # smallest and largest chip sticker side in the image
    needed_px: float
    reason: str | None                  # why it does not fit, in words


@dataclass(frozen=True)
class HeightRange:
    tilt_deg: float
    lowest_mm: float | None    # the lowest height at which the board stays in view; None: no height works
    highest_mm: float | None   # the highest at which the far stickers are still large enough
    marker_px: tuple[float, float] = (0.0, 0.0)  # sticker sizes at the lowest height


# The mount the docs give (hardware/camera/mount.md): straight down, 1.45 m above the table, the middle of
# the 1.34-1.55 m that fits every shipped floor (`burncycle-table camera-mount`).
DOCUMENTED_MOUNT = Mount(LENSES["module3"], (1920, 1080), 1450.0, 0.0)


def _knocks() -> list[np.ndarray]:
    """Rotations of the camera on its mount: none, and KNOCK_DEG either way about each of its three axes."""
    out = [np.eye(3)]
    a = math.radians(KNOCK_DEG)
    for axis in range(3):
        for sign in (1, -1):
            c, s = math.cos(a), sign * math.sin(a)
            i, j = [k for k in range(3) if k != axis]
            q = np.eye(3)
            q[i, i], q[i, j], q[j, i], q[j, j] = c, -s, s, c
            out.append(q)
    return out


KNOCKS = _knocks()


def _camera(layout: TableLayout, mount: Mount, azimuth_deg: float) -> VirtualCamera:
    roll = 0.0 if layout.width_mm >= layout.height_mm else 90.0
    pose = CameraPose(mount.tilt_deg, azimuth_deg, roll, hfov_deg=mount.lens.hfov_deg, distance_mm=mount.distance_mm)
    return VirtualCamera(pose, layout.extent_mm(), mount.size)


def _edge_px(cam: VirtualCamera, layout: TableLayout) -> float:
    x0, y0, x1, y1 = layout.extent_mm()
    world = np.array([[x0, y0, 0.0], [x1, y0, 0.0], [x1, y1, 0.0], [x0, y1, 0.0]])
    rel = (world - cam.centre_mm(cam.distance_mm)).T
    w, h = cam.size
    worst = math.inf
    for q in KNOCKS:
        p = cam.K @ (q @ cam.rotation @ rel)
        if np.any(p[2] <= 0):
            return -math.inf
        px = p[:2] / p[2]
        worst = min(worst, float(np.min([px[0], w - px[0], px[1], h - px[1]])))
    return worst


def _marker_px(cam: VirtualCamera, layout: TableLayout, marker_mm: float) -> tuple[float, float]:
    """Sticker side in px at the grid's corner spaces and centre: perspective makes those the extremes."""
    sides = []
    for r, c in ((0, 0), (0, layout.cols - 1), (layout.rows - 1, 0), (layout.rows - 1, layout.cols - 1),
                 (layout.rows // 2, layout.cols // 2)):
        x, y = layout.space_centre(r, c)
        h = marker_mm / 2
        px = cam.project(np.array([[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h]]))
        sides.append(float(np.mean(np.linalg.norm(px - np.roll(px, 1, axis=0), axis=1))))
    return min(sides), max(sides)


def check_mount(layout: TableLayout, mount: Mount, config: VisionConfig) -> MountCheck:
    """Whether this mount sees the whole board, knocked or not, with stickers large enough: leaning from any side."""
    needed = config.needed_marker_px
    edge, small, large = math.inf, math.inf, 0.0
    for azimuth in (0.0, 90.0):  # leaning from a short side or a long side (the other two are mirror images)
        cam = _camera(layout, mount, azimuth)
        edge = min(edge, _edge_px(cam, layout))
        lo, hi = _marker_px(cam, layout, config.board.marker_mm)
        small, large = min(small, lo), max(large, hi)
    reason = None
    if edge < EDGE_PX:
        reason = (f"a registration marker leaves the frame when the camera turns {KNOCK_DEG:g} degrees "
                  f"({edge:.0f} px to the edge, {EDGE_PX:g} needed): mount it higher")
    elif small < needed:
        reason = (f"the farthest stickers are {small:.1f} px, {needed:.0f} px needed for {config.dictionary}: "
                  "mount it lower, tilt it less or use a narrower lens")
    return MountCheck(reason is None, edge, (small, large), needed, reason)


def height_range(layout: TableLayout, lens: Lens, size: tuple[int, int], tilt_deg: float,
                 config: VisionConfig) -> HeightRange:
    """The heights at which a camera with this lens and tilt fits the board, found by bisection.

    The board's clearance to the frame grows with height and the stickers shrink, so the lowest height is
    where the clearance reaches EDGE_PX and the highest where the farthest sticker reaches the needed size.
    """
    def mount(h: float) -> Mount:
        return Mount(lens, size, h, tilt_deg)

    def in_view(h: float) -> bool:
        return check_mount(layout, mount(h), config).edge_px >= EDGE_PX

    lo, hi = 100.0, 20000.0
    if not in_view(hi):
        return HeightRange(tilt_deg, None, None)
    for _ in range(40):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if in_view(mid) else (mid, hi)
    lowest = hi
    at_lowest = check_mount(layout, mount(lowest), config)
    if at_lowest.marker_px[0] < config.needed_marker_px:
        return HeightRange(tilt_deg, lowest, None, at_lowest.marker_px)
    lo, hi = lowest, 20000.0
    for _ in range(40):
        mid = (lo + hi) / 2
        small = check_mount(layout, mount(mid), config).marker_px[0]
        lo, hi = (mid, hi) if small >= config.needed_marker_px else (lo, mid)
    return HeightRange(tilt_deg, lowest, lo, at_lowest.marker_px)
