"""`burncycle-table init`: the commands that set up and run the table service.

`init` writes the commented starter table.toml, made from the config model, so the file a builder
starts from names every key, its default and the environment variable that overrides it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from controller.errors import UserError
from controller.service.config_text import starter_toml


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("init", help="write a commented starter table.toml")
    p.add_argument("--out", default="table.toml", help="where to write it (default: table.toml here)")
    p.add_argument("--force", action="store_true", help="replace a file that is already there")
    p.set_defaults(run=run_init)


def run_init(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if out.exists() and not args.force:
        raise UserError(f"{out}: already exists; keep it, or replace it with --force")
    try:
        with open(out, "w" if args.force else "x", encoding="utf-8") as f:
            f.write(starter_toml())
    except FileExistsError:
        raise UserError(f"{out}: already exists; keep it, or replace it with --force") from None
    except OSError as err:
        raise UserError(f"{out}: cannot write the config file: {err.strerror}") from None
    print(f"wrote {out}: edit it, then start the table with burncycle-table run --config {out}", file=sys.stderr)
    return 0
