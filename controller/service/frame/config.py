"""The table's one config file (table.toml), with environment overrides, checked on load.

A hobbyist edits the file by hand and a venue overrides single keys in the environment
(`BURNCYCLE_<SECTION>__<KEY>`, e.g. `BURNCYCLE_WEB__PORT=8081`), so every problem is reported as one
line naming the key, the value, where it came from and what is expected. Problems come all at once, in
two rounds: first the shape of every key, then what needs files or the shipped content (floors,
missions, agents, captains), which only a well-formed config gets to. Every key has a default: a table without LEDs, buttons or MQTT leaves those out.
Relative paths are read from the config file's folder, so a table's files can travel together.
"""

from __future__ import annotations

import difflib
import ipaddress
import json
import os
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, get_origin

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict, TomlConfigSettingsSource

from controller.rules import DIFFICULTIES, LEVELS, Difficulty, GameSetup, check_setup
from controller.rules.errors import BurncycleError

ENV_PREFIX = "BURNCYCLE_"
ENV_DELIMITER = "__"
GPIO_PINS = range(0, 28)  # BCM numbers of the 40-pin header's GPIOs
_HOSTNAME = re.compile(r"^(?=.{1,253}\Z)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\Z")
_TOPIC_WORD = re.compile(r"^[A-Za-z0-9_-]+\Z")


class ConfigError(BurncycleError):
    """A config that cannot be used: one line per problem, each naming key, value and what is expected."""

    code = "config_error"

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


def key(default: Any, expected: str, doc: str, example: str | None = None) -> Any:
    """A config key: its default, what a good value looks like (for errors and docs), what it is for, and
    for a key that is off by default an example (TOML text) the starter file shows commented out."""
    extra: dict[str, Any] = {"expected": expected}
    if example is not None:
        extra["example"] = example
    return Field(default, description=doc, json_schema_extra=extra)


