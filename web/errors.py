"""Every refusal the web gives, in one place: the HTTP status of each error code, and the web's own refusals.

Every error the project raises on purpose is of one tree, `BurncycleError` (controller/rules/errors.py), and
says only its `code`; the web answers each code with the status this table gives it (docs/http-api.md,
"Errors", lists the same), so no route chooses a status by hand and the rules engine never speaks HTTP. The
web's own refusals (no PIN, another site's page, a body too large, a file the page does not have) are errors of
the same tree, below. A code this table does not know is a bug of the table's: 500.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse

from controller.rules import BurncycleError

STATUSES: dict[str, int] = {
    # the request is malformed, or names what cannot be: the message names the field
    "bad_request": 422, "bad_face": 422, "bad_command": 422, "content_error": 422, "dice_error": 422,
    "floor_error": 422, "record_error": 422, "user_error": 422,
    # who may do what (web/auth.py)
    "pin_required": 401, "wrong_pin": 401, "bad_origin": 403, "read_only": 403, "too_many_tries": 429,
    # there is no such thing (yet)
    "not_found": 404, "no_game": 404, "no_camera": 404, "no_picture": 404,
    "method_not_allowed": 405, "too_large": 413, "bad_media_type": 415,
    # refused as things stand: the rules say no, or there is nothing to do
    "illegal_action": 409, "refused": 409, "dice_needed": 409, "state_error": 409, "rules_error": 409,
    "table_error": 409, "camera_error": 409, "not_a_door": 409,
    "setup_mismatch": 409, "name_taken": 409,
    # a part of the table is down: try again later
    "store_error": 503, "mqtt_error": 503, "simulated_board_error": 503,
    # the table is set up wrong, or a bug
    "config_error": 500, "gpio_config": 500, "led_layout": 500, "web_error": 500, "server_error": 500,
}
# the code of a refusal Starlette makes by itself (an unknown path, a wrong method, a body that is not JSON)
CODES: dict[int, str] = {400: "bad_request", 401: "pin_required", 403: "bad_origin", 404: "not_found",
                         405: "method_not_allowed", 409: "refused", 413: "too_large", 415: "bad_media_type",
                         422: "bad_request", 429: "too_many_tries"}


def status_of(code: str) -> int:
    return STATUSES.get(code, 500)


def refusal(error: BurncycleError) -> JSONResponse:
    """The answer to `error`: {"error": code, "message": text} and what its kind adds, with its code's status."""
    body: dict[str, Any] = {"error": error.code, "message": str(error)}
    headers: Mapping[str, str] | None = None
    if isinstance(error, WebRefusal):
        body.update(error.extra)
        headers = error.headers
    return JSONResponse(body, status_code=status_of(error.code), headers=headers)


class WebRefusal(BurncycleError):
    """A refusal of the web's own; `extra` joins the JSON body (`tries_left`, `retry_after`), `headers` the
    answer's (`Retry-After`, `Allow`)."""

    headers: Mapping[str, str] | None = None
    extra: Mapping[str, Any] = MappingProxyType({})

    def __init__(self, message: str, *, headers: Mapping[str, str] | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.headers = dict(headers) if headers else None
        self.extra = extra


class PinRequired(WebRefusal):
    """A change (or the camera's picture) without a session: log in with the table's PIN first."""

    code = "pin_required"


class WrongPin(WebRefusal):
    """A wrong PIN; `tries_left` says how many before a wait."""

    code = "wrong_pin"


class TooManyTries(WebRefusal):
    """Too many wrong PINs: `retry_after` seconds (and the `Retry-After` header) say how long to wait."""

    code = "too_many_tries"


class BadOrigin(WebRefusal):
    """A browser's request from a page that is not the table's own."""

    code = "bad_origin"


class ReadOnly(WebRefusal):
    """A change asked of a read-only table (web.read_only)."""

    code = "read_only"


class TooLarge(WebRefusal, HTTPException):
    """A body larger than its endpoint takes, refused before it is read. It is raised while the body is read
    (web/body_limit.py), where FastAPI lets only an `HTTPException` through unchanged (any other error there it
    calls a body it cannot parse); the app still answers it as an error of the tree, by its code."""

    code = "too_large"
    status_code = STATUSES[code]
    detail = "the body is larger than this endpoint takes"
    __str__ = Exception.__str__  # the message alone, as every error of the tree says it

    def __init__(self, message: str, *, headers: Mapping[str, str] | None = None) -> None:
        WebRefusal.__init__(self, message, headers=headers)
        self.detail = message


class NotFound(WebRefusal):
    """No such thing at this address (a file the page does not have)."""

    code = "not_found"


class MethodNotAllowed(WebRefusal):
    """A method the address does not take; the `Allow` header lists those it takes."""

    code = "method_not_allowed"


class BadRequest(WebRefusal):
    """A request the web cannot read (an empty body where a file is expected)."""

    code = "bad_request"
