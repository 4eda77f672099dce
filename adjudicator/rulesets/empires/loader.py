"""Reading and checking the moderator's data folder of Empires of the Ancient World (EAW-11): game-data.toml
(pieces, options, confirmed resolutions), map.toml (areas and connections), revolts.toml (the two revolt tables)
and cards.toml (the general deck, the six home armies, the personalities). `check_folder` returns every problem
and note at once; `load_folder` returns the GameData or raises naming every problem (EAW-10.9: no game starts
without the map, the cards and the revolt tables); `read_files` gives the texts a game stores.

Adjacency is symmetric by construction: a connection names an unordered pair once (`a`, `b`), and the same pair
listed again, in either order, is a problem. Values the rules can do without (EAW-10.9 (d) to (g)) are notes that
name the resolution applied, never problems."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final, TypeVar

from adjudicator.engine.datafile import DataFileRefused, read_data_file
from adjudicator.errors import PbemError
from adjudicator.rulesets.empires.data import (
    ARMY,
    CATEGORIES,
    COAST,
    CONNECTION_KINDS,
    DISPLAY_SIZE,
    EFFECT_CODES,
    EMPIRE,
    FAST,
    HOME_GROUPS,
    LAND,
    MOUNTAIN,
    NORTH,
    OPTION_CHOICES,
    PERSONALITY,
    PERSONALITY_TYPES,
    PLAYERS,
    PROVINCE,
    SEA,
    SEA_LANE,
    SLOW,
    SOUTH,
    STARTERS_PER_HALF,
    STRAIT,
    WATER,
    Area,
    Card,
    Connection,
    Effect,
    GameData,
    GameMap,
    Options,
    Pieces,
    RevoltTables,
    option_text,
)
from adjudicator.rulesets.empires.options import OPTION_BOUNDS, OPTION_RULES

RULESET: Final = "empires-aw"
GAME_DATA, MAP, REVOLTS, CARDS = "game-data.toml", "map.toml", "revolts.toml", "cards.toml"
FILES: Final = (GAME_DATA, MAP, REVOLTS, CARDS)
DIE: Final = (1, 2, 3, 4, 5, 6)
MEDITERRANEAN_SEAS: Final = 3  # EAW-2.2
MEDITERRANEAN_VALUE: Final = 8  # EAW-2.9: the highest value
NORTHERN_EDGE_VALUE: Final = 2  # EAW-2.9: the lowest value
VALUE_MOST: Final = 12  # a card's value (EAW-8.5), with room for a strong card
VP_COST_MOST: Final = 3  # EAW-10.5: upkeep of 1 to 3 VP
COUNT_MOST: Final = 30  # copies of one card (the box holds 110 cards, EAW-1.2)
POSITION_MOST: Final = 1000  # data.Area: x and y from 0 to 1000
LABELS: Final = {"N": "N", "S": "S", "none": None, "": None}  # EAW-7.23
HALF_OF_LABEL: Final = {"N": NORTH, "S": SOUTH}
ROLLS_MODIFIED: Final = ("sea_move", "neutral", "mountain", "diplomacy", "displace")  # EAW-11.6 roll_mod
# EAW-11.6: each effect code's arguments (name -> kind); every one is required except `if`.
EFFECT_ARGS: Final[Mapping[str, Mapping[str, type]]] = {
    "stack_order_free": {},
    "ambush": {},
    "card_value": {"n": int, "if": str},
    "fort_cost": {"n": int},
    "capture_fort": {},
    "trade_income": {"n": int},
    "trade_place": {"n": int},
    "roll_mod": {"roll": str, "n": int},
    "diplomacy_takeover": {"cost": int, "roll": int},
    "diplomacy_remove": {"target": int, "per_marker": int, "max_markers": int},
    "manual": {"text": str},
}
OPTIONAL_ARGS: Final = frozenset({"if"})
# the numbers an effect may carry, within what play can use: a modifier of a d6 roll, a cost in trade markers,
# a k+ roll (0: none, EAW-7.11 a), the removal's target and markers paid (EAW-7.11 b)
EFFECT_BOUNDS: Final[Mapping[str, tuple[int, int]]] = {
    "n": (-6, 6),
    "cost": (0, 10),
    "roll": (0, 6),
    "target": (1, 12),
    "per_marker": (0, 6),
    "max_markers": (0, 10),
}
CARD_VALUE_IF: Final = ("melee", "ambush")
PIECES_NOTE: Final = {
    "control_markers": "EAW-1.2",
    "trade_markers": "EAW-6.1",
    "forts": "EAW-1.2",
    "hand_limit": "EAW-11.3",
}


def _(msgid: str) -> str:
    """Marks a msgid for extraction; the text is translated where it is shown (Say.text)."""
    return msgid


MISSING = _("missing")
EMPTY = _("still empty: fill it in")
WRONG_TYPE = _("expected %(expected)s, found %(found)s")
NOT_ONE_OF = _("%(value)s is not one of %(choices)s")
UNKNOWN_KEY = _("unknown key (known here: %(known)s)")
OUT_OF_RANGE = _("%(value)s is out of range: %(low)s to %(high)s")
BAD_ID = _("%(value)s: an id starts with a letter and holds letters, digits, '-' and '_' only")
TWICE = _("%(value)s is given twice")
NO_FILE = _("the file is missing")
NOT_TOML = _("not valid TOML (%(error)s)")
RULESET_OF = _("this folder holds data of ruleset %(found)s, not %(expected)s")
UNKNOWN_AREA = _("%(value)s is no area of map.toml")
UNKNOWN_RULE = _("%(value)s is none of the resolutions to confirm: %(choices)s")
# map.toml
SEA_HAS_HALF = _("a sea area belongs to neither half; remove half")
NO_HALF = _("a province needs its half: north or south")
PROVINCE_ONLY = _("%(key)s is a flag of provinces; %(area)s is a sea area")
SEA_ONLY = _("%(key)s is a flag of sea areas; %(area)s is a province")
EDGE_VALUE = _("a province on the northern edge is worth 2 (the lowest value), not %(value)s")
MEDITERRANEAN_VALUE_WRONG = _("a Mediterranean sea area is worth 8 (the highest value), not %(value)s")
MEDITERRANEAN_COUNT = _("exactly three Mediterranean sea areas, found %(found)s: %(areas)s")
HALF_EMPTY = _("the %(half)s half has no province")
HALF_SMALL = _("the %(half)s half has %(found)s provinces; up to 3 players start there")
NAME_TAKEN = _("%(value)s already names %(other)s: orders could not tell them apart")
LANE_OFF_COAST = _("the sea lane %(a)s-%(b)s crosses %(sea)s, which %(area)s does not border (no coast connection)")
SELF_CONNECTED = _("an area cannot border itself")
PAIR_TWICE = _("%(a)s and %(b)s are connected already (%(first)s); give every kind in one connection")
NO_KINDS = _("a connection needs at least one kind: %(choices)s")
KIND_AREAS = _("a %(kind)s connection joins %(joins)s; %(area)s is a %(found)s")
LANE_NEEDS_SEA = _('a sea lane names the sea area it crosses: sea = "<sea area id>"')
SEA_NOT_LANE = _("only a sea lane crosses a sea area; this connection is no sea lane")
LANE_SEA_NOT_SEA = _("%(value)s is a province, not a sea area")
COAST_FLAG_WRONG = _("%(area)s borders the Mediterranean sea area %(sea)s: set mediterranean_coast = true")
COAST_FLAG_UNFOUNDED = _("%(area)s borders no Mediterranean sea area: it cannot be mediterranean_coast")
ISOLATED = _("%(area)s has no connection")
NO_POSITION = _("%(area)s has no position (x, y): the map draws it at 0, 0")
# revolts.toml
REVOLT_SEA = _("%(value)s is a sea area: only provinces revolt")
REVOLT_RESULTS = _("a revolt table lists all six results, 1 to 6; missing: %(missing)s")
REVOLT_OTHER_HALF = _("%(value)s lies in the %(half)s half, not in this table's half")
TABLE_OF = _("each first-die result 1 to 6 selects the north or the south table; missing: %(missing)s")
NO_TABLE_USED = _("no first-die result selects the %(half)s table")
# cards.toml
NO_VALUE = _("a card value is missing: an %(kind)s card needs value")
VALUE_ROLL_RESULTS = _("value_roll gives a value for every d6 result 1 to 6; missing: %(missing)s")
VALUE_ROLL_BOTH = _("value_roll is either a table of the six results or { mod = n }, not both")
NOT_FOR_KIND = _("%(key)s is not for %(kind)s cards")
NO_GROUP = _("an empire card belongs to a home army: home_group A to F")
GROUP_EMPTY = _("home army %(group)s has no card")
WRONG_HALF_GROUP = _(
    "a card labelled %(label)s belongs to the %(half)s; home army %(group)s is a group of the %(other)s half"
)
NO_PERSONALITY = _("a personality card needs its type: %(choices)s")
UNKNOWN_EFFECT = _("unknown effect code %(value)s (known: %(choices)s)")
EFFECT_ARG_MISSING = _("effect %(code)s needs the argument %(arg)s")
EFFECT_ARG_UNKNOWN = _("effect %(code)s takes no argument %(arg)s (it takes: %(known)s)")
DECK_SMALL = _("the general deck has %(found)s cards; the display alone shows %(most)s")
FEW_MARKERS = _("%(found)s control markers per player; %(players)s players start with %(needed)s each")
# notes: the resolution applied when a value is not given (EAW-10.9 (d) to (g))
OPTION_UNSET = _("not given: the resolution %(value)s applies")
PLUNDER_UNSET = _("not given: plunder scores 0 and every scoring report lists each player's plunder")
PIECES_UNSET = _("not given: unlimited")
HAND_UNSET = _("not given: no hand limit")

# EAW-10.9 (e) to (g): the resolutions that no option sets; `confirmed = [...]` in game-data.toml lists those the
# moderator has confirmed, every other one is a note.
RESOLUTIONS: Final[Mapping[str, str]] = {
    "EAW-7.13": _("to confirm: the diplomat's removal costs 0 to 3 markers paid, +1 each, success on 6+"),
    "EAW-7.20": _("to confirm: an empty deck is refilled from the reshuffled discards, else the display stays short"),
    "EAW-8.1": _("to confirm: a player with fewer eligible cards stacks all they can; personalities never stack"),
    "EAW-8.3": _("to confirm: the three combat markers start in the centre"),
    "EAW-8.20": _("to confirm: a naval stack holds up to 5 cards"),
}


@dataclass(frozen=True)
class Say:
    """A message: its msgid and the values of its %(name)s placeholders."""

    msgid: str
    values: Mapping[str, Any] = field(default_factory=dict)

    def text(self, language: str = "en") -> str:
        from adjudicator.render.i18n import gettext

        return gettext(language, self.msgid, **self.values)


@dataclass(frozen=True)
class Problem:
    """One thing wrong (or to confirm) in the data: the file, the key in it, the rule that reads it, the text."""

    file: str
    key: str
    rule: str
    say: Say

    def text(self, language: str = "en") -> str:
        where = self.file if self.key == WHOLE_FILE else f"{self.file}: {self.key}"
        return f"{where} ({self.rule}): {self.say.text(language)}"


WHOLE_FILE: Final = "-"  # the key of a problem with the file as a whole (missing, not TOML)


@dataclass
class Report:
    """What a check found: problems (the data cannot be used) and notes (resolutions applied, to confirm)."""

    problems: list[Problem] = field(default_factory=list)
    notes: list[Problem] = field(default_factory=list)

    def add(self, file: str, key: str, rule: str, msgid: str, /, **values: Any) -> None:
        problem = Problem(file, key, rule, Say(msgid, values))
        if problem not in self.problems:
            self.problems.append(problem)

    def note(self, file: str, key: str, rule: str, msgid: str, /, **values: Any) -> None:
        self.notes.append(Problem(file, key, rule, Say(msgid, values)))


_ABSENT: Any = object()
_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")
_KIND_NAMES = {int: "an integer", str: "a string", bool: "true or false", list: "a list", dict: "a table"}


@dataclass
class Table:
    """One TOML table of `file`; `prefix` is its key path (`area[2].`). Every read records what is wrong and
    hands back a stand-in, so that reading goes on and finds the next problem too."""

    file: str
    data: Mapping[str, Any]
    report: Report
    prefix: str = ""

    def key(self, name: str) -> str:
        return f"{self.prefix}{name}"

    def problem(self, name: str, rule: str, msgid: str, /, **values: Any) -> None:
        self.report.add(self.file, self.key(name), rule, msgid, **values)

    def note(self, name: str, rule: str, msgid: str, /, **values: Any) -> None:
        self.report.note(self.file, self.key(name), rule, msgid, **values)

    def given(self, name: str) -> bool:
        """Whether `name` holds a value (an empty string is a value the template left to fill in)."""
        return self.data.get(name, "") != ""

    def value(self, name: str, rule: str, kind: type, default: Any = _ABSENT) -> Any:
        if name not in self.data:
            if default is not _ABSENT:
                return default
            self.problem(name, rule, MISSING)
            return None
        value = self.data[name]
        if value == "" and kind is not str:
            self.problem(name, rule, EMPTY)
            return None
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            self.problem(name, rule, WRONG_TYPE, expected=_KIND_NAMES.get(kind, kind.__name__), found=repr(value))
            return None
        return value

    def number(
        self, name: str, rule: str, default: Any = _ABSENT, low: int | None = None, high: int | None = None
    ) -> int | None:
        value = self.value(name, rule, int, default)
        if value is None:
            return None
        if (low is not None and value < low) or (high is not None and value > high):
            self.problem(name, rule, OUT_OF_RANGE, value=value, low=low, high="..." if high is None else high)
        return int(value)

    def text(self, name: str, rule: str, default: Any = _ABSENT) -> str:
        value = self.value(name, rule, str, default)
        if value == "" and default is _ABSENT:
            self.problem(name, rule, EMPTY)
        return value or ""

    def ident(self, name: str, rule: str) -> str:
        value = self.text(name, rule)
        if value and not _ID.match(value):
            self.problem(name, rule, BAD_ID, value=repr(value))
        return value

    def flag(self, name: str, rule: str, default: bool = False) -> bool:
        return bool(self.value(name, rule, bool, default))

    def choice(self, name: str, rule: str, choices: Iterable[str], default: Any = _ABSENT) -> str:
        value = self.text(name, rule, default)
        known = tuple(choices)
        if value and value not in known:
            self.problem(name, rule, NOT_ONE_OF, value=repr(value), choices=", ".join(known))
            return ""
        return value

    def table(self, name: str, rule: str, default: Any = _ABSENT) -> Table | None:
        value = self.value(name, rule, dict, default)
        return None if value is None else Table(self.file, value, self.report, f"{self.prefix}{name}.")

    def tables(self, name: str, rule: str) -> list[Table]:
        """An array of tables ([[name]]); items that are no table are problems and left out."""
        found = []
        for index, item in enumerate(self.value(name, rule, list) or ()):
            if isinstance(item, dict):
                found.append(Table(self.file, item, self.report, f"{self.prefix}{name}[{index}]."))
            else:
                self.problem(f"{name}[{index}]", rule, WRONG_TYPE, expected="a table", found=repr(item))
        return found

    def strings(self, name: str, rule: str, default: Any = _ABSENT) -> list[str]:
        found = []
        for index, item in enumerate(self.value(name, rule, list, default) or ()):
            if item == "":
                self.problem(f"{name}[{index}]", rule, EMPTY)
            elif isinstance(item, str):
                found.append(item)
            else:
                self.problem(f"{name}[{index}]", rule, WRONG_TYPE, expected="a string", found=repr(item))
        return found

    def only(self, known: Iterable[str], rule: str) -> None:
        """Every key of the table is one of `known` (a misspelt key is named, not silently ignored)."""
        allowed = tuple(known)
        for name in self.data:
            if name not in allowed:
                self.problem(name, rule, UNKNOWN_KEY, known=", ".join(allowed))


class GameDataError(PbemError, ValueError):
    """A data folder that does not pass the check: the message lists every problem."""


def check_folder(folder: Path) -> Report:
    """Every problem and note of the data folder; no problems: the data is complete."""
    return _read(folder)[1]


def load_folder(folder: Path) -> GameData:
    """The game data of `folder`; GameDataError listing every problem when the check fails (EAW-10.9: the map,
    the cards and the revolt tables must be complete)."""
    data, report = _read(folder)
    if data is None or report.problems:
        listed = "\n".join(problem.text() for problem in report.problems)
        raise GameDataError(f"{folder}: the game data has {len(report.problems)} problems:\n{listed}")
    return data


def read_files(folder: Path) -> dict[str, str]:
    """The data files a game stores (file name -> text), each within the size and nesting limits."""
    files = {}
    for name in FILES:
        try:
            files[name] = read_data_file(folder / name)
        except DataFileRefused as refused:
            raise GameDataError(f"{folder}: {name} (EAW-11): {refused}") from None
        except OSError as error:
            raise GameDataError(f"{folder}: {name} (EAW-11): {error.strerror or error}") from None
    return files


def open_toml(folder: Path, file: str, report: Report, rule: str) -> Table | None:
    """The top table of `folder/file`, or None (a missing, refused or broken file is a problem)."""
    path = folder / file
    if not path.is_file():
        report.add(file, WHOLE_FILE, rule, NO_FILE)
        return None
    try:
        data = tomllib.loads(read_data_file(path))
    except DataFileRefused as refused:  # too large or nested too deep: named before any parser sees it
        report.add(file, WHOLE_FILE, rule, refused.msgid, **refused.values)
        return None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        report.add(file, WHOLE_FILE, rule, NOT_TOML, error=str(error))
        return None
    return Table(file, data, report)


def _read(folder: Path) -> tuple[GameData | None, Report]:
    report = Report()
    header = open_toml(folder, GAME_DATA, report, "EAW-11")
    map_file = open_toml(folder, MAP, report, "EAW-11.1")
    revolt_file = open_toml(folder, REVOLTS, report, "EAW-11.2")
    card_file = open_toml(folder, CARDS, report, "EAW-11.3")
    example, pieces, options, notes = _game_data(header) if header else (False, Pieces(), Options(), {})
    game_map = _map(map_file) if map_file else None
    revolts = _revolts(revolt_file, game_map) if revolt_file and game_map else None
    cards = _cards(card_file) if card_file else None
    if header and pieces.control_markers is not None:
        _enough_markers(header, pieces, options)
    if game_map is None or revolts is None or cards is None:
        return None, report
    return GameData(example, game_map, revolts, cards, pieces, options, notes), report


# -- game-data.toml (EAW-11.4, EAW-11.5, EAW-11.7, EAW-10.9) -------------------------------------------------------
def _game_data(table: Table) -> tuple[bool, Pieces, Options, dict[str, str]]:
    table.only(("ruleset", "example", "title", "pieces", "options", "confirmed", "notes"), "EAW-11")
    found = table.text("ruleset", "EAW-11")
    if found and found != RULESET:
        table.problem("ruleset", "EAW-11", RULESET_OF, found=repr(found), expected=RULESET)
    example = table.flag("example", "EAW-11")
    table.text("title", "EAW-11", "")
    pieces = _pieces(table.table("pieces", "EAW-11.4", {}))
    options = _options(table.table("options", "EAW-11.7", {}))
    confirmed = table.strings("confirmed", "EAW-10.9", [])
    for index, rule in enumerate(confirmed):
        if rule not in RESOLUTIONS:
            table.problem(
                f"confirmed[{index}]", "EAW-10.9", UNKNOWN_RULE, value=repr(rule), choices=", ".join(RESOLUTIONS)
            )
    for rule, text in RESOLUTIONS.items():
        if rule not in confirmed:
            table.note("confirmed", rule, text)
    notes: dict[str, str] = {}
    remarks = table.table("notes", "EAW-11", {})
    for key in remarks.data if remarks else ():
        notes[key] = remarks.text(key, "EAW-11") if remarks else ""
    return example, pieces, options, notes


def _pieces(table: Table | None) -> Pieces:
    if table is None:
        return Pieces()
    table.only(PIECES_NOTE, "EAW-11.4")
    found: dict[str, int | None] = {}
    for name, rule in PIECES_NOTE.items():
        if not table.given(name):
            table.note(name, rule, HAND_UNSET if name == "hand_limit" else PIECES_UNSET)
            found[name] = None
            continue
        # EAW-11.3: hand_limit = 0 says "no hand limit" outright (no note)
        number = table.number(name, rule, low=0 if name == "hand_limit" else 1, high=200)
        found[name] = None if name == "hand_limit" and number == 0 else number
    return Pieces(**found)


def _options(table: Table | None) -> Options:
    if table is None:
        return Options()
    known = tuple(OPTION_RULES)
    table.only(known, "EAW-11.7")
    defaults = Options()
    changes: dict[str, Any] = {}
    for name in known:
        rule = OPTION_RULES[name]
        if not table.given(name):
            if name == "plunder_vp":
                table.note(name, rule, PLUNDER_UNSET)
            else:
                table.note(name, rule, OPTION_UNSET, value=option_text(getattr(defaults, name)))
            continue
        if name == "start_markers":
            changes[name] = _start_markers(table)
        elif name in OPTION_BOUNDS:
            low, high = OPTION_BOUNDS[name]
            number = table.number(name, rule, low=low, high=high)
            if number is not None and low <= number <= high:
                changes[name] = number
        else:
            given = table.data[name]
            # EAW-8.13: plunder_spendable may be written as TOML's true/false as well as its words
            text = str(given).lower() if isinstance(given, bool) else table.text(name, rule)
            if text in OPTION_CHOICES[name]:  # as written: `--option` takes any case, the data file its own words
                changes[name] = text
            elif text:
                table.problem(name, rule, NOT_ONE_OF, value=repr(text), choices=", ".join(OPTION_CHOICES[name]))
    return replace(defaults, **changes)


def _start_markers(table: Table) -> Mapping[int, int]:
    """EAW-3.1: start_markers = { 3 = 7, 4 = 6, 5 = 5 } (players not named keep 10 - N)."""
    found = dict(Options().start_markers)
    sub = table.table("start_markers", "EAW-3.1")
    if sub is None:
        return found
    low, high = OPTION_BOUNDS["start_markers"]
    sub.only(tuple(str(n) for n in PLAYERS), "EAW-3.4")
    for players in PLAYERS:
        if sub.given(str(players)):
            number = sub.number(str(players), "EAW-3.1", low=low, high=high)
            if number is not None:
                found[players] = number
    return found


def _enough_markers(table: Table, pieces: Pieces, options: Options) -> None:
    """EAW-3.1, EAW-3.9: every player must have the markers they place at game start."""
    have = pieces.control_markers or 0
    for players, markers in sorted(options.start_markers.items()):
        needed = markers + (1 if options.start_markers_count == "additional" else 0)
        if have and have < needed:
            table.problem("pieces.control_markers", "EAW-3.1", FEW_MARKERS, found=have, players=players, needed=needed)
            return


# -- map.toml (EAW-2, EAW-11.1) -------------------------------------------------------------------------------------
def _map(table: Table) -> GameMap | None:
    table.only(("area", "connection"), "EAW-11.1")
    areas, where = _entries(table, "area", "EAW-11.1", _area)
    _distinct_names(table, areas.values(), where, "EAW-11.1")
    connections = _connections(table, areas)
    _check_map(table, areas, where, connections)
    return GameMap(areas, tuple(link for link, _key in connections))


E = TypeVar("E", Area, Card)


def _entries(
    table: Table, name: str, rule: str, make: Callable[[Table], E | None], twice_rule: str | None = None
) -> tuple[dict[str, E], dict[str, str]]:
    """The entries of the array `name` by id, each made by `make` (None: refused, its problems named), an id given
    twice refused; and each id's key in the file (area[4])."""
    entries: dict[str, E] = {}
    where: dict[str, str] = {}
    for item in table.tables(name, rule):
        entry = make(item)
        if entry is None:
            continue
        if entry.id in entries:
            item.problem("id", twice_rule or rule, TWICE, value=repr(entry.id))
            continue
        entries[entry.id] = entry
        where[entry.id] = item.prefix.rstrip(".")
    return entries, where


