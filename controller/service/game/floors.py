"""The table's floors: the shipped ones and the ones its people drew in the dashboard's floor editor.

People at a table own mats this project does not ship, so they draw them (docs/floor-format.md) and save them
here, one `NAME.floor` file each in the `floors` folder beside the game log (so a table's games and floors
travel together). A floor is checked with the `validate` command's own code before it is saved, so a saved
floor always compiles; a name is a short lowercase word, so a name can never reach outside the folder; the
file is written whole or not at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from controller.errors import UserError
from controller.library import floor_summary, read_text, write_atomically
from controller.rules import Floor, FloorError, compile_floor
from controller.rules.errors import BurncycleError
from controller.service.views import FloorChecked, FloorListed

NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")  # whole names only (fullmatch: `$` would let "name\n" pass)
NAME_PATTERN = rf"^{NAME.pattern}$"  # the same as a JSON schema's pattern (ECMA's `$` is the end of the text)
NAME_RULE = "a floor's name is 1 to 40 lowercase letters, digits and dashes, starting with a letter or digit"
MOST_CHARS = 20_000  # the largest shipped floor is under 2,000 characters; a 26 x 26 floor is ~4,000


class FloorLibraryError(BurncycleError):
    """A floor that cannot be saved: a bad or shipped name, a floor that does not compile."""

    code = "bad_request"


class FloorDoesNotCompile(FloorLibraryError):
    """A floor's text that does not compile: the message is `validate`'s, naming the line and column."""

    code = "floor_error"


class NameTaken(FloorLibraryError):
    """A floor saved under a shipped floor's name: the shipped floors' names are the content's."""

    code = "name_taken"


class NoSuchFloor(FloorLibraryError):
    """A floor asked for by a name that is neither shipped nor saved (nor could be)."""

    code = "not_found"


@dataclass(frozen=True)
class FloorCheck:
    """What `validate` says of a floor's text: `ok`, its one-line `message`, and the compiled floor if it is."""

    ok: bool
    message: str
    floor: Floor | None = None

    def view(self) -> FloorChecked:
        if self.floor is None:
            return FloorChecked(ok=self.ok, message=self.message)
        return FloorChecked(ok=self.ok, message=self.message, title=self.floor.name, level=self.floor.level,
                            rows=self.floor.rows, cols=self.floor.cols, spaces=len(self.floor.ids),
                            areas=len(self.floor.areas), doors=len(self.floor.doors))


def check_floor(text: str, name: str = "floor") -> FloorCheck:
    """The floor as `burncycle-table validate NAME.floor` sees it: the same messages, file line and column."""
    source = f"{name}.floor"
    if len(text) > MOST_CHARS:
        return FloorCheck(False, f"{source}: {len(text)} characters, at most {MOST_CHARS} are read: is this a "
                                 "floor drawing?")
    try:
        floor = compile_floor(text, source)
    except FloorError as e:
        return FloorCheck(False, str(e))
    return FloorCheck(True, f"{source}: {floor_summary(floor)}", floor)


class FloorLibrary:
    """The shipped floors (read-only) and the saved ones in `folder` (made when the first is saved)."""

    def __init__(self, folder: Path, shipped: dict[str, str]) -> None:
        self.folder = folder
        self.shipped = shipped

    def _path(self, name: str) -> Path:
        if not NAME.fullmatch(name):
            raise FloorLibraryError(f"floor name {name[:60]!r}: {NAME_RULE}")
        path = (self.folder / f"{name}.floor").resolve()
        if path.parent != self.folder.resolve():  # the pattern already forbids it; a second lock on the door
            raise FloorLibraryError(f"floor name {name[:60]!r}: {NAME_RULE}")
        return path

    def saved(self) -> list[str]:
        if not self.folder.is_dir():
            return []
        return sorted(p.stem for p in self.folder.glob("*.floor") if NAME.fullmatch(p.stem) and p.is_file())

    def checked(self) -> list[tuple[str, Literal["shipped", "saved"], FloorCheck]]:
        """Every floor a game may start on: name, where it comes from, and what `validate` says of it (with the
        compiled floor, unless a saved file was edited by hand after it was saved and no longer compiles)."""
        sources: tuple[tuple[Literal["shipped", "saved"], list[str]], ...] = (
            ("shipped", sorted(self.shipped)), ("saved", self.saved()))
        return [(name, source, check_floor(self.text(name), name)) for source, names in sources for name in names]

    def listing(self) -> list[FloorListed]:
        """Every floor a game may start on: name, where it comes from, and its title, size and level."""
        out: list[FloorListed] = []
        for name, source, check in self.checked():
            if check.floor is not None:
                out.append(FloorListed(name=name, source=source, title=check.floor.name, level=check.floor.level,
                                       cols=check.floor.cols, rows=check.floor.rows))
            else:
                out.append(FloorListed(name=name, source=source, problem=check.message))
        return out

    def source(self, name: str) -> Literal["shipped", "saved"]:
        if name in self.shipped:
            return "shipped"
        if NAME.fullmatch(name) and self._path(name).is_file():
            return "saved"
        known = ", ".join(sorted(self.shipped) + self.saved())
        raise NoSuchFloor(f"there is no floor {name[:60]!r}: the floors are {known}")

    def text(self, name: str) -> str:
        """A floor's text by name: a shipped floor, else a saved one."""
        if self.source(name) == "shipped":
            return self.shipped[name]
        try:
            return read_text(self._path(name), "floor")
        except UserError as e:
            raise FloorLibraryError(str(e)) from None

    def save(self, name: str, text: str) -> FloorCheck:
        """Check the floor as `validate` does and save it as NAME.floor; a broken floor is refused whole."""
        path = self._path(name)
        if name in self.shipped:
            raise NameTaken(f"floor name {name!r} is a shipped floor's: choose another name for yours")
        check = check_floor(text, name)
        if not check.ok:
            raise FloorDoesNotCompile(check.message)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise FloorLibraryError(f"{self.folder}: cannot make the floors folder: {e.strerror}") from None
        try:
            write_atomically(path, text.encode("utf-8"))
        except UserError as e:
            raise FloorLibraryError(str(e)) from None
        return check
