"""table.toml: every key's bad value is named with its value and what is expected, environment
overrides, unknown keys with a suggestion, and the starter file `init` writes."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from controller.service.frame.config import SECTIONS, ConfigError, MqttConfig, ServiceConfig, env_name, load_config
from controller.service.frame.config_text import NO_CAMERA_NOTE, starter_toml
from tests.support.cli_run import refused, run

# key -> (a bad value as TOML text, what the message must say is expected)
BAD: dict[str, tuple[str, str]] = {
    "camera.source": ('"webcam"', '"picamera", "usb", "file", "synthetic" or "none"'),
    "camera.device": ("0", "a string"),
    "camera.resolution": ("[1920, 40]", "each 160 to 4608"),
    "camera.fps": ("240", "an integer from 1 to 120"),
    "camera.marker_map": ('"missing-markers.toml"', "the path of an existing file"),
    "camera.calibration": ('"missing-calibration.json"', "the path of an existing file"),
    "game.floor": ('"meridian-lobbby"', "meridian-lobby"),
    "game.mission": ('"data-hiest"', "did you mean 'data-heist'?"),
    "game.level": ("4", "an integer from 1 to 3"),
    "game.agents": ('["byte", "byte"]', "a list of 1 to 4 different agent ids"),
    "game.captain": ('"fauxbya"', "did you mean 'fauxbia'?"),
    "game.start": ('"Q3"', "a table of bot id = safe zone space"),
    "game.difficulty": ('"hard"', '"simplified", "standard" or "seasoned"'),
    "game.dice": ('"loaded"', '"virtual" or "physical"'),
    "leds.kind": ('"neopixel"', '"serial", "gpio", "virtual" or "none"'),
    "leds.port": ("1", "a device path"),
    "leds.baud": ("300", "an integer from 9600 to 2000000"),
    "leds.layout": ('"missing-layout.toml"', "the path of an existing file"),
    "leds.pins": ('"gpio18"', "a table like the layout's [gpio] table"),
    "buttons.next_pin": ("40", "a GPIO number (BCM) from 0 to 27"),
    "buttons.undo_pin": ("-1", "a GPIO number (BCM) from 0 to 27"),
    "buttons.buzzer_pin": ('"GPIO18"', "a GPIO number (BCM) from 0 to 27"),
    "web.host": ('"my table"', "a host name or an IP address"),
    "web.port": ("80800", "a port number from 1 to 65535"),
    "web.pin": ("1234", "4 to 8 digits, in quotes"),
    "web.read_only": ('"maybe"', "true or false"),
    "web.proxies": ('["proxy.local"]', "a list of IP addresses or networks"),
    "mqtt.host": ('"broker..local"', "a host name or an IP address"),
    "mqtt.port": ("0", "a port number from 1 to 65535"),
    "mqtt.user": ("7", "a string"),
    "mqtt.password": ("1234", "a string"),
    "mqtt.tls": ('"maybe"', "true or false"),
    "mqtt.ca_file": ('"missing-ca.crt"', "the path of an existing file"),
    "mqtt.base_topic": ('"burncycle/#"', "topic words of letters, digits, _ or -, joined by /"),
    "mqtt.table_id": ('"table 1"', "letters, digits, _ or -"),
    "database.path": ('"no-such-folder/games.sqlite3"', "a file path in an existing folder"),
}
# keys that count only beside another key's value, written with it
BESIDE = {"mqtt.ca_file": "tls = true\n"}


def all_keys() -> set[str]:
    return {f"{section}.{name}" for section, model in SECTIONS.items() for name in model.model_fields}


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(text, encoding="utf-8")
    return path


def problems(path: Path) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value).splitlines() == caught.value.problems
    return caught.value.problems


def test_every_key_has_a_bad_value_case() -> None:
    assert set(BAD) == all_keys()


@pytest.mark.parametrize("dotted", sorted(BAD))
def test_a_bad_value_names_the_key_the_value_and_what_is_expected(tmp_path: Path, dotted: str) -> None:
    section, name = dotted.split(".")
    value, expected = BAD[dotted]
    path = write(tmp_path, f"[{section}]\n{BESIDE.get(dotted, '')}{name} = {value}\n")
    [problem] = problems(path)
    assert problem.startswith(f"{path}: {dotted} = ")
    assert value.strip('"') in problem
    assert "expected " in problem and expected in problem


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    path = write(tmp_path, "[web]\nport = 0\nhost = \"a b\"\n[camera]\nfps = 0\n")
    assert [p.split(" = ")[0] for p in problems(path)] == [
        f"{path}: camera.fps", f"{path}: web.host", f"{path}: web.port"]


def test_the_games_choices_are_the_engines_setup_check(tmp_path: Path) -> None:
    """The game's names are checked by the engine's `check_setup`, so a level for a mission that chooses none is
    refused when the config is read, not when the first game starts."""
    path = write(tmp_path, '[game]\nmission = "data-heist"\nlevel = 2\ncaptain = "fauxbya"\n')
    assert problems(path) == [
        f"{path}: game.level = 2: expected no level: data-heist is not an Adaptable mission (only Adaptable "
        f"missions choose a level; the others use the floor's own)",
        f"{path}: game.captain = \"fauxbya\": expected one of fauxbia, overseer (did you mean 'fauxbia'?)"]


def test_the_start_spaces_are_the_engines_setup_check_too(tmp_path: Path) -> None:
    """Rescue Rangers: "Agents start on any safe zone space." A start space that is not one is refused when the
    config is read; a good one is the new game's."""
    from controller.service.table import setup_from_config

    path = write(tmp_path, '[game]\nmission = "rescue-rangers"\nlevel = 1\nstart = { byte = "P4" }\n')
    assert problems(path) == [
        f"{path}: game.start = \"byte=P4\": expected a safe zone space (Adaptable: Operation Rescue Rangers starts "
        f"the bots on safe zone spaces of the team's choice): East safe zone (Q3 to T6) or West safe zone (A13 to D16)"]
    path = write(tmp_path, '[game]\nmission = "rescue-rangers"\nlevel = 1\nstart = { byte = "D15" }\n')
    assert setup_from_config(load_config(path).game, seed=1).start == {"byte": "D15"}


