"""The MQTT bridge against a real mosquitto broker on a loopback port, with real paho subscribers and
publishers: state and events out, commands in, bad payloads refused, tables kept apart, a killed table's
last will."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller.rules import GameSetup
from controller.rules.actions import Correct
from controller.service.frame.components import Health
from controller.service.table import TableService
from tests.support.mqtt_broker import Broker, Listener, free_port, publish, publish_all, running, table
from tests.support.net import wait_for
from tests.support.service_helpers import until

pytestmark = pytest.mark.slow  # a real mosquitto per test, each waiting out the broker

ROOT = "burncycle/t1"


# -- out --

def test_state_topics_events_and_availability_reach_a_subscriber(tmp_path: Path, broker: Broker) -> None:
    service, bridge = table(tmp_path, broker.port)
    seen = Listener(broker.port, "burncycle/#")

    async def body() -> None:
        expected = {f"{ROOT}/{name}" for name in ("availability", "phase", "threat", "round", "player", "mission",
                                                  "bots/byte", "guards/G1", "burncycle", "network", "result",
                                                  "detected", "lost")}
        await until(lambda: all(seen.latest(t) is not None for t in expected))
        assert seen.latest(f"{ROOT}/phase") == "route"
        assert seen.latest(f"{ROOT}/availability") == "online"
        assert seen.latest(f"{ROOT}/threat") == "0" and seen.latest(f"{ROOT}/round") == "1"
        assert seen.latest(f"{ROOT}/player") == "byte"
        assert seen.latest(f"{ROOT}/mission") == service.state.mission.name
        assert json.loads(seen.latest(f"{ROOT}/bots/byte") or "") == {
            "name": "Byte", "kind": "agent", "power": 5, "space": "H3", "detected": False, "shut_down": False,
            "escaped": False}
        assert json.loads(seen.latest(f"{ROOT}/guards/G1") or "")["space"] == "K4"
        assert json.loads(seen.latest(f"{ROOT}/guards/G1") or "")["facing"] == "W"
        burncycle = json.loads(seen.latest(f"{ROOT}/burncycle") or "")
        assert burncycle["tracker"] == 0 and len(burncycle["slots"]) == len(service.state.burncycle.slots)
        network = json.loads(seen.latest(f"{ROOT}/network") or "")
        assert set(network["ips"]) == {"byte", "casing"} and network["ceo_level"] == 1
        assert json.loads(seen.latest(f"{ROOT}/result") or "") is None
        assert seen.latest(f"{ROOT}/detected") == "OFF" and seen.latest(f"{ROOT}/lost") == "OFF"

        change = service.next_step()  # route power: done
        await until(lambda: seen.latest(f"{ROOT}/phase") == "actions")
        events = [json.loads(p) for p in seen.all(f"{ROOT}/events")]
        assert [e["number"] for e in events] == [change.number]
        assert events[0]["kind"] == "action" and events[0]["entry"]["action"]["action"] == "begin_actions"
        assert seen.latest(f"{ROOT}/number") == str(change.number)

        late = Listener(broker.port, f"{ROOT}/#")  # joins afterwards: reads the game as it stands, retained
        await until(lambda: late.latest(f"{ROOT}/phase") == "actions")
        assert all(retained for t, _, retained in late.messages if not t.endswith("/events"))
        assert late.all(f"{ROOT}/events") == []  # the event stream is not retained
        late.close()
        assert bridge.status()["dropped"] == 0

    running(service, body=body)
    # a clean stop says so too: the bridge waits for the broker to take its "offline", and the broker then
    # passes it on to the subscriber in its own time
    wait_for(lambda: seen.latest(f"{ROOT}/availability") == "offline", timeout=5, what='"offline" after a clean stop')
    seen.close()


def test_a_killed_table_process_is_shown_offline_by_its_last_will(tmp_path: Path, broker: Broker) -> None:
    seen = Listener(broker.port, f"{ROOT}/availability")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
           "BURNCYCLE_MQTT__HOST": "127.0.0.1", "BURNCYCLE_MQTT__PORT": str(broker.port),
           "BURNCYCLE_MQTT__TABLE_ID": "t1", "BURNCYCLE_CAMERA__SOURCE": "none",
           "BURNCYCLE_WEB__HOST": "127.0.0.1", "BURNCYCLE_WEB__PORT": str(free_port()),
           "BURNCYCLE_DATABASE__PATH": str(tmp_path / "games.sqlite3")}
    process = subprocess.Popen([sys.executable, "-m", "controller.cli", "run"], env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while seen.latest(f"{ROOT}/availability") != "online":
            assert process.poll() is None and time.monotonic() < deadline, "the table never came online"
            time.sleep(0.05)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(5)
        deadline = time.monotonic() + 10
        while seen.latest(f"{ROOT}/availability") != "offline":
            assert time.monotonic() < deadline, "the broker never published the table's last will"
            time.sleep(0.05)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(5)
        seen.close()


# -- in --

def test_commands_from_a_publisher_change_the_game_through_the_session(tmp_path: Path, broker: Broker) -> None:
    service, _ = table(tmp_path, broker.port, dice="physical")
    seen = Listener(broker.port, f"{ROOT}/#")

    async def body() -> None:
        await until(lambda: seen.latest(f"{ROOT}/phase") == "route")
        publish(broker.port, f"{ROOT}/command/next", "{}")
        await until(lambda: service.state.turn.step == "actions")
        publish(broker.port, f"{ROOT}/command/undo", "{}")
        await until(lambda: service.state.turn.step == "route")
        assert service._session.record.undone  # an undo in the log, as the dashboard's would be

        publish(broker.port, f"{ROOT}/command/place", '{"unit": "byte", "space": "H4"}')  # an RFID reader
        await until(lambda: json.loads(seen.latest(f"{ROOT}/bots/byte") or "{}").get("space") == "H4")
        assert isinstance(service._session.record.entries[-1].action, Correct)
        publish(broker.port, f"{ROOT}/command/place", '{"unit": "G1", "space": "K5", "facing": "N"}')
        await until(lambda: json.loads(seen.latest(f"{ROOT}/guards/G1") or "{}").get("facing") == "N")

        while service._session.pending_dice is None:  # on to the end of the turn: the burncycle die is rolled
            service.next_step()
        publish(broker.port, f"{ROOT}/command/dice", '{"faces": ["1"]}')
        await until(lambda: service._session.pending_dice is None and service.state.turn.step != "end")
        assert seen.all(f"{ROOT}/errors") == []

    running(service, body=body)
    seen.close()


def test_commands_while_the_log_waits_on_the_disk_leave_the_loop_free_and_land_in_order(
        tmp_path: Path, broker: Broker) -> None:
    """Another program holds the game log locked for 0.6 s: the commands that arrive meanwhile wait for the
    session's writer, not the event loop (which keeps the web, the LEDs and the buttons going), and once the
    log is free they land in the order they were sent; a unit placed among them lands after the steps before
    it, through the same correction as the dashboard's."""
    service, bridge = table(tmp_path, broker.port)
    errors = Listener(broker.port, f"{ROOT}/errors")

    async def body() -> None:
        loop = asyncio.get_running_loop()
        start = service.number
        locker = sqlite3.connect(str(service._session.path), timeout=0)
        locker.execute("BEGIN EXCLUSIVE")
        commands = [("next", "{}"), ("undo", "{}"), ("next", "{}"), ("place", '{"unit": "byte", "space": "H4"}')]
        await asyncio.to_thread(publish_all, broker.port, [(f"{ROOT}/command/{t}", p) for t, p in commands])
        worst, until_s = 0.0, loop.time() + 0.6
        while loop.time() < until_s:
            asked = loop.time()
            await asyncio.sleep(0.005)
            worst = max(worst, loop.time() - asked - 0.005)
        locker.rollback()
        locker.close()
        await until(lambda: bridge.handled == 4)
        assert errors.all(f"{ROOT}/errors") == []
        assert worst < 0.2
        kinds = [(c.kind, c.body.get("entry", {}).get("action", {}).get("action"))
                 for c in service.changes_since(start)]
        assert kinds == [("action", "begin_actions"), ("undo", None), ("action", "begin_actions"),
                         ("action", "correct")]

    running(service, body=body)


