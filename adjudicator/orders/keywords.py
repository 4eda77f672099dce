"""The keyword tables: accepted spellings of every keyword in every language.

A small shared table (grammar/keywords.toml: the message header, press, mail commands, answers, languages) is every
game's; each ruleset adds its own in its folder (`keywords.toml`, or the file its ruleset.toml names as
`[words] keywords`, so that two editions can share one). A ruleset's table is the shared one plus its own; one
spelling must not mean two keywords within it, while two rulesets may spell different keywords alike. A function
given no ruleset reads every known ruleset's words (the first ruleset that names a keyword gives its spellings): for
a text whose game is not known (where two rulesets spell different keywords alike, the first one's meaning)."""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path
from typing import Any

from adjudicator import resources
from adjudicator.errors import PbemError
from adjudicator.resources import resource_dir, toml_table

LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "it": "Italiano", "nl": "Nederlands"}
KEYWORD_LANGUAGES = tuple(LANGUAGE_NAMES)
_ENGLISH_NAMES = {"english": "en", "german": "de", "italian": "it", "dutch": "nl"}

Table = dict[str, dict[str, tuple[str, ...]]]


class KeywordTableError(PbemError, ValueError):
    """A keywords file is wrong: the message names the file, the key and the spelling."""


class UnknownLanguage(PbemError, ValueError):
    pass


def language_code(name: str) -> str:
    """'de', 'DE', 'Deutsch' or 'German' -> 'de'; anything else is refused, naming the choices."""
    wanted = name.strip().casefold()
    for code, native in LANGUAGE_NAMES.items():
        if wanted in (code, native.casefold()):
            return code
    if wanted in _ENGLISH_NAMES:
        return _ENGLISH_NAMES[wanted]
    raise UnknownLanguage(
        f"unknown language {name!r}; choose one of "
        + ", ".join(f"{code} ({native})" for code, native in LANGUAGE_NAMES.items())
    )


def shared_keywords_file() -> Path:
    return resource_dir("grammar") / "keywords.toml"


_KEY_NAME = re.compile(r"[A-Z][A-Z0-9_]*")
_ONE_WORD = re.compile(r"\w+")  # compiled once: each command checks some thousand spellings of every ruleset


def _read(path: Path) -> Table:
    """One keywords file: table key -> language -> spellings (upper case), each checked on its own."""
    try:
        raw = toml_table(path.read_text(encoding="utf-8"))
    except resources.TOMLDecodeError as e:
        raise KeywordTableError(f"{path}: {e}") from None
    table: Table = {}
    for key, langs in raw.items():
        name = key.upper()
        if not _KEY_NAME.fullmatch(name) or not isinstance(langs, dict):
            raise KeywordTableError(f"{path}: bad keyword name {key!r}")
        unknown = set(langs) - set(KEYWORD_LANGUAGES)
        if unknown:
            raise KeywordTableError(f"{path}: [{key}] has unknown languages {sorted(unknown)}")
        table[name] = {lang: tuple(s.upper() for s in langs.get(lang, ())) for lang in KEYWORD_LANGUAGES}
        for spelling in {s for spellings in table[name].values() for s in spellings}:
            if not _ONE_WORD.fullmatch(spelling):
                raise KeywordTableError(f"{path}: [{key}] spelling {spelling.casefold()!r} is not one word")
    return table


def _checked(parts: list[tuple[Path, Table]]) -> Table:
    """The tables of `parts` as one: a key named twice, or a spelling of two keys, is an error naming the file, the
    key and the spelling."""
    table: Table = {}
    where: dict[str, Path] = {}
    owner: dict[str, str] = {}
    for path, part in parts:
        for name, by_language in part.items():
            if name in table:
                raise KeywordTableError(f"{path}: [{name.lower()}] is already a keyword of {where[name]}")
            table[name], where[name] = by_language, path
            for spelling in {s.casefold() for spellings in by_language.values() for s in spellings}:
                if owner.setdefault(spelling, name) != name:
                    raise KeywordTableError(
                        f"{path}: [{name.lower()}] spelling {spelling.upper()!r} already spells "
                        f"{owner[spelling]} ({where[owner[spelling]]})"
                    )
    return table


def ruleset_words(ruleset: str) -> dict[str, Any]:
    """The [words] table of a ruleset's ruleset.toml (its keywords file, its piece keywords), by name or alias."""
    return _words_of(ruleset, os.environ.get("PBEM_RULESETS", ""))[2]


def ruleset_folder(ruleset: str) -> Path:
    """The folder of a ruleset, by name or alias (its keywords and its catalogue are there)."""
    return _words_of(ruleset, os.environ.get("PBEM_RULESETS", ""))[0]


def keywords_file(ruleset: str) -> Path | None:
    """The keywords file of a ruleset (None: it has none, and uses the shared words alone)."""
    return _words_of(ruleset, os.environ.get("PBEM_RULESETS", ""))[1]


