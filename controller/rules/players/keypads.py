"""The keypad action ("Utility Actions (Keypads)", "Resolving Inputs", "Brute Force", "Keys").

"A bot adjacent to a locked door may attempt to open it with a keypad action. If a keypad card is already
assigned to the door, use it; otherwise, draw the top keypad card and place it faceup next to the door. The
column used corresponds to the current floor number (Floor 1, 2, or 3). For every keypad die icon printed in
the column, roll the keypad die."

The action is one engine call: the approach is named in the action and the keypad dice are rolled in it
(">> You cannot alter the burncycle midway through a keypad action", and no other free action can come in
between either). A keypad die showing the unlock face opens the door whatever the approach; a key is spent
before any die is rolled. Readings are in docs/rules-interpretations.md ("Players' turn").
"""

from __future__ import annotations

from itertools import chain

from controller.rules.action_types import Keypad
from controller.rules.board.awareness import place_awareness, step_bot
from controller.rules.board.geometry import edge_id
from controller.rules.cards.mods import mod_bonus
from controller.rules.characters.proprietary_dice import announce_check, pool_dice, roll_proprietary
from controller.rules.corporation.captain_chip import reach_captain_chip
from controller.rules.corporation.pings import add_ping
from controller.rules.corporation.security import damage_bot
from controller.rules.errors import DiceWanted, IllegalAction
from controller.rules.events import (
    BotMoved,
    DieRolled,
    KeypadCardPlaced,
    KeypadResolved,
    ReserveChanged,
    SlotReached,
    bot_ref,
)
from controller.rules.legal import Cost, LegalAction, dice_label, pool_choices
from controller.rules.missions import special_rules
from controller.rules.players.ap import roll_ap
from controller.rules.players.moves import current_chip_kind, movers, surveil, unlock_door
from controller.rules.players.steps import active_agent, usable
from controller.rules.resolution import Resolution
from controller.rules.state import Bot, ChipKind, DicePool, KeypadCard, KeypadColumn

# The keypad die (controller/content/dice.toml `keypad`).
KEYPAD_FACES = ("unlock", "physical", "tech", "utility", "alarm", "ping")
CHIP_INPUTS: dict[str, ChipKind] = {"physical": "physical", "tech": "tech", "utility": "utility"}  # input -> chip
APPROACHES = ("inputs", "brute_force", "key", "abort")
PAY_SOURCES = ("personal", "team", "jump")


def check_keypad(resolution: Resolution, bot_id: str, beyond: str) -> tuple[Bot, str, int]:
    """The acting bot, the locked door between it and `beyond`, and the space beyond (its index)."""
    bot = next((b for b in movers(resolution) if b.id == bot_id), None)
    if bot is None:
        raise IllegalAction(f"{bot_id} cannot take a keypad action now: the player's agent or the command "
                            f"module takes the actions of the turn")
    floor = resolution.floor
    if beyond not in floor.index:
        raise IllegalAction(f"{beyond} is not a space of {floor.name}")
    here, there = floor.index[bot.at], floor.index[beyond]
    kind = floor.edge_between(here, there)
    door = edge_id(bot.at, beyond)
    if kind != "door":
        raise IllegalAction(f"no door stands between {bot.space} and {beyond}: a bot adjacent to a locked door "
                            f"may attempt to open it with a keypad action")
    if door in resolution.unlocked:
        raise IllegalAction(f"the door {door} is already unlocked: a keypad action opens a locked door")
    return bot, door, there


def column(resolution: Resolution, card: KeypadCard) -> KeypadColumn:
    """"The column used corresponds to the current floor number (Floor 1, 2, or 3).\""""
    level = resolution.state.floor.level
    return card.columns[min(level, len(card.columns)) - 1]


