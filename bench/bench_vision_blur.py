"""Vision under motion blur: chips read per blur level, beside raw OpenCV on the same frames.

    .venv/bin/python bench/bench_vision_blur.py [--frames 24] [--seed 1]

For each blur level, `--frames` frames of 4 bots and 12 guards at random on the lobby and the labs, at
1920x1080 through a random pose (tilt up to 35 degrees, lens distortion) with uneven light, glare, noise
and JPEG, and motion blur of a random length within the level, at a random angle. Each frame is read
on its own (no temporal help). The baseline is OpenCV's ArucoDetector with its default parameters on
the same frame: a chip counts for it when its id is decoded anywhere (it has no registration, so this
flatters it); for the pipeline only when it is placed in its true space. The same frame without blur is
the sharpness reference: the share flagged blurred is what the health endpoint would show. Time per
frame is the pipeline's against the baseline's, median and p99, measured side by side.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import replace

import checkout  # noqa: F401  # the checkout first on the import path (bench/checkout.py)
import cv2
import numpy as np
from stats import percentile, time_pairs

from controller.library import load_floor
from vision.config import DICTIONARIES, ChangeSettings, FilterSettings, VisionConfig
from vision.pipeline import VisionPipeline
from vision.sharpness import BLURRED_RATIO, sharpness
from vision.synth import Renderer, random_conditions, random_pose, random_scene

HD = (1920, 1080)
LEVELS = ((0.0, 0.0), (1.0, 2.0), (3.0, 4.0), (5.0, 6.0), (7.0, 8.0))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=24, help="frames per blur level")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    g = np.random.default_rng(args.seed)
    config = VisionConfig()
    one_shot = replace(config, filter=FilterSettings(confirm_frames=1, confirm_seconds=0.0),
                       change=ChangeSettings(enabled=False))  # every frame read whole: these time one frame's reading
    floors = [load_floor("meridian-lobby"), load_floor("meridian-labs")]
    renderers = [Renderer(f, config) for f in floors]
    raw = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICTIONARIES[config.dictionary]),
                                  cv2.aruco.DetectorParameters())
    print(f"OpenCV {cv2.__version__}, 1 thread, {config.dictionary}, {args.frames} frames a level at {HD[0]}x{HD[1]}, "
          f"seed {args.seed}; baseline: ArucoDetector with default parameters on the same frames\n")
    print(f"{'blur px':>8} {'chips':>6} {'pipeline':>9} {'raw OpenCV':>11} {'ratio':>6} {'wrong':>6} {'flagged':>8} "
          f"{'pipeline ms':>16} {'raw ms':>16}")
    for lo, hi in LEVELS:
        chips = right = raw_right = wrong = flagged = 0
        greys, pipelines = [], []
        for k in range(args.frames):
            which = k % len(floors)
            floor, renderer = floors[which], renderers[which]
            scene, pose, cond = random_scene(floor, config, g), random_pose(g), random_conditions(g)
            blurred = replace(cond, blur_px=float(g.uniform(lo, hi)), blur_angle_deg=float(g.uniform(0, 180)))
            frame = renderer.render(scene, pose, HD, blurred, rng=g)
            sharp = renderer.render(scene, pose, HD, replace(cond, blur_px=0.0), rng=g)
            flagged += sharpness(frame.grey) < BLURRED_RATIO * sharpness(sharp.grey)
            pipeline = VisionPipeline(floor, one_shot)
            result = pipeline.process(frame.grey, 0.0)
            seen = {s.unit: s for s in result.reading.sightings if s.doubt is None}
            found = raw.detectMarkers(frame.grey)[1]
            raw_ids = set() if found is None else set(found.ravel().tolist())
            for unit, truth in frame.units.items():
                s = seen.get(unit)
                wrong += s is not None and s.space != truth.space
                if truth.visible:
                    chips += 1
                    right += s is not None and s.space == truth.space
                    raw_right += config.marker_of(unit) in raw_ids
            greys.append(frame.grey)
            pipelines.append(pipeline)
        runs = list(zip(greys, pipelines))
        t_pipe, t_raw = time_pairs(runs, lambda run: run[1].process(run[0], 1.0),
                                   lambda run: raw.detectMarkers(run[0]))
        mp, mr = statistics.median(t_pipe) * 1000, statistics.median(t_raw) * 1000
        pp, pr = percentile(t_pipe, 0.99) * 1000, percentile(t_raw, 0.99) * 1000
        print(f"{f'{lo:g}-{hi:g}':>8} {chips:>6} {100 * right / chips:>8.1f}% {100 * raw_right / chips:>10.1f}% "
              f"{right / max(raw_right, 1):>6.2f} {wrong:>6} {100 * flagged / args.frames:>7.0f}% "
              f"{mp:>7.1f} p99 {pp:>5.1f} {mr:>7.1f} p99 {pr:>5.1f}", flush=True)
    print("\nchips: visible chip stickers; pipeline: placed in the true space; raw OpenCV: id decoded anywhere; "
          "ratio: pipeline / raw; wrong: chips placed in a wrong space; flagged: frames the sharpness meter "
          f"calls blurred (under {BLURRED_RATIO:.0%} of the same frame unblurred)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
