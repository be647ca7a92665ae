"""schemathesis against the app's own OpenAPI schema: every route, with bodies and parameters made from the
schema and broken on purpose, answers without a server error (and any refusal as {"error", "message"}), for a
stranger and for a logged-in player. Hypothesis runs derandomized, so a run is the same every time."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from controller.service.table import TableService
from tests.support.web_helpers import PIN
from web import create_app
from web.auth import COOKIE

EXAMPLES = 8  # per route and mode: enough to hit each parameter's edges, quick enough for every run


def server_errors(service: TableService, logged_in: bool) -> tuple[list[str], set[str]]:
    """Every server error (and refusal not in the JSON shape) the generated calls found, and the routes that
    answered at least one call with a success."""
    app = create_app(service, pin=PIN)
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    found: list[str] = []
    succeeded: set[str] = set()
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 25
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            @given(case=operation.as_strategy(generation_mode=mode))
            @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                      suppress_health_check=list(HealthCheck))
            def call(case: schemathesis.Case) -> None:
                # a fresh session each call: the generated calls include logging out
                cookies = {COOKIE: app.state.auth.log_in("schemathesis", PIN)} if logged_in else {}
                response = case.call(cookies=cookies)
                where = f"{case.method} {case.formatted_path} {case.query or ''} {str(case.body)[:100]}"
                if response.status_code < 400:
                    succeeded.add(case.operation.label)
                if response.status_code >= 500:
                    found.append(f"{where}: {response.status_code} {response.text[:200]}")
                elif response.status_code >= 400 and not {"error", "message"} <= set(response.json()):
                    found.append(f"{where}: {response.status_code} without error and message: {response.text}")
            try:
                call()
            except Unsatisfiable:  # a route with nothing to break (no parameters, no body) has no negative case
                assert mode is GenerationMode.NEGATIVE, operation.label
    return found, succeeded


@pytest.mark.parametrize("logged_in", [False, True], ids=["stranger", "player"])
def test_no_route_answers_with_a_server_error(served: tuple[TableService, int], logged_in: bool) -> None:
    found, succeeded = server_errors(served[0], logged_in)
    assert found == []
    changes = {"POST /api/next", "PUT /api/dice/mode", "POST /api/games", "POST /api/undo"}
    # a player's calls get through to the game; a stranger's never change it
    assert (changes <= succeeded) if logged_in else not (changes & succeeded), succeeded
