"""The demo's scratch folder (its game log), named for the process that owns it.

`demo` keeps its game log in a temporary folder it removes when it stops; one killed (SIGKILL, a power cut)
never gets to, and each left a `burncycle-demo-*` folder behind in /tmp. The folder's name carries its owner's
process id, so the next demo clears the folders whose owner is gone, and only those: a demo still running
keeps its own. A folder named before owners were (no process id in its name) is cleared only when empty, as
every one a killed demo of that version left was: there is nothing in it to lose.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

PREFIX = "burncycle-demo-"
OWNED = re.compile(rf"{PREFIX}(\d+)-.+")


def demo_folder() -> tempfile.TemporaryDirectory[str]:
    """A new scratch folder for this demo, named for this process; stale ones are cleared first."""
    clear_stale(Path(tempfile.gettempdir()))
    return tempfile.TemporaryDirectory(prefix=f"{PREFIX}{os.getpid()}-")


def clear_stale(root: Path) -> list[Path]:
    """Remove the demo folders in `root` whose owner process is gone; returns them."""
    cleared = []
    for folder in root.glob(f"{PREFIX}*"):
        owner = OWNED.fullmatch(folder.name)
        if not folder.is_dir() or folder.is_symlink():
            continue
        if owner is None:
            if not any(folder.iterdir()):
                folder.rmdir()
                cleared.append(folder)
            continue
        if _alive(int(owner.group(1))):
            continue
        shutil.rmtree(folder, ignore_errors=True)
        cleared.append(folder)
    return cleared


def _alive(pid: int) -> bool:
    """Whether a process `pid` runs (signal 0 only asks)."""
    try:
        os.kill(pid, 0)
    except PermissionError:  # another user's process: alive
        return True
    except (ProcessLookupError, OverflowError):  # none by that id, or an id no process can have
        return False
    return True
