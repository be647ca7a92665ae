"""Network Cyberspace during the corporation turn: pings, the ping die, boots and bans.

"During the corporation's turn, pings move clockwise up to 3 nodes, stopping at hubs, IPs, or before other
pings. If pings occupy hubs, roll the ping die once per occupied hub." Every ping that lands on a node goes
through `_enter`, so bans and boots apply however it got there (moving, transferring, added to the core).
"""

from __future__ import annotations

from controller.rules.board.awareness import place_awareness
from controller.rules.corporation.threat import change_threat, escalation_bonus
from controller.rules.errors import DiceWanted
from controller.rules.events import Boot, DieRolled, IpBanned, IpMoved, LevelChanged, PingAdded, PingMoved, PingRemoved
from controller.rules.resolution import Resolution
from controller.rules.state import IP, NetworkNode, Ping

PING_STEPS = 3
MAX_LEVEL = 6
# The six faces of the ping die, in the rulebook's order.
PING_FACES = ("threat", "threat+transfer", "ceo", "ceo+transfer", "ping", "ping+transfer")


def nodes(resolution: Resolution) -> dict[str, NetworkNode]:
    return {n.id: n for n in resolution.state.network.mat.nodes}


def core_id(resolution: Resolution) -> str:
    return next(n.id for n in resolution.state.network.mat.nodes if n.kind == "core")


def access_point(resolution: Resolution, agent: str) -> str | None:
    return next((n.id for n in resolution.state.network.mat.nodes if n.kind == "access" and n.agent == agent), None)


def activate_pings(resolution: Resolution) -> None:
    net = resolution.state.network
    by_id = nodes(resolution)
    steps = PING_STEPS + escalation_bonus(resolution, "ping_steps")
    for ping in list(net.pings):
        if resolution.over:
            return
        if ping not in net.pings:
            continue
        path = [ping.node]
        mark = len(resolution.events)  # the move is reported before the boots and bans it caused
        for _ in range(steps):
            nxt = by_id[ping.node].next
            if nxt is None or any(p.node == nxt for p in net.pings if p is not ping):
                break  # "... or before other pings"
            ping.node = nxt
            path.append(nxt)
            stop = _enter(resolution, ping, by_id[nxt], moving=True)
            if stop or by_id[nxt].kind == "hub":
                break
        if len(path) > 1:
            resolution.events.insert(mark, PingMoved(ping=ping.id, path=path))
    # "If pings occupy hubs, roll the ping die once per occupied hub."
    hubs = sorted({p.node for p in net.pings if by_id[p.node].kind == "hub"},
                  key=lambda n: [x.id for x in net.mat.nodes].index(n))
    faces = net.mat.ping_die or list(PING_FACES)
    if hubs and not resolution.over:  # rolled at once, one die per hub; each face is resolved in the hubs' order
        resolution.dice.expect([DiceWanted(die="ping die", count=len(hubs), faces=tuple(faces))],
                               "the corporation's ping activation")
    for hub in hubs:
        if resolution.over:
            return
        face = resolution.dice.roll("ping die", faces)
        resolution.emit(DieRolled(die="ping die", face=face, why=f"ping on hub {hub}"))
        resolve_ping_face(resolution, face)


def resolve_ping_face(resolution: Resolution, face: str) -> None:
    base, _, transfer = face.partition("+")
    if base == "threat":
        change_threat(resolution, 1, "ping die")
    elif base == "ceo":
        change_ceo_level(resolution, 1)
    elif base == "ping":
        add_ping(resolution)
    if transfer and not resolution.over:
        transfer_outward(resolution)


def change_ceo_level(resolution: Resolution, amount: int) -> None:
    """Raise (or, negative, lower) the CEO's network level within 1-6."""
    net = resolution.state.network
    new = max(1, min(MAX_LEVEL, net.ceo_level + amount))
    if new != net.ceo_level:
        resolution.emit(LevelChanged(who="ceo", old=net.ceo_level, new=new))
        net.ceo_level = new


