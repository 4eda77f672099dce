"""Languages of reports, receipts, notices and the site: gettext catalogues read with Babel. The languages
themselves and their order keywords are in adjudicator/orders/keywords.py.

The core's catalogue is locale/<lang>/LC_MESSAGES/messages.po; a ruleset may ship its own, for its own texts, in
its folder (games/<ruleset>/locale/<lang>/LC_MESSAGES/messages.po, extracted with its own babel.cfg, or the folder
its ruleset.toml names as [words] locale: coe-1984 shares the Classic edition's). A text is
looked up in the ruleset's catalogue, then in the core's; where no ruleset is named (a renderer of one language),
in the core's, then in every known ruleset's (`translations`).

The .po files are the source: they are compiled in memory when first needed, so no binary .mo file is kept in
the tree. To add or update strings, one extract and one update per catalogue (the core's, then each ruleset's):
    pybabel extract -F locale/babel.cfg -k N_ -k gettext:2 -k plural_gettext:2,3 -k tr --no-location \
        --sort-output --project pbem --copyright-holder "pbem maintainers" -o locale/messages.pot .
    pybabel update -i locale/messages.pot -d locale --no-fuzzy-matching --ignore-obsolete -w 120
    pybabel extract -F games/conqueror-er/babel.cfg -k N_ -k gettext:2 -k plural_gettext:2,3 -k tr --no-location \
        --sort-output --project pbem --copyright-holder "pbem maintainers" -o games/conqueror-er/locale/messages.pot .
    pybabel update -i games/conqueror-er/locale/messages.pot -d games/conqueror-er/locale --no-fuzzy-matching \
        --ignore-obsolete -w 120
    pybabel extract -F games/coe-classic/babel.cfg -k N_ -k gettext:2 -k plural_gettext:2,3 -k tr --no-location \
        --sort-output --project pbem --copyright-holder "pbem maintainers" -o games/coe-classic/locale/messages.pot .
    pybabel update -i games/coe-classic/locale/messages.pot -d games/coe-classic/locale --no-fuzzy-matching \
        --ignore-obsolete -w 120
    pybabel extract -F games/empires-aw/babel.cfg -k N_ -k gettext:2 -k plural_gettext:2,3 -k tr --no-location \
        --sort-output --project pbem --copyright-holder "pbem maintainers" -o games/empires-aw/locale/messages.pot .
    pybabel update -i games/empires-aw/locale/messages.pot -d games/empires-aw/locale --no-fuzzy-matching \
        --ignore-obsolete -w 120
(run from the top of the source tree; locale/babel.cfg leaves out the sources a ruleset's babel.cfg extracts; the
options keep the files' header and line width as they are, so that the diffs show only what changed; a ruleset
folder outside the package, like tests/rulesets/sealed_bids, says its commands in its babel.cfg) then translate the
new entries (tests/test_i18n.py fails while any is missing in any catalogue).

What the engine writes into events and verdicts (a rejection's reason, a decision's question, troop lists) is stored
in English, so that archives replay and verify byte for byte. Those texts are built from msgids with named
placeholders (`N_` in adjudicator/engine/vocabulary.py), and `engine_text` translates them when rendering: it
matches a stored text against the msgids (most literal text first) and translates the values it finds the same
way, so that texts in older archives translate too. Unit abbreviations and piece words the tool composes from
orders come back in the reader's order keywords (`written`), and so does a %(kw_<name>)s placeholder: keyword <name>
in an instruction ("answer %(kw_kill)s or %(kw_ransom)s"), stored as its English spelling, is the reader's own.
"""

from __future__ import annotations

import gettext as stdlib_gettext
import io
import os
import re
from collections.abc import Collection, Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.resources import kept, resource_dir

if TYPE_CHECKING:
    from babel.support import NullTranslations


def N_(msgid: str) -> str:  # noqa: N802 (the gettext convention for a message marked, not translated, here)
    return msgid


def translations(language: str, ruleset: str | None = None) -> NullTranslations | stdlib_gettext.NullTranslations:
    """The catalogue of `language`: the ruleset's own (games/<ruleset>/locale), then the core's; without a ruleset,
    the core's, then every known ruleset's (English is the source language: no catalogue)."""
    if language == "en":  # no catalogue, so no Babel to import (start-up of a command that writes a receipt)
        return _ENGLISH
    return _layered(language, ruleset)


