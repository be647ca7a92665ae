"""Power routing to universal upgrades, and the repair action they unlock.

"Bots can acquire universal upgrades for 1 power each: Swap, Push, Repair." Power is also health, so the
engine refuses a purchase that would spend a bot's last power (it would shut the bot down).
"""

from __future__ import annotations

from controller.rules.action_types import BuyUpgrade, Repair
from controller.rules.cards.mods import power_bank
from controller.rules.errors import IllegalAction
from controller.rules.events import PowerChanged, StepStarted, bot_ref
from controller.rules.legal import Cost, LegalAction
from controller.rules.resolution import Resolution
from controller.rules.state import MAX_POWER, Bot, Upgrade

UNIVERSAL_UPGRADES: tuple[Upgrade, ...] = ("swap", "push", "repair")


def buy_upgrade(resolution: Resolution, bot: Bot, upgrade: Upgrade) -> None:
    if upgrade not in UNIVERSAL_UPGRADES:
        raise IllegalAction(f"{upgrade!r} is not a universal upgrade (swap, push or repair)")
    if upgrade in bot.upgrades:
        raise IllegalAction(f"{bot.name} already has the {upgrade} upgrade")
    if bot.power <= 1:
        raise IllegalAction(f"{bot.name} has {bot.power} power: power is health, and 0 power is a shut down")
    bot.power -= 1
    bot.upgrades.append(upgrade)
    resolution.emit(PowerChanged(bot=bot.id, old=bot.power + 1, new=bot.power,
                                 reason=f"{upgrade} upgrade"))


def repair(resolution: Resolution, actor: Bot, target: Bot, amount: int) -> None:
    """"The acting bot reduces its power bank by any chosen amount and increases the target bot's power by
    that same amount. The acting bot must retain at least 1 power. A bot's power may exceed its power bank
    capacity (up to the absolute maximum of 10). Repairing a shut-down bot reactivates it immediately.\""""
    if "repair" not in actor.upgrades:
        raise IllegalAction(f"{actor.name} has not unlocked repair: a bot may repair once it activates its "
                            f"repair upgrade")
    if actor is target:
        raise IllegalAction("repair transfers power to another bot")
    if amount < 1:
        raise IllegalAction("repair transfers at least 1 power")
    if actor.power - amount < 1:
        raise IllegalAction(f"{actor.name} has {actor.power} power: the acting bot must retain at least 1 power")
    if target.power + amount > MAX_POWER:
        raise IllegalAction(f"{target.name} would hold {target.power + amount} power: "
                            f"the absolute maximum is {MAX_POWER}")
    if not target.on_board:
        raise IllegalAction(f"{target.name} is not on the board")
    actor.power -= amount
    target.power += amount
    resolution.emit(PowerChanged(bot=actor.id, old=actor.power + amount, new=actor.power,
                                 reason=f"repairs {bot_ref(target.id)}"))
    resolution.emit(PowerChanged(bot=target.id, old=target.power - amount, new=target.power,
                                 reason=f"repaired by {bot_ref(actor.id)}"))
    if target.shut_down:
        target.shut_down = False
        resolution.emit(StepStarted(step="revived", bot=target.id))


def spend_down(resolution: Resolution, bot: Bot) -> None:
    """"Agents must spend down to their power bank limit at the end of step 5." (A bot repaired above its
    capacity keeps the excess until step 5 of its next turn.) Power not routed is lost."""
    bank = power_bank(bot)
    if bot.kind == "agent" and bot.power > bank:
        resolution.emit(PowerChanged(bot=bot.id, old=bot.power, new=bank,
                                     reason="end of turn: spend down to the power bank limit"))
        bot.power = bank


# -- what is legal now (composed by actions.legal_actions) ---------------------------------------------------

def legal_upgrades(bots: list[Bot]) -> list[LegalAction]:
    """The universal upgrades each of the bots (the active agent, the command module) can still buy."""
    out = []
    for bot in bots:
        if bot.shut_down or bot.power <= 1:
            continue
        for up in UNIVERSAL_UPGRADES:
            if up not in bot.upgrades:
                out.append(LegalAction(BuyUpgrade(bot=bot.id, upgrade=up), "1 power", cost=Cost(power=1)))
    return out


def legal_repairs(bots: list[Bot], bot: Bot) -> list[LegalAction]:
    """The bot's repairs of each other bot on the board that can take power."""
    if "repair" not in bot.upgrades or bot.power <= 1:
        return []
    out = []
    for other in bots:
        if other is not bot and other.on_board and other.power < MAX_POWER:
            most = min(bot.power - 1, MAX_POWER - other.power)
            out.append(LegalAction(Repair(bot=bot.id, target=other.id, amount=1), f"1 power; amount 1-{most}",
                                   choose=["amount"], options={"amount": list(range(1, most + 1))},
                                   cost=Cost(power=1)))
    return out