def brute_force_durability(resolution: Resolution, door: str) -> int:
    """The AP a brute force on the door needs: its card's column, or for a door whose card is still to be drawn
    any card's, as every card prints the same per floor ("Level 1: 4 AP / Level 2: 6 AP / Level 3: 8 AP")."""
    state = resolution.state
    card = state.keypads.get(door) or next(chain(state.keypad_deck, state.keypad_discard, state.keypads.values()),
                                          None)
    if card is None:
        raise IllegalAction("the keypad deck is empty: no keypad card can be drawn for the door")
    return column(resolution, card).durability


def card_for(resolution: Resolution, door: str) -> KeypadCard:
    """The card by the door, or the top card of the keypad deck placed faceup next to it."""
    state = resolution.state
    card = state.keypads.get(door)
    if card is not None:
        return card
    if not state.keypad_deck and state.keypad_discard:
        # The deck ran out: the discards are shuffled into a new deck (rules-interpretations.md).
        state.keypad_deck, state.keypad_discard = state.keypad_discard, []
    if not state.keypad_deck:
        raise IllegalAction("the keypad deck is empty: no keypad card can be drawn for the door")
    k = resolution.dice.draw("keypad deck", [c.id for c in state.keypad_deck])
    card = state.keypad_deck.pop(k)
    state.keypads[door] = card
    col = column(resolution, card)
    resolution.emit(KeypadCardPlaced(door=door, card=card.id, level=state.floor.level, inputs=list(col.inputs),
                                     dice=col.dice, jam=col.jam))
    return card


def keypad(resolution: Resolution, bot_id: str, beyond: str, approach: str, dice: DicePool | None = None,
           ignore: str | None = None, pay: list[str] | None = None, move_through: bool = True) -> None:
    """One keypad action on the door between the bot and `beyond`, by the named approach:

    - "inputs": "Satisfy every icon in the column" (printed and rolled); chip icons are paid from the
      sources in `pay` order (default: personal reserve, team reserve, a jump of the tracker); `ignore`
      names the input an optimized action ignores.
    - "brute_force": an AP check with `dice` against the column's durability (not if Jammed).
    - "key": "Discard a key to unlock the door immediately."
    - "abort": "Conclude the action without unlocking. The card remains by the door."
    """
    bot, door, there = check_keypad(resolution, bot_id, beyond)
    if approach not in APPROACHES:
        raise IllegalAction(f"{approach!r} is no approach to a keypad: resolve the inputs, brute force, use a "
                            f"key or abort")
    if approach == "key" and bot.keys < 1:
        raise IllegalAction(f"{bot.name} has no key: a bot in possession of a key may discard it to unlock "
                            f"the door")
    order = list(pay) if pay else list(PAY_SOURCES)
    if any(p not in PAY_SOURCES for p in order):
        raise IllegalAction("inputs are paid from the personal reserve, the team reserve, or by jumping the "
                            "burncycle tracker ahead to a matching chip")
    # "The sole utility action is the keypad action, optimized by the utility action chip."
    optimized = current_chip_kind(resolution) == "utility"
    known = door in resolution.state.keypads
    deck = resolution.state.keypad_deck or resolution.state.keypad_discard
    if not known and deck:  # the card is drawn first; the dice it asks for are only known once it is seen
        resolution.dice.expect([DiceWanted(die="keypad deck", count=1, faces=tuple(c.id for c in deck))],
                               f"{bot.name}'s keypad on the door {door}")
    card = card_for(resolution, door)
    col = column(resolution, card)
    if approach == "brute_force" and col.jam:
        if known:
            raise IllegalAction(f"keypad card {card.id} states \"Jam\" on this floor: a bot may attempt to force "
                                f"the door only unless the column states \"Jam\"")
        # The card was only revealed by this action: the attempt fails and the card stays by the door.
        _fail(resolution, bot, door, card, "brute_force", "the keypad is jammed")
        return
    if approach == "key":
        # "A bot in possession of a key may discard it at any point during a keypad action to immediately
        # unlock the door without resolving inputs or rolling AP."
        bot.keys -= 1
        _open(resolution, bot, door, card, there, "key", f"{bot_ref(bot.id)} discards a key", move_through)
        return
    rolled: list[str] = []
    resolution.dice.expect([DiceWanted(die="keypad die", count=col.dice, faces=KEYPAD_FACES)],
                           f"{bot.name}'s keypad {card.id} on the door {door}")
    for _ in range(col.dice):
        # ">> Keypad die results are re-rolled on subsequent attempts."
        face = resolution.dice.roll("keypad die", KEYPAD_FACES)
        resolution.emit(DieRolled(die="keypad die", face=face, why=f"keypad {card.id} on the door {door}"))
        rolled.append(face)
    if "unlock" in rolled:
        # "Automatic Unlock: The door opens instantly, resolving all requirements."
        _open(resolution, bot, door, card, there, "unlock", "the keypad die shows unlock", move_through)
        return
    if approach == "abort":
        _fail(resolution, bot, door, card, "abort", "aborted")
        return
    if approach == "brute_force":
        # ">> Optimizing a keypad action provides no benefit when using brute force."
        wanted = dice or DicePool()
        announce_check(resolution, bot, wanted, "force", f"brute force on the door {door}")
        lift = roll_proprietary(resolution, bot, wanted, "force", f"brute force on the door {door}")  # Bit's lift die
        ap = lift + roll_ap(resolution, pool_dice(wanted), 0, f"brute force on the door {door}")
        if ap >= col.durability:
            _open(resolution, bot, door, card, there, "brute_force", f"{ap} AP against {col.durability}", move_through)
        else:
            _fail(resolution, bot, door, card, "brute_force", f"{ap} AP against durability {col.durability}")
        return
    _resolve_inputs(resolution, bot, door, card, there, list(col.inputs) + rolled, optimized, ignore, order,
                    move_through)


