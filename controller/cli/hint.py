"""`burncycle-table hint STATE`: what the table would do here, with each action's chance to win and why.

The search (controller/autoplay/search) weighs the players' decision at a saved state over sampled futures it
cannot see; the same state, seed and iteration budget give the same hint. JSON by default (the actions ready
for `act`), human lines with --text.
"""

from __future__ import annotations

import argparse
import json
import sys

import msgspec

from controller.cli.arg_types import positive, seconds, whole
from controller.errors import UserError
from controller.library import load_state


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("hint", help="the search's best three actions for the players at a saved game",
                       epilog="Each action comes with its estimated chance to win (a 95%% band) over sampled "
                              "futures and one sentence saying why. The same state, --seed and --iterations give "
                              "the same hint; --budget only cuts the search short.")
    p.add_argument("state", help="the state file")
    p.add_argument("--budget", type=seconds, default=None, metavar="S",
                   help="at most this many seconds of search (default: the iteration budget alone)")
    p.add_argument("--iterations", type=positive, default=None, metavar="N",
                   help="rollouts to spend (default 60: about 1.5 s on this machine)")
    p.add_argument("--seed", type=whole, default=0, help="the search's own seed (default 0)")
    p.add_argument("--text", action="store_true", help="one line per action for people instead of JSON")
    p.set_defaults(run=_hint)


def _hint(args: argparse.Namespace) -> int:
    from controller.autoplay.search import hint  # the search loads the auto-player: only this command needs it
    from controller.autoplay.search.tuning import HINT_ITERATIONS

    state = load_state(args.state)
    try:
        found = hint(state, seconds=args.budget, iterations=args.iterations or HINT_ITERATIONS, seed=args.seed)
    except ValueError as e:
        raise UserError(f"{args.state}: {e}") from None
    if args.text:
        for k, action in enumerate(found.actions, 1):
            print(f"{k}. {action.reason} (band {round(100 * action.low)}-{round(100 * action.high)}%, "
                  f"{action.futures} futures)")
            print(f"   {msgspec.json.encode(action.action).decode()}")
        if not found.searched:
            print("(the only sensible action: nothing to weigh)")
        return 0
    json.dump(json.loads(msgspec.json.encode(found)), sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0
