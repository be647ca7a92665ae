"""Agents' proprietary dice: "Certain agents possess proprietary dice (e.g., Casing's Pressure die, Bit's Lift
die) that are only used when playing as an agent."

An agent card may print one (`Bot.proprietary_die`, from bots.toml). It joins the agent's dice pool in step 2
(`DicePool.proprietary`) and, like every pool die, returns to the supply once rolled, so it is rolled at most
once a turn, when the player adds it to an AP check it belongs to (`proprietary = 1` in the action's dice):

- Casing's pressure die joins a move action. ">> Powers that explicitly modify agent movement (e.g., Casing's
  Pressure die) cannot be applied to the command module": its AP are kept apart (`PendingMove.agent_ap`) and
  only the agent spends them.
- Bit's lift die joins the AP check of a strike on a wall or a brute force on a door (Bit heaves the panel).

The faces are original (controller/content/dice.toml `pressure` and `lift`).
"""

from __future__ import annotations

import msgspec

from controller.rules.errors import DiceWanted, IllegalAction, StateError
from controller.rules.events import DieRolled
from controller.rules.players.ap import check_dice, check_pool, check_purpose
from controller.rules.resolution import Resolution
from controller.rules.state import Bot, DicePool

FACES: dict[str, tuple[str, ...]] = {
    "pressure": ("0", "1", "2", "2", "3", "4"),
    "lift": ("0", "2", "2", "3", "3", "4"),
}
# the AP check each die joins: "move" (a move action) or "force" (a strike on a wall, a brute force)
USE = {"pressure": "move", "lift": "force"}
USE_TEXT = {"move": "a move action", "force": "a strike on a wall or a brute force on a door"}


def pool_dice(wanted: DicePool) -> DicePool:
    """The chosen dice without the proprietary die (what the shared AP check rolls)."""
    return msgspec.structs.replace(wanted, proprietary=0)


def check_proprietary(resolution: Resolution, bot: Bot, wanted: DicePool, use: str) -> None:
    """Refuse a proprietary die the bot cannot roll for this AP check."""
    if not wanted.proprietary:
        return
    if wanted.proprietary > 1:
        raise IllegalAction("an agent card prints one proprietary die: roll it once (proprietary = 1)")
    if bot.kind != "agent":
        raise IllegalAction(f"{bot.name} cannot roll a proprietary die: proprietary dice are only used when "
                            f"playing as an agent")
    die = bot.proprietary_die
    if die is None:
        raise IllegalAction(f"{bot.name}'s agent card has no proprietary die")
    if USE[die] != use:
        raise IllegalAction(f"{bot.name}'s {die} die is rolled with {USE_TEXT[USE[die]]}, not with "
                            f"{USE_TEXT[use]}")
    turn = resolution.state.turn
    if turn.pool.proprietary < 1:
        raise IllegalAction(f"{bot.name}'s {die} die has been rolled this turn: rolled dice return to the supply")


def announce_check(resolution: Resolution, bot: Bot, wanted: DicePool, use: str, why: str) -> None:
    """Before an AP check a proprietary die may join: both checked, then every die of it announced at once,
    the proprietary die first as it is read first, so players at the table roll them together."""
    check_proprietary(resolution, bot, wanted, use)
    rest = pool_dice(wanted)
    check_pool(resolution.state.turn.pool, rest)
    own = [DiceWanted(die=f"{bot.proprietary_die} die", count=1, faces=FACES[bot.proprietary_die])
           ] if wanted.proprietary and bot.proprietary_die is not None else []
    resolution.dice.expect(own + check_dice(rest), check_purpose(resolution, why))


def roll_proprietary(resolution: Resolution, bot: Bot, wanted: DicePool, use: str, why: str) -> int:
    """Roll the bot's proprietary die when the action asks for it (checked first); its AP, 0 when not asked."""
    check_proprietary(resolution, bot, wanted, use)
    if not wanted.proprietary:
        return 0
    turn = resolution.state.turn
    if bot.proprietary_die is None:
        raise StateError(f"{bot.name} has no proprietary die to use")
    turn.pool.proprietary -= 1
    die = f"{bot.proprietary_die} die"
    face = resolution.dice.roll(die, FACES[bot.proprietary_die])
    resolution.emit(DieRolled(die=die, face=face, why=why))
    return int(face)
