"""Door sensors on MQTT (`command/door`): a report is a check against the game, never a change of it. A real
publisher's report that a locked door is open becomes a question on the table view and the game's change
number stays; a report that agrees again clears it; a malformed one is answered on the errors topic."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from controller.service.camera.door_sensors import DoorError, DoorSensors
from tests.support.mqtt_broker import Broker, Listener, publish, running, table
from tests.support.service_helpers import until
from tests.support.session_support import start_state

pytestmark = pytest.mark.slow  # a real mosquitto per test, each waiting out the broker

ROOT = "burncycle/t1"
DOOR = "G4/G5"  # a door of Meridian Tower, Lobby; every door starts locked


def test_a_sensor_saying_a_locked_door_is_open_is_a_question_and_the_game_stays(tmp_path: Path,
                                                                                 broker: Broker) -> None:
    service, bridge = table(tmp_path, broker.port)
    seen = Listener(broker.port, f"{ROOT}/#")

    def door_questions() -> list[dict[str, object]]:
        return [q for q in msgspec.to_builtins(service.table_view())["questions"] if q["kind"] == "door"]

    async def body() -> None:
        await until(lambda: seen.latest(f"{ROOT}/phase") == "route")
        number = service.number
        publish(broker.port, f"{ROOT}/command/door", '{"door": "G5/G4", "state": "open"}')  # either way round
        await until(lambda: bool(door_questions()))
        [question] = door_questions()
        assert question["id"] == f"door-{DOOR}"
        assert str(question["text"]).startswith(f"the sensor of door {DOOR} says it is open, but the game holds "
                                                f"it locked")
        assert service.number == number and service.state.floor.unlocked_doors == []
        assert seen.all(f"{ROOT}/events") == [] and seen.all(f"{ROOT}/errors") == []

        publish(broker.port, f"{ROOT}/command/door", json.dumps({"door": DOOR, "state": "closed"}))  # peg out
        await until(lambda: not door_questions())
        assert service.number == number
        assert service.health().components["mqtt"].commands == {"received": 2, "handled": 2}

    running(service, body=body)
    seen.close()


@pytest.mark.parametrize("payload, says", [
    ('{"door": "G4/G5", "state": "ajar"}', "command door: Invalid enum value 'ajar' - at `$.state`"),
    ('{"state": "open"}', "command door: Object missing required field `door`"),
    ('{"door": "G4/G5", "state": "open", "by": "reed"}', "command door: Object contains unknown field `by`"),
    ('{"door": "A1/A2", "state": "open"}', "'A1/A2' is not a door of Meridian Tower, Lobby: name a door by the "
                                           "two spaces it joins, one of B2/B3, D15/E15"),
    ('{"door": "front", "state": "open"}', "'front' is not a door of Meridian Tower, Lobby"),
])
def test_a_bad_door_report_is_answered_on_the_errors_topic_and_changes_nothing(
        tmp_path: Path, broker: Broker, payload: str, says: str) -> None:
    service, _ = table(tmp_path, broker.port)
    seen = Listener(broker.port, f"{ROOT}/errors")

    async def body() -> None:
        number = service.number
        publish(broker.port, f"{ROOT}/command/door", payload)
        await until(lambda: seen.latest(f"{ROOT}/errors") is not None)
        error = json.loads(seen.latest(f"{ROOT}/errors") or "")
        assert error["topic"] == f"{ROOT}/command/door" and says in error["error"], error
        assert service.number == number and service.table_view().questions == []

    running(service, body=body)
    seen.close()


def test_a_door_the_game_has_unlocked_but_the_sensor_says_closed_asks_for_the_peg() -> None:
    state = start_state()
    unlocked = msgspec.structs.replace(state, floor=msgspec.structs.replace(state.floor, unlocked_doors=[DOOR]))
    doors = DoorSensors()
    doors.report(unlocked, DOOR, is_open=False)
    [question] = doors.questions(unlocked)
    assert question.text == (f"the game has door {DOOR} unlocked, but its sensor says it is closed: put an "
                             f"unlocked door peg in the door")
    assert doors.questions(state) == ()  # the same report agrees with a game that holds the door locked
    doors.report(unlocked, DOOR, is_open=True)
    assert doors.questions(unlocked) == ()


def test_a_report_of_a_door_of_another_floor_asks_nothing_of_the_floor_in_play() -> None:
    lobby, annex = start_state(), start_state(floor="meridian-annex")
    doors = DoorSensors()
    doors.report(lobby, DOOR, is_open=True)
    assert len(doors.questions(lobby)) == 1
    assert doors.questions(annex) == ()  # the mission moved on to a floor without that door
    with pytest.raises(DoorError, match="'G4/G5' is not a door of Meridian Tower, Annex"):
        doors.report(annex, DOOR, is_open=True)
