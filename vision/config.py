"""What the camera is looking for: marker dictionary, unit roster, board measurements, filter timing.

Everything a venue might change (sticker size, space pitch, which dictionary was printed, how patient the
filter is) lives in one plain value so the detector, the renderer, the printable sheet and the bench all
agree by construction: a marker printed from this config is a marker this config detects.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2

from vision.sticker import sticker_problem

# Dictionaries a venue may print. 4x4_50 is the default: see docs/vision.md for why it suits 15-40 px.
DICTIONARIES: dict[str, int] = {
    "4x4_50": cv2.aruco.DICT_4X4_50,
    "5x5_50": cv2.aruco.DICT_5X5_50,
    "apriltag_36h11": cv2.aruco.DICT_APRILTAG_36h11,
}

# Registration markers: name -> where the marker's centre sits, as a fraction of the grid's width and
# height (0,0 = north-west corner of space A1). They lie just outside the grid, so chips never hide them.
ANCHOR_PLACES: tuple[tuple[str, float, float], ...] = (
    ("top-left", 0.0, 0.0), ("top-right", 1.0, 0.0), ("bottom-right", 1.0, 1.0), ("bottom-left", 0.0, 1.0),
    ("top", 0.5, 0.0), ("right", 1.0, 0.5), ("bottom", 0.5, 1.0), ("left", 0.0, 0.5),
)

# Physical guard chips in the box (name, level, copies), as the content's guards.toml lists them.
GUARD_CHIPS: tuple[tuple[str, int, int], ...] = (
    ("sentry", 1, 2), ("rover", 1, 2), ("tracker", 1, 2),
    ("walker", 2, 2), ("pacer", 2, 2), ("hound", 2, 2), ("sweeper", 2, 2),
    ("enforcer", 3, 2), ("warden", 3, 2), ("marcher", 3, 2),
)
BOTS: tuple[str, ...] = ("module", "byte", "casing", "bit", "memory", "nano")

# Image px one marker cell needs to be read reliably after blur, focus drift and JPEG, per dictionary. 4x4:
# the bench reads 99.9 % from 18 px (3 px a cell), 20 px (3.33 a cell) is the budget kept; 5x5 is held
# to the same per cell. AprilTag 36h11 corrects up to 5 bits, so its cells read smaller: on rendered
# frames 91 % at 12-15 px and 100 % from 16 px (2 px a cell), so 20 px (2.5 a cell) is its budget.
NEEDED_PX_PER_CELL: dict[str, float] = {"4x4_50": 20.0 / 6, "5x5_50": 20.0 / 6, "apriltag_36h11": 2.5}
# Below 1.5 px a cell the bits cannot be sampled at all, so smaller quads are not even candidates.
SMALLEST_PX_PER_CELL = 1.5
SIZE_TOLERANCE = 0.3  # a quad's sides may read 30 % off the expected size (tilt, chip height, blur) and no more


@dataclass(frozen=True)
class UnitSpec:
    """One physical chip that carries a sticker."""

    id: str            # "byte", "module", "hound-2", "captain"
    kind: str          # "bot", "guard" or "captain"
    chip: str          # the chip's printed name: "Byte", "Hound", "Captain"
    level: int = 0     # guard level (1-3), captain 3, bots 0

    @property
    def has_facing(self) -> bool:
        """Only security units face a direction; a bot's marker rotation means nothing."""
        return self.kind != "bot"


def default_units() -> tuple[UnitSpec, ...]:
    """The chips of the base game: the command module, five agents, twenty guard chips, the captain."""
    units = [UnitSpec(b, "bot", b.capitalize() if b != "module" else "Command Module") for b in BOTS]
    for name, level, copies in GUARD_CHIPS:
        units += [UnitSpec(f"{name}-{k}", "guard", name.capitalize(), level) for k in range(1, copies + 1)]
    units.append(UnitSpec("captain", "captain", "Captain", 3))
    return tuple(units)


@dataclass(frozen=True)
class BoardGeometry:
    """Measurements of the table in millimetres (table frame: x east, y south, origin at A1's NW corner)."""

    space_mm: float = 45.0        # pitch of the floor grid
    chip_mm: float = 39.0         # chip diameter
    marker_mm: float = 21.0       # black square of a chip sticker (its outer black border included)
    sticker_mm: float = 38.0      # the sticker: a white disc holding the marker and its quiet zone (vision/sticker.py)
    anchor_mm: float = 30.0       # black square of a registration marker
    anchor_gap_mm: float = 8.0    # white gap between the grid edge and a registration marker

    @property
    def anchor_offset_mm(self) -> float:
        """Distance from the grid edge to a registration marker's centre."""
        return self.anchor_gap_mm + self.anchor_mm / 2