@pytest.mark.parametrize("command, payload, says", [
    ("place", '{"unit": "byte"}', "command place: Object missing required field `space`"),
    ("place", '{"unit": "byte", "space": "H4", "facing": "up"}',
     "command place: Invalid enum value 'up' - at `$.facing`"),
    ("place", 'byte to H4', "command place: the payload is not JSON"),
    ("dice", '{"faces": "six"}', "command dice: Expected `array`, got `str` - at `$.faces`"),
    ("next", '{"now": true}', "command next: Object contains unknown field `now`"),
    ("jump", '{}', "unknown command 'jump': expected one of dice, door, next, place, undo"),
    ("dice", '{"faces": ["1"]}', "no dice are asked for now"),                      # the session refuses
    ("place", '{"unit": "nobody", "space": "H4"}', "nobody"),                     # the engine refuses
])
def test_a_bad_command_is_answered_on_the_errors_topic_and_changes_nothing(
        tmp_path: Path, broker: Broker, command: str, payload: str, says: str) -> None:
    service, _ = table(tmp_path, broker.port)
    seen = Listener(broker.port, f"{ROOT}/errors")

    async def body() -> None:
        number = service.number
        publish(broker.port, f"{ROOT}/command/{command}", payload)
        await until(lambda: seen.latest(f"{ROOT}/errors") is not None)
        error = json.loads(seen.latest(f"{ROOT}/errors") or "")
        assert error["topic"] == f"{ROOT}/command/{command}"
        assert says in error["error"] and "\n" not in error["error"]
        assert service.number == number

    running(service, body=body)
    seen.close()


