"""The floor editor's routes: the floors a game may start on, a drawn floor checked as `validate` checks it,
and a floor saved to the table's floors folder (that needs the table's PIN)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from controller.service.table import FLOOR_NAME, MOST_FLOOR_CHARS
from controller.service.views import FloorChecked, FloorFile, FloorParsed, Floors, FloorView
from web.auth import Player
from web.contract import ViewResponse, checked_beyond_the_schema, refuses, returns
from web.deps import Service
from web.routers.page import page

router = APIRouter(tags=["floors"])
# a floor's characters (up to 12 bytes each, escaped in JSON: an astral one is two \uXXXX) and its name, so no
# body the schema allows is refused as too large
MOST_FLOOR_BYTES = 13 * MOST_FLOOR_CHARS
EXAMPLE = 'name: Closet\nlevel: 1\n\ngrid:\n+-+-+\n|E T|\n+-+-+\n\nareas:\n  A1 room "Closet"\n'


class FloorText(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"text": EXAMPLE, "name": "closet"}]})
    text: str = Field(max_length=MOST_FLOOR_CHARS,
                      description="the floor in the floor text format (docs/floor-format.md)",
                      examples=[EXAMPLE])
    name: str = Field("floor", max_length=60, description="the file name the messages use (NAME.floor)")


class SavedFloor(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"name": "my-annex", "text": EXAMPLE}]})
    name: str = Field(pattern=FLOOR_NAME, max_length=40, examples=["my-annex"],
                      description="the floor's name: 1 to 40 lowercase letters, digits and dashes, starting with a "
                                  "letter or digit; not a shipped floor's (409 name_taken)")
    text: str = Field(max_length=MOST_FLOOR_CHARS, description="the floor in the floor text format",
                      examples=[EXAMPLE])


@router.get("/floors/edit", include_in_schema=False)
def editor() -> FileResponse:
    return page("floor-editor")


@router.get("/api/floors", summary="Every floor a game may start on: the shipped ones and the ones saved here",
            **returns(Floors))
def floors(service: Service) -> ViewResponse:
    return ViewResponse(service.floor_listing())


@router.get("/api/floors/{name}", summary="One floor's text, shipped or saved",
            **returns(FloorFile, also=refuses(404)))
def floor(name: str, service: Service) -> ViewResponse:
    return ViewResponse(service.floor_text(name))  # NoSuchFloor: 404 not_found


@router.get("/api/floors/{name}/board", summary="One floor laid out for drawing as a new game finds it",
            **returns(FloorView, also=refuses(404)))
def board(name: str, service: Service) -> ViewResponse:
    """The floor as GET /api/floor lays out the game's, before any game is on it (every door locked, no guard):
    the new game's form draws it to show where the team would start. A saved floor that does not compile: 422
    floor_error."""
    return ViewResponse(service.floor_board(name))  # NoSuchFloor: 404 not_found


@router.post("/api/floors/check", summary="A drawn floor checked with the `validate` command's messages",
             **returns(FloorChecked))
def check(body: FloorText, service: Service) -> ViewResponse:
    return ViewResponse(service.check_floor(body.text, body.name))


@router.post("/api/floors/parse", summary="A floor's text read by the rules' own parser: its grid and areas, "
                                          "or the line and column where it cannot be read", **returns(FloorParsed))
def parse(body: FloorText, service: Service) -> ViewResponse:
    """The floor editor reads a floor through this, the parser the table plays on (docs/floor-format.md), never a
    parser of its own: `{"ok": true, "floor": {...}}` (FloorPlan.drawn) or `{"ok": false, "message", "line",
    "column"}`, the message as `validate` words it."""
    return ViewResponse(service.parse_floor(body.text, body.name))


@router.post("/api/floors", summary="Save a floor (checked first) to the table's floors folder; needs the PIN",
             status_code=201, **returns(FloorChecked, "the floor saved, as it was checked", statuses=(201,), also={
                 409: {"description": "a shipped floor's name: choose another (name_taken)"}}),
             openapi_extra=checked_beyond_the_schema(
                 floor_error="a floor's text that does not compile: the message names its line and column, as "
                             "`burncycle-table validate` does"))
def save(body: SavedFloor, service: Service, _: Player) -> ViewResponse:
    return ViewResponse(service.save_floor(body.name, body.text), status_code=201)
