"""The renderer's light and noise: drawn without whole-frame temporaries (the demo's memory), the same picture."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.synth.effects import NOISE_ROWS, Conditions, apply_conditions


@settings(max_examples=25, deadline=None)
@given(h=st.integers(1, 3 * NOISE_ROWS + 5), w=st.integers(1, 40), sigma=st.floats(0.5, 20), seed=st.integers(0, 99))
def test_noise_drawn_a_band_at_a_time_is_the_noise_of_one_draw(h: int, w: int, sigma: float, seed: int) -> None:
    img = (np.random.default_rng(seed + 1).random((h, w, 3)) * 255).astype(np.uint8)
    whole = img.astype(np.float32) + np.random.default_rng(seed).normal(0, sigma, img.shape).astype(np.float32)
    expected = np.clip(whole, 0, 255).astype(np.uint8)
    got = apply_conditions(img, Conditions(noise_sigma=sigma), np.random.default_rng(seed))
    assert np.array_equal(got, expected)


def test_light_falls_off_from_the_centre_as_a_vignette_does() -> None:
    img = np.full((90, 160, 3), 200, np.uint8)
    out = apply_conditions(img, Conditions(vignette=0.5), np.random.default_rng(0))
    corners = [int(out[y, x, 0]) for y, x in ((0, 0), (0, 159), (89, 0), (89, 159))]
    assert out[45, 80, 0] == 200 and all(95 <= c <= 105 for c in corners), corners  # 1 - 0.5 * 2 * 0.5
