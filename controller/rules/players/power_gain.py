"""Gaining power: "Power serves as bot health ... holding up to 10 power"."""

from __future__ import annotations

from controller.rules.events import PowerChanged
from controller.rules.resolution import Resolution
from controller.rules.state import MAX_POWER, Bot


def gain_power(resolution: Resolution, bot: Bot, amount: int, reason: str) -> None:
    """Add power up to the absolute maximum of 10; a shut-down bot gains nothing (only a repair revives it)."""
    new = min(MAX_POWER, bot.power + amount)
    if new > bot.power and not bot.shut_down:
        resolution.emit(PowerChanged(bot=bot.id, old=bot.power, new=new, reason=reason))
        bot.power = new
