"""GET /health: every component's state, in words a person at the table can act on."""

from __future__ import annotations

from fastapi import APIRouter

from controller.service.views import Health
from web.contract import ViewResponse, returns
from web.deps import Service

router = APIRouter(tags=["health"])


@router.get("/health", summary="The table's health: each component's state and message",
            **returns(Health, "the health; 503 while a part has failed or nothing runs", statuses=(200, 503)))
def health(service: Service) -> ViewResponse:
    body = service.health()
    # a monitor (systemd, a venue's dashboard) reads the status code alone: 503 while a part has failed
    # (the overall status is only "degraded" then, so each component's own state decides) or nothing runs
    return ViewResponse(body, status_code=503 if body.failed() else 200)