class Section(BaseModel):
    """A [section] of table.toml: unknown keys are refused, since a typo would silently be a default."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def _port(value: int) -> int:
    if not 1 <= value <= 65535:
        raise ValueError("expected a port number from 1 to 65535")
    return value


def _gpio(value: int | None) -> int | None:
    if value is not None and value not in GPIO_PINS:
        raise ValueError(f"expected a GPIO number (BCM) from {GPIO_PINS.start} to {GPIO_PINS.stop - 1}")
    return value


def _host(value: str) -> str:
    try:
        ipaddress.ip_address(value)
    except ValueError:
        if not _HOSTNAME.match(value):
            raise ValueError("expected a host name or an IP address") from None
    return value


class CameraConfig(Section):
    source: Literal["picamera", "usb", "file", "synthetic", "none"] = key(
        "picamera", '"picamera", "usb", "file", "synthetic" or "none"',
        "where frames come from: the Pi camera, a USB camera, a video file or URL, the renderer, or no camera")
    device: str = key("0", "a string: a camera number, /dev/videoN, a file path or a URL",
                      "which camera or file, for the source")
    resolution: tuple[int, int] = key((1920, 1080), "[width, height] in pixels, each 160 to 4608",
                                      "the capture size: chip stickers need 20 px or more (hardware/camera/mount.md)")
    fps: int = key(30, "an integer from 1 to 120", "frames a second asked of the camera")
    marker_map: Path | None = key(None, "the path of an existing file",
                                  "which printed marker is which chip (default: the shipped sheet)", '"markers.toml"')
    calibration: Path | None = key(None, "the path of an existing file",
                                   "lens calibration written by `vision calibrate-camera` (default: none)",
                                   '"calibration.json"')

    @field_validator("resolution")
    @classmethod
    def _size(cls, value: tuple[int, int]) -> tuple[int, int]:
        if not all(160 <= side <= 4608 for side in value):
            raise ValueError("expected [width, height] in pixels, each 160 to 4608")
        return value

    @field_validator("fps")
    @classmethod
    def _fps(cls, value: int) -> int:
        if not 1 <= value <= 120:
            raise ValueError("expected an integer from 1 to 120")
        return value


class GameConfig(Section):
    floor: str = key("meridian-lobby", "a shipped floor's name or the path of a .floor file",
                     "the floor a new game starts on (a mission of several floors: its first)")
    mission: str = key("data-heist", "a shipped mission's id", "the mission a new game plays")
    level: int | None = key(None, "an integer from 1 to 3", "Adaptable missions: the level to play", "2")
    agents: tuple[str, ...] = key(("byte", "casing"), "a list of 1 to 4 different agent ids",
                                  "the players' bots; their number is the number of players")
    captain: str = key("fauxbia", "a shipped captain's id", "the corporation's captain")
    start: dict[str, str] | None = key(
        None, "a table of bot id = safe zone space",
        "where bots start when the rules let the team choose (a safe zone space of their choice: an Adaptable "
        "mission on level 2 or 3, Rescue Rangers); a bot not named takes the first free one in reading order",
        '{ byte = "Q3", casing = "D15" }')
    difficulty: Difficulty = key(
        "standard", ", ".join(f'"{d}"' for d in DIFFICULTIES[:-1]) + f' or "{DIFFICULTIES[-1]}"',
        "the corporation's difficulty")
    dice: Literal["virtual", "physical"] = key(
        "virtual", '"virtual" or "physical"',
        "virtual: the service rolls; physical: it asks for the faces rolled at the table (until the players "
        "choose on the dashboard: their choice is kept for the next games, across restarts)")

    @field_validator("level")
    @classmethod
    def _level(cls, value: int | None) -> int | None:
        if value is not None and value not in LEVELS:
            raise ValueError(f"expected an integer from {LEVELS[0]} to {LEVELS[-1]}")
        return value

    @field_validator("agents")
    @classmethod
    def _agents(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        if not 1 <= len(value) <= 4 or len(set(value)) != len(value):
            raise ValueError("expected a list of 1 to 4 different agent ids")
        return value


class LedsConfig(Section):
    kind: Literal["serial", "gpio", "virtual", "none"] = key(
        "none", '"serial", "gpio", "virtual" or "none"',
        "the LED board on USB, strips on the Pi's pins, a terminal drawing, or no LEDs")
    port: str = key("/dev/burncycle-leds", "a device path", "the LED board's serial port (kind serial)")
    baud: int = key(500_000, "an integer from 9600 to 2000000", "the serial link's speed; the firmware's is 500000")
    layout: Path | None = key(None, "the path of an existing file",
                              "the LED layout (strips, segments, power budget; default: the built-in 38 LEDs)",
                              '"layout.toml"')
    pins: dict[str, int | str | list[int] | list[list[int]]] = key(
        {}, "a table like the layout's [gpio] table",
        "kind gpio: replaces the layout's [gpio] table (kind, clock_pin, data_pin, threat_pins, ...)",
        '{ kind = "apa102", clock_pin = 11, data_pin = 10 }')

    @field_validator("baud")
    @classmethod
    def _baud(cls, value: int) -> int:
        if not 9600 <= value <= 2_000_000:
            raise ValueError("expected an integer from 9600 to 2000000")
        return value


class ButtonsConfig(Section):
    next_pin: int | None = key(None, "a GPIO number (BCM) from 0 to 27", 'the "next" button (to ground)', "17")
    undo_pin: int | None = key(None, "a GPIO number (BCM) from 0 to 27", 'the "undo" button (to ground)', "27")
    buzzer_pin: int | None = key(None, "a GPIO number (BCM) from 0 to 27",
                                 "an active buzzer (through a transistor) for detection and threat events", "18")

    _pins = field_validator("next_pin", "undo_pin", "buzzer_pin")(classmethod(lambda cls, v: _gpio(v)))

    @model_validator(mode="after")
    def _distinct(self) -> ButtonsConfig:
        used: dict[int, str] = {}
        for name in ("next_pin", "undo_pin", "buzzer_pin"):
            pin = getattr(self, name)
            if pin is not None and pin in used:
                raise ValueError(f"{name} and {used[pin]} are both GPIO {pin}: expected a pin each")
            if pin is not None:
                used[pin] = name
        return self


class WebConfig(Section):
    host: str = key("0.0.0.0", "a host name or an IP address", "where the dashboard listens (0.0.0.0: every network)")
    port: int = key(8080, "a port number from 1 to 65535", "the dashboard's port")
    pin: str | None = key(None, "4 to 8 digits, in quotes",
                          "the PIN the dashboard asks before it changes the game (default: a random 6-digit one, "
                          "printed at start)", '"4321"')
    read_only: bool = key(False, "true or false",
                          "a spectators' table (a convention): the dashboard shows the game and refuses every change")
    proxies: tuple[str, ...] = key((), "a list of IP addresses or networks",
                                   "the reverse proxies in front of the dashboard whose X-Forwarded-For is believed "
                                   "(default: none, every request's address is its own)", '["127.0.0.1"]')

    _host = field_validator("host")(classmethod(lambda cls, v: _host(v)))
    _port = field_validator("port")(classmethod(lambda cls, v: _port(v)))

    @field_validator("proxies")
    @classmethod
    def _proxies(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for proxy in value:
            try:
                ipaddress.ip_network(proxy, strict=False)
            except ValueError:
                raise ValueError("expected a list of IP addresses or networks") from None
        return value

    @field_validator("pin")
    @classmethod
    def _pin(cls, value: str | None) -> str | None:
        if value is not None and not re.fullmatch(r"\d{4,8}", value):
            raise ValueError("expected 4 to 8 digits, in quotes")
        return value


class MqttConfig(Section):
    host: str | None = key(None, "a host name or an IP address", "the MQTT broker (default: no MQTT)",
                            '"localhost"')
    port: int = key(1883, "a port number from 1 to 65535", "the broker's port (8883 is usual with TLS)")
    user: str | None = key(None, "a string", "the broker user name", '"table"')
    password: SecretStr | None = key(None, "a string", "the broker password (never shown by the service)",
                                        '"change-me"')
    tls: bool = key(False, "true or false", "connect with TLS")
    ca_file: Path | None = key(None, "the path of an existing file",
                               "with tls: the certificate authority (PEM) that signed the broker's certificate "
                               "(default: the system's)", '"broker-ca.crt"')
    base_topic: str = key("burncycle", "topic words of letters, digits, _ or -, joined by /",
                          "the first part of every topic")
    table_id: str = key("table1", "letters, digits, _ or -", "this table's name in topics, for venues with several")

    _port = field_validator("port")(classmethod(lambda cls, v: _port(v)))

    @field_validator("host")
    @classmethod
    def _broker(cls, value: str | None) -> str | None:
        return None if value is None else _host(value)

    @field_validator("password", mode="before")
    @classmethod
    def _secret(cls, value: Any) -> Any:
        return SecretStr(value) if isinstance(value, str) else value

    @field_validator("base_topic")
    @classmethod
    def _topic(cls, value: str) -> str:
        if not all(_TOPIC_WORD.match(word) for word in value.split("/")):
            raise ValueError("expected topic words of letters, digits, _ or -, joined by /")
        return value

    @field_validator("table_id")
    @classmethod
    def _table(cls, value: str) -> str:
        if not _TOPIC_WORD.match(value):
            raise ValueError("expected letters, digits, _ or -")
        return value

    @model_validator(mode="after")
    def _ca_needs_tls(self) -> MqttConfig:
        if self.ca_file is not None and not self.tls:
            raise ValueError("ca_file is given but tls is false: expected tls = true to use the certificate authority")
        return self


class DatabaseConfig(Section):
    path: Path = key(Path("games.sqlite3"), "a file path in an existing folder",
                     "the SQLite file that keeps every game (systemd: in the state directory)")


class ServiceConfig(BaseSettings):
    """The whole table.toml. The environment overrides the file, key by key."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, env_nested_delimiter=ENV_DELIMITER,
                                      extra="forbid", frozen=True, case_sensitive=False)

    camera: CameraConfig = CameraConfig()
    game: GameConfig = GameConfig()
    leds: LedsConfig = LedsConfig()
    buttons: ButtonsConfig = ButtonsConfig()
    web: WebConfig = WebConfig()
    mqtt: MqttConfig = MqttConfig()
    database: DatabaseConfig = DatabaseConfig()

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # The file's contents arrive as init values; the environment wins over them.
        return (env_settings, init_settings)


