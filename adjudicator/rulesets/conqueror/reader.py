"""Reading TOML tables while collecting problems instead of stopping at the first: every read names its file,
key and rule ID, records what is wrong, and hands back a stand-in value so that reading goes on and the next
problem is found too. An empty string is a value the template left to fill in (template.py)."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adjudicator.rulesets.conqueror import problems as p
from adjudicator.rulesets.conqueror.problems import Problem, Say

_ABSENT: Any = object()
_ID = re.compile(r"^[A-Za-z0-9_-]+$")
_KIND_NAMES = {int: "an integer", str: "a string", bool: "true or false", list: "a list", dict: "a table"}


@dataclass
class Report:
    """What a check found: problems (the data cannot be used) and notes (usable defaults to confirm)."""

    problems: list[Problem] = field(default_factory=list)
    notes: list[Problem] = field(default_factory=list)
    text_keys: set[str] = field(default_factory=set)  # every key a private text may be given for (ER-13.7)

    def add(self, file: str, key: str, rule: str, msgid: str, /, **values: Any) -> None:
        problem = Problem(file, key, rule, Say(msgid, values))
        if problem not in self.problems:  # an alternative board reads what it inherits from the standard one
            self.problems.append(problem)


@dataclass
class Table:
    """One TOML table of `file`; `prefix` is its key path (`faction[2].board[0].`)."""

    file: str
    data: Mapping[str, Any]
    report: Report
    prefix: str = ""

    def key(self, name: str) -> str:
        return f"{self.prefix}{name}"

    def problem(self, name: str, rule: str, msgid: str, /, **values: Any) -> None:
        self.report.add(self.file, self.key(name), rule, msgid, **values)

    def has(self, name: str) -> bool:
        return name in self.data

    def value(self, name: str, rule: str, kind: type, default: Any = _ABSENT) -> Any:
        """The value of `name` if it is of `kind`; else a problem and None (the default when absent)."""
        if name not in self.data:
            if default is not _ABSENT:
                return default
            self.problem(name, rule, p.MISSING)
            return None
        value = self.data[name]
        if value == "" and kind is not str:
            self.problem(name, rule, p.EMPTY)
            return None
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            self.problem(name, rule, p.WRONG_TYPE, expected=_KIND_NAMES.get(kind, kind.__name__), found=repr(value))
            return None
        return value

    def number(
        self, name: str, rule: str, default: Any = _ABSENT, low: int | None = None, high: int | None = None
    ) -> int:
        value = self.value(name, rule, int, default)
        if value is None:
            return 0
        if (low is not None and value < low) or (high is not None and value > high):
            self.problem(name, rule, p.OUT_OF_RANGE, value=value, low=low, high="..." if high is None else high)
        return int(value)

    def text(self, name: str, rule: str, default: Any = _ABSENT) -> str:
        value = self.value(name, rule, str, default)
        if value == "" and default is _ABSENT:
            self.problem(name, rule, p.EMPTY)
        return value or ""

    def ident(self, name: str, rule: str) -> str:
        value = self.text(name, rule)
        if value and not _ID.match(value):
            self.problem(name, rule, p.BAD_ID, value=repr(value))
        return value

    def flag(self, name: str, rule: str, default: Any = _ABSENT) -> bool:
        return bool(self.value(name, rule, bool, default))

    def choice(self, name: str, rule: str, choices: Iterable[str], default: Any = _ABSENT) -> str:
        value = self.text(name, rule, default)
        known = tuple(choices)
        if value == "" and self.data.get(name) == "" and default is not _ABSENT:
            self.problem(name, rule, p.EMPTY)  # an optional choice left empty is not its default
        if value and value not in known:
            self.problem(name, rule, p.NOT_ONE_OF, value=repr(value), choices=", ".join(known))
            return ""
        return value

    def items(self, name: str, rule: str, kind: type, default: Any = _ABSENT) -> list[Any]:
        """A list whose items are all of `kind` (the wrong ones are problems and left out)."""
        values = self.value(name, rule, list, default)
        found = []
        for index, item in enumerate(values or ()):
            if isinstance(item, kind) and not (isinstance(item, bool) and kind is not bool):
                found.append(item)
            else:
                expected = _KIND_NAMES.get(kind, kind.__name__)
                self.problem(f"{name}[{index}]", rule, p.WRONG_TYPE, expected=expected, found=repr(item))
        return found

    def numbers(self, name: str, rule: str, default: Any = _ABSENT) -> tuple[int, ...]:
        return tuple(self.items(name, rule, int, default))

    def strings(self, name: str, rule: str, default: Any = _ABSENT) -> tuple[str, ...]:
        return tuple(self.items(name, rule, str, default))

    def table(self, name: str, rule: str, default: Any = _ABSENT) -> Table | None:
        value = self.value(name, rule, dict, default)
        return None if value is None else Table(self.file, value, self.report, f"{self.prefix}{name}.")

    def tables(self, name: str, rule: str, default: Any = _ABSENT) -> list[Table]:
        """An array of tables ([[name]]); items that are no table are problems and left out."""
        return [
            Table(self.file, item, self.report, f"{self.prefix}{name}[{index}].")
            for index, item in self._indexed(name, rule, default)
        ]

    def _indexed(self, name: str, rule: str, default: Any) -> list[tuple[int, dict[str, Any]]]:
        found = []
        for index, item in enumerate(self.value(name, rule, list, default) or ()):
            if isinstance(item, dict):
                found.append((index, item))
            else:
                self.problem(f"{name}[{index}]", rule, p.WRONG_TYPE, expected="a table", found=repr(item))
        return found

    def only(self, known: Iterable[str], rule: str) -> None:
        """Every key of the table is one of `known` (a misspelt key is named, not silently ignored)."""
        allowed = tuple(known)
        for name in self.data:
            if name not in allowed:
                self.problem(name, rule, p.UNKNOWN_KEY, known=", ".join(allowed))


def open_toml(folder: Path, file: str, report: Report, rule: str, *, label: str | None = None) -> Table | None:
    """The top table of `folder/file`, or None (a missing or broken file is a problem)."""
    name = label or file
    path = folder / file
    if not path.is_file():
        report.add(name, p.WHOLE_FILE, rule, p.NO_FILE)
        return None
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        report.add(name, p.WHOLE_FILE, rule, p.NOT_TOML, error=str(error))
        return None
    return Table(name, data, report)
