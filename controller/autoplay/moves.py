"""The auto-player's steps within a move action: one AP at a time, to the mission's own walker first (none but
Preconnaissance's), then to the bot a guard sees, then (the calibration done) to the active agent still out while
a team-mate home can walk the module, then to the
calibrations' walkers (the farthest from its target first), never back over a bot's own trail in one move
action, never leaving a bot in a guard's sight with the last AP; a push where a unit stands in the way, and the
mission's shove (Do-While-End's captain) before anything else.
"""

from __future__ import annotations

from controller.autoplay.missions import strategy_for
from controller.autoplay.missions.strategy import module_errand, module_near
from controller.autoplay.routes import Routes, move_key
from controller.rules import Action, Bot, EndMove, Push, Resolution, Step, active_agent, movers


class MoveSteps:
    """Which bot spends the next AP of a move action, and where to."""

    def __init__(self, routes: Routes) -> None:
        self.routes = routes

    def step(self, table: Resolution, legal: list) -> Action:
        """Spend one AP: first on the bot the mission's play walks first, then on a bot a guard can see, then on
        the active agent out of the zone while a team-mate home can walk the module (`_walks_itself_first`),
        then on the agent while calibrations are open, else on the bot farthest from its target."""
        state, routes, notes = table.state, self.routes, self.routes.notes
        move = move_key(state)
        if notes.move != move:  # a new move action: a bot never walks back over its own steps in one
            notes.move, notes.trails = move, {}
        for bot in movers(table):
            notes.trails.setdefault(bot.id, set()).add(bot.at)
        shove = routes.shove(table)
        if shove is not None:
            unit, onto = shove
            for la in legal:
                if isinstance(la.action, Push) and la.action.unit == unit.id and la.action.to == table.floor.ids[onto]:
                    return la.action
        steps: dict[tuple[str, str], Action] = {(la.action.bot, la.action.to): la.action for la in legal
                                                if isinstance(la.action, Step)}
        for la in legal:  # a push takes the bot into the unit's space: the step to that space
            # (never the unit being shoved toward a terminal: only the push along its way moves it; never a
            # unit shoved into the team's safe zone, whose only shelter is that "Guards outside safe zones
            # cannot see into them": inside, it sees and attacks every bot there; but the last bot out pushing
            # a unit off a space of the zone steps in, and the team wins there and then)
            if isinstance(la.action, Push) and not (shove is not None and la.action.unit == shove[0].id) \
                    and (not routes.paths.in_team_zone(table, table.floor.index[la.action.to])
                         or self._wins_home(table, la.action)):
                into = state.unit(la.action.unit).space
                known = steps.get((la.action.bot, into))
                if known is None or (isinstance(known, Push) and
                                     self._push_rank(table, la.action) > self._push_rank(table, known)):
                    steps[(la.action.bot, into)] = la.action
        watched = routes.paths.watched(table)
        strategy = strategy_for(state.mission.id)
        ranked = []
        for bot in movers(table):
            here = table.floor.index[bot.at]
            nxt = routes.next_space(table, bot)
            action = steps.get((bot.id, table.floor.ids[nxt[0]])) if nxt is not None else None
            pending = state.turn.pending
            last = pending is not None and pending.ap == 1
            if action is not None and nxt is not None and last and nxt[0] in watched and here not in watched \
                    and not (shove is not None and bot.kind == "module"):
                continue  # the last AP would leave the bot in a guard's sight for the corporation's turn
            if action is not None and nxt is not None and routes.opener_holds(table, bot, nxt[0]):
                continue  # the zone's opener comes to its door with a whole pool, next turn
            if action is not None:
                remaining = routes.bot_distances(table, bot)[here]
                # calibrations first: the module's walk to the safe zone can wait for spare AP, its own
                # calibration task ("Command Module: ...") cannot
                # (an agent only heading for the safe zone has no calibration work: TSM-103C's agents push and
                # complete network cards, the module's terminals come first)
                errand = not table.state.calibrated and (
                    (module_errand(table, notes) or routes.crosses_first(table, bot, remaining)
                     or routes.module_dashes(table))
                    if bot.kind == "module" else routes.targets(table, bot) != routes.paths.team_safe_zone(table))
                # Do-While-End's endgame: the module beside the captain pushes it before anyone else walks
                actor = shove is not None and bot.kind == "module" and module_near(table, [shove[0]])
                # the mission's own walker (Preconnaissance's Nano in the rooms) before a bot in a guard's sight
                first = strategy.walks_first(table, bot)
                ranked.append((not actor, not first, here not in watched and not bot.detected,
                               not self._walks_itself_first(table, bot), not errand,
                               -remaining, bot.kind != "agent", action))
        if not ranked:
            return EndMove()
        return min(ranked, key=lambda r: r[:7])[7]

    def _walks_itself_first(self, table: Resolution, bot: Bot) -> bool:
        """Whether the bot is the active agent, out of the team's safe zone once the calibration is done, while a
        team-mate home can walk the command module on its own turn: the module walks on any agent's move AP, an
        agent only on its own, so the agent's AP take it home first and the team-mate's the module."""
        state, routes = table.state, self.routes
        if not state.calibrated or bot is not active_agent(state) or routes.home(table, bot):
            return False
        return any(b.kind == "agent" and b is not bot and b.on_board and not b.shut_down and routes.home(table, b)
                   for b in state.bots)

    def _wins_home(self, table: Resolution, push: Push) -> bool:
        """Whether the push takes the last bot out into the team's safe zone (onto the pushed unit's space)
        while every team-mate is home: "All bots simultaneously: occupy safe zones" is met as it lands."""
        routes, state = self.routes, table.state
        into = table.floor.index[state.unit(push.unit).space]
        return routes.paths.in_team_zone(table, into) and all(
            routes.home(table, b) for b in state.bots if b.id != push.bot and b.on_board)

    def _push_rank(self, table: Resolution, push: Push) -> tuple[bool, int]:
        """How good a space `push.to` is for the shoved unit: through a door while the pusher still owes
        TSM-103C's "push a security unit through a door", then where it is least in the pusher's way (shoved
        onward along the bot's path, it stood in the way again: a guard shoved out through the only door of
        Nano's room, round after round)."""
        floor = table.floor
        pusher = table.state.bot(push.bot)
        at, to = floor.index[table.state.unit(push.unit).space], floor.index[push.to]
        through = floor.edge_between(at, to) == "door" and \
            strategy_for(table.state.mission.id).owes_push_through_door(table, pusher)
        return through, self.routes.bot_distances(table, pusher)[to]
