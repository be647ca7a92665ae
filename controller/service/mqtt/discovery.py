"""Home Assistant MQTT discovery: the table as one device with sensors, binary sensors and buttons.

Home Assistant reads `homeassistant/<component>/<node_id>/<object_id>/config` (a retained JSON document per
entity) and builds the entity from it; an empty payload on that topic removes the entity. The entities read
the table's own retained state topics (topics.py), so discovery adds no topic of its own to keep
up to date; only the bots' power sensors follow the game, one per bot in play.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from controller.rules import GameState
from controller.service.mqtt.topics import Topics

DISCOVERY_PREFIX = "homeassistant"
STATUS_TOPIC = f"{DISCOVERY_PREFIX}/status"   # Home Assistant says "online" here when it (re)starts
# a bot's power from its JSON; an empty payload (the bot's topic cleared) gives an empty state, which Home Assistant
# ignores for a numeric sensor, instead of a "'value_json' is undefined" error in its log
POWER_TEMPLATE = "{{ value_json.power if value_json is defined else '' }}"


def node_id(topics: Topics) -> str:
    """The device's id in discovery topics and unique ids: letters, digits and _ only, one per table."""
    return re.sub(r"[^A-Za-z0-9_]", "_", f"{topics.base}_{topics.table_id}")


def discovery_payloads(topics: Topics, state: GameState) -> dict[str, str]:
    """Every discovery topic with its config document, for the game as it stands."""
    node = node_id(topics)
    device = {"identifiers": [node], "name": f"burncycle table {topics.table_id}", "manufacturer": "burncycle-table",
              "model": "augmented burncycle table"}

    def entity(component: str, object_id: str, name: str, **fields: Any) -> tuple[str, str]:
        config = {"name": name, "unique_id": f"{node}_{object_id}", "object_id": f"{node}_{object_id}",
                  "device": device, "availability_topic": topics.availability,
                  "payload_available": "online", "payload_not_available": "offline", **fields}
        topic = f"{DISCOVERY_PREFIX}/{component}/{node}/{object_id}/config"
        return topic, msgspec.json.encode(config).decode()

    entities = [
        entity("sensor", "threat", "Threat", state_topic=topics.state("threat"), state_class="measurement",
               icon="mdi:alert"),
        entity("sensor", "phase", "Phase", state_topic=topics.state("phase")),
        entity("sensor", "round", "Round", state_topic=topics.state("round"), state_class="measurement"),
        entity("binary_sensor", "detected", "A bot detected", state_topic=topics.state("detected"),
               payload_on="ON", payload_off="OFF"),
        entity("binary_sensor", "lost", "Game lost", state_topic=topics.state("lost"), payload_on="ON",
               payload_off="OFF", device_class="problem"),
        entity("button", "next", "Next step", command_topic=topics.command("next"), payload_press="{}"),
        entity("button", "undo", "Undo", command_topic=topics.command("undo"), payload_press="{}"),
    ]
    for bot in state.bots:
        entities.append(entity("sensor", f"power_{bot.id}", f"{bot.name} power",
                               state_topic=topics.state(f"bots/{bot.id}"), value_template=POWER_TEMPLATE,
                               state_class="measurement", icon="mdi:battery"))
    return dict(entities)