SECTIONS: dict[str, type[Section]] = {
    name: field.annotation for name, field in ServiceConfig.model_fields.items()  # type: ignore[misc]
}


def env_name(section: str, name: str) -> str:
    """The environment variable that overrides one key."""
    return f"{ENV_PREFIX}{section.upper()}{ENV_DELIMITER}{name.upper()}"


class _TableToml(TomlConfigSettingsSource):
    """pydantic-settings' TOML source, with a broken file reported as a ConfigError."""

    def _read_file(self, file_path: Path) -> dict[str, Any]:  # type: ignore[override]
        try:
            with open(file_path, "rb") as f:
                return tomllib.load(f)
        except tomllib.TOMLDecodeError as err:
            raise ConfigError([f"{file_path}: not valid TOML: {err}"]) from None
        except OSError as err:
            raise ConfigError([f"{file_path}: cannot read the config file: {err.strerror}"]) from None


def load_config(path: str | Path | None = None) -> ServiceConfig:
    """The table's config: the file's keys (or none), then the environment's, checked all at once.

    Raises ConfigError with one line per problem.
    """
    data: dict[str, Any] = {}
    where = "defaults"
    base = Path.cwd()
    if path is not None:
        path = Path(path)
        if not path.is_file():
            raise ConfigError([f"{path}: no such config file (write a starter one with `burncycle-table init`)"])
        data = _TableToml(ServiceConfig, toml_file=path)()
        where, base = str(path), path.parent
    not_json = _env_not_json()
    if not_json:
        raise ConfigError(not_json)
    try:
        config = ServiceConfig(**data)
    except ValidationError as err:
        raise ConfigError([_problem(e, data, where) for e in err.errors()]) from None
    return _checked(config, base, where)


