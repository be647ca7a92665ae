"""Action dice and AP checks.

"Basic Dice (1, 1, 1, 1, 2, blank) / Advanced Dice (1, 1, 2, 2, 2, 3) / Elite Dice (2, 2, 2, 2, 3, reroll)".
"Unused blanks from basic dice can be spent in pairs (2 blanks = 1 AP) or returned to the player's pool": the
pairs are spent and a blank left over goes back to the pool, to be rolled again this turn. "Reroll symbols on
elite dice allow rerolling any die before totaling AP": the engine rerolls the die showing the least AP (a
blank counts as half), which is the choice that can only help the player.
"""

from __future__ import annotations

from controller.rules.errors import DiceWanted, IllegalAction
from controller.rules.events import DieRolled
from controller.rules.resolution import Resolution
from controller.rules.state import DicePool

FACES = {
    "basic": ("1", "1", "1", "1", "2", "blank"),
    "advanced": ("1", "1", "2", "2", "2", "3"),
    "elite": ("2", "2", "2", "2", "3", "reroll"),
}
# "If optimized, add +2 AP to the total rolled."
OPTIMIZED_BONUS = 2


def _worth(face: str) -> float:
    if face.isdigit():
        return float(face)
    return 0.5 if face == "blank" else 0.0


def check_pool(pool: DicePool, wanted: DicePool) -> None:
    for grade in ("basic", "advanced", "elite"):
        have, want = getattr(pool, grade), getattr(wanted, grade)
        if want > have:
            raise IllegalAction(f"the dice pool holds {have} {grade} dice, not {want}: a player builds the pool "
                                f"in step 2 and rolled dice return to the supply")


def check_dice(wanted: DicePool) -> list[DiceWanted]:
    """The dice an AP check rolls, in the order they are read: basic, advanced, elite."""
    return [DiceWanted(die=f"{grade} die", count=getattr(wanted, grade), faces=FACES[grade])
            for grade in ("basic", "advanced", "elite") if getattr(wanted, grade)]


def check_purpose(resolution: Resolution, why: str) -> str:
    """"Casing's move action": what an AP check's dice are for, said to the players who roll them."""
    turn = resolution.state.turn
    active = turn.order[turn.active]
    return f"{next((b.name for b in resolution.state.bots if b.id == active), active)}'s {why}"


def check_ap(resolution: Resolution, wanted: DicePool, why: str) -> None:
    """Refuse dice an AP check cannot roll: a proprietary die (its callers roll it first, `agent_dice`, and pass
    the rest) or more dice of a grade than the pool holds."""
    if wanted.proprietary:
        raise IllegalAction(f"no proprietary die joins the AP check of a {why}: Casing's pressure die joins move "
                            f"actions, Bit's lift die strikes on walls and brute force")
    check_pool(resolution.state.turn.pool, wanted)


def roll_ap(resolution: Resolution, wanted: DicePool, bonus: int, why: str) -> int:
    """Roll the chosen dice from the active pool and total the AP (the dice leave the pool, but for an
    unpaired blank, which returns to it)."""
    turn = resolution.state.turn
    check_ap(resolution, wanted, why)
    pool = turn.pool
    resolution.dice.expect(check_dice(wanted), check_purpose(resolution, why))
    pool.basic -= wanted.basic
    pool.advanced -= wanted.advanced
    pool.elite -= wanted.elite
    rolled: list[tuple[str, str]] = []
    for grade in ("basic", "advanced", "elite"):
        for _ in range(getattr(wanted, grade)):
            face = resolution.dice.roll(f"{grade} die", FACES[grade])
            resolution.emit(DieRolled(die=f"{grade} die", face=face, why=why))
            rolled.append((grade, face))
    rerolls = sum(1 for _, f in rolled if f == "reroll")
    for _ in range(rerolls):
        candidates = [k for k, (_, f) in enumerate(rolled) if f != "reroll"]
        if not candidates:
            break
        k = min(candidates, key=lambda i: (_worth(rolled[i][1]), i))
        grade = rolled[k][0]
        face = resolution.dice.roll(f"{grade} die", FACES[grade])
        resolution.emit(DieRolled(die=f"{grade} die", face=face, why=f"{why}: reroll"))
        rolled[k] = (grade, face)
    total = sum(int(f) for _, f in rolled if f.isdigit())
    blanks = sum(1 for _, f in rolled if f == "blank")
    pool.basic += blanks % 2  # "or returned to the player's pool"
    return total + blanks // 2 + bonus
