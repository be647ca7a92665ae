"""GET /api/leds: what the LEDs show now (the virtual strip of a table without a board, or the board's frame).

The dashboard is not sent this: the live feed pushes it the colours the LEDs settle on (`leds_at_rest`), once each time
the game changes them (web/hub.py)."""

from __future__ import annotations

from fastapi import APIRouter

from controller.service.views import Leds
from web.contract import ViewResponse, returns
from web.deps import Service

router = APIRouter(prefix="/api", tags=["leds"])


@router.get("/leds", summary="The LEDs' current colours: the threat track, the five burncycle slots, the status",
            **returns(Leds))
def leds(service: Service) -> ViewResponse:
    return ViewResponse(service.leds_view())
