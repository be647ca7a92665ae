"""The game as JSON: its state, the session's status, and every numbered change since a given one."""

from __future__ import annotations

from fastapi import APIRouter, Query

from controller.service.views import Changes, StateView, Status, TableView
from web.contract import ViewResponse, refuses, returns
from web.deps import Service

router = APIRouter(prefix="/api", tags=["game"])


@router.get("/state", summary="The current game: the session's status and the whole game state",
            **returns(StateView, also=refuses(404)))
def state(service: Service) -> ViewResponse:
    return ViewResponse(service.state_view())


@router.get("/status", summary="The session's status: game, last change number, dice, undo and redo",
            **returns(Status))
def status(service: Service) -> ViewResponse:
    return ViewResponse(service.status())


@router.get("/changes", summary="Every change numbered after `after` (oldest first), to catch up from",
            **returns(Changes))
def changes(service: Service, after: int = Query(0, ge=0, le=2**62, description="the last change number seen"),
            limit: int = Query(200, ge=1, le=1000)) -> ViewResponse:
    batch = service.changes_since(after, limit)
    return ViewResponse(Changes(changes=[service.change_view(c) for c in batch],
                                last=batch[-1].number if batch else max(after, 0), number=service.number))


@router.get("/table", summary="What the camera sees against the game: misplaced chips, questions, instructions",
            **returns(TableView))
def table(service: Service) -> ViewResponse:
    return ViewResponse(service.table_view())
