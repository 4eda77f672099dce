"""The core names no game (DESIGN.md, "What a ruleset is"): a new game is a folder that plugs in without touching
the core, so the core's code and the texts it prints hold no word of a registered ruleset. The words are read from
each ruleset's folder: its name and aliases, the capitalised words of its title, its seats, its dice's symbol
words and the pieces of its `pbem odds` forms ([help] of ruleset.toml). The help texts, the demo and the welcome's
line on a seat come from the ruleset instead (tests below).

Comments and docstrings may take a game as an example; the code and the strings it uses may not. The few allowed
exceptions are listed in ALLOWED, each with its reason."""

from __future__ import annotations

import ast
import io
import os
import re
import shutil
import subprocess
import sys
import tokenize
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator.archive import Archive
from adjudicator.cli import app
from adjudicator.engine.ruleset_source import RulesetDataError, RulesetInfo, RulesetSource
from adjudicator.resources import resource_dir
from adjudicator.rulesets import load_ruleset, ruleset_folders, ruleset_infos
from adjudicator.services.game_data import ruleset_seats
from adjudicator.services.games import NewGameOptions, new_game

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "adjudicator"
CORE = ("cli", "errors.py", "resources.py", "settings.py", "rulesets/__init__.py", "services", "render", "engine")
CORE += ("orders", "mail", "archive")

# (file relative to the tree, function or "" for module level, word): why the word may stand there.
ALLOWED = {
    # configuration, named once: the ruleset of `pbem selfplay`, `demo` and `odds` without --ruleset
    ("adjudicator/settings.py", "", "coe-classic"),
    # "ancient-world conquest games": the product's own words, not the name of a game
    ("adjudicator/cli/commands.py", "", "conquest"),
    # the separator mail clients write above a quoted reply ("Original Message"), not the 1984 edition's alias
    ("adjudicator/mail/inbound.py", "", "Original"),
    # Python's math.inf, not the infantry's keyword
    ("adjudicator/render/svgmap.py", "", "inf"),
    # ENGINE_TEXT_KEYS: the event data keys that hold engine text; "leader" is such a key, and a word of CoE's pieces
    ("adjudicator/render/i18n.py", "", "leader"),
    # the shared map's symbol set (render/svgmap.py): a ruleset's map layers pick markers and legend samples from it
    # by name; symbols drawn from a ruleset's own folder would take these out of the core
    *(("templates/map-marks.svg.j2", "", word) for word in ("fort", "large")),
    ("templates/map.svg.j2", "", "fortified"),
    ("templates/map-area.svg.j2", "", "fortified"),  # an area's marker, drawn apart from map.svg.j2
}
PLAIN = {"LARGE", "SMALL"}  # words of the forms that are no piece ('4 INF LARGE FORT'), and plain English


def game_words() -> dict[str, set[str]]:
    """Each registered ruleset's words, read from its folder."""
    words: dict[str, set[str]] = {}
    for name, folder in ruleset_folders().items():
        source = RulesetSource.open(folder)
        ruleset = load_ruleset(name)
        found = {name, *(alias for alias in ruleset.aliases if len(alias) > 2)}
        found |= {word for word in re.findall(r"[A-Za-z]+", ruleset.title) if word[0].isupper() and len(word) > 3}
        found |= {seat for seat, _ in ruleset_seats(name, None).seats}
        found |= {word for word in ruleset.dice_words if word.isalpha() and word != "blank"}
        forms = " ".join(str(text) for key, text in source.table("help", {}).items() if key.startswith("odds"))
        for quoted in re.findall(r"'([^']*)'", forms):  # the pieces of the forms: '10 INF 7 CAV 3 CAT 2 LEADERS'
            found |= {word for word in re.findall(r"\b[A-Z][A-Z_]{2,}\b", quoted)} - PLAIN
        words[name] = found
    return words


def pattern(words: set[str]) -> re.Pattern[str]:
    alternatives = "|".join(sorted(map(re.escape, words), key=len, reverse=True))
    return re.compile(rf"(?<![\w-])({alternatives})(?![\w-])", re.IGNORECASE)