AREA_KEYS: Final = (
    "id",
    "name",
    "kind",
    "value",
    "half",
    "amphora",
    "mediterranean_coast",
    "mediterranean",
    "named",
    "northern_edge",
    "x",
    "y",
)


def _area(item: Table) -> Area | None:
    item.only(AREA_KEYS, "EAW-11.1")
    ident = item.ident("id", "EAW-11.1")
    name = item.text("name", "EAW-11.1")
    kind = item.choice("kind", "EAW-2.1", (PROVINCE, SEA))
    value = item.number("value", "EAW-2.9", low=NORTHERN_EDGE_VALUE, high=MEDITERRANEAN_VALUE)
    province = kind == PROVINCE
    half = _area_half(item, kind)
    flags = _area_flags(item, ident, kind)
    _check_fixed_value(item, kind, value, flags)
    position = _area_position(item, ident)
    if not ident or not kind:
        return None
    return Area(
        ident,
        name,
        kind,
        value or 0,
        half=(half or None) if province else None,
        amphora=flags["amphora"] and province,
        mediterranean_coast=flags["mediterranean_coast"] and province,
        mediterranean=flags["mediterranean"] and not province,
        named=flags["named"] or province,
        northern_edge=flags["northern_edge"] and province,
        x=position["x"],
        y=position["y"],
    )


