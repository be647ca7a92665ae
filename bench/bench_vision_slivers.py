"""Vision with and without slivers as candidates: the detector's minCornerDistanceRate, 0.1 against OpenCV's 0.05.

    .venv/bin/python bench/bench_vision_slivers.py [--frames 150] [--demo-frames 16] [--seed 1]

Two sets of frames, each read twice in this process (the same frame through the whole pipeline with the
shipped setting, 0.1, and with OpenCV's 0.05 as the baseline):
- the accuracy bench's frames: 4 bots and 12 guards at random on the lobby and the labs, 1920x1080, a random
  pose (tilt up to 35 degrees, distortion), uneven light, glare, noise, JPEG, a hand in one frame in three;
- the demo camera's frames of the Command Module on Q4 of the lobby (with Casing on Q3), the place where
  marker 8 went unread: each frame with its own noise.
Each frame is read on its own (no temporal help); a unit counts when it is placed in its true space.
"""

from __future__ import annotations

import argparse
from dataclasses import replace

import checkout  # noqa: F401  # the checkout first on the import path (bench/checkout.py)
import cv2
import numpy as np

from bench.bench_vision import random_hand
from controller.library import load_floor
from controller.service.demo.booth import DEMO_CONDITIONS, DEMO_POSE, DEMO_SIZE
from vision.config import DICTIONARIES, ChangeSettings, FilterSettings, VisionConfig
from vision.detect import detector_parameters
from vision.pipeline import VisionPipeline
from vision.synth import Renderer, random_conditions, random_pose, random_scene
from vision.synth.render import SynthFrame
from vision.synth.scene import Placement, Scene

RATES = {"shipped 0.1": 0.1, "baseline 0.05 (OpenCV's)": 0.05}


def read(frame: SynthFrame, floor, config: VisionConfig, rate: float, size: tuple[int, int]) -> dict[str, int]:
    """One frame through the pipeline with the detector's minCornerDistanceRate set to `rate`."""
    pipeline = VisionPipeline(floor, config)
    params = detector_parameters(config, size)
    params.minCornerDistanceRate = rate
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARIES[config.dictionary])
    pipeline.detector._by_size[size] = cv2.aruco.ArucoDetector(dictionary, params)
    seen = {s.unit: s for s in pipeline.process(frame.grey, 0.0).reading.sightings}
    out = dict(visible=0, right=0, wrong=0, phantom=sum(1 for u in seen if u not in frame.units))
    for unit, truth in frame.units.items():
        s = seen.get(unit)
        out["wrong"] += s is not None and s.doubt is None and s.space != truth.space
        if truth.visible:
            out["visible"] += 1
            out["right"] += s is not None and s.doubt is None and s.space == truth.space
    return out


def tally(frames: list[tuple[SynthFrame, object]], config: VisionConfig, size: tuple[int, int]) -> None:
    for name, rate in RATES.items():
        total = dict(visible=0, right=0, wrong=0, phantom=0)
        for frame, floor in frames:
            for k, v in read(frame, floor, config, rate, size).items():
                total[k] += v
        share = 100 * total["right"] / max(1, total["visible"])
        print(f"  {name:26s} visible units right {share:6.2f}% ({total['right']}/{total['visible']}), "
              f"wrong space {total['wrong']}, phantom {total['phantom']}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=150)
    ap.add_argument("--demo-frames", type=int, default=16)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    config = replace(VisionConfig(), filter=FilterSettings(confirm_frames=1, confirm_seconds=0.0),
                       change=ChangeSettings(enabled=False))  # every frame read whole: these time one frame's reading
    floors = [load_floor("meridian-lobby"), load_floor("meridian-labs")]
    renderers = [Renderer(f, config) for f in floors]
    g = np.random.default_rng(args.seed)
    bench = []
    for k in range(args.frames):
        which = k % 2
        hands = (random_hand(g),) if k % 3 == 2 else ()
        scene = random_scene(floors[which], config, g)
        bench.append((renderers[which].render(scene, random_pose(g), (1920, 1080), random_conditions(g), hands,
                                              rng=g), floors[which]))
    print(f"OpenCV {cv2.__version__}, 1 thread, seed {args.seed}")
    print(f"accuracy bench frames at 1920x1080, {args.frames} frames:")
    tally(bench, config, (1920, 1080))
    q4 = Scene((Placement("module", "Q4"), Placement("casing", "Q3")))
    demo = [(renderers[0].render(q4, DEMO_POSE, DEMO_SIZE, DEMO_CONDITIONS, (), np.random.default_rng(k)), floors[0])
            for k in range(args.demo_frames)]
    print(f"the demo camera's frames of the Command Module on Q4, {args.demo_frames} frames:")
    tally(demo, config, DEMO_SIZE)


if __name__ == "__main__":
    main()