@cache
def _words_of(ruleset: str, extra: str) -> tuple[Path, Path | None, dict[str, Any]]:
    from adjudicator.rulesets import UnknownRuleset, ruleset_folders

    for name, folder in ruleset_folders().items():
        data = toml_table((folder / "ruleset.toml").read_text(encoding="utf-8"))
        if ruleset in (name, *data.get("aliases", ())):
            words = data.get("words", {})
            where = folder / "ruleset.toml"
            if not isinstance(words, dict):
                raise KeywordTableError(f"{where}: [words] must be a table")
            for key in ("keywords", "locale"):
                if not isinstance(words.get(key, ""), str):
                    raise KeywordTableError(f"{where}: [words] {key} must be a path relative to the ruleset's folder")
            for key in ("pieces", "answers"):
                names = words.get(key, [])
                if not isinstance(names, list) or not all(isinstance(p, str) for p in names):
                    raise KeywordTableError(f"{where}: [words] {key} must be a list of keyword names")
            path = folder / words.get("keywords", "keywords.toml")
            if "keywords" in words and not path.is_file():
                raise KeywordTableError(f"{where}: [words] keywords names no file: {path}")
            return folder, (path.resolve() if path.is_file() else None), words
    raise UnknownRuleset(f"unknown ruleset {ruleset!r}")


def keyword_table(ruleset: str | None = None) -> Table:
    """Terminal name (MOVE) -> language -> spellings (upper case): the shared keywords and `ruleset`'s own, checked
    for clashes; without a ruleset, those of every known ruleset."""
    return _table(ruleset, os.environ.get("PBEM_RULESETS", ""))


@cache
def _table(ruleset: str | None, extra: str) -> Table:
    shared = shared_keywords_file()
    if ruleset is not None:
        own = keywords_file(ruleset)
        return _checked([(shared, _read(shared))] + ([(own, _file_table(own))] if own else []))
    from adjudicator.rulesets import ruleset_names

    table = dict(_table_of_file(shared))
    for name in ruleset_names():
        try:
            own = _table(name, extra)
        except KeywordTableError:  # said when that ruleset is used; every other game goes on
            continue
        for keyword, by_language in own.items():
            table.setdefault(keyword, by_language)  # a keyword of two rulesets is spelt as the first spells it
    return table


@cache
def _file_table(path: Path) -> Table:
    return _read(path)


def _table_of_file(path: Path) -> Table:
    return _checked([(path, _file_table(path))])


def spellings(name: str, ruleset: str | None = None) -> tuple[str, ...]:
    """Every accepted spelling of keyword `name`, English first, without repeats."""
    table = keyword_table(ruleset)[name]
    return tuple(dict.fromkeys(s for lang in KEYWORD_LANGUAGES for s in table[lang]))


def written(language: str, name: str, ruleset: str | None = None) -> str:
    """Keyword `name` as a reader of `language` writes it: written("de", "MOVE") -> "ZIEHE". The first spelling,
    or the shortest abbreviation of it (INF rather than INFANTRY); other spellings are only read (NACHRICHT AN
    is read, but a retreat is written RÜCKZUG ... NACH)."""
    return _written(language, name.upper(), ruleset, os.environ.get("PBEM_RULESETS", ""))


@cache  # asked for every keyword of every line a report writes
def _written(language: str, name: str, ruleset: str | None, extra: str) -> str:
    spellings = _table(ruleset, extra)[name]
    words = spellings[language] or spellings["en"]
    return min((w for w in words if words[0].startswith(w)), key=len)


def in_english(*names: str, ruleset: str | None = None) -> dict[str, str]:
    """The values of %(kw_<name>)s placeholders in an engine text, which is stored in English: in_english("kill")
    -> {"kw_kill": "KILL"}. The renderer writes each in the reader's keywords (render/i18n.py)."""
    return {f"kw_{name.lower()}": written("en", name, ruleset) for name in names}


def display(name: str, ruleset: str | None = None) -> str:
    """How errors show keyword `name`: its first English spelling."""
    return spellings(name, ruleset)[0]


def keyword_of(ruleset: str | None = None) -> dict[str, str]:
    """Case-folded spelling -> terminal name; casefold also makes STRAßE and STRASSE one word."""
    return _keyword_of(ruleset, os.environ.get("PBEM_RULESETS", ""))


@cache
def _keyword_of(ruleset: str | None, extra: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for name in keyword_table(ruleset):
        for spelling in spellings(name, ruleset):
            found.setdefault(spelling.casefold(), name)  # without a ruleset: what the first ruleset means by it
    return found


def terminal_declarations(ruleset: str | None = None) -> str:
    """The Lark declaration of every keyword terminal; the order lexer produces them from keyword_of()."""
    return "%declare " + " ".join(keyword_table(ruleset)) + "\n"


def piece_keywords(ruleset: str | None = None) -> tuple[str, ...]:
    """The keywords that name a ruleset's pieces ([words] pieces of its ruleset.toml), which the renderer writes in
    the reader's keywords where an engine text counts them ('2 INF'); without a ruleset, every ruleset's."""
    if ruleset is not None:
        return tuple(ruleset_words(ruleset).get("pieces", ()))
    from adjudicator.rulesets import ruleset_names

    return tuple(dict.fromkeys(p for name in ruleset_names() for p in piece_keywords(name)))


def answer_keywords(ruleset: str | None = None) -> frozenset[str]:
    """The keywords of a decision's answer that the tool may write in lower case ('ransom', 'retreat to ITA', 'cav,
    inf'): [words] answers of the ruleset's ruleset.toml, upper case; without a ruleset, every ruleset's."""
    if ruleset is not None:
        return frozenset(name.upper() for name in ruleset_words(ruleset).get("answers", ()))
    from adjudicator.rulesets import ruleset_names

    return frozenset(name for ruleset in ruleset_names() for name in answer_keywords(ruleset))
