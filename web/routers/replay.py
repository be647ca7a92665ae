"""A game after the fact: its summary (threat over the rounds, outcome, rounds, actions) and its replay, the
state after any number of its actions with that action's events phrased for people, and its floor laid out as
GET /api/floor lays out the live one (so the replay draws the board the live page draws). Read-only, for
anyone, for the game on the table and for past ones alike."""

from __future__ import annotations

from typing import Any

import msgspec
from fastapi import APIRouter, Path
from fastapi.responses import FileResponse

from controller.rules import GameState
from controller.service.game.replay import ReplayError
from controller.service.game.store import StoreError
from web.auth import ApiError
from web.deps import Service
from web.routers.floor import floor_json
from web.routers.tool_pages import page

router = APIRouter(tags=["replay"])


def _no_such_game(e: StoreError) -> ApiError:
    if "there is no game" not in str(e):
        raise e  # the game log cannot be read: the app says so as a 503
    return ApiError(404, "not_found", str(e))
GameId = Path(ge=1, le=2**62, description="the game's number (GET /api/games lists them)", examples=[1])


@router.get("/games/{game}/replay", include_in_schema=False)
def replay_page(game: int = GameId) -> FileResponse:
    return page("replay")


@router.get("/api/games/{game}/summary", summary="How a game went: outcome, rounds, actions, threat by round")
def summary(service: Service, game: int = GameId) -> dict[str, Any]:
    try:
        return service.game_summary(game)
    except StoreError as e:
        raise _no_such_game(e) from None


@router.get("/api/games/{game}/replay/{k}",
            summary="The game's state after its first k actions, with the k-th action's events phrased")
def step(service: Service, game: int = GameId,
         k: int = Path(ge=-2**62, le=2**62, description="how many actions in: 0 is the game's start",
                       examples=[3])) -> dict[str, Any]:
    try:
        body = service.replay_step(game, k)
    except StoreError as e:
        raise _no_such_game(e) from None
    except ReplayError as e:
        raise ApiError(404, "not_found", str(e)) from None
    body["floor"] = floor_json(msgspec.convert(body["state"], GameState))
    return body