def test_an_unknown_key_is_refused_with_a_suggestion(tmp_path: Path) -> None:
    path = write(tmp_path, "[web]\nprot = 8081\n")
    assert problems(path) == [f"{path}: unknown key web.prot; did you mean web.port?"]


def test_an_unknown_section_is_refused_with_a_suggestion(tmp_path: Path) -> None:
    path = write(tmp_path, "[button]\nnext_pin = 17\n")
    assert problems(path) == [f"{path}: unknown section [button]; did you mean [buttons]?"]


def test_two_buttons_on_one_pin_are_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "[buttons]\nnext_pin = 17\nbuzzer_pin = 17\n")
    assert problems(path) == [f"{path}: [buttons]: buzzer_pin and next_pin are both GPIO 17: expected a pin each"]


def test_a_certificate_authority_without_tls_is_refused(tmp_path: Path) -> None:
    (tmp_path / "ca.crt").write_text("")
    path = write(tmp_path, '[mqtt]\nhost = "broker"\nca_file = "ca.crt"\n')
    assert problems(path) == [f"{path}: [mqtt]: ca_file is given but tls is false: expected tls = true to use the "
                              f"certificate authority"]
    path = write(tmp_path, '[mqtt]\nhost = "broker"\ntls = true\nca_file = "ca.crt"\n')
    assert load_config(path).mqtt.ca_file == tmp_path / "ca.crt"  # read from the config's folder


def test_broken_toml_names_the_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, "[web]\nport = = 3\n")
    [problem] = problems(path)
    assert problem.startswith(f"{path}: not valid TOML: ") and "line 2" in problem


def test_a_missing_file_says_how_to_make_one(tmp_path: Path) -> None:
    assert problems(tmp_path / "nope.toml") == [
        f"{tmp_path / 'nope.toml'}: no such config file (write a starter one with `burncycle-table init`)"]


def test_the_environment_overrides_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, "[web]\nport = 8081\nhost = \"127.0.0.1\"\n")
    monkeypatch.setenv(env_name("web", "port"), "9090")
    monkeypatch.setenv("BURNCYCLE_GAME__AGENTS", '["nano", "bit", "memory"]')
    config = load_config(path)
    assert config.web.port == 9090 and config.web.host == "127.0.0.1"
    assert config.game.agents == ("nano", "bit", "memory")


def test_a_bad_environment_value_names_the_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, "")
    monkeypatch.setenv("BURNCYCLE_WEB__PORT", "eighty")
    assert problems(path) == ['BURNCYCLE_WEB__PORT: web.port = "eighty": expected a port number from 1 to 65535']


