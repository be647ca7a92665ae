"""What a bot's own abilities change in the auto-player's play, asked by the paths, the routes and the missions'
strategies alike: kept in a module of its own so a mission's strategy need not import the paths, which ask
the missions (the tower run's safe zone) in turn."""

from __future__ import annotations

from controller.rules import Bot


def passes_doors(bot: Bot) -> bool:
    """Nano's Reassemble: "Nano may move through locked doors" (for 1 AP, like any step), so a locked door is
    not in his way and stays locked (no Preconnaissance threat, no autolock to undo); he opens one only when a
    unit stands beyond it (`paths.opens_doors`)."""
    return "reassemble" in bot.abilities
