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


def nodes(table: Resolution) -> dict[str, NetworkNode]:
    return {n.id: n for n in table.state.network.mat.nodes}


def core_id(table: Resolution) -> str:
    return next(n.id for n in table.state.network.mat.nodes if n.kind == "core")


def access_point(table: Resolution, agent: str) -> str | None:
    return next((n.id for n in table.state.network.mat.nodes if n.kind == "access" and n.agent == agent), None)


def activate_pings(table: Resolution) -> None:
    net = table.state.network
    by_id = nodes(table)
    steps = PING_STEPS + escalation_bonus(table, "ping_steps")
    for ping in list(net.pings):
        if table.over:
            return
        if ping not in net.pings:
            continue
        path = [ping.node]
        mark = len(table.events)  # the move is reported before the boots and bans it caused
        for _ in range(steps):
            nxt = by_id[ping.node].next
            if nxt is None or any(p.node == nxt for p in net.pings if p is not ping):
                break  # "... or before other pings"
            ping.node = nxt
            path.append(nxt)
            stop = _enter(table, ping, by_id[nxt], moving=True)
            if stop or by_id[nxt].kind == "hub":
                break
        if len(path) > 1:
            table.events.insert(mark, PingMoved(ping=ping.id, path=path))
    # "If pings occupy hubs, roll the ping die once per occupied hub."
    hubs = sorted({p.node for p in net.pings if by_id[p.node].kind == "hub"},
                  key=lambda n: [x.id for x in net.mat.nodes].index(n))
    faces = net.mat.ping_die or list(PING_FACES)
    if hubs and not table.over:  # rolled at once, one die per hub; each face is resolved in the hubs' order
        table.dice.expect([DiceWanted(die="ping die", count=len(hubs), faces=tuple(faces))],
                          "the corporation's ping activation")
    for hub in hubs:
        if table.over:
            return
        face = table.dice.roll("ping die", faces)
        table.emit(DieRolled(die="ping die", face=face, why=f"ping on hub {hub}"))
        resolve_ping_face(table, face)


def resolve_ping_face(table: Resolution, face: str) -> None:
    base, _, transfer = face.partition("+")
    if base == "threat":
        change_threat(table, 1, "ping die")
    elif base == "ceo":
        change_ceo_level(table, 1)
    elif base == "ping":
        add_ping(table)
    if transfer and not table.over:
        transfer_outward(table)


def change_ceo_level(table: Resolution, amount: int) -> None:
    """Raise (or, negative, lower) the CEO's network level within 1-6."""
    net = table.state.network
    new = max(1, min(MAX_LEVEL, net.ceo_level + amount))
    if new != net.ceo_level:
        table.emit(LevelChanged(who="ceo", old=net.ceo_level, new=new))
        net.ceo_level = new


def change_ip_level(table: Resolution, ip: IP, amount: int) -> None:
    """Raise (or, negative, lower) an IP's network level within 1-6."""
    new = max(1, min(MAX_LEVEL, ip.level + amount))
    if new != ip.level:
        table.emit(LevelChanged(who=ip.agent, old=ip.level, new=new))
        ip.level = new


def add_ping(table: Resolution) -> None:
    """Add 1 ping to the core, if the supply has one left (component limit)."""
    net = table.state.network
    if len(net.pings) >= net.mat.ping_supply:
        return
    used = {p.id for p in net.pings}
    pid = next(f"P{k}" for k in range(1, 100) if f"P{k}" not in used)
    core = core_id(table)
    ping = Ping(id=pid, node=core)
    net.pings.append(ping)
    table.emit(PingAdded(ping=pid, node=core))
    _enter(table, ping, nodes(table)[core], moving=False)


def transfer_outward(table: Resolution) -> None:
    """"... then all eligible pings transfer outwards": along a white line to the next layer out, when
    that node holds no ping."""
    net = table.state.network
    by_id = nodes(table)
    for ping in list(net.pings):
        if table.over or ping not in net.pings:
            continue
        out = by_id[ping.node].outward
        if out is None or any(p.node == out for p in net.pings):
            continue
        table.emit(PingMoved(ping=ping.id, path=[ping.node, out]))
        ping.node = out
        _enter(table, ping, by_id[out], moving=True)


def _enter(table: Resolution, ping: Ping, node: NetworkNode, moving: bool) -> bool:
    """A ping lands on a node: ban an IP whose access point it passes empty, boot any IP here.
    Returns True when the ping must stop (it met an IP)."""
    net = table.state.network
    if moving and node.kind == "access" and node.agent is not None:
        ip = _ip_of(table, node.agent)
        if ip is not None and not ip.banned and ip.node != node.id:
            # "If a ping passes an empty access point, that IP is banned."
            table.emit(IpBanned(agent=ip.agent, node=node.id))
            ip.banned = True
            ip.node = None
    met = [ip for ip in net.ips if ip.node == node.id and not ip.banned]
    for ip in met:
        if ping not in net.pings:
            break
        resolve_boot(table, ip, ping)
    return bool(met)


def _ip_of(table: Resolution, agent: str) -> IP | None:
    return next((ip for ip in table.state.network.ips if ip.agent == agent), None)


def resolve_boot(table: Resolution, ip: IP, ping: Ping) -> None:
    """"When an IP and ping occupy the same node, compare network levels. The lower level is booted; the
    winner reduces network level by 1. CEO wins ties (except at level 6, where the agent wins). An agent
    booted by a ping is immediately detected on the floor.\""""
    net = table.state.network
    node = ip.node or ping.node
    ceo_wins = net.ceo_level > ip.level or (net.ceo_level == ip.level and ip.level < MAX_LEVEL)
    table.emit(Boot(agent=ip.agent, node=node, agent_level=ip.level, ceo_level=net.ceo_level,
                    winner="ceo" if ceo_wins else "agent"))
    if ceo_wins:
        if net.ceo_level > 1:
            table.emit(LevelChanged(who="ceo", old=net.ceo_level, new=net.ceo_level - 1))
            net.ceo_level -= 1
        home = access_point(table, ip.agent)
        if home is not None and home != ip.node:
            table.emit(IpMoved(agent=ip.agent, path=[node, home], reason="booted: back to its access point"))
        ip.node = home
        bot = next((b for b in table.state.bots if b.id == ip.agent), None)
        if bot is not None and bot.on_board and not bot.shut_down:
            place_awareness(table, bot, "a boot on the network")
    else:
        if ip.level > 1:
            table.emit(LevelChanged(who=ip.agent, old=ip.level, new=ip.level - 1))
            ip.level -= 1
        net.pings.remove(ping)
        table.emit(PingRemoved(ping=ping.id, node=node))