def test_missing_optional_parts_are_not_errors(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, "[game]\nmission = \"tower-run\"\n"))
    assert config.leds.kind == "none" and config.mqtt.host is None and config.buttons.next_pin is None
    assert config.game.mission == "tower-run"


def test_relative_paths_are_read_from_the_config_folder(tmp_path: Path) -> None:
    (tmp_path / "layout.toml").write_text("", encoding="utf-8")
    config = load_config(write(tmp_path, "[leds]\nlayout = \"layout.toml\"\n"))
    assert config.leds.layout == tmp_path / "layout.toml"
    assert config.database.path == tmp_path / "games.sqlite3"


def test_the_starter_file_loads_back_to_the_defaults(tmp_path: Path) -> None:
    starter = load_config(write(tmp_path, starter_toml()))
    defaults = ServiceConfig().model_copy(update={"database": starter.database})
    assert starter == defaults
    assert starter.database.path == tmp_path / "games.sqlite3"


def test_the_starter_file_names_every_key_and_its_variable() -> None:
    text = starter_toml()
    for dotted in all_keys():
        section, name = dotted.split(".")
        assert f"\n{name} = " in text or f"\n# {name} = " in text, dotted
        assert env_name(section, name) in text


def test_init_no_camera_writes_a_table_the_phones_play_without_a_camera(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 37: the game-night guide plays on a table with no camera; `init --no-camera` writes its file, which
    loads with no camera and otherwise every default (the starter file with only camera.source changed)."""
    out = tmp_path / "table.toml"
    code, _, err = run(capsys, "init", "--no-camera", "--out", out)
    text = out.read_text(encoding="utf-8")
    assert code == 0 and 'source = "none"' in text and "--no-camera" not in err
    config = load_config(out)
    assert config.camera.source == "none"
    assert config.model_dump(exclude={"camera"}) == load_config(write(tmp_path, "")).model_dump(exclude={"camera"})
    assert text.replace('source = "none"', 'source = "picamera"').replace(NO_CAMERA_NOTE, "") == starter_toml()


def test_init_writes_the_starter_and_refuses_to_overwrite(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "table.toml"
    code, _, _ = run(capsys, "init", "--out", out)
    assert code == 0 and out.read_text(encoding="utf-8") == starter_toml()
    out.write_text("# mine\n", encoding="utf-8")
    assert refused(capsys, "init", "--out", out) == f"burncycle-table: {out}: already exists; keep it, or replace it with --force"
    assert out.read_text(encoding="utf-8") == "# mine\n"
    code, _, _ = run(capsys, "init", "--out", out, "--force")
    assert code == 0 and out.read_text(encoding="utf-8") == starter_toml()


def test_init_writes_table_toml_in_the_current_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "init")
    assert code == 0 and (tmp_path / "table.toml").is_file() and "table.toml" in err


def test_an_unknown_environment_key_names_the_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BURNCYCLE_WEB__PROT", "8081")
    assert problems(write(tmp_path, "")) == ["BURNCYCLE_WEB__PROT: unknown key web.prot; did you mean web.port?"]


@pytest.mark.parametrize(("variable", "value", "line"), [
    ("BURNCYCLE_GAME__AGENTS", "byte,bit",
     'BURNCYCLE_GAME__AGENTS: game.agents = "byte,bit": expected a list of 1 to 4 different agent ids, written as JSON'),
    ("BURNCYCLE_WEB", "{port: 3}", 'BURNCYCLE_WEB: [web] = "{port: 3}": expected a JSON object of its keys'),
])
def test_a_list_or_table_in_the_environment_must_be_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          variable: str, value: str, line: str) -> None:
    monkeypatch.setenv(variable, value)
    assert problems(write(tmp_path, "")) == [line]


def test_init_into_a_missing_folder_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "no-such-folder" / "table.toml"
    assert refused(capsys, "init", "--out", out) == (
        f"burncycle-table: {out}: cannot write the config file: No such file or directory")


@pytest.mark.parametrize("field, value", [("table_id", "kitchen\n"), ("base_topic", "burncycle\n"),
                                          ("host", "broker.local\n")])
def test_a_trailing_newline_is_not_part_of_a_name(field: str, value: str) -> None:
    """`$` matches before a final newline; a table id "kitchen\\n" would name topics no one subscribes to."""
    with pytest.raises(ValidationError):
        MqttConfig(**{field: value})
