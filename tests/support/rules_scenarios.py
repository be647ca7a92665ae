"""Helpers for the rule scenario tests (imported by name; see conftest.py): small floors drawn inline,
units placed by hand.

A scenario reads like a diagram in the rulebook: draw a floor (docs/floor-format.md), put bots and
security units on named spaces, run one corporation turn (or one engine step) and look at the events
and the new state. States are built directly from the model's Structs so nothing but the drawn units
stands on the floor; the content (network mat, threat cards, captains) is the shipped set.
"""

from __future__ import annotations

import random
import textwrap

from controller.library import load_content
from controller.rules import ScriptedDice, copy_state, corporation_turn, state_problems
from controller.rules.actions import apply_action, legal_actions
from controller.rules.board.geometry import compile_floor
from controller.rules.corporation.threat_effects import apply_effect
from controller.rules.resolution import Resolution
from controller.rules.state import (
    IP,
    Bot,
    Burncycle,
    Chip,
    FloorState,
    GameState,
    Mission,
    Network,
    NetworkMat,
    Ping,
    SecurityUnit,
    TurnState,
)

CONTENT = load_content()

# A plain 6 x 5 hallway: the smallest useful floor (A1 top-left, F5 bottom-right).
OPEN_6X5 = """
+-+-+-+-+-+-+
|. . . . . .|
+ + + + + + +
|. . . . . .|
+ + + + + + +
|. . . . . .|
+ + + + + + +
|. . . . . .|
+ + + + + + +
|E . . . . .|
+-+-+-+-+-+-+
"""


def floor_text(grid: str, areas: str = "A1 hallway", level: int = 1, name: str = "Test floor") -> str:
    """Assemble a floor file from a drawn grid and its `areas:` lines."""
    grid = textwrap.dedent(grid).strip("\n")
    area_lines = "\n".join("  " + line.strip() for line in textwrap.dedent(areas).strip().splitlines())
    return f"name: {name}\nlevel: {level}\n\ngrid:\n{grid}\n\nareas:\n{area_lines}\n"


# A hallway with a safe zone (C2-D2) walled off beside it: bots are placed, not walked, into the zone.
SAFE_BESIDE_HALL = floor_text("""
+-+-+-+-+
|E . . .|
+ + +-+-+
|. .|. .|
+-+-+-+-+
""", """
A1 hallway "Hall"
C2 safe "Safe zone"
""")


# Command module spaces on A1, F1 and F2 (Preconnaissance's Surprise Inspection).
MODULE_SPACES = floor_text("""
+-+-+-+-+-+-+
|m . . . . m|
+ + + + + + +
|. E . . . m|
+-+-+-+-+-+-+
""", "A1 hallway")


# Preconnaissance's hops: terminal spaces on A1 and F1 (the hallway), C3 (the Lab, on A1's diagonal) and F4
# (the Office, under F1).
HOPS = floor_text("""
+-+-+-+-+-+-+
|T . . . . T|
+ + + + + + +
|E . . . . .|
+-+D+-+-+D+-+
|. . T|. . .|
+ + + + + + +
|. . .|. . T|
+-+-+-+-+-+-+
""", """
A1 hallway "Hall"
A3 room "Lab" surveillance=1
D3 room "Office" surveillance=1
""")


def floor_of(text: str):
    return compile_floor(text, "test.floor")


def bot(id: str, space: str | None, power: int = 5, kind: str = "agent", detected: bool = False,
        awareness: str | None = None, hidden: bool = False, shut_down: bool = False) -> Bot:
    """A bot on `space`; `detected=True` puts its awareness chip on its own space."""
    if detected:
        awareness = space
    return Bot(id=id, kind=kind, name=id.capitalize(), space=space, power=power,  # type: ignore[arg-type]
               awareness=awareness, hidden=hidden, shut_down=shut_down)


def module(space: str, power: int = 6, **kw) -> Bot:
    return bot("module", space, power=power, kind="module", **kw)


def guard(id: str, space: str, facing: str = "N", level: int = 1, awareness: int = 3, movement: int = 2,
          patrol: str = "stationary", damage: int | None = None, stunned: bool = False,
          abilities: list[str] | None = None, key: bool = False) -> SecurityUnit:
    return SecurityUnit(id=id, chip="Test", rank="guard", level=level, space=space, facing=facing,  # type: ignore[arg-type]
                        awareness=awareness, movement=movement, patrol=patrol,  # type: ignore[arg-type]
                        damage=level if damage is None else damage, durability=10, key=key, stunned=stunned,
                        abilities=abilities or [])


