"""Player actions: their serializable form, `apply_action`, and the list of what is legal right now.

`apply_action(state, action, dice) -> (state, events)` is the one entry point for everything the players
do; the corporation's turn is an action too (`CorporationTurn`), so a whole game is a start state plus a
list of actions and rolls. An illegal action raises IllegalAction with the rule that forbids it, and the
state passed in is never changed.
"""

from __future__ import annotations

from contextlib import suppress
from typing import Literal

import msgspec
from msgspec import Struct

from controller.rules.characters import memory_drone, proprietary_dice
from controller.rules.players import burncycle, dice_upgrades, keypads as keypad, moves, network_moves, steps as turn, strikes, terminals as terminal, upgrades
from controller.rules.missions import cyberspace, floor_change, objectives, special_rules
from controller.rules.cards import equipment, imperatives, inventory, network_cards
from controller.rules.corporation.turn import corporation_turn
from controller.rules.dice import Dice, SeededDice
from controller.rules.corporation.threat_effects import apply_effect
from controller.rules.errors import IllegalAction
from controller.rules.events import Event, StepStarted
from controller.rules.board.geometry import DIRECTIONS, MAX_DESTROYED_WALLS, edge_id, exterior_wall_id
from controller.rules.state import Bot, DicePool, Direction, EquipmentCard, GameState, SecurityUnit
from controller.rules.characters.interface import INTERFACE
from controller.rules.table import MEMORY, Table


class Action(Struct, tag_field="action", forbid_unknown_fields=True):
    """A player action; its JSON form names it in the "action" field."""


class BeginActions(Action, tag="begin_actions"):
    """End power routing (step 1), build the dice pool (step 2) and start along the burncycle (step 3)."""


class BuyUpgrade(Action, tag="buy_upgrade"):
    bot: str
    upgrade: Literal["swap", "push", "repair"]


class BuyDiceUpgrade(Action, tag="buy_dice_upgrade"):
    """Activate the next upgrade of the agent card's track: its power cost buys one more advanced or elite
    die for the dice pool of every later turn."""

    bot: str


class UnlockSlot(Action, tag="unlock_slot"):
    payers: dict[str, int]


class Reboot(Action, tag="reboot"):
    """"Rebooting can be declared before any player's turn (not before the corporation's turn)"."""


class Alter(Action, tag="alter"):
    slot: int  # 1-5, as printed
    chip: Literal["general", "physical", "tech", "utility"]
    source: str = "team"  # "team" or the active agent's id


class Move(Action, tag="move"):
    dice: DicePool = msgspec.field(default_factory=DicePool)


class Step(Action, tag="step"):
    bot: str  # a bot's id, or "joan" for Memory's drone
    to: str
    take_cache: bool = False
    chip: Literal["physical", "tech", "utility", "general"] | None = None  # a mission's chip for a cache
    reassemble: bool = False  # Nano: through a locked door, discarding keys, equipment and mods
    discard: list[str] = []  # cards to let go if the cache's card takes the inventory over 2


class Swap(Action, tag="swap"):
    """Within a move action: swap places with an adjacent bot (the swap upgrade), 1 AP."""

    bot: str
    other: str


class Push(Action, tag="push"):
    """Within a move action: shove an adjacent security unit to `to` and enter its space (the push
    upgrade), 2 AP (1 on missions where push needs no additional AP)."""

    bot: str
    unit: str
    to: str


class Trade(Action, tag="trade"):
    """Free action: hand keys, equipment cards and uninstalled mods (by card id) to an adjacent bot; `discard`
    names the cards either bot lets go when it ends up over 2."""

    bot: str
    to: str
    keys: int = 0
    cards: list[str] = []
    discard: list[str] = []


class UseEquipment(Action, tag="use_equipment"):
    """Free action: the active agent uses an equipment card it holds (`unit` for a stun, `beyond` for a door,
    `path` for a bonus move)."""

    bot: str
    card: str
    unit: str | None = None
    beyond: str | None = None
    path: list[str] = []


class InstallMod(Action, tag="install_mod"):
    """"At any time, an agent can install a mod upright to gain its permanent ongoing benefit.\""""

    bot: str
    card: str


