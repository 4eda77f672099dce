"""Rule cases as data: the loader and the checks behind tests/test_rule_cases.py (the format: docs/rule-cases.md).

A case file (games/<ruleset>/cases/<rule IDs>_<what>.toml) holds a position, the active seat's orders as a
player writes them, the dice file's rolls and the expected outcome; `run_case` resolves it as `pbem resolve`
does (services.turn_files.resolve_files) and `check_case` says what differs from the expected outcome. A bad
case is a CaseError naming the file, the key and the line.
"""

from __future__ import annotations

import copy
import functools
import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adjudicator.archive.models import GameRow, TurnRow
from adjudicator.engine.chance import KeyedDice
from adjudicator.engine.envelope import DATA_KEY
from adjudicator.engine.steps import resolve_step
from adjudicator.orders.sets import OrderError
from adjudicator.resources import resource_dir
from adjudicator.rulesets import Ruleset, load_ruleset
from adjudicator.rulesets.coe.economy import tribute_value
from adjudicator.rulesets.coe.state import Force, GameState
from adjudicator.rulesets.conqueror.data import GameData
from adjudicator.rulesets.conqueror.setup import game_options
from adjudicator.rulesets.conqueror.state import INDEPENDENT, Army
from adjudicator.rulesets.conqueror.state import GameState as ConquerorState
from adjudicator.services.clock import SYSTEM_CLOCK
from adjudicator.services.game_reads import load_snapshot, snapshot_json, snapshot_ruleset
from adjudicator.services.positions import read_position
from adjudicator.services.turn_files import FileChance, given_dice, turn_file
from tests.registered import registered_rulesets

TOP_KEYS = {"rules", "about", "position", "orders", "dice", "expect"}
POSITION_KEYS = {"seats", "active", "treasury", "tribute", "inflation", "board"}
# Conqueror: Empire Rises, on the example data the package ships (games/conqueror-er/example-data)
CONQUEROR = "conqueror-er"
CONQUEROR_POSITION_KEYS = {"players", "mode", "active", "automa", "board"}
ARMY_UNITS = {"CAV": "cavalry", "INF": "infantry", "ARC": "archer", "ELITE": "elite", "SHIP": "ship", "SIEGE": "siege"}
EXPECT_KEYS = {
    "verdicts",
    "reasons",
    "board",
    "treasury",
    "tribute",
    "eliminated",
    "winner",
    "captives",
    "events",
    "no_events",
}
CONQUEROR_EXPECT_KEYS = {"verdicts", "reasons", "board", "events", "no_events"}
THREE = ["Macedonia", "Egyptus", "Hispania"]
UNITS = {"INF": "infantry", "CAV": "cavalry", "CAT": "catapult"}


class CaseError(ValueError):
    """A case file that does not follow docs/rule-cases.md: the message names the file, the key and the line."""


@dataclass
class BoardLine:
    """One line of a board text: `AREA: clause; clause; ...` (file line `line`)."""

    area: str
    line: int
    owner: str | None = None  # a seat, or "" for neutral; None: not said
    city: str | None = None  # "city", "fortified" or "" for none; None: not said
    roads: list[str] | None = None
    forces: dict[str, Force] = field(default_factory=dict)  # seat -> exactly its pieces here
    added: set[str] = field(default_factory=set)  # seats written `SEAT + pieces`: these pieces besides the rest
    coasts_named: bool = False
    army: tuple[str, dict[str, int]] | None = None  # Conqueror: the one army here, its owner and units
    empty: bool = False  # Conqueror: no army here


@dataclass
class Case:
    path: Path
    rules: dict[str, list[str]]  # ruleset -> the rule IDs it tests there
    about: str
    seats: list[str]
    active: str | None
    treasury: dict[str, int]
    tribute: dict[str, int]
    inflation: int
    board: list[BoardLine]
    orders: str
    orders_line: int  # file line of the first order line
    dice: dict[str, str]  # ruleset -> its dice file's text (absent: no dice may be rolled)
    expect: dict[str, Any]
    expect_board: list[BoardLine]
    lines: dict[str, int]  # "key" or "table.key" -> its file line
    players: int = 3  # Conqueror: the number of players, whose factions the example data names
    mode: str = "imperator"
    automa: list[str] | None = None  # Conqueror: the automa deck's order, top card first

    @property
    def conqueror(self) -> bool:
        return CONQUEROR in self.rules

    def where(self, key: str, line: int | None = None) -> str:
        return f"{self.path}, line {line or self.lines.get(key, 1)}, key {key}"


