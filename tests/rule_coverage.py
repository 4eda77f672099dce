"""Rule coverage: which tests cover each rule ID of a ruleset's rules spec (games/<ruleset>/rules.md).

A test covers a rule when its name carries the rule ID: test_C_5_3_... covers C-5.3 (a name may carry
several IDs). A rule case (games/<ruleset>/cases/*.toml, run by tests/test_rule_cases.py) covers the rule IDs its
`rules` key names for each ruleset it runs in (docs/rule-cases.md). Run `python -m tests.rule_coverage coe-classic`
to print the table; exit status 1 when a rule has no test.
"""

from __future__ import annotations

import ast
import functools
import re
import sys
from pathlib import Path

from tests.registered import registered_rulesets

TESTS = Path(__file__).resolve().parent


def rules_spec(ruleset: str) -> Path:
    """The ruleset's rules spec: rules.md in its registered folder (it may have none)."""
    return registered_rulesets()[ruleset] / "rules.md"


def rule_ids(ruleset: str) -> list[str]:
    """Rule IDs defined in the spec: list items starting with the ID (table rows for section 15)."""
    text = rules_spec(ruleset).read_text(encoding="utf-8")
    found = re.findall(r"^(?:- |\| )([A-Z]+-\d+\.\d+)\b", text, flags=re.MULTILINE)
    return list(dict.fromkeys(found))


@functools.cache  # every ruleset's table reads the same test files: parse them once a session
def test_names() -> tuple[str, ...]:
    names: list[str] = []
    for path in sorted(TESTS.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names += [
            f"{path.stem}::{node.name}"
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
        ]
    return tuple(names)


@functools.cache  # read once a session, like the test names
def case_rules() -> tuple[tuple[str, str, str], ...]:
    """(ruleset, rule ID, case name) for every rule case's `rules` entry; the name is the case file's path below
    the games folder, as test_rule_cases.py runs it."""
    from tests.rule_cases import case_files, load_case

    found: list[tuple[str, str, str]] = []
    for path in case_files():
        name = f"cases: {path.parent.parent.name}/cases/{path.name}"
        found += [(ruleset, rule, name) for ruleset, ids in load_case(path).rules.items() for rule in ids]
    return tuple(found)


def coverage(ruleset: str) -> dict[str, list[str]]:
    """Rule ID -> the tests whose names carry it and the rule cases that name it for `ruleset`."""
    table: dict[str, list[str]] = {rule: [] for rule in rule_ids(ruleset)}
    for name in test_names():
        for prefix, section, number in re.findall(r"(?<![A-Za-z])([A-Z]+)_(\d+)_(\d+)", name.split("::")[1]):
            rule = f"{prefix}-{section}.{number}"
            if rule in table:
                table[rule].append(name)
    for case_ruleset, rule, name in case_rules():
        if case_ruleset == ruleset and rule in table:
            table[rule].append(name)
    return table


def report(ruleset: str) -> tuple[str, list[str]]:
    table = coverage(ruleset)
    lines = [f"{rule:8} {len(tests):3}  {tests[0] if tests else 'NOT COVERED'}" for rule, tests in table.items()]
    missing = [rule for rule, tests in table.items() if not tests]
    lines.append(f"{len(table) - len(missing)} of {len(table)} rules of {ruleset} covered")
    return "\n".join(lines), missing


def main(argv: list[str]) -> int:
    text, missing = report(argv[1] if len(argv) > 1 else "coe-classic")
    print(text)
    if missing:
        print(f"rules without a test: {', '.join(missing)}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
