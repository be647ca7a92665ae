"""The game's words are declared once, by the rules engine (the difficulties, an Adaptable mission's levels, the
compass directions, the floor features), and the web takes them from there: GET /api/options gives them to the
pages, and the request schemas refuse what the rules do not know."""

from __future__ import annotations

from typing import get_args

from fastapi.testclient import TestClient

from controller.rules import (
    AREA_KINDS,
    DIFFICULTIES,
    DIRECTION_WORDS,
    DIRECTIONS,
    FEATURE_WORDS,
    LEVELS,
    SPACE_FEATURES,
    ReserveKind,
)


def test_the_options_carry_the_rules_words(anyone: TestClient) -> None:
    options = anyone.get("/api/options").json()
    assert options["difficulties"] == list(DIFFICULTIES) and options["levels"] == list(LEVELS)
    assert options["facings"] == [{"letter": d, "word": DIRECTION_WORDS[d]} for d in DIRECTIONS]
    assert options["features"] == SPACE_FEATURES and options["features"]["T"] == "terminal"
    assert options["feature_words"] == FEATURE_WORDS and options["feature_words"]["hiding"] == "hiding spot"
    assert set(FEATURE_WORDS) == {feature for feature in SPACE_FEATURES.values() if feature}
    assert options["area_kinds"] == list(AREA_KINDS) and options["reserves"] == list(get_args(ReserveKind))


def test_the_request_schemas_take_the_rules_words(anyone: TestClient) -> None:
    models = anyone.get("/openapi.json").json()["components"]["schemas"]
    new_game, correction = models["NewGameBody"]["properties"], models["CorrectionBody"]["properties"]
    assert new_game["difficulty"]["enum"] == list(DIFFICULTIES)
    level = next(kind for kind in new_game["level"]["anyOf"] if kind.get("type") == "integer")
    assert (level["minimum"], level["maximum"]) == (LEVELS[0], LEVELS[-1])
    facings = [word for kind in correction["facing"]["anyOf"] for word in kind.get("enum", [])]
    assert sorted(facings) == sorted([*DIRECTIONS, *DIRECTION_WORDS.values()])
