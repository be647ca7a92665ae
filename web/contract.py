"""The web's side of the contract: every answer is one of the service's typed views (controller/service/views.py),
encoded by msgspec, and the OpenAPI schema declares it from the same class.

FastAPI writes a route's response schema only from pydantic models, and the views are msgspec Structs, shared
with the live feed and the MQTT bridge (turning them into pydantic models would make a second description to
keep in step, and a second encoder). So a route declares its view with `returns(View)`: the view's name goes
into the route's documented responses as a reference, the answer is a `ViewResponse` (msgspec's encoding of the
view), and `install_schema` adds msgspec's JSON schema of every declared view to the app's /openapi.json. What
a route sends and what the schema says it sends are made from one class.
"""

from __future__ import annotations

from typing import Any

import msgspec
from fastapi import FastAPI
from fastapi.responses import Response

Responses = dict[int | str, dict[str, Any]]
SCHEMAS = "#/components/schemas/{name}"
_declared: dict[str, type[msgspec.Struct]] = {}  # every view a route answers with, by its name in the schema


class ViewResponse(Response):
    """A view as JSON, encoded by msgspec (the live feed and MQTT encode the same views the same way)."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return msgspec.json.encode(content)


def schema_of(view: type[msgspec.Struct]) -> dict[str, Any]:
    """A reference to `view`'s schema, declared for /openapi.json."""
    known = _declared.setdefault(view.__name__, view)
    if known is not view:
        raise TypeError(f"two views are named {view.__name__}: {known.__module__} and {view.__module__}")
    return {"$ref": SCHEMAS.format(name=view.__name__)}


def returns(view: type[msgspec.Struct], description: str = "the answer", *, also: Responses | None = None,
            statuses: tuple[int, ...] = (200,)) -> dict[str, Any]:
    """The route decorator's arguments for a route answering `view` (with each of `statuses`), and `also` the
    other responses it documents."""
    content = {"application/json": {"schema": schema_of(view)}}
    answers: Responses = {status: {"description": description, "content": content} for status in statuses}
    return {"response_class": ViewResponse, "responses": {**answers, **(also or {})}}


def install_schema(app: FastAPI) -> None:
    """Make `app`'s /openapi.json carry the schema of every view its routes declare."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = FastAPI.openapi(app)
        _, components = msgspec.json.schema_components(list(_declared.values()), ref_template=SCHEMAS)
        schemas = schema.setdefault("components", {}).setdefault("schemas", {})
        clash = set(schemas) & set(components)
        if clash:
            raise TypeError(f"a view and a request body share the schema names {sorted(clash)}")
        schemas.update(components)
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