def case_files() -> list[Path]:
    """Every case file of every registered ruleset's folder, sorted by ruleset folder and name."""
    folders = sorted(set(registered_rulesets().values()))
    return [path for folder in folders for path in sorted((folder / "cases").glob("*.toml"))]


def key_lines(text: str) -> dict[str, int]:
    """Where each key of the file is: "key" for top-level keys, "table.key" for keys of a [table]."""
    found: dict[str, int] = {}
    table = ""
    in_string = False
    for number, raw in enumerate(text.splitlines(), start=1):
        if in_string:
            in_string = raw.count('"""') % 2 == 0
            continue
        header = re.match(r"\s*\[([A-Za-z0-9_.-]+)\]\s*(#.*)?$", raw)
        if header:
            table = header.group(1)
            found.setdefault(table, number)
            continue
        key = re.match(r"\s*([A-Za-z0-9_.-]+)\s*=", raw)
        if key:
            name = f"{table}.{key.group(1)}" if table else key.group(1)
            found.setdefault(name, number)
            in_string = raw.count('"""') == 1
    return found


def load_case(path: Path) -> Case:
    """Read and check one case file (a CaseError says what is wrong, where)."""
    text = path.read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise CaseError(f"{path}: not TOML: {error}") from error
    lines = key_lines(text)

    def fail(key: str, message: str, line: int | None = None) -> CaseError:
        # a key of an inline table (rules = { ... }) is on its table's line
        line = line or lines.get(key) or lines.get(key.rsplit(".", 1)[0], 1)
        return CaseError(f"{path}, line {line}, key {key}: {message}")

    def table(value: Any, key: str, allowed: set[str]) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise fail(key, f"a table, not {value!r}")
        for name in value:
            if name not in allowed:
                full = f"{key}.{name}" if key else name
                raise fail(full, f"unknown key (known: {', '.join(sorted(allowed))})")
        return value

    table(data, "", TOP_KEYS)
    for required in ("rules", "orders", "expect"):
        if required not in data:
            raise CaseError(f"{path}: key {required} is missing (docs/rule-cases.md)")
    known = registered_rulesets()
    rules: dict[str, list[str]] = {}
    for ruleset, ids in table(data["rules"], "rules", set(known)).items():
        ids = [ids] if isinstance(ids, str) else ids
        if not ids or not all(isinstance(i, str) and re.fullmatch(r"[A-Z]+-\d+\.\d+", i) for i in ids):
            raise fail("rules", f"{ruleset}: rule IDs like C-5.13, not {ids!r}")
        rules[ruleset] = list(ids)
    if not rules:
        raise fail("rules", "names no ruleset")
    cited = path.name.split("_")[0]
    if not any(cited == i for ids in rules.values() for i in ids):
        raise fail("rules", f"the file name should start with one of its rule IDs, not {cited!r}")
    conqueror = CONQUEROR in rules
    if conqueror and len(rules) > 1:
        raise fail("rules", f"a {CONQUEROR} case runs in {CONQUEROR} alone")
    position = table(data.get("position", {}), "position", CONQUEROR_POSITION_KEYS if conqueror else POSITION_KEYS)
    players = position.get("players", 3)
    if conqueror:
        factions = conqueror_data().setup.factions_by_players
        if players not in factions:
            raise fail(
                "position.players", f"a number of players the data sets up ({sorted(factions)}), not {players!r}"
            )
        seats = list(factions[players])
    else:
        seats = position.get("seats", THREE)
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise fail("position.seats", f"a list of seats, not {seats!r}")
    active = position.get("active")
    if active is not None and active not in seats:
        raise fail("position.active", f"{active!r} is not one of the seats {seats}")

    def amounts(value: Any, key: str) -> dict[str, int]:
        found = table(value, key, set(seats))
        if not all(isinstance(v, int) and v >= 0 for v in found.values()):
            raise fail(key, f"whole talents per seat, not {value!r}")
        return found

    expect = table(data["expect"], "expect", CONQUEROR_EXPECT_KEYS if conqueror else EXPECT_KEYS)
    case = Case(
        path=path,
        rules=rules,
        about=str(data.get("about", "")),
        seats=list(seats),
        active=active,
        treasury=amounts(position.get("treasury", {}), "position.treasury"),
        tribute=amounts(position.get("tribute", {}), "position.tribute"),
        inflation=int(position.get("inflation", 0)),
        board=[],
        orders=_string(data["orders"], "orders", fail),
        orders_line=_first_line(text, lines, "orders"),
        dice=_dice(data.get("dice", {}), rules, fail),
        expect=expect,
        expect_board=[],
        lines=lines,
        players=players,
        mode=str(position.get("mode", "imperator")),
        automa=position.get("automa"),
    )
    case.board = board_lines(case, "position.board", position.get("board", ""))
    case.expect_board = board_lines(case, "expect.board", expect.get("board", ""))
    amounts(expect.get("treasury", {}), "expect.treasury")
    amounts(expect.get("tribute", {}), "expect.tribute")
    for verdict in expect.get("verdicts", []):
        if not isinstance(verdict, str) or not re.fullmatch(r"ok|refused( [A-Z]+-\d+\.\d+)+", verdict):
            raise fail("expect.verdicts", f'each verdict is "ok" or "refused <rule IDs>", not {verdict!r}')
        for ruleset in rules:
            prefix = _prefix(case, ruleset)
            if verdict != "ok" and not any(i.startswith(prefix) for i in verdict.split()[1:]):
                raise fail("expect.verdicts", f"{verdict!r} names no rule ID of {ruleset} ({prefix}...)")
    if not all(isinstance(reason, str) for reason in expect.get("reasons", [])):
        raise fail("expect.reasons", "a list of strings, one per verdict")
    for event in expect.get("events", []):
        if not isinstance(event, dict) or not isinstance(event.get("kind"), str):
            raise fail("expect.events", f"each event is a table with its kind, not {event!r}")
    for seat in expect.get("eliminated", []):
        if seat not in seats:
            raise fail("expect.eliminated", f"{seat!r} is not one of the seats {seats}")
    return case


