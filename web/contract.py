"""The web's side of the contract: every answer is one of the service's typed views (controller/service/views.py),
encoded by msgspec, and the OpenAPI schema declares it from the same class.

FastAPI writes a route's response schema only from pydantic models, and the views are msgspec Structs, shared
with the live feed and the MQTT bridge (turning them into pydantic models would make a second description to
keep in step, and a second encoder). So a route declares its view with `returns(View)`: the view's name goes
into the route's documented responses as a reference, the answer is a `ViewResponse` (msgspec's encoding of the
view), and `install_schema` adds msgspec's JSON schema of every declared view to the app's /openapi.json. What
a route sends and what the schema says it sends are made from one class.

The requests' side says what the table checks: a field naming the content's things (a mission, an agent, a
captain, a shipped floor) lists them, filled in from `GET /api/options` when the schema is made (`named`), so
the names are the content's, never a copy. What no JSON schema can say (a floor's text compiles, a game record
replays to its digests, a face is on the die the game rolls now) a route declares beside its schema
(`checked_beyond_the_schema`): the error codes of those refusals, each with its reason.
"""

from __future__ import annotations

import typing
from typing import TYPE_CHECKING, Any, Literal

import msgspec
from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute, iter_route_contexts

if TYPE_CHECKING:
    from controller.service.views import Options

Responses = dict[int | str, dict[str, Any]]
SCHEMAS = "#/components/schemas/{name}"
NAMED = "x-named"  # a request field's mark: its values are names of the content's things (see `named`)
BEYOND = "x-checked-beyond-the-schema"  # a route's refusals of schema-valid bodies: {code: reason}
Kind = Literal["missions", "agents", "captains", "floors"]
_declared: dict[str, type[msgspec.Struct]] = {}  # every view a route answers with, by its name in the schema


class ViewResponse(JSONResponse):
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


def union_schema(union: Any) -> dict[str, Any]:
    """The schema of a tagged union of Structs (the engine's actions), its members declared for /openapi.json."""
    for member in typing.get_args(union):
        schema_of(member)
    return msgspec.json.schema_components([union], ref_template=SCHEMAS)[0][0]


def returns(view: type[msgspec.Struct], description: str = "the answer", *, also: Responses | None = None,
            statuses: tuple[int, ...] = (200,)) -> dict[str, Any]:
    """The route decorator's arguments for a route answering `view` (with each of `statuses`), and `also` the
    other responses it documents."""
    content = {"application/json": {"schema": schema_of(view)}}
    answers: Responses = {status: {"description": description, "content": content} for status in statuses}
    return {"response_class": ViewResponse, "responses": {**answers, **(also or {})}}


class Refusal(msgspec.Struct, kw_only=True):
    """Every refusal's body: the error's code for programs and a sentence for people (docs/http-api.md, "Errors");
    a wrong PIN adds the tries left, too many the seconds to wait."""

    error: str
    message: str
    tries_left: int | msgspec.UnsetType = msgspec.UNSET
    retry_after: int | msgspec.UnsetType = msgspec.UNSET


# what a status means, whichever route answers it (each route declares the statuses it can answer)
REFUSED = {
    401: "no session, or a wrong PIN: log in with the table's PIN (pin_required, wrong_pin)",
    403: "another site's page (bad_origin), or a read-only table (read_only)",
    404: "no such thing, or no game yet (not_found, no_game, no_camera, no_picture)",
    409: "refused as things stand: the rules say no, or there is nothing to do (illegal_action, refused, ...)",
    413: "the body is larger than this endpoint takes (too_large)",
    422: "a malformed request: the message names the field (bad_request, bad_face, record_error)",
    429: "too many wrong PINs: wait (too_many_tries)",
}


def named(kind: Kind) -> dict[str, Any]:
    """A request field's `json_schema_extra`: its values (a list's items) are names of the content's `kind`, as
    `GET /api/options` lists them; `install_schema` writes them into the schema as its enum. For "floors" the
    schema offers the shipped floors' names or any name a saved floor may have (the field's own pattern): a
    saved floor is the table's, not the content's, and one saved later is refused by no schema."""
    return {NAMED: kind}


def checked_beyond_the_schema(**reasons: str) -> dict[str, Any]:
    """A route's `openapi_extra` for a body checked further than a JSON schema can say: each error code it then
    answers 422 with, and why (a floor's text must compile, a record must replay). Only these refuse a body the
    schema calls valid as malformed; tests/webapp/test_schemathesis.py holds every route to it."""
    return {BEYOND: reasons}


