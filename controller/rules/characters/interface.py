"""Interface, the special character: "When disguised as a guard, Interface ignores detection from guard
awareness and moves up to the disguise's movement value. Disguised Interface acts as a guard during the
corporation's turn. If attacked, the disguise is lost and Interface takes 2 damage."

The readings (docs/rules-interpretations.md, "Special characters"): Interface dons a disguise by taking
the chip of a guard it has just shut down with a strike; guards (not the captain) neither detect it nor
target it, as they would not target one of their own; the corporation never moves it; a disguised
Interface takes at most the disguise's movement value in steps within one move action.
"""

from __future__ import annotations

from controller.rules.errors import IllegalAction
from controller.rules.events import DisguiseChanged
from controller.rules.resolution import Resolution
from controller.rules.state import Bot, GuardChip, SecurityUnit

INTERFACE = "interface"  # the agent id in bots.toml
UNMASK_DAMAGE = 2  # "If attacked, the disguise is lost and Interface takes 2 damage."


def fooled(unit: SecurityUnit, bot: Bot) -> bool:
    """A guard takes a disguised Interface for one of its own (the captain is not fooled)."""
    return bot.disguise is not None and unit.rank == "guard"


def check_can_disguise(bot: Bot, unit: SecurityUnit) -> None:
    if bot.id != INTERFACE:
        raise IllegalAction(f"only Interface disguises itself as a guard, not {bot.name}")
    if unit.rank != "guard":
        raise IllegalAction("Interface disguises itself as a guard: the captain's chip is no disguise")


def don_disguise(resolution: Resolution, bot: Bot, unit: SecurityUnit) -> None:
    """Interface keeps the chip of the guard it shut down as its disguise (a worn one is discarded)."""
    if bot.disguise is not None:
        lose_disguise(resolution, bot, "a new disguise replaces it")
    bot.disguise = GuardChip(name=unit.chip, colour="", level=unit.level, awareness=unit.awareness,
                             movement=unit.movement, patrol=unit.patrol, abilities=list(unit.abilities))
    resolution.emit(DisguiseChanged(bot=bot.id, chip=unit.chip, worn=True,
                                    reason=f"takes the chip of the guard it shut down on {unit.space}"))


def lose_disguise(resolution: Resolution, bot: Bot, reason: str) -> None:
    chip = bot.disguise
    if chip is None:
        return
    bot.disguise = None
    resolution.emit(DisguiseChanged(bot=bot.id, chip=chip.name, worn=False, reason=reason))


def attack_damage(resolution: Resolution, bot: Bot, damage: int) -> int:
    """The damage an attack deals: a disguised Interface loses the disguise and takes 2 instead."""
    if bot.disguise is None:
        return damage
    lose_disguise(resolution, bot, "attacked")
    return UNMASK_DAMAGE


def check_disguised_step(resolution: Resolution, bot: Bot) -> None:
    """"moves up to the disguise's movement value": per move action, counted in the pending move."""
    turn = resolution.state.turn
    if bot.disguise is None or turn.pending is None:
        return
    if turn.pending.steps.get(bot.id, 0) >= bot.disguise.movement:
        raise IllegalAction(f"disguised as a guard, Interface moves up to the disguise's movement value "
                            f"({bot.disguise.movement} spaces per move action)")


def count_step(resolution: Resolution, bot: Bot) -> None:
    turn = resolution.state.turn
    if bot.disguise is not None and turn.pending is not None:
        turn.pending.steps[bot.id] = turn.pending.steps.get(bot.id, 0) + 1
