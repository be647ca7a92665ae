"""The current budget: a frame is dimmed until its estimated draw fits the 5 V supply.

A WS2812B draws about 20 mA per colour channel at full scale and about 1 mA dark, so 38 LEDs at
full white would pull some 2.3 A: more than a USB port or a small supply gives, and enough to
brown out the microcontroller that shares it. The estimate is linear in the channel values, so
scaling all of them by the same factor keeps the picture and fits the budget exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Power:
    """Electrical limits from the layout file's [power] table."""

    budget_ma: float = 1500.0
    brightness_cap: float = 1.0
    ma_per_channel: float = 20.0
    idle_ma_per_led: float = 1.0


def estimate_ma(pixels: list[RGB] | tuple[RGB, ...], power: Power) -> float:
    """The estimated supply current for showing `pixels`, in mA."""
    channel_sum = sum(r + g + b for r, g, b in pixels)
    return channel_sum / 255.0 * power.ma_per_channel + len(pixels) * power.idle_ma_per_led


def limit(pixels: list[RGB], power: Power) -> list[RGB]:
    """Applies the brightness cap, then dims the whole frame if it would exceed the budget."""
    cap = power.brightness_cap
    out = [(int(r * cap), int(g * cap), int(b * cap)) for r, g, b in pixels]
    idle = len(out) * power.idle_ma_per_led
    lit = estimate_ma(out, power) - idle
    room = power.budget_ma - idle
    if lit <= room:
        return out
    factor = max(0.0, room / lit)
    while True:
        scaled = [(int(r * factor), int(g * factor), int(b * factor)) for r, g, b in out]
        if estimate_ma(scaled, power) <= power.budget_ma:
            return scaled
        factor *= 0.995
