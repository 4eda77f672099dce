"""Every rule ID of each registered ruleset's spec (rules.md in its folder) has at least one test named after it
(C-0.1); a ruleset without a spec is skipped, saying so."""

from __future__ import annotations

import pytest

from adjudicator.resources import resource_dir
from tests.registered import registered_rulesets
from tests.rule_coverage import case_rules, report, rule_ids, rules_spec


@pytest.mark.parametrize("ruleset", sorted(registered_rulesets()))
def test_every_rule_has_a_test(ruleset: str) -> None:
    if not rules_spec(ruleset).is_file():
        pytest.skip(f"{ruleset} has no rules spec ({rules_spec(ruleset)}): no rule IDs to cover")
    table, missing = report(ruleset)
    print(table)  # shown with pytest -s; `python -m tests.rule_coverage <ruleset>` prints it too
    assert rule_ids(ruleset), f"{rules_spec(ruleset)} defines no rule ID"
    assert not missing, f"rules without a test: {', '.join(missing)}"


def test_the_coverage_suite_holds_every_game_folder_of_the_package() -> None:
    games = {folder.name for folder in resource_dir("games").iterdir() if (folder / "ruleset.toml").is_file()}
    assert games and games <= set(registered_rulesets())  # a new game folder is parametrized without a word
    assert all(rules_spec(name).is_file() for name in games)  # and each game of the package has its spec


def test_every_rule_a_case_names_is_in_its_rulesets_spec() -> None:
    """A rule case counts for coverage by the IDs its `rules` key names (docs/rule-cases.md): each must be a rule
    of that ruleset's spec, so that a typo cannot pass for coverage."""
    unknown = [f"{name}: {rule} ({ruleset})" for ruleset, rule, name in case_rules() if rule not in rule_ids(ruleset)]
    assert case_rules() and not unknown, unknown