# -- Resolving Inputs -------------------------------------------------------------------------------
def _plan(resolution: Resolution, inputs: list[str],
          order: list[str]) -> tuple[list[tuple[ChipKind, str, int]], int | None]:
    """Payments for the chip inputs: (kind, source, slot) each; and the index of the first chip input that
    cannot be paid (None when all can). ">> The action chip currently holding the burncycle tracker cannot be
    used to pay for an input; only chips to its right may be used.\""""
    state = resolution.state
    agent = active_agent(state)
    stock = {"personal": list(state.burncycle.personal_reserves.get(agent.id, [])),
             "team": list(state.burncycle.team_reserve)}
    tracker = state.burncycle.tracker
    payments: list[tuple[ChipKind, str, int]] = []
    for k, wanted in enumerate(inputs):
        kind = CHIP_INPUTS.get(wanted)
        if kind is None:
            continue
        paid = False
        for source in order:
            if source == "jump":
                slot = next((s for s in range(tracker + 1, len(state.burncycle.slots))
                             if usable(state, s) and state.burncycle.chip(s).kind == kind), None)
                if slot is not None:
                    tracker = slot
                    payments.append((kind, "jump", slot))
                    paid = True
                    break
            elif kind in stock[source]:
                stock[source].remove(kind)
                payments.append((kind, source, -1))
                paid = True
                break
        if not paid:
            return payments, k
    return payments, None


def chip_inputs_payable(resolution: Resolution, bot: Bot, card: KeypadCard) -> bool:
    """Whether an inputs attempt by `bot` now would pay every chip input printed in the card's column ("Discard
    a matching chip from personal/team reserve, OR jump the burncycle tracker ahead to a matching chip to the
    right of the current slot"), ignoring the input an optimized action would ignore; the keypad dice may still
    add more. The same choices as `_resolve_inputs` makes."""
    inputs: list[str] = list(column(resolution, card).inputs)
    order = list(PAY_SOURCES)
    if current_chip_kind(resolution) == "utility" and inputs:
        inputs.pop(_choose_ignored(resolution, bot, inputs, None, order))
    return _plan(resolution, inputs, order)[1] is None


