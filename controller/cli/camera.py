"""Command-line tools for the camera: detect (one photo), watch (a camera), markers (stickers), calibrate-camera,
camera-mount (the heights and tilts that see a floor).

Every problem a person can fix (an unreadable photo, a board out of view, covered corner markers, too few
calibration photos) becomes one UserError line saying what, where and what to do.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from controller.cli import arg_types
from controller.errors import UserError
from controller.library import atomic_output, load_content, load_floor, write_atomically

if TYPE_CHECKING:
    import numpy as np

    from vision.calibration import CameraCalibration
    from vision.mount import Lens
    from vision.sources import FrameSource


def _dictionaries() -> list[str]:
    from vision.config import DICTIONARIES

    return sorted(DICTIONARIES)


def _papers() -> list[str]:
    from vision.printable import PAPERS

    return sorted(PAPERS)


def _lenses() -> list[str]:
    from vision.mount import LENSES

    return sorted(LENSES)


# OpenCV and vision are imported when a camera command runs, not to build the parser: their choices are read late
DICTIONARY = arg_types.LazyChoices(_dictionaries)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("detect", help="read the board from one photo and print the observation as JSON")
    p.add_argument("image", help="a photo or frame of the table (PNG, JPEG, ...)")
    p.add_argument("--floor", required=True, help="a shipped floor's name or a .floor file")
    p.add_argument("--annotate", metavar="OUT.png", help="also draw what was read over the photo")
    p.add_argument("--calibration", metavar="FILE.json", help="lens calibration from calibrate-camera")
    p.add_argument("--dictionary", default="4x4_50", choices=DICTIONARY, metavar="NAME",
                   help="marker dictionary printed: %(choices)s (default %(default)s)")
    p.set_defaults(run=_detect)

    p = sub.add_parser("watch", help="follow a camera and print what moves, one JSON line per event")
    p.add_argument("source", help="camera index (0), /dev/videoN, a video file, rtsp:// or http:// URL, "
                                  "a folder of images, or 'pi' for the Raspberry Pi camera")
    p.add_argument("--floor", required=True, help="a shipped floor's name or a .floor file")
    p.add_argument("--calibration", metavar="FILE.json", help="lens calibration from calibrate-camera")
    p.add_argument("--dictionary", default="4x4_50", choices=DICTIONARY, metavar="NAME",
                   help="marker dictionary: %(choices)s (default %(default)s)")
    p.add_argument("--frames", type=arg_types.positive,
                   help="stop after this many frames (default: until the source ends)")
    p.add_argument("--retry-seconds", type=arg_types.seconds, default=2.0,
                   help="wait between attempts to reopen a lost camera")
    p.set_defaults(run=_watch)

    p = sub.add_parser("markers", help="write the printable chip stickers and registration markers (PDF)")
    p.add_argument("--out", required=True, metavar="FILE.pdf")
    p.add_argument("--paper", default="a4", choices=arg_types.LazyChoices(_papers), metavar="SIZE",
                   help="%(choices)s (default %(default)s)")
    p.add_argument("--dictionary", default="4x4_50", choices=DICTIONARY, metavar="NAME",
                   help="marker dictionary: %(choices)s (default %(default)s)")
    p.set_defaults(run=_markers)

    p = sub.add_parser("camera-mount", help="the heights and tilts at which a camera sees a whole floor")
    p.add_argument("--floor", action="append", help="a shipped floor's name or a .floor file (repeat for several; "
                                                     "default: every shipped floor)")
    p.add_argument("--lens", default="module3", choices=arg_types.LazyChoices(_lenses), metavar="NAME",
                   help="a known camera and lens: %(choices)s (default %(default)s)")
    p.add_argument("--focal-mm", type=float, help="another lens: its focal length (with --sensor-width-mm)")
    p.add_argument("--sensor-width-mm", type=float, help="the width of the sensor area the capture mode uses")
    p.add_argument("--size", default="1920x1080", help="capture size WIDTHxHEIGHT in px")
    p.add_argument("--dictionary", default="4x4_50", choices=DICTIONARY, metavar="NAME",
                   help="marker dictionary: %(choices)s (default %(default)s)")
    p.set_defaults(run=_camera_mount)

    p = sub.add_parser("calibrate-camera", help="solve the lens from photos of the ChArUco board")
    p.add_argument("images", nargs="*", help="10-20 photos of the printed board from different angles")
    p.add_argument("--out", metavar="FILE.json", help="where to write the calibration")
    p.add_argument("--print-board", metavar="BOARD.png", help="write the ChArUco board to print and stop")
    p.set_defaults(run=_calibrate)


SMALLEST_IMAGE = 16  # pixels on a side: less shows no table, and the vision's scaled copies would have no pixel


@contextlib.contextmanager
def _c_stderr_silenced() -> Iterator[None]:
    """The process's file descriptor 2 pointed at /dev/null for a while: libpng writes its own "libpng error:
    Read Error" there, past Python, before OpenCV says that it could not read the file (which this command says
    in its own words, naming the file)."""
    sys.stderr.flush()
    kept = os.dup(2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)
        yield
    finally:
        os.dup2(kept, 2)
        os.close(kept)
        os.close(devnull)


def _read_image(path: str) -> np.ndarray:
    import cv2

    if not Path(path).is_file():
        raise UserError(f"{path}: no such image file")
    try:
        with _c_stderr_silenced():
            image = cv2.imread(path, cv2.IMREAD_COLOR)
    except cv2.error as e:  # a header claiming a size OpenCV will not allocate, a truncated stream, ...
        raise UserError(f"{path}: OpenCV cannot read this image ({e.err}); give a PNG or JPEG photo of the "
                        f"table") from None
    if image is None:
        raise UserError(f"{path}: not an image OpenCV can read (damaged, cut short or of another kind); give a "
                        f"PNG or JPEG photo of the table")
    height, width = image.shape[:2]
    if min(height, width) < SMALLEST_IMAGE:
        raise UserError(f"{path}: the image is {width}x{height} pixels, too small to show the table: give a photo "
                        f"of the table at least {SMALLEST_IMAGE} pixels wide and high")
    return image


def _detect(args: argparse.Namespace) -> int:
    import cv2

    from vision.annotate import annotate
    from vision.config import FilterSettings, VisionConfig
    from vision.pipeline import VisionPipeline

    floor = load_floor(args.floor)
    image = _read_image(args.image)
    calibration = None
    if args.calibration:
        calibration = _load_calibration(args.calibration)
    # One photo is all the evidence there is: confirm on the first sighting.
    config = replace(VisionConfig(dictionary=args.dictionary),
                     filter=FilterSettings(confirm_frames=1, confirm_seconds=0))
    pipeline = VisionPipeline(floor, config, calibration)
    try:
        result = pipeline.process(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), 0.0)
    except cv2.error as e:  # whatever OpenCV still refuses in a photo that was read: the file, then why
        raise UserError(f"{args.image}: OpenCV cannot process this image ({e.err}); give a PNG or JPEG photo of "
                        f"the table") from None
    if args.annotate is not None:
        try:
            ok, buf = cv2.imencode(Path(args.annotate).suffix or ".png", annotate(image, result, pipeline))
        except cv2.error:  # an extension OpenCV has no encoder for
            ok = False
        if not ok:
            raise UserError(f"{args.annotate}: cannot encode an image of that type; use .png or .jpg")
        write_atomically(args.annotate, buf.tobytes())
    status = result.reading.status
    if status.level == "error":
        raise UserError(f"{args.image}: {status.message}")
    out = result.observation.to_dict()
    # the roster's absentees say nothing
    out["units"] = {u: s.to_dict() for u, s in sorted(result.observation.units.items()) if s.last_seen is not None}
    out["sightings"] = [s.to_dict() for s in result.reading.sightings]
    print(json.dumps(out, indent=2))
    return 0


def _open_source(spec: str) -> FrameSource:
    from vision.sources import ImageFolderSource, PiCameraSource, VideoCaptureSource

    if spec == "pi":
        return PiCameraSource()
    if spec.isdigit():
        return VideoCaptureSource(int(spec))
    if Path(spec).is_dir():
        return ImageFolderSource(spec)
    return VideoCaptureSource(spec)


def _watch(args: argparse.Namespace) -> int:
    """Events as JSON lines on stdout; camera trouble as status lines on stderr, never a traceback.

    A camera that vanishes mid-game is reopened every --retry-seconds while the last stable observation is
    kept, so unplugging and replugging a USB camera costs nothing but the frames in between.
    """
    from vision.config import VisionConfig
    from vision.pipeline import VisionPipeline
    from vision.status import Status

    floor = load_floor(args.floor)
    calibration = _load_calibration(args.calibration) if args.calibration else None
    pipeline = VisionPipeline(floor, VisionConfig(dictionary=args.dictionary), calibration)
    source = _open_source(args.source)
    status = source.open()
    if status.level == "error":
        raise UserError(f"{args.source}: {status.message}")
    count, blurred = 0, False
    try:
        while args.frames is None or count < args.frames:
            item = source.read()
            if isinstance(item, Status):
                if item.code == "source_ended":
                    break
                print(f"burncycle-table: {item.message}", file=sys.stderr)
                pipeline.process_failure(item, time.monotonic())
                if not source.is_open:
                    time.sleep(args.retry_seconds)
                    source.reopen()
                continue
            count += 1
            result = pipeline.process(item.grey, item.timestamp)
            view = result.reading.view
            if view is not None and view.blurred != blurred:  # the health of the view, when it changes
                blurred = view.blurred
                text = result.reading.status.message if blurred else "the camera's view is sharp again"
                print(json.dumps({"type": "view", "timestamp": round(item.timestamp, 3), **view.to_dict(),
                                  "text": text}), flush=True)
            for event in result.events:
                print(json.dumps(event.to_dict()), flush=True)
    finally:
        source.close()
    print(json.dumps({"type": "observation", **pipeline.observation.to_dict()}))
    return 0


def _load_calibration(path: str) -> CameraCalibration:
    from vision.calibration import CameraCalibration

    try:
        return CameraCalibration.load(path)
    except FileNotFoundError:
        raise UserError(f"{path}: no such calibration file; make one with calibrate-camera") from None
    except OSError as e:
        raise UserError(f"{path}: cannot read the calibration file: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise UserError(f"{path}: not a calibration written by calibrate-camera (not text: {e.reason} at byte "
                        f"{e.start})") from None
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as e:
        raise UserError(f"{path}: not a calibration written by calibrate-camera ({e})") from None


def _markers(args: argparse.Namespace) -> int:
    from vision.config import VisionConfig
    from vision.printable import write_markers_pdf

    config = VisionConfig(dictionary=args.dictionary)
    with atomic_output(args.out) as tmp:  # a full disk leaves no partial PDF behind
        pages = write_markers_pdf(tmp, config, args.paper)
    print(f"{len(config.units)} chip stickers and {len(config.anchor_ids)} registration markers on {pages} "
          f"{args.paper.upper()} pages written to {args.out}; print at 100% and check the 100 mm bar",
          file=sys.stderr)  # not on stdout: `--out /dev/stdout | lp` sends the PDF alone
    return 0


def _calibrate(args: argparse.Namespace) -> int:
    import cv2

    from vision.calibrate import board_image, calibrate

    if args.print_board is not None:
        ok, buf = cv2.imencode(".png", board_image())
        write_atomically(args.print_board, buf.tobytes())
        print(f"ChArUco board written to {args.print_board}: print it to fill a page (any scale), "
              "stick it on something flat, "
              "then photograph it 10-20 times from different angles")
        return 0
    if not args.images:
        raise UserError("calibrate-camera: give the board photos (or --print-board BOARD.png to get the board)")
    if args.out is None:
        raise UserError("calibrate-camera: give --out FILE.json for the calibration")
    greys = [cv2.cvtColor(_read_image(p), cv2.COLOR_BGR2GRAY) for p in args.images]
    calib, status = calibrate(greys)
    if calib is None:
        raise UserError(f"calibrate-camera: {status.message}")
    write_atomically(args.out, calib.to_json().encode())
    print(f"{status.message}; written to {args.out}")
    return 0


def _parse_size(text: str) -> tuple[int, int]:
    w, sep, h = text.lower().partition("x")
    if not sep or not w.isdigit() or not h.isdigit() or int(w) < 16 or int(h) < 16:
        raise UserError(f"--size {text}: give the capture size as WIDTHxHEIGHT in px, e.g. 1920x1080")
    return int(w), int(h)


def _lens(args: argparse.Namespace) -> Lens:
    from vision.mount import LENSES, Lens

    if args.focal_mm is None and args.sensor_width_mm is None:
        return LENSES[args.lens]
    if args.focal_mm is None or args.sensor_width_mm is None or args.focal_mm <= 0 or args.sensor_width_mm <= 0:
        raise UserError("camera-mount: give both --focal-mm and --sensor-width-mm, as positive millimetres")
    return Lens.from_focal(args.focal_mm, args.sensor_width_mm)


def _camera_mount(args: argparse.Namespace) -> int:
    """For each tilt, the lowest height that keeps the board in view and the highest that keeps stickers readable."""
    from vision.config import VisionConfig
    from vision.mount import EDGE_PX, KNOCK_DEG, TILTS, height_range
    from vision.table_layout import TableLayout

    size, lens = _parse_size(args.size), _lens(args)
    config = VisionConfig(dictionary=args.dictionary)
    names = args.floor or sorted(load_content().floors)
    print(f"{lens.name} ({lens.hfov_deg:.1f} degrees across) at {size[0]}x{size[1]}, {config.board.marker_mm:g} mm "
          f"{config.dictionary} stickers ({config.needed_marker_px:.0f} px needed); the board stays {EDGE_PX:g} px "
          f"inside the frame when the camera turns {KNOCK_DEG:g} degrees any way; the camera aims at the board's "
          "centre, leaning from any side")
    common: dict[float, tuple[float, float] | None] = {t: (0.0, float("inf")) for t in TILTS}
    for name in names:
        floor = load_floor(name)
        layout = TableLayout.for_floor(floor, config.board)
        x0, y0, x1, y1 = layout.extent_mm()
        print(f"\n{floor.name}: {floor.cols} x {floor.rows} spaces, {x1 - x0:.0f} x {y1 - y0:.0f} mm with its "
              "registration markers")
        for tilt in TILTS:
            r = height_range(layout, lens, size, tilt, config)
            span = common[tilt]
            if r.lowest_mm is None or r.highest_mm is None:
                common[tilt] = None
                why = "the board never fits the frame" if r.lowest_mm is None else (
                    f"where the board fits ({r.lowest_mm / 1000:.2f} m) the farthest stickers are only "
                    f"{r.marker_px[0]:.1f} px")
                print(f"  tilt {tilt:4.1f} deg: no height works: {why}")
                continue
            if span is not None:
                common[tilt] = (max(span[0], r.lowest_mm), min(span[1], r.highest_mm))
            print(f"  tilt {tilt:4.1f} deg: lens {r.lowest_mm / 1000:.2f}-{r.highest_mm / 1000:.2f} m above the table "
                  f"(stickers {r.marker_px[0]:.1f}-{r.marker_px[1]:.1f} px at the lowest)")
    print("\nevery floor listed:")
    for tilt, span in common.items():
        if span is None or span[0] > span[1]:
            print(f"  tilt {tilt:4.1f} deg: no height fits them all")
        else:
            print(f"  tilt {tilt:4.1f} deg: {span[0] / 1000:.2f}-{span[1] / 1000:.2f} m; "
                  f"mount at {(span[0] + span[1]) / 2000:.2f} m for the most margin both ways")
    return 0