@dataclass(frozen=True)
class FilterSettings:
    """How patient the temporal filter is. A move needs both enough frames and enough time."""

    confirm_frames: int = 5
    confirm_seconds: float = 0.3
    not_seen_seconds: float = 3.0       # report "unit X not seen for N s" after this long
    hold_registration_seconds: float = 30.0  # keep using the last board registration while corners are covered


@dataclass(frozen=True)
class ChangeSettings:
    """Searching only where the picture changed (vision/change.py); docs/vision.md gives the costs."""

    enabled: bool = True
    sample_px: int = 4                  # compare every 4th pixel each way: 1/16 of the frame
    cell_samples: int = 4               # changes are kept per cell of 4 x 4 samples (16 px)
    tile_cells: int = 10                # the search's windows are bands of 10 rows of cells (160 px)
    threshold: int = 24                 # grey levels a sample must move by: 8 times a camera's noise of 2 levels
    settle_seconds: float = 0.15        # a cell is searched this long after it last changed (the picture settles)
    full_search_seconds: float = 5.0    # the whole frame is searched at least this often
    light_change_fraction: float = 0.25  # more of the board than this changed at once: the light or the camera


@dataclass(frozen=True)
class VisionConfig:
    """The whole vision setup. Marker ids 0..len(ANCHOR_PLACES)-1 register the board; the rest are units."""

    dictionary: str = "4x4_50"
    units: tuple[UnitSpec, ...] = field(default_factory=default_units)
    board: BoardGeometry = field(default_factory=BoardGeometry)
    filter: FilterSettings = field(default_factory=FilterSettings)
    change: ChangeSettings = field(default_factory=ChangeSettings)
    min_anchors: int = 3
    # Placement tolerances, as fractions of the space pitch / degrees.
    doubt_offset: float = 0.3        # farther than this from a space's centre -> "between spaces"
    doubt_angle_deg: float = 30.0    # farther than this from N/E/S/W -> "facing unclear"
    # The chip stickers' expected side in the image, farthest to nearest: what the mount gives
    # (`burncycle-table camera-mount` prints it). The default spans the documented straight-down mount
    # (about 23 px) and tilted mounts up to 35 degrees, whose near stickers reach 45 px.
    sticker_px: tuple[float, float] = (12.0, 48.0)

    def __post_init__(self) -> None:
        if self.dictionary not in DICTIONARIES:
            raise ValueError(f"unknown marker dictionary {self.dictionary!r}: use one of {', '.join(DICTIONARIES)}")
        ids = [u.id for u in self.units]
        if len(set(ids)) != len(ids):
            raise ValueError("two units share an id in the vision config")
        if not 0 < self.sticker_px[0] <= self.sticker_px[1]:
            raise ValueError(f"sticker_px {self.sticker_px} must be (smallest, largest) with 0 < smallest <= largest")
        problem = sticker_problem(self)
        if problem is not None:
            raise ValueError(problem)
        capacity = cv2.aruco.getPredefinedDictionary(DICTIONARIES[self.dictionary]).bytesList.shape[0]
        if len(ANCHOR_PLACES) + len(self.units) > capacity:
            raise ValueError(f"dictionary {self.dictionary} has {capacity} markers, the config needs "
                             f"{len(ANCHOR_PLACES) + len(self.units)}")

    @property
    def marker_cells(self) -> int:
        """Cells across a marker, its black border included: 6 for 4x4, 7 for 5x5, 8 for AprilTag 36h11."""
        return cv2.aruco.getPredefinedDictionary(DICTIONARIES[self.dictionary]).markerSize + 2

    @property
    def needed_marker_px(self) -> float:
        """The smallest sticker side (px) this dictionary is read reliably at: the mount must keep stickers above it."""
        return self.marker_cells * NEEDED_PX_PER_CELL[self.dictionary]

    @property
    def min_marker_px(self) -> float:
        """The smallest quad the detector considers: the expected sticker size less the tolerance, never
        below what the dictionary's cells can be sampled at. Smaller quads (a bit blob inside a sticker)
        would otherwise be decoded first and hide the sticker around them."""
        return max(self.marker_cells * SMALLEST_PX_PER_CELL, self.sticker_px[0] * (1 - SIZE_TOLERANCE))

    @property
    def max_marker_px(self) -> float:
        """The largest quad the detector considers: the nearest registration marker, plus the tolerance."""
        return self.sticker_px[1] * self.board.anchor_mm / self.board.marker_mm * (1 + SIZE_TOLERANCE)

    @property
    def anchor_ids(self) -> dict[int, str]:
        return {i: name for i, (name, _, _) in enumerate(ANCHOR_PLACES)}

    @property
    def marker_units(self) -> dict[int, UnitSpec]:
        """Marker id -> unit: units take the ids right after the registration markers, in roster order."""
        first = len(ANCHOR_PLACES)
        return {first + k: u for k, u in enumerate(self.units)}

    def marker_of(self, unit_id: str) -> int:
        for marker, unit in self.marker_units.items():
            if unit.id == unit_id:
                return marker
        raise KeyError(unit_id)
