"""docs/http-api.md and the OpenAPI schema tell the same API: every route is in the page, and every request body
in the schema has an example (which the API itself accepts as well-formed)."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi import FastAPI
from fastapi.testclient import TestClient

DOC = Path(__file__).resolve().parents[2] / "docs" / "http-api.md"


def routes(app: FastAPI) -> set[str]:
    paths = TestClient(app).get("/openapi.json").json()["paths"]
    return {f"{method.upper()} {path}" for path, ops in paths.items() for method in ops}


def test_every_route_is_in_the_http_api_page(app: FastAPI) -> None:
    text = DOC.read_text(encoding="utf-8")
    documented = {f"{m} {p}" for m, p in re.findall(r"`(GET|POST|PUT|DELETE) (/[^`?\s]*)", text)}
    assert routes(app) - documented == set()
    assert "GET /ws" in documented


def test_every_request_body_has_an_example_the_api_reads(app: FastAPI, player: TestClient) -> None:
    schema = player.get("/openapi.json").json()
    models = schema["components"]["schemas"]
    # a body the API itself writes (an import takes what an export answered) has that answer for its example
    answered = {body.get("schema", {}).get("$ref") for ops in schema["paths"].values() for op in ops.values()
                for status, answer in op["responses"].items() if status.startswith("2")
                for body in answer.get("content", {}).values()}
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            content = op.get("requestBody", {}).get("content", {}).get("application/json")
            if content is None or "$ref" not in content["schema"] or content["schema"]["$ref"] in answered:
                continue
            model = models[content["schema"]["$ref"].rsplit("/", 1)[-1]]
            assert model.get("examples"), f"{method.upper()} {path}: no example body"
            for example in model["examples"]:
                reply = player.request(method.upper(), path, json=example)
                assert reply.status_code != 422 or reply.json()["error"] != "bad_request", (path, example, reply.json())


def test_every_route_declares_the_body_of_each_answer_it_gives(app: FastAPI) -> None:
    """The schema is the contract: each success a route answers with names what its body is (a view of the
    service's, a request's model, a picture), and each view it names is in the schema."""
    schema = TestClient(app).get("/openapi.json").json()
    models = schema["components"]["schemas"]
    vague = []
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            for status, answer in op["responses"].items():
                if not status.startswith("2"):
                    continue
                for media, body in answer.get("content", {"(none)": {}}).items():
                    ref = body.get("schema", {}).get("$ref")
                    if media == "image/jpeg" or (ref and ref.rsplit("/", 1)[-1] in models):
                        continue
                    if body.get("schema", {}).get("type") == "object":
                        continue
                    vague.append(f"{method.upper()} {path} {status} {media}: {body}")
    assert vague == []
