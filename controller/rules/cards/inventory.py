"""What a bot carries: equipment cards and mods in its 2 inventory slots, Nano's innate mod, and the decks
they come from.

"Each bot has 2 inventory slots for equipment/mods, and unlimited space for key chips." Every way a card
arrives (a cache, a terminal, a trade) ends with `enforce_limit`, so a state never holds a bot over the
limit: the cards to let go are named in the action, else the cards that just arrived go back out.
"""

from __future__ import annotations

from typing import Literal, overload

from controller.rules.action_types import Discard, InstallMod
from controller.rules.cards.effects import apply_card_effect
from controller.rules.errors import IllegalAction
from controller.rules.events import CardDiscarded, CardDrawn, CardTraded, ModInstalled, card_ref
from controller.rules.legal import Cost, LegalAction
from controller.rules.players.power_gain import gain_power
from controller.rules.resolution import Resolution
from controller.rules.state import Bot, EquipmentCard, GameState, ImperativeCard, ModCard

LIMIT = 2
LIMIT_TEXT = "a bot holds at most 2 equipment and mods"


@overload
def draw(resolution: Resolution, deck: Literal["equipment"]) -> EquipmentCard | None: ...
@overload
def draw(resolution: Resolution, deck: Literal["mod"]) -> ModCard | None: ...
@overload
def draw(resolution: Resolution, deck: Literal["imperative"]) -> ImperativeCard | None: ...
def draw(resolution: Resolution, deck: Literal["equipment", "mod", "imperative"]
         ) -> EquipmentCard | ModCard | ImperativeCard | None:
    """The top card of a deck ("equipment", "mod" or "imperative"); an empty deck is made anew from its
    discards (every draw goes through the dice, which is the shuffle). None when no card is left at all."""
    state = resolution.state
    cards, discards = f"{deck}_deck", f"{deck}_discard"
    if not getattr(state, cards) and getattr(state, discards):
        setattr(state, cards, getattr(state, discards))
        setattr(state, discards, [])
    pile = getattr(state, cards)
    if not pile:
        return None
    return pile.pop(resolution.dice.draw(f"{deck} deck", [c.id for c in pile]))


def draw_equipment(resolution: Resolution, bot: Bot, discard: list[str]) -> None:
    """"When a bot moves onto a cache, it may collect it: discard the chip and draw 1 equipment card into
    inventory." A Discard card triggers at once ("Trigger immediately when drawn, then discard")."""
    card = draw(resolution, "equipment")
    if card is None:
        return
    resolution.emit(CardDrawn(bot=bot.id, deck="equipment", card=card.id))
    if card.category == "discard":
        effect = card.effect
        apply_card_effect(resolution, bot, effect.kind, effect.amount, effect.chip,
                          f"equipment {card_ref('equipment', card.id)}")
        resolution.state.equipment_discard.append(card)
        resolution.emit(CardDiscarded(bot=bot.id, deck="equipment", card=card.id,
                                      reason="a discard card triggers immediately when drawn"))
        return
    if card.category == "counter":
        card.die = card.charges
    bot.equipment.append(card)
    enforce_limit(resolution, bot, discard, [card.id])


def draw_mod(resolution: Resolution, bot: Bot, discard: list[str]) -> None:
    """A mod from the deck, "Placed sideways as uninstalled"."""
    card = draw(resolution, "mod")
    if card is None:
        return
    resolution.emit(CardDrawn(bot=bot.id, deck="mod", card=card.id))
    bot.mods.append(card)
    enforce_limit(resolution, bot, discard, [card.id])


def holding(bot: Bot, card_id: str) -> tuple[list, EquipmentCard | ModCard] | None:
    """The inventory list holding the card and the card, or None (the innate mod is not in the inventory)."""
    for pile in (bot.equipment, bot.mods, bot.installed):
        for card in pile:
            if card.id == card_id:
                return pile, card
    return None


def discard_card(resolution: Resolution, bot: Bot, card_id: str, reason: str) -> None:
    """Discard equipment or a mod. "discarding awards printed power" for an uninstalled mod; "discarding
    them yields 0 power" for installed ones. Nano's "innate mod cannot be discarded voluntarily or by another
    in-game effect"."""
    if bot.innate is not None and bot.innate.id == card_id:
        raise IllegalAction(f"{bot.name}'s innate mod cannot be discarded voluntarily or by another in-game effect")
    found = holding(bot, card_id)
    if found is None:
        raise IllegalAction(f"{bot.name} holds no card {card_id}")
    pile, card = found
    pile.remove(card)
    state = resolution.state
    if isinstance(card, EquipmentCard):
        card.die = None
        state.equipment_discard.append(card)
        resolution.emit(CardDiscarded(bot=bot.id, deck="equipment", card=card.id,
                                      reason=reason))
        return
    state.mod_discard.append(card)
    uninstalled = pile is bot.mods
    resolution.emit(CardDiscarded(bot=bot.id, deck="mod", card=card.id,
                                  reason=reason + ("" if uninstalled else " (installed: 0 power)")))
    if uninstalled and card.power:
        gain_power(resolution, bot, card.power, f"discarded mod {card_ref('mod', card.id)}")


