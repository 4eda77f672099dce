"""Deadlines as players read them: in UTC and in the seat's own time zone (a seat option, IANA names)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from adjudicator.errors import PbemError
from adjudicator.render.i18n import N_, gettext


class UnknownZone(PbemError, ValueError):
    pass


def zone_name(name: str) -> str:
    """The IANA name of a time zone as written ("europe/berlin" -> "Europe/Berlin"); "UTC" for UTC."""
    wanted = name.strip()
    if wanted.upper() in ("UTC", "GMT", "Z"):
        return "UTC"
    try:
        ZoneInfo(wanted)
        return wanted
    except (ZoneInfoNotFoundError, ValueError):
        pass
    matches = [z for z in available_timezones() if z.casefold() == wanted.casefold()]
    if len(matches) == 1:
        return matches[0]
    raise UnknownZone(f"unknown time zone {name!r}: write an IANA name such as Europe/Berlin or America/New_York")


# the deadline line's forms (deadline_line), which a report mail ends with
DEADLINE_LINES = (  # marked N_ so that the catalogues keep them
    N_("Deadline: none yet (it is set when the moderator's clock next runs)."),
    N_("Deadline: %(utc)s."),
    N_("Deadline: %(utc)s (%(zone)s: %(local)s)."),
)


def deadline_line(language: str, deadline: str | None, zone: str = "") -> str:
    """'Deadline: 2026-11-26 08:00 UTC (Europe/Berlin: 2026-11-26 09:00 CET)', in the reader's language."""
    if deadline is None:
        return gettext(language, DEADLINE_LINES[0])
    moment = datetime.fromisoformat(deadline)
    utc = moment.strftime("%Y-%m-%d %H:%M") + " UTC"
    if not zone or zone == "UTC":
        return gettext(language, DEADLINE_LINES[1], utc=utc)
    local = moment.astimezone(ZoneInfo(zone))
    return gettext(
        language,
        DEADLINE_LINES[2],
        utc=utc,
        zone=zone,
        local=local.strftime("%Y-%m-%d %H:%M %Z"),
    )
