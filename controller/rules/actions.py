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
        resolution = Resolution(new, dice, apply_effect, copy=False)
        if not resolution.over:
            imperatives.check_imperatives(resolution)
        if not resolution.over:
            turn.after_corporation(resolution)
        counted = dice.game_rolls(state.seed)
        if counted is not None:
            resolution.state.rolls = counted
        return resolution.state, events + resolution.events
    dice = dice if dice is not None else SeededDice(state.seed, state.rolls)
    resolution = Resolution(state, dice, apply_effect, copy=not in_place)
    ending = turn.active_agent(state).id if isinstance(action, EndTurn) else None
    _dispatch(resolution, action)
    imperatives.check_imperatives(resolution, struck=_striker(resolution, action), end_of_turn=ending)
    objectives.check_mission(resolution, end_of_turn=isinstance(action, EndTurn))
    counted = dice.game_rolls(state.seed)
    if counted is not None:
        resolution.state.rolls = counted
    return resolution.state, resolution.events


def _striker(resolution: Resolution, action: Action) -> str | None:
    """The agent that struck a security unit in this action (for imperatives that striking fails)."""
    if isinstance(action, Strike):
        bot = next((b for b in resolution.state.bots if b.id == action.bot), None)
        return bot.id if bot is not None and bot.kind == "agent" else None
    return None


def _dispatch(resolution: Resolution, action: Action) -> None:
    """Check the action's step and the move under way, then play it by its row of `_PLAYS`."""
    t = resolution.state.turn
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
    play.does(resolution, action, turn.active_agent(resolution.state))
    if play.acts:
        t.acted = True
    if play.then is not None:
        play.then(resolution)


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


def _finish_when_spent(resolution: Resolution) -> None:
    """A move action ends on its own once its last AP is spent."""
    if resolution.state.turn.pending is not None and moves.ap_left(resolution) == 0:
        turn.finish_action(resolution)


def _finish_unless_over(resolution: Resolution) -> None:
    if not resolution.over:
        turn.finish_action(resolution)


def _extra_action_when_optimized(resolution: Resolution) -> None:
    """"Optimized: In addition to drawing the card, the player may immediately take an extra unoptimized action
    without moving the burncycle tracker." (drawing never moves the tracker, so the chip is still the one used)"""
    if moves.current_chip_kind(resolution) == "tech":
        resolution.state.turn.extra_action = True
    else:
        turn.finish_action(resolution)


def _reboot(resolution: Resolution, action: Reboot, agent: Bot) -> None:
    if resolution.state.turn.acted:
        raise IllegalAction("rebooting is declared before a player's turn, not after an action")
    burncycle.reboot(resolution)


def _step(resolution: Resolution, action: Step, agent: Bot) -> None:
    if action.bot != memory_drone.JOAN:
        moves.step(resolution, action.bot, action.to, action.take_cache, action.chip, action.reassemble,
                   list(action.discard))
    elif action.take_cache:
        raise IllegalAction("Joan is not a bot: she picks up no cache")
    else:
        memory_drone.step_joan(resolution, action.to)


def _install_mod(resolution: Resolution, action: InstallMod, agent: Bot) -> None:
    installer = next((b for b in resolution.state.bots if b.id == action.bot), None)
    if installer is None or installer.shut_down:
        raise IllegalAction(f"{action.bot} is not a bot that can act (shut down or unknown)")
    inventory.install_mod(resolution, installer, action.card)


def _discard(resolution: Resolution, action: Discard, agent: Bot) -> None:
    bot = _own_bot(resolution, action.bot)
    if bot.imperative is not None and bot.imperative.id == action.card:
        imperatives.discard_imperative(resolution, bot)
    else:
        inventory.discard_card(resolution, bot, action.card, "discarded")


def _repair(resolution: Resolution, action: Repair, agent: Bot) -> None:
    """"General actions cannot be optimized. The primary general action is Repair"."""
    actor = _own_bot(resolution, action.bot)
    target = next((b for b in resolution.state.bots if b.id == action.target), None)
    if target is None:
        raise IllegalAction(f"there is no bot {action.target}")
    upgrades.repair(resolution, actor, target, action.amount)


