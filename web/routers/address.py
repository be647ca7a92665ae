"""GET /api/address: the page's address for phones at the table, with its QR code (the one the demo prints)."""

from __future__ import annotations

import io

import segno
from fastapi import APIRouter

from controller.service.views import Address
from web.contract import ViewResponse, returns
from web.deps import Service

router = APIRouter(prefix="/api", tags=["page"])


def qr_svg(url: str) -> str:
    """A standalone SVG (with its namespace, so the page can show it as an image, never as markup), dark
    modules on white with the quiet zone scanners need, even on a dark page."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", xmldecl=False, svgns=True, nl=False, scale=6, border=3,
                                    dark="#000", light="#fff")
    return out.getvalue().decode("utf-8")


@router.get("/address", summary="The page's address for phones on the table's network, and its QR code as SVG",
            **returns(Address))
def address(service: Service) -> ViewResponse:
    url = service.phone_address()
    return ViewResponse(Address(url=url, qr_svg=qr_svg(url)))
