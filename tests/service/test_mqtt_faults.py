"""The MQTT bridge under a hobbyist's tools, on a real mosquitto: an empty payload clears and never commands, a
retained command is never obeyed (live or at connect), what the broker keeps that the table no longer owns is
cleared on connect, an error never echoes a huge payload, and a game over still publishes a player."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from controller.rules import GameSetup, Outcome
from controller.service.frame.components import Health
from controller.service.mqtt.topics import NOBODY, state_payloads
from tests.support.mqtt_broker import Broker, Listener, publish, running, table
from tests.support.service_helpers import until

pytestmark = pytest.mark.slow  # a real mosquitto per test, each waiting out the broker

ROOT = "burncycle/t1"
NODE = "burncycle_t1"


async def everything_kept(port: int) -> Listener:
    """A new subscriber to every topic, returned once it has every retained message the broker holds: the broker
    queues them when it takes the subscription, so a probe published afterwards reaches it after them all."""
    late = Listener(port, "#")
    publish(port, "probe/after-the-retained", "1")
    await until(lambda: late.latest("probe/after-the-retained") == "1")
    return late


def test_an_empty_payload_is_a_clear_and_a_retained_command_is_never_obeyed(tmp_path: Path, broker: Broker) -> None:
    service, _ = table(tmp_path, broker.port)
    seen = Listener(broker.port, f"{ROOT}/#")

    async def body() -> None:
        number = service.number
        publish(broker.port, f"{ROOT}/command/next", "", retain=True)   # the errors topic's advice: -r -n
        publish(broker.port, f"{ROOT}/command/undo", "")                # an empty message, not retained
        publish(broker.port, f"{ROOT}/command/next", "{}", retain=True)  # a retained command, delivered live
        await until(lambda: seen.latest(f"{ROOT}/errors") is not None)
        error = json.loads(seen.latest(f"{ROOT}/errors") or "")
        assert "a retained command was ignored" in error["error"] and error["topic"] == f"{ROOT}/command/next"
        publish(broker.port, f"{ROOT}/command/next", "", retain=True)   # cleared, as the error says
        publish(broker.port, f"{ROOT}/command/next", "{}")               # a command: obeyed, after the others
        await until(lambda: service.number > number)
        assert service.number == number + 1 and service.state.turn.step == "actions"
        assert len(seen.all(f"{ROOT}/errors")) == 1

    running(service, body=body)
    seen.close()


def test_what_the_broker_keeps_that_the_table_no_longer_owns_is_cleared_on_connect(
        tmp_path: Path, broker: Broker) -> None:
    stale = {f"{ROOT}/bots/ghost": '{"name": "Ghost"}', f"{ROOT}/guards/G9": "{}", f"{ROOT}/old-topic": "1",
             f"homeassistant/sensor/{NODE}/power_ghost/config": '{"name": "Ghost power"}',
             f"{ROOT}/command/next": "{}"}
    kept = {"burncycle/t2/bots/ghost": "{}", "homeassistant/sensor/burncycle_t2/power_ghost/config": "{}"}
    for topic, payload in {**stale, **kept}.items():  # left by an earlier game on a broker with persistence
        publish(broker.port, topic, payload, retain=True)
    service, _ = table(tmp_path, broker.port)

    async def body() -> None:
        late = await everything_kept(broker.port)  # once the table is healthy: only what the broker keeps
        retained = {t for t, payload, was_retained in late.messages if was_retained and payload}
        assert not retained & set(stale)
        assert set(kept) <= retained  # another table's topics are its own
        assert f"homeassistant/sensor/{NODE}/power_byte/config" in retained
        assert service.state.turn.step == "route"  # the retained command was not obeyed
        late.close()

    running(service, body=body)


def test_an_error_repeats_at_most_200_characters_of_the_payload(tmp_path: Path, broker: Broker) -> None:
    service, _ = table(tmp_path, broker.port)
    seen = Listener(broker.port, f"{ROOT}/errors")

    async def body() -> None:
        publish(broker.port, f"{ROOT}/command/place", json.dumps({"unit": "x" * 1_000_000, "space": "H4"}))
        await until(lambda: seen.latest(f"{ROOT}/errors") is not None, 20)
        error = json.loads(seen.latest(f"{ROOT}/errors") or "")
        assert len(error["error"]) <= 200 and error["error"].endswith("…")

    running(service, body=body)
    seen.close()


def test_a_game_over_still_publishes_a_player(tmp_path: Path, broker: Broker) -> None:
    service, _ = table(tmp_path, broker.port)
    service.new_game()
    over = msgspec.structs.replace(service.state, outcome=Outcome("defeat", "threat_maxed", "threat 26"))
    payloads = state_payloads(over, 7)
    assert payloads["player"] == NOBODY and payloads["phase"] == "over"
    assert all(payloads.values())  # an empty retained payload would delete its topic: a late reader gets nothing


def test_a_new_game_while_the_broker_was_down_leaves_no_unit_of_the_old_one(tmp_path: Path, broker: Broker) -> None:
    """The issue's steps: stop the broker (it keeps its retained messages on disk), start a new game with other
    agents, start the broker: the old game's bots and their Home Assistant configs must be gone."""
    service, bridge = table(tmp_path, broker.port)

    async def body() -> None:
        seen = Listener(broker.port, f"{ROOT}/bots/#")
        await until(lambda: seen.latest(f"{ROOT}/bots/casing") is not None)
        seen.close()
        broker.stop()
        await until(lambda: bridge.health is Health.DEGRADED)
        service.new_game(GameSetup(floor="meridian-lobby", mission="data-heist", players=2, agents=["byte", "bit"],
                                   seed=3))
        broker.start()
        await until(lambda: bridge.health is Health.OK, 40)  # healthy once the sweep is over
        late = await everything_kept(broker.port)
        assert late.latest(f"{ROOT}/bots/bit") and late.latest(f"{ROOT}/bots/byte")
        assert late.latest(f"{ROOT}/bots/casing") is None
        assert late.latest(f"homeassistant/sensor/{NODE}/power_casing/config") is None
        late.close()

    running(service, body=body)
