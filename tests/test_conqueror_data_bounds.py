"""Conqueror: Empire Rises game data that play cannot use is refused wherever data is read (ER-13): `pbem data
check`, `pbem new --game-data`, `pbem resolve --game-data` and the data stored with a game. Every number has a
bound chosen from what play can use (docs/conqueror-data.md), a file has a size limit and its lists and tables a
nesting limit checked before it is parsed; each refusal names the file, the key (or line) and the rule ID, never
a traceback."""

from __future__ import annotations

import json
import random
import re
import shutil
import tempfile
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from adjudicator.engine.chance import KeyedDice
from adjudicator.engine.steps import resolve_step
from adjudicator.errors import PbemError
from adjudicator.orders import parse_orders
from adjudicator.resources import resource_dir
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.conqueror.data import GameData
from adjudicator.rulesets.conqueror.loader import FILES, check_folder, load_folder
from adjudicator.rulesets.conqueror.problems import WHOLE_FILE
from adjudicator.rulesets.conqueror.setup import SetupError, game_options
from adjudicator.services.game_data import stored_game_ruleset
from adjudicator.services.selfplay import playable
from tests.conftest import Pbem

EXAMPLE = resource_dir("games") / "conqueror-er" / "example-data"
SEATS = ("--seat", "aurel=a@example.org", "--seat", "kesh=k@example.org", "--seat", "thal=t@example.org")
DEEP = "[" * 5000 + "]" * 5000


def copy(tmp_path: Path, name: str = "data") -> Path:
    folder = tmp_path / name
    shutil.copytree(EXAMPLE, folder)
    return folder


def edit(folder: Path, file: str, old: str, new: str) -> None:
    """Replace the first `old` of `file` (which must hold it) by `new`."""
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {file}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def edit_all(folder: Path, file: str, pattern: str, new: str) -> None:
    """Replace the first match of the regular expression `pattern` in `file` by `new`."""
    path = folder / file
    text, count = re.subn(pattern, new, path.read_text(encoding="utf-8"), count=1, flags=re.DOTALL)
    assert count == 1, f"{pattern!r} is not in {file}"
    path.write_text(text, encoding="utf-8")


def append(folder: Path, file: str, text: str) -> int:
    """Append `text` as new lines of `file`; the number of its first line."""
    path = folder / file
    before = path.read_text(encoding="utf-8")
    path.write_text(f"{before}{text}\n", encoding="utf-8")
    return before.count("\n") + 1


def problems(folder: Path) -> list[str]:
    return [problem.text() for problem in check_folder(folder).problems]


def refused(pbem: Pbem, *args: str) -> str:
    """The output of a pbem command that must refuse with exit 1 and a message, not a traceback."""
    result = pbem(*args, data=args[0] not in ("data", "resolve"))  # these read no archive
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result.output


def stored(folder: Path) -> str:
    """The archive's game_data of a game made from `folder` (services/games.py)."""
    files = {path.name: path.read_text(encoding="utf-8") for path in sorted(folder.glob("*.toml"))}
    return json.dumps({"files": files, "mode": None, "options": {}}, sort_keys=True)


# -- nesting and size, checked before parsing ------------------------------------------------------------------


def test_ER_13_lists_nested_5000_deep_are_refused_by_data_check_and_new_naming_file_and_line(
    pbem: Pbem, tmp_path: Path
) -> None:
    folder = copy(tmp_path)
    line = append(folder, "tracks.toml", f"deep = {DEEP}")
    message = f"tracks.toml (ER-13): lists and tables nest more than 10 deep at line {line}"
    assert message in refused(pbem, "data", "check", str(folder))
    output = refused(pbem, "new", "er1", "--ruleset", "conqueror-er", "--game-data", str(folder), *SEATS)
    assert message in output and not (pbem.data / "games" / "er1").exists()


def test_ER_13_a_game_data_toml_nested_5000_deep_is_refused_when_its_ruleset_is_looked_up(
    pbem: Pbem, tmp_path: Path
) -> None:
    folder = copy(tmp_path)
    line = append(folder, "game-data.toml", f"deep = {DEEP}")
    output = refused(pbem, "data", "check", str(folder))
    assert f"game-data.toml: lists and tables nest more than 10 deep at line {line}" in output


def test_ER_13_7_private_texts_nested_deep_are_refused_naming_the_file(tmp_path: Path) -> None:
    folder = copy(tmp_path)
    (folder / "private").mkdir()
    (folder / "private" / "texts.toml").write_text(f"deep = {DEEP}\n", encoding="utf-8")
    dotted = ".".join(["hero"] * 3000)  # dotted keys nest tables without brackets
    (folder / "private" / "keys.toml").write_text(f"[{dotted}]\ntext = 'x'\n", encoding="utf-8")
    found = problems(folder)
    assert "private/texts.toml (ER-13.7): lists and tables nest more than 10 deep at line 1" in found
    assert any(text.startswith("private/keys.toml: hero.hero.hero") for text in found), found


