"""The dashboard's tool pages (the floor editor, the camera and calibration, a game's replay) and their assets.

Each page is plain HTML with an ES module and a style sheet beside it in web/static, served from here with
no build step and nothing from outside the table's network. Only the files named here are served, so a
request can never reach another file.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

from web.auth import ApiError

STATIC = Path(__file__).resolve().parents[1] / "static"
TYPES = {".js": "text/javascript", ".css": "text/css"}
ASSETS = {f"{page}{ext}" for page in ("floor-editor", "camera", "replay", "tools") for ext in (".js", ".css")}

# every script, style and picture from the table itself; no inline script or style attribute can run
CSP = "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; object-src 'none'"

router = APIRouter(tags=["pages"])


def page(name: str) -> FileResponse:
    return FileResponse(STATIC / f"{name}.html", media_type="text/html",
                        headers={"Cache-Control": "no-cache", "Content-Security-Policy": CSP})


@router.get("/tools/{name}", include_in_schema=False)
def asset(name: str) -> FileResponse:
    if name not in ASSETS:
        raise ApiError(404, "not_found", f"/tools/{name[:60]}: no such file; the tool pages' files are "
                                       f"{', '.join(sorted(ASSETS))}")
    return FileResponse(STATIC / name, media_type=TYPES[Path(name).suffix], headers={"Cache-Control": "no-cache"})
