"""The shipped floors, missions, agents and captains at the end of a command's `--help`.

They are read from the content files only when the help is shown: a broken content file must not stop the
other commands (least of all `validate`, which is how one finds what is broken).
"""

from __future__ import annotations

import argparse

from controller.errors import UserError
from controller.library import load_content

SHIPPED = "(the shipped content)"  # a parser's epilog: replaced by the lists when the help is formatted


def shipped_lists() -> str:
    try:
        content = load_content()
    except UserError as e:
        return f"The shipped content does not load ({e}): check it with `burncycle-table validate FILE`."
    missions = []
    for m in content.missions.values():
        notes = [f"{m.floors} floors" if m.floors > 1 else "", "--level 1-3" if m.adaptable else ""]
        note = "; ".join(n for n in notes if n)
        missions.append(f"  {m.id:20} {m.name}{f' ({note})' if note else ''}")
    return "\n".join([
        "missions (--mission):", *missions,
        "agents (new-game --agents): " + ", ".join(f"{a.id} ({a.name})" for a in content.agents),
        "captains (--captain): " + ", ".join(content.captains),
        "floors (--floor, or a .floor file): " + ", ".join(sorted(content.floors)),
    ])


class ShippedContentHelp(argparse.RawDescriptionHelpFormatter):
    """Keeps the lists' lines as they are and fills them in only when `--help` asks for them."""

    def add_text(self, text: str | None) -> None:
        super().add_text(shipped_lists() if text == SHIPPED else text)
