"""Printable stickers at true size: every unit's chip sticker and the registration markers, with a scale bar.

Markers are drawn as vector squares from the dictionary's own bits, so they stay sharp at any printer
resolution. The 100 mm scale bar lets a player check with a ruler that "fit to page" did not shrink
them: the detector's pixel budget (docs/vision.md) assumes true size.
"""

from __future__ import annotations

from pathlib import Path

import cv2
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas

from vision.config import DICTIONARIES, VisionConfig
from vision.sticker import sticker_layout

PAPERS = {"a4": A4, "letter": LETTER}
MARGIN = 12 * mm


def _marker(c: canvas.Canvas, config: VisionConfig, marker: int, x: float, y: float, side: float) -> None:
    """Draw marker `marker` with its lower-left corner at (x, y), `side` points wide (border included)."""
    d = cv2.aruco.getPredefinedDictionary(DICTIONARIES[config.dictionary])
    cells = d.markerSize + 2
    bits = cv2.aruco.generateImageMarker(d, marker, cells, borderBits=1)
    cell = side / cells
    c.setFillColorRGB(0, 0, 0)
    for r in range(cells):
        for k in range(cells):
            if bits[r, k] < 128:
                c.rect(x + k * cell, y + (cells - 1 - r) * cell, cell, cell, stroke=0, fill=1)


def _scale_bar(c: canvas.Canvas, x: float, y: float) -> None:
    c.setLineWidth(0.6)
    c.line(x, y, x + 100 * mm, y)
    for k in range(11):
        h = 3 * mm if k % 5 == 0 else 1.5 * mm
        c.line(x + k * 10 * mm, y, x + k * 10 * mm, y + h)
    c.setFont("Helvetica", 7)
    c.drawString(x, y - 3 * mm, "this bar must measure 100 mm: print at 100% (no 'fit to page')")


def write_markers_pdf(path: str | Path, config: VisionConfig, paper: str = "a4") -> int:
    """Write the sheet; returns the number of pages."""
    width, height = PAPERS[paper]
    c = canvas.Canvas(str(path), pagesize=(width, height))
    c.setTitle("burncycle-table markers")
    b = config.board
    layout = sticker_layout(config)
    items: list[tuple[int, str, float, bool]] = [
        (i, f"registration: {name} (#{i})", b.anchor_mm, False) for i, name in config.anchor_ids.items()]
    items += [(m, f"{u.chip}" + (f" L{u.level}" if u.kind == "guard" else "") + f" ({u.id}, #{m})", b.marker_mm,
               u.has_facing) for m, u in config.marker_units.items()]
    cell_w, cell_h = 50 * mm, 52 * mm
    cols = int((width - 2 * MARGIN) // cell_w)
    rows = int((height - 2 * MARGIN - 24 * mm) // cell_h)
    per_page = cols * rows
    pages = 0
    for start in range(0, len(items), per_page):
        pages += 1
        c.setFont("Helvetica-Bold", 11)
        c.drawString(MARGIN, height - MARGIN, f"burncycle-table markers ({config.dictionary}), page {pages}")
        _scale_bar(c, MARGIN, height - MARGIN - 10 * mm)
        c.setFont("Helvetica", 7)
        c.drawString(MARGIN, MARGIN - 2 * mm, "Registration markers: at the grid's corners and side middles, "
                     f"black square {b.anchor_gap_mm:.0f} mm outside the grid, top edge toward row 1.")
        c.drawString(MARGIN, MARGIN - 5.5 * mm, f"Chip stickers: cut along the dashed {b.sticker_mm:g} mm circle and "
                     f"stick on the {b.chip_mm:g} mm chip; the triangle marks a guard's front.")
        for k, (marker, label, side_mm, facing) in enumerate(items[start:start + per_page]):
            cx = MARGIN + (k % cols + 0.5) * cell_w
            cy = height - MARGIN - 24 * mm - (k // cols + 0.5) * cell_h
            side = side_mm * mm
            if marker >= len(config.anchor_ids):  # a chip sticker: a disc, cut along its circle
                c.setDash(2, 2)
                c.setLineWidth(0.3)
                c.circle(cx, cy, layout.disc_mm / 2 * mm)
                c.setDash()
            else:  # a registration marker: cut along the square one cell (its quiet zone) outside it
                quiet = side / config.marker_cells
                c.setLineWidth(0.3)
                c.rect(cx - side / 2 - quiet, cy - side / 2 - quiet, side + 2 * quiet, side + 2 * quiet)
            _marker(c, config, marker, cx - side / 2, cy - side / 2, side)
            if facing:  # the chip's front, past the quiet zone: the marker's top edge is the guard's facing
                c.setFillColorRGB(0, 0, 0)
                p = c.beginPath()
                base, half = cy + layout.front_base_mm * mm, layout.front_half_base_mm * mm
                p.moveTo(cx - half, base)
                p.lineTo(cx + half, base)
                p.lineTo(cx, cy + layout.front_tip_mm * mm)
                p.close()
                c.drawPath(p, stroke=0, fill=1)
            c.setFont("Helvetica", 6.5)
            c.drawCentredString(cx, cy - cell_h / 2 + 2 * mm, label)
        c.showPage()
    c.save()
    return pages
