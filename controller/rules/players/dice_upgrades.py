"""Agent-card dice upgrades: "Power ... currency for upgrades ... Players route power during steps 1 and 5
of their turn to activate abilities or purchase upgrades", and step 2 builds the pool from "1 basic die for
each current power point, plus advanced and elite dice matching their activated upgrades".

Each agent card prints a track of upgrades (`Bot.dice_track`, from bots.toml), activated left to right;
`advanced_dice` and `elite_dice` count the activated ones, so the pool of step 2 needs nothing more.
"""

from __future__ import annotations

from controller.rules.action_types import BuyDiceUpgrade
from controller.rules.errors import IllegalAction
from controller.rules.events import DiceUpgradeBought, PowerChanged
from controller.rules.legal import Cost, LegalAction
from controller.rules.resolution import Resolution
from controller.rules.state import Bot, DiceUpgrade


def next_upgrade(bot: Bot) -> DiceUpgrade | None:
    """The leftmost upgrade of the agent's track not yet activated."""
    return bot.dice_track[bot.dice_bought] if bot.dice_bought < len(bot.dice_track) else None


def buy_dice_upgrade(resolution: Resolution, bot: Bot) -> None:
    if bot.kind != "agent":
        raise IllegalAction("dice upgrades are printed on agent cards: rules affecting agents do not apply to "
                            "the command module")
    upgrade = next_upgrade(bot)
    if upgrade is None:
        raise IllegalAction(f"{bot.name} has activated every upgrade of its agent card"
                            if bot.dice_track else f"{bot.name}'s agent card prints no dice upgrades")
    if bot.power - upgrade.cost < 1:
        raise IllegalAction(f"{bot.name} has {bot.power} power and the upgrade costs {upgrade.cost}: power is "
                            f"health, and 0 power is a shut down")
    bot.power -= upgrade.cost
    bot.dice_bought += 1
    if upgrade.die == "advanced":
        bot.advanced_dice += 1
    else:
        bot.elite_dice += 1
    resolution.emit(PowerChanged(bot=bot.id, old=bot.power + upgrade.cost, new=bot.power,
                                 reason=f"{upgrade.die} die upgrade"))
    resolution.emit(DiceUpgradeBought(bot=bot.id, die=upgrade.die, cost=upgrade.cost))


def activated(bot: Bot) -> tuple[int, int]:
    """(advanced, elite) dice the activated part of the track adds."""
    bought = bot.dice_track[:bot.dice_bought]
    return sum(1 for u in bought if u.die == "advanced"), sum(1 for u in bought if u.die == "elite")


def legal_dice_upgrade(agent: Bot) -> list[LegalAction]:
    """The next upgrade of the agent card's track, when the agent can pay it and keep 1 power."""
    upgrade = next_upgrade(agent)
    if upgrade is None or agent.shut_down or agent.power - upgrade.cost < 1:
        return []
    return [LegalAction(BuyDiceUpgrade(bot=agent.id), f"{upgrade.cost} power: +1 {upgrade.die} die",
                        cost=Cost(power=upgrade.cost))]