def _problem(error: Any, data: dict[str, Any], where: str) -> str:
    loc = [str(part) for part in error["loc"]]
    if error["type"] == "extra_forbidden":
        return _unknown(loc, where)
    section = loc[0]
    name = loc[1] if len(loc) > 1 else None
    origin = where
    if name is not None and _env_value(section, name) is not None:
        origin = env_name(section, name)
    if name is None:  # a check across keys, or a section that is not a table
        if error["type"] == "value_error":
            return f"{origin}: [{section}]: {error['ctx']['error']}"
        return f"{origin}: [{section}] = {_show(error['input'])}: expected a table of keys"
    field = SECTIONS[section].model_fields[name]
    expected = field.json_schema_extra["expected"]  # type: ignore[index]
    if error["type"] == "value_error":
        expected = str(error["ctx"]["error"]).removeprefix("expected ")
    value = _env_value(section, name) if origin != where else _raw(data, section, name, error["input"])
    return f"{origin}: {section}.{name} = {_show(value)}: expected {expected}"


def _env_not_json() -> list[str]:
    """Environment values for lists, tables and whole sections must be JSON (pydantic-settings parses them
    so, and would otherwise fail with a traceback): each one that is not, named with its variable."""
    problems = []
    for variable, value in sorted(os.environ.items()):
        parts = variable.upper().removeprefix(ENV_PREFIX).lower().split(ENV_DELIMITER)
        if not variable.upper().startswith(ENV_PREFIX) or parts[0] not in SECTIONS or len(parts) > 2:
            continue
        if len(parts) == 1:
            dotted, expected = f"[{parts[0]}]", "a JSON object of its keys"
        else:
            field = SECTIONS[parts[0]].model_fields.get(parts[1])
            if field is None or get_origin(field.annotation) not in (list, tuple, dict):
                continue
            dotted = f"{parts[0]}.{parts[1]}"
            expected = f"{field.json_schema_extra['expected']}, written as JSON"  # type: ignore[index]
        try:
            json.loads(value)
        except ValueError:
            problems.append(f"{variable}: {dotted} = {_show(value)}: expected {expected}")
    return problems