def _choose_ignored(resolution: Resolution, bot: Bot, inputs: list[str], wanted: str | None, order: list[str]) -> int:
    """The input an optimized keypad action ignores ("If optimized, the player may ignore any single input"):
    the one named in the action when it is among the inputs, else the engine's choice: an input that cannot
    be paid, then a shock, an alarm (if the bot is undetected), a ping, a chip input paid by a jump, any chip
    input, and last an alarm of a bot already detected."""
    if wanted is not None and wanted in inputs:
        return inputs.index(wanted)
    _, unpaid = _plan(resolution, inputs, order)
    if unpaid is not None:
        return unpaid
    if "shock" in inputs:
        return inputs.index("shock")
    if "alarm" in inputs and not bot.detected:
        return inputs.index("alarm")
    if "ping" in inputs:
        return inputs.index("ping")
    chips = [k for k, i in enumerate(inputs) if i in CHIP_INPUTS]
    if chips:
        payments, _ = _plan(resolution, inputs, order)
        jumps = [k for k, (kind, source, _) in zip(chips, payments) if source == "jump"]
        return jumps[-1] if jumps else chips[-1]
    return 0


def _resolve_inputs(resolution: Resolution, bot: Bot, door: str, card: KeypadCard, there: int, inputs: list[str],
                    optimized: bool, ignore: str | None, order: list[str], move_through: bool) -> None:
    """"All displayed and rolled inputs must be fulfilled during the same action in any chosen sequence. If
    optimized, the player may ignore any single input.\""""
    state = resolution.state
    if optimized and inputs:
        skipped = inputs.pop(_choose_ignored(resolution, bot, inputs, ignore, order))
        ignored = f"optimized: {skipped} ignored"
    else:
        ignored = ""
    payments, unpaid = _plan(resolution, inputs, order)
    if unpaid is not None:
        # ">> Inputs do not carry over across separate actions; all must be satisfied in one go." An input
        # that cannot be paid leaves the door locked, and nothing is paid for the others.
        _fail(resolution, bot, door, card, "inputs", f"no {inputs[unpaid]} chip to pay for the {inputs[unpaid]} input")
        return
    agent = active_agent(state)
    bc = state.burncycle
    for paid, source, slot in payments:
        if source == "jump":
            # "jump the burncycle tracker ahead to a matching chip to the right of the current slot
            # (forfeiting skipped actions)": a captain chip passed over is reached (its event is executed).
            for s in range(bc.tracker + 1, slot):
                chip = bc.slots[s]
                if chip is not None and not chip.degraded and chip.kind == "captain":
                    reach_captain_chip(resolution)
            bc.tracker = slot
            resolution.emit(SlotReached(slot=slot + 1, chip=paid))
        else:
            reserve = bc.team_reserve if source == "team" else bc.personal_reserves[agent.id]
            reserve.remove(paid)
            resolution.emit(ReserveChanged(owner="team" if source == "team" else agent.id, chips=list(reserve)))
    for kind in inputs:
        if resolution.over:
            return
        if kind == "alarm":
            # "Alarm: The acting bot becomes detected (if already detected, counts as resolved)."
            place_awareness(resolution, bot, f"a keypad alarm at the door {door}")
        elif kind == "ping":
            # "Ping: The CEO places 1 ping on the core (resolved even if all pings are deployed)": with no
            # ping left in the supply none is placed, and the input still counts as resolved.
            add_ping(resolution)
        elif kind == "shock" and not mod_bonus(bot, "ignore_shock"):
            # "Shock: The acting bot suffers 1 power loss." (an ignore_shock mod spares its agent)
            damage_bot(resolution, bot, 1, f"keypad shock at the door {door}")
    if resolution.over:
        return
    detail = ", ".join(x for x in (" + ".join(inputs) or "no inputs", ignored) if x)
    _open(resolution, bot, door, card, there, "inputs", detail, move_through)


