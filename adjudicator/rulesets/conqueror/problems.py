"""Problems found in a game-data folder: each names the file, the key, the rule ID and what is wrong in plain
words, as a gettext message (msgid and values) that the moderator's command renders in its language.

The msgids are marked with `_`, which pybabel's default keywords extract (adjudicator/render/i18n.py names the
command); they are not `N_`, the marker of engine texts that archives store in English."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


def _(msgid: str) -> str:
    """Marks a msgid for extraction; the text is translated where it is shown (Say.text)."""
    return msgid


@dataclass(frozen=True)
class Say:
    """A message: its msgid and the values of its %(name)s placeholders."""

    msgid: str
    values: Mapping[str, Any] = field(default_factory=dict)

    def text(self, language: str = "en") -> str:
        from adjudicator.render.i18n import gettext

        return gettext(language, self.msgid, **self.values)


@dataclass(frozen=True)
class Problem:
    """One thing wrong in the data: the file (relative to the data folder), the key in it, the rule that reads
    the value, and the problem."""

    file: str
    key: str
    rule: str
    say: Say

    def text(self, language: str = "en") -> str:
        where = self.file if self.key == WHOLE_FILE else f"{self.file}: {self.key}"
        return f"{where} ({self.rule}): {self.say.text(language)}"


WHOLE_FILE = "-"  # the key of a problem with the file as a whole (missing, not TOML)


# The messages, one place for all of them (the checker and the vocabulary build problems from these).
MISSING = _("missing")
EMPTY = _("still empty: fill it in")
WRONG_TYPE = _("expected %(expected)s, found %(found)s")
NOT_ONE_OF = _("%(value)s is not one of %(choices)s")
UNKNOWN_KEY = _("unknown key (known here: %(known)s)")
NO_BRACKETS = _("%(name)s takes no brackets")
NEEDS_NUMBER = _("%(name)s needs a number in brackets, e.g. %(name)s(2)")
NEEDS_VALUE = _("%(name)s needs a value in brackets: %(form)s")
NOT_A_NUMBER = _("%(value)s is not a whole number")
NO_SELECTOR = _("%(value)s is no unit selector <own|enemy|side>.<cavalry|infantry|archer|elite|ship|siege|any>")
NO_AREA = _("%(value)s is no area of the map")
NEEDS_AREA = _("area needs an area code in brackets, e.g. area(VAL)")
BAD_COUNTER = _("%(value)s: after '/' write a whole number of at least 1")
BAD_UNIT_COUNT = _("%(value)s: write type>=n, e.g. infantry>=2")
BAD_FORT_LIMIT = _("%(value)s: write large=n, small=m")
UNKNOWN_OP = _("unknown op %(value)s (known ops: %(choices)s)")
OP_ARGUMENT_MISSING = _("op %(op)s needs the argument %(arg)s")
NOT_SYMMETRIC = _("%(area)s lists %(other)s as adjacent, but %(other)s does not list %(area)s")
SELF_ADJACENT = _("an area cannot be adjacent to itself")
TWICE = _("%(value)s is given twice")
COUNT = _("%(expected)s expected, found %(found)s")
UNKNOWN_FACTION = _("%(value)s is no faction of factions.toml")
NOT_ON_SIDE = _("%(value)s is no area of %(file)s")
NO_CAPITAL = _("faction %(faction)s plays at %(players)s players but has no capital on this board side")
TWO_CAPITALS = _("faction %(faction)s has two capitals on this board side: %(areas)s")
CAPITAL_NOT_LARGE = _("a capital is a large fort on land (ER-2.6); this area is %(kind)s with fort %(fort)s")
BLANK_WITHOUT_FORT = _("%(area)s has no printed fort to cover")
WHARF_NOT_COASTAL = _("%(area)s is marked coastal for wharves but borders no sea area (a river does not count)")
LINK_KIND = _("link kind %(value)s is not one of river, bridge")
BRIDGE_NOT_LAND = _("a bridge joins two land areas; %(area)s is a sea area")
RIVER_NOT_MUTUAL = _("the river's areas must all be joined to each other: %(a)s and %(b)s are not")
WRONG_SIDE_COUNT = _("player count %(players)s does not use the %(side)s board side")
PLAYERS_SET = _("%(players)s players need %(players)s factions, found %(found)s")
PLAYERS_NESTED = _("the factions at %(smaller)s players must also play at %(larger)s players")
TURN_ORDER = _("the turn order must name every faction once; %(problem)s")
START_MISSING = _("no starting units for mode %(mode)s at %(players)s players")
START_TWICE = _("starting units for mode %(mode)s at %(players)s players are given twice")
START_OVER_BARRACKS = _("starting %(unit)s (%(found)s) exceed the barracks (%(barracks)s)")
START_AREA_TAKEN = _("%(area)s is already held at %(players)s players by %(other)s")
START_AREA_SEA = _("%(area)s is a sea area: standard units start on land")
INDEPENDENT_ON_CAPITAL = _("an independent army cannot stand on the capital %(area)s")
BOARDS = _("a faction has one standard board and two alternative boards (ER-1.2); found %(found)s")
HEROES_PER_FACTION = _("faction %(faction)s has %(found)s heroes; each faction has 5 (ER-1.2)")
TACTIC_TOTAL = _("the tactic cards' counts add up to %(found)s; the deck has 38 (ER-1.2)")
CHRONICLE_LEVELS = _("level %(level)s has %(found)s chronicle cards; expected %(expected)s (ER-1.2)")
MEGAPROJECT_TYPES = _("%(found)s %(type)s cards; expected %(expected)s (ER-12.1)")
OUT_OF_RANGE = _("%(value)s is out of range: %(low)s to %(high)s")
NOT_INCREASING = _("the values must not decrease: %(values)s")
LAST_TRADE_SPACE = _("the last trade space gives the extra agent action (ER-5.6): set redeploy = true")
PRICES = _("write 1 to 3 prices, leftmost first")
RULESET = _("this folder holds data of ruleset %(found)s, not %(expected)s")
NO_FILE = _("the file is missing")
NOT_TOML = _("not valid TOML (%(error)s)")
PRIVATE_NOT_TEXT = _("private data holds only `text` fields (ER-13.7)")
PRIVATE_UNKNOWN = _("this private text is keyed to nothing in the shared data")
ELITE_DEFAULT = _("elite cost %(cost)s is the pre-release default of ER-6.13: confirm it against the printed board")
BAD_ID = _("%(value)s: an id is letters, digits, '-' and '_' only")
CARD_VOLLEY = _("cards are played after the archer volley (step 3): a card's volley effect can never act")
BLANKS = _("%(found)s blanked forts at %(players)s players; the game has 2 blank markers (ER-1.2)")
