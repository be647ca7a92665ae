"""The game as JSON: its state, the session's status, and every numbered change since a given one."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query

from web.auth import ApiError
from web.deps import Service

router = APIRouter(prefix="/api", tags=["game"])


@router.get("/state", summary="The current game: the session's status and the whole game state")
def state(service: Service) -> dict[str, Any]:
    if not service.has_game():
        raise ApiError(404, "no_game", "there is no game yet: start a new game")
    return {"status": service.status(), "state": service.state_json()}


@router.get("/status", summary="The session's status: game, last change number, dice, undo and redo")
def status(service: Service) -> dict[str, Any]:
    return service.status()


@router.get("/changes", summary="Every change numbered after `after` (oldest first), to catch up from")
def changes(service: Service, after: int = Query(0, ge=0, le=2**62, description="the last change number seen"),
            limit: int = Query(200, ge=1, le=1000)) -> dict[str, Any]:
    batch = service.changes_since(after, limit)
    return {"changes": [service.change_json(c) for c in batch],
            "last": batch[-1].number if batch else max(after, 0), "number": service.number}


@router.get("/table", summary="What the camera sees against the game: misplaced chips, questions, instructions")
def table(service: Service) -> dict[str, Any]:
    return service.table_view()
