"""What `legal_actions` lists: one `LegalAction` per thing the active player may do now.

Each carries its action (ready to apply, with defaults for the fields the player may still choose), the
allowed values of those fields (dice counts per die kind with the AP each face gives, spaces, options, payers),
its cost as numbers and a label for people, so a dashboard builds its buttons and forms from the fields and
never parses the prose. The rule modules build them (`legal_*` beside the code that applies each action);
`actions.legal_actions` only composes them.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from operator import attrgetter

from msgspec import Struct

from controller.rules.action_types import AnyAction
from controller.rules.characters.proprietary_dice import FACES as PROPRIETARY_FACES
from controller.rules.characters.proprietary_dice import USE
from controller.rules.players.ap import FACES
from controller.rules.state import Bot, DicePool

GRADES = ("basic", "advanced", "elite")
Choice = str | int | list[int] | dict[int, str]  # one allowed value of a field: a space, a card, an amount,
# terminal options, a network step's transfers (movement step -> in or out)
# AP a face gives on its own: a basic die's blank gives 0 (two blanks make 1 AP), an elite die's reroll gives 0
# (it rerolls the die showing the least AP)
FACE_AP = {"blank": 0, "reroll": 0}


class DieChoice(Struct, frozen=True, forbid_unknown_fields=True):
    """Up to `most` dice of one kind may join the action's AP check (`field` of the action's `dice`)."""

    field: str  # the DicePool field: basic, advanced, elite or proprietary
    die: str  # its name at the table: "basic die", "pressure die"
    most: int
    faces: tuple[str, ...]  # as printed
    ap: tuple[int, ...]  # the AP each face gives, in the order of `faces`


class Cost(Struct, frozen=True, forbid_unknown_fields=True):
    """What the action takes, as numbers: a move action's AP, power paid (negative: gained), threat, keys."""

    ap: int = 0
    power: int = 0
    threat: int = 0
    keys: int = 0


class LegalAction(Struct, forbid_unknown_fields=True):
    """One thing the active player may do now.

    `action` applies as it is; `choose` names the fields the player may still set first (the action holds their
    defaults): `dice` within `dice` (at most `most` of each kind), `payers` within `payers` (the most each bot
    may pay), any other field from `options[field]` (a field absent there takes any value its rule allows, such
    as a bonus move's further spaces). `target_ap` is the AP the check must reach (a durability); `warning`
    says what the action loses beyond its cost (the game, power above the bank); `at` is the space the action
    aims at (controller/rules/targets.py), where a board lights it for a tap."""

    action: AnyAction
    label: str
    tag: str = ""
    bot: str | None = None  # the bot that acts, when one does
    choose: list[str] = []
    dice: list[DieChoice] = []
    options: dict[str, list[Choice]] = {}
    payers: dict[str, int] = {}
    cost: Cost = Cost()
    target_ap: int | None = None
    warning: str = ""
    at: str | None = None

    def __post_init__(self) -> None:
        kind = type(self.action)
        known = _KINDS.get(kind)
        if known is None:  # msgspec builds __struct_config__ anew on each access: read it once per kind
            known = _KINDS[kind] = (str(kind.__struct_config__.tag),
                                    attrgetter("bot") if "bot" in kind.__struct_fields__ else None)
        self.tag = known[0]
        if self.bot is None and known[1] is not None:
            self.bot = known[1](self.action)


# an action kind's tag, and how to read its `bot` field when it has one
_KINDS: dict[type, tuple[str, Callable[[object], str | None] | None]] = {}


def _face_ap(faces: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(int(f) if f.isdigit() else FACE_AP[f] for f in faces)


def pool_choices(pool: DicePool, bot: Bot | None = None, use: str | None = None) -> list[DieChoice]:
    """The pool's dice an AP check may roll: the grades left, and the bot's proprietary die when it joins
    this kind of check (`use`: "move" or "force", as in proprietary_dice.USE)."""
    die = bot.proprietary_die if bot is not None and bot.kind == "agent" else None
    own = die if die is not None and pool.proprietary and USE[die] == use else None
    return list(_choices(pool.basic, pool.advanced, pool.elite, own))


@lru_cache(maxsize=512)
def _choices(basic: int, advanced: int, elite: int, own: str | None) -> tuple[DieChoice, ...]:
    """The DieChoice values of a pool (frozen, so the listing shares them: a few pools recur all game)."""
    counts = {"basic": basic, "advanced": advanced, "elite": elite}
    out = [DieChoice(field=g, die=f"{g} die", most=counts[g], faces=FACES[g], ap=_face_ap(FACES[g]))
           for g in GRADES if counts[g]]
    if own is not None:
        faces = PROPRIETARY_FACES[own]
        out.append(DieChoice(field="proprietary", die=f"{own} die", most=1, faces=faces, ap=_face_ap(faces)))
    return tuple(out)


def dice_label(choices: list[DieChoice]) -> str:
    """"up to 2 basic and 1 elite dice and the pressure die" for people; "no dice left in the pool" for none."""
    return _label(tuple(choices))


@lru_cache(maxsize=512)
def _label(choices: tuple[DieChoice, ...]) -> str:
    if not choices:
        return "no dice left in the pool"
    graded = [c for c in choices if c.field != "proprietary"]
    own = [f"the {c.die}" for c in choices if c.field == "proprietary"]
    parts = [f"{c.most} {c.field}" for c in graded]
    listed = [(parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]) +
              (" die" if sum(c.most for c in graded) == 1 else " dice")] if graded else []
    return "up to " + " and ".join(listed + own)