class _English(stdlib_gettext.NullTranslations):
    """The source language: every message as written (Babel's NullTranslations, without importing Babel)."""

    def ugettext(self, message: str) -> str:
        return message


_ENGLISH = _English()  # one for every English text (a map asks some 80 times: making one each time was a tenth of it)


@cache
def _layered(language: str, ruleset: str | None) -> _Layered:
    return _Layered(language, ruleset)


class _Layered(stdlib_gettext.NullTranslations):
    """The catalogues of one language as one, looked up anew for the folders of rulesets (PBEM_RULESETS) in force,
    so that a renderer made before a ruleset was added still finds its texts."""

    def __init__(self, language: str, ruleset: str | None) -> None:
        super().__init__()
        self.language, self.ruleset = language, ruleset

    def _now(self) -> NullTranslations:
        return _chained(self.language, self.ruleset, os.environ.get("PBEM_RULESETS", ""))

    def gettext(self, message: str) -> str:
        return self._now().ugettext(message)

    ugettext = gettext

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._now().ungettext(singular, plural, n)

    ungettext = ngettext

    def pgettext(self, context: str, message: str) -> str:
        return self._now().upgettext(context, message)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self._now().unpgettext(context, singular, plural, n)


@cache
def _chained(language: str, ruleset: str | None, extra: str) -> NullTranslations:
    from babel.support import Translations

    chain = [Translations(io.BytesIO(compiled)) for compiled, _ in _catalogues(language, ruleset, extra)]
    for fallback in chain[1:]:  # a text missing from the first catalogue is looked up in the next
        chain[0].add_fallback(fallback)
    return chain[0]


def catalogue_folders(ruleset: str | None = None) -> list[Path]:
    """The locale folders a text is looked up in, first first: the ruleset's own (its folder's locale/, when it has
    one), then the core's; without a ruleset, the core's and then every known ruleset's."""
    core = resource_dir("locale")
    if ruleset is not None:
        own = _own_locale(ruleset)
        return ([own] if own.is_dir() else []) + [core]
    from adjudicator.rulesets import ruleset_names

    return [core] + list(dict.fromkeys(p for name in ruleset_names() if (p := _own_locale(name)).is_dir()))


def _own_locale(ruleset: str) -> Path:
    """A ruleset's locale folder: locale/ in its folder, or the one its ruleset.toml names ([words] locale)."""
    from adjudicator.orders.keywords import ruleset_folder, ruleset_words

    return (ruleset_folder(ruleset) / ruleset_words(ruleset).get("locale", "locale")).resolve()


Compiled = tuple[bytes, list[tuple[str, str]]]  # a catalogue: its .mo file, and its (msgid, translation) pairs


@cache
def _catalogues(language: str, ruleset: str | None, extra: str) -> tuple[Compiled, ...]:
    return tuple(
        _read_catalogue(path)
        for folder in catalogue_folders(ruleset)
        if (path := folder / language / "LC_MESSAGES" / "messages.po").is_file()
    )


@cache
def _read_catalogue(path: Path) -> Compiled:
    """A .po file compiled in memory (the .mo file gettext reads) with its translated texts of one msgid each, in
    file order; kept in the cache folder by the .po file's content: Babel's .po reader is pure Python, and reading
    the catalogues cost a receipt in German, Italian or Dutch more than its own command's work."""
    from babel import __version__ as babel_version

    source = path.read_bytes()
    locale = path.parent.parent.name

    def compiled() -> Compiled:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        catalogue = read_po(io.BytesIO(source), locale=locale)
        mo = io.BytesIO()
        write_mo(mo, catalogue)
        texts = [(m.id, m.string) for m in catalogue if m.id and m.string and isinstance(m.id, str)]
        return mo.getvalue(), texts

    return kept("catalogue", f"{babel_version}:{locale}:".encode() + source, compiled)


