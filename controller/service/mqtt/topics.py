"""The table's MQTT topics and payloads (docs/mqtt.md): what it publishes about the game, and the commands it obeys.

Everything lives under `{base_topic}/{table_id}/`, so tables sharing a broker each have their own topics and
a table only ever subscribes to its own commands. State topics are retained (a subscriber that joins late
reads the game as it stands); events, errors and commands are not. Payloads are small JSON documents or
plain numbers and words, so mosquitto_sub and Home Assistant templates read them without decoding.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import msgspec

from controller.rules import GameState
from controller.rules.errors import BurncycleError

Direction = Literal["N", "E", "S", "W"]
OVER = "over"  # the phase published once the game has ended
NOBODY = "none"  # the player once the game has ended (an empty retained payload would delete the topic)


@dataclass(frozen=True)
class Topics:
    """The topic names of one table."""

    base: str
    table_id: str

    @property
    def root(self) -> str:
        return f"{self.base}/{self.table_id}"

    @property
    def availability(self) -> str:
        return f"{self.root}/availability"

    @property
    def events(self) -> str:
        return f"{self.root}/events"

    @property
    def errors(self) -> str:
        return f"{self.root}/errors"

    @property
    def commands(self) -> str:
        """The subscription for this table's commands, and no other table's."""
        return f"{self.root}/command/+"

    def command(self, name: str) -> str:
        return f"{self.root}/command/{name}"

    def state(self, name: str) -> str:
        return f"{self.root}/{name}"


# -- out: the game as retained topics ------------------------------------------------------------------------

def _json(value: Any) -> str:
    return msgspec.json.encode(value).decode()


def state_payloads(state: GameState, number: int) -> dict[str, str]:
    """Every retained state topic (relative to the table's root) with its payload, for one game state.

    A guard that has left play or a bot of an earlier game has no entry here; the bridge clears the topics
    that disappear, so the retained picture never holds a unit that is not in the game."""
    turn = state.turn
    phase = OVER if state.outcome is not None else (turn.step if turn is not None else "route")
    active = turn.order[turn.active] if turn is not None and state.outcome is None else None
    out: dict[str, str] = {
        "number": str(number),
        "mission": state.mission.name,
        "threat": str(state.threat),
        "phase": phase,
        "player": active or NOBODY,
        "round": str(state.round),
        "burncycle": _json({"tracker": state.burncycle.tracker,
                            "slots": [None if chip is None else {"kind": chip.kind, "degraded": chip.degraded}
                                      for chip in state.burncycle.slots]}),
        "network": _json({"ceo_level": state.network.ceo_level,
                          "ips": {ip.agent: {"node": ip.node, "level": ip.level, "banned": ip.banned}
                                  for ip in state.network.ips},
                          "pings": [p.node for p in state.network.pings]}),
        "detected": "ON" if any(b.detected for b in state.bots) else "OFF",
        "result": _json(None if state.outcome is None else {"result": state.outcome.result,
                                                            "cause": state.outcome.cause,
                                                            "text": state.outcome.text}),
        "lost": "ON" if state.outcome is not None and state.outcome.result == "defeat" else "OFF",
    }
    for bot in state.bots:
        out[f"bots/{bot.id}"] = _json({"name": bot.name, "kind": bot.kind, "power": bot.power, "space": bot.space,
                                       "detected": bot.detected, "shut_down": bot.shut_down,
                                       "escaped": bot.escaped})
    for unit in state.security:
        out[f"guards/{unit.id}"] = _json({"chip": unit.chip, "rank": unit.rank, "space": unit.space,
                                          "facing": unit.facing, "stunned": unit.stunned})
    return out


# -- in: the commands and their schemas ------------------------------------------------------------------------

class NoArguments(msgspec.Struct, forbid_unknown_fields=True):
    """`next` and `undo` take nothing: `{}` (an empty payload clears a topic and is no command)."""


class DiceFaces(msgspec.Struct, forbid_unknown_fields=True):
    """`dice`: the faces rolled at the table for the dice the game asks for, in order."""

    faces: list[str]


class Place(msgspec.Struct, forbid_unknown_fields=True):
    """`place`: a reader (RFID, NFC, a reed switch) saw `unit` put on `space`; a guard also turned to `facing`."""

    unit: str
    space: str
    facing: Direction | None = None


class Door(msgspec.Struct, forbid_unknown_fields=True):
    """`door`: a door sensor (a reed switch in the peg hole) says `door` (the two spaces it joins, "H3/H4") is
    `open` (the unlocked door peg is in) or `closed`. A check against the game, never a change of it
    (door_sensors.py)."""

    door: str
    state: Literal["open", "closed"]


COMMANDS: dict[str, type[msgspec.Struct]] = {"next": NoArguments, "undo": NoArguments, "dice": DiceFaces,
                                              "place": Place, "door": Door}


class CommandError(BurncycleError):
    """A command payload that does not fit its schema; `str()` names the topic and what is wrong."""

    code = "bad_command"


def parse_command(name: str, payload: bytes) -> msgspec.Struct:
    """The command `name`'s payload checked against its schema, or CommandError saying what is wrong."""
    schema = COMMANDS.get(name)
    if schema is None:
        raise CommandError(f"unknown command {name!r}: expected one of {', '.join(sorted(COMMANDS))}")
    try:
        return msgspec.json.decode(payload, type=schema)
    except msgspec.ValidationError as err:
        raise CommandError(f"command {name}: {err}") from None
    except msgspec.DecodeError as err:
        raise CommandError(f"command {name}: the payload is not JSON ({err})") from None
