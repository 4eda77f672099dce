"""Templates rendered without loading Jinja (adjudicator/render/lean.py): a receipt of every kind, in every language,
reads exactly as Jinja renders it; what the lean runtime cannot answer is left to Jinja; and `pbem check` in a new
process loads no Jinja once the template's compiled code is kept in the cache folder."""

from __future__ import annotations

import itertools
import marshal
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import jinja2
import pytest

from adjudicator import resources
from adjudicator.archive.store import close_archives
from adjudicator.engine.vocabulary import AttackOdds, OrderResult
from adjudicator.orders.sets import OrderError
from adjudicator.render import environment, lean, render
from adjudicator.services.orders import Receipt, in_language, odds_rows
from tests.conftest import Pbem

SOURCE = (
    "GAME rome1 TURN 3 PLAYER Egyptus PASSWORD *****\n"
    "MOVE G1 WITH 3 INF: ALX -> JUD\n"
    "BUY 2 INF, 1 CAT\n"
    "MARCH NOWHERE\n"
    "PRESS TO Macedonia: Grüße!\n"
)
RESULTS = [
    OrderResult(2, "MOVE G1 WITH 3 INF: ALX -> JUD", True, "ALX -> JUD"),
    OrderResult(3, "BUY 2 INF", True, "20 talents, placed ALX"),
    OrderResult(3, "BUY 1 CAT", False, "not enough talents", "C-10.2"),
    OrderResult(5, "PRESS TO Macedonia: Grüße!", False, "no such seat"),
]
ERRORS = [OrderError(4, 1, "unexpected 'MARCH'", text="MARCH NOWHERE")]
ODDS = [
    AttackOdds("JUD", "3 INF, 1 leader", "Macedonia 2 INF", 0.6512, 1.5, 1.87),
    AttackOdds("AEG", "2 galleys", "Macedonia 1 galley", 0.9997, 0.25, 1.0),  # reads >99.9%
]
FLAGS = ("stored", "replaced", "withdrawn", "had_orders", "kept", "check_only", "provisional", "ahead", "rechecked")


def receipts() -> list[Receipt]:
    """Receipts of every kind the services write: each flag on and off (in pairs, a few at a time), with and without
    problems, a refused WITHDRAW, an empty set."""
    found = [Receipt("rome1", "Egyptus", 3, list(ERRORS), list(RESULTS), source=SOURCE)]
    for first, second in itertools.combinations(FLAGS, 2):
        for errors in ([], ERRORS):
            receipt = Receipt("rome1", "Egyptus", 3, list(errors), list(RESULTS), source=SOURCE)
            setattr(receipt, first, True)
            setattr(receipt, second, True)
            found.append(receipt)
    found.append(Receipt("rome1", "Egyptus", 3, [], [], withdraw_refused=4, source=SOURCE, by_moderator=True))
    found.append(Receipt("rome1", "?", 1, list(ERRORS), [], check_only=True, source=SOURCE))
    found.append(Receipt("rome1", "Egyptus", 3, [], list(RESULTS), source=SOURCE, shown="2026-11-28 12:20"))  # MYORDERS
    found.append(Receipt("rome1", "Egyptus", 3, [], list(RESULTS), stored=True, source=SOURCE, odds=ODDS))
    return found


def by_jinja(template: str, language: str, context: dict[str, Any]) -> str:
    return environment(language).get_template(template).render(**context)


def receipt_context(receipt: Receipt, language: str) -> dict[str, Any]:
    """What Receipt.text_in gives the template."""
    return {
        **receipt.__dict__,
        "odds": odds_rows(receipt.odds),
        "lines": in_language(receipt.lines, language),
        "accepted": sum(r.accepted for r in receipt.results),
        "rejected": sum(not r.accepted for r in receipt.results),
    }


@pytest.mark.parametrize("language", ["en", "de", "it", "nl"])
def test_every_kind_of_receipt_reads_alike_without_jinja(language: str) -> None:
    for receipt in receipts():
        context = receipt_context(receipt, language)
        lean_text = lean.render("receipt.txt.j2", language, dict(context))
        assert lean_text is not None  # the receipt's compiled code needs nothing the lean runtime lacks
        assert lean_text == by_jinja("receipt.txt.j2", language, dict(context))
        assert receipt.text_in(language) == lean_text