def gettext(language: str, msgid: str, *, in_ruleset: str | None = None, **values: object) -> str:
    """A message in `language` (from the catalogues of `in_ruleset`: see `translations`), with %(name)s values
    filled in (for text made outside the templates); a %(kw_<name>)s placeholder not given is keyword <name> as the
    reader writes it."""
    text = translations(language, in_ruleset).ugettext(msgid)
    values = {**_keyword_values(language, msgid, in_ruleset), **values}
    return text % values if values else text


def plural_gettext(
    language: str, singular: str, plural: str, count: int, *, in_ruleset: str | None = None, **values: object
) -> str:
    """`gettext` of a message with a count: the catalogue's form for `count` (its Plural-Forms: "1 Münze", "2
    Münzen"), `singular` or `plural` in English; the count is one of the %(name)s `values`."""
    text = translations(language, in_ruleset).ngettext(singular, plural, count)
    values = {**_keyword_values(language, singular, in_ruleset), **values}
    return text % values if values else text


def _keyword_values(language: str, msgid: str, ruleset: str | None = None) -> dict[str, str]:
    """The %(kw_<name>)s placeholders of `msgid`: keyword <name> in `language` (ANSWER in German is ANTWORT)."""
    if "%(kw_" not in msgid:
        return {}
    from adjudicator.orders.keywords import written

    return {name: written(language, name[3:], ruleset) for name in PLACEHOLDER.findall(msgid) if name.startswith("kw_")}


# -- engine texts: stored in English, translated when rendered -------------------------------------------------

PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def message_pattern(text: str, wide: Collection[str] = (), forms: Mapping[str, str] | None = None) -> re.Pattern[str]:
    """A message as rendered (translated), its %(name)s fields as named groups, to read a rendered line back: each
    field as little text as fits, those of `wide` as much, those of `forms` as the regex it gives."""
    pieces = PLACEHOLDER.split(text)  # text, name, text, name, ..., text
    field = {name: (forms or {}).get(name, ".*" if name in wide else ".*?") for name in pieces[1::2]}
    return re.compile(
        "".join(re.escape(piece) if i % 2 == 0 else f"(?P<{piece}>{field[piece]})" for i, piece in enumerate(pieces))
        + r"\Z"
    )


# Event data that holds engine text (the rest are codes, seats, numbers, the player's own words, or words that the
# sentences translate themselves); a captured general's `choice` is a switch of the sentence, not a text.
ENGINE_TEXT_KEYS = frozenset(
    {
        "troops",
        "cargo",
        "reason",
        "question",
        "losses",
        "where",
        "leader",
        "attacker_forces",
        "defender_forces",
        "attacker_legion",
        "defender_legion",
        "attacker_losses",
        "defender_losses",
    }
)
UNIT_COUNT = re.compile(r"(\d+) (\w+)")


class _Pattern:
    """A msgid with placeholders as a pattern that matches the whole English text it makes."""

    def __init__(self, msgid: str, translation: str) -> None:
        parts = PLACEHOLDER.split(msgid)  # literal, name, literal, name, ..., literal
        regex, seen = "", set()
        for index, part in enumerate(parts):
            if index % 2 == 0:
                regex += re.escape(part.replace("%%", "%"))
            else:
                regex += f"(?P={part})" if part in seen else f"(?P<{part}>.+?)"
                seen.add(part)
        self.regex = re.compile(regex, re.DOTALL)
        self.msgid, self.translation = msgid, translation
        literals = parts[::2]
        self.needle = max(literals, key=len)  # a cheap test before the regular expression
        self.weight = sum(len(literal) for literal in literals)


def _patterns(language: str, ruleset: str | None = None) -> tuple[list[_Pattern], dict[str, str]]:
    return _patterns_of(language, ruleset, os.environ.get("PBEM_RULESETS", ""))


@cache
def _patterns_of(language: str, ruleset: str | None, extra: str) -> tuple[list[_Pattern], dict[str, str]]:
    """The catalogues as patterns (msgids with placeholders and some words around them, most literal text first)
    and as plain texts (msgids without placeholders); a msgid of two catalogues has the first one's translation."""
    patterns, plain, seen = [], {}, set()
    for _, texts in _catalogues(language, ruleset, extra):
        for msgid, translation in texts:
            if msgid in seen:
                continue
            seen.add(msgid)
            if not PLACEHOLDER.search(msgid):
                plain[msgid] = translation
            elif len(re.sub(r"\W", "", PLACEHOLDER.sub("", msgid))) >= 3:  # not a bare "%(a)s %(b)s"
                patterns.append(_Pattern(msgid, translation))
    patterns.sort(key=lambda p: -p.weight)
    return patterns, plain


