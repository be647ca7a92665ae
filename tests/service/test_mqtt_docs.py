"""Every shell example of docs/mqtt.md runs as written, against real mosquittos and a real table.

A hobbyist copies the examples; one that sends a payload the table ignores (an empty one: a clear) or a command a
broker refuses is a dead end, found only by running it. The fenced `sh` blocks are read from the page and run
in order; only the names that point at the reader's own machines are swapped for the test's: `localhost`'s
broker and `broker.local`'s (its TLS port 8883, its `broker-ca.crt`, its `/etc/mosquitto/passwords`) become
the test's mosquittos, and the page ports (8080, 8090) free ones. The venue's mosquitto config is the page's
own block, its file paths swapped the same way. Each command must be answered: a change of the game or a
line on the errors topic; each subscriber must print what the page says it prints.
"""

from __future__ import annotations

import functools
import getpass
import json
import re
import shlex
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from controller.service.table import TableService
from tests.support.mqtt_broker import MOSQUITTO, Broker, Listener, running, table
from tests.support.net import free_port
from tests.support.service_helpers import until

pytestmark = pytest.mark.slow  # real mosquittos, a table on each, the hall and the demo as processes

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "mqtt.md").read_text(encoding="utf-8")
TABLE = "burncycle/table1"


def section(title: str) -> str:
    """The page's text under the `## title` heading, up to the next `## `."""
    start = PAGE.index(f"\n## {title}")
    end = PAGE.find("\n## ", start + 1)
    return PAGE[start:end if end >= 0 else len(PAGE)]


def shell_examples(text: str) -> list[list[str]]:
    """The commands of the fenced `sh` blocks, in order: a line continued by `\\` is one command, a `#` comment
    is no argument, a trailing `&` stays the last word (run in the background)."""
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            if words:
                commands.append(words)
    return commands


def fenced(text: str, marker: str, language: str = "") -> str:
    """The first fenced block of `language` in `text` that holds `marker`, or the first after it."""
    for block in re.findall(rf"```{language}\n(.*?)```", text[text.rindex("```", 0, text.index(marker)):], re.S):
        if marker in block or language:
            return str(block)
    raise AssertionError(f"no ```{language} block at {marker!r}")


@dataclass
class Places:
    """Where the page's names point in the test."""

    plain: int                    # the broker the page calls localhost:1883 (and broker.local:1883)
    secure: int = 0               # broker.local:8883, the venue's TLS broker
    ca_file: Path | None = None   # broker-ca.crt
    passwords: Path | None = None  # /etc/mosquitto/passwords

    def word(self, word: str) -> str:
        swaps = {"localhost:1883": f"127.0.0.1:{self.plain}", "broker.local:1883": f"127.0.0.1:{self.plain}",
                 "broker.local:8883": f"localhost:{self.secure}", "broker.local": "localhost",
                 "8883": str(self.secure), "1883": str(self.plain), "broker-ca.crt": str(self.ca_file),
                 "/etc/mosquitto/passwords": str(self.passwords)}
        if word in ("8080", "8090"):  # a page's port: a free one each time
            return str(free_port())
        return swaps.get(word, word)

    def command(self, words: list[str]) -> list[str]:
        """The page's command as the test runs it: `-h localhost` (no port: the default) gets the plain broker's
        port; the demo's and the hall's pages listen on a free port instead of their default (8080, 8090)."""
        out: list[str] = []
        for k, word in enumerate(words):
            if words[k - 1:k] == ["-h"] and word == "localhost" and "-p" not in words:
                out += ["127.0.0.1", "-p", str(self.plain)]
            else:
                out.append(self.word(word))
        if out[0] == "burncycle-table":
            out[:1] = [sys.executable, "-m", "controller.cli"]
            if "demo" in out and "--port" not in out:  # (and its LEDs virtual: no simulated board to start)
                out += ["--port", self.word("8080"), "--host", "127.0.0.1", "--leds", "virtual"]
            if "hall" in out and "--port" not in out:
                out += ["--port", self.word("8090")]
        elif out[0] == "mosquitto":
            out[0] = MOSQUITTO
        return out