def _escape(resolution: Resolution, action: Escape, agent: Bot) -> None:
    leaving = next((b for b in moves.movers(resolution) if b.id == action.bot), None)
    if leaving is None:
        raise IllegalAction(f"{action.bot} cannot act now: the player's agent or the command module escapes")
    floor_change.escape(resolution, leaving)


def _network_step(resolution: Resolution, action: NetworkStep, agent: Bot) -> None:
    network_moves.move_ip(resolution, agent.id, {k - 1: v for k, v in action.transfers.items()},
                          None if action.asterisk is None else action.asterisk - 1)
    network_cards.resolve_network_cards(resolution, agent, list(action.risky))
    resolution.state.turn.step = "end"
    resolution.emit(StepStarted(step="end"))


def _end_turn(resolution: Resolution, action: EndTurn, agent: Bot) -> None:
    t = resolution.state.turn
    if not t.degraded:
        _degrade(resolution, action.choose)
    elif action.choose is not None:
        raise IllegalAction("the burncycle has already degraded this turn: the burncycle die is rolled once, "
                            "at the end of every turn")
    t.degraded = False
    network_cards.discard_hand(resolution, agent)
    upgrades.spend_down(resolution, agent)
    special_rules.end_of_agent_turn(resolution)
    if floor_change.ready_to_advance(resolution):
        floor_change.change_floor(resolution, agent)
    else:
        turn.next_player(resolution)


def _play(kind: type[_A], does: Callable[[Resolution, _A, Bot], None], *, acts: bool = False,
          then: Callable[[Resolution], None] | None = None) -> tuple[type[Action], _Play]:
    """One row of `_PLAYS`; typed by the action's kind, so mypy checks each `does` reads fields its action has."""
    return kind, _Play(does, acts, then)


_finish = turn.finish_action

# every player's action (the corporation's turn is resolved by apply_action itself), keyed like STEPS
_PLAYS: dict[type[Action], _Play] = dict([
    _play(BeginActions, lambda resolution, a, agent: turn.enter_actions(resolution)),
    _play(BuyUpgrade, lambda resolution, a, agent: upgrades.buy_upgrade(resolution, _own_bot(resolution, a.bot),
                                                                          a.upgrade)),
    _play(BuyDiceUpgrade, lambda resolution, a, agent: dice_upgrades.buy_dice_upgrade(resolution,
                                                                                       _own_bot(resolution, a.bot))),
    _play(UnlockSlot, lambda resolution, a, agent: burncycle.unlock_slot(resolution, a.payers, agent)),
    _play(Reboot, _reboot),
    _play(Alter, lambda resolution, a, agent: burncycle.alter(resolution, agent, a.slot - 1, a.chip, a.source)),
    _play(Move, lambda resolution, a, agent: moves.start_move(resolution, a.dice), acts=True, then=_finish_when_spent),
    _play(Step, _step, then=_finish_when_spent),
    _play(Swap, lambda resolution, a, agent: moves.swap(resolution, a.bot, a.other), then=_finish_when_spent),
    _play(Push, lambda resolution, a, agent: moves.push(resolution, a.bot, a.unit, a.to), then=_finish_when_spent),
    _play(EndMove, lambda resolution, a, agent: _finish(resolution)),
    _play(Trade, lambda resolution, a, agent: moves.trade(resolution, _own_bot(resolution, a.bot).id, a.to, a.keys,
                                                          list(a.cards), list(a.discard))),
    _play(UseEquipment, lambda resolution, a, agent: equipment.use_equipment(resolution, _own_bot(resolution, a.bot),
                                                                             a.card, a.unit, a.beyond, list(a.path))),
    _play(InstallMod, _install_mod),
    _play(Discard, _discard),
    _play(Strike, lambda resolution, a, agent: strikes.strike_unit(resolution, a.bot, a.unit, a.dice, a.stun_only,
                                                                   a.disguise), acts=True, then=_finish),
    _play(StrikeWall, lambda resolution, a, agent: strikes.strike_wall(resolution, a.bot, a.beyond, a.dice,
                                                                       a.move_through, a.side),
          acts=True, then=_finish),
    _play(Keypad, lambda resolution, a, agent: keypad.keypad(resolution, a.bot, a.beyond, a.approach, a.dice, a.ignore,
                                                             list(a.pay), a.move_through), acts=True, then=_finish),
    _play(Terminal, lambda resolution, a, agent: terminal.terminal(resolution, a.bot, list(a.options), a.dice,
                                                                   list(a.doors), a.chip, list(a.discard)),
          acts=True, then=_finish),
    _play(Repair, _repair, acts=True, then=_finish),
    _play(NetworkCardAction, lambda resolution, a, agent: network_cards.draw_network_card(resolution, agent, a.discard),
          acts=True, then=_extra_action_when_optimized),
    _play(DrawChip, lambda resolution, a, agent: special_rules.chip_for_threat(resolution, agent, a.chip), acts=True,
          then=_finish),
    _play(Escape, _escape, acts=True, then=_finish_unless_over),
    _play(JoanSurveil, lambda resolution, a, agent: memory_drone.joan_surveils(resolution), acts=True, then=_finish),
    _play(JoanStun, lambda resolution, a, agent: memory_drone.joan_stuns(resolution, a.unit), acts=True, then=_finish),
    _play(Hop, lambda resolution, a, agent: cyberspace.hop(resolution, a.bot, list(a.path)), acts=True, then=_finish),
    _play(Pass, lambda resolution, a, agent: _finish(resolution)),
    _play(NetworkStep, _network_step),
    _play(Degrade, lambda resolution, a, agent: _degrade(resolution, a.choose)),
    _play(EndTurn, _end_turn),
])


