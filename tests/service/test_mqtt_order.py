"""The order of what the table publishes, as a real subscriber on a real mosquitto sees it: Home Assistant reads
the topics as they come, so the order is part of what it shows.

- A restarted table publishes its state before `online`: an entity marked available must show the game in play,
  never the killed game's threat (an automation on `numeric_state` would fire on it).
- A bot leaves the game (a new game without it, or found stale on connect): its entity's discovery config is
  cleared before the state topic it reads, so the sensor is gone before its state is emptied.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.rules import GameSetup
from controller.service.mqtt.discovery import DISCOVERY_PREFIX
from tests.support.mqtt_broker import Broker, Listener, publish_all, running, table
from tests.support.service_helpers import until

pytestmark = pytest.mark.slow  # a real mosquitto per test

ROOT = "burncycle/t1"
NODE = "burncycle_t1"
CASING_CONFIG = f"{DISCOVERY_PREFIX}/sensor/{NODE}/power_casing/config"


def _live(seen: Listener) -> list[tuple[str, str]]:
    """What the table sent while the subscriber listened (not what the broker had kept), in order."""
    return [(topic, payload) for topic, payload, retained in seen.messages if not retained]


def test_a_restarted_table_publishes_its_state_before_it_says_online(tmp_path: Path, broker: Broker) -> None:
    # the killed game, as the broker kept it: its threat and round, and the last will's offline
    publish_all(broker.port, [(f"{ROOT}/threat", "17"), (f"{ROOT}/round", "6"), (f"{ROOT}/phase", "actions"),
                              (f"{ROOT}/availability", "offline")], retain=True)
    seen = Listener(broker.port, f"{ROOT}/#")
    service, _ = table(tmp_path, broker.port)

    async def body() -> None:
        await until(lambda: (f"{ROOT}/availability", "online") in _live(seen))

    running(service, body=body)
    live = _live(seen)
    online = live.index((f"{ROOT}/availability", "online"))
    for name, now in [("threat", "0"), ("round", "1"), ("phase", "route")]:
        assert (f"{ROOT}/{name}", now) in live[:online], f"{name} came after online: {live}"
    seen.close()


def test_a_bot_that_leaves_the_game_loses_its_entity_before_its_state(tmp_path: Path, broker: Broker) -> None:
    service, _ = table(tmp_path, broker.port)
    seen = Listener(broker.port, "#")

    async def body() -> None:
        await until(lambda: seen.latest(CASING_CONFIG) is not None)
        service.new_game(GameSetup(floor="meridian-lobby", mission="data-heist", players=2, agents=["byte", "bit"],
                                   seed=3))
        await until(lambda: seen.latest(f"{ROOT}/bots/casing") == "" and seen.latest(CASING_CONFIG) == "")

    running(service, body=body)
    live = _live(seen)
    assert live.index((CASING_CONFIG, "")) < live.index((f"{ROOT}/bots/casing", ""))
    bit_config = next(k for k, (t, p) in enumerate(live) if t.endswith("/power_bit/config") and p)
    assert live.index((f"{ROOT}/bots/bit", next(p for t, p in live if t == f"{ROOT}/bots/bit"))) < bit_config
    seen.close()


def test_a_stale_bot_found_on_connect_loses_its_entity_before_its_state(tmp_path: Path, broker: Broker) -> None:
    """A broker with persistence kept a bot of a game the table no longer plays (Casing): the sweep on connect
    clears its discovery config first."""
    publish_all(broker.port, [(f"{ROOT}/bots/ghost", '{"power": 3}'),
                              (f"{DISCOVERY_PREFIX}/sensor/{NODE}/power_ghost/config", '{"name": "Ghost power"}')],
                retain=True)
    seen = Listener(broker.port, "#")
    service, bridge = table(tmp_path, broker.port)

    async def body() -> None:
        await until(lambda: seen.latest(f"{ROOT}/bots/ghost") == ""
                    and seen.latest(f"{DISCOVERY_PREFIX}/sensor/{NODE}/power_ghost/config") == "")

    running(service, body=body)
    live = _live(seen)
    assert live.index((f"{DISCOVERY_PREFIX}/sensor/{NODE}/power_ghost/config", "")) < live.index(
        (f"{ROOT}/bots/ghost", ""))
    seen.close()