def python_texts(path: Path) -> Iterator[tuple[int, str, str]]:
    """(line, top-level function, text) of every name and string of a module that is no docstring (comments are
    no tokens)."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    docstrings = {
        (node.body[0].lineno, node.body[0].col_offset)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
        and isinstance(node.body[0].value.value, str)
    }
    functions = [
        (node.lineno, node.end_lineno or node.lineno, node.name)
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in (tokenize.NAME, tokenize.STRING) or token.start in docstrings:
            continue
        line = token.start[0]
        function = next((name for first, last, name in functions if first <= line <= last), "")
        yield line, function, token.string


def template_texts(path: Path) -> Iterator[tuple[int, str, str]]:
    text = re.sub(r"\{#.*?#\}", lambda m: "\n" * m.group(0).count("\n"), path.read_text(encoding="utf-8"), flags=re.S)
    for number, line in enumerate(text.splitlines(), 1):
        yield number, "", line


def core_files() -> list[Path]:
    files: list[Path] = []
    for part in CORE:
        path = PACKAGE / part
        files += sorted(path.glob("*.py")) if path.is_dir() else [path]
    return files + sorted((ROOT / "templates").glob("*.j2")) + sorted((ROOT / "templates" / "site").glob("*.j2"))


def test_the_core_names_no_registered_ruleset_and_no_game_word() -> None:
    words = pattern(set().union(*game_words().values()))
    found = []
    for path in core_files():
        relative = path.relative_to(ROOT).as_posix()
        texts = python_texts(path) if path.suffix == ".py" else template_texts(path)
        for line, function, text in texts:
            for match in words.finditer(text):
                if (relative, function, match.group(0)) not in ALLOWED:
                    found.append(f"{relative}:{line} ({function or 'module'}): {match.group(0)!r} in {text[:80]!r}")
    assert found == []


def test_the_words_looked_for_come_from_every_ruleset_folder() -> None:
    """The list is no empty promise: each ruleset gives its name, seats and pieces."""
    words = game_words()
    assert {"coe-classic", "Macedonia", "CAESAR", "GALLEYS", "cav"} <= words["coe-classic"]
    assert {"conqueror-er", "Conqueror", "ARCHER"} <= words["conqueror-er"]


def plugged_in(tmp_path: Path, edit: Callable[[str], str]) -> Path:
    """A copy of coe-classic's folder named `tryout`, its ruleset.toml edited: a game from outside the package."""
    folder = tmp_path / "mine" / "tryout"
    shutil.copytree(resource_dir("games") / "coe-classic", folder)
    toml = folder / "ruleset.toml"
    text = toml.read_text(encoding="utf-8").replace('name = "coe-classic"', 'name = "tryout"')
    toml.write_text(edit(text.replace('aliases = ["classic", "coe2005", "coe"]', "aliases = []")), encoding="utf-8")
    return tmp_path / "mine"


