"""The terminal action ("Terminal Actions", "Mainframe Terminals").

"A bot occupying a terminal chip may take a terminal action. The player reveals the top card of the terminal
deck, which presents 3 distinct options, each detailing an AP requirement and an effect: Select an option
before rolling dice, then roll an AP check. Meeting or exceeding the requirement resolves the chosen effect.
The terminal card and the floor chip are discarded regardless of success."

The options are named in the action (1-3 as printed), so they are chosen before the dice are rolled and
">> Selected options cannot be altered after the roll" holds by construction.
"""

from __future__ import annotations

from itertools import combinations

from controller.rules.action_types import Terminal
from controller.rules.cards.effects import apply_card_effect
from controller.rules.cards.inventory import draw_mod
from controller.rules.cards.mods import mod_bonus
from controller.rules.dice import SeededDice
from controller.rules.errors import DiceWanted, IllegalAction
from controller.rules.events import TerminalAccessed, TerminalChanged
from controller.rules.legal import LegalAction, dice_label, pool_choices
from controller.rules.missions import special_rules
from controller.rules.players.ap import check_ap, check_dice, check_purpose, roll_ap
from controller.rules.players.moves import current_chip_kind, movers, unlock_door
from controller.rules.resolution import Resolution
from controller.rules.state import TERMINAL_OPTIONS, Bot, DicePool, GameState, TerminalCard, TerminalEffect

OPTIMIZED_OPTIONS = 2  # "Optimized: The player may select up to 2 options prior to rolling."


def check_terminal(resolution: Resolution, bot_id: str, options: list[int]) -> tuple[Bot, str, bool]:
    """The acting bot, its terminal space and whether the action is optimized."""
    bot = next((b for b in movers(resolution) if b.id == bot_id), None)
    if bot is None:
        raise IllegalAction(f"{bot_id} cannot take a terminal action now: the player's agent or the command "
                            f"module takes the actions of the turn")
    space = bot.space
    if space not in resolution.state.floor.terminals:
        raise IllegalAction(f"{bot.name} is not on a terminal chip: a bot occupying a terminal chip may take a "
                            f"terminal action")
    # "Tech actions include terminal actions and network card actions. They are optimized by the tech
    # action chip." "Optimized: The player may select up to 2 options prior to rolling."
    optimized = current_chip_kind(resolution) == "tech"
    limit = OPTIMIZED_OPTIONS if optimized else 1
    if not options:
        raise IllegalAction("select an option before rolling dice: a terminal action needs a chosen option")
    if len(options) > limit:
        raise IllegalAction(f"only an optimized terminal action selects up to {OPTIMIZED_OPTIONS} options"
                            if not optimized else
                            f"an optimized terminal action selects up to {OPTIMIZED_OPTIONS} options")
    if len(set(options)) != len(options) or any(not 1 <= k <= TERMINAL_OPTIONS for k in options):
        raise IllegalAction(f"a terminal card presents {TERMINAL_OPTIONS} distinct options (1 to {TERMINAL_OPTIONS}):"
                            f" choose different ones")
    return bot, space, optimized


def draw_card(resolution: Resolution) -> TerminalCard:
    """"The player reveals the top card of the terminal deck\""""
    state = resolution.state
    if not state.terminal_deck and state.terminal_discard:
        state.terminal_deck, state.terminal_discard = state.terminal_discard, []
    if not state.terminal_deck:
        raise IllegalAction("the terminal deck is empty: no terminal card can be revealed")
    k = resolution.dice.draw("terminal deck", [c.id for c in state.terminal_deck])
    return state.terminal_deck.pop(k)


def satisfied(requirements: list[int], ap: int) -> list[int]:
    """Which chosen options (positions in the choice) the rolled AP resolves. "Rolled AP can be distributed
    between both options. If insufficient for both, the player chooses which option to satisfy": the
    option named first is preferred."""
    if sum(requirements) <= ap:
        return list(range(len(requirements)))
    for k, need in enumerate(requirements):
        if need <= ap:
            return [k]
    return []