def _string(value: Any, key: str, fail: Any) -> str:
    if not isinstance(value, str):
        raise fail(key, f"a string, not {value!r}")
    return value


def _dice(value: Any, rules: dict[str, list[str]], fail: Any) -> dict[str, str]:
    """The dice of each ruleset: one text for all, or a table ruleset -> text."""
    if isinstance(value, str):
        return dict.fromkeys(rules, value)
    if not isinstance(value, dict):
        raise fail("dice", f"a dice file's text or a table ruleset = text, not {value!r}")
    for ruleset, text in value.items():
        if ruleset not in rules or not isinstance(text, str):
            raise fail("dice", f"{ruleset} = {text!r}: a ruleset of the case's rules and its dice as a string")
    return dict(value)


def _first_line(text: str, lines: dict[str, int], key: str) -> int:
    """The file line of the first line of the string value of `key` (a multi-line string starts below)."""
    line = lines.get(key, 1)
    rest = text.splitlines()[line - 1].split("=", 1)[1].strip() if line <= len(text.splitlines()) else ""
    return line + 1 if rest == '"""' else line


PIECE = re.compile(r"CAESAR|G(\d+)|(\d+) (INF|CAV|CAT)|GALLEYS? ((?:\d+ ?)+)(?:COAST ([A-Z]{3}))?|WITH")


def board_lines(case: Case, key: str, text: str) -> list[BoardLine]:
    """Parse a board text: one line per area, `AREA: clause; clause`; `#` starts a comment."""
    if not isinstance(text, str):
        raise CaseError(f"{case.where(key)}: a board text, not {text!r}")
    first = _first_line(case.path.read_text(encoding="utf-8"), case.lines, key)
    found: list[BoardLine] = []
    for offset, raw in enumerate(text.splitlines()):
        number = first + offset
        content = raw.split("#", 1)[0].strip()
        if not content:
            continue
        head = re.fullmatch(r"([A-Z]{3}):(.*)", content)
        if not head:
            raise CaseError(f"{case.where(key, number)}: a line is 'AREA: clause; clause', not {content!r}")
        line = BoardLine(head.group(1), number)
        for clause in (c.strip() for c in head.group(2).split(";")):
            _clause(case, key, number, line, clause)
        found.append(line)
    return found


