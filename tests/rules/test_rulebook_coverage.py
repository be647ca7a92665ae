"""Every rule sentence of both rulebooks is quoted by some test's docstring.

The rulebooks are the specification, and the convention is that each rule test quotes the sentence it checks.
This meta-test closes the loop: it splits both rulebook files into rule sentences (the sentences of paragraphs,
of bullets and numbered items, the ">>" clarifications and the rows of printed tables) and asserts that each
is quoted in the docstring of at least one test function under tests/. A sentence counts as quoted when a test
docstring holds a run of QUOTE_WORDS consecutive words of it that no other rulebook sentence shares, or, for a
sentence of at most QUOTE_WORDS words, the whole sentence with its closing punctuation (so "Advance threat by
1." is not matched by any docstring that merely mentions advancing threat). Headings (short lines that are
neither a sentence, a list item nor a table row) are not sentences. What is left and is not a rule is in
ALLOWLIST, with the reason; rules the engine does not (yet) honour are in NOT_YET, with the reason, so the gap
stays visible.
"""

from __future__ import annotations

import ast
import os
import re
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULEBOOKS = ("burncycle-rules-reference.txt", "robophobia-expansion.txt")
TESTS = ROOT / "tests"
QUOTE_WORDS = 6

# Sentences of the rulebooks that are not rules, each with why. Keys are the normalised sentence (see `normalise`).
ALLOWLIST: dict[str, str] = {
    # "Using This Book" prose: how to read the reference, not how to play.
    "this reference consolidates all gameplay rules for burncycle into an accessible, alphabetical format.":
        "Using This Book prose",
    "new players are encouraged to begin with the learn to play manual to grasp the basic round flow and "
    "initial setup.": "Using This Book prose",
    "turn to this reference guide whenever specific questions or edge cases arise.": "Using This Book prose",
    "clarifications addressing frequently anticipated questions are highlighted with >> at the conclusion of "
    "relevant entries.": "Using This Book prose: explains the >> marker",
    # The expansion's table of contents lists the headings that follow.
    "captain card": "table of contents entry",
    "fauxbia (captain, 25)": "table of contents entry",
    "wildcard bot card": "table of contents entry",
    "nano (wildcard)": "table of contents entry",
    "adaptable missions": "table of contents entry",
    "rules: adaptable missions": "table of contents entry",
    "adaptable: operation module tsm-103c": "table of contents entry",
    "adaptable: operation rescue rangers": "table of contents entry",
    "adaptable: operation preconnaissance": "table of contents entry",
    "adaptable: operation ghost in the dell": "table of contents entry",
    # Notes of the transcriber about how the cards were read.
    "note: this grid is a reading of the card's icons.": "transcription note",
    "the printed colours are the guard-type colours, and the legend key is the keys symbol.": "transcription note",
    "the card does not spell out the grid in words, so check it against the physical card.": "transcription note",
    "note: the numbers before asterisk, reassemble and risky click are the ability's icon values as printed.":
        "transcription note",
    "the card's stat icons (5, 3 and 3) are not transcribed, because their meaning is not printed on the card "
    "art.": "transcription note",
    "the adaptable sheet is the rules card for the adaptable missions, followed by four mission cards.":
        "transcription note about the sheet's layout",
    "the mod's sheet has no fifth mission card, though the box lists five.": "transcription note",
    "where a condition is tagged with a coloured person icon (pink 1+, blue 2+, green 3+, orange 4), it is "
    "written here as \"level n+ team\".": "transcription note: how the level icons are written",
    "icon-only spaces (captain, command module, ghost) are named by their printed role and should be checked "
    "against the physical card.": "transcription note",
    # Flavour and overviews whose content the following entries state as rules.
    "adaptable missions can be played on any floor of any corporation, allowing for wide re-playability.":
        "flavour: the setup sentences that follow are the rule",
    "bots are player-controlled characters, comprising agents and the command module.":
        "definition; the agent and command module entries state the rules",
    "each floor consists of room mats and hallways.": "description of the components",
    "the network mat represents the digital cyberspace.": "flavour",
    "the single-tile entrance mat creates a doorway and covers unused security posts.":
        "physical component note: the floor files draw the entrance",
    "the ceo is located on the network mat and acts via pings.": "description; Ping Activation states the rules",
    "awareness tracks the corporation's surveillance of the bot team.": "flavour",
    "move actions represent the primary method for bots to traverse the floor.": "flavour",
    "cards imposing conditions on agents.": "definition; the imperative entries that follow are the rules",
    "designated by symbols in rooms.": "how hiding spots are printed (the floor files draw them)",
    "some mission objectives conclude with an escape.": "overview; the escape sentences that follow are the rule",
    "they populate the burncycle track and constitute reserves.": "overview of where chips lie",
    "mission cards, agent abilities, and equipment cards may also offer unique free actions.":
        "overview; each card's free action is tested with its card",
    # Lead-ins to a list: the list items that follow are the rules (and are quoted by tests).
    "key rules:": "lead-in to a list", "there are three grades of action dice:": "lead-in to a list",
    "categories include:": "lead-in to a list", "possible outcomes include:": "lead-in to a list",
    "approaches to unlock the door:": "lead-in to a list", "icons are resolved as follows:": "lead-in to a list",
    "results of striking a security unit:": "lead-in to a list", "task qualifiers include:": "lead-in to a list",
    "deployment markers for guards:": "lead-in to a list",
    "layer post 1 post 2 post 3": "header row of the security detail table",
    # The Adaptable mission cards' labels: a name and printed icons, then the tasks as bullets (which are rules).
    # The "burncycle icon, gear value" of a calibration is printed art the expansion does not explain.
    "length: 1 floor.": "the mission's length; every Adaptable mission is one floor, as missions.toml says",
    "complexity: 1 (of 3 complexity icons).": "a difficulty rating for choosing a mission, not a rule",
    "complexity: 2.": "a difficulty rating for choosing a mission, not a rule",
    "complexity: 3.": "a difficulty rating for choosing a mission, not a rule",
    "needed calibrations (1 burncycle icon, gear value 2):": "label of the calibration tasks that follow",
    "needed calibrations: the search begins (1 burncycle icon, gear value 2):": "label of the tasks that follow",
    "surprise inspection (1 burncycle icon, gear value 2):": "label of the calibration tasks that follow",
    "do-while-end (1 burncycle icon, gear value 2):": "label of the calibration tasks that follow",
    "win condition, dial out:": "label of the win tasks that follow",
    "win condition, chips are never down:": "label of the win tasks that follow",
    "win condition, without a trace:": "label of the win tasks that follow",
    "win condition, puppet without a ghost:": "label of the win tasks that follow",
    # Given at the table, not by the engine: the engine applies the trade the players agreed to.
    "exchanges between two player agents require the consent of both players.":
        "social rule: the engine cannot see consent; a Trade action is the agreed exchange",
}

