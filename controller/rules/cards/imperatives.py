"""Imperatives: "Cards imposing conditions on agents. Drawn at the start of each floor (limit 1 per agent;
command modules never draw imperatives). Completing an imperative awards the listed power immediately.
Failing or discarding an imperative costs 1 power."

Each card names a goal the engine counts from the moment it is drawn (`ImperativeCard.base`) and what fails
it; `check_imperatives` runs after every action and corporation turn, like the mission check. A card held when
the team changes floors stays in the agent's hand with what it has counted so far (`ImperativeCard.carried`).
"""

from __future__ import annotations

from controller.rules.action_types import Discard
from controller.rules.cards.inventory import draw
from controller.rules.corporation.security import damage_bot
from controller.rules.errors import IllegalAction, StateError
from controller.rules.events import CardDrawn, ImperativeResolved, card_ref
from controller.rules.legal import Cost, LegalAction
from controller.rules.players.power_gain import gain_power
from controller.rules.resolution import Resolution
from controller.rules.state import Bot, ImperativeCard

FAIL_COST = 1  # "Failing or discarding an imperative costs 1 power."


def goal_count(resolution: Resolution, bot: Bot, goal: str) -> int:
    """How far the agent has come on a goal, from the counters its actions keep in `state.progress`."""
    state = resolution.state
    if goal == "ip_level":
        ip = next((i for i in state.network.ips if i.agent == bot.id and not i.banned), None)
        return ip.level if ip is not None else 0
    key = {"terminals": "terminals", "caches": "caches", "network_cards": "network_card",
           "shut_down": "shut_down_by", "hidden": "hidden_turns"}[goal]
    return state.progress.get(f"{key}:{bot.id}", 0)


def progress_made(resolution: Resolution, bot: Bot, card: ImperativeCard) -> int:
    """How far the agent has come on its card since drawing it (on this floor and the ones before)."""
    return goal_count(resolution, bot, card.goal) - card.base + card.carried


def carry_imperatives(resolution: Resolution) -> None:
    """Changing floors: "Remove all other board components" takes no card from an agent's hand, so each
    imperative stays; the floor's counters are about to be reset, so the count made so far is kept on the card.
    An IP's network level is no floor counter (the network stays), so that goal needs nothing kept."""
    for bot in resolution.state.bots:
        card = bot.imperative
        if card is not None and card.goal != "ip_level":
            card.carried = progress_made(resolution, bot, card)
            card.base = 0


def draw_imperative(resolution: Resolution, bot: Bot) -> None:
    """One imperative for an agent without one: "limit 1 per agent; command modules never draw imperatives".
    An agent already holding one draws none (the limit)."""
    if bot.kind != "agent" or bot.imperative is not None or bot.escaped:
        return
    card = draw(resolution, "imperative")
    if card is None:
        return
    card.base = 0 if card.goal == "ip_level" else goal_count(resolution, bot, card.goal)
    bot.imperative = card
    resolution.emit(CardDrawn(bot=bot.id, deck="imperative", card=card.id))


def draw_imperatives(resolution: Resolution) -> None:
    """Setting up a floor ("Changing Floors", step 5): "Agents lacking an imperative card draw one.\""""
    for bot in resolution.state.bots:
        draw_imperative(resolution, bot)


def _settle(resolution: Resolution, bot: Bot, completed: bool, reason: str) -> None:
    card = bot.imperative
    if card is None:
        raise StateError(f"{bot.name} holds no imperative to settle ({reason})")
    bot.imperative = None
    card.base = card.carried = 0
    resolution.state.imperative_discard.append(card)
    resolution.emit(ImperativeResolved(bot=bot.id, card=card.id, completed=completed,
                                       reason=reason))
    if completed:
        gain_power(resolution, bot, card.reward, f"imperative {card_ref('imperative', card.id)} completed")
    else:
        damage_bot(resolution, bot, FAIL_COST, f"imperative {card_ref('imperative', card.id)} failed")


def discard_imperative(resolution: Resolution, bot: Bot) -> None:
    """"Failing or discarding an imperative costs 1 power." Power is health: the engine refuses a discard
    that would spend the agent's last power (as it refuses such an upgrade)."""
    if bot.imperative is None:
        raise IllegalAction(f"{bot.name} holds no imperative card")
    if bot.power <= FAIL_COST:
        raise IllegalAction(f"{bot.name} has {bot.power} power: discarding an imperative costs 1 power, and 0 power "
                            f"is a shut down")
    _settle(resolution, bot, False, "discarded (costs 1 power)")


def check_imperatives(resolution: Resolution, struck: str | None = None, end_of_turn: str | None = None) -> None:
    """Complete or fail the agents' imperatives: `struck` names the agent that struck a security unit in this
    action, `end_of_turn` the agent whose turn just ended."""
    state = resolution.state
    for bot in state.bots:
        card = bot.imperative
        if card is None or resolution.over or bot.shut_down:
            continue
        if card.goal == "hidden" and end_of_turn == bot.id and bot.hidden:
            key = f"hidden_turns:{bot.id}"
            state.progress[key] = state.progress.get(key, 0) + 1
        failed = ((card.fail == "detected" and bot.detected) or (card.fail == "strike" and struck == bot.id)
                  or (card.fail == "threat" and card.threshold is not None and state.threat >= card.threshold))
        if failed:
            _settle(resolution, bot, False, {"detected": "detected", "strike": "struck a security unit",
                                             "threat": f"threat reached {card.threshold}"}[card.fail])
        elif progress_made(resolution, bot, card) >= card.count:
            _settle(resolution, bot, True, f"reward {card.reward} power")


def legal_imperative_discard(agent: Bot) -> list[LegalAction]:
    """Discarding the agent's imperative, which costs FAIL_COST power (never the last)."""
    if agent.shut_down or agent.imperative is None or agent.power <= FAIL_COST:
        return []
    return [LegalAction(Discard(bot=agent.id, card=agent.imperative.id),
                        f"{FAIL_COST} power ({agent.imperative.name})", cost=Cost(power=FAIL_COST))]
