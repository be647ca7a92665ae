"""Dependencies shared by the routers: the table service the app was made for, the one way the web reaches
the table (its verbs, never its parts)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from fastapi import Depends, Request

if TYPE_CHECKING:
    from controller.service.table import TableService


def get_service(request: Request) -> TableService:
    service: TableService = request.app.state.service
    return service


Service = Annotated["TableService", Depends(get_service)]
