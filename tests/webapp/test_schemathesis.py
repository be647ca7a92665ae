"""schemathesis against the app's own OpenAPI schema: every route, with bodies and parameters made from the
schema and broken on purpose, answers without a server error (and any refusal as {"error", "message"}), for a
stranger and for a logged-in player. Hypothesis runs derandomized, so a run is the same every time."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.core.failures import FailureGroup
from schemathesis.specs.openapi.checks import positive_data_acceptance, status_code_conformance

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


def contract_failures(service: TableService) -> list[str]:
    """What schemathesis's contract checks find, for a logged-in player: a status the schema does not declare
    for its route (status_code_conformance), or a request valid by the schema that the table refuses as
    malformed (positive_data_acceptance)."""
    app = create_app(service, pin=PIN)
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    found: list[str] = []
    for operation in [result.ok() for result in schema.get_all_operations()]:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            @given(case=operation.as_strategy(generation_mode=mode))
            @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                      suppress_health_check=list(HealthCheck))
            def call(case: schemathesis.Case) -> None:
                cookies = {COOKIE: app.state.auth.log_in("schemathesis", PIN)}
                response = case.call(cookies=cookies)
                try:
                    case.validate_response(response, checks=[status_code_conformance, positive_data_acceptance])
                except FailureGroup as failures:
                    where = f"{case.method} {case.formatted_path} {str(case.body)[:80]}"
                    found.extend(f"{where}: {response.status_code} {getattr(f, 'title', f)} {response.text[:100]}"
                                 for f in failures.exceptions)
            try:
                call()
            except Unsatisfiable:
                assert mode is GenerationMode.NEGATIVE, operation.label
    return found


# bodies checked beyond what a schema can say: a floor that compiles, a game record that replays to its digests, a
# setup of floors, missions and agents the table has and that fit together; a schema-valid body these refuse is
# answered 422 with what is wrong
CHECKED_BEYOND_THE_SCHEMA = {"POST /api/floors", "POST /api/games", "POST /api/games/import"}


@pytest.mark.slow
def test_the_schema_is_the_contract(served: tuple[TableService, int]) -> None:
    """Every status a route answers is one its schema declares (with the refusal body), and a request the schema
    calls valid is refused as malformed only by the routes whose bodies are checked beyond the schema."""
    found = contract_failures(served[0])
    assert [f for f in found if "Undocumented status code" in f] == []
    refused = {" ".join(f.split()[:2]) for f in found if "Schema-valid request rejected" in f}
    assert refused <= CHECKED_BEYOND_THE_SCHEMA
    assert len(found) == len([f for f in found if "Schema-valid request rejected" in f])
