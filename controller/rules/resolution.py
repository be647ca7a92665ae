"""The working context of one engine call: a private copy of the state, its floor, the dice, the events.

Every rule module takes a `Resolution` so that occupancy, the destroyed-wall set and the event list are kept in
one place while a turn resolves; the caller's state is never touched (the engine is pure).
"""

from __future__ import annotations

from collections.abc import Callable

from controller.rules.board.geometry import Floor, compile_floor
from controller.rules.dice import Dice
from controller.rules.errors import StateError
from controller.rules.events import Event, JoanCharge, JoanMoved, bot_ref, unit_ref
from controller.rules.state import Bot, GameState, SecurityUnit, ThreatEvent, copy_state

EffectHandler = Callable[["Resolution", ThreatEvent], None]
MEMORY = "memory"  # the agent id in bots.toml of Memory, whose drone is Joan


def unit_label(unit: SecurityUnit) -> str:
    if unit.rank == "captain":
        return f"the captain ({unit.chip})"
    return f"guard {unit.id[1:]}"


class Resolution:
    def __init__(self, state: GameState, dice: Dice, apply_effect: EffectHandler, copy: bool = True) -> None:
        # Threat events act on units and pings; the handler is passed in so the threat track need not
        # import the modules that move them.
        self.apply_effect = apply_effect
        self.state = copy_state(state) if copy else state
        self.dice = dice
        self.events: list[Event] = []
        # escalation modifiers by (threat, kind); the burncycle does not change within one engine call
        self.bonus_cache: dict[tuple[int, str], int] = {}
        self.refresh()

    def refresh(self) -> None:
        """Re-read the floor and who stands where from the state (after the team changes floors)."""
        self.floor: Floor = compile_floor(self.state.floor.text, self.state.floor.name)
        self.destroyed = frozenset(self.state.floor.destroyed_walls)
        self.unlocked = frozenset(self.state.floor.unlocked_doors)
        self.occupant: dict[int, Bot | SecurityUnit] = {}
        for b in self.state.bots:
            if b.on_board:
                self.occupant[self.floor.index[b.at]] = b
        for u in self.state.security:
            self.occupant[self.floor.index[u.space]] = u

    def emit(self, event: Event) -> None:
        self.events.append(event)

    @property
    def over(self) -> bool:
        return self.state.outcome is not None

    def at(self, space: str) -> int:
        return self.floor.index[space]

    def distances(self) -> list[list[int]]:
        return self.floor.distances(self.destroyed)

    def move_occupant(self, who: Bot | SecurityUnit, to: int) -> None:
        frm = who.space
        if frm is None:
            raise StateError(f"{who.id} is off the board and cannot move between spaces")
        del self.occupant[self.floor.index[frm]]
        who.space = self.floor.ids[to]
        self.occupant[to] = who
        self.pass_joan(who, frm)

    def pass_joan(self, who: Bot | SecurityUnit, frm: str) -> None:
        """A unit has entered a space from `frm`: "Units can pass through Joan via automatic swap", so she
        takes the space it left; Memory shares her space instead."""
        joan = self.state.joan
        if joan is None or joan.space != who.space:
            return
        if isinstance(who, Bot) and who.id == MEMORY:
            self.recharge_joan()
            return
        entered, joan.space = joan.space, frm  # she stood where the unit entered
        name = bot_ref(who.id) if isinstance(who, Bot) else unit_ref(who.id)
        self.emit(JoanMoved(path=[entered, frm], reason=f"automatic swap: {name} passes through"))
        self.recharge_joan()  # the space left may be Memory's (a swap with her)

    def recharge_joan(self) -> None:
        """"Joan recharges when sharing a space with Memory.\""""
        joan = self.state.joan
        memory = next((b for b in self.state.bots if b.id == MEMORY), None)
        if joan is not None and memory is not None and memory.on_board and memory.space == joan.space \
                and not joan.charged:
            joan.charged = True
            self.emit(JoanCharge(charged=True, reason="she shares a space with Memory"))

    def active_bots(self) -> list[Bot]:
        """Bots on the floor that security can see and attack."""
        return [b for b in self.state.bots if b.on_board and not b.shut_down]
