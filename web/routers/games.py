"""Games: what a new game may be, starting one, the list of games in the log, one game exported as a file,
a file imported, and a past game resumed. Reading is for anyone; every change needs `Player`."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from controller.rules import LEVELS, Difficulty, GameRecord
from controller.service.table import FLOOR_NAME, MOST_FLOOR_CHARS
from controller.service.views import Games, Options
from web.auth import Player
from web.contract import ViewResponse, checked_beyond_the_schema, named, returns, schema_of
from web.deps import Service
from web.errors import BadRequest
from web.params import GameId
from web.routers.play import REFUSALS, changed, changes

router = APIRouter(prefix="/api", tags=["games"])
RECORD = schema_of(GameRecord)  # what an export writes and an import reads
MOST_IMPORT_BYTES = 32 * 1024 * 1024   # a long four-player game's record is a few MB (web/body_limit.py)
MOST_NEW_GAME_BYTES = 1024 * 1024      # a custom floor's text rides along (20,000 characters: at most 240 kB)


class NewGameBody(BaseModel):
    """A new game: a floor by name (or a floor's text in the .floor format, named `floor`), the mission, the
    agents in turn order, the difficulty, an Adaptable mission's level, the captain. The names are the content's
    (`named`: the schema lists them from GET /api/options); a floor's name that is neither shipped nor saved here
    is 404, a level for a mission that is not Adaptable 409 (setup_mismatch), as are start spaces where the bots
    start at the entrance."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"floor": "meridian-lobby", "mission": "data-heist", "agents": ["nano", "casing"],
         "difficulty": "standard", "level": None, "captain": "fauxbia"}]})
    floor: str = Field(pattern=FLOOR_NAME, max_length=40, json_schema_extra=named("floors"),
                       description="a shipped floor, or one saved here; with `floor_text`, the custom floor's name")
    floor_text: str | None = Field(None, max_length=MOST_FLOOR_CHARS, description="a custom floor's .floor text")
    mission: str = Field(min_length=1, max_length=100, json_schema_extra=named("missions"))
    agents: list[str] = Field(min_length=1, max_length=4, json_schema_extra={**named("agents"), "uniqueItems": True},
                              description="the agents in turn order, each once")
    difficulty: Difficulty = "standard"
    level: int | None = Field(None, ge=LEVELS[0], le=LEVELS[-1],
                              description="an Adaptable mission's level (only an Adaptable mission takes one)")
    captain: str | None = Field(None, max_length=100, json_schema_extra=named("captains"),
                                description="the captain (none: the table's, as table.toml sets it)")
    start: dict[str, str] | None = Field(None, max_length=5,
                                         description="where bots start when the rules let the team choose (a "
                                                     "safe zone space of their choice): bot id -> space id, e.g. "
                                                     '{"byte": "Q3", "casing": "D15"}; a bot not named takes the '
                                                     "first free safe zone space in reading order")


@router.get("/options", summary="What a new game may be: floors, missions, agents, difficulties, levels, captains",
            **returns(Options))
def options(service: Service) -> ViewResponse:
    return ViewResponse(service.options())


NEW_GAME_REFUSALS = {
    **REFUSALS,
    404: {"description": "a floor's name that is neither shipped nor saved here (not_found)"},
    409: {"description": "a setup whose choices do not fit together: a level for a mission that is not "
                         "Adaptable, start spaces where the bots start at the entrance (setup_mismatch)"},
}


@router.post("/games", summary="Start a new game (the current one stays in the log)", **changes(NEW_GAME_REFUSALS),
             openapi_extra=checked_beyond_the_schema(
                 floor_error="a custom floor's text (`floor_text`) that does not compile: the message names its "
                             "line and column, as `burncycle-table validate` does"))
def new_game(body: NewGameBody, service: Service, _: Player) -> ViewResponse:
    return changed(service, service.start_game(floor=body.floor, mission=body.mission, agents=body.agents,
                                               difficulty=body.difficulty, level=body.level,
                                               captain=body.captain, floor_text=body.floor_text,
                                               start=body.start))


@router.get("/games", summary="Every game in the log, the current one marked", **returns(Games))
def games(service: Service) -> ViewResponse:
    return ViewResponse(service.games())


@router.get("/games/{game}/export", summary="One game's record as one JSON file, for another table's import",
            response_class=Response, responses={200: {"description": "the game's record, with its digests",
                                                      "content": {"application/json": {"schema": RECORD}}}, 404: {}})
def export_game(service: Service, game: int = GameId) -> Response:
    return Response(service.export_game(game), media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="burncycle-game-{game}.json"'})


@router.post("/games/import", summary="Import an exported game (the file's bytes as the body): replayed and "
             "checked, then made the current game", **changes(REFUSALS),
             openapi_extra={"requestBody": {"required": True, "description": "a file GET /api/games/{game}/export "
                                            "wrote", "content": {"application/json": {"schema": RECORD}}},
                            **checked_beyond_the_schema(
                                record_error="a record that is not a game of this release: its version is another "
                                             "release's, its start state fails what `burncycle-table validate` "
                                             "checks of a state, or an entry does not replay to its digest")})
async def import_game(request: Request, service: Service, _: Player) -> ViewResponse:
    data = await request.body()
    if not data.strip():
        raise BadRequest("body: empty: send the file GET /api/games/{game}/export wrote")
    # replaying a long game takes a while: off the event loop, so the live feed goes on meanwhile
    return changed(service, await run_in_threadpool(service.import_game, data))


@router.post("/games/{game}/resume", summary="Make a past game the current one again", **changes(REFUSALS))
def resume(service: Service, _: Player, game: int = GameId) -> ViewResponse:
    return changed(service, service.resume_game(game))
