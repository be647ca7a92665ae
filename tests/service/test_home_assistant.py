"""A real Home Assistant (2024.3, the MQTT integration with discovery) as the table's client, on a real mosquitto.

Home Assistant is installed from the package registry into a virtual environment of its own, kept in the user's
cache (`~/.cache/burncycle-table/home-assistant-2024.3.3`) so the install (about two minutes) happens once;
on its first start it installs its integrations' own requirements into it. Its MQTT connection is a config
entry written into its `.storage` (what its setup dialog would write); `mqtt_statestream` publishes back every
entity's state and attributes, so the test reads what Home Assistant shows without its web API.

New games that drop bots must leave its log clean: the bridge once cleared a dropped bot's topic in the same
burst as its discovery document and the still-subscribed sensor logged "Template variable error: 'value_json'
is undefined" once per bot.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.rules import GameSetup
from tests.support.mqtt_broker import Broker, Listener, publish, running, table
from tests.support.net import free_port
from tests.support.service_helpers import until

pytestmark = pytest.mark.slow  # installs and starts Home Assistant

VERSION = "2024.3.3"
STATES = "hass_states"  # mqtt_statestream's base topic
ENTITY = "burncycle_table1"
CONFIGURATION = """\
homeassistant:
  name: burncycle test
  latitude: 0
  longitude: 0
  elevation: 0
  unit_system: metric
  time_zone: UTC
  country: GB
  currency: EUR
http:
  server_host: 127.0.0.1
  server_port: {http_port}
logger:
  default: warning
mqtt_statestream:
  base_topic: {states}
  publish_attributes: true
  include:
    domains: [sensor, binary_sensor, button]
"""


def _home_assistant_venv() -> Path:
    """Home Assistant's own virtual environment, made once (skips the test when the registry cannot be reached)."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "burncycle-table"
    venv = cache / f"home-assistant-{VERSION}"
    hass = venv / "bin" / "hass"
    if hass.exists():
        return venv
    cache.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    done = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", f"homeassistant=={VERSION}"],
                          capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        pytest.skip(f"Home Assistant {VERSION} could not be installed from the registry: {done.stderr[-500:]}")
    return venv


@pytest.fixture
def home_assistant(tmp_path: Path, broker: Broker) -> Iterator[Path]:
    """Home Assistant running on `broker`, discovery on; yields its log file once it is connected."""
    venv = _home_assistant_venv()
    config = tmp_path / "home-assistant"
    (config / ".storage").mkdir(parents=True)
    (config / "configuration.yaml").write_text(CONFIGURATION.format(http_port=free_port(), states=STATES))
    entry = {"entry_id": "burncycle_broker", "version": 1, "minor_version": 1, "domain": "mqtt",
             "title": "the test's mosquitto", "data": {"broker": "127.0.0.1", "port": broker.port, "discovery": True},
             "options": {}, "pref_disable_new_entities": False, "pref_disable_polling": False, "source": "user",
             "unique_id": None, "disabled_by": None}
    (config / ".storage" / "core.config_entries").write_text(json.dumps(
        {"version": 1, "minor_version": 1, "key": "core.config_entries", "data": {"entries": [entry]}}))
    status = Listener(broker.port, "homeassistant/status")
    process = subprocess.Popen([str(venv / "bin" / "hass"), "-c", str(config)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 600  # the first start installs the integrations' requirements
        while status.latest("homeassistant/status") != "online":  # its birth message: connected, discovery on
            assert process.poll() is None, (config / "home-assistant.log").read_text()[-3000:]
            assert time.monotonic() < deadline, "Home Assistant never connected to the broker"
            time.sleep(0.2)
        yield config / "home-assistant.log"
    finally:
        status.close()
        process.terminate()
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def test_home_assistant_follows_new_games_with_a_clean_log(tmp_path: Path, broker: Broker,
                                                           home_assistant: Path) -> None:
    shown = Listener(broker.port, f"{STATES}/#")
    service, _ = table(tmp_path, broker.port, table_id="table1")

    def state(entity: str) -> str | None:
        return shown.latest(f"{STATES}/{entity}/state")

    def name(entity: str) -> str | None:
        found = shown.latest(f"{STATES}/{entity}/friendly_name")
        return None if found is None else str(json.loads(found))

    def powers(agent: str) -> int:
        return len(shown.all(f"{STATES}/sensor/{ENTITY}_power_{agent}/state"))

    async def played_on() -> None:
        """A step of the game, shown by Home Assistant: it has read every message before it, and the entities
        of the game have subscribed to their topics."""
        service.next_step()
        await until(lambda: state(f"sensor/{ENTITY}_phase") == "actions", 30)

    async def body() -> None:
        await until(lambda: state(f"sensor/{ENTITY}_power_casing") is not None, 60)
        await played_on()
        teams = [["byte", "bit"], ["byte"], ["casing", "nano"], ["byte", "casing"]]
        for seed, agents in enumerate(teams, start=10):
            service.new_game(GameSetup(agents=agents, players=len(agents), seed=seed))
            for agent in agents:  # Home Assistant made (or kept) each bot's sensor, which has read a power
                await until(functools.partial(powers, agent), 30)
            await played_on()
        # a sensor still subscribed when its bot's topic is emptied: its template must take the empty payload
        # (sent here not retained, so the table's own picture on the broker stays)
        publish(broker.port, f"burncycle/table1/bots/{teams[-1][0]}", "")
        service.undo()
        await until(lambda: state(f"sensor/{ENTITY}_phase") == "route", 30)

    running(service, body=body)
    # the names Home Assistant shows: the device's name in front of each entity's (docs/mqtt.md)
    assert name(f"sensor/{ENTITY}_threat") == "burncycle table table1 Threat"
    assert name(f"sensor/{ENTITY}_power_byte") == "burncycle table table1 Byte power"
    assert name(f"binary_sensor/{ENTITY}_detected") == "burncycle table table1 A bot detected"
    assert name(f"button/{ENTITY}_next") == "burncycle table table1 Next step"
    shown.close()
    time.sleep(1)  # Home Assistant writes its log from a thread of its own
    problems = [line for line in home_assistant.read_text().splitlines()
                if " ERROR " in line or (" WARNING " in line and ("Template" in line or "mqtt" in line))]
    assert problems == [], "\n".join(problems)
