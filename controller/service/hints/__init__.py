"""Hints and the threat overlay for the table's players: the search's thinking in a worker process, never on the
event loop or the session's writer (desk.py, `HintDesk`); what it answers is a typed view of
controller/service/views.py (`HintView`)."""

from controller.service.hints.desk import HintDesk, attach

__all__ = ["HintDesk", "attach"]