def _area_half(item: Table, kind: str) -> str:
    """EAW-2.10: a province lies in the north or the south half; a sea area in neither."""
    half = item.choice("half", "EAW-2.10", (NORTH, SOUTH), "")
    if kind == SEA and "half" in item.data:
        item.problem("half", "EAW-2.10", SEA_HAS_HALF)
    elif kind == PROVINCE and not half and item.data.get("half", "") in ("", None):
        item.problem("half", "EAW-2.10", NO_HALF)
    return half or ""


# the flags of an area: key, rule, whether only a province may have it (else only a sea area)
AREA_FLAGS: Final = (
    ("amphora", "EAW-2.7", True),
    ("mediterranean_coast", "EAW-2.2", True),
    ("northern_edge", "EAW-2.9", True),
    ("mediterranean", "EAW-2.2", False),
    ("named", "EAW-2.11", False),
)


def _area_flags(item: Table, ident: str, kind: str) -> dict[str, bool]:
    """The area's flags, each refused on the wrong kind of area."""
    flags = {}
    for key, rule, for_province in AREA_FLAGS:
        flags[key] = item.flag(key, rule, key == "named")
        if key in item.data and kind and (kind == PROVINCE) != for_province:
            item.problem(key, rule, PROVINCE_ONLY if for_province else SEA_ONLY, key=key, area=ident)
    return flags


