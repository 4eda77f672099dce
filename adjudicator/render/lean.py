"""Plain-text templates rendered without loading Jinja: a command that writes one receipt (`pbem check`, a mail's
`pbem ingest`) spent more on importing Jinja (some 17 ms) than on reading its orders.

The template stays the one source of the text: Jinja compiles it to Python as it always does, and that code is kept
in the cache folder by the template's text, Jinja's version and this runtime's format (resources.kept); a process
that finds it runs it with the few runtime pieces below, each doing what Jinja's does. Only code that needs no
more is run so (`_lean_code`: names given, `_("...")` calls and the filters of FILTERS, no attribute or item lookup,
test, loop variable, macro, block, include or import); any other template is rendered by Jinja, and so is any
render that meets what the pieces do not answer (a name not given, a callable that takes the context) or fails at
all: Jinja then gives its own answer or error."""

from __future__ import annotations

import ast
import marshal
import sys
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path
from types import CodeType
from typing import Any

from adjudicator.resources import kept, resource_dir

LEAN_FORMAT = 1  # of the kept code and the runtime pieces below: a change compiles the templates again


class NotLean(Exception):
    """A render the pieces below cannot answer as Jinja would: Jinja renders it."""


class _Missing:
    def __repr__(self) -> str:
        return "missing"


missing = _Missing()


def _undefined(*args: Any, **kwargs: Any) -> Any:
    raise NotLean("a name not given")  # Jinja's StrictUndefined: Jinja says what is missing


def _str_join(seq: Iterable[Any]) -> str:
    return "".join(map(str, seq))  # jinja2.runtime.str_join (the `~` operator)


def _internalcode(function: Callable[..., Any]) -> Callable[..., Any]:
    return function


def _format(value: Any, *args: Any, **kwargs: Any) -> str:
    """Jinja's `format` filter (jinja2/filters.py do_format); its refusal of both kinds of values is Jinja's to say."""
    if args and kwargs:
        raise NotLean("format with both positional and named values")
    return (value if isinstance(value, str) else str(value)) % (kwargs or args)


# The names the compiled code takes from jinja2.runtime that the pieces answer (Undefined only as the
# `cond_expr_undefined` it is bound to, which a template that uses it is refused for; TemplateRuntimeError and
# internalcode only in the code that stands in for a filter not found, which a lean template never runs).
RUNTIME: dict[str, Any] = {
    "missing": missing,
    "str_join": _str_join,
    "Undefined": _undefined,
    "internalcode": _internalcode,
    "TemplateRuntimeError": NotLean,
}
# Jinja's own filters the pieces answer; the others are render/__init__.py's (language_filters), which take the
# context (Jinja's pass_context) as their first argument.
BUILTIN_FILTERS: dict[str, Callable[..., Any]] = {"format": _format, "length": len}
CONTEXT_METHODS = frozenset({"resolve_or_missing", "call"})
ENVIRONMENT_FIELDS = frozenset({"undefined", "concat", "filters"})
BUILTINS = frozenset({"str", "KeyError"})


class _Context:
    """What the compiled code and the filters ask of Jinja's Context (jinja2/runtime.py): the render's values, then
    the environment's globals."""

    __slots__ = ("values", "parent")

    def __init__(self, values: Mapping[str, Any], parent: Mapping[str, Any]) -> None:
        self.values, self.parent = values, parent

    def resolve_or_missing(self, key: str) -> Any:
        if key in self.values:
            return self.values[key]
        if key in self.parent:
            return self.parent[key]
        return missing

    def __getitem__(self, key: str) -> Any:
        found = self.resolve_or_missing(key)
        if found is missing:
            raise KeyError(key)
        return found

    def get(self, key: str, default: Any = None) -> Any:
        found = self.resolve_or_missing(key)
        return default if found is missing else found

    def call(self, function: Any, *args: Any, **kwargs: Any) -> Any:
        """A call in the template, of a function that takes no context (Jinja passes one to those that do)."""
        method = getattr(function, "__call__", None)  # noqa: B004 (Jinja asks the method too: a callable class's)
        if hasattr(function, "jinja_pass_arg") or hasattr(method, "jinja_pass_arg"):
            raise NotLean("a callable that takes the context")
        kwargs.pop("_block_vars", None)
        kwargs.pop("_loop_vars", None)
        try:
            return function(*args, **kwargs)
        except StopIteration:
            raise NotLean("StopIteration") from None  # Jinja makes it an undefined value


class _Environment:
    """What the compiled code asks of Jinja's Environment."""

    __slots__ = ("filters", "globals")

    def __init__(self, filters: dict[str, Callable[..., Any]], globals_: dict[str, Any]) -> None:
        self.filters, self.globals = filters, globals_

    undefined = staticmethod(_undefined)
    concat = staticmethod("".join)


def _environment(language: str) -> _Environment:
    """The plain-text environment of render/__init__.py (`_environment`) in the pieces' terms: its gettext, its
    language and its filters of the reader's language."""
    from adjudicator.render import language_filters
    from adjudicator.render.i18n import translations

    catalogue = translations(language)
    lookup = catalogue.ugettext

    def gettext(message: str, /, **values: Any) -> str:  # render/__init__.py _direct_gettext, without escaping
        return lookup(message) % values

    def ngettext(singular: str, plural: str, num: int, /, **values: Any) -> str:
        # Jinja's newstyle ngettext (jinja2/ext.py _make_new_ngettext): the form for `num`, which is %(num)s unless
        # given; a receipt's counts agree in number with it, and Jinja need not be loaded for that
        return catalogue.ngettext(singular, plural, num) % {"num": num, **values}

    return _Environment(
        {**BUILTIN_FILTERS, **language_filters(language)},
        {"gettext": gettext, "_": gettext, "ngettext": ngettext, "language": language},
    )