class Discard(Action, tag="discard"):
    """Free action: discard equipment, a mod (an uninstalled one awards its printed power) or an imperative
    (costs 1 power)."""

    bot: str
    card: str


class EndMove(Action, tag="end_move"):
    """Stop spending this move action's AP ("Players may choose to utilize less AP than rolled")."""


class Strike(Action, tag="strike"):
    bot: str
    unit: str
    dice: DicePool = msgspec.field(default_factory=DicePool)
    stun_only: bool = False
    disguise: bool = False  # Interface: take the guard's chip as a disguise if the strike shuts it down


class StrikeWall(Action, tag="strike_wall"):
    """Strike the wall between `bot` and the space `beyond` it, or the wall on the `side` (N, E, S, W) of the
    bot's space: an exterior wall when no space lies there (">> Exterior walls can be attacked")."""

    bot: str
    beyond: str | None = None  # the space on the other side of the wall
    dice: DicePool = msgspec.field(default_factory=DicePool)
    move_through: bool = True
    side: Direction | None = None


class Repair(Action, tag="repair"):
    bot: str
    target: str
    amount: int = 1


class NetworkCardAction(Action, tag="network_card"):
    """Draw a network card; optimized (tech chip), another unoptimized action follows on the same chip.
    `discard` picks the card to drop when the hand goes over 3 (default: the oldest)."""

    discard: int | None = None


class DrawChip(Action, tag="draw_chip"):
    """TSM-103C's general action: advance threat to draw an action chip of choice into the reserve."""

    chip: Literal["physical", "tech", "utility", "general"] = "physical"


class Escape(Action, tag="escape"):
    """A general action: a bot on an entrance of the last floor leaves the board ("Escape")."""

    bot: str


class JoanSurveil(Action, tag="joan_surveil"):
    """Memory's action: charged Joan surveils the room she is in, then is depleted."""


class JoanStun(Action, tag="joan_stun"):
    """Memory's action: charged Joan stuns a guard adjacent to her, then is depleted."""

    unit: str


class Hop(Action, tag="hop"):
    """Preconnaissance: hop into cyberspace from the terminal space the bot is on, through each terminal space
    of `path` in turn, and jump out on the last (detected, surveilling the room)."""

    bot: str
    path: list[str]


class Pass(Action, tag="pass"):
    """"For every active chip, the player may perform one action or choose to pass.\""""


class NetworkStep(Action, tag="network_step"):
    transfers: dict[int, Literal["in", "out"]] = {}  # movement step (1-based) -> transfer direction
    asterisk: int | None = None  # Nano: the slot (1-5) whose chip counts as general this network step
    risky: list[str] = []  # Nano's Risky Click: network cards (ids) to ignore, drawing a new one for each


class Degrade(Action, tag="degrade"):
    """Step 5 in two parts: roll the burncycle die and degrade now, so that free actions can follow ("at the
    very end after degrading the burncycle") before `EndTurn` passes the turn."""

    choose: int | None = None  # the slot (1-5) to degrade when the burncycle die shows the chooser face


class EndTurn(Action, tag="end_turn"):
    """Degrade the burncycle (unless `Degrade` already has this turn), discard the network hand, spend power
    down to the bank and pass the turn."""

    choose: int | None = None  # the slot (1-5) to degrade when the burncycle die shows the chooser face


class CorporationTurn(Action, tag="corporation_turn"):
    """Resolve the corporation's turn, which follows the player with the corporation marker."""


class Keypad(Action, tag="keypad"):
    """"A bot adjacent to a locked door may attempt to open it with a keypad action": the door between `bot`
    and the space `beyond`, by one approach ("inputs", "brute_force", "key" or "abort")."""

    bot: str
    beyond: str
    approach: Literal["inputs", "brute_force", "key", "abort"] = "inputs"
    dice: DicePool = msgspec.field(default_factory=DicePool)  # brute force: the AP check's dice
    ignore: Literal["physical", "tech", "utility", "alarm", "ping", "shock"] | None = None  # when optimized
    pay: list[Literal["personal", "team", "jump"]] = []  # where chip inputs are paid from, in order
    move_through: bool = True


