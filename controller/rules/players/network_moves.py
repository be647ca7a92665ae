"""IP movement in the network step of a player's turn.

"Driven by the burncycle chips from left to right. Movement proceeds clockwise until reaching a hub, ping,
or matching action node. IPs can transfer across layers along white lines once per movement step."
"General and captain chips allow an IP to move 1 node; physical, tech, and utility chips grant extended
movement." A transfer, when the player asks for one, is taken before the chip's clockwise movement, from
the node the IP stands on.
"""

from __future__ import annotations

from typing import Literal

from controller.rules.action_types import NetworkStep
from controller.rules.corporation.pings import access_point, change_ip_level, nodes, resolve_boot
from controller.rules.corporation.threat import change_threat
from controller.rules.errors import IllegalAction
from controller.rules.events import IpMoved, bot_ref
from controller.rules.legal import Choice, LegalAction
from controller.rules.missions import special_rules
from controller.rules.players.power_gain import gain_power
from controller.rules.resolution import Resolution
from controller.rules.state import IP, Bot, GameState, NetworkNode


def movement_chips(state: GameState, asterisk: int | None = None) -> list[str]:
    """The kinds of the non-degraded chips, left to right: one movement step each. `asterisk` is the slot
    (0-4) whose chip Nano treats as a general chip."""
    return ["general" if k == asterisk else c.kind for k, c in enumerate(state.burncycle.slots)
            if c is not None and not c.degraded]


def move_ip(resolution: Resolution, agent: str, transfers: dict[int, str], asterisk: int | None = None,
            steps: range | None = None) -> None:
    """Move the agent's IP once per usable chip; `transfers` maps a step index to "in" or "out"; `asterisk`
    names the slot (0-4) Nano's Asterisk treats as general: "Once per turn during the network step of his turn,
    Nano may treat one chip in the burncycle as a general action chip." (One network step per turn makes it
    once per turn.) `steps`: only these movement steps (the listing looks ahead on a copy, a step at a time)."""
    state = resolution.state
    if asterisk is not None:
        bot = state.bot(agent)
        if "asterisk" not in bot.abilities:
            raise IllegalAction(f"{bot.name} has no Asterisk: only Nano treats a chip as a general action chip")
        slots = state.burncycle.slots
        chip = slots[asterisk] if 0 <= asterisk < len(slots) else None
        if chip is None or chip.degraded:
            raise IllegalAction(f"slot {asterisk + 1} holds no active chip to treat as a general action chip")
    ip = next((i for i in state.network.ips if i.agent == agent), None)
    if ip is None or ip.banned or ip.node is None:
        return
    by_id = nodes(resolution)
    chips = movement_chips(state, asterisk)
    for step in transfers:
        if not 0 <= step < len(chips):
            raise IllegalAction(f"there is no movement step {step + 1}: the burncycle grants {len(chips)}")
    for step, kind in enumerate(chips):
        if steps is not None and step not in steps:
            continue
        if resolution.over or ip.node is None:
            return
        path = [ip.node]
        direction = transfers.get(step)
        if direction is not None:
            here = by_id[ip.node]
            target = here.inward if direction == "in" else here.outward
            if target is None:
                raise IllegalAction(f"no white line leads {direction}ward from {ip.node}: IPs transfer across "
                                    f"layers along white lines")
            ip.node = target
            path.append(target)
            # "A transfer ... is taken before the chip's clockwise movement": the IP goes on clockwise unless
            # the node it transferred to stops it (a hub, a ping, the core).
            arrived = by_id[target]
            stop = arrived.kind == "hub" or any(p.node == target for p in state.network.pings)
            if arrive(resolution, ip, arrived, path, stop_here=stop):
                continue
        limit = 1 if kind in ("general", "captain") else len(by_id)
        stopped = False
        for _ in range(limit):
            nxt = by_id[ip.node].next
            if nxt is None:
                break
            ip.node = nxt
            path.append(nxt)
            node = by_id[nxt]
            stop = node.kind == "hub" or node.kind == kind or any(p.node == nxt for p in state.network.pings)
            if arrive(resolution, ip, node, path, stop_here=stop or limit == 1):
                stopped = True
                break
        if not stopped and len(path) > 1:
            resolution.emit(IpMoved(agent=agent, path=path, reason=f"{kind} chip"))