def test_a_face_not_on_the_die_is_refused_on_the_errors_topic_and_the_request_stays(tmp_path: Path,
                                                                                  broker: Broker) -> None:
    """Issue 28, 2: `command/dice` took any face and poisoned the roll; it is checked as the dashboard's is."""
    service, _ = table(tmp_path, broker.port, dice="physical")
    seen = Listener(broker.port, f"{ROOT}/errors")

    async def body() -> None:
        while service._session.pending_dice is None:  # on to the end of the turn: the burncycle die is rolled
            service.next_step()
        asked = service._session.pending_dice
        publish(broker.port, f"{ROOT}/command/dice", '{"faces": ["banana"]}')
        await until(lambda: seen.latest(f"{ROOT}/errors") is not None)
        error = json.loads(seen.latest(f"{ROOT}/errors") or "")["error"]
        assert "face 1 ('banana') is not a face of the burncycle die; its faces are 1, 2, 3, 4, 5, choose" in error
        assert service._session.pending_dice == asked

    running(service, body=body)
    seen.close()


def test_a_retained_command_found_on_connect_is_ignored(tmp_path: Path, broker: Broker) -> None:
    publish(broker.port, f"{ROOT}/command/next", "{}", retain=True)  # left on the broker by a careless script
    service, _ = table(tmp_path, broker.port)
    seen = Listener(broker.port, f"{ROOT}/#")

    async def body() -> None:
        await until(lambda: seen.latest(f"{ROOT}/errors") is not None)
        assert "a retained command was ignored" in json.loads(seen.latest(f"{ROOT}/errors") or "")["error"]
        assert service.state.turn.step == "route" and seen.all(f"{ROOT}/events") == []

    running(service, body=body)
    seen.close()


