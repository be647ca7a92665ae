"""docs/service.md's table of config keys is the one the settings model makes."""

from __future__ import annotations

from controller.service.frame.config import SECTIONS, env_name
from controller.service.frame.config_text import DOCS, docs_with_table, keys_table


def test_the_docs_key_table_matches_the_settings_model() -> None:
    text = DOCS.read_text(encoding="utf-8")
    assert docs_with_table(text) == text, (
        "docs/service.md's config table is out of date: run `python -m controller.service.frame.config_text`")


def test_the_table_has_every_key_with_its_environment_name() -> None:
    table = keys_table()
    for section, model in SECTIONS.items():
        for name in model.model_fields:
            row = next(line for line in table.splitlines() if line.startswith(f"| `{section}.{name}` |"))
            assert f"`{env_name(section, name)}`" in row