def _clause(case: Case, key: str, number: int, line: BoardLine, clause: str) -> None:
    where = case.where(key, number)
    words = clause.split()
    if not words:
        raise CaseError(f"{where}: an empty clause")
    if case.conqueror:
        _army_clause(case, where, line, words)
        return
    if words[0] == "owner" and len(words) == 2 and words[1] in case.seats:
        line.owner = words[1]
    elif clause == "neutral":
        line.owner = ""
    elif clause in ("city", "fortified city", "no city"):
        line.city = {"city": "city", "fortified city": "fortified", "no city": ""}[clause]
    elif words[0] == "roads" and all(re.fullmatch(r"[A-Z]{3}", w) for w in words[1:]):
        line.roads = words[1:]
    elif words[0] in case.seats and words[1:2] == ["+"]:
        line.forces[words[0]] = _pieces(where, " ".join(words[2:]), line)
        line.added.add(words[0])
    elif words[0] in case.seats:
        line.forces[words[0]] = _pieces(where, " ".join(words[1:]), line)
    else:
        raise CaseError(
            f"{where}: {clause!r} is none of: owner SEAT, neutral, city, fortified city, no city, roads AREA..., "
            f"SEAT pieces (seats: {', '.join(case.seats)})"
        )


def _army_clause(case: Case, where: str, line: BoardLine, words: list[str]) -> None:
    """Conqueror: `SEAT units`, `independent units` (units: `2 CAV 1 INF 1 ARC`) or `empty`."""
    owners = [*case.seats, INDEPENDENT]
    if words == ["empty"]:
        line.empty = True
        return
    units: dict[str, int] = {}
    pairs = list(zip(words[1::2], words[2::2], strict=False))
    if (
        words[0] in owners
        and len(words) % 2 == 1
        and len(words) > 1
        and all(n.isdigit() and word in ARMY_UNITS for n, word in pairs)
    ):
        for n, word in pairs:
            units[ARMY_UNITS[word]] = int(n)
        line.army = (words[0], units)
        return
    raise CaseError(
        f"{where}: {' '.join(words)!r} is neither 'empty' nor an army, OWNER <n> {'|'.join(ARMY_UNITS)} ... "
        f"(owners: {', '.join(owners)})"
    )


def _pieces(where: str, text: str, line: BoardLine) -> Force:
    """`CAESAR G1 G2 WITH 3 INF 1 CAV GALLEYS 1 2 COAST AEG`, or `nothing`."""
    force = Force()
    if text == "nothing":
        return force
    position = 0
    for match in PIECE.finditer(text):
        if text[position : match.start()].strip():
            break
        position = match.end()
        if match.group(0) == "CAESAR":
            force.caesar = 1
        elif match.group(1):
            force.generals.append(int(match.group(1)))
        elif match.group(2):
            setattr(force, UNITS[match.group(3)], int(match.group(2)))
        elif match.group(4):
            numbers = [int(n) for n in match.group(4).split()]
            force.galleys += numbers
            if match.group(5):
                force.galley_coasts.update({n: match.group(5) for n in numbers})
                line.coasts_named = True
    if text[position:].strip() or not text:
        raise CaseError(
            f"{where}: pieces are CAESAR, G<n>, <n> INF|CAV|CAT, GALLEYS <n>... [COAST <sea>] or nothing; "
            f"not understood: {text[position:].strip() or text!r}"
        )
    return force