def _check_fixed_value(item: Table, kind: str, value: int | None, flags: Mapping[str, bool]) -> None:
    """EAW-2.9: a northern-edge province and a Mediterranean sea have the values the rule gives them."""
    if value is None:
        return
    if kind == PROVINCE and flags["northern_edge"] and value != NORTHERN_EDGE_VALUE:
        item.problem("value", "EAW-2.9", EDGE_VALUE, value=value)
    if kind == SEA and flags["mediterranean"] and value != MEDITERRANEAN_VALUE:
        item.problem("value", "EAW-2.9", MEDITERRANEAN_VALUE_WRONG, value=value)


def _area_position(item: Table, ident: str) -> dict[str, int]:
    """The area's place on the drawn map (EAW-11.1); none given is noted."""
    position = {axis: item.number(axis, "EAW-11.1", 0, low=0, high=POSITION_MOST) or 0 for axis in ("x", "y")}
    if ident and "x" not in item.data and "y" not in item.data:
        item.note("x", "EAW-11.1", NO_POSITION, area=ident)
    return position


# EAW-2.1: what each connection kind joins (True: two provinces, False: two sea areas, None: one of each)
JOINS: Final[Mapping[str, bool | None]] = {
    LAND: True,
    MOUNTAIN: True,
    STRAIT: True,
    SEA_LANE: True,
    COAST: None,
    WATER: False,
}
JOINS_TEXT: Final = {True: "two provinces", False: "two sea areas", None: "a province and a sea area"}
KIND_TEXT: Final = {PROVINCE: "province", SEA: "sea area"}


