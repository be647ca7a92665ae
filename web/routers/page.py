"""The dashboard's pages and the files they load, all served by the app itself.

No build step and nothing from outside the table's network: every page is plain HTML with ES modules in
web/static, so a Pi that is offline at a convention still serves every byte a phone needs. A page (GET / here,
the tool pages from their own routers) is sent by `page`, which always sends the one Content-Security-Policy;
the scripts, styles and pictures are the one `Assets` mount at /static. The mount serves only those kinds of
file: an .html file is a page, reached at its route with its policy, never as a bare file.
"""

from __future__ import annotations

import os
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.staticfiles import NotModifiedResponse, StaticFiles
from starlette.types import Scope

from web.errors import MethodNotAllowed, NotFound

router = APIRouter(tags=["page"])
STATIC = Path(__file__).resolve().parents[1] / "static"
TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml", ".png": "image/png",
         ".woff2": "font/woff2"}
# the browser asks again each load (ETag / Last-Modified answer 304), so a table updated in place never serves a
# phone yesterday's script beside today's page
NO_STALE = {"Cache-Control": "no-cache"}
# every script, style and picture from the table itself; no inline script or style attribute can run
CSP = "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; object-src 'none'"


def page(name: str) -> FileResponse:
    """The page web/static/NAME.html, with the policy every page of the table is sent with."""
    return FileResponse(STATIC / f"{name}.html", media_type="text/html",
                        headers={**NO_STALE, "Content-Security-Policy": CSP})


@router.get("/", include_in_schema=False)
def dashboard() -> FileResponse:
    return page("index")


class Assets(StaticFiles):
    """web/static's scripts, styles and pictures under /static: Starlette's files (no path outside the folder,
    ETag and 304), each with its type and NO_STALE, and every refusal in the app's JSON shape."""

    def __init__(self) -> None:
        super().__init__(directory=STATIC)

    async def get_response(self, path: str, scope: Scope) -> Response:
        method = scope["method"]
        if method not in ("GET", "HEAD"):
            raise MethodNotAllowed(f"{method} /static/{path}: the page's files take GET, HEAD",
                                   headers={"Allow": "GET, HEAD"})
        missing = NotFound(f"/static/{path[:60]}: no such file of the page (its scripts, styles and pictures are in "
                           f"web/static; its pages are at their own paths)")
        if Path(path).suffix not in TYPES:
            raise missing
        try:
            return await super().get_response(path, scope)
        except HTTPException as e:
            raise missing from e

    def file_response(self, full_path: str | os.PathLike[str], stat_result: os.stat_result, scope: Scope,
                      status_code: int = 200) -> Response:
        response = FileResponse(full_path, status_code=status_code, stat_result=stat_result,
                                media_type=TYPES[Path(full_path).suffix], headers=NO_STALE)
        if self.is_not_modified(response.headers, Headers(scope=scope)):
            return NotModifiedResponse(response.headers)
        return response
