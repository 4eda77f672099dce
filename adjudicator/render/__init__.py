"""Rendering through Jinja templates (templates/*.j2) and writing files atomically.

The layouts in templates/ (reports, notices, the site, mails) are shared by every game; what is a game's own
(the sentence of each event kind, the position, a seat's losses and orders template) is in its ruleset's
template folder (the protocol's `templates`, e.g. templates/coe/). A layout reaches it
through the variable `ruleset_templates`, e.g. `{% from ruleset_templates ~ "/events.j2" import sentence %}`;
`render` sets it from the ruleset the context names. A folder under templates/ is named relative to it ("coe"),
any other (a ruleset of PBEM_RULESETS) by its absolute path. A ruleset's folder provides events.j2 (macros
`sentence(event)` and `faces(dice)`; `battle_opening` and `battle_kinds` for the site), position.j2 (macro
`position(state)`), seat-losses.txt.j2 and seat-position.txt.j2 (parts of the private report), and optionally
seat-start.txt.j2 (the welcome's line on a seat; else _seat-start.txt.j2).
"""

from __future__ import annotations

import itertools
import os
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.render import lean
from adjudicator.resources import resource_dir

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from jinja2 import BytecodeCache, Environment
    from jinja2.bccache import Bucket
    from jinja2.runtime import Context

    from adjudicator.rulesets import Ruleset


@cache
def environment(language: str = "en") -> Environment:
    """The plain-text environment (reports, receipts, notices) of one language."""
    return _environment(language, autoescape=False)


@cache
def markup_environment(language: str = "en") -> Environment:
    """The escaping environment for HTML and SVG (the site, the map): every value is escaped unless marked safe."""
    env = _environment(language, autoescape=True)
    env.filters["svg_inline"] = svg_inline
    return env


def _environment(language: str, autoescape: bool) -> Environment:
    # imported here: commands that render nothing (pbem verify) need not load Jinja or Babel
    from jinja2 import ChoiceLoader, FileSystemLoader, FunctionLoader, StrictUndefined, pass_context

    from adjudicator.render.i18n import translations

    env = _environment_class()(
        loader=ChoiceLoader([FileSystemLoader(resource_dir("templates")), FunctionLoader(_outside_template)]),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=autoescape,
        extensions=["jinja2.ext.i18n"],
        bytecode_cache=_compiled_templates(autoescape),
        # a template is read once per process, as the code is: asking the disk whether each template, include and
        # import changed on every render cost a tick's reports a tenth of their time
        auto_reload=False,
    )
    env.install_gettext_translations(translations(language), newstyle=True)  # type: ignore[attr-defined]
    _direct_gettext(env, translations(language).ugettext)
    env.globals["language"] = language
    # The filters of the reader's language take the context only so that Jinja never applies them when compiling:
    # it folds a filter of a constant ("game" | kw) into the compiled template, which would then hold the words of
    # the language it was first compiled for, and the cache below serves one compiled template to every language.
    for name, function in language_filters(language).items():
        env.filters[name] = pass_context(function)
    return env


LANGUAGE_FILTERS = ("kw", "verdict", "engine", "engine_data", "echo", "item", "keywords")


def language_filters(language: str) -> dict[str, Callable[..., Any]]:
    """The filters of the reader's language (LANGUAGE_FILTERS), each taking the render's context first; the Jinja
    environment and the lean one (lean.py) use the same."""
    from adjudicator.render.i18n import context_ruleset as of  # whose keywords and catalogue come first
    from adjudicator.render.i18n import engine_data, engine_text, item_echo, keywords_written, order_echo

    return {
        "kw": _keyword_filter(language),  # in the reader's language
        "verdict": lambda _, item: verdict(item, language),
        "engine": lambda c, text: engine_text(language, text, of(c)),  # translated
        "engine_data": lambda c, event: engine_data(language, event, of(c)),
        "echo": lambda c, text: order_echo(language, text, of(c)),  # a line the tool composed
        "item": lambda c, text: item_echo(language, text, of(c)),  # an item of a line, named
        "keywords": lambda c, text: keywords_written(language, text, of(c)),  # a text it wrote
    }


