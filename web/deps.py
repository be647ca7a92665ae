"""Dependencies shared by the routers: the table service the app was made for."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from fastapi import Depends, Request

if TYPE_CHECKING:
    from controller.service.table import TableService


def get_service(request: Request) -> TableService:
    return request.app.state.service  # type: ignore[no-any-return]


Service = Annotated["TableService", Depends(get_service)]
