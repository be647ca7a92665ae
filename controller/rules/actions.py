"""Player actions: their serializable form, `apply_action`, and the list of what is legal right now.

`apply_action(state, action, dice) -> (state, events)` is the one entry point for everything the players
do; the corporation's turn is an action too (`CorporationTurn`), so a whole game is a start state plus a
list of actions and rolls. An illegal action raises IllegalAction with the rule that forbids it, and the
state passed in is never changed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import msgspec

from controller.rules.action_types import (
    ACTION_VERSION,
    Action,
    Alter,
    AnyAction,
    BeginActions,
    BuyDiceUpgrade,
    BuyUpgrade,
    CorporationTurn,
    Correct,
    Degrade,
    Discard,
    DrawChip,
    EndMove,
    EndTurn,
    Escape,
    Hop,
    InstallMod,
    JoanStun,
    JoanSurveil,
    Keypad,
    Move,
    NetworkCardAction,
    NetworkStep,
    Pass,
    Push,
    Reboot,
    Repair,
    Step,
    Strike,
    StrikeWall,
    Swap,
    Terminal,
    Trade,
    UnlockSlot,
    UseEquipment,
)
from controller.rules.cards import equipment, imperatives, inventory, network_cards
from controller.rules.characters import memory_drone
from controller.rules.corporation.threat_effects import apply_effect
from controller.rules.corporation.turn import corporation_turn
from controller.rules.corrections import apply_correction
from controller.rules.dice import Dice, SeededDice
from controller.rules.errors import IllegalAction
from controller.rules.events import Event, StepStarted
from controller.rules.legal import Cost, DieChoice, LegalAction
from controller.rules.missions import cyberspace, floor_change, objectives, special_rules
from controller.rules.players import burncycle, dice_upgrades, moves, network_moves, strikes, upgrades
from controller.rules.players import keypads as keypad
from controller.rules.players import steps as turn
from controller.rules.players import terminals as terminal
from controller.rules.players.burncycle import MAX_SLOTS
from controller.rules.resolution import Resolution
from controller.rules.state import Bot, GameState
from controller.rules.targets import aimed_at

# the action types and the listing's types are part of this module's interface (callers import them from here)
__all__ = [
    "Action", "AnyAction", "Alter", "BeginActions", "BuyDiceUpgrade", "BuyUpgrade", "CorporationTurn", "Degrade",
    "Discard", "DrawChip", "EndMove", "EndTurn", "Escape", "Hop", "InstallMod", "JoanStun", "JoanSurveil", "Keypad",
    "Move", "NetworkCardAction", "NetworkStep", "Pass", "Push", "Reboot", "Repair", "Step", "Strike", "StrikeWall",
    "Swap", "Terminal", "Trade", "UnlockSlot", "UseEquipment", "Cost", "DieChoice", "LegalAction", "STEPS",
    "STEP_NAMES", "apply_action", "decode_action", "encode_action", "legal_actions", "ACTION_VERSION", "Correct",
]

_action_decoder = msgspec.json.Decoder(AnyAction)
_action_encoder = msgspec.json.Encoder()


def decode_action(data: bytes | str) -> Action:
    return _action_decoder.decode(data)


def encode_action(action: Action) -> bytes:
    return _action_encoder.encode(action)


# which step each action belongs to ("free" actions may come at any point of the turn but mid-action)
STEPS: dict[type[Action], tuple[str, ...]] = {
    BeginActions: ("route",), BuyUpgrade: ("route", "end"), UnlockSlot: ("route",), Reboot: ("route",),
    Alter: ("route", "actions", "end"), Move: ("actions",), Step: ("actions",), EndMove: ("actions",),
    Swap: ("actions",), Push: ("actions",), Trade: ("route", "actions", "end"),
    Strike: ("actions",), StrikeWall: ("actions",), Repair: ("actions",), Pass: ("actions",),
    NetworkCardAction: ("actions",), DrawChip: ("actions",), Escape: ("actions",),
    BuyDiceUpgrade: ("route", "end"), JoanSurveil: ("actions",), JoanStun: ("actions",),
    Hop: ("actions",),
    NetworkStep: ("network",), Degrade: ("end",), EndTurn: ("end",), CorporationTurn: ("corporation",),
    Keypad: ("actions",), Terminal: ("actions",),
    UseEquipment: ("route", "actions", "end"), InstallMod: ("route", "actions", "end"),
    Discard: ("route", "actions", "end"),
}
STEP_NAMES = {"route": "power routing (step 1)", "actions": "the action step (step 3)",
              "network": "the network step (step 4)", "end": "the end of the turn (step 5)",
              "corporation": "the corporation's turn"}


def apply(state: GameState, action: Action, dice: Dice | None = None) -> tuple[GameState, list[Event]]:
    """The engine's front door: apply any action, the corporation's turn included, for whoever is to act
    now (an action out of turn or out of its step raises IllegalAction quoting the rule), with `dice` (the
    game's own seeded dice, continuing its roll count, when None). The state given is never changed."""
    return apply_action(state, action, dice)


def apply_action(state: GameState, action: Action, dice: Dice | None = None, *,
                 in_place: bool = False) -> tuple[GameState, list[Event]]:
    """Apply one action; the state passed in is left unchanged, unless `in_place` (self-play, which hands its
    state over and only plays listed actions, saves the copy: there an illegal action may leave it half-done)."""
    if state.outcome is not None:
        raise IllegalAction(f"the game is over ({state.outcome})")
    if isinstance(action, Correct):  # the players' word on where a unit stands, at any step
        return apply_correction(state, action.unit, action.space, action.facing)
    if isinstance(action, CorporationTurn):
        if state.turn.step != "corporation":
            raise IllegalAction(f"it is {STEP_NAMES[state.turn.step]}: the corporation turn follows the player "
                                f"with the corporation marker chip")
        # one set of dice for the corporation's phase and the work after it (the next player's start of turn
        # may shut an agent down and spawn a guard), so every draw comes from the caller and is counted
        dice = dice if dice is not None else SeededDice(state.seed, state.rolls)
        new, events = corporation_turn(state, dice)
        table = Resolution(new, dice, apply_effect, copy=False)
        if not table.over:
            imperatives.check_imperatives(table)
        if not table.over:
            turn.after_corporation(table)
        counted = dice.game_rolls(state.seed)
        if counted is not None:
            table.state.rolls = counted
        return table.state, events + table.events
    dice = dice if dice is not None else SeededDice(state.seed, state.rolls)
    table = Resolution(state, dice, apply_effect, copy=not in_place)
    ending = turn.active_agent(state).id if isinstance(action, EndTurn) else None
    _dispatch(table, action)
    imperatives.check_imperatives(table, struck=_striker(table, action), end_of_turn=ending)
    objectives.check_mission(table, end_of_turn=isinstance(action, EndTurn))
    counted = dice.game_rolls(state.seed)
    if counted is not None:
        table.state.rolls = counted
    return table.state, table.events


def _striker(table: Resolution, action: Action) -> str | None:
    """The agent that struck a security unit in this action (for imperatives that striking fails)."""
    if isinstance(action, Strike):
        bot = next((b for b in table.state.bots if b.id == action.bot), None)
        return bot.id if bot is not None and bot.kind == "agent" else None
    return None


def _dispatch(table: Resolution, action: Action) -> None:
    """Check the action's step and the move under way, then play it by its row of `_PLAYS`."""
    t = table.state.turn
    allowed = STEPS[type(action)]
    if t.step not in allowed:
        raise IllegalAction(f"it is {STEP_NAMES[t.step]}: {action.__struct_config__.tag} belongs to "
                            f"{' or '.join(STEP_NAMES[s] for s in allowed)}")
    pending = t.pending is not None
    if pending and not isinstance(action, _MOVE_PARTS):
        raise IllegalAction("a move action is under way: spend its AP with steps or end it first (free actions "
                            "cannot interrupt movement within an ongoing move action)")
    if not pending and isinstance(action, _MOVE_PARTS):
        raise IllegalAction("no move action is under way: roll a move action first")
    play = _PLAYS[type(action)]
    play.does(table, action, turn.active_agent(table.state))
    if play.acts:
        t.acted = True
    if play.then is not None:
        play.then(table)


_A = TypeVar("_A", bound=Action)

# the parts of a move action under way: nothing else may come between its steps
_MOVE_PARTS = (Step, Swap, Push, EndMove)


@dataclass(frozen=True)
class _Play:
    """How one kind of action is played: `does` resolves it (the table, the action, the active agent); `acts`
    marks the turn as having taken an action (a reboot must come before any); `then` is what follows it on the
    burncycle (on to the next chip, or only once the move's AP is spent)."""

    does: Callable[[Resolution, Any, Bot], None]
    acts: bool = False
    then: Callable[[Resolution], None] | None = None


def _finish_when_spent(table: Resolution) -> None:
    """A move action ends on its own once its last AP is spent."""
    if table.state.turn.pending is not None and moves.ap_left(table) == 0:
        turn.finish_action(table)


def _finish_unless_over(table: Resolution) -> None:
    if not table.over:
        turn.finish_action(table)


def _extra_action_when_optimized(table: Resolution) -> None:
    """"Optimized: In addition to drawing the card, the player may immediately take an extra unoptimized action
    without moving the burncycle tracker." (drawing never moves the tracker, so the chip is still the one used)"""
    if moves.current_chip_kind(table) == "tech":
        table.state.turn.extra_action = True
    else:
        turn.finish_action(table)


def _reboot(table: Resolution, action: Reboot, agent: Bot) -> None:
    if table.state.turn.acted:
        raise IllegalAction("rebooting is declared before a player's turn, not after an action")
    burncycle.reboot(table)


def _step(table: Resolution, action: Step, agent: Bot) -> None:
    if action.bot != memory_drone.JOAN:
        moves.step(table, action.bot, action.to, action.take_cache, action.chip, action.reassemble,
                   list(action.discard))
    elif action.take_cache:
        raise IllegalAction("Joan is not a bot: she picks up no cache")
    else:
        memory_drone.step_joan(table, action.to)


def _install_mod(table: Resolution, action: InstallMod, agent: Bot) -> None:
    installer = next((b for b in table.state.bots if b.id == action.bot), None)
    if installer is None or installer.shut_down:
        raise IllegalAction(f"{action.bot} is not a bot that can act (shut down or unknown)")
    inventory.install_mod(table, installer, action.card)


def _discard(table: Resolution, action: Discard, agent: Bot) -> None:
    bot = _own_bot(table, action.bot)
    if bot.imperative is not None and bot.imperative.id == action.card:
        imperatives.discard_imperative(table, bot)
    else:
        inventory.discard_card(table, bot, action.card, "discarded")


def _repair(table: Resolution, action: Repair, agent: Bot) -> None:
    """"General actions cannot be optimized. The primary general action is Repair"."""
    actor = _own_bot(table, action.bot)
    target = next((b for b in table.state.bots if b.id == action.target), None)
    if target is None:
        raise IllegalAction(f"there is no bot {action.target}")
    upgrades.repair(table, actor, target, action.amount)


def _escape(table: Resolution, action: Escape, agent: Bot) -> None:
    leaving = next((b for b in moves.movers(table) if b.id == action.bot), None)
    if leaving is None:
        raise IllegalAction(f"{action.bot} cannot act now: the player's agent or the command module escapes")
    floor_change.escape(table, leaving)


def _network_step(table: Resolution, action: NetworkStep, agent: Bot) -> None:
    network_moves.move_ip(table, agent.id, {k - 1: v for k, v in action.transfers.items()},
                          None if action.asterisk is None else action.asterisk - 1)
    network_cards.resolve_network_cards(table, agent, list(action.risky))
    table.state.turn.step = "end"
    table.emit(StepStarted(step="end"))


def _end_turn(table: Resolution, action: EndTurn, agent: Bot) -> None:
    t = table.state.turn
    if not t.degraded:
        _degrade(table, action.choose)
    elif action.choose is not None:
        raise IllegalAction("the burncycle has already degraded this turn: the burncycle die is rolled once, "
                            "at the end of every turn")
    t.degraded = False
    network_cards.discard_hand(table, agent)
    upgrades.spend_down(table, agent)
    special_rules.end_of_agent_turn(table)
    if floor_change.ready_to_advance(table):
        floor_change.change_floor(table, agent)
    else:
        turn.next_player(table)


def _play(kind: type[_A], does: Callable[[Resolution, _A, Bot], None], *, acts: bool = False,
          then: Callable[[Resolution], None] | None = None) -> tuple[type[Action], _Play]:
    """One row of `_PLAYS`; typed by the action's kind, so mypy checks each `does` reads fields its action has."""
    return kind, _Play(does, acts, then)


_finish = turn.finish_action

# every player's action (the corporation's turn is resolved by apply_action itself), keyed like STEPS
_PLAYS: dict[type[Action], _Play] = dict([
    _play(BeginActions, lambda table, a, agent: turn.enter_actions(table)),
    _play(BuyUpgrade, lambda table, a, agent: upgrades.buy_upgrade(table, _own_bot(table, a.bot), a.upgrade)),
    _play(BuyDiceUpgrade, lambda table, a, agent: dice_upgrades.buy_dice_upgrade(table, _own_bot(table, a.bot))),
    _play(UnlockSlot, lambda table, a, agent: burncycle.unlock_slot(table, a.payers, agent)),
    _play(Reboot, _reboot),
    _play(Alter, lambda table, a, agent: burncycle.alter(table, agent, a.slot - 1, a.chip, a.source)),
    _play(Move, lambda table, a, agent: moves.start_move(table, a.dice), acts=True, then=_finish_when_spent),
    _play(Step, _step, then=_finish_when_spent),
    _play(Swap, lambda table, a, agent: moves.swap(table, a.bot, a.other), then=_finish_when_spent),
    _play(Push, lambda table, a, agent: moves.push(table, a.bot, a.unit, a.to), then=_finish_when_spent),
    _play(EndMove, lambda table, a, agent: _finish(table)),
    _play(Trade, lambda table, a, agent: moves.trade(table, _own_bot(table, a.bot).id, a.to, a.keys,
                                                     list(a.cards), list(a.discard))),
    _play(UseEquipment, lambda table, a, agent: equipment.use_equipment(table, _own_bot(table, a.bot), a.card,
                                                                        a.unit, a.beyond, list(a.path))),
    _play(InstallMod, _install_mod),
    _play(Discard, _discard),
    _play(Strike, lambda table, a, agent: strikes.strike_unit(table, a.bot, a.unit, a.dice, a.stun_only,
                                                              a.disguise), acts=True, then=_finish),
    _play(StrikeWall, lambda table, a, agent: strikes.strike_wall(table, a.bot, a.beyond, a.dice, a.move_through,
                                                                  a.side), acts=True, then=_finish),
    _play(Keypad, lambda table, a, agent: keypad.keypad(table, a.bot, a.beyond, a.approach, a.dice, a.ignore,
                                                        list(a.pay), a.move_through), acts=True, then=_finish),
    _play(Terminal, lambda table, a, agent: terminal.terminal(table, a.bot, list(a.options), a.dice,
                                                              list(a.doors), a.chip, list(a.discard)),
          acts=True, then=_finish),
    _play(Repair, _repair, acts=True, then=_finish),
    _play(NetworkCardAction, lambda table, a, agent: network_cards.draw_network_card(table, agent, a.discard),
          acts=True, then=_extra_action_when_optimized),
    _play(DrawChip, lambda table, a, agent: special_rules.chip_for_threat(table, agent, a.chip), acts=True,
          then=_finish),
    _play(Escape, _escape, acts=True, then=_finish_unless_over),
    _play(JoanSurveil, lambda table, a, agent: memory_drone.joan_surveils(table), acts=True, then=_finish),
    _play(JoanStun, lambda table, a, agent: memory_drone.joan_stuns(table, a.unit), acts=True, then=_finish),
    _play(Hop, lambda table, a, agent: cyberspace.hop(table, a.bot, list(a.path)), acts=True, then=_finish),
    _play(Pass, lambda table, a, agent: _finish(table)),
    _play(NetworkStep, _network_step),
    _play(Degrade, lambda table, a, agent: _degrade(table, a.choose)),
    _play(EndTurn, _end_turn),
])


def _degrade(table: Resolution, choose: int | None) -> None:
    """"At the end of every turn, roll the burncycle die to degrade a slot", once."""
    t = table.state.turn
    if t.degraded:
        raise IllegalAction("the burncycle has already degraded this turn: the burncycle die is rolled once, at "
                            "the end of every turn")
    if choose is not None and not 1 <= choose <= MAX_SLOTS:
        raise IllegalAction(f"the burncycle has slots 1 to {MAX_SLOTS}")
    if choose is not None and not turn.usable(table.state, choose - 1):
        raise IllegalAction(f"slot {choose} holds no chip that can degrade: the chooser face picks an active, "
                            f"undegraded chip")
    turn.degrade(table, None if choose is None else choose - 1)
    t.degraded = True


def _own_bot(table: Resolution, bot_id: str) -> Bot:
    """The active player's agent or the command module (the bots a player directs on their turn)."""
    agent = turn.active_agent(table.state)
    bot = next((b for b in table.state.bots if b.id == bot_id), None)
    if bot is None or (bot is not agent and bot.kind != "module"):
        raise IllegalAction(f"{bot_id} is not the active player's agent or the command module")
    if bot.shut_down:
        raise IllegalAction(f"{bot.name} is shut down: it cannot act until repaired")
    return bot


def legal_actions(state: GameState) -> list[LegalAction]:
    """Every legal action of the active player now, composed from each rule module's own `legal_*` check (beside
    the code that applies the action), in a stable order; `apply_action` refuses what is not listed. Each names
    the space it aims at (`at`), for a board that acts on a tap."""
    out = _listing(state)
    for legal in out:
        legal.at = aimed_at(state, legal.action)
    return out


def _listing(state: GameState) -> list[LegalAction]:
    if state.outcome is not None:
        return []
    t = state.turn
    if t.step == "corporation":
        return [LegalAction(CorporationTurn(), "ping-die rolls")]
    table = Resolution(state, SeededDice(0), apply_effect, copy=False)
    agent = turn.active_agent(state)
    if t.pending is not None:
        return moves.legal_steps(table) + memory_drone.legal_joan_steps(table) + turn.legal_end_move()
    modules = [b for b in state.bots if b.kind == "module"]
    out: list[LegalAction] = []
    if t.step == "route":
        out += turn.legal_begin() + upgrades.legal_upgrades([agent, *modules]) + dice_upgrades.legal_dice_upgrade(agent)
        out += burncycle.legal_reboot(state) + burncycle.legal_unlock(state, agent)
    if t.step in ("route", "actions", "end"):
        out += burncycle.legal_alters(state, agent) + moves.legal_trades(table)
        out += equipment.legal_equipment(table, agent, t.step) + inventory.legal_cards(state, agent)
        out += imperatives.legal_imperative_discard(agent)
    if t.step == "actions":
        out += moves.legal_move(table)
        for bot in moves.movers(table):
            out += strikes.legal_strikes(table, bot) + keypad.legal_keypads(table, bot)
            out += terminal.legal_terminals(table, bot) + upgrades.legal_repairs(state.bots, bot)
        out += network_cards.legal_network_card(state, agent, moves.current_chip_kind(table) == "tech")
        out += floor_change.legal_escapes(table, moves.movers(table)) + memory_drone.legal_joan_abilities(table)
        out += cyberspace.legal_hops(table) + special_rules.legal_chip_for_threat(table, agent) + turn.legal_pass()
    if t.step == "network":
        out += network_moves.legal_network_step(table, agent)
    if t.step == "end":
        out += turn.legal_end(state) + upgrades.legal_upgrades([agent]) + dice_upgrades.legal_dice_upgrade(agent)
    return out
