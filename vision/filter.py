"""Temporal filter: turns noisy frame readings into moves the table can trust.

"Vision never invents a move": a unit moves only after it has been seen at the new space (and facing)
for enough frames *and* enough time; a marker that vanishes keeps its place and is marked unseen; a
doubtful sighting never moves anything; a unit seen twice, or two units in one space, becomes a question
for the players instead of a state change. A unit confirmed on the space of one whose sticker was not seen
all the while (a guard taken off the board, then a bot moved there) takes the space: the unseen one's place
becomes unknown. Blurred frames (a shaken table) keep a unit seen but never count toward a move: moves are
confirmed on sharp frames only.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from vision.config import FilterSettings
from vision.observation import FrameReading, Observation, UnitState
from vision.snap import Sighting
from vision.status import Status


@dataclass(frozen=True)
class UnitSighted:
    """A unit confirmed at a space (placed, moved or turned): what the camera saw, tagged "unit_sighted" so
    it is never taken for the rules' "unit_moved" (a move the players are told to make)."""

    unit: str
    from_space: str | None
    to_space: str
    from_facing: str | None
    to_facing: str | None

    @property
    def text(self) -> str:
        if self.from_space is None:
            facing = f" facing {self.to_facing}" if self.to_facing else ""
            return f"unit {self.unit} placed at {self.to_space}{facing}"
        if self.from_space == self.to_space:
            return f"unit {self.unit} turned from {self.from_facing} to {self.to_facing} at {self.to_space}"
        return f"unit {self.unit} moved from {self.from_space} to {self.to_space}" + (
            f" facing {self.to_facing}" if self.to_facing else "")

    def to_dict(self) -> dict[str, object]:
        return {"type": "unit_sighted", "unit": self.unit, "from": self.from_space, "to": self.to_space,
                "from_facing": self.from_facing, "to_facing": self.to_facing, "text": self.text}


@dataclass(frozen=True)
class UnitNotSeen:
    unit: str
    space: str | None
    seconds: float

    @property
    def text(self) -> str:
        where = f" (last at {self.space})" if self.space else ""
        return f"unit {self.unit} not seen for {self.seconds:.0f} s{where}"

    def to_dict(self) -> dict[str, object]:
        return {"type": "unit_not_seen", "unit": self.unit, "space": self.space, "seconds": round(self.seconds, 1),
                "text": self.text}


VisionEvent = UnitSighted | UnitNotSeen


@dataclass
class _Track:
    state: UnitState
    pending: tuple[str, str | None] | None = None
    pending_count: int = 0
    pending_since: float = 0.0
    unseen_reported: bool = False


class TemporalFilter:
    def __init__(self, unit_ids: list[str], settings: FilterSettings) -> None:
        self.settings = settings
        self.tracks = {u: _Track(UnitState(u)) for u in unit_ids}
        self.observation = Observation(0.0, Status("warning", "no_frames", "no frame read yet"),
                                       {u: t.state for u, t in self.tracks.items()})

    def update(self, reading: FrameReading) -> list[VisionEvent]:
        """Fold one frame in; a frame without registration only ages the units (nothing moves)."""
        ts = reading.timestamp
        events: list[VisionEvent] = []
        questions: list[str] = []
        by_unit: dict[str, list[Sighting]] = defaultdict(list)
        if reading.registered:
            for s in reading.sightings:
                by_unit[s.unit].append(s)
        present = set(by_unit)
        for unit, track in self.tracks.items():
            sightings = by_unit.get(unit, [])
            if not sightings:
                self._unseen(track, ts, events, keep_pending=reading.blurred)
                continue
            track.state.seen, track.state.last_seen, track.unseen_reported = True, ts, False
            places = sorted({s.space or "off the floor" for s in sightings})
            if len(sightings) > 1:
                track.pending = None
                track.state.doubt = f"seen in {len(sightings)} places: {', '.join(places)}"
                questions.append(f"unit {unit} is seen in {len(sightings)} places ({', '.join(places)}): "
                                 "is a sticker duplicated?")
                continue
            s = sightings[0]
            track.state.doubt, track.state.candidates = s.doubt, s.candidates
            if s.doubt is not None:
                track.pending = None
                questions.append(f"unit {unit}: {s.doubt}; place it squarely in one space")
                continue
            self._clean(track, s, ts, events, questions, present, reading.blurred)
        questions += self._crowded()
        self.observation = Observation(ts, reading.status, {u: t.state for u, t in self.tracks.items()},
                                       reading.unknown, tuple(questions), reading.view)
        return events

    def _unseen(self, track: _Track, ts: float, events: list[VisionEvent], keep_pending: bool = False) -> None:
        """A blurred frame that misses a unit says nothing about it: a move being confirmed stays pending."""
        track.state.seen = False
        if not keep_pending:
            track.pending = None
        last = track.state.last_seen
        if last is not None and not track.unseen_reported and ts - last >= self.settings.not_seen_seconds:
            track.unseen_reported = True
            events.append(UnitNotSeen(track.state.unit, track.state.space, ts - last))

    def _clean(self, track: _Track, s: Sighting, ts: float, events: list[VisionEvent], questions: list[str],
               present: set[str], blurred: bool = False) -> None:
        """A clean sighting. Only sharp frames count toward a move: a blurred one neither advances nor resets it.
        `present`: the units sighted in this frame."""
        st = track.state
        assert s.space is not None
        target = (s.space, s.facing)
        if target == (st.space, st.facing):
            track.pending, st.confidence = None, s.confidence
            return
        if blurred:
            return
        if track.pending != target:
            track.pending, track.pending_count, track.pending_since = target, 0, ts
        track.pending_count += 1
        if (track.pending_count < self.settings.confirm_frames
                or ts - track.pending_since < self.settings.confirm_seconds):
            return
        holder = next((t for t in self.tracks.values() if t is not track and t.state.space == s.space), None)
        if holder is not None and s.space != st.space:
            h = holder.state
            if h.unit in present or (h.last_seen is not None and h.last_seen >= track.pending_since):
                questions.append(f"units {h.unit} and {st.unit} both seem to be at {s.space}: move one of them")
                return
            # the holder's sticker was not seen once while this one was confirmed on its space (the same evidence
            # a move needs): it left (taken off the board) or lies under this chip; either way, not known where
            h.space, h.facing = None, None
        events.append(UnitSighted(st.unit, st.space, s.space, st.facing, s.facing))
        st.space, st.facing, st.confidence = s.space, s.facing, s.confidence
        track.pending = None

    def _crowded(self) -> list[str]:
        """Two units confirmed in one space (e.g. both placed at once) is a question, never a silent merge."""
        at: dict[str, list[str]] = defaultdict(list)
        for u, t in self.tracks.items():
            if t.state.space is not None:
                at[t.state.space].append(u)
        return [f"units {' and '.join(us)} are both at {space}: move one of them"
                for space, us in sorted(at.items()) if len(us) > 1]