def _connections(table: Table, areas: Mapping[str, Area]) -> list[tuple[Connection, str]]:
    """The connections that hold, each with its key in the file (connection[7])."""
    found: list[tuple[Connection, str]] = []
    seen: dict[frozenset[str], str] = {}
    for item in table.tables("connection", "EAW-11.1"):
        item.only(("a", "b", "kinds", "sea"), "EAW-11.1")
        a, b = item.text("a", "EAW-2.1"), item.text("b", "EAW-2.1")
        known = True
        for end, ident in (("a", a), ("b", b)):
            if ident and ident not in areas:
                item.problem(end, "EAW-2.1", UNKNOWN_AREA, value=repr(ident))
                known = False
        kinds = item.strings("kinds", "EAW-2.1")
        if item.data.get("kinds") == []:
            item.problem("kinds", "EAW-2.1", NO_KINDS, choices=", ".join(CONNECTION_KINDS))
        for index, kind in enumerate(kinds):
            if kind not in CONNECTION_KINDS:
                item.problem(
                    f"kinds[{index}]", "EAW-2.1", NOT_ONE_OF, value=repr(kind), choices=", ".join(CONNECTION_KINDS)
                )
        sea = item.text("sea", "EAW-2.1", "") or None
        if not (a and b and known):
            continue
        if a == b:
            item.problem("b", "EAW-2.1", SELF_CONNECTED)
            continue
        pair = frozenset((a, b))
        if pair in seen:
            item.problem("b", "EAW-2.1", PAIR_TWICE, a=a, b=b, first=seen[pair])
            continue
        seen[pair] = item.prefix.rstrip(".")
        good = frozenset(k for k in kinds if k in CONNECTION_KINDS)
        _check_joins(item, areas, a, b, good)
        _check_lane_sea(item, areas, good, sea)
        found.append((Connection(a, b, good, sea), item.prefix.rstrip(".")))
    return found