def position(case: Case, ruleset_name: str) -> GameState:
    """The case's position in `ruleset_name`: the ruleset's start for the seats, changed as the board says."""
    ruleset = load_ruleset(ruleset_name)
    state: GameState = ruleset.initial_state("case", case.seats)
    for line in case.board:
        if line.area not in ruleset.board.areas:
            raise CaseError(f"{case.where('position.board', line.line)}: {line.area} is no area of {ruleset_name}")
        area = state.area(line.area)
        if line.owner is not None:
            area.owner = line.owner or None
        if line.city is not None:
            area.city = line.city or None
        for code in line.roads or []:
            if code not in area.roads:
                area.roads.append(code)
            if line.area not in state.area(code).roads:
                state.area(code).roads.append(line.area)
        for seat, wanted in line.forces.items():
            for other in state.areas.values():  # a leader is in one place: taken from where the setup put it
                if seat in other.units:
                    there = other.units[seat]
                    there.caesar = 0 if wanted.caesar else there.caesar
                    there.generals = [g for g in there.generals if g not in wanted.generals]
            base = area.units.get(seat, Force()) if seat in line.added else Force()
            area.units[seat] = Force(
                base.caesar or wanted.caesar,
                base.generals + wanted.generals,
                base.infantry + wanted.infantry,
                base.cavalry + wanted.cavalry,
                base.catapult + wanted.catapult,
                base.galleys + wanted.galleys,
                {**base.galley_coasts, **wanted.galley_coasts},
            )
    for area in state.areas.values():
        area.prune()
    state.areas = {
        code: area for code, area in state.areas.items() if area.owner or area.city or area.roads or area.units
    }
    state.active = case.active or case.seats[0]
    state.inflation = case.inflation
    for seat, player in state.players.items():
        player.treasury = case.treasury.get(seat, player.treasury)
        player.tribute = case.tribute.get(seat, tribute_value(ruleset, state, seat))
    return state


@dataclass
class Resolution:
    """What a case's player-turn gave: its archive row (verdicts and events as stored), the state after it and the
    lines not understood."""

    row: TurnRow
    state: Any  # the ruleset's state: a CoE GameState, a Conqueror one
    not_understood: list[tuple[str, OrderError]]


def conqueror_data() -> GameData:
    """The example data, read once a session (the Conqueror tests' own cache, tests/test_conqueror_state.py)."""
    from tests.test_conqueror_state import example

    return example()


@functools.cache  # the setup step is the same for every case of a number of players and mode: made once
def _conqueror_setup(players: int, mode: str) -> tuple[Any, ConquerorState]:
    data = conqueror_data()
    rules = load_ruleset(CONQUEROR).with_data(data, game_options(data, mode, {}))  # type: ignore[attr-defined]
    state: ConquerorState = rules.initial_state("case", list(data.setup.factions_by_players[players]))
    setup = rules.due(state)
    # the keys of tests/test_conqueror_state.py set_up: the same hands and decks as the Python tests
    return rules, resolve_step(rules, state, setup, {}, KeyedDice(key=b"key t", hidden_key=b"hidden t")).state


def conqueror_position(case: Case) -> tuple[Any, ConquerorState]:
    """The case's Conqueror position: the example data's setup for its players (its hidden draws keyed by a fixed
    key, so that hands and decks are the same every run), at the campaign turn of the active seat (the first
    seat unless named), with the board's armies in place."""
    data = conqueror_data()
    rules, setup = _conqueror_setup(case.players, case.mode)
    state: ConquerorState = copy.deepcopy(setup)
    state.phase, state.campaign_index = "campaign", state.in_play().index(case.active or case.seats[0])
    if case.automa is not None:
        state.decks.automa = list(case.automa)
    for line in case.board:
        if line.area not in data.map_for(case.players).areas:
            raise CaseError(f"{case.where('position.board', line.line)}: {line.area} is no area of the example map")
        state.army.pop(line.area, None)
        if line.army is not None:
            state.army[line.area] = Army(line.army[0], dict(line.army[1]))
    return rules, state


@functools.cache
def _bound_conqueror(digest: str | None) -> Ruleset:
    """The Conqueror ruleset bound to the example data's folder, as load_snapshot binds it for a snapshot naming
    `digest`."""
    return snapshot_ruleset(
        load_ruleset(CONQUEROR), {DATA_KEY: digest}, resource_dir("games") / CONQUEROR / "example-data"
    )


