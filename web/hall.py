"""The hall's web app: one page listing every table on a broker, and the JSON it is built from.

Separate from the table's app (web/app.py): the hall serves no table, only what its subscriber reads from
the broker's retained topics (controller/hall). `GET /` is the page (web/static/hall.html, no asset from
outside), `GET /api/tables` the picture as JSON, which the page polls, `GET /static/dom.js` the dashboard's module of
requests and elements, which the page shares.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI
from fastapi.responses import FileResponse

if TYPE_CHECKING:
    from controller.hall.view import HallView

STATIC = Path(__file__).resolve().parent / "static"
PAGE = STATIC / "hall.html"
DOM = STATIC / "dom.js"  # the dashboard's own requests and elements: one api() and one h() for every page


def create_hall_app(view: HallView) -> FastAPI:
    app = FastAPI(title="burncycle-table hall", version="1",
                  description="Every burncycle table on one MQTT broker, from their retained topics.")

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(PAGE, media_type="text/html", headers={"Cache-Control": "no-cache"})

    @app.get("/static/dom.js", include_in_schema=False)
    def dom() -> FileResponse:
        return FileResponse(DOM, media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    @app.get("/api/tables", summary="Every table on the broker: mission, threat, phase, round, online")
    def tables() -> dict[str, Any]:
        return view.to_dict()

    return app