def _check_joins(item: Table, areas: Mapping[str, Area], a: str, b: str, kinds: frozenset[str]) -> None:
    """EAW-2.1: each kind of a connection joins the kinds of areas it may join (JOINS)."""
    for kind in sorted(kinds):
        joins = JOINS[kind]
        for ident in (a, b):
            area = areas[ident]
            if joins is not None and area.is_province != joins:
                item.problem(
                    "kinds",
                    "EAW-2.1",
                    KIND_AREAS,
                    kind=kind,
                    joins=JOINS_TEXT[joins],
                    area=ident,
                    found=KIND_TEXT[area.kind],
                )
        if joins is None and areas[a].kind == areas[b].kind:
            item.problem(
                "kinds",
                "EAW-2.1",
                KIND_AREAS,
                kind=kind,
                joins=JOINS_TEXT[None],
                area=b,
                found=KIND_TEXT[areas[b].kind],
            )


def _check_lane_sea(item: Table, areas: Mapping[str, Area], kinds: frozenset[str], sea: str | None) -> None:
    """EAW-2.1: a sea lane names the sea area it crosses; no other connection names one."""
    if SEA_LANE in kinds and sea is None:
        item.problem("sea", "EAW-2.1", LANE_NEEDS_SEA)
    elif sea is not None and SEA_LANE not in kinds:
        item.problem("sea", "EAW-2.1", SEA_NOT_LANE)
    elif sea is not None and sea not in areas:
        item.problem("sea", "EAW-2.1", UNKNOWN_AREA, value=repr(sea))
    elif sea is not None and not areas[sea].is_sea:
        item.problem("sea", "EAW-2.1", LANE_SEA_NOT_SEA, value=repr(sea))


def _check_map(
    table: Table, areas: Mapping[str, Area], where: Mapping[str, str], found: list[tuple[Connection, str]]
) -> None:
    connections = [link for link, _key in found]
    seas = sorted(a.id for a in areas.values() if a.mediterranean)
    if "area" in table.data and len(seas) != MEDITERRANEAN_SEAS:
        table.problem("area", "EAW-2.2", MEDITERRANEAN_COUNT, found=len(seas), areas=", ".join(seas) or "none")
    _check_halves(table, areas)
    _check_lanes(table, areas, found)
    borders: dict[str, set[str]] = {ident: set() for ident in areas}
    for link in connections:
        borders[link.a].add(link.b)
        borders[link.b].add(link.a)
    for area in areas.values():
        if not borders[area.id]:
            table.problem(where[area.id], "EAW-2.1", ISOLATED, area=area.id)
        if area.is_province:
            _check_coast_flag(table, areas, where, connections, area)


def _check_halves(table: Table, areas: Mapping[str, Area]) -> None:
    """EAW-2.10, EAW-3.7: each half has provinces enough for its starting picks."""
    for half in (NORTH, SOUTH):
        count = sum(a.half == half for a in areas.values())
        if areas and not count:
            table.problem("area", "EAW-2.10", HALF_EMPTY, half=half)
        elif areas and count < STARTERS_PER_HALF:
            table.problem("area", "EAW-3.7", HALF_SMALL, half=half, found=count)


def _check_lanes(table: Table, areas: Mapping[str, Area], found: list[tuple[Connection, str]]) -> None:
    """EAW-2.1: a sea lane's crossed sea lies between its ends (a coast of each); else a note."""
    coasts_of = {frozenset((c.a, c.b)) for c, _key in found if COAST in c.kinds}
    for link, key in found:
        for end in (link.a, link.b):
            if link.sea in areas and areas[link.sea].is_sea and frozenset((end, link.sea)) not in coasts_of:
                table.note(key, "EAW-2.1", LANE_OFF_COAST, a=link.a, b=link.b, sea=link.sea, area=end)


def _check_coast_flag(
    table: Table, areas: Mapping[str, Area], where: Mapping[str, str], connections: list[Connection], area: Area
) -> None:
    """EAW-2.2: a province's mediterranean_coast flag says whether it has a coast on a Mediterranean sea."""
    coasts = sorted(
        c.other(area.id)
        for c in connections
        if area.id in (c.a, c.b) and COAST in c.kinds and areas[c.other(area.id)].mediterranean
    )
    if coasts and not area.mediterranean_coast:
        table.problem(f"{where[area.id]}.mediterranean_coast", "EAW-2.2", COAST_FLAG_WRONG, area=area.id, sea=coasts[0])
    elif area.mediterranean_coast and not coasts:
        table.problem(f"{where[area.id]}.mediterranean_coast", "EAW-2.2", COAST_FLAG_UNFOUNDED, area=area.id)


def _distinct_names(table: Table, entries: Iterable[Area | Card], where: Mapping[str, str], rule: str) -> None:
    """Orders name areas and cards by id or name (any case): no id or name may name two entries."""
    words: dict[str, str] = {}
    for entry in entries:
        for key, word in (("id", entry.id), ("name", entry.name)):
            other = words.get(word.casefold())
            if word and other is not None and other != entry.id:
                table.problem(f"{where[entry.id]}.{key}", rule, NAME_TAKEN, value=repr(word), other=other)
        for word in (entry.id, entry.name):
            words.setdefault(word.casefold(), entry.id)


