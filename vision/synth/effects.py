"""What a real camera at a real table adds: uneven light, glare, motion blur, noise, JPEG, hands.

Hands are drawn in image space after projection because they hover above the board, closer to the camera
than the chips; their mask is returned so ground truth knows which stickers they cover.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

SKIN = np.array([105, 140, 190], np.float32)


@dataclass(frozen=True)
class Conditions:
    light_gradient: float = 0.0      # 0 = even; 0.4 = one side 40% darker
    vignette: float = 0.0            # darkening toward the corners
    glare: tuple[tuple[float, float, float, float], ...] = ()  # (x, y, radius, strength) as frame fractions
    blur_px: float = 0.0             # motion blur length
    blur_angle_deg: float = 0.0
    noise_sigma: float = 0.0
    jpeg_quality: int = 0            # 0 = no compression


@dataclass(frozen=True)
class Hand:
    """A hand reaching in from the frame's edge: palm centre (frame fractions), pointing angle, size in px."""

    x: float
    y: float
    angle_deg: float
    palm_px: float


def random_conditions(rng: np.random.Generator) -> Conditions:
    glare = tuple((float(rng.uniform(0, 1)), float(rng.uniform(0, 1)), float(rng.uniform(0.03, 0.1)),
                   float(rng.uniform(0.2, 0.6))) for _ in range(int(rng.integers(0, 3))))
    return Conditions(float(rng.uniform(0, 0.4)), float(rng.uniform(0, 0.3)), glare, float(rng.uniform(0, 2.5)),
                      float(rng.uniform(0, 180)), float(rng.uniform(1, 6)), int(rng.integers(55, 95)))


def draw_hands(img: np.ndarray, hands: tuple[Hand, ...]) -> np.ndarray:
    """Paint the hands onto `img` in place; return their mask (255 where a hand is)."""
    h, w = img.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    for hand in hands:
        cx, cy, r = hand.x * w, hand.y * h, hand.palm_px
        angle = math.radians(hand.angle_deg)
        fwd, side = np.array([math.cos(angle), math.sin(angle)]), np.array([-math.sin(angle), math.cos(angle)])
        c = np.array([cx, cy])
        arm_end = c - fwd * 4 * max(w, h)
        arm = np.array([c + side * r * 0.7, c - side * r * 0.7, arm_end - side * r * 0.8, arm_end + side * r * 0.8])
        cv2.fillConvexPoly(mask, arm.astype(np.int32), 255, cv2.LINE_AA)
        cv2.ellipse(mask, (int(cx), int(cy)), (int(r * 1.1), int(r)), hand.angle_deg, 0, 360, 255, -1, cv2.LINE_AA)
        for k, length in zip((-1.5, -0.5, 0.5, 1.5), (1.4, 1.6, 1.5, 1.2)):
            base = c + fwd * r * 0.8 + side * k * r * 0.42
            tip = base + fwd * r * length
            cv2.line(mask, tuple(base.astype(int)), tuple(tip.astype(int)), 255, max(2, int(r * 0.36)), cv2.LINE_AA)
        thumb = c + side * r * 0.9
        cv2.line(mask, tuple(thumb.astype(int)), tuple((thumb + (side + fwd) * r * 0.7).astype(int)), 255,
                 max(2, int(r * 0.4)), cv2.LINE_AA)
    if hands:
        shade = cv2.GaussianBlur(mask, (0, 0), max(1.0, hands[0].palm_px / 6)).astype(np.float32) / 255.0
        alpha = (mask.astype(np.float32) / 255.0)[..., None]
        skin = SKIN * (0.75 + 0.25 * shade[..., None])
        img[:] = (img.astype(np.float32) * (1 - alpha) + skin * alpha).astype(np.uint8)
    return mask


NOISE_ROWS = 64  # rows of a frame whose noise is drawn at once


def apply_conditions(img: np.ndarray, cond: Conditions, rng: np.random.Generator) -> np.ndarray:
    h, w = img.shape[:2]
    out: np.ndarray = img.astype(np.float32)  # float32 throughout; OpenCV's filter keeps the depth (ddepth -1)
    if cond.light_gradient or cond.vignette:
        ys, xs = (axis.astype(np.float32) for axis in np.ogrid[0:h, 0:w])  # broadcast: no h x w index grids
        a = rng.uniform(0, 2 * math.pi)
        # gain = (1 - gradient * lin) * (1 - vignette * rad), with lin and rad each a row term plus a column
        # term: two h x w planes in all, filled in place (the formula's temporaries were five, 40 MB at 1080p)
        x, y = xs / w - 0.5, ys / h - 0.5
        gain = np.subtract(1 - cond.light_gradient * (x * math.cos(a) + 0.5), cond.light_gradient * (y * math.sin(a)),
                           dtype=np.float32)
        vignette = np.subtract(1 - cond.vignette * 2 * x ** 2, cond.vignette * 2 * y ** 2, dtype=np.float32)
        gain *= vignette
        del vignette
        out *= gain[..., None] if out.ndim == 3 else gain
        del gain
    for gx, gy, gr, gs in cond.glare:
        ys, xs = np.ogrid[0:h, 0:w]
        blob = np.exp(-(((xs - gx * w) ** 2 + (ys - gy * h) ** 2) / (2 * (gr * w) ** 2))).astype(np.float32)
        out += (255 * gs) * (blob[..., None] if out.ndim == 3 else blob)
    if cond.blur_px >= 1:
        n = int(math.ceil(cond.blur_px)) | 1
        k = np.zeros((n, n), np.float32)
        a = math.radians(cond.blur_angle_deg)
        d = np.array([math.cos(a), math.sin(a)]) * (cond.blur_px / 2)
        cv2.line(k, tuple((n // 2 - d).round().astype(int)), tuple((n // 2 + d).round().astype(int)), 1.0, 1)
        out = cv2.filter2D(out, -1, k / k.sum())
    if cond.noise_sigma:
        # drawn a band of rows at a time: the same numbers in the same order as one draw of the whole frame,
        # without a float64 copy of it (50 MB at 1920 x 1080)
        for top in range(0, h, NOISE_ROWS):
            band = out[top:top + NOISE_ROWS]
            band += rng.normal(0, cond.noise_sigma, band.shape).astype(np.float32)
    img = np.clip(out, 0, 255, out=out).astype(np.uint8)
    if cond.jpeg_quality:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, cond.jpeg_quality])
        decoded = cv2.imdecode(buf, cv2.IMREAD_UNCHANGED) if ok else None
        if decoded is None:
            raise ValueError(f"OpenCV could not pass a {w}x{h} frame through JPEG at quality {cond.jpeg_quality}")
        img = decoded
    return img
