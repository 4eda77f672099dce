"""Every registered ruleset, as the registry (adjudicator/rulesets) lists them with the test rulesets' folder
(tests/rulesets) named by PBEM_RULESETS: the suites that hold every ruleset to one standard
(test_conformance.py, test_rule_coverage.py) are parametrized over it, so that a new ruleset folder is tested
without anybody naming it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from adjudicator.rulesets import EXTRA_FOLDERS, ruleset_folders

TEST_RULESETS = Path(__file__).resolve().parent / "rulesets"


def with_test_rulesets() -> str:
    """The value of PBEM_RULESETS that adds the test rulesets to the folders already named."""
    named = os.environ.get(EXTRA_FOLDERS, "")
    return os.pathsep.join(p for p in (named, str(TEST_RULESETS)) if p)


@contextmanager
def test_rulesets_registered() -> Iterator[None]:
    """PBEM_RULESETS names the test rulesets too while the block runs (restored after)."""
    before = os.environ.get(EXTRA_FOLDERS)
    os.environ[EXTRA_FOLDERS] = with_test_rulesets()
    try:
        yield
    finally:
        if before is None:
            del os.environ[EXTRA_FOLDERS]
        else:
            os.environ[EXTRA_FOLDERS] = before


def registered_rulesets() -> dict[str, Path]:
    """Every registered ruleset's name -> its folder, the test rulesets included."""
    with test_rulesets_registered():
        return ruleset_folders()