def enforce_limit(resolution: Resolution, bot: Bot, named: list[str], newest: list[str]) -> None:
    """Discard down to 2: the cards named by the player first, then the cards that just arrived (last first),
    then the bot's own from the last one. ">> Discarding an uninstalled mod in this manner still awards the
    power value printed on the card.\""""
    if bot.inventory <= LIMIT:
        return
    held = [c.id for c in bot.equipment + bot.mods + bot.installed]
    order = [c for c in named if c in held] + [c for c in reversed(newest) if c in held] + list(reversed(held))
    for card_id in dict.fromkeys(order):
        if bot.inventory <= LIMIT:
            return
        discard_card(resolution, bot, card_id, LIMIT_TEXT)


def install_mod(resolution: Resolution, bot: Bot, card_id: str) -> None:
    """"At any time, an agent can install a mod upright to gain its permanent ongoing benefit".
    The command module "cannot activate equipment or mods"."""
    if bot.kind != "agent":
        raise IllegalAction("the command module can carry uninstalled mods, but cannot activate equipment or mods")
    card = next((m for m in bot.mods if m.id == card_id), None)
    if card is None:
        installed = any(m.id == card_id for m in bot.installed)
        raise IllegalAction(f"mod {card_id} is already installed" if installed else
                            f"{bot.name} holds no uninstalled mod {card_id}")
    bot.mods.remove(card)
    bot.installed.append(card)
    resolution.emit(ModInstalled(bot=bot.id, card=card.id))


def replace_innate(resolution: Resolution, bot: Bot) -> None:
    """Nano's Transfer Learning: "his innate mod is discarded and a new mod is drawn and installed in its
    place" (the discard is the ability's own, not one the innate mod forbids)."""
    old = bot.innate
    card = draw(resolution, "mod")
    if card is None:
        return
    if old is not None:
        resolution.state.mod_discard.append(old)
        resolution.emit(CardDiscarded(bot=bot.id, deck="mod", card=old.id,
                                      reason="Transfer Learning replaces the innate mod"))
    bot.innate = card
    resolution.emit(CardDrawn(bot=bot.id, deck="mod", card=card.id))
    resolution.emit(ModInstalled(bot=bot.id, card=card.id, innate=True))


def trade_cards(resolution: Resolution, giver: Bot, taker: Bot, cards: list[str], discard: list[str]) -> None:
    """"Bots can exchange any quantity of keys, equipment cards, and uninstalled mod cards" (">> Once a mod card
    is installed, it can never be traded"); then ">> any bot whose inventory holds more than 2 total mods and
    equipment must discard down to the maximum hand limit of 2\""""
    moving: list[EquipmentCard | ModCard] = []
    for card_id in cards:
        card = next((c for c in giver.equipment + giver.mods if c.id == card_id), None)
        if card is None:
            installed = any(m.id == card_id for m in giver.installed) or (
                giver.innate is not None and giver.innate.id == card_id)
            raise IllegalAction(f"mod {card_id} is installed: once a mod card is installed, it can never be traded"
                                if installed else f"{giver.name} holds no equipment or uninstalled mod {card_id}")
        moving.append(card)
    for card in moving:
        if isinstance(card, EquipmentCard):
            giver.equipment.remove(card)
            taker.equipment.append(card)
        else:
            giver.mods.remove(card)
            taker.mods.append(card)
        resolution.emit(CardTraded(bot=giver.id, to=taker.id, card=card.id))
    enforce_limit(resolution, taker, discard, [c.id for c in moving])
    enforce_limit(resolution, giver, discard, [])


# -- what is legal now (composed by actions.legal_actions) ---------------------------------------------------

def legal_cards(state: GameState, agent: Bot) -> list[LegalAction]:
    """The agent's mods it can install, and the cards the player can discard from the agent and the command
    module (an uninstalled mod awards its printed power); each label names the card."""
    if agent.shut_down:
        return []
    out: list[LegalAction] = []
    for mod in agent.mods:
        out.append(LegalAction(InstallMod(bot=agent.id, card=mod.id), f"free; {mod.name}: {mod.text}"))
    for bot in [agent] + [b for b in state.bots if b.kind == "module" and not b.shut_down]:
        for card in bot.equipment:
            out.append(LegalAction(Discard(bot=bot.id, card=card.id), f"free; {card.name} is discarded"))
        for mod in bot.mods:
            out.append(LegalAction(Discard(bot=bot.id, card=mod.id), f"gain {mod.power} power ({mod.name})",
                                   cost=Cost(power=-mod.power)))
        for mod in bot.installed:
            out.append(LegalAction(Discard(bot=bot.id, card=mod.id), f"installed: 0 power ({mod.name})"))
    return out
