"""The systemd unit and the udev rule in hardware/ carry what the service relies on."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from controller.service.frame.config import LedsConfig

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
ROOT = HARDWARE.parent


def unit() -> dict[str, dict[str, list[str]]]:
    """The unit file as {section: {key: [values]}}: systemd lets a key repeat (Environment=)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] = {}
    for line in (HARDWARE / "systemd" / "burncycle-table.service").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        name, sep, value = line.partition("=")
        assert sep and name.strip() == name and name.isidentifier(), line
        current.setdefault(name, []).append(value)
    return sections


def one(section: str, name: str) -> str:
    [value] = unit()[section][name]
    return value


def test_the_unit_restarts_always_and_is_watched() -> None:
    assert one("Service", "Type") == "notify"
    assert one("Service", "Restart") == "always"
    assert float(one("Service", "WatchdogSec")) > 0
    assert one("Service", "NotifyAccess") == "main"


def test_the_unit_has_its_own_user_state_and_config_directories() -> None:
    assert one("Service", "User") == "burncycle"
    assert {"dialout", "gpio"} <= set(one("Service", "SupplementaryGroups").split())
    assert one("Service", "StateDirectory") == "burncycle-table"
    assert one("Service", "ConfigurationDirectory") == "burncycle-table"
    assert one("Service", "ExecStart").endswith(" --config %E/burncycle-table/table.toml")
    assert "BURNCYCLE_DATABASE__PATH=%S/burncycle-table/games.sqlite3" in unit()["Service"]["Environment"]


def test_the_unit_runs_the_installed_command() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    command = one("Service", "ExecStart").split()
    assert Path(command[0]).name in scripts and command[1] == "run"
    assert one("Install", "WantedBy") == "multi-user.target"


def rules() -> list[dict[str, tuple[str, str]]]:
    """Each rule line as {key: (operator, value)}."""
    out = []
    for line in (HARDWARE / "udev" / "99-burncycle-leds.rules").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            pairs = re.findall(r'([A-Za-z_]+(?:\{[^}]+\})?)\s*(==|!=|\+=|:=|=)\s*"([^"]*)"', line)
            assert ", ".join(f'{k}{op}"{v}"' for k, op, v in pairs) == line.strip(), line
            out.append({k: (op, v) for k, op, v in pairs})
    return out


def test_every_udev_rule_names_the_board_and_keeps_modemmanager_off() -> None:
    assert len(rules()) >= 2
    for rule in rules():
        assert rule["SUBSYSTEM"] == ("==", "tty")
        assert rule["ATTRS{idVendor}"][0] == "==" and re.fullmatch(r"[0-9a-f]{4}", rule["ATTRS{idVendor}"][1])
        assert rule["ATTRS{idProduct}"][0] == "==" and re.fullmatch(r"[0-9a-f]{4}", rule["ATTRS{idProduct}"][1])
        assert rule["SYMLINK"] == ("+=", "burncycle-leds")
        assert rule["ENV{ID_MM_DEVICE_IGNORE}"] == ("=", "1")


def test_the_config_default_port_is_the_udev_name() -> None:
    assert LedsConfig().port == "/dev/" + rules()[0]["SYMLINK"][1]