def _piece_keywords(ruleset: str | None = None) -> dict[str, str]:
    return _piece_keywords_of(ruleset, os.environ.get("PBEM_RULESETS", ""))


@cache
def _piece_keywords_of(ruleset: str | None, extra: str) -> dict[str, str]:
    """English spellings of the piece keywords (INF, CAV, CITY, ...) -> keyword name: each ruleset names its pieces
    ([words] pieces of its ruleset.toml)."""
    from adjudicator.orders.keywords import keyword_table, piece_keywords

    table = keyword_table(ruleset)
    return {spelling: name for name in piece_keywords(ruleset) for spelling in table[name.upper()]["en"]}


def engine_text(language: str, text: str, ruleset: str | None = None) -> str:
    """An English text of the engine (a verdict's reason, a question, a troop list) in `language`, from the
    catalogues of `ruleset` (see `translations`); a text that is not one of the engine's stays as it is."""
    if language == "en" or not text:
        return text
    return _translate(language, text, 0, ruleset)


def _translate(language: str, text: str, depth: int, ruleset: str | None = None) -> str:
    patterns, plain = _patterns(language, ruleset)
    if text in plain:
        return plain[text]
    if depth < 6:
        for pattern in patterns:
            if pattern.needle in text and (match := pattern.regex.fullmatch(text)):
                values = {
                    name: _translate(language, value, depth + 1, ruleset) for name, value in match.groupdict().items()
                }
                return pattern.translation % (values | _keyword_values(language, pattern.msgid, ruleset))
        head, opened, tail = text.rpartition(" (")  # a text with a note after it: "1 CAV 2 INF (rally)"
        if opened and head and tail.endswith(")"):
            translated = [_translate(language, part, depth + 1, ruleset) for part in (head, tail[:-1])]
            if translated != [head, tail[:-1]]:
                return f"{translated[0]} ({translated[1]})"
        if " + " in text:  # a force and those who join it: "1 CAV 2 INF + 2 INF FROM THA"
            return " + ".join(_translate(language, part, depth + 1, ruleset) for part in text.split(" + "))
        words = text.split(" ")
        if (
            len(words) > 3 and words[-2].isupper() and _unit_list(words[:-2], ruleset)
        ):  # units and where: "2 INF FROM THA"
            units = _translate(language, " ".join(words[:-2]), depth + 1, ruleset)
            return f"{units} {keywords_written(language, words[-2], ruleset)} {words[-1]}"
        for separator in (", ", " "):  # a list of texts ("galley 1, galley 2") or of unit counts ("2 INF 1 CAV")
            if separator in text:
                parts = text.split(separator)
                translated = [_translate(language, part, depth + 1, ruleset) for part in parts]
                # a list of texts, a list of unit counts, or a name before one ("Egyptus 2 INF 1 CAV")
                if translated != parts and (
                    separator == ", " or _unit_list(parts, ruleset) or _unit_list(parts[1:], ruleset)
                ):
                    return separator.join(translated)
                if separator == " " and parts[-1].isupper() and _unit_list(parts[:-1], ruleset):  # "2 INF ELITE"
                    return " ".join([*translated[:-1], keywords_written(language, parts[-1], ruleset)])
    return _keyword(language, text, ruleset)


def _unit_list(words: list[str], ruleset: str | None = None) -> bool:
    """'2 INF 1 CAV' split into words: counts and piece keywords in turn."""
    pairs = [" ".join(words[i : i + 2]) for i in range(0, len(words), 2)]
    pieces = _piece_keywords(ruleset)
    return len(words) % 2 == 0 and all((m := UNIT_COUNT.fullmatch(p)) and m[2] in pieces for p in pairs)