def _degrade(resolution: Resolution, choose: int | None) -> None:
    """"At the end of every turn, roll the burncycle die to degrade a slot", once."""
    t = resolution.state.turn
    if t.degraded:
        raise IllegalAction("the burncycle has already degraded this turn: the burncycle die is rolled once, at "
                            "the end of every turn")
    if choose is not None and not 1 <= choose <= MAX_SLOTS:
        raise IllegalAction(f"the burncycle has slots 1 to {MAX_SLOTS}")
    if choose is not None and not turn.usable(resolution.state, choose - 1):
        raise IllegalAction(f"slot {choose} holds no chip that can degrade: the chooser face picks an active, "
                            f"undegraded chip")
    turn.degrade(resolution, None if choose is None else choose - 1)
    t.degraded = True


def _own_bot(resolution: Resolution, bot_id: str) -> Bot:
    """The active player's agent or the command module (the bots a player directs on their turn)."""
    agent = turn.active_agent(resolution.state)
    bot = next((b for b in resolution.state.bots if b.id == bot_id), None)
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
    resolution = Resolution(state, SeededDice(0), apply_effect, copy=False)
    agent = turn.active_agent(state)
    if t.pending is not None:
        return moves.legal_steps(resolution) + memory_drone.legal_joan_steps(resolution) + turn.legal_end_move()
    modules = [b for b in state.bots if b.kind == "module"]
    out: list[LegalAction] = []
    if t.step == "route":
        out += turn.legal_begin() + upgrades.legal_upgrades([agent, *modules]) + dice_upgrades.legal_dice_upgrade(agent)
        out += burncycle.legal_reboot(state) + burncycle.legal_unlock(state, agent)
    if t.step in ("route", "actions", "end"):
        out += burncycle.legal_alters(state, agent) + moves.legal_trades(resolution)
        out += equipment.legal_equipment(resolution, agent, t.step) + inventory.legal_cards(state, agent)
        out += imperatives.legal_imperative_discard(agent)
    if t.step == "actions":
        out += moves.legal_move(resolution)
        for bot in moves.movers(resolution):
            out += strikes.legal_strikes(resolution, bot) + keypad.legal_keypads(resolution, bot)
            out += terminal.legal_terminals(resolution, bot) + upgrades.legal_repairs(state.bots, bot)
        out += network_cards.legal_network_card(state, agent, moves.current_chip_kind(resolution) == "tech")
        out += floor_change.legal_escapes(resolution, moves.movers(resolution))
        out += memory_drone.legal_joan_abilities(resolution) + cyberspace.legal_hops(resolution)
        out += special_rules.legal_chip_for_threat(resolution, agent) + turn.legal_pass()
    if t.step == "network":
        out += network_moves.legal_network_step(resolution, agent)
    if t.step == "end":
        out += turn.legal_end(state) + upgrades.legal_upgrades([agent]) + dice_upgrades.legal_dice_upgrade(agent)
    return out
