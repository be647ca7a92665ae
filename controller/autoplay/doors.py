"""How the auto-player gets a bot through what shuts its way: a locked door (a key first, brute force when the
dice it can spare come within FORCE_MARGIN of the durability, else inputs, else on the labs the keypad dice's
unlock face) or, for a bot shut in, a wall.

Which door or wall is in the way is the bot's route (`Routes.next_space`); which doors count as closed for the
paths is the player's sense of the floor (`PathCosts.jammed`).
"""

from __future__ import annotations

from controller.autoplay.forcing import expected_ap
from controller.autoplay.paths import keypad_dice_unlock, opens_doors
from controller.autoplay.routes import Routes
from controller.autoplay.tuning import AVERAGE_AP, FORCE_MARGIN
from controller.rules import (
    OPTIMIZED_BONUS,
    PROPRIETARY_DIE_USE,
    Action,
    Bot,
    DicePool,
    Keypad,
    Resolution,
    StrikeWall,
    brute_force_durability,
    chip_inputs_payable,
    current_chip_kind,
    edge_id,
    keypad_column,
    movers,
)


class Doors:
    """The action that opens the locked door, or breaks the wall, in a bot's way."""

    def __init__(self, routes: Routes) -> None:
        self.routes = routes

    def open_door(self, table: Resolution, legal: list) -> Action | None:
        """A keypad action on the locked door a bot's next step crosses: a key, brute force when the dice make
        the durability likely (Bit's lift die included), inputs when the card is still unknown or its printed
        chip inputs can be paid from the reserves or by jumping the tracker ahead to a matching chip; else, on
        the last floor of level 2 of a mission won in the safe zones (the labs), an abort for the keypad dice
        it rolls: "Automatic Unlock: The door opens instantly, resolving all requirements", one roll in six of
        the keypad die (docs/autoplay.md, "The keypad die's unlock")."""
        doors = self._door_in_the_way(table)
        if doors is None:
            return None
        bot, beyond = doors
        keypads = [la.action for la in legal if isinstance(la.action, Keypad)
                   and la.action.bot == bot.id and la.action.beyond == beyond]
        approaches = {a.approach for a in keypads}
        if "key" in approaches:
            return Keypad(bot=bot.id, beyond=beyond, approach="key")
        if "brute_force" in approaches:
            durability = brute_force_durability(table, edge_id(bot.at, beyond))
            need = dice_for(table, durability)
            if expected_ap(need) >= durability - FORCE_MARGIN:
                if bot.kind == "agent" and PROPRIETARY_DIE_USE.get(bot.proprietary_die or "") == "force":
                    need.proprietary = table.state.turn.pool.proprietary  # Bit's lift die
                return Keypad(bot=bot.id, beyond=beyond, approach="brute_force", dice=need)
        door = edge_id(bot.at, beyond)
        card = table.state.keypads.get(door)
        if "inputs" in approaches and (card is None or chip_inputs_payable(table, bot, card)):
            return Keypad(bot=bot.id, beyond=beyond, approach="inputs")
        if card is not None and keypad_column(table, card).dice and "abort" in approaches \
                and keypad_dice_unlock(table):
            # the labs, or an agent shut in its zone: a keypad action rolls the card's keypad dice before any
            # approach, and their unlock face opens the door whatever the card asks; an abort rolls them and
            # pays nothing (no dice, no shock)
            return Keypad(bot=bot.id, beyond=beyond, approach="abort")
        return None

    def _door_in_the_way(self, table: Resolution) -> tuple[Bot, str] | None:
        """The first bot whose next step crosses a locked door it opens, and the space beyond."""
        for bot in movers(table):
            nxt = self.routes.next_space(table, bot)
            if nxt is not None and nxt[1] == "door" and opens_doors(table, bot, nxt[0]):
                door = edge_id(bot.at, table.floor.ids[nxt[0]])
                if door not in table.unlocked:
                    return bot, table.floor.ids[nxt[0]]
        return None

    def break_wall(self, table: Resolution, legal: list) -> Action | None:
        """A bot shut in strikes the wall on its way out when the dice it can roll now make the wall's durability
        likely, as listed ("Striking a wall with 10+ AP places a destroyed wall chip")."""
        bonus = OPTIMIZED_BONUS if current_chip_kind(table) == "physical" else 0
        for bot in movers(table):
            nxt = self.routes.next_space(table, bot)
            if nxt is None or nxt[1] != "wall":
                continue
            beyond = table.floor.ids[nxt[0]]
            wall = next((la for la in legal if isinstance(la.action, StrikeWall) and la.action.bot == bot.id
                         and la.action.beyond == beyond), None)
            if wall is None or wall.target_ap is None:
                continue
            dice = dice_for(table, wall.target_ap, bonus)
            if bot.kind == "agent" and PROPRIETARY_DIE_USE.get(bot.proprietary_die or "") == "force":
                dice.proprietary = table.state.turn.pool.proprietary
            if bonus + expected_ap(dice) >= wall.target_ap:
                return StrikeWall(bot=bot.id, beyond=beyond, dice=dice)
        return None


def dice_for(table: Resolution, ap: int, bonus: int = 0) -> DicePool:
    """Enough of the pool to expect `ap` (best dice first), or all of it."""
    pool = table.state.turn.pool
    picked = DicePool()
    expected = float(bonus)
    for grade in ("elite", "advanced", "basic"):
        worth = AVERAGE_AP[grade]
        while expected < ap + 1 and getattr(pool, grade) > getattr(picked, grade):
            setattr(picked, grade, getattr(picked, grade) + 1)
            expected += worth
    return picked