def test_two_tables_on_one_broker_each_obey_only_their_own_commands(tmp_path: Path, broker: Broker) -> None:
    one, _ = table(tmp_path, broker.port, table_id="hall-a")
    two, _ = table(tmp_path, broker.port, table_id="hall-b")
    seen = Listener(broker.port, "burncycle/#")

    async def body() -> None:
        publish(broker.port, "burncycle/hall-b/command/next", "{}")
        await until(lambda: seen.latest("burncycle/hall-b/phase") == "actions")
        assert one.state.turn.step == "route" and two.state.turn.step == "actions"
        assert seen.latest("burncycle/hall-a/phase") == "route"
        assert seen.all("burncycle/hall-a/events") == [] and len(seen.all("burncycle/hall-b/events")) == 1

    running(one, two, body=body)
    seen.close()


# -- robustness --

def test_the_broker_restarted_mid_game_gets_the_state_again_and_every_event(tmp_path: Path, broker: Broker) -> None:
    service, bridge = table(tmp_path, broker.port)
    watcher = Listener(broker.port, f"{ROOT}/#", client_id="watcher", clean=False)  # a session the broker keeps

    async def body() -> None:
        numbers = [service.next_step().number]
        await until(lambda: watcher.latest(f"{ROOT}/phase") == "actions")
        broker.stop()  # the broker saves the watcher's session and the retained state as they were
        await until(lambda: bridge.health is Health.DEGRADED)
        assert "lost the MQTT broker at 127.0.0.1" in bridge.message
        numbers += [service.next_step().number for _ in range(4)]  # the table plays on without a broker
        assert service.state.turn.step == "end"
        broker.start()
        await until(lambda: bridge.health is Health.OK, 40)
        fresh = Listener(broker.port, f"{ROOT}/#")
        # the broker hands a new subscriber what it keeps in an order of its own: wait for each topic, not for one
        # and then read the others (it failed once so, "availability" not yet in when "phase" was)
        await until(lambda: fresh.latest(f"{ROOT}/phase") == "end")  # not the stale "actions" the broker kept
        await until(lambda: fresh.latest(f"{ROOT}/number") == str(service.number))
        await until(lambda: fresh.latest(f"{ROOT}/availability") == "online")
        fresh.close()
        await until(lambda: {json.loads(p)["number"] for p in watcher.all(f"{ROOT}/events")} == set(numbers), 20)
        assert bridge.dropped == 0

    running(service, body=body)
    watcher.close()


def test_a_dead_broker_never_grows_the_queue_and_what_is_dropped_is_counted(tmp_path: Path, broker: Broker) -> None:
    service, bridge = table(tmp_path, broker.port, queue_limit=5)

    async def body() -> None:
        broker.stop()
        await until(lambda: bridge.health is Health.DEGRADED)
        for _ in range(8):
            service.apply(_correction(service, "byte"))
        await until(lambda: bridge.dropped == 3)
        assert service.health().components["mqtt"].dropped == 3
        assert "3 messages dropped since the queue of 5 is full" in bridge.message

    running(service, body=body)


def _correction(service: TableService, unit: str) -> Correct:
    """A change that is always legal: the players say the bot stands where it stands."""
    bot = next(b for b in service.state.bots if b.id == unit)
    return Correct(unit=unit, space=bot.space or "H3")


# -- Home Assistant discovery --

NODE = "burncycle_t1"


