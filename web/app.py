"""The FastAPI app of one table service."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from web.routers import floors, game, health, leds, page, tool_pages

if TYPE_CHECKING:
    from controller.service.table import TableService


def create_app(service: TableService) -> FastAPI:
    app = FastAPI(title="burncycle-table", version="1",
                  description="The table service: the live game of one burncycle table, its changes and health.")
    app.state.service = service
    app.include_router(health.router)
    app.include_router(game.router)
    app.include_router(leds.router)
    app.include_router(page.router)
    app.include_router(tool_pages.router)
    app.include_router(floors.router)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()]
        return JSONResponse({"error": "bad_request", "message": "; ".join(problems)}, status_code=422)

    return app