def captain(space: str, facing: str = "N", name: str = "fauxbia", **kw) -> SecurityUnit:
    card = CONTENT.captains[name]
    unit = SecurityUnit(id="CAP", chip=card.name, rank="captain", level=3, space=space, facing=facing,  # type: ignore[arg-type]
                        awareness=card.awareness, movement=card.movement, patrol=card.patrol,
                        damage=card.damage, durability=card.durability, abilities=list(card.abilities))
    for k, v in kw.items():
        setattr(unit, k, v)
    return unit


def network(agents: list[str], ips: dict[str, str | None] | None = None, pings: list[str] | None = None,
            ceo_level: int = 1, levels: dict[str, int] | None = None) -> Network:
    """The shipped mat with agent k on seat k+1's access point; `ips` moves IPs (None = banned)."""
    mat = CONTENT.network
    nodes = [n.__copy__() for n in mat.nodes]
    seats = sorted((n for n in nodes if n.kind == "access"), key=lambda n: n.agent or "")
    for k, node in enumerate(seats):
        node.agent = agents[k] if k < len(agents) else None
    out = []
    for k, a in enumerate(agents):
        where = (ips or {}).get(a, seats[k].id)
        out.append(IP(agent=a, node=where, level=(levels or {}).get(a, 1), banned=where is None))
    return Network(mat=NetworkMat(name=mat.name, nodes=nodes, ping_supply=mat.ping_supply,
                                  ping_die=list(mat.ping_die), start_pings=[]),
                   ips=out, pings=[Ping(id=f"P{k}", node=n) for k, n in enumerate(pings or [], 1)],
                   ceo_level=ceo_level)


def make_state(text: str = "", bots: list[Bot] | None = None, units: list[SecurityUnit] | None = None,
               players: int = 1, difficulty: str = "standard", threat: int = 0, captain_card: str = "overseer",
               net: Network | None = None, slots: list[Chip | None] | None = None,
               unlocked: list[str] | None = None, destroyed: list[str] | None = None, **kw) -> GameState:
    """A state with exactly the given units, at the corporation's turn (in_turn puts it in a player's); a floor
    defaults to the open 6x5 hallway."""
    text = text or floor_text(OPEN_6X5)
    floor = floor_of(text)
    bots = bots if bots is not None else []
    agents = [b.id for b in bots if b.kind == "agent"]
    kw.setdefault("turn", TurnState(order=agents, marker=agents[-1] if agents else "", step="corporation"))
    state = GameState(
        floor=FloorState(name=floor.name, level=floor.level, text=text, unlocked_doors=unlocked or [],  # type: ignore[arg-type]
                         destroyed_walls=destroyed or []),
        bots=bots, security=units or [], network=net or network(agents),
        threat=threat,
        threat_card=CONTENT.threat_cards["simplified" if difficulty == "simplified" else "standard"],
        burncycle=Burncycle(slots=slots if slots is not None else [Chip("general")] * 3 + [None, None]),
        players=players, difficulty=difficulty,  # type: ignore[arg-type]
        captain=CONTENT.captains[captain_card], mission=Mission(id="test", name="Test"),
        guard_bag=list(CONTENT.guards),
        next_unit=1 + max([int(u.id[1:]) for u in units or [] if u.id[1:].isdigit()], default=0), **kw)
    assert state_problems(state) == [], state_problems(state)
    return state


def turn(state: GameState, rolls: list[str] | None = None):
    """One corporation turn with scripted dice (an empty script: no die may be rolled)."""
    new, events = corporation_turn(state, ScriptedDice(rolls or []))
    assert state_problems(new) == [], state_problems(new)
    return new, events


def table(state: GameState, rolls: list[str] | None = None, copy: bool = True) -> Resolution:
    """A working Resolution over (a copy of) the state, to drive one engine step directly."""
    return Resolution(state, ScriptedDice(rolls or []), apply_effect, copy=copy)


def of_type(events, name: str) -> list:
    """The events of one type, by their JSON tag (e.g. "unit_moved")."""
    return [e for e in events if type(e).__struct_config__.tag == name]


def moves_of(events, unit_id: str) -> list:
    return [e for e in of_type(events, "unit_moved") if e.unit == unit_id]



def play_randomly(state: GameState, seed: int, actions: int) -> GameState:
    """Up to `actions` random legal actions (the corporation's turns included), checking after each that a game
    in progress always offers one, that the action left the state it was given unchanged, and that every
    invariant holds; returns the last state."""
    rng = random.Random(seed)
    for _ in range(actions):
        if state.outcome is not None:
            break
        options = legal_actions(state)
        assert options, "a game in progress always has a legal action"
        before = copy_state(state)
        after, _ = apply_action(state, rng.choice(options).action)
        assert state == before
        assert state_problems(after) == []
        assert 0 <= after.threat <= 26
        assert all(0 <= b.power <= 10 for b in after.bots)
        state = after
    return state