def test_a_plugged_in_rulesets_help_words_reach_the_help_texts(tmp_path: Path) -> None:
    """[help] of a ruleset from PBEM_RULESETS: its modes, seats and option example are in `pbem selfplay --help`."""
    words = '[help]\nmodes = "short or long"\nplayers = "Tryout: 2 or 3"\noption = "rounds=5"\n'
    mine = plugged_in(tmp_path, lambda text: text.replace("[help]\n", words, 1).replace('players = "Classic', "#"))
    run = subprocess.run(
        [sys.executable, "-m", "adjudicator.cli", "selfplay", "--help"],
        env={**os.environ, "PBEM_RULESETS": str(mine)},
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    said = " ".join(run.stdout.split())  # as one line, whatever the wrapping
    assert "The game mode (conqueror-er: imperator or conquest; tryout: short or long)." in said
    assert "Number of seats (Classic: 2 to 6; Empires: 3 to 5; Tryout: 2 or 3)." in said
    assert "(e.g. --option seas_of_destiny=true)" in said  # the first ruleset's example


def test_pbem_demo_plays_the_scripted_game_of_the_rulesets_demo_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`pbem demo` plays the game that the ruleset's [demo] table scripts, with its game name, seats and order files
    (here a table of two turns): the core holds no demo of its own."""
    two_turns = tmp_path / "script"
    two_turns.mkdir()
    for path in sorted((resource_dir("games") / "coe-classic" / "demo").glob("*.txt"))[:2]:
        (two_turns / path.name).write_text(path.read_text(encoding="utf-8").replace("GAME demo", "GAME tryout1"))
    classic = load_ruleset("coe-classic")
    table = {**classic.demo, "orders": str(two_turns), "game": "tryout1"}  # an absolute folder is taken as it is
    monkeypatch.setattr(classic, "info", replace(classic.info, demo=table))
    run = CliRunner().invoke(app, ["demo", "--data", str(tmp_path / "demo")])
    assert run.exit_code == 0, run.output
    assert f"Created game tryout1 (coe-classic) with seats Macedonia, Egyptus, Hispania in {tmp_path / 'demo'}" in (
        run.output
    )
    assert run.output.count("resolved ->") == 2
    assert "Verified by replay" in run.output and ", 0 problems" in run.output
    assert (tmp_path / "demo" / "games" / "tryout1" / "turn-0002" / "report.txt").is_file()
    refused = CliRunner().invoke(app, ["demo", "--data", str(tmp_path / "x"), "--seed", "2"])
    assert refused.exit_code == 1
    assert "the coe-classic demo is scripted: --seats, --mode, --seed, --turns are for a bot demo" in refused.output


def test_C_1_8_classic_dice_show_symbols_and_O_6_13_1984_and_other_dice_numbers() -> None:
    """Whether a decision notice shows a roll's faces is the ruleset's to say (services/reports.py asks it): Classic's
    combat die has symbols (C-1.8), 1984's target-number combat reads numbers (O-6.13) though its dice files may
    write the same words, and a ruleset without dice words rolls numbers (the base's default)."""
    assert load_ruleset("coe-classic").symbol_dice is True
    assert load_ruleset("coe-1984").dice_words and load_ruleset("coe-1984").symbol_dice is False
    assert load_ruleset("conqueror-er").symbol_dice is False


def test_a_welcome_says_of_the_seat_what_its_rulesets_templates_say(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The welcome's line on a seat's start is the ruleset's (its seat-start.txt.j2, given the seat, the seats and
    its own view of the position, no other seat's hand); Classic's names the home province (C-0.11)."""
    mine = tmp_path / "mine" / "sealed_bids"
    shutil.copytree(ROOT / "tests" / "rulesets" / "sealed_bids", mine)
    (mine / "templates" / "seat-start.txt.j2").write_text(
        "You bid as {{ seat }} (private parts you see: {{ position.private | list | join(', ') }}), against "
        "{{ seats | reject('equalto', seat) | join(' and ') }}.",
        encoding="utf-8",
    )
    monkeypatch.setenv("PBEM_RULESETS", str(tmp_path / "mine"))
    seats = {"North": "north@example.org", "East": "east@example.org", "South": "south@example.org"}
    new_game(Archive.in_folder(tmp_path / "bids"), tmp_path / "bids", NewGameOptions("bids1", "sealed_bids", seats))
    welcome = (tmp_path / "bids" / "games" / "bids1" / "outbox" / "welcome-East.txt").read_text(encoding="utf-8")
    assert "\nYou bid as East (private parts you see: East), against North and South.\nPace:" in welcome
    assert "You play East" not in welcome
    monkeypatch.delenv("PBEM_RULESETS")
    classic = {"Macedonia": "mac@example.org", "Egyptus": "egy@example.org", "Hispania": "his@example.org"}
    new_game(Archive.in_folder(tmp_path / "rome"), tmp_path / "rome", NewGameOptions("rome1", "coe-classic", classic))
    welcome = (tmp_path / "rome" / "games" / "rome1" / "outbox" / "welcome-Egyptus.txt").read_text(encoding="utf-8")
    assert "\nYou play Egyptus (home province EGY). Turn order: Macedonia, Egyptus, Hispania.\nPace:" in welcome


@pytest.mark.parametrize(
    ("old", "new", "named"),
    [
        ('orders = "demo"\n', "", "demo.orders: missing"),
        ('Egyptus = "egy@example.org"', "Egyptus = 2", "demo.seats.Egyptus: expected a string"),
        ('players = "Classic: 2 to 6"', 'seat_count = "2 to 6"', "help.seat_count: unknown help topic"),
    ],
)
def test_a_wrong_demo_or_help_table_is_named_by_file_and_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old: str, new: str, named: str
) -> None:
    """A ruleset.toml whose [demo] or [help] is wrong is refused naming the file and the key, as its other keys are;
    `pbem rulesets` names it, and the other rulesets' help texts stand."""
    mine = plugged_in(tmp_path, lambda text: text.replace(old, new, 1))
    monkeypatch.setenv("PBEM_RULESETS", str(mine))
    with pytest.raises(RulesetDataError, match=re.escape(f"{mine / 'tryout' / 'ruleset.toml'}: {named}")):
        RulesetInfo.read(RulesetSource.open(mine / "tryout"))
    listed = CliRunner().invoke(app, ["rulesets"])
    assert listed.exit_code == 1 and f"tryout         NOT USABLE: {mine / 'tryout' / 'ruleset.toml'}: {named}" in (
        listed.output
    )
    assert "tryout" not in {info.name for info in ruleset_infos()}