class Terminal(Action, tag="terminal"):
    """"A bot occupying a terminal chip may take a terminal action": `options` (1-3 as printed, 2 when
    optimized) are chosen before rolling; `doors` picks the doors an unlock effect opens."""

    bot: str
    options: list[int]
    dice: DicePool = msgspec.field(default_factory=DicePool)
    doors: list[str] = []
    chip: Literal["physical", "tech", "utility", "general"] | None = None  # a mission's chip for an access
    discard: list[str] = []  # cards to let go if a mod drawn takes the inventory over 2


AnyAction = (BeginActions | BuyUpgrade | BuyDiceUpgrade | JoanSurveil | JoanStun | UnlockSlot | Reboot | Alter | Move
             | Step | Swap | Push | Trade | EndMove | Strike
             | StrikeWall | Repair | NetworkCardAction | DrawChip | Escape | Hop | Pass | NetworkStep | Degrade
             | EndTurn | UseEquipment | InstallMod | Discard | CorporationTurn | Keypad | Terminal)

_action_decoder = msgspec.json.Decoder(AnyAction)
_action_encoder = msgspec.json.Encoder()


def decode_action(data: bytes | str) -> Action:
    return _action_decoder.decode(data)


def encode_action(action: Action) -> bytes:
    return _action_encoder.encode(action)