def change_ip_level(resolution: Resolution, ip: IP, amount: int) -> None:
    """Raise (or, negative, lower) an IP's network level within 1-6."""
    new = max(1, min(MAX_LEVEL, ip.level + amount))
    if new != ip.level:
        resolution.emit(LevelChanged(who=ip.agent, old=ip.level, new=new))
        ip.level = new


def add_ping(resolution: Resolution) -> None:
    """Add 1 ping to the core, if the supply has one left (component limit)."""
    net = resolution.state.network
    if len(net.pings) >= net.mat.ping_supply:
        return
    used = {p.id for p in net.pings}
    pid = next(f"P{k}" for k in range(1, 100) if f"P{k}" not in used)
    core = core_id(resolution)
    ping = Ping(id=pid, node=core)
    net.pings.append(ping)
    resolution.emit(PingAdded(ping=pid, node=core))
    _enter(resolution, ping, nodes(resolution)[core], moving=False)


def transfer_outward(resolution: Resolution) -> None:
    """"... then all eligible pings transfer outwards": along a white line to the next layer out, when
    that node holds no ping."""
    net = resolution.state.network
    by_id = nodes(resolution)
    for ping in list(net.pings):
        if resolution.over or ping not in net.pings:
            continue
        out = by_id[ping.node].outward
        if out is None or any(p.node == out for p in net.pings):
            continue
        resolution.emit(PingMoved(ping=ping.id, path=[ping.node, out]))
        ping.node = out
        _enter(resolution, ping, by_id[out], moving=True)


def _enter(resolution: Resolution, ping: Ping, node: NetworkNode, moving: bool) -> bool:
    """A ping lands on a node: ban an IP whose access point it passes empty, boot any IP here.
    Returns True when the ping must stop (it met an IP)."""
    net = resolution.state.network
    if moving and node.kind == "access" and node.agent is not None:
        ip = _ip_of(resolution, node.agent)
        if ip is not None and not ip.banned and ip.node != node.id:
            # "If a ping passes an empty access point, that IP is banned."
            resolution.emit(IpBanned(agent=ip.agent, node=node.id))
            ip.banned = True
            ip.node = None
    met = [ip for ip in net.ips if ip.node == node.id and not ip.banned]
    for ip in met:
        if ping not in net.pings:
            break
        resolve_boot(resolution, ip, ping)
    return bool(met)


def _ip_of(resolution: Resolution, agent: str) -> IP | None:
    return next((ip for ip in resolution.state.network.ips if ip.agent == agent), None)


def resolve_boot(resolution: Resolution, ip: IP, ping: Ping) -> None:
    """"When an IP and ping occupy the same node, compare network levels. The lower level is booted; the
    winner reduces network level by 1. CEO wins ties (except at level 6, where the agent wins). An agent
    booted by a ping is immediately detected on the floor.\""""
    net = resolution.state.network
    node = ip.node or ping.node
    ceo_wins = net.ceo_level > ip.level or (net.ceo_level == ip.level and ip.level < MAX_LEVEL)
    resolution.emit(Boot(agent=ip.agent, node=node, agent_level=ip.level, ceo_level=net.ceo_level,
                         winner="ceo" if ceo_wins else "agent"))
    if ceo_wins:
        if net.ceo_level > 1:
            resolution.emit(LevelChanged(who="ceo", old=net.ceo_level, new=net.ceo_level - 1))
            net.ceo_level -= 1
        home = access_point(resolution, ip.agent)
        if home is not None and home != ip.node:
            resolution.emit(IpMoved(agent=ip.agent, path=[node, home], reason="booted: back to its access point"))
        ip.node = home
        bot = next((b for b in resolution.state.bots if b.id == ip.agent), None)
        if bot is not None and bot.on_board and not bot.shut_down:
            place_awareness(resolution, bot, "a boot on the network")
    else:
        if ip.level > 1:
            resolution.emit(LevelChanged(who=ip.agent, old=ip.level, new=ip.level - 1))
            ip.level -= 1
        net.pings.remove(ping)
        resolution.emit(PingRemoved(ping=ping.id, node=node))
