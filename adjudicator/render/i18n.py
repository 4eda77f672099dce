"""Languages of reports, receipts, notices and the site: gettext catalogues (locale/<lang>/LC_MESSAGES/messages.po)
read with Babel. The languages themselves and their order keywords are in adjudicator/orders/keywords.py.

The .po files are the source: they are compiled in memory when first needed, so no binary .mo file is kept in
the tree. To add or update strings:
    pybabel extract -F locale/babel.cfg -k N_ -k gettext:2 -k tr --no-location --sort-output -o locale/messages.pot .
    pybabel update -i locale/messages.pot -d locale --no-fuzzy-matching
then translate the new entries (tests/test_i18n.py fails while any is missing).
"""

from __future__ import annotations

import io
from functools import cache
from typing import TYPE_CHECKING

from adjudicator.resources import resource_dir

if TYPE_CHECKING:
    from babel.support import NullTranslations


def N_(msgid: str) -> str:  # noqa: N802 (the gettext convention for a message marked, not translated, here)
    return msgid


# Words the templates translate from event data (so no literal marks them there): extracted with `-k N_`.
EVENT_WORDS = (
    N_("movement"), N_("combat"), N_("destroy cities"), N_("buy and place"),  # phases
    N_("infantry"), N_("cavalry"), N_("catapult"), N_("galley"), N_("city"), N_("fortification"),
    N_("fortified city"), N_("road"),  # pieces bought, targets shot at
    N_("answer"), N_("standing order"), N_("default"),  # where a decision came from
    N_("land"), N_("sea"),  # how attacking units came (O-6.17)
)


@cache
def translations(language: str) -> NullTranslations:
    """The catalogue of `language` (English is the source language: no catalogue)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import NullTranslations, Translations

    if language == "en":
        return NullTranslations()
    path = resource_dir("locale") / language / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as source:
        catalogue = read_po(source, locale=language)
    compiled = io.BytesIO()
    write_mo(compiled, catalogue)
    compiled.seek(0)
    return Translations(compiled)


def gettext(language: str, msgid: str, **values: object) -> str:
    """A message in `language`, with %(name)s values filled in (for text made outside the templates)."""
    text = translations(language).ugettext(msgid)
    return text % values if values else text
