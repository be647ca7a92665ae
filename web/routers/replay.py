"""A game after the fact: its summary (threat over the rounds, outcome, rounds, actions) and its replay, the
state after any number of its actions with that action's events phrased for people, and its floor laid out as
GET /api/floor lays out the live one (so the replay draws the board the live page draws). Read-only, for
anyone, for the game on the table and for past ones alike."""

from __future__ import annotations

from fastapi import APIRouter, Path
from fastapi.responses import FileResponse

from controller.service.views import ReplayStep, Summary
from web.contract import ViewResponse, refuses, returns
from web.deps import Service
from web.params import GameId
from web.routers.page import page

router = APIRouter(tags=["replay"])


@router.get("/games/{game}/replay", include_in_schema=False)
def replay_page(game: int = GameId) -> FileResponse:
    return page("replay")


@router.get("/api/games/{game}/summary", summary="How a game went: outcome, rounds, actions, threat by round",
            **returns(Summary, also=refuses(404)))
def summary(service: Service, game: int = GameId) -> ViewResponse:
    return ViewResponse(service.game_summary(game))  # an unknown game is the store's NoSuchGame: 404 not_found


@router.get("/api/games/{game}/replay/{k}",
            summary="The game's state after its first k actions, with the k-th action's events phrased",
            **returns(ReplayStep, also=refuses(404)))
def step(service: Service, game: int = GameId,
         k: int = Path(ge=-2**62, le=2**62, description="how many actions in: 0 is the game's start",
                       examples=[3])) -> ViewResponse:
    return ViewResponse(service.replay_step(game, k))  # a step past the end is a ReplayError: 404 not_found
