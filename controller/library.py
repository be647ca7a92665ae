"""Reading content, floors and game states from files: the I/O the pure rules engine leaves to us.

Every failure becomes a UserError that names the file and what is wrong in it.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from importlib import resources
from pathlib import Path

import msgspec

from controller.errors import UserError
from controller.rules import Content, GameState, RulesError, check_state, compile_floor, decode_state, parse_content
from controller.rules.board.geometry import Floor
from controller.rules.content import FILES
from controller.rules.state import describe_validation_error

CONTENT = resources.files("controller.content")


def read_text(path: str | Path, what: str) -> str:
    """A user's text file, or a UserError saying why it cannot be read."""
    return _read(Path(path), what)


def _read(path: Path | resources.abc.Traversable, what: str) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")  # a byte-order mark (Notepad's UTF-8) is no content
    except FileNotFoundError:
        raise UserError(f"{path}: no such {what} file") from None
    except UnicodeDecodeError as e:
        raise UserError(f"{path}: not a text file ({e.reason} at byte {e.start})") from None
    except OSError as e:
        raise UserError(f"{path}: cannot read the {what} file: {e.strerror}") from None


def shipped_content_texts() -> dict[str, str]:
    """The text of each shipped content file, by file name."""
    return {name: _read(CONTENT / name, "content") for name in FILES}


def check_content_file(path: str | Path) -> None:
    """Validate one content file against the rest of the shipped set (so it can be checked on its own)."""
    path = Path(path)
    texts = shipped_content_texts()
    texts[path.name] = _read(path, "content")
    try:
        parse_content(texts)
    except RulesError as e:
        raise UserError(str(e).replace(path.name, str(path), 1)) from None


@lru_cache(maxsize=1)
def load_content() -> Content:
    """The content shipped with the package, with every floor it has."""
    content = parse_content(shipped_content_texts())
    content.floors = {p.name.removesuffix(".floor"): p.read_text(encoding="utf-8")
                      for p in (CONTENT / "floors").iterdir() if p.name.endswith(".floor")}
    return content


def floor_text(name_or_path: str) -> tuple[str, str]:
    """(text, source name) of a shipped floor by name, or of a floor file by path."""
    content = load_content()
    if name_or_path in content.floors:
        return content.floors[name_or_path], f"{name_or_path}.floor"
    path = Path(name_or_path)
    if path.suffix == ".floor" or path.exists():
        return _read(path, "floor"), str(path)
    raise UserError(f"unknown floor {name_or_path!r}: give a floor file's path or one of "
                    f"{', '.join(sorted(content.floors))}")


def load_floor(name_or_path: str) -> Floor:
    text, source = floor_text(name_or_path)
    return compile_floor(text, source)


def floor_summary(floor: Floor) -> str:
    """What `validate` says of a floor that compiles (the dashboard's floor editor says the same)."""
    counts = ", ".join(_counted(len(things), word) for things, word in
                       ((floor.ids, "space"), (floor.areas, "area"), (floor.doors, "door")))
    return f"valid floor {floor.name!r}, level {floor.level}: {counts}"


def _counted(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def load_state(path: str | Path) -> GameState:
    """Read and check a state file; any problem is a UserError naming the file and the field."""
    path = Path(path)
    text = _read(path, "state")
    try:
        state = decode_state(text)
    except msgspec.ValidationError as e:
        field, message = describe_validation_error(e)
        raise UserError(f"{path}: {field}: {message}" if field else f"{path}: {message}") from None
    except msgspec.DecodeError as e:
        raise UserError(f"{path}: not valid JSON: {_json_error(text) or e}") from None
    try:
        check_state(state)
    except RulesError as e:
        raise UserError(f"{path}: {e}") from None
    return state


def _json_error(text: str) -> str | None:
    try:
        json.loads(text)
    except json.JSONDecodeError as e:
        return f"{e.msg} at line {e.lineno}, column {e.colno}"
    return None


def write_atomically(path: str | Path, data: bytes) -> None:
    """Write a whole file or nothing: a crash mid-write (or a full disk) never leaves half a file behind."""
    with atomic_output(path) as tmp:
        tmp.write_bytes(data)


@contextmanager
def atomic_output(path: str | Path) -> Iterator[Path]:
    """A temporary file for a writer that wants a file name (the PDF library), moved to `path` when the block
    ends and removed when it fails, so a regular file is whole or absent.

    The rename only ever replaces a regular file (or nothing): a symlink is followed to its target (the link
    stays a link), and a character device or a FIFO (`/dev/stdout`, a pipe to `lp`) is written into directly
    instead of being replaced by a file, which as root would have swapped `/dev/full` for a PDF. Anything else
    (a block device, a socket) is refused. A write that fails (no space left) is a UserError naming the path."""
    if not str(path).strip():
        raise UserError("an output file name is empty: give a path such as game.json")
    path = Path(path)
    kind = _output_kind(path)
    target = Path(os.path.realpath(path)) if kind == "file" else path
    tmp = (target.with_name(f".{target.name}.tmp") if kind == "file"
           else Path(tempfile.gettempdir()) / f".burncycle-{os.getpid()}-{target.name}.tmp")
    try:
        yield tmp
        if kind == "file":
            tmp.replace(target)
        else:
            with open(path, "wb") as stream:  # a device or a pipe: its own bytes, never a rename over it
                stream.write(tmp.read_bytes())
    except OSError as e:
        raise UserError(f"{path}: cannot write: {e.strerror or e}") from None
    finally:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass  # the temporary file was never made (its folder is missing or is a file)


def _output_kind(path: Path) -> str:
    """'file' for a regular file, a symlink to one or a name not taken yet; 'stream' for a character device or
    a FIFO; otherwise a UserError saying what the path is."""
    try:
        mode = path.stat().st_mode  # follows symlinks: a link is judged by what it points at
    except FileNotFoundError:
        return "file"
    except OSError as e:
        raise UserError(f"{path}: cannot write: {e.strerror or e}") from None
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return "stream"
    if stat.S_ISDIR(mode):
        raise UserError(f"{path}: is a folder; give a file name inside it")
    raise UserError(f"{path}: is not a file, a terminal or a pipe (a block device or a socket); give a file name")