def test_ER_13_a_30_MB_comment_is_refused_before_the_file_is_read(pbem: Pbem, tmp_path: Path) -> None:
    folder = copy(tmp_path)
    append(folder, "cards.toml", "# " + "x" * 30_000_000)
    size = (folder / "cards.toml").stat().st_size
    message = f"cards.toml (ER-13): the file is {size} bytes; a data file is at most 262144 bytes"
    assert message in refused(pbem, "data", "check", str(folder))
    output = refused(pbem, "new", "er1", "--ruleset", "conqueror-er", "--game-data", str(folder), *SEATS)
    assert message in output and not (pbem.data / "games" / "er1").exists()


def test_ER_13_stored_game_data_beyond_the_limits_is_named_as_damaged(tmp_path: Path) -> None:
    folder = copy(tmp_path)
    append(folder, "tracks.toml", f"deep = {DEEP}")
    with pytest.raises(PbemError, match=r"(?s)files\) is refused: .*tracks\.toml \(ER-13\): lists and"):
        stored_game_ruleset("conqueror-er", stored(folder))
    with pytest.raises(PbemError, match=r"\(game_data\) is refused: lists and tables nest more than 10 deep at line 1"):
        stored_game_ruleset("conqueror-er", DEEP)
    big = json.dumps({"files": {"cards.toml": "#" + "x" * 2_000_000}, "mode": None, "options": {}})
    with pytest.raises(PbemError, match=r"(?s)game_data\.files\) is refused: .*cards\.toml \(ER-13\): the file is"):
        stored_game_ruleset("conqueror-er", big)


def test_ER_13_selfplay_with_a_folder_beyond_the_limits_names_the_folder_and_file(tmp_path: Path) -> None:
    folder = copy(tmp_path)
    append(folder, "factions.toml", f"deep = {DEEP}")
    with pytest.raises(PbemError, match=f"{folder}: factions.toml \\(ER-13\\): lists and tables nest more than 10"):
        playable(load_ruleset("conqueror-er"), folder)


# -- numbers beyond what play can use, and lists play cannot use -----------------------------------------------

HUGE = "100000000000000000"  # 10^17
BEYOND = [  # (file, pattern, new text, the problem named: file: key (rule): what)
    pytest.param(
        "tracks.toml",
        r"imperator = \[\n.*?\n\]",
        "imperator = []",
        "tracks.toml: trade.imperator (ER-5.8): 0 entries; 2 to 20 are needed",
        id="ER_5_8_empty_trade_track",
    ),
    pytest.param(
        "factions.toml",
        "base_income = 3",
        "base_income = 10000000000000000000000",
        "factions.toml: faction[0].board[0].base_income (ER-5.2): 10000000000000000000000 is out of range: 0 to 20",
        id="ER_5_2_base_income_10_22",
    ),
    pytest.param(
        "tracks.toml",
        "imperator = 10",
        "imperator = 1000000000",
        "tracks.toml: rounds.imperator (ER-3.1): 1000000000 is out of range: 1 to 20",
        id="ER_3_1_rounds_10_9",
    ),
    pytest.param(
        "cards.toml",
        "count = 4",
        f"count = {HUGE}",
        f"cards.toml: tactic[0].count (ER-1.2): {HUGE} is out of range: 1 to 38",
        id="ER_1_2_tactic_count_10_17",
    ),
    pytest.param(
        "cards.toml",
        'op = "draw_tactic", n = 1',
        'op = "draw_tactic", n = -5',
        "cards.toml: hero[29].effects[0].n (ER-13.6): -5 is out of range: 0 to 20",
        id="ER_13_6_draw_tactic_minus_5",
    ),
    pytest.param(
        "cards.toml",
        'op = "draw_tactic", n = 1',
        f'op = "draw_tactic", n = {HUGE}',
        f"cards.toml: hero[29].effects[0].n (ER-13.6): {HUGE} is out of range: 0 to 20",
        id="ER_13_6_draw_tactic_10_17",
    ),
    pytest.param(
        "board-3-4.toml",
        "food = 2",
        "food = 9223372036854775807",
        "board-3-4.toml: area[0].food (ER-5.30): 9223372036854775807 is out of range: 0 to 10",
        id="ER_5_30_food_2_63",
    ),
    pytest.param(
        "tracks.toml",
        r"max_units = \[0, 4,",
        "max_units = [0, 9223372036854775807,",
        "tracks.toml: food.max_units[1] (ER-5.31): 9223372036854775807 is out of range: 0 to 180",
        id="ER_5_31_food_track_2_63",
    ),
    pytest.param(
        "tracks.toml",
        r"granary = \[5, 6, 7\]",
        f"granary = [{HUGE}]",
        f"tracks.toml: districts.granary[0] (ER-5.16): {HUGE} is out of range: 0 to 50",
        id="ER_5_16_price_10_17",
    ),
    pytest.param(
        "cards.toml",
        r'if = \["won"\]',
        'if = ["won", "round_ge(' + "9" * 5000 + ')"]',
        "cards.toml: hero[0].effects[0].if[1] (ER-13.6): 999999999999 is out of range: -999 to 999",
        id="ER_13_6_condition_of_5000_digits",
    ),
    pytest.param(
        "board-3-4.toml",
        r'adjacent = \["MIR"',
        'adjacent = ["MIR", "MIR"',
        "board-3-4.toml: area[0].adjacent[1] (ER-2.1): 'MIR' is given twice",
        id="ER_2_1_duplicated_adjacency",
    ),
]


