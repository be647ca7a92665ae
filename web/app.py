"""The FastAPI app of one table service, and the one JSON shape of every refusal."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from controller.rules import BurncycleError
from web.auth import ApiError, TableAuth, new_pin
from web.auth import router as session_router
from web.body_limit import BodyLimit
from web.hub import Hub
from web.routers import address, camera, floor, floors, game, games, health, hints, leds, live, page, play, replay

if TYPE_CHECKING:
    from controller.service.table import TableService

log = logging.getLogger(__name__)
# the code of a refusal Starlette makes by itself (an unknown path, a wrong method)
STATUS_CODES = {400: "bad_request", 401: "pin_required", 403: "forbidden", 404: "not_found",
                405: "method_not_allowed", 409: "refused", 413: "too_large", 415: "bad_media_type",
                422: "bad_request", 429: "too_many_tries"}
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


def create_app(service: TableService, *, pin: str | None = None, read_only: bool | None = None,
               clock: Callable[[], float] | None = None) -> FastAPI:
    """The app for `service`. The PIN is `pin`, else the config's web.pin, else a random 6-digit one
    (`app.state.auth.pin`, which `run` and `demo` print); `read_only` defaults to the config's web.read_only."""
    # no /docs or /redoc: FastAPI's pages load their scripts from a CDN, and nothing may leave the table's network
    app = FastAPI(title="burncycle-table", version="1", docs_url=None, redoc_url=None,
                  description="The table service: the live game of one burncycle table, its changes and health. "
                              "Anyone may read; changing the game needs the table's PIN (POST /api/session). "
                              "Every refusal is JSON {\"error\": code, \"message\": text}; see docs/http-api.md.")
    app.state.service = service
    web = service.config.web
    auth = TableAuth(pin or web.pin or new_pin(), read_only=web.read_only if read_only is None else read_only,
                     clock=clock or time.monotonic)
    app.state.auth = auth
    service.on_owner_press(auth.lift)  # a long press of "next" lifts a pause of logins (web/auth.py)
    app.state.hub = Hub(service)
    app.include_router(health.router)
    app.include_router(game.router)
    app.include_router(leds.router)
    app.include_router(session_router)
    app.include_router(play.router)
    app.include_router(hints.router)
    app.include_router(games.router)
    app.include_router(live.router)
    app.include_router(page.router)
    app.include_router(floor.router)
    app.include_router(address.router)
    app.include_router(floors.router)
    app.include_router(replay.router)
    app.include_router(camera.router)
    app.mount("/static", page.Assets(), name="static")  # the pages' scripts, styles and pictures
    _install_error_handlers(app)
    app.add_middleware(BodyLimit, limits={"/api/games/import": games.MOST_IMPORT_BYTES,
                                          "/api/games": games.MOST_NEW_GAME_BYTES,
                                          "/api/floors": floors.MOST_FLOOR_BYTES,
                                          "/api/floors/check": floors.MOST_FLOOR_BYTES,
                                          "/api/floors/parse": floors.MOST_FLOOR_BYTES})
    return app


def _install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [_problem(e) for e in exc.errors()]
        return JSONResponse({"error": "bad_request", "message": "; ".join(problems)}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def refused(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if isinstance(exc, ApiError):
            return JSONResponse(exc.body(), status_code=exc.status_code, headers=exc.headers)
        code = STATUS_CODES.get(exc.status_code, "error")
        message = str(exc.detail)
        status = exc.status_code
        if status == 400 and "parsing the body" in message:  # FastAPI's word for a body that is not JSON
            status, message = 422, "body: not valid JSON: send the request's fields as a JSON object"
        if exc.status_code == 404 and message == "Not Found":
            message = f"{request.method} {request.url.path}: no such endpoint (the API: /openapi.json)"
        headers = exc.headers
        if exc.status_code == 405:
            allowed = _methods_of(request)
            headers = {**(exc.headers or {}), "Allow": ", ".join(allowed)}
            message = (f"{request.method} {request.url.path}: this endpoint does not take {request.method}; "
                       f"it takes {', '.join(allowed)}")
        return JSONResponse({"error": code, "message": message}, status_code=status, headers=headers)

    @app.exception_handler(BurncycleError)
    async def table_refused(request: Request, exc: BurncycleError) -> JSONResponse:
        """Any error of the project's tree: its class says the code and the status (controller/rules/errors.py)."""
        return JSONResponse({"error": exc.code, "message": str(exc)}, status_code=exc.status)

    @app.exception_handler(Exception)
    async def server_error(request: Request, exc: Exception) -> JSONResponse:
        log.exception("%s %s failed", request.method, request.url.path)
        return JSONResponse({"error": "server_error", "message": f"{request.method} {request.url.path}: the table "
                             f"service failed ({type(exc).__name__}); the log has the details"}, status_code=500)


def _methods_of(request: Request) -> list[str]:
    """Every method the request's path takes, over all its routes: Starlette's own 405 names only the first
    route's (POST of /api/dice, not its DELETE). Each method is asked of the router as a request would be."""
    return [method for method in METHODS
            if any(route.matches({**request.scope, "method": method})[0] is Match.FULL
                   for route in request.app.router.routes)]


def _problem(error: dict[str, object]) -> str:
    """One validation problem as a line: where in the request (body.action.tag) and what is wrong."""
    loc = error.get("loc")
    where = ".".join(str(p) for p in loc) if isinstance(loc, tuple | list) else ""
    return f"{where}: {error.get('msg')}" if where else str(error.get("msg"))