def terminal(resolution: Resolution, bot_id: str, options: list[int], dice: DicePool | None = None,
             doors: list[str] | None = None, chip: str | None = None, discard: list[str] | None = None) -> None:
    """A terminal action: reveal, check, resolve the options met, discard the card and the chip."""
    bot, space, _ = check_terminal(resolution, bot_id, options)
    state = resolution.state
    check_ap(resolution, dice or DicePool(), f"terminal on {space}")
    # the card and the dice are read one after the other: the players draw and roll them at once
    deck = state.terminal_deck or state.terminal_discard
    if deck:  # (an empty one is refused by the draw)
        resolution.dice.expect([DiceWanted(die="terminal deck", count=1, faces=tuple(c.id for c in deck)),
                                *check_dice(dice or DicePool())], check_purpose(resolution, f"terminal on {space}"))
    card = draw_card(resolution)
    # "Terminals flipped to their mainframe side ... reduce the AP cost of all options on terminal cards to 0
    # AP. Option limits still apply".
    mainframe = state.floor.terminals[space] == "mainframe"
    requirements = [0 if mainframe else card.options[k - 1].ap for k in options]
    # ">> Players may choose to roll 0 dice or decline to apply rolled AP, but the terminal chip is still
    # discarded."
    ap = roll_ap(resolution, dice or DicePool(), mod_bonus(bot, "terminal_ap"), f"terminal {card.id} on {space}")
    met = [options[k] for k in satisfied(requirements, ap)]
    resolution.emit(TerminalAccessed(space=space, card=card.id, bot=bot.id, options=list(options), ap=ap, resolved=met,
                                     mainframe=mainframe))
    # "The terminal card and the floor chip are discarded regardless of success."
    state.terminal_discard.append(card)
    del state.floor.terminals[space]
    resolution.emit(TerminalChanged(space=space, kind="discarded"))
    key = f"terminals:{bot.id}"
    state.progress[key] = state.progress.get(key, 0) + 1
    for k in met:
        if resolution.over:
            return
        apply_terminal_effect(resolution, bot, space, card.options[k - 1].effect, doors or [], discard or [])
    if not resolution.over:
        special_rules.chip_for_access(resolution, bot, chip)


def room_doors(resolution: Resolution, space: str) -> list[str]:
    """Locked doors leading into or out of the area of `space`, in the floor's order."""
    floor = resolution.floor
    members = set(floor.area(floor.index[space]).spaces)
    out = []
    for door in floor.doors:
        a, b = door.split("/")
        if (floor.index[a] in members) != (floor.index[b] in members) and door not in resolution.unlocked:
            out.append(door)
    return out


def apply_terminal_effect(resolution: Resolution, bot: Bot, space: str, effect: TerminalEffect, doors: list[str],
                          discard: list[str]) -> None:
    why = f"terminal on {space}"
    if effect.kind == "unlock_door":
        # ">> Unlocking doors via keys during a move action or through terminal cards is not a keypad action."
        locked = room_doors(resolution, space)
        chosen = [d for d in doors if d in locked] + [d for d in locked if d not in doors]
        for door in chosen[:effect.amount]:
            unlock_door(resolution, door, why)
    elif effect.kind == "mod":
        # Mods: "Obtained from terminals."
        for _ in range(effect.amount):
            draw_mod(resolution, bot, discard)
    else:
        apply_card_effect(resolution, bot, effect.kind, effect.amount, effect.chip,
                          "the terminal" if effect.kind == "clear_awareness" else why)


# -- what is legal now (composed by actions.legal_actions) ---------------------------------------------------

def virtual_card(state: GameState) -> TerminalCard | None:
    """The card a terminal action would reveal with the game's virtual dice (the draw is its first roll), so
    the options are not chosen blind; None when the deck and its discards are empty. With physical dice the
    players see the card they turn over."""
    deck = state.terminal_deck or state.terminal_discard
    if not deck:
        return None
    return deck[SeededDice(state.seed, state.rolls).draw("terminal deck", [c.id for c in deck])]


def legal_terminals(resolution: Resolution, bot: Bot) -> list[LegalAction]:
    """One terminal action per choice of options (up to 2 when optimized), when the bot is on a terminal."""
    state = resolution.state
    turn = state.turn
    if bot.space not in state.floor.terminals or (not state.terminal_deck and not state.terminal_discard):
        return []
    mainframe = state.floor.terminals[bot.space] == "mainframe"
    most = OPTIMIZED_OPTIONS if current_chip_kind(resolution) == "tech" else 1
    choices = [list(c) for n in range(1, most + 1) for c in combinations(range(1, TERMINAL_OPTIONS + 1), n)]
    card = virtual_card(state)
    dice = pool_choices(turn.pool)
    out = []
    for options in choices:
        if card is not None:
            shown = "; ".join(f"{k}) {0 if mainframe else card.options[k - 1].ap} AP: {card.options[k - 1].text}"
                              for k in options)
            seen = f"with the virtual dice the card is {card.id} {card.name}: {shown}"
        else:
            seen = "the option's AP" if not mainframe else ""
        label = "; ".join(p for p in ("0 AP (mainframe)" if mainframe else "", seen, dice_label(dice)) if p)
        out.append(LegalAction(Terminal(bot=bot.id, options=options), label, choose=["dice", "doors"], dice=dice,
                               target_ap=0 if mainframe else None))
    return out