def test_discovery_describes_one_device_whose_entities_read_and_drive_the_table(tmp_path: Path, broker: Broker) -> None:
    service, _ = table(tmp_path, broker.port)
    seen = Listener(broker.port, "#")
    entities = {f"sensor/{NODE}/{o}" for o in ("threat", "phase", "round", "power_module", "power_byte",
                                               "power_casing")}
    entities |= {f"binary_sensor/{NODE}/detected", f"binary_sensor/{NODE}/lost", f"button/{NODE}/next",
                 f"button/{NODE}/undo"}

    async def body() -> None:
        await until(lambda: all(seen.latest(f"homeassistant/{e}/config") for e in entities))
        await until(lambda: seen.latest(f"{ROOT}/lost") is not None)
        configs = {e: json.loads(seen.latest(f"homeassistant/{e}/config") or "") for e in entities}
        assert len({c["unique_id"] for c in configs.values()}) == len(entities)
        for where, config in configs.items():
            component = where.split("/")[0]
            assert config["name"] and config["unique_id"].startswith(NODE), where
            assert config["device"]["identifiers"] == [NODE] and config["device"]["name"], where
            assert config["availability_topic"] == f"{ROOT}/availability", where
            if component == "button":
                assert config["command_topic"].startswith(f"{ROOT}/command/"), where
            else:
                assert seen.latest(config["state_topic"]) is not None, where  # the entity has a state to read
        assert seen.latest(configs[f"sensor/{NODE}/threat"]["state_topic"]) == "0"
        power = configs[f"sensor/{NODE}/power_byte"]
        assert power["value_template"] == "{{ value_json.power if value_json is defined else '' }}"
        assert json.loads(seen.latest(power["state_topic"]) or "")["power"] == 5
        lost = configs[f"binary_sensor/{NODE}/lost"]
        assert seen.latest(lost["state_topic"]) == lost["payload_off"]

        button = configs[f"button/{NODE}/next"]  # pressed in Home Assistant: what it publishes moves the game
        publish(broker.port, button["command_topic"], button["payload_press"])
        await until(lambda: seen.latest(configs[f"sensor/{NODE}/phase"]["state_topic"]) == "actions")

        topic = f"homeassistant/sensor/{NODE}/threat/config"
        before = len(seen.all(topic))
        publish(broker.port, "homeassistant/status", "online")  # Home Assistant restarted
        await until(lambda: len(seen.all(topic)) > before)
        assert seen.all(topic)[-1] == seen.all(topic)[0]

    running(service, body=body)
    seen.close()


def test_a_new_game_clears_the_topics_of_units_no_longer_in_play(tmp_path: Path, broker: Broker) -> None:
    service, _ = table(tmp_path, broker.port)
    seen = Listener(broker.port, "#")

    async def body() -> None:
        await until(lambda: seen.latest(f"homeassistant/sensor/{NODE}/power_casing/config") is not None)
        service.new_game(GameSetup(floor="meridian-lobby", mission="data-heist", players=2, agents=["byte", "bit"],
                                   seed=3))
        await until(lambda: seen.latest(f"{ROOT}/bots/casing") == "")  # the retained message removed
        assert seen.latest(f"homeassistant/sensor/{NODE}/power_casing/config") == ""  # and the entity
        assert json.loads(seen.latest(f"homeassistant/sensor/{NODE}/power_bit/config") or "")["name"] == "Bit power"
        later = Listener(broker.port, f"{ROOT}/bots/#")
        await until(lambda: later.latest(f"{ROOT}/bots/bit") is not None)
        assert later.latest(f"{ROOT}/bots/casing") is None
        later.close()

    running(service, body=body)
    seen.close()


def test_a_broker_with_passwords_lets_the_table_in_only_with_its_own(tmp_path: Path) -> None:
    broker = Broker(tmp_path, users={"table": "s3cret"})
    broker.start()
    try:
        good, good_bridge = table(tmp_path, broker.port, table_id="t1", user="table", password="s3cret")
        bad, bad_bridge = table(tmp_path, broker.port, table_id="t2", user="table", password="wrong")

        async def main() -> None:
            tasks = [asyncio.create_task(s.run()) for s in (good, bad)]
            try:
                await until(lambda: good_bridge.health is Health.OK and "refused" in bad_bridge.message, 10)
                assert bad_bridge.health is Health.DEGRADED
                assert bad_bridge.message == (f"the MQTT broker at 127.0.0.1:{broker.port} refused the table: "
                                              "Not authorized; trying again")
            finally:
                for s in (good, bad):
                    s.stop()
                await asyncio.gather(*tasks)
        asyncio.run(main())
    finally:
        broker.stop()