@pytest.mark.parametrize(("file", "pattern", "new", "problem"), BEYOND)
def test_ER_13_data_play_cannot_use_is_refused_naming_file_key_and_rule(
    tmp_path: Path, file: str, pattern: str, new: str, problem: str
) -> None:
    folder = copy(tmp_path)
    edit_all(folder, file, pattern, new)
    assert problem in problems(folder)


def test_ER_13_pbem_check_and_resolve_with_game_data_refuse_data_beyond_the_bounds(pbem: Pbem, tmp_path: Path) -> None:
    rules, _ = playable(load_ruleset("conqueror-er"))
    state = tmp_path / "snapshot.json"
    state.write_text(rules.snapshot_text(rules.initial_state("er1", ["aurel", "kesh", "thal"]), None), encoding="utf-8")
    orders = tmp_path / "orders.txt"
    orders.write_text("GAME er1 TURN 1 PLAYER kesh PASSWORD x\n", encoding="utf-8")
    folder = copy(tmp_path)
    edit(folder, "tracks.toml", "imperator = 10", "imperator = 1000000000")
    problem = "tracks.toml: rounds.imperator (ER-3.1): 1000000000 is out of range: 1 to 20"
    assert problem in refused(pbem, "check", str(orders), "--state", str(state), "--game-data", str(folder))
    out = tmp_path / "out"
    assert problem in refused(pbem, "resolve", "--state", str(state), "--out", str(out), "--game-data", str(folder))
    assert not out.exists()


def test_ER_13_stored_game_data_beyond_the_bounds_is_named_as_damaged(tmp_path: Path) -> None:
    folder = copy(tmp_path)
    edit(folder, "factions.toml", "base_income = 3", "base_income = 10000000000000000000000")
    with pytest.raises(PbemError, match=r"(?s)\(game_data\.files\) is refused: .*base_income \(ER-5\.2\): 1000"):
        stored_game_ruleset("conqueror-er", stored(folder))


# -- property: what the check accepts plays; what it refuses is named --------------------------------------------

NUMBER = re.compile(r"(?<![\w.])-?\d+(?![\w.])")  # an integer literal (also one in brackets: round_ge(3))
ENTRY = re.compile(r"^ *\{.*\},? *$", re.MULTILINE)  # one inline table of a list: a trade space, an effect
CODE = re.compile(r'"[A-Z]{3}"(?=[,\]])')  # an area code in a list: adjacent, between, blanked
VALUES = st.one_of(
    st.integers(-3, 25),
    st.sampled_from([0, 1, 2, 6, 10, 11, 20, 21, 30, 31, 38, 39, 50, 51, 60, 61, 99, 100, 180, 181, 999, 1000]),
    st.sampled_from([-5, 10**9, 10**17, 10**22, 2**63 - 1]),
)
EDITS = st.lists(
    st.tuples(st.sampled_from(["number", "drop", "twice"]), st.sampled_from(FILES), st.integers(0, 10**6), VALUES),
    min_size=1,
    max_size=3,
)


@cache
def short_texts() -> dict[str, str]:
    """The example data with games of two rounds in both modes (ER-3.1), so that a self-played game is short."""
    texts = {file: (EXAMPLE / file).read_text(encoding="utf-8") for file in FILES}
    texts["tracks.toml"] = (
        texts["tracks.toml"].replace("imperator = 10", "imperator = 2").replace("conquest = 5", "conquest = 2")
    )
    return texts


