"""GET /: the dashboard's page, and /static/...: its scripts and styles, all served by the app itself.

No build step and nothing from outside the table's network: the page is plain HTML with ES modules, so a
Pi that is offline at a convention still serves every byte a phone needs. Only files that are in web/static
are served (a name is looked up in the folder's listing, never joined onto a path).
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

from web.auth import ApiError

router = APIRouter(tags=["page"])
STATIC = Path(__file__).resolve().parents[1] / "static"
TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml",
         ".png": "image/png", ".woff2": "font/woff2"}
# the browser asks again each load (ETag / Last-Modified answer 304), so a table updated in place never serves a
# phone yesterday's script beside today's page
NO_STALE = {"Cache-Control": "no-cache"}


def assets() -> dict[str, Path]:
    """The files the app serves under /static, by name."""
    return {p.name: p for p in STATIC.iterdir() if p.is_file() and p.suffix in TYPES}


@router.get("/", include_in_schema=False)
def page() -> FileResponse:
    return FileResponse(STATIC / "index.html", media_type="text/html", headers=NO_STALE)


@router.get("/static/{name}", include_in_schema=False)
def asset(name: str) -> FileResponse:
    path = assets().get(name)
    if path is None:
        raise ApiError(404, "not_found", f"/static/{name}: no such file of the page (its files are in web/static)")
    return FileResponse(path, media_type=TYPES[path.suffix], headers=NO_STALE)
