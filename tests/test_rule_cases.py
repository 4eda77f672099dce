"""Rule cases as data (docs/rule-cases.md): every case file under games/<ruleset>/cases/ is resolved in each
ruleset it names, as `pbem resolve --strict-dice` resolves a turn from files (without writing the reports), and
its expected outcome is checked. A bad case file is an error naming the file, the key and the line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.rule_cases import case_files, check_case, load_case, run_case

RUNS = [(path, ruleset) for path in case_files() for ruleset in load_case(path).rules]


@pytest.mark.parametrize(("path", "ruleset"), RUNS, ids=[f"{path.stem}-{ruleset}" for path, ruleset in RUNS])
def test_rule_case(path: Path, ruleset: str) -> None:
    case = load_case(path)
    problems = check_case(case, ruleset, run_case(case, ruleset))
    assert not problems, f"{path.name} in {ruleset}:\n" + "\n".join(problems)
