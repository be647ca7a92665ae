"""The table's web face: a FastAPI app over the service's public API (never the engine's internals).

`create_app(service)` builds it; the service's process serves it under uvicorn. Routers, one per resource,
live in web/routers; they reach the service through the `get_service` dependency, so tests hand the app any
service they like.
"""

from web.app import create_app

__all__ = ["create_app"]
