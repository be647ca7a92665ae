"""The printed sticker sheet, rasterised as a printer would: every marker reads, and keeps its quiet zone."""

from __future__ import annotations

import cv2
import numpy as np
import pypdfium2
import pytest

from vision.config import BoardGeometry, VisionConfig
from vision.detect import MarkerDetector
from vision.printable import write_markers_pdf
from vision.sticker import sticker_layout

PX_PER_MM = 8.0


def printed_pages(tmp_path, config: VisionConfig) -> list[np.ndarray]:
    path = tmp_path / f"markers-{config.dictionary}.pdf"
    write_markers_pdf(path, config)
    pdf = pypdfium2.PdfDocument(str(path))
    pages = [cv2.cvtColor(page.render(scale=PX_PER_MM * 25.4 / 72).to_numpy(), cv2.COLOR_BGR2GRAY) for page in pdf]
    pdf.close()
    return pages


@pytest.mark.parametrize("dictionary", ["4x4_50", "apriltag_36h11"])
def test_every_printed_sticker_reads_and_has_a_white_quiet_zone_of_one_cell(tmp_path, dictionary):
    config = VisionConfig(dictionary=dictionary)
    side = config.board.marker_mm * PX_PER_MM
    reader = MarkerDetector(VisionConfig(dictionary=dictionary, sticker_px=(side, side)))
    cell_px = sticker_layout(config).cell_mm * PX_PER_MM
    seen: set[int] = set()
    for page in printed_pages(tmp_path, config):
        for d in reader.detect(page):
            seen.add(d.id)
            if d.id not in config.marker_units:
                continue
            marker = np.zeros(page.shape, np.uint8)
            cv2.fillConvexPoly(marker, d.corners.round().astype(np.int32), 255)
            away = cv2.distanceTransform(255 - marker, cv2.DIST_L2, 5)
            ring = (away > 1.5) & (away <= cell_px)  # one cell around the marker, past its anti-aliased edge
            assert page[ring].min() > 200, f"marker {d.id}: something printed within one cell of it"
    assert seen == set(config.anchor_ids) | set(config.marker_units)


def test_the_sticker_disc_holds_the_quiet_zone_and_the_front_triangle():
    layout = sticker_layout(VisionConfig())
    assert layout.quiet_reach_mm <= layout.disc_mm / 2
    assert layout.front_base_mm >= layout.marker_mm / 2 + layout.cell_mm
    with pytest.raises(ValueError, match="quiet zone"):
        VisionConfig(board=BoardGeometry(marker_mm=25.0))
    with pytest.raises(ValueError, match="fit the chip"):
        VisionConfig(board=BoardGeometry(sticker_mm=40.0))