# -- success and failure ----------------------------------------------------------------------------
def _open(resolution: Resolution, bot: Bot, door: str, card: KeypadCard, there: int, approach: str, detail: str,
          move_through: bool) -> None:
    """"Upon success, discard the card, place an unlocked door peg in the board hole, and the bot may take a
    free move through into an empty space (without triggering swap or push).\""""
    resolution.emit(KeypadResolved(door=door, card=card.id, bot=bot.id, approach=approach,
                                   unlocked=True, detail=detail))
    unlock_door(resolution, door, f"keypad action by {bot_ref(bot.id)}")  # discards the door's keypad card
    if not move_through or bot.shut_down or there in resolution.occupant or resolution.over \
            or special_rules.safe_zone_closed(resolution, there):
        return
    start = bot.at
    mark = len(resolution.events)
    step_bot(resolution, bot, there)
    resolution.events.insert(mark, BotMoved(bot=bot.id, path=[start, bot.at]))
    floor = resolution.floor
    area = floor.area(there)
    if floor.ids[area.spaces[0]] in resolution.state.floor.surveillance and not resolution.over:
        # "Entering an unsurveilled room (containing a surveillance bead) halts movement on the first space
        # to roll the surveillance dice": a free move into such a room surveils it too.
        surveil(resolution, bot, area.index)


def _fail(resolution: Resolution, bot: Bot, door: str, card: KeypadCard, approach: str, detail: str) -> None:
    """"If unsuccessful, leave the keypad card faceup by the door for future attempts.\""""
    resolution.emit(KeypadResolved(door=door, card=card.id, bot=bot.id, approach=approach,
                                   unlocked=False, detail=detail))


# -- what is legal now (composed by actions.legal_actions) ---------------------------------------------------

def legal_keypads(resolution: Resolution, bot: Bot) -> list[LegalAction]:
    """Keypad actions on the locked doors next to the bot, one per approach that can apply."""
    state, floor = resolution.state, resolution.floor
    turn = state.turn
    force_dice = pool_choices(turn.pool, bot, "force")
    out: list[LegalAction] = []
    here = floor.index[bot.at]
    for j, kind in floor.neighbour[here].values():
        beyond = floor.ids[j]
        if kind != "door":
            continue
        door = edge_id(bot.at, beyond)
        if door in resolution.unlocked:
            continue
        card = state.keypads.get(door)
        if card is None and not state.keypad_deck and not state.keypad_discard:
            continue
        col = column(resolution, card) if card is not None else None
        if card is not None and col is not None:
            shown = (f"keypad {card.id}: {', '.join(col.inputs) or 'no inputs'}, {col.dice} keypad "
                     f"{'die' if col.dice == 1 else 'dice'}")
        else:
            shown = "draw a keypad card"
        out.append(LegalAction(Keypad(bot=bot.id, beyond=beyond, approach="inputs"),
                               f"{shown}; keypad die rolls; inputs paid from reserves or by jumping the tracker",
                               choose=["pay"], options={"pay": list(PAY_SOURCES)}))
        if col is None or not col.jam:
            need = brute_force_durability(resolution, door)
            jam = "" if col is not None else " unless the card drawn is Jammed"
            out.append(LegalAction(Keypad(bot=bot.id, beyond=beyond, approach="brute_force"),
                                   f"durability {need}{jam}; {dice_label(force_dice)}", choose=["dice"],
                                   dice=force_dice, target_ap=need))
        if bot.keys > 0:
            out.append(LegalAction(Keypad(bot=bot.id, beyond=beyond, approach="key"), "1 key", cost=Cost(keys=1)))
        out.append(LegalAction(Keypad(bot=bot.id, beyond=beyond, approach="abort"), "keypad die rolls"))
    return out
