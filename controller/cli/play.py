"""Command-line tools for playing: `act` applies one action, `actions` lists the legal ones (`selfplay`, whole
games by a player: controller/cli/selfplay.py)."""

from __future__ import annotations

import argparse
import json
import sys

import msgspec

from controller.cli.typed_rolls import ROLLS_HELP, checked_run
from controller.errors import UserError
from controller.library import load_state, read_text, write_atomically
from controller.rules import (
    LegalAction,
    RulesError,
    SeededDice,
    apply,
    decode_action,
    encode_events,
    encode_state,
    legal_actions,
    phrase,
)
from controller.rules.actions import STEPS
from controller.rules.state import describe_validation_error

ACTION_NAMES = [str(kind.__struct_config__.tag) for kind in STEPS]
ACTION_TYPES = {str(kind.__struct_config__.tag): kind for kind in STEPS}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("act", help="apply one player action to a saved game",
                       epilog=f"actions: {', '.join(ACTION_NAMES)} (the fields of each: docs in README.md, "
                              f"or list the legal ones with `actions STATE`)")
    p.add_argument("state", help="the state file")
    p.add_argument("action", help="the action: a JSON file, or inline JSON such as '{\"action\": \"pass\"}'")
    p.add_argument("--rolls", help=ROLLS_HELP)
    p.add_argument("--out", help="write the new state here (default: print it after the events)")
    p.add_argument("--text", action="store_true", help="print instructions for the players instead of JSON")
    p.set_defaults(run=_act)

    p = sub.add_parser("actions", help="list the legal actions of the active player",
                       epilog="On a finished game no action is legal: it says so (on stderr with the JSON's empty "
                              "list, on stdout with --text) and exits 0.")
    p.add_argument("state", help="the state file")
    p.add_argument("--text", action="store_true",
                   help="one line per action: its JSON (ready for `act`), what it costs and what may be chosen, "
                        "and a warning when it loses something")
    p.set_defaults(run=_actions)


def _fields(tag: str) -> str:
    """An action's fields as its JSON takes them ("bot, card, unit?": a "?" field may be left out)."""
    kind = ACTION_TYPES[tag]
    info = msgspec.structs.fields(kind)
    return ", ".join(f.encode_name + ("" if f.required else "?") for f in info) or "no fields"


def _load_action(text: str):
    """The action given inline (JSON) or as a file; what is wrong with it names the file."""
    inline = text.lstrip().startswith("{")
    try:
        return _decode_action(text if inline else read_text(text, "action"))
    except RecursionError:
        raise UserError(f"{'action' if inline else text}: nested too deeply to read; an action is a flat JSON "
                        f"object such as '{{\"action\": \"pass\"}}'") from None


def _decode_action(raw: str):
    try:
        action = decode_action(raw)
    except msgspec.ValidationError as e:
        field, message = describe_validation_error(e)
        if field == "action":
            raise UserError(f"the action names no known action ({message}); actions are: "
                            f"{', '.join(ACTION_NAMES)}") from None
        tag = _tag_of(raw)
        if tag is None or tag not in ACTION_TYPES:
            raise UserError(f"the action's {field or 'fields'}: {message}") from None
        if field:
            raise UserError(f"{tag}: field {field}: {message}") from None
        raise UserError(f"{tag}: {message} (its fields: {_fields(tag)})") from None
    except msgspec.DecodeError as e:
        raise UserError(f"action: not valid JSON ({e})") from None
    _refuse_unknown_fields(raw, action)
    return action


def _refuse_unknown_fields(raw: str, action) -> None:
    """The engine reads actions tolerantly (a log of a later release replays); an action typed in here is read
    strictly, because a misspelt field ("spce") would otherwise be dropped and its default used unnoticed."""
    tag = action.__struct_config__.tag
    known = {f.encode_name for f in msgspec.structs.fields(type(action))} | {"action"}
    unknown = [key for key in msgspec.json.decode(raw) if key not in known]
    if unknown:
        raise UserError(f"{tag}: unknown field {', '.join(f'`{key}`' for key in unknown)} (its fields: {_fields(tag)})")


def _tag_of(raw: str) -> str | None:
    """The "action" field of a JSON object that decoded as JSON but not as an action."""
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    tag = data.get("action") if isinstance(data, dict) else None
    return tag if isinstance(tag, str) else None


def _act(args: argparse.Namespace) -> int:
    state = load_state(args.state)
    action = _load_action(args.action)
    try:
        if args.rolls is None:
            new, events = apply(state, action, None)
        else:
            new, events = checked_run(args.rolls, SeededDice(state.seed, state.rolls),
                                      lambda dice: apply(state, action, dice))
    except RulesError as e:
        raise UserError(f"illegal action: {e}") from None
    if args.out is not None:
        write_atomically(args.out, encode_state(new))
    if args.text:
        for ev in events:
            print(phrase(ev, new))
    else:
        out = {"events": json.loads(encode_events(events))}
        if args.out is None:
            out["state"] = json.loads(encode_state(new))
        json.dump(out, sys.stdout)
        sys.stdout.write("\n")
    return 0


def _actions(args: argparse.Namespace) -> int:
    state = load_state(args.state)
    if state.outcome is not None:
        over = f"{args.state}: the game is over ({state.outcome}); no action is legal: start another with new-game"
        if args.text:
            print(over)
        else:
            print("[]")
            print(f"burncycle-table: {over}", file=sys.stderr)
        return 0
    listed = legal_actions(state)
    if args.text:
        for la in listed:
            print(_readable(la))
        return 0
    json.dump([json.loads(msgspec.json.encode(la)) for la in listed], sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


def _readable(la: LegalAction) -> str:
    """`{"action": "hop", "bot": "byte", "path": ["F1"]}  1 hop; ...  WARNING: ...`: the JSON keeps only the
    fields that differ from their defaults (in the dice too), so it is short and can be pasted into `act` as it
    is; the label says what it costs and what may still be chosen, a warning what it loses."""
    line = json.dumps(_short(la.action))
    if la.label:
        line += f"  {la.label}"
    if la.warning:
        line += f"  WARNING: {la.warning}"
    return line


def _short(struct: msgspec.Struct) -> dict:
    """A struct as JSON without the fields left at their defaults (an action keeps its "action" tag)."""
    tag = struct.__struct_config__.tag
    shown: dict = {} if tag is None else {struct.__struct_config__.tag_field: tag}
    for field in msgspec.structs.fields(struct):
        value = getattr(struct, field.name)
        default = field.default if field.default is not msgspec.NODEFAULT else (
            field.default_factory() if field.default_factory is not msgspec.NODEFAULT else msgspec.NODEFAULT)
        if value != default:
            shown[field.encode_name] = _short(value) if isinstance(value, msgspec.Struct) else \
                json.loads(msgspec.json.encode(value))
    return shown
