"""Hints for the players: "What would the table do?" (`/api/hint`) and "Show threat" (`/api/threat`).

POST starts thinking about the game as it is now, or joins the same question already asked, or answers it at
once from the answers kept (the same tap, the same answer); GET says how it stands; DELETE stops it. The
thinking runs in the table's hint desk, a worker process (controller/service/hints), never here: every route returns at
once, and the live feed pushes the question's progress and its answer (a "hint" message). Asking needs the
table's PIN (a search costs the table's CPU), not a table that may be changed: a hint changes nothing.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

import msgspec
from fastapi import APIRouter, Depends, Request, Response

from controller.service.table import HintKind, HintView
from web.auth import check_origin, require_watcher
from web.deps import Service

router = APIRouter(prefix="/api", tags=["hints"])
REFUSALS: dict[int | str, dict[str, Any]] = {
    401: {"description": "no session: log in with the table's PIN (POST /api/session)"},
    403: {"description": "another site's Origin (bad_origin)"},
    404: {"description": "there is no game yet (no_game)"},
}
VIEW: dict[int | str, dict[str, Any]] = {
    200: {"description": "the question's view: its status (idle, thinking, ready, cancelled, failed), progress "
                         "and, when ready, the hint or the threat's shades by space (docs/http-api.md)"}}


def asker(request: Request) -> None:
    """Whoever holds the PIN, from the table's own pages."""
    check_origin(request)
    require_watcher(request)


Asker = Annotated[None, Depends(asker)]


def _answer(view: HintView) -> Response:
    return Response(msgspec.json.encode(view), media_type="application/json",
                    status_code=202 if view.status == "thinking" else 200)


def _routes(kind: HintKind, what: str) -> None:
    path: Literal["/hint", "/threat"] = "/hint" if kind == "hint" else "/threat"

    @router.post(path, summary=f"Ask for {what} for the game as it is now (202 while it thinks)",
                 responses={**REFUSALS, **VIEW, 202: {"description": "thinking: its progress comes on the live "
                                                                     "feed"}}, name=f"ask_{kind}")
    async def ask(service: Service, _: Asker) -> Response:
        return _answer(service.ask_hint(kind))  # no game yet: the session's refusal

    @router.get(path, summary=f"How the last question for {what} stands", responses=VIEW, name=f"view_{kind}")
    async def view(service: Service) -> Response:
        return _answer(service.hint_view(kind))

    @router.delete(path, summary=f"Stop thinking about {what}", responses={**REFUSALS, **VIEW},
                   name=f"cancel_{kind}")
    async def cancel(service: Service, _: Asker) -> Response:
        return _answer(service.cancel_hint(kind))


@router.post("/hint/warm", summary="Start the hints' worker now, so the first question is answered within its "
             "budget (the page sends it when a phone is unlocked)", responses=REFUSALS)
async def warm(service: Service, _: Asker) -> dict[str, bool]:
    return {"started": await asyncio.to_thread(service.warm_hints)}  # (a process spawned: not on the loop)


_routes("hint", "the table's best three actions")
_routes("threat", "the threat overlay (where the guards may stand and see after the next corporation turn)")
