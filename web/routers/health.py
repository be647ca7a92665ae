"""GET /health: every component's state, in words a person at the table can act on."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from web.deps import Service

router = APIRouter(tags=["health"])


@router.get("/health", summary="The table's health: each component's state and message")
def health(service: Service) -> JSONResponse:
    body: dict[str, Any] = service.health()
    # a monitor (systemd, a venue's dashboard) reads the status code alone: 503 while a part has failed
    # (the overall status is only "degraded" then, so each component's own state decides) or nothing runs
    failed = any(part["state"] == "failed" for part in body["components"].values())
    code = 503 if failed or body["status"] == "stopped" else 200
    return JSONResponse(body, status_code=code)
