"""Using equipment cards ("Equipment Cards"): a free action of the agent that holds the card.

"Single Use: Discard after using. Counter: Uses an equipment die showing charges or values. Breakable: Uses a
die. If the rolled result displays a hazard icon in the corner, discard the card after resolving." Discard cards
never reach the inventory (they trigger when drawn, in `inventory.draw_equipment`). The command module "can
carry keys, equipment, and uninstalled mods, but cannot activate equipment or mods".
"""

from __future__ import annotations

from controller.rules.action_types import UseEquipment
from controller.rules.board.awareness import step_bot
from controller.rules.board.geometry import edge_id
from controller.rules.cards.effects import SHARED_KINDS, apply_card_effect
from controller.rules.cards.inventory import discard_card
from controller.rules.errors import IllegalAction, StateError
from controller.rules.events import BotMoved, DieRolled, EquipmentUsed, StepStarted, card_ref
from controller.rules.legal import LegalAction
from controller.rules.players.moves import entered, unlock_door
from controller.rules.resolution import Resolution
from controller.rules.state import Bot, EquipmentCard, SecurityUnit

# The equipment die: values with the hazard icon in the corner on two faces (dice.toml `equipment`).
EQUIPMENT_FACES = ("1+hazard", "2", "2", "3", "3", "4+hazard")


def face_value(face: str) -> tuple[int, bool]:
    """(value, hazard) of an equipment die face such as "4+hazard"."""
    value, _, hazard = face.partition("+")
    return int(value), hazard == "hazard"


def check_use(resolution: Resolution, bot: Bot, card_id: str) -> EquipmentCard:
    if bot.kind != "agent":
        raise IllegalAction("the command module can carry equipment, but cannot activate equipment or mods")
    card = next((c for c in bot.equipment if c.id == card_id), None)
    if card is None:
        raise IllegalAction(f"{bot.name} holds no equipment card {card_id}")
    if card.effect.kind == "pool_dice" and resolution.state.turn.step != "actions":
        raise IllegalAction("dice join the pool in the action step: the pool is built in step 2")
    return card


def use_equipment(resolution: Resolution, bot: Bot, card_id: str, unit: str | None = None, beyond: str | None = None,
                  path: list[str] | None = None) -> None:
    """Use a card: `unit` is the adjacent security unit a stun targets, `beyond` the space past the adjacent
    locked door to unlock, `path` the spaces of a bonus move in order."""
    card = check_use(resolution, bot, card_id)
    effect = card.effect
    amount, hazard = effect.amount, False
    if card.category == "breakable":
        face = resolution.dice.roll("equipment die", EQUIPMENT_FACES)
        resolution.emit(DieRolled(die="equipment die", face=face, why=card_ref("equipment", card.id)))
        value, hazard = face_value(face)
        if effect.amount_from_die:
            amount = value
    target = _target(resolution, bot, card, unit, beyond, path or [], amount)
    if card.category == "counter":
        if card.die is None:
            raise StateError(f"counter {card.name} ({card.id}) in play has no equipment die")
        card.die -= 1
    resolution.emit(EquipmentUsed(bot=bot.id, card=card.id,
                                  die=card.die if card.category == "counter" else None))
    _resolve(resolution, bot, card, amount, target)
    if card in bot.equipment and (card.category == "single_use" or hazard
                                  or (card.category == "counter" and card.die == 0)):
        reason = {"single_use": "single use: discard after using", "counter": "its equipment die is spent",
                  "breakable": "the equipment die shows the hazard icon"}[card.category]
        discard_card(resolution, bot, card.id, reason)


def _target(resolution: Resolution, bot: Bot, card: EquipmentCard, unit: str | None, beyond: str | None,
            path: list[str], amount: int) -> object:
    """Check the card's target before anything resolves (an illegal use changes nothing)."""
    floor = resolution.floor
    kind = card.effect.kind
    if bot.space is None or not bot.on_board:
        if kind in ("stun", "unlock_door", "bonus_move"):
            raise IllegalAction(f"{bot.name} is not on the floor")
        return None
    here = floor.index[bot.space]
    near = {j for _, j in floor.bot_neighbours(here, resolution.unlocked, resolution.destroyed)}
    if kind == "stun":
        target = next((u for u in resolution.state.security if u.id == unit), None)
        if target is None or floor.index[target.space] not in near:
            raise IllegalAction(f"{card.name} stuns an adjacent security unit: name one next to {bot.name}")
        return target
    if kind == "unlock_door":
        if beyond is None or beyond not in floor.index:
            raise IllegalAction(f"{card.name} unlocks an adjacent locked door: name the space beyond it")
        door = edge_id(bot.space, beyond)
        if floor.edge_between(here, floor.index[beyond]) != "door" or door in resolution.unlocked:
            raise IllegalAction(f"no locked door stands between {bot.space} and {beyond}")
        return door
    if kind == "bonus_move":
        if not 1 <= len(path) <= amount:
            raise IllegalAction(f"{card.name} moves up to {amount} spaces: give a path of 1 to {amount} spaces")
        at = here
        for space in path:
            if space not in floor.index:
                raise IllegalAction(f"{space} is not a space of {floor.name}")
            nxt = floor.index[space]
            if nxt not in {j for _, j in floor.bot_neighbours(at, resolution.unlocked, resolution.destroyed)}:
                raise IllegalAction(f"{space} is not adjacent to the space before it: bots cannot move through "
                                    f"walls or locked doors (and a bonus move is no move action: no keys)")
            if nxt in resolution.occupant and resolution.occupant[nxt] is not bot:
                raise IllegalAction(f"{space} is occupied: bots cannot move through other units")
            at = nxt
        return path
    return None


