"""Command-line tools for the game itself: new-game, corp-turn, validate, schema."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from controller.cli import arg_types
from controller.cli.shipped_help import SHIPPED, ShippedContentHelp
from controller.cli.typed_rolls import ROLLS_HELP, checked_run
from controller.errors import UserError
from controller.library import (
    check_content_file,
    floor_summary,
    floor_text,
    load_content,
    load_floor,
    load_state,
    write_atomically,
)
from controller.rules import (
    DIFFICULTIES,
    CorporationTurn,
    GameSetup,
    GameState,
    RulesError,
    SeededDice,
    apply,
    check_setup,
    check_state,
    compile_floor,
    encode_events,
    encode_state,
    new_game,
    phrase,
    schema,
)
from controller.rules.content import FILES


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("new-game", help="set up a new game and write its state", epilog=SHIPPED,
                       formatter_class=ShippedContentHelp)
    p.add_argument("--floor", default="meridian-lobby",
                   help="a shipped floor's name or a .floor file (a mission of several floors: its first)")
    p.add_argument("--players", type=arg_types.positive, default=2, help="1 to 4")
    p.add_argument("--difficulty", default="standard", choices=DIFFICULTIES)
    p.add_argument("--captain", default="fauxbia", help="a captain (listed below)")
    p.add_argument("--mission", default="data-heist", help="a mission's id (listed below)")
    p.add_argument("--agents", help="comma-separated agent ids (listed below; default: the first N)")
    p.add_argument("--level", type=arg_types.positive, help="Adaptable missions: the level to play (1-3)")
    p.add_argument("--start", type=arg_types.start_spaces, metavar="BOT=SPACE,...",
                   help="where bots start when the rules let the team choose (safe zone spaces), e.g. "
                        "byte=Q3,casing=D15; a bot not named takes the first free space in reading order")
    p.add_argument("--seed", type=arg_types.whole, default=0)
    p.add_argument("--out", help="write the state here (default: print it)")
    p.set_defaults(run=_new_game)

    p = sub.add_parser("corp-turn", help="resolve one corporation turn of a saved game")
    p.add_argument("state", help="the state file")
    dice = p.add_mutually_exclusive_group()
    dice.add_argument("--seed", type=arg_types.whole, help="roll virtual dice from this seed (default: the game's own)")
    dice.add_argument("--rolls", help=ROLLS_HELP + "; e.g. threat,ceo+transfer")
    p.add_argument("--out", help="write the new state here")
    p.add_argument("--text", action="store_true", help="print instructions for the players instead of JSON")
    p.set_defaults(run=_corp_turn)

    p = sub.add_parser("validate", help="check a floor, state or content file")
    p.add_argument("file")
    p.set_defaults(run=_validate)

    p = sub.add_parser("schema", help="print the JSON Schema of the state, an action or an event (with its version)")
    p.add_argument("what", choices=["state", "action", "event"])
    p.set_defaults(run=lambda args: print(json.dumps(schema(args.what), indent=2)) or 0)


def _rules(call):
    try:
        return call()
    except RulesError as e:
        raise UserError(str(e)) from None


def agents_option(text: str | None) -> list[str] | None:
    """`--agents byte,casing`: the agents named, in turn order (`start_game` checks them with the other choices)."""
    return None if text is None else [a.strip() for a in text.split(",")]


def game_setup(args: argparse.Namespace, text: str, source: str, seed: int, agents: list[str] | None) -> GameSetup:
    """The setup the options new-game and selfplay share choose (each GameSetup field is the option of its name)."""
    return GameSetup(floor=source, floor_text=text, mission=args.mission, level=args.level, players=args.players,
                     agents=agents, difficulty=args.difficulty, captain=args.captain, seed=seed, start=args.start)


def start_game(args: argparse.Namespace, text: str, source: str, seed: int, agents: list[str] | None) -> GameState:
    """new_game from the options new-game and selfplay share. Every choice is checked first by the engine's
    `check_setup`, each problem named by its option (an agent played twice would make two bots of one id). The
    engine names a floor by its title ("Example annex has 1 free entrance space for 2 bots"); a person fixing a
    custom floor needs its file, so both are named."""
    setup = game_setup(args, text, source, seed, agents)
    content = load_content()
    problems = check_setup(content, setup)
    if problems:  # each GameSetup field is the option of the same name
        raise UserError("; ".join(f"--{p.field}: {p}" for p in problems))
    try:
        return new_game(content, setup)
    except RulesError as e:
        message = str(e)
        try:
            title = compile_floor(text, source).name
        except RulesError:
            title = ""
        if title and title in message and not message.startswith(source):
            message = message.replace(title, f"{source} ({title})", 1)
        raise UserError(message) from None


def _new_game(args: argparse.Namespace) -> int:
    text, source = floor_text(args.floor)
    agents = agents_option(args.agents)
    state = start_game(args, text, source, args.seed, agents)
    _rules(lambda: check_state(state))  # what new-game writes, validate accepts
    data = encode_state(state)
    if args.out is not None:
        write_atomically(args.out, data)
        floors = f", floor 1 of {state.mission.floors}" if state.mission.floors > 1 else ""
        team = ", ".join(b.name for b in state.bots if b.kind == "agent")
        players = f"{args.players} {'player' if args.players == 1 else 'players'}"
        print(f"new game of {state.mission.name} on {state.floor.name} (level {state.floor.level}{floors}), "
              f"{players} ({team}), {args.difficulty}: {len(state.security)} security units; "
              f"state written to {args.out}")
    else:
        sys.stdout.write(data.decode() + "\n")
    return 0


def _corp_turn(args: argparse.Namespace) -> int:
    state = load_state(args.state)
    if args.rolls is not None:
        new, events = _rules(lambda: checked_run(args.rolls, SeededDice(state.seed, state.rolls),
                                                 lambda dice: apply(state, CorporationTurn(), dice)))
    else:
        dice = None if args.seed is None else SeededDice(args.seed)
        new, events = _rules(lambda: apply(state, CorporationTurn(), dice))
    if args.out is not None:
        write_atomically(args.out, encode_state(new))
    if args.text:
        for ev in events:
            print(phrase(ev, new))
        if args.out is not None:
            print(f"(new state written to {args.out})")
    else:
        sys.stdout.write(encode_events(events).decode() + "\n")
    return 0


def _validate(args: argparse.Namespace) -> int:
    path = Path(args.file)
    if path.name in FILES:
        check_content_file(path)
        print(f"{path}: valid {path.stem.replace('_', ' ')} file")
        return 0
    if path.suffix == ".floor":
        floor = _rules(lambda: load_floor(str(path)))
        print(f"{path}: {floor_summary(floor)}")
        return 0
    if path.suffix == ".json":
        state = load_state(path)
        print(f"{path}: valid game state, round {state.round}, threat {state.threat}")
        return 0
    raise UserError(f"{path}: cannot tell what kind of file this is; validate takes a .floor file, a state "
                    f".json file or one of the content files ({', '.join(FILES)})")