def _unknown(loc: list[str], where: str) -> str:
    if len(loc) > 1 and _env_value(loc[0], loc[1]) is not None:
        where = env_name(loc[0], loc[1])
    if len(loc) == 1:
        close = difflib.get_close_matches(loc[0], list(SECTIONS), n=1)
        hint = f"; did you mean [{close[0]}]?" if close else f"; the sections are {', '.join(SECTIONS)}"
        return f"{where}: unknown section [{loc[0]}]{hint}"
    section, name = loc[0], loc[1]
    names = list(SECTIONS[section].model_fields)
    close = difflib.get_close_matches(name, names, n=1)
    hint = f"; did you mean {section}.{close[0]}?" if close else f"; [{section}] has {', '.join(names)}"
    return f"{where}: unknown key {section}.{name}{hint}"


def _env_value(section: str, name: str) -> str | None:
    wanted = env_name(section, name)
    return next((v for k, v in os.environ.items() if k.upper() == wanted), None)


def _raw(data: dict[str, Any], section: str, name: str, fallback: Any) -> Any:
    table = data.get(section)
    return table[name] if isinstance(table, dict) and name in table else fallback


def _show(value: Any) -> str:
    """A value the way it was written in the file."""
    try:
        return json.dumps(value, default=str)
    except ValueError:
        return repr(value)


def _checked(config: ServiceConfig, base: Path, where: str) -> ServiceConfig:
    """Relative paths made absolute from the config's folder, then the checks that need files and content."""
    problems: list[str] = []

    def origin(section: str, name: str) -> str:
        return env_name(section, name) if _env_value(section, name) is not None else where

    def file(section: str, name: str, value: Path | None) -> Path | None:
        if value is None:
            return None
        full = value if value.is_absolute() else base / value
        if not full.is_file():
            problems.append(f"{origin(section, name)}: {section}.{name} = {_show(str(value))}: "
                            f"expected the path of an existing file ({full} is not one)")
        return full

    camera = config.camera.model_copy(update={
        "marker_map": file("camera", "marker_map", config.camera.marker_map),
        "calibration": file("camera", "calibration", config.camera.calibration),
    })
    leds = config.leds.model_copy(update={"layout": file("leds", "layout", config.leds.layout)})
    mqtt = config.mqtt.model_copy(update={"ca_file": file("mqtt", "ca_file", config.mqtt.ca_file)})
    db = config.database.path if config.database.path.is_absolute() else base / config.database.path
    if not db.parent.is_dir():
        problems.append(f"{origin('database', 'path')}: database.path = {_show(str(config.database.path))}: "
                        f"expected a file path in an existing folder ({db.parent} is not a folder)")
    game = config.game
    problems += _game_problems(game, base, lambda name: origin("game", name))
    floor = game.floor
    if floor.endswith(".floor") and not Path(floor).is_absolute():
        floor = str(base / floor)
    if problems:
        raise ConfigError(problems)
    return config.model_copy(update={
        "camera": camera, "leds": leds, "mqtt": mqtt, "database": DatabaseConfig(path=db),
        "game": game.model_copy(update={"floor": floor}),
    })


def _game_problems(game: GameConfig, base: Path, origin: Callable[[str], str]) -> list[str]:
    """The game's choices checked by the engine (`check_setup`) against the shipped content, each named by its
    key, with the list to choose from; a floor may also be the path of a .floor file."""
    from controller.library import load_content  # the content is read only when a config is checked

    path = Path(game.floor) if Path(game.floor).is_absolute() else base / game.floor
    files = [game.floor] if game.floor.endswith(".floor") and path.is_file() else []
    setup = GameSetup(floor=game.floor, mission=game.mission, level=game.level, players=len(game.agents),
                      agents=list(game.agents), difficulty=game.difficulty, captain=game.captain, start=game.start)
    problems = []
    for problem in check_setup(load_content(), setup, files):
        name = "agents" if problem.field == "players" else problem.field  # the agents are the players
        files_too = "the path of a .floor file or " if name == "floor" else ""
        problems.append(f"{origin(name)}: game.{name} = {_show(problem.value)}: expected {files_too}{problem.expected}")
    return problems