# which step each action belongs to ("free" actions may come at any point of the turn but mid-action)
STEPS: dict[type, tuple[str, ...]] = {
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
    if state.turn is None:
        raise IllegalAction("this state has no players' turn (it was written before turns existed)")
    if isinstance(action, CorporationTurn):
        if state.turn.step != "corporation":
            raise IllegalAction(f"it is {STEP_NAMES[state.turn.step]}: the corporation turn follows the player "
                                f"with the corporation marker chip")
        # one set of dice for the corporation's phase and the work after it (the next player's start of turn
        # may shut an agent down and spawn a guard), so every draw comes from the caller and is counted
        dice = dice if dice is not None else SeededDice(state.seed, state.rolls)
        new, events = corporation_turn(state, dice)
        table = Table(new, dice, apply_effect, copy=False)
        if not table.over:
            imperatives.check_imperatives(table)
        if not table.over:
            turn.after_corporation(table)
        counted = dice.game_rolls(state.seed)
        if counted is not None:
            table.state.rolls = counted
        return table.state, events + table.events
    dice = dice if dice is not None else SeededDice(state.seed, state.rolls)
    table = Table(state, dice, apply_effect, copy=not in_place)
    ending = turn.active_agent(state).id if isinstance(action, EndTurn) else None
    _dispatch(table, action)
    imperatives.check_imperatives(table, struck=_striker(table, action), end_of_turn=ending)
    objectives.check_mission(table, end_of_turn=isinstance(action, EndTurn))
    counted = dice.game_rolls(state.seed)
    if counted is not None:
        table.state.rolls = counted
    return table.state, table.events


def _striker(table: Table, action: Action) -> str | None:
    """The agent that struck a security unit in this action (for imperatives that striking fails)."""
    if isinstance(action, Strike):
        bot = next((b for b in table.state.bots if b.id == action.bot), None)
        return bot.id if bot is not None and bot.kind == "agent" else None
    return None


def _dispatch(table: Table, action: Action) -> None:
    state = table.state
    t = state.players_turn()
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
        bot = next((b for b in state.bots if b.id == action.bot), None)
        if bot is None or bot.shut_down:
            raise IllegalAction(f"{action.bot} is not a bot that can act (shut down or unknown)")
        inventory.install_mod(table, bot, action.card)
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
        bot = next((b for b in moves.movers(table) if b.id == action.bot), None)
        if bot is None:
            raise IllegalAction(f"{action.bot} cannot act now: the player's agent or the command module escapes")
        floor_change.escape(table, bot)
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
        table.emit(StepStarted(step="end", text="End of the turn: degrade the burncycle."))
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


def _degrade(table: Table, choose: int | None) -> None:
    """"At the end of every turn, roll the burncycle die to degrade a slot", once."""
    t = table.state.players_turn()
    if t.degraded:
        raise IllegalAction("the burncycle has already degraded this turn: the burncycle die is rolled once, at "
                            "the end of every turn")
    if choose is not None and not 1 <= choose <= 5:
        raise IllegalAction("the burncycle has slots 1 to 5")
    turn.degrade(table, None if choose is None else choose - 1)
    t.degraded = True


def _own_bot(table: Table, bot_id: str) -> Bot:
    """The active player's agent or the command module (the bots a player directs on their turn)."""
    agent = turn.active_agent(table.state)
    bot = next((b for b in table.state.bots if b.id == bot_id), None)
    if bot is None or (bot is not agent and bot.kind != "module"):
        raise IllegalAction(f"{bot_id} is not the active player's agent or the command module")
    if bot.shut_down:
        raise IllegalAction(f"{bot.name} is shut down: it cannot act until repaired")
    return bot


class LegalAction(Struct):
    """One thing the active player may do now, what it costs and what it still needs from them."""

    action: AnyAction
    cost: str = ""
    needs: str = ""


def legal_actions(state: GameState) -> list[LegalAction]:
    """Every legal action of the active player now. Dice counts are chosen by the player (`needs`)."""
    if state.outcome is not None or state.turn is None:
        return []
    t = state.turn
    if t.step == "corporation":
        return [LegalAction(CorporationTurn(), needs="ping-die rolls")]
    table = Table(state, SeededDice(0), apply_effect, copy=False)
    agent = turn.active_agent(state)
    out: list[LegalAction] = []
    if t.pending is not None:
        for bot in moves.movers(table):
            here = table.floor.index[bot.space]  # type: ignore[index]
            for _, j in table.floor.security_neighbours(here, table.destroyed):
                to = table.floor.ids[j]
                try:
                    moves.check_step(table, bot.id, to)
                except IllegalAction:
                    continue
                cache = to in state.floor.caches
                out.append(LegalAction(Step(bot=bot.id, to=to, take_cache=cache), cost="1 AP",
                                       needs="cards to discard if the cache's card makes 3" if cache else ""))
            if "reassemble" in bot.abilities:
                out.extend(_reassembles(table, bot))
            out.extend(_shoves(table, bot))
        out.extend(_joan_steps(table))
        out.append(LegalAction(EndMove()))
        return out
    if t.step == "route":
        out.append(LegalAction(BeginActions()))
        for bot in (agent, *[b for b in state.bots if b.kind == "module"]):
            if bot.shut_down or bot.power <= 1:
                continue
            for up in upgrades.UNIVERSAL_UPGRADES:
                if up not in bot.upgrades:
                    out.append(LegalAction(BuyUpgrade(bot=bot.id, upgrade=up), cost="1 power"))
        out.extend(_dice_upgrade(agent))
        if not t.acted and not state.mission.no_reboot:
            out.append(LegalAction(Reboot(), cost=f"+{state.players} threat"))
        out.extend(_unlock_option(state, agent))
    if t.step in ("route", "actions", "end"):
        out.extend(_alter_options(state, agent.id))
        out.extend(_trades(table, agent))
        out.extend(_inventory_options(table, agent, t.step))
    if t.step == "actions":
        pool = t.pool
        dice_text = f"choose 0-{pool.basic} basic, 0-{pool.advanced} advanced, 0-{pool.elite} elite dice"
        # the agent's proprietary die, offered with the AP checks it joins (proprietary_dice.py)
        die_use = proprietary_dice.USE[agent.proprietary_die] if pool.proprietary and agent.proprietary_die else None
        die_text = f"; 0-1 {agent.proprietary_die} die ({agent.name}'s proprietary die)"
        if moves.movers(table):
            out.append(LegalAction(Move(), needs=dice_text + (die_text if die_use == "move" else "")))
        for bot in moves.movers(table):
            force_text = dice_text + (die_text if die_use == "force" and bot is agent else "")
            here = table.floor.index[bot.space]  # type: ignore[index]
            for _, j in table.floor.bot_neighbours(here, table.unlocked, table.destroyed):
                unit = table.occupant.get(j)
                if isinstance(unit, SecurityUnit):
                    durability = special_rules.durability(table, unit)
                    out.append(LegalAction(Strike(bot=bot.id, unit=unit.id), needs=dice_text,
                                           cost=f"durability {durability}"))
                    if bot.id == INTERFACE and unit.rank == "guard":
                        out.append(LegalAction(Strike(bot=bot.id, unit=unit.id, disguise=True), needs=dice_text,
                                               cost=f"durability {durability}; its chip becomes a disguise"))
            if len(state.floor.destroyed_walls) < MAX_DESTROYED_WALLS:
                for j, kind in table.floor.neighbour[here].values():
                    if kind == "wall" and edge_id(bot.space, table.floor.ids[j]) not in table.destroyed:  # type: ignore[arg-type]
                        out.append(LegalAction(StrikeWall(bot=bot.id, beyond=table.floor.ids[j]), needs=force_text,
                                               cost="durability 10"))
                for side in DIRECTIONS:
                    if side not in table.floor.neighbour[here] and \
                            exterior_wall_id(bot.space, side) not in table.destroyed:  # type: ignore[arg-type]
                        out.append(LegalAction(StrikeWall(bot=bot.id, side=side), needs=force_text,  # type: ignore[arg-type]
                                               cost="durability 10; an exterior wall: the opening leads nowhere"))
            out.extend(_keypad_options(table, bot, force_text))
            if bot.space in state.floor.terminals:
                mainframe = state.floor.terminals[bot.space] == "mainframe"
                cost = "0 AP (mainframe)" if mainframe else "the option's AP"
                choices = [[1], [2], [3]]
                if moves.current_chip_kind(table) == "tech":  # optimized: up to 2 options
                    choices += [[1, 2], [1, 3], [2, 3]]
                for options in choices:
                    out.append(LegalAction(Terminal(bot=bot.id, options=options), needs=dice_text, cost=cost))
            if "repair" in bot.upgrades and bot.power > 1:
                for other in state.bots:
                    if other is not bot and other.on_board and other.power < 10:
                        out.append(LegalAction(Repair(bot=bot.id, target=other.id, amount=1), cost="1 power",
                                               needs=f"amount 1-{min(bot.power - 1, 10 - other.power)}"))
        if agent.on_board and not agent.shut_down and (state.network_deck or state.network_discard):
            tech = moves.current_chip_kind(table) == "tech"
            out.append(LegalAction(NetworkCardAction(), needs="a card to discard if the hand goes over 3",
                                   cost="then one more unoptimized action" if tech else ""))
        if floor_change.can_escape(table):
            for bot in moves.movers(table):
                if table.floor.feature[table.floor.index[bot.space]] == "entrance":  # type: ignore[index]
                    out.append(LegalAction(Escape(bot=bot.id), cost="a general action"))
        out.extend(_joan_abilities(table))
        if cyberspace.can_hop_now(table):
            for bot in moves.movers(table):
                here = table.floor.index[bot.space]  # type: ignore[index]
                if table.floor.feature[here] in ("terminal", "mainframe"):
                    for path in cyberspace.hop_paths(table, here).values():
                        hops = f"{len(path)} hops" if len(path) > 1 else "1 hop"
                        out.append(LegalAction(Hop(bot=bot.id, path=[table.floor.ids[k] for k in path]),
                                               cost=f"{hops}; jumping out on {table.floor.ids[path[-1]]}: "
                                                    "detected, surveils the room"))
        amount = state.mission.rule(state.calibrated).chip_for_threat
        if amount and not agent.shut_down:
            out.append(LegalAction(DrawChip(), cost=f"+{amount} threat", needs="the chip to draw"))
        out.append(LegalAction(Pass()))
    if t.step == "network":
        extra = "; Asterisk: a slot to treat as general" if "asterisk" in agent.abilities else ""
        extra += "; Risky Click: cards to ignore" if "risky_click" in agent.abilities else ""
        out.append(LegalAction(NetworkStep(), needs="optional transfers along white lines" + extra))
    if t.step == "end":
        if t.degraded:
            out.append(LegalAction(EndTurn(), cost="the burncycle has degraded: pass the turn"))
        else:
            chooser = "the slot to degrade if the burncycle die shows the chooser face"
            out.append(LegalAction(EndTurn(), needs=chooser))
            out.append(LegalAction(Degrade(), needs=chooser, cost="free actions may follow before ending the turn"))
        for up in upgrades.UNIVERSAL_UPGRADES:
            if up not in agent.upgrades and agent.power > 1:
                out.append(LegalAction(BuyUpgrade(bot=agent.id, upgrade=up), cost="1 power"))
        out.extend(_dice_upgrade(agent))
    return out


def _dice_upgrade(agent: Bot) -> list[LegalAction]:
    upgrade = dice_upgrades.next_upgrade(agent)
    if upgrade is None or agent.shut_down or agent.power - upgrade.cost < 1:
        return []
    return [LegalAction(BuyDiceUpgrade(bot=agent.id), cost=f"{upgrade.cost} power: +1 {upgrade.die} die")]


def _joan_steps(table: Table) -> list[LegalAction]:
    """Joan's steps within Memory's move action."""
    joan = table.state.joan
    if joan is None or turn.active_agent(table.state).id != MEMORY:
        return []
    out = []
    for _, j in table.floor.bot_neighbours(table.floor.index[joan.space], table.unlocked, table.destroyed):
        to = table.floor.ids[j]
        try:
            memory_drone.check_joan_step(table, to)
        except IllegalAction:
            continue
        out.append(LegalAction(Step(bot=memory_drone.JOAN, to=to), cost="1 AP"))
    return out


def _joan_abilities(table: Table) -> list[LegalAction]:
    joan = table.state.joan
    memory = turn.active_agent(table.state)
    if joan is None or not joan.charged or memory.id != MEMORY or memory.shut_down:
        return []  # a shut-down Memory "cannot act until repaired", nor direct Joan
    out = []
    with suppress(IllegalAction):  # no room with a bead where she stands
        memory_drone.surveil_room(table)
        out.append(LegalAction(JoanSurveil(), cost="depletes Joan", needs="surveillance die rolls"))
    for _, j in table.floor.bot_neighbours(table.floor.index[joan.space], table.unlocked, table.destroyed):
        unit = table.occupant.get(j)
        if isinstance(unit, SecurityUnit) and unit.rank == "guard" and not unit.stunned:
            out.append(LegalAction(JoanStun(unit=unit.id), cost="depletes Joan"))
    return out


def _unlock_option(state: GameState, agent: Bot) -> list[LegalAction]:
    """The next burncycle slot, when the bots can pay its printed cost without shutting down; the action
    proposes the active agent and the module as payers and `needs` says the split is the players' choice."""
    try:
        cost = burncycle.next_slot_cost(state)
    except IllegalAction:
        return []
    spare = {b.id: b.power - 1 for b in state.bots if b.on_board and not b.shut_down and b.power > 1}
    if sum(spare.values()) < cost or spare.get(agent.id, 0) + spare.get("module", 0) < 1:
        return []
    payers: dict[str, int] = {}
    for bot_id in (agent.id, "module", *spare):
        take = min(spare.get(bot_id, 0), cost - sum(payers.values()))
        if take > 0 and bot_id not in payers:
            payers[bot_id] = take
    return [LegalAction(UnlockSlot(payers=payers), cost=f"{cost} power",
                        needs="who pays: any bots, at least 1 power from the command module or the active agent")]


def _keypad_options(table: Table, bot: Bot, dice_text: str) -> list[LegalAction]:
    """Keypad actions on the locked doors next to the bot, one per approach that can apply."""
    state, floor = table.state, table.floor
    out: list[LegalAction] = []
    here = floor.index[bot.space]  # type: ignore[index]
    for j, kind in floor.neighbour[here].values():
        beyond = floor.ids[j]
        if kind != "door":
            continue
        door = edge_id(bot.space, beyond)  # type: ignore[arg-type]
        if door in table.unlocked:
            continue
        card = state.keypads.get(door)
        if card is None and not state.keypad_deck and not state.keypad_discard:
            continue
        col = keypad.column(table, card) if card is not None else None
        if col is not None:
            shown = (f"keypad {card.id}: {', '.join(col.inputs) or 'no inputs'}, {col.dice} keypad "  # type: ignore[union-attr]
                     f"{'die' if col.dice == 1 else 'dice'}")
        else:
            shown = "draw a keypad card"
        out.append(LegalAction(Keypad(bot=bot.id, beyond=beyond, approach="inputs"), cost=shown,
                               needs="keypad die rolls; inputs paid from reserves or by jumping the tracker"))
        if col is None or not col.jam:
            out.append(LegalAction(Keypad(bot=bot.id, beyond=beyond, approach="brute_force"), needs=dice_text,
                                   cost=f"durability {col.durability}" if col is not None else
                                   "the keypad's durability (4/6/8 AP by floor) unless Jammed"))
        if bot.keys > 0:
            out.append(LegalAction(Keypad(bot=bot.id, beyond=beyond, approach="key"), cost="1 key"))
        out.append(LegalAction(Keypad(bot=bot.id, beyond=beyond, approach="abort"), needs="keypad die rolls"))
    return out


def _shoves(table: Table, bot: Bot) -> list[LegalAction]:
    """Swaps and pushes the bot can make now within its move action."""
    t = table.state.turn
    assert t is not None and t.pending is not None
    out: list[LegalAction] = []
    push_ap = 1 if table.state.mission.setup.free_push else 2
    if bot.disguise is not None and t.pending.steps.get(bot.id, 0) >= bot.disguise.movement:
        return out  # "moves up to the disguise's movement value"
    here = table.floor.index[bot.space]  # type: ignore[index]
    for _, j in table.floor.bot_neighbours(here, table.unlocked, table.destroyed):
        if special_rules.safe_zone_closed(table, j):
            continue  # both enter the space: "Bots cannot enter safe zones for the remainder of the mission"
        other = table.occupant.get(j)
        if isinstance(other, Bot) and "swap" in bot.upgrades and moves.ap_for(table, bot) >= 1:
            out.append(LegalAction(Swap(bot=bot.id, other=other.id), cost="1 AP"))
        if isinstance(other, SecurityUnit) and "push" in bot.upgrades and moves.ap_for(table, bot) >= push_ap:
            for _, k in table.floor.security_neighbours(j, table.destroyed):
                if k not in table.occupant:
                    out.append(LegalAction(Push(bot=bot.id, unit=other.id, to=table.floor.ids[k]),
                                           cost=f"{push_ap} AP", needs="causes detection"))
    return out


def _trades(table: Table, agent: Bot) -> list[LegalAction]:
    out: list[LegalAction] = []
    for bot in table.state.bots:
        cards = [(c.id, c.name) for c in bot.equipment + bot.mods]
        if (bot is not agent and bot.kind != "module") or not bot.on_board or bot.shut_down or (
                bot.keys < 1 and not cards):
            continue
        here = table.floor.index[bot.space]  # type: ignore[index]
        for _, j in table.floor.bot_neighbours(here, table.unlocked, table.destroyed):
            other = table.occupant.get(j)
            if isinstance(other, Bot):
                if bot.keys:
                    out.append(LegalAction(Trade(bot=bot.id, to=other.id, keys=1), cost="free",
                                           needs=f"keys 1-{bot.keys}"))
                for card, name in cards:
                    full = other.inventory >= inventory.LIMIT
                    out.append(LegalAction(Trade(bot=bot.id, to=other.id, cards=[card]), cost=f"free; {name}",
                                           needs="the card to discard: a bot holds at most 2 equipment and mods"
                                           if full else ""))
    return out


def _reassembles(table: Table, bot: Bot) -> list[LegalAction]:
    """Nano's steps through the locked doors next to him (Reassemble)."""
    out: list[LegalAction] = []
    floor = table.floor
    here = floor.index[bot.space]  # type: ignore[index]
    for j, kind in floor.neighbour[here].values():
        door = edge_id(bot.space, floor.ids[j])  # type: ignore[arg-type]
        if kind != "door" or door in table.unlocked or j in table.occupant:
            continue
        try:
            moves.check_step(table, bot.id, floor.ids[j], reassemble=True)  # the step's own rules (a closed zone)
        except IllegalAction:
            continue
        out.append(LegalAction(Step(bot=bot.id, to=floor.ids[j], reassemble=True), cost="1 AP",
                               needs="discards all keys, equipment and mods but the innate mod"))
    return out


def _inventory_options(table: Table, agent: Bot, step: str) -> list[LegalAction]:
    """Equipment the active agent can use, mods it can install, cards its player can discard; each names the
    card, so the list reads without the deck at hand."""
    state = table.state
    out: list[LegalAction] = []
    if agent.shut_down:
        return out
    for card in agent.equipment:
        out.extend(_equipment_uses(table, agent, card, step))
    for mod in agent.mods:
        out.append(LegalAction(InstallMod(bot=agent.id, card=mod.id), cost=f"free; {mod.name}: {mod.text}"))
    for bot in [agent] + [b for b in state.bots if b.kind == "module" and not b.shut_down]:
        for card in bot.equipment:
            out.append(LegalAction(Discard(bot=bot.id, card=card.id), cost=f"free; {card.name} is discarded"))
        for mod in bot.mods:
            out.append(LegalAction(Discard(bot=bot.id, card=mod.id), cost=f"gain {mod.power} power ({mod.name})"))
        for mod in bot.installed:
            out.append(LegalAction(Discard(bot=bot.id, card=mod.id), cost=f"installed: 0 power ({mod.name})"))
    if agent.imperative is not None and agent.power > 1:
        out.append(LegalAction(Discard(bot=agent.id, card=agent.imperative.id),
                               cost=f"1 power ({agent.imperative.name})"))
    return out


def _equipment_uses(table: Table, agent: Bot, card: EquipmentCard, step: str) -> list[LegalAction]:
    """One use per target the card can take now: each adjacent security unit for a stun, each adjacent locked
    door for an unlock, each free adjacent space as the first space of a bonus move (the path may go on)."""
    kind = card.effect.kind
    if kind == "pool_dice" and step != "actions":
        return []
    cost = card.name + {"single_use": "; discard after using", "breakable": "; rolls the equipment die",
                        "counter": f"; equipment die {card.die} -> {(card.die or 1) - 1}"}.get(card.category, "")
    if kind not in ("stun", "unlock_door", "bonus_move"):
        return [LegalAction(UseEquipment(bot=agent.id, card=card.id), cost=cost)]
    if not agent.on_board:
        return []
    floor = table.floor
    here = floor.index[agent.space]  # type: ignore[index]
    out: list[LegalAction] = []
    if kind == "unlock_door":
        for j, edge in floor.neighbour[here].values():
            if edge == "door" and edge_id(agent.space, floor.ids[j]) not in table.unlocked:  # type: ignore[arg-type]
                out.append(LegalAction(UseEquipment(bot=agent.id, card=card.id, beyond=floor.ids[j]), cost=cost))
        return out
    longest = "the rolled value" if card.effect.amount_from_die else str(card.effect.amount)
    for _, j in floor.bot_neighbours(here, table.unlocked, table.destroyed):
        other = table.occupant.get(j)
        if kind == "stun" and isinstance(other, SecurityUnit):
            out.append(LegalAction(UseEquipment(bot=agent.id, card=card.id, unit=other.id), cost=cost))
        elif kind == "bonus_move" and other is None:
            out.append(LegalAction(UseEquipment(bot=agent.id, card=card.id, path=[floor.ids[j]]), cost=cost,
                                   needs=f"more spaces of the path, up to {longest} in all, if wanted"))
    return out


def _alter_options(state: GameState, agent_id: str) -> list[LegalAction]:
    out = []
    sources = [("team", state.burncycle.team_reserve), (agent_id, state.burncycle.personal_reserves.get(agent_id, []))]
    for k, chip in enumerate(state.burncycle.slots):
        if chip is None:
            continue
        for source, reserve in sources:
            for kind in sorted(set(reserve)):
                if kind != "captain":
                    cost = "+2 threat" if chip.kind == "captain" and not chip.degraded else ""
                    out.append(LegalAction(Alter(slot=k + 1, chip=kind, source=source), cost=cost))  # type: ignore[arg-type]
    return out