@cache
def _environment_class() -> type[Environment]:
    """Jinja's Environment, reading `a.name` of a plain dict (the snapshots the reports show) at once: Jinja tries an
    attribute first, and a dict's failed attribute lookup cost a report some 800 raised AttributeErrors. The result is
    Jinja's own: a plain dict has no attribute but those of its type (dir(dict)), which are still looked up first."""
    from jinja2 import Environment

    methods = frozenset(dir(dict))

    class DictFirst(Environment):
        context_class = _direct_calls_context()

        def getattr(self, obj: Any, attribute: str) -> Any:
            if type(obj) is dict and attribute not in methods:
                try:
                    return obj[attribute]
                except LookupError:
                    return self.undefined(obj=obj, name=attribute)
            try:  # Jinja's own (no super(): most lookups are of objects, and the call cost them a third more)
                return getattr(obj, attribute)
            except AttributeError:
                pass
            try:
                return obj[attribute]
            except (TypeError, LookupError, AttributeError):
                return self.undefined(obj=obj, name=attribute)

    return DictFirst


@cache
def _direct_calls_context() -> type[Context]:
    """Jinja's Context, calling at once what a template calls most (its `_()`, its macros, a value's methods such as
    `d.get`): Jinja's own `call` asks each callable three times whether it takes the context, which cost a report
    more than the calls. What may take the context (a function or method marked by Jinja's pass_* decorators, a
    callable object) is left to Jinja's `call`, as is a function marked to take the context in a loop or block that
    set variables (Jinja derives a context for it)."""
    from types import BuiltinFunctionType, FunctionType, MethodType

    from jinja2.runtime import Context, Macro
    from jinja2.utils import _PassArg

    never_given = (BuiltinFunctionType, Macro)  # no attribute of theirs can ask for the context

    class DirectCalls(Context):
        def call(__self, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805 (Jinja's names: any keyword)
            kind = type(__obj)
            if kind is FunctionType or kind is MethodType:
                passed = getattr(__obj, "jinja_pass_arg", None)
                if passed is _PassArg.context and not (kwargs.get("_loop_vars") or kwargs.get("_block_vars")):
                    args = (__self, *args)
                elif passed is not None:
                    return super().call(__obj, *args, **kwargs)
            elif kind not in never_given:
                return super().call(__obj, *args, **kwargs)
            kwargs.pop("_block_vars", None)
            kwargs.pop("_loop_vars", None)
            try:
                return __obj(*args, **kwargs)
            except StopIteration:  # as Jinja's call answers it
                return __self.environment.undefined(
                    "value was undefined because a callable raised a StopIteration exception"
                )

    return DirectCalls


def _direct_gettext(env: Environment, lookup: Callable[[str], str]) -> None:
    """`_()` and `gettext()` of the templates as Jinja's newstyle gettext makes them (jinja2/ext.py _make_new_gettext:
    the message looked up, marked safe where escaping is on, then always %-formatted with the values given), called
    at once: Jinja's pass each call through the context three times, which cost a report more than its lookups.
    No template switches escaping with an autoescape block, so whether to escape is the environment's, not the
    context's: the function takes no context, which a call in a loop would otherwise copy."""
    from markupsafe import Markup

    if env.autoescape:

        def gettext(message: str, /, **values: Any) -> str:
            return Markup(lookup(message)) % values  # noqa: S704 (our catalogue's message; the values are escaped)

    else:

        def gettext(message: str, /, **values: Any) -> str:
            return lookup(message) % values

    env.globals.update(gettext=gettext, _=gettext)


def _keyword_filter(language: str) -> Callable[..., str]:
    """The `kw` filter: keyword `name` as a reader of `language` writes it (orders/keywords.py written), in the
    keywords of the context's ruleset (render/i18n.py context_ruleset), remembered by the ruleset's name and the
    extra rulesets in force, which are all the words depend on (a report writes some 50 keywords a seat). The words
    of the latest render context are at hand: its ruleset and the extra rulesets do not change within a render, and
    reading them (the environment's variable most) cost more than the lookup."""
    from adjudicator.orders.keywords import written
    from adjudicator.render.i18n import context_ruleset

    known: dict[tuple[str | None, str], dict[str, str]] = {}  # (ruleset name, extra rulesets) -> name -> word
    latest: list[Any] = [None, None, {}]  # the context of the latest call, its ruleset, and their words

    def keyword(context: Any, name: str) -> str:
        named = context.get("ruleset")
        if named is None:  # the snapshot's ruleset, if any (not remembered)
            return written(language, name, context_ruleset(context))
        if context is latest[0] and named is latest[1]:
            words = latest[2]
        else:
            ruleset = named if isinstance(named, str) else getattr(named, "name", None)
            words = known.setdefault((ruleset, os.environ.get("PBEM_RULESETS", "")), {})
            latest[:] = [context, named, words]
        found = words.get(name)
        if found is None:
            found = words[name] = written(language, name, context_ruleset(context))
        return found

    return keyword


def _compiled_templates(autoescape: bool) -> BytecodeCache | None:
    """Compiled templates kept between processes (a command runs per mail: compiling its templates was a tenth of
    its start-up), in Jinja's private per-user folder of the temporary directory. An entry is found by template
    name, file and source checksum (an edited template is compiled again), and kept apart by Jinja version and
    escaping (the one setting by which the two environments compile a template differently); the language is
    no part of a compiled template (the filters above). Without a safe folder, templates are compiled anew in
    every process, as before."""
    from jinja2 import FileSystemBytecodeCache
    from jinja2 import __version__ as jinja_version

    class Kept(FileSystemBytecodeCache):
        def dump_bytecode(self, bucket: Bucket) -> None:
            try:
                super().dump_bytecode(bucket)
            except OSError:  # a full or read-only disk: the template is used as compiled, only not kept
                pass

    escaping = "markup" if autoescape else "text"
    try:
        return Kept(pattern=f"pbem-jinja{jinja_version}-{escaping}-%s.cache")
    except (OSError, RuntimeError):  # no private folder (Jinja refuses one that is not the user's alone)
        return None


def _outside_template(name: str) -> tuple[str, str, Callable[[], bool]] | None:
    """A template of a ruleset folder outside the package, named by its absolute path."""
    path = Path(name)
    if not path.is_absolute() or not path.is_file():
        return None
    modified = path.stat().st_mtime
    return path.read_text(encoding="utf-8"), str(path), lambda: path.stat().st_mtime == modified


def verdict(item: Any, language: str = "en") -> str:
    """The verdict on an order (OrderResult) or a line not understood (OrderError), in `language`: the engine's
    reasons and the ruleset's parse messages are translated (engine_text); a message that is not a msgid stays
    English."""
    from adjudicator.render.i18n import engine_text, gettext

    if hasattr(item, "column"):
        return gettext(
            language,
            "not understood (column %(column)s): %(problem)s",
            column=item.column,
            problem=engine_text(language, item.message),
        )
    reason = engine_text(language, item.reason)
    if item.accepted:
        return gettext(language, "accepted") + (f": {reason}" if reason else "")
    if item.rule:
        return gettext(language, "rejected (%(rule)s): %(reason)s", rule=item.rule, reason=reason)
    return gettext(language, "rejected: %(reason)s", reason=reason)


def svg_inline(svg: str) -> Any:
    """An SVG document of ours (rendered by the escaping environment) for inclusion in an HTML page."""
    from markupsafe import Markup

    if svg.startswith("<?xml"):
        svg = svg[svg.index("?>") + 2 :].lstrip()
    return Markup(svg)  # noqa: S704 (made by our own escaping template)


MAP_PLACE = "<!-- map.svg -->"  # where the HTML part of a report mail shows the map (drawn inline when sent)


def report_mail_html(language: str, subject: str, text: str) -> str:
    """A report mail's HTML part: its text in a <pre>, and MAP_PLACE where the map goes (with_map)."""
    return markup_environment(language).get_template("report-mail.html.j2").render(subject=subject, text=text)


def with_map(html: str, map_svg: str) -> str:
    """A report mail's HTML part with its map drawn inline (none: as it is)."""
    return html.replace(MAP_PLACE, str(svg_inline(map_svg)), 1) if map_svg else html


def render(template: str, language: str = "en", **context: Any) -> str:
    """`template` in `language`, with `ruleset_templates` (the ruleset's template folder) set from the context
    unless given."""
    if "ruleset_templates" not in context and (folder := templates_of(context)):
        context["ruleset_templates"] = folder
    text = lean.render(template, language, context)  # without loading Jinja where its compiled code allows
    return text if text is not None else environment(language).get_template(template).render(**context)


def ruleset_templates(ruleset: Ruleset) -> str | None:
    """The template name of a ruleset's template folder: relative to templates/ when it lies there, else its
    absolute path; None when it has none."""
    folder = ruleset.templates  # the protocol's (adjudicator/engine/protocol.py)
    if folder is None:
        return None
    return _template_name(str(folder))


@cache  # asked by every render: the path arithmetic cost more than a short report's rendering
def _template_name(folder: str) -> str:
    shared = resource_dir("templates")
    return Path(folder).relative_to(shared).as_posix() if Path(folder).is_relative_to(shared) else str(folder)


def templates_of(context: Mapping[str, Any]) -> str | None:
    """The template folder of the ruleset a render context names: `ruleset` (a Ruleset or a name), else the
    snapshot's (`state`); None when it names none (a template that needs a ruleset's sentences then fails)."""
    from adjudicator.rulesets import load_ruleset

    named = context.get("ruleset")
    if named is None and isinstance(context.get("state"), dict):
        named = context["state"].get("ruleset")
    if named is not None:
        return ruleset_templates(load_ruleset(named) if isinstance(named, str) else named)
    return None


def write_atomically(path: Path, text: str, public: bool = False, *, folder_made: bool = False) -> None:
    """Write via a temporary file and rename, so that a reader never sees half a file.

    A private file (welcome messages, private reports, notices, mail) is readable by its owner only; a
    `public` one (the public report, snapshot, map, the site) gets the mode a new file gets under the umask,
    so that a web server may serve it. `folder_made`: the caller made the file's folder just before (a turn's
    files share one: asking the disk for it again per file cost a tick a system call each)."""
    if not folder_made:
        path.parent.mkdir(parents=True, exist_ok=True)
    # the kernel applies the umask to the mode asked for when it makes the file: no umask read, no chmod per file
    handle, temporary = _new_temporary(path, 0o666 if public else 0o600)
    try:
        # the bytes a text file object writes on POSIX (UTF-8, "\n" as it is), without one: its opening asked the
        # disk three more times (the file's size, whether it is a terminal, its position) for every file of a turn
        try:
            _write_all(handle, text.encode("utf-8"))
        finally:
            os.close(handle)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _write_all(handle: int, data: bytes) -> None:
    """All of `data` to the open file `handle` (a write may take only part of it)."""
    view = memoryview(data)
    while view:
        view = view[os.write(handle, view) :]


def _new_temporary(path: Path, mode: int) -> tuple[int, Path]:
    """A new file beside `path` with a name no other file has (this process's id and a count: no random bytes drawn
    per file), open for writing, with `mode` less the umask."""
    while True:
        temporary = path.with_name(f".{path.name}.{os.getpid()}-{next(_TEMPORARIES)}")
        try:
            return os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, mode), temporary
        except FileExistsError:
            continue  # left by a process that died with this one's id


_TEMPORARIES = itertools.count()
