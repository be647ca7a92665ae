"""Touches as a phone's screen sends them (through the DevTools protocol's Input.dispatchTouchEvent: chromium then
decides, as on a phone, whether the finger scrolls the page or reaches the page's pointer handlers), and a look at
the board's pixels, for the browser tests that pinch, pan and tap the board."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image
from playwright.sync_api import CDPSession, Page

from tests.browser.chromium import ARTIFACTS


def centre(page: Page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not drawn"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def touches(cdp: CDPSession, kind: str, points: list[dict[str, float]]) -> None:
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def touch_drag(cdp: CDPSession, start: tuple[float, float], end: tuple[float, float], steps: int = 10) -> None:
    """One finger down at `start`, moved to `end` and lifted, as a touch screen sends it."""
    touches(cdp, "touchStart", [{"x": start[0], "y": start[1]}])
    for k in range(1, steps + 1):
        x, y = start[0] + (end[0] - start[0]) * k / steps, start[1] + (end[1] - start[1]) * k / steps
        touches(cdp, "touchMove", [{"x": x, "y": y}])
    touches(cdp, "touchEnd", [])


def pinch(cdp: CDPSession, middle: tuple[float, float], start: float, end: float, steps: int = 10) -> None:
    """Two fingers `start` px apart about `middle`, spread (or closed) to `end` px apart, then lifted."""
    def points(gap: float) -> list[dict[str, float]]:
        x, y = middle
        return [{"x": x - gap / 2, "y": y, "id": 1}, {"x": x + gap / 2, "y": y, "id": 2}]
    touches(cdp, "touchStart", points(start))
    for k in range(1, steps + 1):
        touches(cdp, "touchMove", points(start + (end - start) * k / steps))
    touches(cdp, "touchEnd", [])


BACKGROUND = (11, 14, 18)  # the frame's own colour (#0b0e12), where no board is painted
TILES = 4  # the frame's view cut into 4x4 tiles, each of which must show the board


def unpainted(page: Page, name: str) -> list[str]:
    """What of the board's frame shows no board: tiles of the frame's view painted only in the frame's own
    colour, and the board's box not covering the frame's view (panned past its edge, or drawn smaller)."""
    frame = page.locator("#board-wrap")
    ARTIFACTS.mkdir(exist_ok=True)
    png = frame.screenshot(path=str(ARTIFACTS / f"board-view-{name}.png"))
    image = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.int16)
    plain = np.abs(image - np.array(BACKGROUND)).max(axis=2) <= 6
    h, w = plain.shape
    bare = []
    for i in range(TILES):
        for j in range(TILES):
            share = plain[j * h // TILES:(j + 1) * h // TILES, i * w // TILES:(i + 1) * w // TILES].mean()
            if share > 0.9:
                bare.append(f"tile {i},{j} of the frame is bare ({share:.0%} background)")
    geometry = page.evaluate("""() => {
      const f = document.getElementById('board-wrap'), b = document.getElementById('board').getBoundingClientRect();
      const r = f.getBoundingClientRect(), left = r.left + f.clientLeft, top = r.top + f.clientTop;
      return {board: [b.left, b.top, b.right, b.bottom], view: [left, top, left + f.clientWidth, top + f.clientHeight],
              scroll: [f.scrollLeft, f.scrollTop, f.scrollWidth - f.clientWidth, f.scrollHeight - f.clientHeight]};
    }""")
    (bl, bt, br, bb), (vl, vt, vr, vb) = geometry["board"], geometry["view"]
    if bl > vl + 1 or bt > vt + 1 or br < vr - 1 or bb < vb - 1:
        bare.append(f"the board {geometry['board']} does not cover the frame's view {geometry['view']}")
    left, top, most_left, most_top = geometry["scroll"]
    if not (0 <= left <= most_left + 1 and 0 <= top <= most_top + 1):
        bare.append(f"the frame is panned past the board's edge: {geometry['scroll']}")
    return bare
