"""Player actions: their serializable form, `apply_action`, and the list of what is legal right now.

`apply_action(state, action, dice) -> (state, events)` is the one entry point for everything the players
do; the corporation's turn is an action too (`CorporationTurn`), so a whole game is a start state plus a
list of actions and rolls. An illegal action raises IllegalAction with the rule that forbids it, and the
state passed in is never changed.
"""

from __future__ import annotations

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
    state = table.state
    t = state.turn
    allowed = STEPS[type(action)]
    if t.step not in allowed:
        raise IllegalAction(f"it is {STEP_NAMES[t.step]}: {action.__struct_config__.tag} belongs to "
                            f"{' or '.join(STEP_NAMES[s] for s in allowed)}")
    pending = t.pending is not None
    if pending and not isinstance(action, (Step, Swap, Push, EndMove)):
        raise IllegalAction("a move action is under way: spend its AP with steps or end it first (free actions "
                            "cannot interrupt movement within an ongoing move action)")
    if not pending and isinstance(action, (Step, Swap, Push, EndMove)):
        raise IllegalAction("no move action is under way: roll a move action first")
    agent = turn.active_agent(state)

    if isinstance(action, BeginActions):
        turn.enter_actions(table)
    elif isinstance(action, BuyUpgrade):
        bot = _own_bot(table, action.bot)
        upgrades.buy_upgrade(table, bot, action.upgrade)
    elif isinstance(action, BuyDiceUpgrade):
        dice_upgrades.buy_dice_upgrade(table, _own_bot(table, action.bot))
    elif isinstance(action, UnlockSlot):
        burncycle.unlock_slot(table, action.payers, agent)
    elif isinstance(action, Reboot):
        if t.acted:
            raise IllegalAction("rebooting is declared before a player's turn, not after an action")
        burncycle.reboot(table)
    elif isinstance(action, Alter):
        burncycle.alter(table, agent, action.slot - 1, action.chip, action.source)
    elif isinstance(action, Move):
        moves.start_move(table, action.dice)
        t.acted = True
        if t.pending is not None and moves.ap_left(table) == 0:
            turn.finish_action(table)
    elif isinstance(action, Step):
        if action.bot == memory_drone.JOAN:
            if action.take_cache:
                raise IllegalAction("Joan is not a bot: she picks up no cache")
            memory_drone.step_joan(table, action.to)
        else:
            moves.step(table, action.bot, action.to, action.take_cache, action.chip, action.reassemble,
                       list(action.discard))
        if t.pending is not None and moves.ap_left(table) == 0:
            turn.finish_action(table)
    elif isinstance(action, (Swap, Push)):
        if isinstance(action, Swap):
            moves.swap(table, action.bot, action.other)
        else:
            moves.push(table, action.bot, action.unit, action.to)
        if t.pending is not None and moves.ap_left(table) == 0:
            turn.finish_action(table)
    elif isinstance(action, Trade):
        giver = _own_bot(table, action.bot)
        moves.trade(table, giver.id, action.to, action.keys, list(action.cards), list(action.discard))
    elif isinstance(action, UseEquipment):
        equipment.use_equipment(table, _own_bot(table, action.bot), action.card, action.unit, action.beyond,
                                list(action.path))
    elif isinstance(action, InstallMod):
        installer = next((b for b in state.bots if b.id == action.bot), None)
        if installer is None or installer.shut_down:
            raise IllegalAction(f"{action.bot} is not a bot that can act (shut down or unknown)")
        inventory.install_mod(table, installer, action.card)
    elif isinstance(action, Discard):
        bot = _own_bot(table, action.bot)
        if bot.imperative is not None and bot.imperative.id == action.card:
            imperatives.discard_imperative(table, bot)
        else:
            inventory.discard_card(table, bot, action.card, "discarded")
    elif isinstance(action, EndMove):
        turn.finish_action(table)
    elif isinstance(action, Strike):
        strikes.strike_unit(table, action.bot, action.unit, action.dice, action.stun_only, action.disguise)
        t.acted = True
        turn.finish_action(table)
    elif isinstance(action, StrikeWall):
        strikes.strike_wall(table, action.bot, action.beyond, action.dice, action.move_through, action.side)
        t.acted = True
        turn.finish_action(table)
    elif isinstance(action, Keypad):
        keypad.keypad(table, action.bot, action.beyond, action.approach, action.dice, action.ignore,
                      list(action.pay), action.move_through)
        t.acted = True
        turn.finish_action(table)
    elif isinstance(action, Terminal):
        terminal.terminal(table, action.bot, list(action.options), action.dice, list(action.doors), action.chip,
                          list(action.discard))
        t.acted = True
        turn.finish_action(table)
    elif isinstance(action, Repair):
        # "General actions cannot be optimized. The primary general action is Repair"
        actor = _own_bot(table, action.bot)
        target = next((b for b in state.bots if b.id == action.target), None)
        if target is None:
            raise IllegalAction(f"there is no bot {action.target}")
        upgrades.repair(table, actor, target, action.amount)
        t.acted = True
        turn.finish_action(table)
    elif isinstance(action, NetworkCardAction):
        # "Optimized: In addition to drawing the card, the player may immediately take an extra unoptimized
        # action without moving the burncycle tracker."
        optimized = moves.current_chip_kind(table) == "tech"
        network_cards.draw_network_card(table, agent, action.discard)
        t.acted = True
        if optimized:
            t.extra_action = True
        else:
            turn.finish_action(table)
    elif isinstance(action, DrawChip):
        special_rules.chip_for_threat(table, agent, action.chip)
        t.acted = True
        turn.finish_action(table)
    elif isinstance(action, Escape):
        leaving = next((b for b in moves.movers(table) if b.id == action.bot), None)
        if leaving is None:
            raise IllegalAction(f"{action.bot} cannot act now: the player's agent or the command module escapes")
        floor_change.escape(table, leaving)
        t.acted = True
        if not table.over:
            turn.finish_action(table)
    elif isinstance(action, (JoanSurveil, JoanStun)):
        if isinstance(action, JoanSurveil):
            memory_drone.joan_surveils(table)
        else:
            memory_drone.joan_stuns(table, action.unit)
        t.acted = True
        turn.finish_action(table)
    elif isinstance(action, Hop):
        cyberspace.hop(table, action.bot, list(action.path))
        t.acted = True
        turn.finish_action(table)
    elif isinstance(action, Pass):
        turn.finish_action(table)
    elif isinstance(action, NetworkStep):
        network_moves.move_ip(table, agent.id, {k - 1: v for k, v in action.transfers.items()},
                       None if action.asterisk is None else action.asterisk - 1)
        network_cards.resolve_network_cards(table, agent, list(action.risky))
        t.step = "end"
        table.emit(StepStarted(step="end"))
    elif isinstance(action, Degrade):
        _degrade(table, action.choose)
    elif isinstance(action, EndTurn):
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