def run_case(case: Case, ruleset_name: str) -> Resolution:
    """Resolve the active seat's player-turn as `pbem resolve --strict-dice` does (services/turn_files.py
    resolve_files: the snapshot read with its checks, the dice file, turn_file), without rendering the reports."""
    if case.conqueror:
        rules, begin = conqueror_position(case)
        data = snapshot_json(rules.snapshot_text(begin))
        # load_snapshot(snapshot, <example-data folder>) in two parts: the folder read and bound once a session
        ruleset = _bound_conqueror(data.get(DATA_KEY))
        state = read_position(ruleset, data)
        step = ruleset.due(state)
        assert step is not None
        header = f"GAME case TURN {step.number} PLAYER {case.active or case.seats[0]} PASSWORD x"
    else:
        start = position(case, ruleset_name)
        state, ruleset = load_snapshot(load_ruleset(ruleset_name).snapshot_text(start))
        header = f"GAME case TURN {start.turn + 1} PLAYER {start.active} PASSWORD x"
    chance = FileChance(given_dice(case.dice.get(ruleset_name, ""), ruleset))
    game = GameRow(id=0, name=state.game, ruleset=ruleset.name, seed="", commitment="", created="")
    rows: list[TurnRow] = []
    text = f"{header}\n{case.orders.lstrip(chr(10))}"
    after, not_understood = turn_file(ruleset, game, state, text, chance, rows, [], clock=SYSTEM_CLOCK)
    assert chance.given is not None
    if chance.given.unused:
        raise CaseError(f"{case.where('dice')}: {chance.given.unused} rolls of the dice were not used")
    return Resolution(rows[0], after, not_understood)


def check_case(case: Case, ruleset_name: str, done: Resolution) -> list[str]:
    """What differs from the case's expected outcome (empty: the case holds)."""
    problems = [
        f"{case.where('orders', case.orders_line + error.line - 2)}: not understood: {error.message}"
        for _seat, error in done.not_understood
    ]
    problems += _verdict_problems(case, ruleset_name, json.loads(done.row.results_json))
    problems += _army_problems(case, done.state) if case.conqueror else _board_problems(case, done.state)
    if not case.conqueror:
        problems += _player_problems(case, done.state)
    problems += _event_problems(case, json.loads(done.row.events_json))
    return problems


def _verdict_problems(case: Case, ruleset_name: str, results: list[dict[str, Any]]) -> list[str]:
    problems: list[str] = []
    results = [r for r in results if r.get("line", 0) > 1]  # line 1 is the GAME header the test wrote
    if "verdicts" in case.expect:
        got = ["ok" if r["accepted"] else f"refused {r['rule']}" for r in results]
        wanted = [_edition(v, _prefix(case, ruleset_name)) for v in case.expect["verdicts"]]
        if got != wanted:
            problems.append(f"{case.where('expect.verdicts')}: verdicts {got}, expected {wanted}")
    reasons = case.expect.get("reasons", [])
    for number, (part, result) in enumerate(zip(reasons, results, strict=False), start=1):
        if part not in result["reason"]:
            problems.append(f"{case.where('expect.reasons')}: verdict {number} says {result['reason']!r}, not {part!r}")
    if len(reasons) > len(results):
        problems.append(f"{case.where('expect.reasons')}: {len(results)} verdicts, not {len(reasons)}")
    return problems


def _army_problems(case: Case, state: ConquerorState) -> list[str]:
    """Conqueror: each area of the expected board holds exactly the army written there, or none."""
    problems: list[str] = []
    for line in case.expect_board:
        army = state.army.get(line.area)
        got = (army.owner, dict(army.units)) if army is not None else None
        if (line.empty and got is not None) or (line.army is not None and got != line.army):
            problems.append(f"{case.where('expect.board', line.line)}: {line.area} holds {got or 'nothing'}")
    return problems


def _board_problems(case: Case, state: GameState) -> list[str]:
    """Conquest of the Empire: control, city, roads and each named seat's pieces of the expected board's areas."""
    problems: list[str] = []
    for line in case.expect_board:
        area = state.areas.get(line.area)
        where = case.where("expect.board", line.line)
        owner = area.owner if area else None
        if line.owner is not None and owner != (line.owner or None):
            problems.append(f"{where}: {line.area} is held by {owner or 'nobody'}")
        city = area.city if area else None
        if line.city is not None and city != (line.city or None):
            problems.append(f"{where}: {line.area} has city {city}")
        if line.roads is not None and sorted(area.roads if area else []) != sorted(line.roads):
            problems.append(f"{where}: {line.area} has roads {area.roads if area else []}")
        for seat, wanted in line.forces.items():
            got = area.units.get(seat, Force()) if area else Force()
            if seat in line.added:
                held = not _missing(got, wanted, line.coasts_named)
            else:
                held = _shown(got, line.coasts_named) == _shown(wanted, line.coasts_named)
            if not held:
                problems.append(f"{where}: {seat} has {_shown(got, True)} in {line.area}")
    return problems


