"""GET /api/floor: the current game's floor, laid out for drawing (the page's SVG board), as the service's
`FloorView` lays it out (controller/service/views.py): a phone only has to draw, never to know the rules."""

from __future__ import annotations

from fastapi import APIRouter

from controller.service.views import FloorView
from web.contract import ViewResponse, refuses, returns
from web.deps import Service

router = APIRouter(prefix="/api", tags=["floor"])


@router.get("/floor", summary="The current game's floor for drawing: spaces, areas, walls, doors and features",
            **returns(FloorView, also=refuses(404)))
def floor(service: Service) -> ViewResponse:
    return ViewResponse(service.floor())  # before the first game: NoGame, 404 no_game
