"""A game told again from its record: the post-game summary and the step-by-step replay (time travel).

The record is the truth (every action with its dice faces, each checked against the digest of the state it
made), so a replay is the engine applying the record again: what the dashboard shows at step k is the state the
table was in after k actions, for a finished game as for the one on the table. Replaying is read-only; the
live game is never touched. One game's states are kept while it is being looked at (a replay is stepped back
and forth); when its record grows or is undone, only the actions that differ are replayed.
"""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass

import msgspec

from controller.rules import GameRecord, GameState, phrase, replay
from controller.rules.errors import BurncycleError
from controller.service.game.session import GameSession
from controller.service.views import ReplayEntry, ReplayStep, Summary, ThreatInRound


class ReplayError(BurncycleError):
    """A step the game does not have (past its end)."""

    code = "not_found"


@dataclass(frozen=True)
class ReplayedGame:
    game: int
    title: str
    record: GameRecord
    states: list[GameState]  # states[k]: the state after the record's first k entries

    @property
    def entries(self) -> int:
        return len(self.record.entries)


def _common(a: GameRecord, b: GameRecord) -> int:
    """How many first entries two records of one game share (each entry's digest names the state it made)."""
    n = 0
    for x, y in zip(a.entries, b.entries):
        if x.digest != y.digest:
            break
        n += 1
    return n


def _tag(action: object) -> str:
    return str(action.__struct_config__.tag)  # type: ignore[attr-defined]


class GameReplays:
    """Replays of the session's games, the last one looked at kept in memory."""

    def __init__(self, session: GameSession) -> None:
        self.session = session
        self._lock = threading.Lock()
        self._kept: ReplayedGame | None = None

    def replayed(self, game: int) -> ReplayedGame:
        """Every state of `game`, one action at a time (each checked against its recorded digest). The states
        kept of the game last looked at are reused as far as its record still agrees with them, so a game
        going on (or an action undone) costs only the actions that changed."""
        title, record = self.session.record_of(game)
        with self._lock:
            kept = self._kept
            states = [record.start]
            if kept is not None and kept.game == game:
                same = _common(kept.record, record)
                states = kept.states[:same + 1]
            for entry in record.entries[len(states) - 1:]:  # one entry at a time: the game in one pass
                states.append(replay(GameRecord(start=states[-1], entries=[entry])))
            self._kept = ReplayedGame(game, title, record, states)
            return self._kept

    def summary(self, game: int) -> Summary:
        """How the game went: its outcome, rounds and actions, and the threat after each action and each round."""
        played = self.replayed(game)
        last = played.states[-1]
        by_round: dict[int, int] = {}
        for state in played.states[1:]:
            by_round[state.round] = state.threat  # the threat once the round's last action is done
        return Summary(
            game=played.game, title=played.title,
            outcome=msgspec.to_builtins(last.outcome) if last.outcome is not None else None,
            rounds=last.round, actions=played.entries,
            actions_by_kind=dict(Counter(_tag(e.action) for e in played.record.entries).most_common()),
            start_threat=played.states[0].threat,
            threat_by_round=[ThreatInRound(round=r, threat=t) for r, t in sorted(by_round.items())],
            threat_by_action=[s.threat for s in played.states],
            round_by_action=[s.round for s in played.states])

    def step(self, game: int, k: int) -> ReplayStep:
        """The state after the first k actions, with the k-th action and its events phrased for people."""
        played = self.replayed(game)
        if not 0 <= k <= played.entries:
            raise ReplayError(f"game {game} has {played.entries} actions: a replay step is 0 (the start) to "
                              f"{played.entries}, not {k}")
        state = played.states[k]
        entry: ReplayEntry | None = None
        if k:
            e = played.record.entries[k - 1]
            entry = ReplayEntry(number=k, kind=_tag(e.action), action=msgspec.to_builtins(e.action),
                                faces=[f.face for f in e.faces], events=[phrase(ev, state) for ev in e.events])
        return ReplayStep(game=played.game, title=played.title, k=k, entries=played.entries, round=state.round,
                          threat=state.threat,
                          outcome=msgspec.to_builtins(state.outcome) if state.outcome is not None else None,
                          entry=entry, state=state)
