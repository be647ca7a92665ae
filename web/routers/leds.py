"""GET /api/leds: what the LEDs show now (the virtual strip of a table without a board, or the board's frame).

The dashboard is not sent this: the live feed pushes it the colours the LEDs settle on (`preview`), once each time
the game changes them (web/hub.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import APIRouter

from web.deps import Service

if TYPE_CHECKING:
    from controller.leds.render import LogicalFrame

router = APIRouter(prefix="/api", tags=["leds"])


def _hex(colour: tuple[int, int, int]) -> str:
    return "#%02x%02x%02x" % colour


@router.get("/leds", summary="The LEDs' current colours: the threat track, the five burncycle slots, the status")
def leds(service: Service) -> dict[str, Any]:
    health, frame = service.led_health(), service.led_frame()
    if health is None or frame is None:
        return {"configured": health is not None, "threat": [], "slots": [], "status": None}
    return {"configured": True, "threat": [_hex(c) for c in frame.threat], "slots": [_hex(c) for c in frame.slots],
            "status": _hex(frame.status), "health": health}


def preview(configured: bool, frame: LogicalFrame | None) -> dict[str, Any]:
    """The live feed's "leds": the colours of a frame (the LEDs at rest), or none yet or on a table without LEDs."""
    if frame is None:
        return {"configured": configured, "threat": [], "slots": [], "status": None}
    return {"configured": True, "threat": [_hex(c) for c in frame.threat], "slots": [_hex(c) for c in frame.slots],
            "status": _hex(frame.status)}
