"""docs/service.md's table of config keys is the one the settings model makes, and the kinds of change it and
docs/mqtt.md list are the ones the game log writes."""

from __future__ import annotations

import re

from controller.service.frame.config import SECTIONS, env_name
from controller.service.frame.config_text import DOCS, docs_with_table, keys_table
from controller.service.game.session import ChangeKind
from controller.service.mqtt.bridge import KEEPALIVE_S


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


def test_the_docs_name_every_kind_of_change_as_the_log_writes_it() -> None:
    """(docs/service.md once said `game_started` where the log writes `new_game`.)"""
    service = DOCS.read_text(encoding="utf-8")
    paragraph = service[service.index("its kind is a `ChangeKind`"):service.index("A change's number")]
    stream = (DOCS.parent / "mqtt.md").read_text(encoding="utf-8")
    kinds = stream[stream.index("`kind` is"):stream.index("the body is")]
    words = {k.value for k in ChangeKind}
    assert set(re.findall(r"`(\w+)`", paragraph)) - {"ChangeKind", "kind", "change_view", "instructions"} == words
    assert set(re.findall(r"`(\w+)`", kinds)) - {"kind"} == words


def test_the_mqtt_docs_say_how_soon_a_table_whose_network_went_shows_offline() -> None:
    """The broker publishes the last will after one and a half keepalives of silence (MQTT 3.1.2.10)."""
    stream = (DOCS.parent / "mqtt.md").read_text(encoding="utf-8")
    assert f"speak at least every {KEEPALIVE_S} s" in stream
    assert f"**about {int(KEEPALIVE_S * 1.5)} s** after the loss" in stream
