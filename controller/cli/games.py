"""`burncycle-table games list|export|import`: the game log's past games, and moving a game between tables.

The table service keeps every game in its SQLite log (table.toml's `database.path`). These commands read and
write that file directly, so run them while the service is stopped (SQLite's lock refuses a second writer
with a message), or on a copy. An exported game is its game record: the start state and every action with its
dice, which `import` replays and checks against its digests before it becomes the table's current game.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path

from controller.cli.arg_types import positive
from controller.errors import UserError
from controller.library import write_atomically


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("games", help="list the game log's games, export one to a file, import one")
    p.add_argument("--config", default=None, help="the table's config, for its database.path")
    p.add_argument("--db", default=None, help="the game log file itself (instead of --config)")
    games = p.add_subparsers(dest="games_command", required=True, metavar="list|export|import")
    games.add_parser("list", help="every game in the log, the current one marked")
    e = games.add_parser("export", help="one game's record as one JSON file")
    e.add_argument("--game", type=positive, default=None, help="the game's number (default: the current game)")
    e.add_argument("--out", required=True, help="the file to write")
    i = games.add_parser("import", help="a game exported by any table, replayed and checked, made current")
    i.add_argument("file", help="the exported game")
    p.set_defaults(run=run_games)


def _log_path(args: argparse.Namespace) -> str:
    """The game log the command reads: --db, else the config's database.path (one must be there)."""
    from controller.service.frame.config import load_config

    path = args.db or str(load_config(args.config).database.path)
    if args.db is None and args.config is None and not Path(path).exists():
        raise UserError(f"{path}: no game log here; give --db FILE or --config table.toml")
    return path


def run_games(args: argparse.Namespace) -> int:
    from controller.service.game.session import GameSession

    path = _log_path(args)
    session = GameSession.open(path)
    try:
        if args.games_command == "list":
            for g in session.games():
                when = datetime.fromtimestamp(g["created"]).strftime("%Y-%m-%d %H:%M")
                print(f"{'*' if g['current'] else ' '} {g['id']:>4}  {when}  {g['title']}")
            return 0
        if args.games_command == "export":
            if args.game is not None and args.game not in {g["id"] for g in session.games()}:
                raise UserError(f"there is no game {args.game} in {session.path} (see `games list`)")
            data = session.export_game(args.game)
            write_atomically(args.out, data)
            print(f"wrote game {args.game or session.game_id} to {args.out}", file=sys.stderr)
            return 0
        try:
            data = Path(args.file).read_bytes()
        except OSError as err:
            raise UserError(f"{args.file}: cannot read it: {err.strerror}") from None
        change = session.import_game(data)
        print(f"imported {args.file} as game {change.game}, now the table's current game", file=sys.stderr)
        return 0
    finally:
        session.close()