_ENVIRONMENTS: dict[str, _Environment] = {}
_CODE: dict[str, tuple[tuple[int, int], CodeType | None]] = {}  # template name -> (its file's mtime and size, code)
_ROOTS: dict[tuple[str, str], tuple[CodeType, Callable[[_Context], Iterable[str]]]] = {}


def render(name: str, language: str, context: Mapping[str, Any]) -> str | None:
    """Template `name` of templates/ rendered with `context` as the plain-text environment of `language` renders it,
    or None where Jinja must do it."""
    code = _code(name)
    if code is None:
        return None
    root = _ROOTS.get((name, language))
    if root is None or root[0] is not code:
        environment = _ENVIRONMENTS.get(language)
        if environment is None:
            environment = _ENVIRONMENTS[language] = _environment(language)
        namespace: dict[str, Any] = {**RUNTIME, "environment": environment, "__name__": f"lean:{name}"}
        exec(code, namespace)  # noqa: S102 (Jinja's own compiled template, kept by this user)
        root = _ROOTS[name, language] = (code, namespace["root"])
    environment = _ENVIRONMENTS[language]
    try:
        return "".join(root[1](_Context(context, environment.globals)))
    except Exception:  # noqa: BLE001 (NotLean, or an error Jinja reports in its own words)
        return None


def _code(name: str) -> CodeType | None:
    """The kept compiled code of template `name` (a file of templates/ itself), None when it is not lean."""
    if "/" in name or "\\" in name or name.startswith("."):
        return None
    path = resource_dir("templates") / name
    try:
        stat = path.stat()
    except OSError:
        return None
    seen = (stat.st_mtime_ns, stat.st_size)
    found = _CODE.get(name)
    if found is not None and found[0] == seen:
        return found[1]
    try:
        text = path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    source = f"{LEAN_FORMAT}\0{_jinja_version()}\0{name}\0{path}\0{text}".encode()
    packed = kept("lean-template", source, lambda: _compiled(name, str(path), text))
    try:
        code = marshal.loads(packed) if packed else None
    except (EOFError, ValueError, TypeError):  # a damaged entry: Jinja renders it
        code = None
    if not isinstance(code, CodeType):
        code = None
    _CODE[name] = (seen, code)
    return code


def _compiled(name: str, filename: str, text: str) -> bytes:
    """Template text compiled by the plain-text environment (as get_template compiles it), as marshal data of the
    code object; b"" when the code needs more than the pieces above."""
    from adjudicator.render import environment

    source = environment("en").compile(text, name, filename, raw=True)  # no part of it is the language's
    lines = source.split("\n")
    if not lines[0].startswith("from jinja2.runtime import ") or not _lean_code(source):
        return b""
    lines[0] = ""  # the runtime's names are given by the namespace: the line numbers stay Jinja's
    return marshal.dumps(compile("\n".join(lines), filename, "exec"))


def _lean_code(source: str) -> bool:
    """Whether compiled template code asks only what the pieces above answer."""
    tree = ast.parse(source)
    (head, *body) = tree.body
    imported = {alias.asname or alias.name for alias in head.names} if isinstance(head, ast.ImportFrom) else set()
    shapes = [type(node).__name__ for node in body]
    if shapes != ["Assign", "FunctionDef", "Assign", "Assign"] or not isinstance(body[1], ast.FunctionDef):
        return False
    blocks = body[2]
    if not (isinstance(blocks.value, ast.Dict) and not blocks.value.keys):  # type: ignore[attr-defined]
        return False
    root = body[1]
    assigned = {arg.arg for arg in root.args.args} | {
        node.id for node in ast.walk(root) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)
    }
    assigned |= {node.name for node in ast.walk(root) if isinstance(node, ast.FunctionDef)}
    assigned |= {node.arg for node in ast.walk(root) if isinstance(node, ast.arg)}
    return all(_lean_node(node, imported, assigned) for node in ast.walk(root))


def _lean_node(node: ast.AST, imported: set[str], assigned: set[str]) -> bool:
    """Whether one node of the compiled code asks only what the pieces above answer."""
    if isinstance(node, (ast.YieldFrom, ast.Await, ast.AsyncFor, ast.Lambda, ast.Global, ast.Nonlocal)):
        return False
    if isinstance(node, ast.Attribute):
        owner = node.value.id if isinstance(node.value, ast.Name) else None
        return (owner == "context" and node.attr in CONTEXT_METHODS) or (
            owner == "environment" and node.attr in ENVIRONMENT_FIELDS
        )
    if isinstance(node, ast.Subscript):
        return _filter_lookup(node)
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
        if node.id == "cond_expr_undefined" or (node.id in imported and node.id not in RUNTIME):
            return False
        return node.id in assigned or node.id in imported or node.id in BUILTINS
    return True


def _filter_lookup(node: ast.Subscript) -> bool:
    """Whether a subscript is `environment.filters['name']` of a filter the lean environment has."""
    from adjudicator.render import LANGUAGE_FILTERS

    target, key = node.value, node.slice
    return (
        isinstance(target, ast.Attribute)
        and isinstance(target.value, ast.Name)
        and target.value.id == "environment"
        and target.attr == "filters"
        and isinstance(key, ast.Constant)
        and (key.value in BUILTIN_FILTERS or key.value in LANGUAGE_FILTERS)
    )


@cache
def _jinja_version() -> str:
    """The version line of the installed Jinja, read without importing it (the compiled code is Jinja's)."""
    for folder in sys.path:
        path = Path(folder or ".") / "jinja2" / "__init__.py"
        if path.is_file():
            return next((line for line in path.read_text().splitlines() if "__version__" in line), str(path))
    return ""
