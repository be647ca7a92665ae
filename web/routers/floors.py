"""The floor editor's routes: the floors a game may start on, a drawn floor checked as `validate` checks it,
and a floor saved to the table's floors folder (that needs the table's PIN)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from controller.rules import FloorError, parse_floor
from controller.service.game.floors import FloorLibraryError
from controller.service.table import MOST_FLOOR_CHARS
from web.auth import ApiError, Player
from web.deps import Service
from web.routers.page import page

router = APIRouter(tags=["floors"])
MOST_FLOOR_BYTES = 8 * MOST_FLOOR_CHARS  # a floor's characters (up to 6 bytes each, escaped in JSON) and its name
EXAMPLE = 'name: Closet\nlevel: 1\n\ngrid:\n+-+-+\n|E T|\n+-+-+\n\nareas:\n  A1 room "Closet"\n'


class FloorText(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"text": EXAMPLE, "name": "closet"}]})
    text: str = Field(max_length=MOST_FLOOR_CHARS,
                      description="the floor in the floor text format (docs/floor-format.md)",
                      examples=[EXAMPLE])
    name: str = Field("floor", max_length=60, description="the file name the messages use (NAME.floor)")


class SavedFloor(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"name": "my-annex", "text": EXAMPLE}]})
    name: str = Field(max_length=60, description="the floor's name: lowercase letters, digits and dashes",
                      examples=["my-annex"])
    text: str = Field(max_length=MOST_FLOOR_CHARS, description="the floor in the floor text format",
                      examples=[EXAMPLE])


@router.get("/floors/edit", include_in_schema=False)
def editor() -> FileResponse:
    return page("floor-editor")


@router.get("/api/floors", summary="Every floor a game may start on: the shipped ones and the ones saved here")
def floors(service: Service) -> dict[str, Any]:
    return {"floors": service.floor_listing()}


@router.get("/api/floors/{name}", summary="One floor's text, shipped or saved")
def floor(name: str, service: Service) -> dict[str, Any]:
    try:
        return {"name": name, "source": service.floor_source(name), "text": service.floor_text(name)}
    except FloorLibraryError as e:
        raise ApiError(404, "not_found", str(e)) from None


@router.post("/api/floors/check", summary="A drawn floor checked with the `validate` command's messages")
def check(body: FloorText, service: Service) -> dict[str, Any]:
    return service.check_floor(body.text, body.name).to_dict()


@router.post("/api/floors/parse", summary="A floor's text read by the rules' own parser: its grid and areas, "
                                          "or the line and column where it cannot be read")
def parse(body: FloorText) -> dict[str, Any]:
    """The floor editor reads a floor through this, the parser the table plays on (docs/floor-format.md), never a
    parser of its own: `{"ok": true, "floor": {...}}` (FloorPlan.drawn) or `{"ok": false, "message", "line",
    "column"}`, the message as `validate` words it."""
    try:
        plan = parse_floor(body.text, f"{body.name}.floor")
    except FloorError as e:
        return {"ok": False, "message": str(e), "line": e.line, "column": e.column}
    return {"ok": True, "floor": plan.drawn()}


@router.post("/api/floors", summary="Save a floor (checked first) to the table's floors folder; needs the PIN",
             status_code=201)
def save(body: SavedFloor, service: Service, _: Player) -> dict[str, Any]:
    try:
        saved = service.save_floor(body.name, body.text)
    except FloorLibraryError as e:
        raise ApiError(422, "bad_request", str(e)) from None
    return {"name": body.name, **saved.to_dict()}