class Runner:
    """Runs the page's commands; keeps the background ones (subscribers, brokers, the hall, the demo) and what
    they print, and stops them all at the end."""

    def __init__(self, folder: Path, places: Places) -> None:
        self.folder, self.places = folder, places
        self.background: list[tuple[list[str], subprocess.Popen[str], Path]] = []

    def run(self, words: list[str]) -> list[str]:
        """Runs one command, to its end or in the background (a subscriber, a broker, the hall, the demo); returns
        it as run."""
        command = self.places.command([w for w in words if w != "&"])
        # (the hall is the page's `burncycle-table hall`, not any command with the word: the venue's
        # `mosquitto_passwd ... hall ...` must end before its broker reads the file)
        if words[-1] == "&" or command[0] == "mosquitto_sub" or words[:2] == ["burncycle-table", "hall"]:
            out = self.folder / f"out{len(self.background)}.txt"
            process = subprocess.Popen(command, cwd=self.folder, stdout=out.open("w"), stderr=subprocess.STDOUT,
                                       text=True)
            self.background.append((words, process, out))
            if command[0] == "mosquitto_sub":
                time.sleep(0.5)  # subscribed before the next command publishes
            return command
        done = subprocess.run(command, cwd=self.folder, capture_output=True, text=True, timeout=30)
        assert done.returncode == 0, f"{shlex.join(words)} failed: {done.stdout}{done.stderr}"
        return command

    def printed(self, words: list[str]) -> list[str]:
        return next(out.read_text().splitlines() for w, _, out in self.background if w == words)

    def stop(self) -> None:
        for _, process, _ in reversed(self.background):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(20)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(5)


@pytest.fixture
def runner(tmp_path: Path, broker: Broker) -> Iterator[Runner]:
    made = Runner(tmp_path, Places(plain=broker.port))
    yield made
    made.stop()


def hall_lists(port: int, table_id: str) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=2) as reply:
            tables = json.loads(reply.read())["tables"]
    except (urllib.error.URLError, ConnectionError):
        return False
    return any(t["id"] == table_id and t["online"] for t in tables)


def _topic(words: list[str]) -> str:
    return words[words.index("-t") + 1]


def test_every_example_of_the_topics_the_commands_and_a_shared_broker_runs_as_written(
        tmp_path: Path, broker: Broker, runner: Runner) -> None:
    places = runner.places
    (tmp_path / "venue-broker").mkdir()
    secure = Broker(tmp_path / "venue-broker", tls=True)  # a CA and the server's certificate (openssl) made there
    places.secure, places.ca_file, places.passwords = secure.port, secure.ca_file, tmp_path / "passwords"
    venue = section("A shared broker: passwords and TLS")
    for words in shell_examples(venue.split("At the table")[0]):  # the broker's passwords, by mosquitto_passwd
        runner.run(words)
    config = fenced(venue, "# /etc/mosquitto/conf.d/venue.conf")
    for docs, here in [("listener 8883", f"listener {secure.port} 127.0.0.1"),  # (tests bind only to loopback)
                       ("/etc/mosquitto/certs/ca.crt", secure.ca_file),
                       ("/etc/mosquitto/certs/", f"{tmp_path / 'venue-broker'}/"),
                       ("/etc/mosquitto/passwords", places.passwords)]:
        config = config.replace(docs, str(here))
    secure.config.write_text(f"user {getpass.getuser()}\n{config}")  # (as root, mosquitto would drop to its own
    secure.start()                                                     # user, who cannot read the test's files)

    errors: dict[int, Listener] = {}
    try:  # (from here on the venue's broker and every listener stop, whatever fails)
        (tmp_path / "venue").mkdir()
        (tmp_path / "home").mkdir()
        home, _ = table(tmp_path / "home", broker.port, table_id="table1")
        venue_table, _ = table(tmp_path / "venue", secure.port, table_id="table1", user="table1", password="change-me",
                               tls=True, ca_file=secure.ca_file)
        errors[broker.port] = Listener(broker.port, f"{TABLE}/errors")
        errors[secure.port] = Listener(secure.port, f"{TABLE}/errors", broker=secure, login=("hall", "another-one"))
        tables = {broker.port: home, secure.port: venue_table}

        async def answered(words: list[str]) -> None:
            """A command the page publishes changes its table's game, is answered on its errors topic, or (a door
            sensor's report) asks the players a question."""
            port = secure.port if "broker.local" in words else broker.port
            service, heard = tables[port], errors[port]
            number, refusals = service.number, len(heard.messages)
            questions = len(service.table_view().questions)
            runner.run(words)
            try:
                await until(lambda: service.number > number or len(heard.messages) > refusals
                            or len(service.table_view().questions) > questions, 5)
            except TimeoutError:
                raise AssertionError(f"the table did nothing with the docs' example: {shlex.join(words)}") from None

        async def body() -> None:
            examples = [*shell_examples(section("Out: the game, retained")), *shell_examples(section("In: commands")),
                        *shell_examples(venue.split("At the table")[1])]
            for words in examples:
                if words[0] == "mosquitto_pub" and "/command/" in _topic(words):
                    await answered(words)
                else:
                    runner.run(words)
            for words in shell_examples(section("Many tables: the hall page")):
                command = runner.run(words)
                await until(functools.partial(hall_lists, int(command[command.index("--port") + 1]), "table1"), 30)
            await until(lambda: all(runner.printed(w) for w in examples if w[0] == "mosquitto_sub"), 5)
            events = shell_examples(section("Out: the game, retained"))[3]
            await until(lambda: json.loads(runner.printed(events)[-1])["number"] == home.number, 5)

        running(home, venue_table, body=body)
        _what_the_subscribers_printed(runner, home)
    finally:
        for heard in errors.values():
            heard.close()
        runner.stop()
        secure.stop()


