"""Hints for the players: "What would the table do?" (`/api/hint`) and "Show threat" (`/api/threat`).

POST starts thinking about the game as it is now, or joins the same question already asked, or answers it at
once from the answers kept (the same tap, the same answer); GET says how it stands; DELETE stops it. The
thinking runs in the table's hint desk, a worker process (controller/service/hints), never here: every route returns at
once, and the live feed pushes the question's progress and its answer (a "hint" message). Asking needs the
table's PIN (a search costs the table's CPU), not a table that may be changed: a hint changes nothing.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Request

from controller.service.table import HintKind
from controller.service.views import HintsWarmed, HintView
from web.auth import check_origin, require_watcher
from web.contract import ViewResponse, refuses, returns
from web.deps import Service

router = APIRouter(prefix="/api", tags=["hints"])
REFUSALS = refuses(401, 403, 404)  # no session, another site's page, no game yet
VIEW = ("the question's view: its status (idle, thinking, ready, cancelled, failed), progress and, when ready, "
        "the hint or the threat's shades by space (docs/http-api.md); 202 while it thinks")


def asker(request: Request) -> None:
    """Whoever holds the PIN, from the table's own pages."""
    check_origin(request)
    require_watcher(request)


Asker = Annotated[None, Depends(asker)]


def _answer(view: HintView) -> ViewResponse:
    return ViewResponse(view, status_code=202 if view.status == "thinking" else 200)


def _routes(kind: HintKind, what: str) -> None:
    path: Literal["/hint", "/threat"] = "/hint" if kind == "hint" else "/threat"

    @router.post(path, summary=f"Ask for {what} for the game as it is now (202 while it thinks: its progress "
                 "comes on the live feed)", **returns(HintView, VIEW, statuses=(200, 202), also=REFUSALS),
                 name=f"ask_{kind}")
    async def ask(service: Service, _: Asker) -> ViewResponse:
        return _answer(service.ask_hint(kind))  # no game yet: the session's refusal

    @router.get(path, summary=f"How the last question for {what} stands",
                **returns(HintView, VIEW, statuses=(200, 202)), name=f"view_{kind}")
    async def view(service: Service) -> ViewResponse:
        return _answer(service.hint_view(kind))

    @router.delete(path, summary=f"Stop thinking about {what}",
                   **returns(HintView, VIEW, statuses=(200, 202), also=REFUSALS), name=f"cancel_{kind}")
    async def cancel(service: Service, _: Asker) -> ViewResponse:
        return _answer(service.cancel_hint(kind))


@router.post("/hint/warm", summary="Start the hints' worker now, so the first question is answered within its "
             "budget (the page sends it when a phone is unlocked)",
             **returns(HintsWarmed, "whether this call started the worker", also=refuses(401, 403)))
async def warm(service: Service, _: Asker) -> ViewResponse:
    # (a process spawned: not on the loop)
    return ViewResponse(HintsWarmed(started=await asyncio.to_thread(service.warm_hints)))


_routes("hint", "the table's best three actions")
_routes("threat", "the threat overlay (where the guards may stand and see after the next corporation turn)")
