"""Rule cases as data (docs/rule-cases.md): every case file under games/<ruleset>/cases/ is resolved in each
ruleset it names, as `pbem resolve --strict-dice` resolves a turn from files (without writing the reports), and
its expected outcome is checked. A bad case file is an error naming the file, the key and the line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.rule_cases import CaseError, case_files, check_case, load_case, run_case

RUNS = [(path, ruleset) for path in case_files() for ruleset in load_case(path).rules]


@pytest.mark.parametrize(("path", "ruleset"), RUNS, ids=[f"{path.stem}-{ruleset}" for path, ruleset in RUNS])
def test_rule_case(path: Path, ruleset: str) -> None:
    case = load_case(path)
    problems = check_case(case, ruleset, run_case(case, ruleset))
    assert not problems, f"{path.name} in {ruleset}:\n" + "\n".join(problems)


GOOD = '''about = "A road journey costs one move."
rules = { coe-classic = "C-5.12" }
orders = """
MOVE G1 WITH 3 INF: MAC => MOE
"""

[position]
board = """
MOE: owner Macedonia; city; roads MAC
"""

[expect]
verdicts = ["ok"]
board = """
MOE: Macedonia G1 WITH 3 INF
"""
'''

BAD = [
    ('orders = """', 'order = """', "key order: unknown key", 3),
    ("MOE: owner Macedonia; city; roads MAC", "MOE: owner Macedonia; citadel", "key position.board: 'citadel'", 9),
    ("MOE: Macedonia G1 WITH 3 INF", "MOE: Macedonia G1 WITH 3 ELEPHANTS", "not understood: '3 ELEPHANTS'", 15),
    ("MOE: owner Macedonia; city; roads MAC", "MOE: owner Rome", "key position.board: 'owner Rome' is none of", 9),
    ('verdicts = ["ok"]', 'verdicts = ["refused"]', 'key expect.verdicts: each verdict is "ok" or "refused', 13),
    (
        'rules = { coe-classic = "C-5.12" }',
        'rules = { coe-classic = "C-5.99x" }',
        "key rules: coe-classic: rule IDs",
        2,
    ),
    ('rules = { coe-classic = "C-5.12" }', 'rules = { chess = "C-5.12" }', "key rules.chess: unknown key", 2),
]


@pytest.mark.parametrize(
    ("old", "new", "message", "line"),
    BAD,
    ids=["unknown_key", "bad_clause", "bad_pieces", "unknown_seat", "bad_verdict", "bad_rule_id", "unknown_ruleset"],
)
def test_a_bad_case_is_refused_naming_the_file_the_key_and_the_line(
    tmp_path: Path, old: str, new: str, message: str, line: int
) -> None:
    path = tmp_path / "cases" / "C-5.12_bad.toml"
    path.parent.mkdir()
    path.write_text(GOOD.replace(old, new), encoding="utf-8")
    with pytest.raises(CaseError) as raised:
        load_case(path)
    assert str(raised.value).startswith(f"{path}, line {line}, key "), raised.value
    assert message in str(raised.value)


def test_a_good_case_holds_and_a_broken_expectation_is_told_by_key_and_line(tmp_path: Path) -> None:
    path = tmp_path / "C-5.12_good.toml"
    path.write_text(GOOD, encoding="utf-8")
    assert check_case(load_case(path), "coe-classic", run_case(load_case(path), "coe-classic")) == []
    path.write_text(GOOD.replace('G1 WITH 3 INF\n"""\n', 'G1 WITH 2 INF\n"""\n'), encoding="utf-8")
    case = load_case(path)
    assert check_case(case, "coe-classic", run_case(case, "coe-classic")) == [
        f"{path}, line 15, key expect.board: Macedonia has G1 3 INF in MOE"
    ]


def test_orders_not_understood_and_dice_left_over_are_told_with_the_file_line(tmp_path: Path) -> None:
    path = tmp_path / "C-5.12_orders.toml"
    path.write_text(GOOD.replace("MAC => MOE\n", "MAC => MOE\nMARCH G2: MAC -> THR\n"), encoding="utf-8")
    case = load_case(path)
    problems = check_case(case, "coe-classic", run_case(case, "coe-classic"))
    assert problems and problems[0].startswith(f"{path}, line 5, key orders: not understood"), problems
    path.write_text(GOOD.replace("[position]", 'dice = "1 2"\n\n[position]'), encoding="utf-8")
    with pytest.raises(CaseError, match=r"line 7, key dice: 2 rolls of the dice were not used"):
        run_case(load_case(path), "coe-classic")


def test_the_full_example_of_the_docs_is_a_case_that_runs() -> None:
    """docs/rule-cases.md shows one case file whole: it is that file, so that the page stays true."""
    docs = (Path(__file__).resolve().parent.parent / "docs" / "rule-cases.md").read_text(encoding="utf-8")
    name = re.search(r"`(games/coe-classic/cases/[^`]+\.toml)`:\n\n```toml\n(.*?)```", docs, flags=re.DOTALL)
    assert name, "docs/rule-cases.md has no full example"
    path = next(p for p in case_files() if str(p).endswith(name.group(1)))
    assert path.read_text(encoding="utf-8") == name.group(2)


CONQUEROR_CASE = '''rules = { conqueror-er = "ER-7.10" }
orders = """
MOVE 1 INF: AUR -> SOL
"""

[position]
board = """
SOL: aurel 1 INF
"""

[expect]
verdicts = ["ok"]
'''


def test_a_bad_conqueror_case_is_refused_naming_the_file_the_key_and_the_line(tmp_path: Path) -> None:
    path = tmp_path / "ER-7.10_bad.toml"
    path.write_text(CONQUEROR_CASE.replace("aurel 1 INF", "aurel 1 DRAGON"), encoding="utf-8")
    with pytest.raises(CaseError, match=r"ER-7.10_bad.toml, line 8, key position.board: 'aurel 1 DRAGON' is neither"):
        load_case(path)
    path.write_text(CONQUEROR_CASE.replace('"ER-7.10" }', '"ER-7.10", coe-classic = "C-5.1" }'), encoding="utf-8")
    with pytest.raises(CaseError, match=r"line 1, key rules: a conqueror-er case runs in conqueror-er alone"):
        load_case(path)
    path.write_text(CONQUEROR_CASE.replace("[position]", "[position]\nplayers = 9"), encoding="utf-8")
    with pytest.raises(CaseError, match=r"line 7, key position.players: a number of players the data sets up"):
        load_case(path)


def test_a_refusal_in_a_case_of_both_editions_names_the_rule_id_of_each(tmp_path: Path) -> None:
    path = tmp_path / "C-5.12_both.toml"
    both = GOOD.replace('{ coe-classic = "C-5.12" }', '{ coe-classic = "C-5.12", coe-1984 = "O-5.13" }')
    path.write_text(both.replace('verdicts = ["ok"]', 'verdicts = ["refused C-5.2"]'), encoding="utf-8")
    with pytest.raises(CaseError, match=r"line 13, key expect.verdicts: 'refused C-5.2' names no rule ID of coe-1984"):
        load_case(path)
    path.write_text(both.replace('verdicts = ["ok"]', 'verdicts = ["refused C-5.2 O-5.2"]'), encoding="utf-8")
    case = load_case(path)  # the move is fine: each edition's check names what it cited instead
    assert check_case(case, "coe-1984", run_case(case, "coe-1984")) == [
        f"{path}, line 13, key expect.verdicts: verdicts ['ok'], expected ['refused O-5.2']"
    ]