def test_the_mail_header_reads_alike_without_jinja() -> None:
    context = {"game": "rome1", "seat": "Egyptus", "password": "s3cret"}
    for language in ("en", "de"):
        assert lean.render("_header.txt.j2", language, dict(context)) == by_jinja("_header.txt.j2", language, context)


def test_what_the_lean_runtime_cannot_answer_is_left_to_jinja() -> None:
    # a template that includes others, looks up attributes and uses Jinja's other filters
    assert lean.render("report.txt.j2", "en", {}) is None
    assert lean.render("status.txt.j2", "en", {}) is None  # a loop variable
    assert lean.render("no-such-template.txt.j2", "en", {}) is None
    assert lean.render("../receipt.txt.j2", "en", {}) is None
    # a name not given: Jinja says which, as it did before
    context = receipt_context(receipts()[0], "en")
    del context["rejected"]
    assert lean.render("receipt.txt.j2", "en", dict(context)) is None
    with pytest.raises(jinja2.UndefinedError, match="'rejected' is undefined"):
        render("receipt.txt.j2", "en", **context)


def test_compiled_code_asking_more_than_the_runtime_gives_is_not_kept_as_lean() -> None:
    env = environment("en")
    for template, lean_ok in [
        ("{{ _('line') }} {{ '%3d' | format(n) }}{% for a, b in pairs %}{{ a ~ b }}{% endfor %}", True),
        ("{{ user.name }}", False),  # an attribute lookup
        ("{{ pairs[0] }}", False),  # an item lookup
        ("{% for a in pairs %}{{ loop.index }}{% endfor %}", False),
        ("{{ a if b }}", False),  # an undefined value when b is false
        ("{{ names | join(', ') }}", False),  # a filter the runtime lacks
        ("{% if a is defined %}x{% endif %}", False),  # a test
        ("{% macro m() %}x{% endmacro %}{{ m() }}", False),
        ("{% set x = 1 %}{{ x }}", False),  # a template-wide variable (exported)
        ("{% include 'x.j2' %}", False),
        ("{{ range(3) | length }}", True),  # `range` is no name the runtime gives: refused when rendered
    ]:
        assert lean._lean_code(env.compile(template, raw=True)) is lean_ok, template


def test_check_in_a_new_process_loads_no_jinja_once_the_template_is_kept(tmp_path: Path) -> None:
    pbem = Pbem(tmp_path / "data")
    pbem.new_game()
    close_archives()
    snapshot = next(pbem.data.glob("games/rome1/turn-*/snapshot.json"))
    orders = pbem.orders("Macedonia", 1, "BUY 1 INF", "MOVE G1: MAC -> nowhere")  # one accepted, one not
    program = (
        "import sys\nsys.argv[0] = 'pbem'\nfrom adjudicator.cli import main\n"
        "try:\n    main()\nfinally:\n    print('jinja2' in sys.modules, file=sys.stderr)\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("PBEM_HOME", "PBEM_DB")}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    runs = [
        subprocess.run(
            [sys.executable, "-c", program, "check", "--state", str(snapshot), str(orders)],
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
            env=env,
        )
        for _ in range(2)
    ]
    assert [run.stderr.split()[-1] for run in runs] == ["True", "False"]  # compiled by Jinja once, then kept
    assert runs[0].stdout == runs[1].stdout and "Receipt: game rome1" in runs[1].stdout
    assert runs[0].returncode == runs[1].returncode == 1
    assert pbem("check", "--state", str(snapshot), str(orders)).output == runs[1].stdout  # the typer app's own


def test_a_damaged_kept_entry_is_rendered_by_jinja(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(lean, "_CODE", {})
    monkeypatch.setattr(resources, "_KEPT", {})
    context = receipt_context(receipts()[0], "en")
    assert lean.render("receipt.txt.j2", "en", dict(context)) is not None  # compiled and kept
    entries = list((tmp_path / "pbem" / "lean-template").iterdir())
    assert entries
    for entry in entries:
        entry.write_bytes(marshal.dumps(b"not a code object"))
    monkeypatch.setattr(lean, "_CODE", {})
    monkeypatch.setattr(resources, "_KEPT", {})
    assert lean.render("receipt.txt.j2", "en", dict(context)) is None
    assert render("receipt.txt.j2", "en", **context) == by_jinja("receipt.txt.j2", "en", context)