def refuses(*statuses: int) -> Responses:
    """The refusals of the table's own a route can answer with (its guards', its parameters' and its body's are
    found by `install_schema`), each with the one refusal body."""
    return {status: {"description": REFUSED[status]} for status in statuses}


def install_schema(app: FastAPI) -> None:
    """Make `app`'s /openapi.json carry the schema of every view its routes declare, and every refusal each route
    can answer with the one refusal body: what the route's own declaration names, and what its parameters, its
    body and its guards (web/auth.py) can refuse."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = FastAPI.openapi(app)
        refusal = schema_of(Refusal)
        _, components = msgspec.json.schema_components(list(_declared.values()), ref_template=SCHEMAS)
        schemas = schema.setdefault("components", {}).setdefault("schemas", {})
        clash = set(schemas) & set(components)
        if clash:
            raise TypeError(f"a view and a request body share the schema names {sorted(clash)}")
        schemas.update(components)
        names = vocabulary(app.state.service.options())
        for component in list(schemas.values()):
            for field in component.get("properties", {}).values():
                if NAMED in field:
                    _name(field, field.pop(NAMED), names)
        for context in iter_route_contexts(app.routes):  # (each route with the path its router gives it)
            route = context.original_route
            if not isinstance(route, APIRoute) or not route.include_in_schema or context.path_format is None:
                continue
            for method in route.methods or ():
                answers = schema["paths"][context.path_format][method.lower()]["responses"]
                for status in sorted(_refusals(route) | {int(s) for s in answers if s[0] == "4"}):
                    answer = answers.setdefault(str(status), {})
                    if answer.get("description", "Validation Error") == "Validation Error":
                        answer["description"] = REFUSED.get(status, "refused")
                    answer["content"] = {"application/json": {"schema": refusal}}
                reasons = schema["paths"][context.path_format][method.lower()].get(BEYOND, {})
                if reasons:
                    answers["422"]["description"] += "; and beyond the schema: " + "; ".join(
                        f"{code}: {reason}" for code, reason in reasons.items())
        schemas.pop("HTTPValidationError", None)  # FastAPI's own 422 body, never sent: the refusal body is
        schemas.pop("ValidationError", None)
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def vocabulary(options: Options) -> dict[Kind, list[str]]:
    """The names each kind of the content's things is chosen by, as `GET /api/options` lists them (floors: the
    shipped ones)."""
    return {"missions": [m.id for m in options.missions], "agents": [a.id for a in options.agents],
            "captains": [c.id for c in options.captains], "floors": [f.name for f in options.floors if f.shipped]}


def _name(field: dict[str, Any], kind: Kind, names: dict[Kind, list[str]]) -> None:
    """Write `kind`'s names into a request field's schema: its string's (or its items') enum; a floor's name is
    a shipped floor's or any name its pattern allows (a saved floor's)."""
    for branch in field.get("anyOf", [field]):
        target = branch.get("items", branch) if branch.get("type") == "array" else branch
        if target.get("type") != "string":
            continue
        if kind == "floors":
            pattern = {k: target.pop(k) for k in ("type", "pattern", "minLength", "maxLength") if k in target}
            target["anyOf"] = [{"type": "string", "enum": names[kind], "description": "a shipped floor"},
                               {**pattern, "description": "a floor saved here (GET /api/floors lists them)"}]
        else:
            for k in ("pattern", "minLength", "maxLength"):
                target.pop(k, None)
            target["enum"] = names[kind]


def _refusals(route: APIRoute) -> set[int]:
    """The statuses a route's parameters, body and guards can refuse with."""
    from web.auth import check_origin, require_player, require_watcher

    calls = {d.call for d in _dependencies(route.dependant)}
    found = set()
    if route.dependant.path_params or route.dependant.query_params or route.body_field is not None:
        found.add(422)
    if route.body_field is not None or (route.openapi_extra or {}).get("requestBody"):
        found |= {413, 422}
    if require_player in calls or require_watcher in calls:
        found.add(401)
    if require_player in calls or check_origin in calls:
        found.add(403)
    return found


def _dependencies(dependant: Dependant) -> list[Dependant]:
    return [dependant, *(d for sub in dependant.dependencies for d in _dependencies(sub))]