# Rule sentences the engine does not honour yet, each with why (the lead decides). Keys as in ALLOWLIST.
NOT_YET: dict[str, str] = {}


def normalise(text: str) -> str:
    """Straight quotes, one space between words, lower case: how sentences and docstrings are compared."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    return " ".join(text.split()).casefold()


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9+]+(?:['.-][a-z0-9+]+)*", text)


ITEM = re.compile(r"^(?:•|\d+\.)\s+")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"(>])|(?<=[.!?][\")])\s+(?=[A-Z])")


def _is_heading(line: str) -> bool:
    return "\t" not in line and not line.rstrip().endswith((".", "!", "?", ":")) and len(line.split()) <= 8


def rule_sentences(text: str) -> list[str]:
    """The rulebook's sentences, in order: paragraphs, bullets and numbered items split into sentences, the
    ">>" marker dropped, table rows kept whole, headings left out."""
    sentences: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        item = ITEM.match(line)
        body = line[item.end():] if item else line
        body = body.removeprefix(">>").strip()
        if not item and _is_heading(line):
            continue
        if "\t" in body:
            sentences.append(" ".join(body.split()))
            continue
        sentences.extend(s for s in SENTENCE_END.split(body) if s.strip())
    return sentences


def rulebook_dir(root: Path = ROOT) -> Path:
    """The rulebooks sit in shared/rulebook beside the checkout (../shared), or beside the folder of a worktree
    one level deeper (../../shared); BURNCYCLE_RULEBOOK names another folder. They are not in the project's
    repository, so a clone of it alone has none: there the rulebook tests skip and say where they looked. A
    BURNCYCLE_RULEBOOK that names no rulebooks is a mistake, and fails."""
    explicit = os.environ.get("BURNCYCLE_RULEBOOK")
    places = [Path(explicit)] if explicit else [root / ".." / "shared" / "rulebook",
                                                root / ".." / ".." / "shared" / "rulebook"]
    for place in places:
        if all((place / name).is_file() for name in RULEBOOKS):
            return place
    where = (f"the rulebooks ({', '.join(RULEBOOKS)}) are not in {' or '.join(str(p) for p in places)}: put "
             f"them in shared/rulebook beside the checkout, or set BURNCYCLE_RULEBOOK to their folder")
    if explicit:
        pytest.fail(where, pytrace=False)
    pytest.skip(where)


@lru_cache(maxsize=1)
def all_rule_sentences() -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for name in RULEBOOKS:
        for sentence in rule_sentences((rulebook_dir() / name).read_text(encoding="utf-8")):
            seen.setdefault(normalise(sentence), None)
    return tuple(seen)


def docstrings_of_tests() -> list[str]:
    """Docstrings of every test function under tests/ (but this file's), normalised."""
    found: list[str] = []
    for path in sorted(TESTS.rglob("test_*.py")):
        if path.resolve() == Path(__file__).resolve():
            continue  # this file's own examples quote sentences without testing them
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                doc = ast.get_docstring(node)
                if doc:
                    found.append(normalise(doc))
    return found


def windows(sentence: str) -> set[str]:
    tokens = words(sentence)
    return {" ".join(tokens[i:i + QUOTE_WORDS]) for i in range(len(tokens) - QUOTE_WORDS + 1)}


@lru_cache(maxsize=1)
def distinctive_windows() -> dict[str, set[str]]:
    """Each long sentence's runs of words that no other rulebook sentence shares: "If optimized, add +2 AP to
    the total rolled." (moves) must not count as a quote of the strike's "If the action is optimized, add +2 AP
    to the total rolled." A sentence whose every run is shared elsewhere keeps them all."""
    sentences = [s for s in all_rule_sentences() if len(words(s)) > QUOTE_WORDS]
    seen: dict[str, int] = {}
    for s in sentences:
        for w in windows(s):
            seen[w] = seen.get(w, 0) + 1
    return {s: ({w for w in windows(s) if seen[w] == 1} or windows(s)) for s in sentences}


def is_quoted(sentence: str, docs_text: str, docs_words: str) -> bool:
    """A distinctive run of QUOTE_WORDS words of a long sentence, or the whole of a short one (with its closing
    punctuation), appears in a docstring."""
    if len(words(sentence)) <= QUOTE_WORDS:
        return sentence in docs_text
    runs = distinctive_windows().get(sentence) or windows(sentence)
    return any(f" {w} " in docs_words for w in runs)


def uncovered() -> list[str]:
    docs = docstrings_of_tests()
    docs_text = "\n".join(docs)
    docs_words = " | ".join(" ".join(words(d)) for d in docs)
    docs_words = f" {docs_words} "
    return [s for s in all_rule_sentences()
            if s not in ALLOWLIST and s not in NOT_YET and not is_quoted(s, docs_text, docs_words)]


def test_every_rule_sentence_is_quoted_by_a_test():
    missing = uncovered()
    assert not missing, (f"{len(missing)} rule sentences are quoted by no test docstring "
                         "(quote them in a scenario test, or list them in ALLOWLIST/NOT_YET with the reason):\n"
                         + "\n".join(f"  - {s}" for s in missing))


def test_allowlist_and_not_yet_name_real_sentences():
    """A stale entry (the rulebook changed, or a typo) would silently allow nothing; each must be a sentence."""
    sentences = set(all_rule_sentences())
    stale = [s for s in [*ALLOWLIST, *NOT_YET] if s not in sentences]
    assert not stale, "entries that are no rulebook sentence:\n" + "\n".join(stale)


def test_allowlisted_sentences_are_not_also_not_yet():
    assert not set(ALLOWLIST) & set(NOT_YET)


def test_splitter_keeps_items_clarifications_and_table_rows_and_drops_headings():
    """The splitter itself: a heading is dropped, a bullet's sentences split, ">>" dropped, a row kept."""
    text = ("Area\n\nAn area is a group. Each room is one.\n\n• Walls block. Doors do not.\n"
            "• >> Guards see.\n1. Priority 1: Pursue.\nLayer\tPost 1\n1\tyellow 2\n")
    assert rule_sentences(text) == ["An area is a group.", "Each room is one.", "Walls block.", "Doors do not.",
                                    "Guards see.", "Priority 1: Pursue.", "Layer Post 1", "1 yellow 2"]


def test_a_short_sentence_needs_its_whole_text_and_a_long_one_six_words():
    docs = [normalise('"Advance threat by 1, then all eligible pings transfer." and more')]
    text, toks = "\n".join(docs), " " + " | ".join(" ".join(words(d)) for d in docs) + " "
    assert not is_quoted("advance threat by 1.", text, toks)
    assert is_quoted("advance threat by 1, then all eligible pings transfer outwards.", text, toks)
    assert not is_quoted("threat by 1, then the rest differs entirely.", text, toks)


def test_a_run_shared_with_another_sentence_does_not_quote_it():
    """The move's "If optimized, add +2 AP to the total rolled." quotes the move's sentence, not the strike's
    "If the action is optimized, add +2 AP to the total rolled." (their shared runs are not distinctive)."""
    strike = "if the action is optimized, add +2 ap to the total rolled."
    assert strike in all_rule_sentences()
    docs = [normalise('"If optimized, add +2 AP to the total rolled."')]
    text, toks = "\n".join(docs), " " + " | ".join(" ".join(words(d)) for d in docs) + " "
    assert not is_quoted(strike, text, toks)
    assert is_quoted("if optimized, add +2 ap to the total rolled.", text, toks)


def test_the_rulebook_is_found_beside_the_checkout_and_missing_says_where(tmp_path, monkeypatch):
    """Found relative to the project, not at one machine's absolute path; absent (a clone of the project's own
    repository), the rulebook tests skip and say where they looked; a BURNCYCLE_RULEBOOK naming none fails."""
    monkeypatch.delenv("BURNCYCLE_RULEBOOK", raising=False)
    checkout = tmp_path / "projects" / "burncycle-table"
    checkout.mkdir(parents=True)
    with pytest.raises(pytest.skip.Exception) as missing:
        rulebook_dir(checkout)
    assert f"are not in {checkout / '..' / 'shared' / 'rulebook'}" in str(missing.value)
    assert "set BURNCYCLE_RULEBOOK" in str(missing.value)
    monkeypatch.setenv("BURNCYCLE_RULEBOOK", str(tmp_path / "nowhere"))
    with pytest.raises(pytest.fail.Exception) as wrong:
        rulebook_dir(checkout)
    assert f"are not in {tmp_path / 'nowhere'}" in str(wrong.value)
    monkeypatch.delenv("BURNCYCLE_RULEBOOK")
    shared = tmp_path / "projects" / "shared" / "rulebook"
    shared.mkdir(parents=True)
    for name in RULEBOOKS:
        (shared / name).write_text("Rules.")
    assert rulebook_dir(checkout).resolve() == shared.resolve()
