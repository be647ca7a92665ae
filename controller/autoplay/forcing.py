"""What a bot's dice are expected to force: asked by the paths, the doors, the actions and the missions'
strategies alike, and kept in a module of its own so a mission's strategy need not import the paths, which ask
the missions in turn."""

from __future__ import annotations

from controller.autoplay.tuning import AVERAGE_AP, FORCE_MARGIN
from controller.rules import Bot, DicePool, KeypadColumn


def expected_ap(dice: DicePool) -> float:
    """Average AP of a roll."""
    return sum(AVERAGE_AP[grade] * getattr(dice, grade) for grade in AVERAGE_AP)


def agent_dice(agent: Bot) -> DicePool:
    """The dice an agent rolls for a general action: a basic die a point of power, and its advanced and elite
    dice."""
    return DicePool(basic=agent.power, advanced=agent.advanced_dice, elite=agent.elite_dice)


def forces(card: KeypadColumn, dice: DicePool) -> bool:
    """Whether the dice are expected to brute-force a keypad card's column (within FORCE_MARGIN of its
    durability): never a card that states "Jam"."""
    return not card.jam and expected_ap(dice) >= card.durability - FORCE_MARGIN