# -- revolts.toml (EAW-5, EAW-11.2) ---------------------------------------------------------------------------------
def _revolts(table: Table, game_map: GameMap) -> RevoltTables | None:
    table.only(("table_of", NORTH, SOUTH), "EAW-11.2")
    chooser = table.table("table_of", "EAW-5.1")
    table_of = _table_of(table, chooser) if chooser is not None else {}
    tables: dict[str, dict[int, tuple[str, ...]]] = {}
    for half in (NORTH, SOUTH):
        sub = table.table(half, "EAW-5.1")
        if sub is None:
            continue
        sub.only(tuple(str(n) for n in DIE), "EAW-5.1")
        rows = {result: _revolt_row(sub, game_map, half, result) for result in DIE if str(result) in sub.data}
        missing = [str(n) for n in DIE if n not in rows]
        if missing:
            table.problem(half, "EAW-5.1", REVOLT_RESULTS, missing=", ".join(missing))
        tables[half] = rows
    if chooser is None or len(tables) < 2:
        return None
    return RevoltTables(table_of, tables)


def _table_of(table: Table, chooser: Table) -> dict[int, str]:
    """EAW-5.1: the die result -> the half whose revolt table it rolls on; every result named, each half used."""
    table_of: dict[int, str] = {}
    chooser.only(tuple(str(n) for n in DIE), "EAW-5.1")
    for result in DIE:
        if str(result) in chooser.data:
            half = chooser.choice(str(result), "EAW-5.1", (NORTH, SOUTH))
            if half:
                table_of[result] = half
    missing = [str(n) for n in DIE if str(n) not in chooser.data]
    if missing:
        table.problem("table_of", "EAW-5.1", TABLE_OF, missing=", ".join(missing))
    for half in (NORTH, SOUTH):
        if len(table_of) == len(DIE) and half not in table_of.values():
            table.problem("table_of", "EAW-5.1", NO_TABLE_USED, half=half)
    return table_of


def _revolt_row(sub: Table, game_map: GameMap, half: str, result: int) -> tuple[str, ...]:
    """One row of a half's revolt table: provinces of that half, each once (EAW-5.1 to EAW-5.3)."""
    listed = sub.strings(str(result), "EAW-5.1")
    seen: set[str] = set()
    for index, ident in enumerate(listed):
        key = f"{result}[{index}]"
        area = game_map.areas.get(ident)
        if area is None:
            sub.problem(key, "EAW-5.1", UNKNOWN_AREA, value=repr(ident))
        elif area.is_sea:
            sub.problem(key, "EAW-5.3", REVOLT_SEA, value=repr(ident))
        elif ident in seen:
            sub.problem(key, "EAW-5.2", TWICE, value=repr(ident))
        elif area.half is not None and area.half != half:
            sub.problem(key, "EAW-5.1", REVOLT_OTHER_HALF, value=repr(ident), half=area.half)
        seen.add(ident)
    return tuple(listed)


# -- cards.toml (EAW-1.3, EAW-1.4, EAW-8.5, EAW-9.1, EAW-11.3, EAW-11.6) ---------------------------------------------
CARD_KEYS: Final[Mapping[str, tuple[str, ...]]] = {
    ARMY: (
        "id",
        "name",
        "kind",
        "category",
        "speed",
        "mounted",
        "melee",
        "value",
        "value_vs",
        "value_roll",
        "label",
        "vp_cost",
        "count",
        "effects",
    ),
    PERSONALITY: ("id", "name", "kind", "personality", "vp_cost", "count", "effects"),
}


def _card_keys(kind: str) -> tuple[str, ...]:
    return (*CARD_KEYS[ARMY], "home_group") if kind == EMPIRE else CARD_KEYS.get(kind, CARD_KEYS[ARMY])


def _cards(table: Table) -> dict[str, Card] | None:
    table.only(("card",), "EAW-11.3")
    groups: set[Any] = set()
    deck = 0

    def card(item: Table) -> Card | None:
        nonlocal deck
        # what an entry declares counts even while the entry is incomplete (its own problems are named)
        groups.add(item.data.get("home_group"))
        copies = item.data.get("count", 1)
        deck += copies if item.data.get("kind") != EMPIRE and isinstance(copies, int) else 0
        return _card(item)

    cards, where = _entries(table, "card", "EAW-11.3", card, twice_rule="EAW-11.6")
    if "card" not in table.data:
        return None
    _distinct_names(table, cards.values(), where, "EAW-11.6")
    for half_groups in HOME_GROUPS.values():
        for group in half_groups:
            if group not in groups:
                table.problem("card", "EAW-1.4", GROUP_EMPTY, group=group)
    if deck < DISPLAY_SIZE:
        table.problem("card", "EAW-7.20", DECK_SMALL, found=deck, most=DISPLAY_SIZE)
    return cards


def _card(item: Table) -> Card | None:
    kind = item.choice("kind", "EAW-11.6", (ARMY, EMPIRE, PERSONALITY))
    if kind:
        item.only(_card_keys(kind), "EAW-11.6")
    ident = item.ident("id", "EAW-11.6")
    name = item.text("name", "EAW-11.6")
    count = item.number("count", "EAW-1.2", 1, low=1, high=COUNT_MOST) or 1
    vp_cost = item.number("vp_cost", "EAW-10.5", 0, low=0, high=VP_COST_MOST) or 0
    effects = _effects(item)
    if kind == PERSONALITY:
        personality = item.choice("personality", "EAW-9.1", PERSONALITY_TYPES, "")
        if not personality:
            if not item.given("personality"):
                item.problem("personality", "EAW-9.1", NO_PERSONALITY, choices=", ".join(PERSONALITY_TYPES))
            return None
        if not ident:
            return None
        return Card(ident, name, kind, vp_cost=vp_cost, count=count, personality=personality, effects=effects)
    return _fighting_card(item, kind, ident, name, count, vp_cost, effects)