def _resolve(resolution: Resolution, bot: Bot, card: EquipmentCard, amount: int, target: object) -> None:
    effect = card.effect
    why = f"equipment {card_ref('equipment', card.id)}"
    if effect.kind in SHARED_KINDS:
        apply_card_effect(resolution, bot, effect.kind, amount, effect.chip, why)
    elif effect.kind == "pool_dice":
        turn = resolution.state.turn
        if effect.die is None:
            raise StateError(f"{card.name} ({card.id}) adds dice to the pool but names no die")
        setattr(turn.pool, effect.die, getattr(turn.pool, effect.die) + amount)
        resolution.emit(StepStarted(step="pool", bot=bot.id, dice={effect.die: amount}))
    elif effect.kind == "stun":
        if not isinstance(target, SecurityUnit):
            raise StateError(f"{card.name} ({card.id}) stuns a unit, and no unit was targeted")
        target.stunned = True
        resolution.emit(StepStarted(step="stunned", unit=target.id))
    elif effect.kind == "unlock_door":
        if not isinstance(target, str):
            raise StateError(f"{card.name} ({card.id}) unlocks a door, and no door was targeted")
        unlock_door(resolution, target, why)
    elif effect.kind == "bonus_move":
        # ">> Movement awarded outside of standard move actions (such as bonus movement from gear or abilities)
        # does not count as a move action."
        if not isinstance(target, list):
            raise StateError(f"{card.name} ({card.id}) moves a bot, and no path was given")
        for space in target:
            if resolution.over or bot.shut_down:
                return
            start = bot.at
            mark = len(resolution.events)
            step_bot(resolution, bot, resolution.floor.index[space])
            resolution.events.insert(mark, BotMoved(bot=bot.id, path=[start, space]))
            entered(resolution, bot)


# -- what is legal now (composed by actions.legal_actions) ---------------------------------------------------

def legal_equipment(resolution: Resolution, agent: Bot, step: str) -> list[LegalAction]:
    """Each use of the agent's equipment it can make now: one per target a card can take (each adjacent security
    unit for a stun, each adjacent locked door for an unlock, each free adjacent space as the first space of a
    bonus move, whose path may go on); the label names the card, so the list reads without the deck at hand."""
    if agent.shut_down:
        return []
    out: list[LegalAction] = []
    for card in agent.equipment:
        out.extend(_uses(resolution, agent, card, step))
    return out


def _uses(resolution: Resolution, agent: Bot, card: EquipmentCard, step: str) -> list[LegalAction]:
    kind = card.effect.kind
    if kind == "pool_dice" and step != "actions":
        return []
    label = card.name + {"single_use": "; discard after using", "breakable": "; rolls the equipment die",
                         "counter": f"; equipment die {card.die} -> {(card.die or 1) - 1}"}.get(card.category, "")
    if kind not in ("stun", "unlock_door", "bonus_move"):
        return [LegalAction(UseEquipment(bot=agent.id, card=card.id), label)]
    if not agent.on_board:
        return []
    floor = resolution.floor
    here = floor.index[agent.at]
    out: list[LegalAction] = []
    if kind == "unlock_door":
        for j, edge in floor.neighbour[here].values():
            if edge == "door" and edge_id(agent.at, floor.ids[j]) not in resolution.unlocked:
                out.append(LegalAction(UseEquipment(bot=agent.id, card=card.id, beyond=floor.ids[j]), label))
        return out
    longest = "the rolled value" if card.effect.amount_from_die else str(card.effect.amount)
    for _, j in floor.bot_neighbours(here, resolution.unlocked, resolution.destroyed):
        other = resolution.occupant.get(j)
        if kind == "stun" and isinstance(other, SecurityUnit):
            out.append(LegalAction(UseEquipment(bot=agent.id, card=card.id, unit=other.id), label))
        elif kind == "bonus_move" and other is None:
            out.append(LegalAction(UseEquipment(bot=agent.id, card=card.id, path=[floor.ids[j]]),
                                   f"{label}; more spaces of the path, up to {longest} in all, if wanted",
                                   choose=["path"]))
    return out
