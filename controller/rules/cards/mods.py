"""The ongoing effects of installed mods: "At any time, an agent can install a mod upright to gain its
permanent ongoing benefit".

Each rule that a mod changes asks here for the bonus of its kind (a move's AP, the pool's dice, the power
bank, a keypad shock), so a mod is data and no rule needs to know which cards exist.
"""

from __future__ import annotations

from controller.rules.state import MAX_POWER, Bot


def mod_bonus(bot: Bot, kind: str) -> int:
    """The sum of the installed mods' (and Nano's innate mod's) effects of one kind."""
    total = sum(m.effect.amount for m in bot.installed if m.effect.kind == kind)
    if bot.innate is not None and bot.innate.effect.kind == kind:
        total += bot.innate.effect.amount
    return total


def power_bank(bot: Bot) -> int:
    """The power bank limit, raised by a `bank` mod (never above the absolute maximum of 10)."""
    return min(MAX_POWER, bot.bank + mod_bonus(bot, "bank"))
