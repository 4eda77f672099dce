"""The shape of the code: no function of the package so branched that its rules cannot be read one at a time, no
module of the Conquest of the Empire ruleset that mixes every concern of a feature (odds.py held the input, the dice
arithmetic, both editions' battles and the text in 1,074 lines; bot.py one class of 31 methods). The branch count is
McCabe's cyclomatic complexity as radon computes it (1 + each if, loop, except, boolean operator and comprehension
clause; nested functions count on their own); radon's grade E starts at 31."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import adjudicator

PACKAGE = Path(adjudicator.__file__).parent
MOST_BRANCHES = 30  # radon grade D at worst
MOST_LINES = 700  # a module longer than this holds more than one concern


def _body(root: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a function's own body, not those of the functions and classes defined in it."""
    for child in ast.iter_child_nodes(root):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        yield child
        yield from _body(child)


def branches(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """McCabe's cyclomatic complexity, counted as radon counts it."""
    score = 1
    for node in _body(function):
        if isinstance(node, (ast.If, ast.IfExp, ast.Assert, ast.match_case)):
            score += 1
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            score += 1 + bool(node.orelse)
        elif isinstance(node, ast.Try):
            score += len(node.handlers) + bool(node.orelse)
        elif isinstance(node, ast.BoolOp):
            score += len(node.values) - 1
        elif isinstance(node, ast.comprehension):
            score += 1 + len(node.ifs)
    return score


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_the_branch_counter_counts_as_radon_does() -> None:
    source = """
def f(a, b):
    if a and b or a:
        for x in [y for y in b if y]:
            pass
    elif b:
        try:
            pass
        except ValueError:
            pass
    def inner():
        if a:
            pass
    return 1 if a else 2
"""
    tree = ast.parse(source)
    outer = tree.body[0]
    assert isinstance(outer, ast.FunctionDef)
    # 1 + if + 2 boolean operators + for + comprehension and its if + elif + except + conditional expression
    assert branches(outer) == 10


def test_no_function_of_the_package_is_graded_E_or_F() -> None:
    """Every layer, every ruleset: the CoE moves and the mailbox's handling of a mail each were over 30 before they
    became named steps."""
    tangled = [
        f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name} ({branches(node)})"
        for path in _modules()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and branches(node) > MOST_BRANCHES
    ]
    assert not tangled, f"functions with more than {MOST_BRANCHES} branches: {tangled}"


def test_no_coe_module_holds_every_concern_of_a_feature() -> None:
    long = [
        f"{path.relative_to(PACKAGE)} ({lines} lines)"
        for path in _modules()
        if path.parent.name == "coe" and (lines := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    ]
    assert not long, f"modules longer than {MOST_LINES} lines: {long}"
