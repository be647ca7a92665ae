"""schemathesis against the app's own OpenAPI schema: every route, with bodies and parameters made from the
schema and broken on purpose, answers without a server error (and any refusal as {"error", "message"}), for a
stranger and for a logged-in player. Hypothesis runs derandomized, so a run is the same every time."""

from __future__ import annotations

from typing import NamedTuple

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from hypothesis.strategies import SearchStrategy
from schemathesis import GenerationMode
from schemathesis.core.failures import FailureGroup
from schemathesis.schemas import APIOperation
from schemathesis.specs.openapi.checks import positive_data_acceptance, status_code_conformance

from controller.service.table import TableService
from tests.support.web_helpers import PIN
from web import create_app
from web.auth import COOKIE
from web.contract import BEYOND

EXAMPLES = 8  # per route and mode: enough to hit each parameter's edges, quick enough for every run


def strategies(operation: APIOperation) -> list[tuple[GenerationMode, SearchStrategy[schemathesis.Case]]]:
    """The calls to make of a route: made from its schema (valid, and broken on purpose), and its documented
    examples (a new game's schema allows so many that fail to fit, a custom floor's text among them, that the
    examples are what starts one for sure)."""
    made = [(mode, operation.as_strategy(generation_mode=mode))
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)]
    return made + [(GenerationMode.POSITIVE, example) for example in operation.get_strategies_from_examples()]


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
        for mode, strategy in strategies(operation):
            @given(case=strategy)
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


class Failure(NamedTuple):
    """One contract check's complaint about one generated call."""

    route: str    # "POST /api/games", as the schema's operation is labelled
    title: str    # schemathesis's name for the check that failed
    status: int
    error: str    # the refusal's code ("" when the answer is not a refusal)
    call: str     # the call and the start of its answer, for the assertion's message


def refusal_code(response: schemathesis.Response) -> str:
    """The error code of a refusal's body ("" for an answer that is not a refusal)."""
    try:
        body = response.json()
    except ValueError:
        return ""
    return str(body.get("error", "")) if isinstance(body, dict) else ""


def contract_failures(service: TableService, examples: int) -> tuple[list[Failure], dict[str, dict[str, str]]]:
    """What schemathesis's contract checks find, for a logged-in player: a status the schema does not declare
    for its route (status_code_conformance), or a request valid by the schema that the table refuses as
    malformed (positive_data_acceptance); and each route's refusals the schema declares beyond itself (BEYOND)."""
    app = create_app(service, pin=PIN)
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    beyond = {f"{method.upper()} {path}": operation.get(BEYOND, {})
              for path, methods in app.openapi()["paths"].items() for method, operation in methods.items()}
    found: list[Failure] = []
    for operation in [result.ok() for result in schema.get_all_operations()]:
        for mode, strategy in strategies(operation):
            @given(case=strategy)
            @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
                      suppress_health_check=list(HealthCheck))
            def call(case: schemathesis.Case) -> None:
                cookies = {COOKIE: app.state.auth.log_in("schemathesis", PIN)}
                response = case.call(cookies=cookies)
                try:
                    case.validate_response(response, checks=[status_code_conformance, positive_data_acceptance])
                except FailureGroup as failures:
                    error = refusal_code(response)
                    where = f"{case.method} {case.formatted_path} {str(case.body)[:80]}: {response.text[:160]}"
                    found.extend(Failure(case.operation.label, getattr(f, "title", str(f)), response.status_code,
                                         error, where) for f in failures.exceptions)
            try:
                call()
            except Unsatisfiable:
                assert mode is GenerationMode.NEGATIVE, operation.label
    return found, beyond


@pytest.mark.slow
def test_the_schema_is_the_contract(served: tuple[TableService, int]) -> None:
    """Every status a route answers is one its schema declares (with the refusal body), and a request the schema
    calls valid is accepted, or refused for a reason the schema declares: 404 for a name that is not there, 409
    for choices that do not fit together, and 422 only with an error code the route declares as checked beyond
    the schema. Those are what no JSON schema can say: a floor's text compiles (POST /api/floors, and a custom
    floor of POST /api/games), a game record replays to its digests (POST /api/games/import), a face is on the
    die the game rolls as it stands (POST /api/actions, POST /api/dice); a generated text, record or face is
    almost never one, so those routes' 422s are expected here, and only with those codes."""
    found, beyond = contract_failures(served[0], EXAMPLES * 3)
    assert [f.call for f in found if f.title != "Schema-valid request rejected"] == []
    assert [f.call for f in found if f.status != 422 or f.error not in beyond[f.route]] == []
    # the routes that declare such checks, each with its one code
    assert {route: set(codes) for route, codes in beyond.items() if codes} == {
        "POST /api/floors": {"floor_error"}, "POST /api/games": {"floor_error"},
        "POST /api/games/import": {"record_error"}, "POST /api/actions": {"bad_face"}, "POST /api/dice": {"bad_face"}}
