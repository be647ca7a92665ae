"""The effects that terminal and equipment cards share, in the engine's small vocabulary.

A card that says "gain 1 power" or "take 1 key" means the same whether a terminal or a cache gave it, so
both decks resolve these kinds here; what only one deck prints (a terminal's doors of its room, an
equipment card's stun) stays with that deck.
"""

from __future__ import annotations

from controller.rules.board.awareness import recheck
from controller.rules.corporation.pings import change_ceo_level, change_ip_level, nodes
from controller.rules.corporation.threat import change_threat
from controller.rules.errors import StateError
from controller.rules.events import AwarenessCleared, KeyTaken, PingRemoved
from controller.rules.players.burncycle import add_to_reserve
from controller.rules.players.power_gain import gain_power
from controller.rules.players.steps import active_agent
from controller.rules.resolution import Resolution
from controller.rules.state import Bot, ChipKind

SHARED_KINDS = ("power", "threat", "ceo_level", "reserve_chip", "remove_ping", "ip_level", "key", "clear_awareness")


def apply_card_effect(resolution: Resolution, bot: Bot, kind: str, amount: int, chip: ChipKind | None,
                      why: str) -> None:
    """Resolve one of SHARED_KINDS for `bot` (the bot at the terminal, or the one holding the card)."""
    state = resolution.state
    if kind == "power":
        gain_power(resolution, bot, amount, why)
    elif kind == "threat":
        change_threat(resolution, -amount, why)
    elif kind == "ceo_level":
        change_ceo_level(resolution, -amount)
    elif kind == "reserve_chip":
        if chip is None:
            raise StateError(f"a reserve_chip effect names no chip ({why})")
        add_to_reserve(resolution, bot, chip)
    elif kind == "remove_ping":
        by_id = nodes(resolution)
        # the pings on the outermost layer (nearest the access points) go first, then in the state's order
        ranked = sorted(state.network.pings, key=lambda p: by_id[p.node].layer)
        for ping in ranked[:amount]:
            state.network.pings.remove(ping)
            resolution.emit(PingRemoved(ping=ping.id, node=ping.node))
    elif kind == "ip_level":
        agent = active_agent(state)
        ip = next((i for i in state.network.ips if i.agent == agent.id and not i.banned), None)
        if ip is not None:
            change_ip_level(resolution, ip, amount)
    elif kind == "key":
        bot.keys += amount
        resolution.emit(KeyTaken(bot=bot.id, keys=bot.keys, change=amount))
    elif kind == "clear_awareness":
        if bot.awareness is not None:
            resolution.emit(AwarenessCleared(bot=bot.id, space=bot.awareness, reason=why))
            bot.awareness = None
            # "Security awareness is continuously checked at all times": a unit that sees the bot now
            # detects it again at once.
            recheck(resolution)
    else:
        raise ValueError(f"{kind!r} is not an effect cards share")