def mutated(text: str, what: str, pick: int, value: int) -> str:
    """`text` with one number set to `value`, or one list entry or area code dropped or given twice."""
    if what == "number":
        found = list(NUMBER.finditer(text))
        hit = found[pick % len(found)]
        return f"{text[: hit.start()]}{value}{text[hit.end() :]}"
    found = list(ENTRY.finditer(text)) + list(CODE.finditer(text))
    if not found:
        return text
    hit = found[pick % len(found)]
    if hit.group().lstrip().startswith("{"):
        line = hit.group().rstrip().rstrip(",") + ","
        middle = "" if what == "drop" else f"{line}\n{line}"
    else:
        middle = "" if what == "drop" else f"{hit.group()}, {hit.group()}"
    changed = f"{text[: hit.start()]}{middle}{text[hit.end() :]}"
    return re.sub(r"\[, ", "[", changed.replace(", ,", ",").replace(", ]", "]"))


def selfplay(folder: Path, players: int, seed: int, most_steps: int = 40) -> int:
    """A seeded self-played game of the data in `folder` (bot.py, in memory, every invariant checked after each
    step); the steps played."""
    rules, _ = playable(load_ruleset("conqueror-er"), folder)
    state = rules.initial_state("g", rules.bot.seats(rules, players))
    played = 0
    while (step := rules.due(state)) is not None and played < most_steps:
        rng = random.Random(f"{seed}:{played}")
        orders = {}
        for seat in step.seats:
            text = rules.bot.orders(rules, state, seat, f"GAME g TURN {step.number} PLAYER {seat} PASSWORD x", rng)
            orders[seat] = parse_orders(text, rules)
        dice = KeyedDice(key=f"key {seed} {played}".encode(), hidden_key=f"hidden {seed}".encode())
        state = resolve_step(rules, state, step, orders, dice).state
        assert rules.broken_invariants(state) == [], (step, rules.broken_invariants(state))
        played += 1
    return played


@settings(
    max_examples=25,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(edits=EDITS, players=st.sampled_from([3, 4, 5, 6]), seed=st.integers(0, 1000))
def test_ER_13_data_the_check_accepts_plays_and_data_it_refuses_is_named(
    edits: list[tuple[str, str, int, int]], players: int, seed: int
) -> None:
    texts = dict(short_texts())
    for what, file, pick, value in edits:
        texts[file] = mutated(texts[file], what, pick, value)
    with tempfile.TemporaryDirectory(prefix="pbem-bounds-") as name:
        folder = Path(name)
        for file, text in texts.items():
            (folder / file).write_text(text, encoding="utf-8")
        found = check_folder(folder).problems
        event("refused" if found else "accepted and played")
        if found:  # refused: each problem names a file of the folder and a key in it (or its line: not TOML)
            for problem in found:
                where = problem.file if problem.key == WHOLE_FILE else f"{problem.file}: {problem.key}"
                assert problem.file in FILES and problem.text().startswith(f"{where} (ER-"), problem.text()
                assert problem.key != WHOLE_FILE or "line" in problem.text(), problem.text()
            return
        assert selfplay(folder, players, seed) > 0


def test_ER_13_5_pbem_new_refuses_a_game_option_beyond_its_bound(pbem: Pbem) -> None:
    given = ("--game-data", str(EXAMPLE), *SEATS, "--option", "temple_coins=10000000000000000000000")
    output = refused(pbem, "new", "er1", "--ruleset", "conqueror-er", *given)
    assert "temple_coins=10000000000000000000000: write a whole number from 0 to 20" in output
    assert not (pbem.data / "games" / "er1").exists()


@pytest.mark.parametrize(
    ("option", "problem"),
    [
        ("hand_limit=39", "hand_limit=39: write a whole number from 0 to 38"),
        ("dynasty_first_round=1000000000", "dynasty_first_round=1000000000: write a round from 1 to 20"),
        ("dynasty_first_round=imperator:0", "dynasty_first_round=imperator:0: write a round from 1 to 20"),
        ("amphibious_assault=" + "9" * 5000, f"amphibious_assault={'9' * 5000}: write a whole number from 0 to 10"),
    ],
)
def test_ER_13_5_a_game_option_beyond_its_bound_is_refused_naming_it(option: str, problem: str) -> None:
    key, _, value = option.partition("=")
    with pytest.raises(SetupError) as refusal:
        game_options(example_data(), None, {key: value})
    assert problem in str(refusal.value)
    assert game_options(example_data(), None, {key: "1"})  # within the bound: taken


@cache
def example_data() -> GameData:
    return load_folder(EXAMPLE)