def _what_the_subscribers_printed(runner: Runner, home: TableService) -> None:
    """Each subscriber of the page printed what the page says it prints."""
    out = shell_examples(section("Out: the game, retained"))
    everything = runner.printed(out[0])
    assert f"{TABLE}/availability online" in everything and any(line.startswith(f"{TABLE}/bots/byte {{")
                                                                for line in everything)
    assert runner.printed(out[1])[0] == "0"  # the threat, a number
    assert f"{TABLE}/availability online" in runner.printed(out[2])
    events = [json.loads(line) for line in runner.printed(out[3])]
    assert [e["number"] for e in events] == list(range(events[0]["number"], home.number + 1))
    errors = section("In: commands").split("### Errors")[1]
    shown = json.loads(fenced(errors, "mosquitto_sub", "json"))
    assert json.loads(runner.printed(shell_examples(errors)[0])[-1]) == shown  # the page's own refusal, as sent
    secure_sub = shell_examples(section("A shared broker: passwords and TLS").split("At the table")[1])[0]
    assert runner.printed(secure_sub)[0] == f"{TABLE}/threat 0"


def test_trying_it_with_the_demo_runs_as_written(tmp_path: Path, runner: Runner) -> None:
    """The demo's block starts its own mosquitto (on a free port here), the demo, the hall and a subscriber."""
    runner.places.plain = free_port()
    demo = shell_examples(section("Trying it with the demo"))
    hall_port = 0
    for words in demo:
        command = runner.run(words)
        if "hall" in command:
            hall_port = int(command[command.index("--port") + 1])
        if words[0] == "mosquitto":
            deadline = time.monotonic() + 10
            while subprocess.run(["mosquitto_sub", "-p", str(runner.places.plain), "-t", "x", "-W", "1"],
                                 capture_output=True).returncode not in (0, 27):  # 27: the wait ran out
                assert time.monotonic() < deadline, "the docs' mosquitto did not start"
                time.sleep(0.1)
    deadline = time.monotonic() + 60
    while not (hall_lists(hall_port, "table1") and runner.printed(demo[-1])):
        assert time.monotonic() < deadline, "the demo's game never reached the hall and the subscriber"
        time.sleep(0.2)
    assert re.fullmatch(rf"{TABLE}/threat \d+", runner.printed(demo[-1])[0])