def _keyword(language: str, text: str, ruleset: str | None = None) -> str:
    """A piece keyword (CITY, INF) as the reader writes it, or a count of a piece ('2 INF', '3 infantry')."""
    from adjudicator.orders.keywords import written

    pieces = _piece_keywords(ruleset)
    if text in pieces:
        return written(language, pieces[text], ruleset)
    count = UNIT_COUNT.fullmatch(text)
    if count and count[2] in pieces:
        return f"{count[1]} {written(language, pieces[count[2]], ruleset)}"
    plain = _patterns(language, ruleset)[1]
    if count and count[2] in plain:
        return f"{count[1]} {plain[count[2]]}"
    return text


def engine_data(language: str, event: Any, ruleset: str | None = None) -> Mapping[str, Any]:
    """An event's data with its engine texts in `language` (what the report sentences show)."""
    kind, data = (event["kind"], event["data"]) if isinstance(event, Mapping) else (event.kind, event.data)
    if language == "en":
        return data
    keys = ENGINE_TEXT_KEYS | ({"choice"} if kind == "decision" else set())
    return {
        key: engine_text(language, value, ruleset) if key in keys and isinstance(value, str) else value
        for key, value in data.items()
    }


def _english_spellings(ruleset: str | None = None) -> dict[str, str]:
    """English keyword spellings (upper case) -> keyword name."""
    return _english_spellings_of(ruleset, os.environ.get("PBEM_RULESETS", ""))


@cache
def _english_spellings_of(ruleset: str | None, extra: str) -> dict[str, str]:
    from adjudicator.orders.keywords import keyword_table

    return {s: name for name, spellings in keyword_table(ruleset).items() for s in spellings["en"]}


def keywords_written(language: str, text: str, ruleset: str | None = None) -> str:
    """An order or answer the tool wrote in English keywords (a decision taken, a standing order kept: 'RETREAT TO
    ORO'; a default answer: 'ransom') in the reader's keywords; names, codes and numbers stay (no keyword spells an
    area or seat: orders/parser.py)."""
    if language == "en" or not isinstance(text, str):
        return text
    from adjudicator.orders.keywords import answer_keywords, written

    english, answers = _english_spellings(ruleset), answer_keywords(ruleset)

    def word(found: re.Match[str]) -> str:
        name = english.get(found[0]) if found[0].isupper() else english.get(found[0].upper())
        if name is None or not (found[0].isupper() or name in answers):
            return found[0]
        return written(language, name, ruleset)

    return re.sub(r"\b[A-Za-z]+\b", word, text)


def order_echo(language: str, text: str, ruleset: str | None = None) -> str:
    """A line the tool composed from an order (each item of a BUY order: 'BUY 2 INF AT MAC') in the reader's order
    keywords; a line the player wrote stays as written (a receipt echoes the line from the text sent, and names
    each item of it with `item_echo`)."""
    if language == "en" or not text.startswith("BUY "):
        return text
    return item_echo(language, text, ruleset)


def item_echo(language: str, text: str, ruleset: str | None = None) -> str:
    """An item of an order line as the tool names it in a verdict ('RECRUIT 2 INF AT AUR', 'BUY 1 GALLEY AT MAC'),
    in the reader's order keywords."""
    if language == "en":
        return text
    english = _english_spellings(ruleset)
    from adjudicator.orders.keywords import written

    return " ".join(written(language, english[word], ruleset) if word in english else word for word in text.split(" "))


def context_ruleset(context: Mapping[str, Any]) -> str | None:
    """The name of the ruleset a render context names (`ruleset`: a Ruleset or a name, else the snapshot's), whose
    keywords and catalogue the filters use; None when it names none, or one not known here."""
    named = context.get("ruleset")
    if named is None and isinstance(context.get("state"), Mapping):
        named = context["state"].get("ruleset")
    name = named if isinstance(named, str) or named is None else getattr(named, "name", None)
    if not isinstance(name, str):
        return None
    return name if _known_ruleset(name, os.environ.get("PBEM_RULESETS", "")) else None


@cache  # asked by every filter call of a render
def _known_ruleset(name: str, extra: str) -> bool:
    from adjudicator.orders.keywords import ruleset_folder
    from adjudicator.rulesets import UnknownRuleset

    try:
        ruleset_folder(name)
    except UnknownRuleset:
        return False
    return True
