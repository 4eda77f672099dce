"""The keyword table (grammar/keywords.toml): accepted spellings of every keyword in every language."""

from __future__ import annotations

import re
import tomllib
from functools import cache

from adjudicator.errors import PbemError
from adjudicator.resources import resource_dir

LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "it": "Italiano", "nl": "Nederlands"}
KEYWORD_LANGUAGES = tuple(LANGUAGE_NAMES)
_ENGLISH_NAMES = {"english": "en", "german": "de", "italian": "it", "dutch": "nl"}


class KeywordTableError(ValueError):
    pass


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


@cache
def keyword_table() -> dict[str, dict[str, tuple[str, ...]]]:
    """Terminal name (MOVE) -> language -> spellings (upper case), checked for clashes."""
    raw = tomllib.loads((resource_dir("grammar") / "keywords.toml").read_text(encoding="utf-8"))
    table: dict[str, dict[str, tuple[str, ...]]] = {}
    owner: dict[str, str] = {}
    for key, langs in raw.items():
        name = key.upper()
        if not re.fullmatch(r"[A-Z][A-Z0-9_]*", name):
            raise KeywordTableError(f"keywords.toml: bad keyword name {key!r}")
        unknown = set(langs) - set(KEYWORD_LANGUAGES)
        if unknown:
            raise KeywordTableError(f"keywords.toml: [{key}] has unknown languages {sorted(unknown)}")
        table[name] = {lang: tuple(s.upper() for s in langs.get(lang, ())) for lang in KEYWORD_LANGUAGES}
        for spelling in {s.casefold() for spellings in table[name].values() for s in spellings}:
            if not re.fullmatch(r"\w+", spelling):
                raise KeywordTableError(f"keywords.toml: [{key}] spelling {spelling!r} is not one word")
            if owner.setdefault(spelling, name) != name:
                raise KeywordTableError(f"keywords.toml: {spelling.upper()!r} spells both {owner[spelling]} and {name}")
    return table


def spellings(name: str) -> tuple[str, ...]:
    """Every accepted spelling of keyword `name`, English first, without repeats."""
    seen = dict.fromkeys(s for lang in KEYWORD_LANGUAGES for s in keyword_table()[name][lang])
    return tuple(seen)


def written(language: str, name: str) -> str:
    """Keyword `name` as a reader of `language` writes it: written("de", "MOVE") -> "ZIEHE". The first spelling,
    or the shortest abbreviation of it (INF rather than INFANTRY); other spellings are only read (NACHRICHT AN
    is read, but a retreat is written RÜCKZUG ... NACH)."""
    spellings = keyword_table()[name.upper()]
    words = spellings[language] or spellings["en"]
    return min((w for w in words if words[0].startswith(w)), key=len)


def in_english(*names: str) -> dict[str, str]:
    """The values of %(kw_<name>)s placeholders in an engine text, which is stored in English: in_english("kill")
    -> {"kw_kill": "KILL"}. The renderer writes each in the reader's keywords (render/i18n.py)."""
    return {f"kw_{name.lower()}": written("en", name) for name in names}


def display(name: str) -> str:
    """How errors show keyword `name`: its first English spelling."""
    return spellings(name)[0]


@cache
def keyword_of() -> dict[str, str]:
    """Case-folded spelling -> terminal name; casefold also makes STRAßE and STRASSE one word."""
    return {s.casefold(): name for name in keyword_table() for s in spellings(name)}


def terminal_declarations() -> str:
    """The Lark declaration of every keyword terminal; the order lexer produces them from keyword_of()."""
    return "%declare " + " ".join(keyword_table()) + "\n"