def arrive(resolution: Resolution, ip: IP, node: NetworkNode, path: list[str], stop_here: bool) -> bool:
    """Resolve the node the IP stops on (hub benefits, the core, a boot). True when it stopped."""
    if not stop_here and node.kind != "core":
        return False
    resolution.emit(IpMoved(agent=ip.agent, path=list(path), reason="network step"))
    state = resolution.state
    ping = next((p for p in state.network.pings if p.node == node.id), None)
    if ping is not None:
        resolve_boot(resolution, ip, ping)
        if ip.node != node.id:
            return True  # booted: back at its access point
        # the IP won and stands on the node the ping held: it has reached it ("Layer 4 (The Core): Gain all
        # three benefits, then return IP to access point.", and a hub's benefit likewise)
    if node.kind == "core":
        # "Layer 4 (The Core): Gain all three benefits, then return IP to access point."
        special_rules.ip_on_core(resolution, ip)
        change_ip_level(resolution, ip, 1)
        change_threat(resolution, -1, f"{bot_ref(ip.agent)}'s IP reached the core")
        gain_power(resolution, resolution.state.bot(ip.agent), 1, "network hub")
        home = access_point(resolution, ip.agent)
        if home is not None:
            resolution.emit(IpMoved(agent=ip.agent, path=[node.id, home], reason="back to its access point"))
            ip.node = home
    elif node.kind == "hub":
        if node.layer == 1:
            change_ip_level(resolution, ip, 1)  # "Layer 1 Hub: Increase network level by 1."
        elif node.layer == 2:
            # "Layer 2 Hub: Reduce threat by 1." The reason holds a reference: the players read the bot's name
            change_threat(resolution, -1, f"{bot_ref(ip.agent)}'s IP on a layer 2 hub")
        elif node.layer == 3:
            gain_power(resolution, resolution.state.bot(ip.agent), 1, "network hub")  # "Layer 3 Hub: Gain 1 power."
    return True




def legal_network_step(resolution: Resolution, agent: Bot) -> list[LegalAction]:
    """The network step as it is, and with each transfer the IP can take at its first movement step; the label
    says in the game's words what may be chosen for later steps (`transfers`: a step's number to "in" or "out"),
    which depend on where the IP stands by then. It is shown to players: no field names, no JSON."""
    state = resolution.state
    chips = movement_chips(state)
    steps = ", ".join(f"{k} {kind}" for k, kind in enumerate(chips, 1)) or "none"
    options: dict[str, list[Choice]] = {}
    label = (f"movement steps: {steps}; before each step's movement the IP may transfer inward or outward along "
             "a white line")
    if "asterisk" in agent.abilities:
        options["asterisk"] = [k + 1 for k, c in enumerate(state.burncycle.slots) if c is not None and not c.degraded]
        label += "; Asterisk: one slot's chip may count as general"
    if "risky_click" in agent.abilities:
        options["risky"] = [c.id for c in state.network_hands.get(agent.id, [])]
        label += "; Risky Click: network cards to ignore, a new one drawn for each"
    transfers: list[Choice] = []
    for asterisk in [None, *(k - 1 for k in options.get("asterisk", []) if isinstance(k, int))]:
        transfers += [t for t in allowed_transfers(resolution, agent.id, asterisk) if t not in transfers]
    out = [LegalAction(NetworkStep(), label, bot=agent.id, choose=["transfers", *options],
                       options={"transfers": transfers, **options})]
    ip = next((i for i in state.network.ips if i.agent == agent.id), None)
    if ip is None or ip.banned or ip.node is None or not chips:
        return out
    here = nodes(resolution)[ip.node]
    ways: tuple[tuple[Literal["in", "out"], str | None], ...] = (("in", here.inward), ("out", here.outward))
    for direction, target in ways:
        if target is not None:
            out.append(LegalAction(NetworkStep(transfers={1: direction}),
                                   f"movement step 1 ({chips[0]}): transfer {direction}ward from {ip.node} to "
                                   f"{target}, then move", bot=agent.id))
    return out


def allowed_transfers(resolution: Resolution, agent: str, asterisk: int | None = None) -> list[dict[int, str]]:
    """Every choice of transfers the network step takes (with Nano's Asterisk on slot `asterisk`, 0-4), no
    transfer first: a transfer at a movement step needs a white line from the node the IP stands on by then,
    which the steps before it decide, so the IP is moved on a copy of the game a step at a time, each choice of
    the step before on a copy of its own ("IPs can transfer across layers along white lines once per movement
    step")."""
    chips = movement_chips(resolution.state, asterisk)
    found: list[dict[int, str]] = []

    def walk(here: Resolution, chosen: dict[int, str], step: int) -> None:
        ip = next((i for i in here.state.network.ips if i.agent == agent), None)
        ways: list[str | None] = [None]
        if not (here.over or ip is None or ip.banned or ip.node is None):
            node = nodes(here)[ip.node]
            ways += [d for d, line in (("in", node.inward), ("out", node.outward)) if line is not None]
        for way in ways:
            now = chosen if way is None else {**chosen, step: way}
            if step == len(chips) - 1:  # the last step: its transfer needs only the line from where it stands
                found.append({k + 1: v for k, v in now.items()})
                continue
            after = Resolution(here.state, here.dice, here.apply_effect)
            move_ip(after, agent, now, asterisk, steps=range(step, step + 1))
            walk(after, now, step + 1)

    if chips:
        walk(Resolution(resolution.state, resolution.dice, resolution.apply_effect), {}, 0)
    return found or [{}]
