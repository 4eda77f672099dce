"""The services import one another without a circle: each module builds only on those below it, so that each can be
read, tested and changed on its own. Imports inside functions count too: a lazy import hides a circle, it does not
break it."""

from __future__ import annotations

import ast
from pathlib import Path

import adjudicator.services

SERVICES = Path(adjudicator.services.__file__).parent
PACKAGE = "adjudicator.services"


def services_imported(path: Path, root: Path = SERVICES) -> set[str]:
    """The services modules (those in `root`) that the module at `path` imports, anywhere in it."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:  # relative: from . import x, from .x import y
                named = [module] if module else [alias.name for alias in node.names]
            elif module == PACKAGE:  # from adjudicator.services import floods
                named = [alias.name for alias in node.names]
            elif module.startswith(PACKAGE + "."):
                named = [module[len(PACKAGE) + 1 :]]
            else:
                named = []
            found |= {name.split(".")[0] for name in named}
        elif isinstance(node, ast.Import):
            found |= {a.name.split(".")[2] for a in node.names if a.name.startswith(PACKAGE + ".")}
    return {name for name in found if (root / f"{name}.py").exists()} - {path.stem}


def import_graph(root: Path = SERVICES) -> dict[str, set[str]]:
    return {path.stem: services_imported(path, root) for path in sorted(root.glob("*.py"))}


def first_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A circle of imports (its modules in order, the first repeated at the end), or None."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str] | None:
        if module in path:
            return path[path.index(module) :] + [module]
        if module in done:
            return None
        for imported in sorted(graph.get(module, ())):
            cycle = visit(imported, [*path, module])
            if cycle:
                return cycle
        done.add(module)
        return None

    for module in sorted(graph):
        cycle = visit(module, [])
        if cycle:
            return cycle
    return None


def test_services_import_one_another_without_a_circle() -> None:
    graph = import_graph()
    assert {"turn", "adjudication", "repair", "turn_files", "games", "mailbox"} <= set(graph)
    cycle = first_cycle(graph)
    assert cycle is None, "services import in a circle: " + " -> ".join(cycle or [])


def test_the_cycle_finder_finds_a_circle_through_a_lazy_import(tmp_path: Path) -> None:
    """The walker sees an import inside a function, and the finder names the circle it closes."""
    (tmp_path / "a.py").write_text("from adjudicator.services.b import f\n")
    (tmp_path / "b.py").write_text("def f():\n    from adjudicator.services.c import g\n")
    (tmp_path / "c.py").write_text("from adjudicator.services import a\n")
    graph = import_graph(tmp_path)
    assert graph == {"a": {"b"}, "b": {"c"}, "c": {"a"}}
    assert first_cycle(graph) == ["a", "b", "c", "a"]
    assert first_cycle({"a": {"b"}, "b": set()}) is None
