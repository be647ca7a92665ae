"""`burncycle-table selfplay`: a player plays N seeded games and the figures are printed; with `--against`, a
second player plays the same seeds and the two are compared game by game.

The games are played by controller.autoplay.evaluation (here, in `--jobs` processes, or on a Dask cluster with
`--cluster`); this module reads the options, narrates, shows the progress and prints the figures.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from controller.cli import arg_types
from controller.cli.game import agents_option, game_setup, start_game
from controller.cli.shipped_help import SHIPPED, ShippedContentHelp
from controller.errors import UserError
from controller.library import floor_text
from controller.rules import DIFFICULTIES

if TYPE_CHECKING:  # the players and their evaluation are imported when the command runs
    from controller.autoplay.evaluation import Figures, GameJob, GameResult, Paired
    from controller.autoplay.players import PlayerSettings


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("selfplay", help="play N full seeded games with a player and print the results",
                       epilog=SHIPPED, formatter_class=ShippedContentHelp)
    p.add_argument("--games", type=arg_types.positive, default=20)
    p.add_argument("--seed", type=arg_types.whole, default=0, help="game k is played with seed S+k")
    p.add_argument("--floor", default="meridian-lobby")
    p.add_argument("--mission", default="data-heist")
    p.add_argument("--level", type=arg_types.positive, help="Adaptable missions: the level to play (1-3)")
    p.add_argument("--players", type=arg_types.positive, default=2)
    p.add_argument("--difficulty", default="standard", choices=DIFFICULTIES)
    p.add_argument("--captain", default="fauxbia")
    p.add_argument("--start", type=arg_types.start_spaces, metavar="BOT=SPACE,...",
                   help="where bots start when the rules let the team choose, the same in every game (default: "
                        "the auto-player's choice)")
    agents = p.add_argument("--agents", help="comma-separated agent ids (default: the auto-player's team, "
                                             "the first N of %(team)s)")
    agents.team = arg_types.LazyChoices(_team)
    p.add_argument("--player", default="heuristic", metavar="NAME", choices=arg_types.player_choices(),
                   help="who plays: one of %(choices)s (default heuristic)")
    p.add_argument("--against", metavar="NAME", choices=arg_types.player_choices(),
                   help="a second player plays the same seeds: both are printed, and the games one won and the "
                        "other lost, each way")
    p.add_argument("--budget", type=arg_types.seconds, metavar="SECONDS",
                   help="a search's time per decision (a heuristic ignores it); with --iterations, whichever "
                        "ends first")
    p.add_argument("--iterations", type=arg_types.positive, metavar="N",
                   help="a search's iterations per decision (a heuristic ignores it)")
    p.add_argument("--jobs", type=arg_types.positive, default=1, metavar="N",
                   help="games played at once, each in its own process (default 1); the figures are the same "
                        "for any N")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="play the games on a Dask scheduler (tcp://HOST:8786), or `local` for a cluster of "
                        "--jobs processes on 127.0.0.1; needs the cluster extra (pip install "
                        "'burncycle-table[cluster]')")
    p.add_argument("--json", action="store_true", help="print the figures as JSON, for scripts")
    p.add_argument("--narrate", action="store_true",
                   help="print every game as it is played: each event as an instruction to the players, and the "
                        "player's reason for its choice when it gives one")
    p.set_defaults(run=_selfplay)


def _team() -> list[str]:
    from controller.autoplay.player import TEAM

    return list(TEAM)


def _selfplay(args: argparse.Namespace) -> int:
    from controller.autoplay.evaluation import figures, game_jobs, paired
    from controller.autoplay.player import team
    from controller.autoplay.players import PlayerSettings

    _refuse_mixed_options(args)
    text, source = floor_text(args.floor)
    agents = agents_option(args.agents) or team(args.players)
    first = start_game(args, text, source, args.seed, agents)  # every choice checked before a game is played
    setup = game_setup(args, text, source, args.seed, agents)
    seeds = range(args.seed, args.seed + args.games)
    settings = PlayerSettings(iterations=args.iterations, seconds=args.budget)
    contestants = [args.player] + ([args.against] if args.against else [])
    jobs = [job for name in contestants for job in game_jobs(setup, seeds, name, settings)]
    results = [_narrated(job, k + 1) for k, job in enumerate(jobs)] if args.narrate else _played(jobs, args)
    each = [figures(name, settings, results[k * args.games:(k + 1) * args.games])
            for k, name in enumerate(contestants)]
    pair = paired(each[0], each[1]) if len(each) == 2 else None
    names = ", ".join(b.name for b in first.bots if b.kind == "agent")
    players = f"{args.players} {'player' if args.players == 1 else 'players'}"
    heading = (f"{args.games} {'game' if args.games == 1 else 'games'} of {args.mission} on {args.floor}, "
               f"{players} ({names}), {args.difficulty}, seeds {seeds[0]}-{seeds[-1]}")
    if args.json:
        json.dump(_as_json(args, agents, each, pair), sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        print(heading)
        for k, one in enumerate(each):
            if k:
                print()
            print("\n".join(_figure_lines(one)))
        if pair is not None:
            print()
            print(_pair_line(pair))
    return 0


def _refuse_mixed_options(args: argparse.Namespace) -> None:
    if args.budget == 0:
        raise UserError("selfplay: --budget must be more than 0 seconds")
    if args.narrate:
        mixed = [option for option, given in (("--against", args.against), ("--jobs", args.jobs > 1),
                                              ("--cluster", args.cluster), ("--json", args.json)) if given]
        if mixed:
            raise UserError(f"selfplay: --narrate tells one player's games in order, here; leave out {mixed[0]}")


def _played(jobs: list[GameJob], args: argparse.Namespace) -> list[GameResult]:
    from controller.autoplay.evaluation import ClusterError, run_games

    with _progress(len(jobs)) as tick:
        try:
            return run_games(jobs, workers=args.jobs, cluster=args.cluster, on_done=tick)
        except ClusterError as err:
            raise UserError(f"selfplay --cluster {args.cluster}: {err}") from None


@contextmanager
def _progress(total: int) -> Iterator[Callable[[], None]]:
    """A progress bar on stderr while the games are played, when stderr is a terminal (never in a pipe or a log)."""
    if not sys.stderr.isatty():
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("games", total=total)
        yield lambda: bar.advance(task)


def _narrated(job: GameJob, number: int) -> GameResult:
    """Play the job's game here, printing each event as an instruction (and the player's reasons, if it gives
    them); the result is the one `play_one` gives for the same job."""
    from controller.autoplay.evaluation import TimedPlayer, player_for, reason_of, result_of, start_of
    from controller.autoplay.player import play
    from controller.rules import phrase

    state = start_of(job)
    player = player_for(job)
    timed = TimedPlayer(player)
    print(f"== game {number}: {state.mission.name} on {state.floor.name}, "
          f"seed {job.setup.seed}")
    final, round_ = state, 0
    for _, events, final in play(state, timed):
        if final.round != round_ and final.outcome is None:
            round_ = final.round
            print(f"-- round {round_}: threat {final.threat} --")
        reason = reason_of(player)
        if reason is not None:
            print(f"Why: {reason}")
        for event in events:
            print(phrase(event, final))
    print(f"== {final.outcome or 'unfinished'}")
    print()
    return result_of(job.setup.seed, final, timed.decisions)


def _settings_text(settings: PlayerSettings) -> str:
    limits = ([f"{settings.iterations} iterations"] if settings.iterations is not None else []) + (
        [f"{settings.seconds:g} s"] if settings.seconds is not None else [])
    return f" (up to {' or '.join(limits)} a decision)" if limits else ""


def _figure_lines(one: Figures) -> list[str]:
    low, high = one.interval
    lines = [f"player: {one.player}{_settings_text(one.settings)}",
             f"win rate: {one.win_rate:.1%} ({one.wins} of {one.games}); 95% interval {low:.1%}-{high:.1%}",
             f"average rounds: {one.average_rounds:.1f}; average threat at the end: {one.average_threat:.1f}"]
    lines += [f"  {n:4d}  victory: {text}" for text, n in one.victories.items()]
    lines.append("causes of defeat:" if one.defeats else "causes of defeat: none")
    lines += [f"  {d.games:4d}  {d.text} (round {d.average_round:.1f} on average)" for d in one.defeats]
    lines.append(f"decision times: median {_duration(one.median_decision)}, p99 {_duration(one.p99_decision)} "
                 f"over {one.decisions} decisions")
    return lines


def _pair_line(pair: Paired) -> str:
    return (f"paired on the same {pair.games} seeds: {pair.first} won {pair.first_only} that {pair.second} lost, "
            f"{pair.second} won {pair.second_only} that {pair.first} lost (both won {pair.both}, neither "
            f"{pair.neither}); difference {pair.difference * 100:+.1f} points, McNemar's exact p = "
            f"{pair.p_value:.3g}")


def _duration(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 0.01:
        return f"{seconds * 1000:.0f} ms"
    return f"{seconds * 1000:.2f} ms"


def _as_json(args: argparse.Namespace, agents: list[str], each: list[Figures], pair: Paired | None) -> dict:
    """The figures for scripts: times in seconds, each game by seed (its decisions counted, not listed)."""
    import msgspec

    players = []
    for one in each:
        data = msgspec.to_builtins(one)
        data["results"] = [{**msgspec.to_builtins(r), "decisions": len(r.decisions)} for r in one.results]
        players.append(data)
    return {"games": args.games, "mission": args.mission, "floor": args.floor, "level": args.level,
            "players": args.players, "agents": agents, "difficulty": args.difficulty,
            "captain": args.captain, "seeds": [args.seed, args.seed + args.games - 1], "figures": players,
            "paired": None if pair is None else msgspec.to_builtins(pair)}
