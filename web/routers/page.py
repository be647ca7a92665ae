"""GET /: the table's page, a read-only live view built from the JSON endpoints (the dashboard issue grows it)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

router = APIRouter(tags=["page"])
PAGE = Path(__file__).resolve().parents[1] / "static" / "table.html"


@router.get("/", include_in_schema=False)
def page() -> FileResponse:
    return FileResponse(PAGE, media_type="text/html")