def _player_problems(case: Case, state: GameState) -> list[str]:
    """Conquest of the Empire: treasuries, tribute markers, eliminations, the winner and captives."""
    problems: list[str] = []
    for key in ("treasury", "tribute"):
        for seat, amount in case.expect.get(key, {}).items():
            if getattr(state.players[seat], key) != amount:
                problems.append(f"{case.where('expect.' + key)}: {seat} has {getattr(state.players[seat], key)}")
    if "eliminated" in case.expect:
        out = sorted(s for s, p in state.players.items() if p.eliminated)
        if out != sorted(case.expect["eliminated"]):
            problems.append(f"{case.where('expect.eliminated')}: eliminated {out}")
    if "winner" in case.expect and state.winner != (case.expect["winner"] or None):
        problems.append(f"{case.where('expect.winner')}: the winner is {state.winner}")
    for seat, wanted in case.expect.get("captives", {}).items():
        held = [f"{c.owner} G{c.general}" for c in state.players[seat].captives]
        if sorted(held) != sorted(wanted):
            problems.append(f"{case.where('expect.captives')}: {seat} holds {held}")
    return problems


def _event_problems(case: Case, events: list[dict[str, Any]]) -> list[str]:
    problems = [
        f"{case.where('expect.no_events')}: an event {kind} happened"
        for kind in case.expect.get("no_events", [])
        if any(event["kind"] == kind for event in events)
    ]
    for wanted in case.expect.get("events", []):
        if not any(_matches(event, wanted) for event in events):
            kinds = sorted({e["kind"] for e in events})
            problems.append(f"{case.where('expect.events')}: no event {wanted} (events: {', '.join(kinds)})")
    return problems


def _prefix(case: Case, ruleset_name: str) -> str:
    """The prefix of the ruleset's rule IDs, as its first ID in the case's `rules` shows it ("O-" for O-5.2)."""
    return case.rules[ruleset_name][0].split("-")[0] + "-"


def _edition(verdict: str, prefix: str) -> str:
    """A verdict for one edition: of "refused C-5.2 O-5.2" the rule ID with the edition's prefix (the loader made
    sure there is one)."""
    if verdict == "ok":
        return verdict
    return f"refused {next(i for i in verdict.split()[1:] if i.startswith(prefix))}"


def _shown(force: Force, coasts: bool) -> str:
    parts = (["CAESAR"] if force.caesar else []) + [f"G{n}" for n in sorted(force.generals)]
    parts += [f"{getattr(force, kind)} {word}" for word, kind in UNITS.items() if getattr(force, kind)]
    if force.galleys:
        parts.append("GALLEYS " + " ".join(map(str, sorted(force.galleys))))
        if coasts:
            parts += [f"{n}@{c}" for n, c in sorted(force.galley_coasts.items())]
    return " ".join(parts) or "nothing"


def _missing(got: Force, wanted: Force, coasts: bool) -> bool:
    """Whether `got` lacks any of the pieces of `wanted` (an expectation `SEAT + pieces`)."""
    return bool(
        (wanted.caesar and not got.caesar)
        or set(wanted.generals) - set(got.generals)
        or any(getattr(got, kind) < getattr(wanted, kind) for kind in UNITS.values())
        or set(wanted.galleys) - set(got.galleys)
        or (coasts and any(got.galley_coasts.get(n) != c for n, c in wanted.galley_coasts.items()))
    )


def _matches(event: dict[str, Any], wanted: dict[str, Any]) -> bool:
    if event["kind"] != wanted["kind"]:
        return False
    data = {**event.get("data", {}), "seat": event.get("seat")}
    # data keys beside the kind, and under `data` those that clash with it (an event's own "kind")
    wanted_data = {key: value for key, value in wanted.items() if key not in ("kind", "data")} | wanted.get("data", {})
    return all(key in data and data[key] == value for key, value in wanted_data.items())
