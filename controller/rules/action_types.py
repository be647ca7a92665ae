"""The players' actions as values: one msgspec Struct per action, named in JSON by its "action" field.

They live apart from `actions.apply_action` so that each rule module can build the actions it lists as legal
(`legal_*` next to the code that applies them) without importing the dispatcher that imports it.
"""

from __future__ import annotations

from typing import Literal

import msgspec
from msgspec import Struct

from controller.rules.state import DicePool, Direction, Upgrade

# The actions' schema version (`burncycle-table schema action`), raised as EVENT_VERSION is (docs/events.md).
ACTION_VERSION = 1


class Action(Struct, tag_field="action"):
    """A player action; its JSON form names it in the "action" field. Unknown fields are ignored on reading
    (a log written by a later release still replays); the command line checks typed-in actions strictly."""


class BeginActions(Action, tag="begin_actions"):
    """End power routing (step 1), build the dice pool (step 2) and start along the burncycle (step 3)."""


class BuyUpgrade(Action, tag="buy_upgrade"):
    bot: str
    upgrade: Upgrade


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


class Correct(Action, tag="correct"):
    """The players' word on where a unit stands (a manual correction, which wins over the camera): put a bot or
    a security unit on `space`, a security unit also turned to `facing`. Allowed at any step, it costs nothing
    and triggers nothing (controller/rules/corrections.py)."""

    unit: str
    space: str
    facing: Direction | None = None


AnyAction = (BeginActions | BuyUpgrade | BuyDiceUpgrade | JoanSurveil | JoanStun | UnlockSlot | Reboot | Alter | Move
             | Step | Swap | Push | Trade | EndMove | Strike
             | StrikeWall | Repair | NetworkCardAction | DrawChip | Escape | Hop | Pass | NetworkStep | Degrade
             | EndTurn | UseEquipment | InstallMod | Discard | CorporationTurn | Keypad | Terminal | Correct)
