"""GET /api/address: the address phones open and its QR code, read back by OpenCV's QR decoder."""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np
from fastapi.testclient import TestClient

from controller.cli.compose import build
from tests.support.service_helpers import config
from web import create_app


def _raster(svg: str) -> np.ndarray:
    """segno's SVG draws each row's dark runs as a path of 'move, then h<run>' steps: paint them on white."""
    width = int(re.search(r'width="(\d+)"', svg).group(1))  # type: ignore[union-attr]
    scale = int(re.search(r"scale\((\d+)\)", svg).group(1))  # type: ignore[union-attr]
    path = re.search(r'class="qrline"[^>]* d="([^"]+)"', svg).group(1)  # type: ignore[union-attr]
    size = width // scale
    grid = np.full((size, size), 255, np.uint8)
    x = y = 0.0
    for op, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?", path):
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:
            grid[int(y), int(x):int(x + float(a))] = 0
            x += float(a)
    return cv2.resize(grid, (size * 8, size * 8), interpolation=cv2.INTER_NEAREST)


def test_the_address_and_a_qr_code_that_scans_to_it(tmp_path: Path) -> None:
    service = build(config(tmp_path, port=8123))
    try:
        body = TestClient(create_app(service)).get("/api/address").json()
    finally:
        service.session.close()
    assert body["url"] == "http://127.0.0.1:8123/"
    assert body["qr_svg"].startswith("<svg") and 'xmlns="http://www.w3.org/2000/svg"' in body["qr_svg"]
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(_raster(body["qr_svg"]))
    assert text == "http://127.0.0.1:8123/"


def test_listening_on_every_interface_gives_this_machines_address(tmp_path: Path) -> None:
    made = config(tmp_path, port=8124)
    service = build(made.model_copy(update={"web": made.web.model_copy(update={"host": "0.0.0.0"})}))
    try:
        url = TestClient(create_app(service)).get("/api/address").json()["url"]
    finally:
        service.session.close()
    assert url.endswith(":8124/") and "0.0.0.0" not in url
