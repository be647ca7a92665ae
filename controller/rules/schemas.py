"""The published contracts: JSON Schemas of the state, an action and an event, each with its version.

A client (the dashboard, MQTT, a log reader in another language) validates against these; `$id` names the
contract and its version, so a log can say which schema it was written against. Actions and events are
read tolerantly (fields a reader does not know are ignored: their schemas allow extra properties), the
state strictly (docs/events.md says how each version is read).
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from controller.rules.actions import ACTION_VERSION, AnyAction
from controller.rules.errors import RulesError
from controller.rules.events import EVENT_VERSION, AnyEvent
from controller.rules.state import STATE_VERSION, GameState

Contract = Literal["state", "action", "event"]
CONTRACTS: dict[str, tuple[Any, int, str]] = {
    "state": (GameState, STATE_VERSION, "A burncycle-table game state: everything on the table"),
    "action": (AnyAction, ACTION_VERSION, "One player action (or the corporation's turn), named by \"action\""),
    "event": (AnyEvent, EVENT_VERSION, "One event of the engine, named by \"type\": ids and numbers, phrased "
                                       "for people by controller.rules.phrasing"),
}


def schema(contract: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of one contract, with `$id` and `version` naming its version."""
    if contract not in CONTRACTS:
        raise RulesError(f"unknown contract {contract!r}: the schemas are {', '.join(CONTRACTS)}")
    kind, version, title = CONTRACTS[contract]
    body = msgspec.json.schema(kind)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"urn:burncycle-table:schema:{contract}:{version}", "title": title, "version": version,
            **body}


def state_schema() -> dict[str, Any]:
    return schema("state")
