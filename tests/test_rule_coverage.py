"""Every rule ID of each ruleset's spec has at least one test named after it (C-0.1)."""

from __future__ import annotations

import pytest

from tests.rule_coverage import report, rule_ids


@pytest.mark.parametrize("ruleset", ["coe-classic", "coe-1984"])
def test_every_rule_has_a_test(ruleset: str) -> None:
    table, missing = report(ruleset)
    print(table)  # shown with pytest -s; `python -m tests.rule_coverage <ruleset>` prints it too
    assert len(rule_ids(ruleset)) > 100
    assert not missing, f"rules without a test: {', '.join(missing)}"
