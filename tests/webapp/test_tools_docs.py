"""docs/dashboard-tools.md is what a client of the tool pages' routes is written from: it names every one."""

from __future__ import annotations

from pathlib import Path

from fastapi.routing import APIRoute

from web.routers import camera, floors, replay

DOC = Path(__file__).resolve().parents[2] / "docs" / "dashboard-tools.md"


def test_every_route_of_the_tools_is_in_their_doc() -> None:
    text = DOC.read_text(encoding="utf-8")
    routes = [r for m in (floors, replay, camera) for r in m.router.routes if isinstance(r, APIRoute)]
    assert len(routes) == 17
    for route in routes:
        path = route.path.replace("{game}", "{id}")
        for method in route.methods:
            named = f"`{method} {path}" in text if route.include_in_schema else f"`{path}`" in text
            assert named, f"docs/dashboard-tools.md does not name {method} {route.path}"