def _fighting_card(
    item: Table, kind: str, ident: str, name: str, count: int, vp_cost: int, effects: tuple[Effect, ...]
) -> Card | None:
    """An army or home-army card: what it fights with (EAW-8.1, EAW-8.5), its label and home group (EAW-1.4)."""
    category = item.choice("category", "EAW-1.3", CATEGORIES)
    speed = item.choice("speed", "EAW-8.1", (FAST, SLOW))
    mounted = item.flag("mounted", "EAW-8.15", False)
    melee = item.flag("melee", "EAW-8.2", False)
    value = item.number("value", "EAW-8.5", None, low=0, high=VALUE_MOST) if "value" in item.data else None
    if "value" not in item.data and kind:
        item.problem("value", "EAW-8.5", NO_VALUE, kind=kind)
    value_vs = _value_vs(item)
    value_roll, roll_mod = _value_roll(item)
    label_text = item.choice("label", "EAW-7.23", ("N", "S", "none"), "none")
    label = LABELS.get(label_text)
    group = _home_group(item, label) if kind == EMPIRE else None
    if not (ident and kind and category and speed):
        return None
    return Card(
        ident,
        name,
        kind,
        category=category,
        speed=speed,
        mounted=mounted,
        melee=melee,
        value=value or 0,
        value_vs=value_vs,
        value_roll=value_roll,
        roll_mod=roll_mod,
        label=label,
        vp_cost=vp_cost,
        home_group=group,
        count=count,
        effects=effects,
    )


def _home_group(item: Table, label: str | None) -> str | None:
    """EAW-1.4: a home-army card's group, one of its label's half."""
    groups = HOME_GROUPS[NORTH] + HOME_GROUPS[SOUTH]
    group = item.choice("home_group", "EAW-1.4", groups, "") or None
    if group is None and not item.given("home_group"):
        item.problem("home_group", "EAW-1.4", NO_GROUP)
    if group is not None and label is not None:
        half = HALF_OF_LABEL[label]
        if group not in HOME_GROUPS[half]:
            other = SOUTH if half == NORTH else NORTH
            item.problem("home_group", "EAW-1.4", WRONG_HALF_GROUP, label=label, half=half, group=group, other=other)
    return group


def _value_vs(item: Table) -> dict[str, int]:
    """EAW-8.5: value_vs = { mounted = 6 }: the card's value against an opposing card of that category."""
    sub = item.table("value_vs", "EAW-8.5", {})
    if sub is None:
        return {}
    sub.only(CATEGORIES, "EAW-8.5")
    found = {}
    for category in CATEGORIES:
        if category in sub.data:
            number = sub.number(category, "EAW-8.5", low=0, high=VALUE_MOST)
            if number is not None:
                found[category] = number
    return found


def _value_roll(item: Table) -> tuple[dict[int, int], int | None]:
    """EAW-8.5: value_roll = { 1 = 2, ..., 6 = 7 } (the d6 result's value) or { mod = n } (the value + d6 + n)."""
    sub = item.table("value_roll", "EAW-8.5", {})
    if sub is None or not sub.data:
        return {}, None
    sub.only(("mod", *(str(n) for n in DIE)), "EAW-8.5")
    results = [key for key in sub.data if key != "mod"]
    if "mod" in sub.data:
        if results:
            item.problem("value_roll", "EAW-8.5", VALUE_ROLL_BOTH)
            return {}, None
        return {}, sub.number("mod", "EAW-8.5", low=-VALUE_MOST, high=VALUE_MOST)
    table: dict[int, int] = {}
    for result in DIE:
        if str(result) in sub.data:
            number = sub.number(str(result), "EAW-8.5", low=0, high=VALUE_MOST)
            if number is not None:
                table[result] = number
    missing = [str(n) for n in DIE if str(n) not in sub.data]
    if missing:
        item.problem("value_roll", "EAW-8.5", VALUE_ROLL_RESULTS, missing=", ".join(missing))
    return table, None


def _effect_args(effect: Table, raw: Mapping[str, Any], code: str) -> dict[str, Any]:
    """EAW-11.6: the arguments of one effect, each of its code's (EFFECT_ARGS), in its bounds."""
    wanted = EFFECT_ARGS[code]
    args: dict[str, Any] = {}
    for arg in raw:
        if arg != "code" and arg not in wanted:
            effect.problem(arg, "EAW-11.6", EFFECT_ARG_UNKNOWN, code=code, arg=arg, known=", ".join(wanted) or "none")
    for arg, kind in wanted.items():
        if arg not in raw:
            if arg not in OPTIONAL_ARGS:
                effect.problem(arg, "EAW-11.6", EFFECT_ARG_MISSING, code=code, arg=arg)
            continue
        if kind is int:
            low, high = EFFECT_BOUNDS[arg]
            value = effect.number(arg, "EAW-11.6", low=low, high=high)
        else:
            value = effect.value(arg, "EAW-11.6", kind)
        if value is not None:
            args[arg] = value
    return args


def _effects(item: Table) -> tuple[Effect, ...]:
    """EAW-11.6: effects = [{ code = "fort_cost", n = 2 }, ...]."""
    found = []
    for index, raw in enumerate(item.value("effects", "EAW-11.6", list, []) or ()):
        key = f"effects[{index}]"
        if raw == "":
            item.problem(key, "EAW-11.6", EMPTY)
            continue
        if not isinstance(raw, dict):
            item.problem(key, "EAW-11.6", WRONG_TYPE, expected="a table", found=repr(raw))
            continue
        effect = Table(item.file, raw, item.report, f"{item.prefix}{key}.")
        code = effect.text("code", "EAW-11.6")
        if code and code not in EFFECT_ARGS:
            effect.problem("code", "EAW-11.6", UNKNOWN_EFFECT, value=repr(code), choices=", ".join(EFFECT_CODES))
            continue
        if not code:
            continue
        args = _effect_args(effect, raw, code)
        if code == "roll_mod" and args.get("roll") not in (None, *ROLLS_MODIFIED):
            effect.problem("roll", "EAW-11.6", NOT_ONE_OF, value=repr(args["roll"]), choices=", ".join(ROLLS_MODIFIED))
        if code == "card_value" and args.get("if") not in (None, *CARD_VALUE_IF):
            effect.problem("if", "EAW-11.6", NOT_ONE_OF, value=repr(args["if"]), choices=", ".join(CARD_VALUE_IF))
        found.append(Effect(code, args))
    return tuple(found)
