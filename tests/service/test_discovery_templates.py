"""The discovery documents' value templates, rendered as Home Assistant renders them (Jinja2, its template
engine): on a real payload they give the bot's power; on the empty payload that clears a bot's topic they give
an empty state (which Home Assistant ignores for a numeric sensor), never an undefined `value_json`, which Home
Assistant logs as "Template variable error: 'value_json' is undefined" once per dropped bot."""

from __future__ import annotations

import json

import jinja2
import pytest

from controller.library import load_content
from controller.rules import GameSetup, new_game
from controller.service.mqtt.discovery import discovery_payloads
from controller.service.mqtt.topics import Topics, state_payloads

TOPICS = Topics("burncycle", "table1")


def render(template: str, payload: str) -> str:
    """As Home Assistant's MQTT entities render a value template: `value` is the payload, `value_json` is there
    only when the payload is JSON; an undefined name used fails (StrictUndefined) where Home Assistant logs it."""
    variables: dict[str, object] = {"value": payload}
    try:
        variables["value_json"] = json.loads(payload)
    except ValueError:
        pass
    environment = jinja2.Environment(undefined=jinja2.StrictUndefined)
    return environment.from_string(template).render(variables)


def _templates() -> dict[str, tuple[str, str]]:
    """Each entity with a value template -> (its template, its state topic's payload now)."""
    state = new_game(load_content(), GameSetup(floor="meridian-lobby", mission="data-heist", players=2,
                                               agents=["byte", "casing"], seed=3))
    states = {TOPICS.state(name): payload for name, payload in state_payloads(state, 0).items()}
    found = {}
    for topic, document in discovery_payloads(TOPICS, state).items():
        config = json.loads(document)
        if "value_template" in config:
            found[topic] = (config["value_template"], states[config["state_topic"]])
    return found


def test_every_bot_has_a_templated_power_sensor() -> None:
    assert {t.split("/")[3] for t in _templates()} == {"power_byte", "power_casing", "power_module"}


@pytest.mark.parametrize("topic", sorted(_templates()))
def test_a_template_reads_the_power_and_an_empty_payload_gives_an_empty_state(topic: str) -> None:
    template, payload = _templates()[topic]
    assert render(template, payload) == str(json.loads(payload)["power"])
    assert render(template, "") == ""  # the topic cleared: no state, no template error
