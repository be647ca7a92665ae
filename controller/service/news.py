"""The table's news: what the live feed is told may have changed, so it looks again only then.

Four things make news: the session accepted a change ("change"), a component's health changed or the table
became ready ("health"), a camera frame left a different table view, the reconciler's write landed or a door
sensor said something new ("table"), the game relit the LEDs ("leds"). Each is announced here once, for every
listener, from the thread where it happened (the writer's, the loop's, the camera's): a listener only wakes its
reader, never waits.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from controller.service.camera.component import CameraComponent
from controller.service.camera.reconciler import Reconciler
from controller.service.camera.reconciler_view import ReconcilerView
from controller.service.frame.supervisor import Supervisor

News = Literal["change", "health", "table", "leds"]


class NewsBus:
    """The listeners of one table, and the parts that announce news of themselves (`hear`)."""

    def __init__(self) -> None:
        self._listeners: list[Callable[[News], object]] = []
        self._hearing = False
        self._last_view: ReconcilerView | None = None  # the table view the last camera frame showed

    def listen(self, callback: Callable[[News], object]) -> Callable[[], None]:
        """Call `callback(news)` at each piece of news; returns the function that stops the listening."""
        self._listeners.append(callback)
        return lambda: self._listeners.remove(callback) if callback in self._listeners else None

    def announce(self, news: News) -> None:
        for callback in list(self._listeners):
            callback(news)

    def hear(self, supervisor: Supervisor, camera: CameraComponent | None, view: Callable[[], ReconcilerView],
             reconciler: Reconciler | None) -> None:
        """Listen, once, to every component's health, to the camera's frames and to the reconciler: a frame is
        news when the table `view` it leaves differs from the last frame's (the camera films 30 frames a second;
        the view seldom changes); the reconciler's news is a write of its that landed (a reader meanwhile was
        given the view from before it)."""
        if self._hearing:
            return
        self._hearing = True
        supervisor.listen(lambda _: self.announce("health"))
        if camera is not None:
            camera.on_frame(lambda _: self._framed(view))
        if reconciler is not None:
            reconciler.on_news(lambda: self.announce("table"))

    def _framed(self, view: Callable[[], ReconcilerView]) -> None:
        """A camera frame, on the camera's thread, once the reconciler has taken it in."""
        if not self._listeners:
            return
        now = view()
        if now != self._last_view:
            self._last_view = now
            self.announce("table")
