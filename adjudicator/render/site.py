"""`pbem site`: a static HTML archive of a game, from its public material only.

Each turn page shows the public report, the map, the battles in detail and the turn's dice key; the index shows
the standings and the map after the latest turn, lists the turns and explains how anyone can check the dice.
Nothing private to a seat is used: no private reports, no private press, no passwords, no dice seed; once the game
has ended (its last report reveals the seed), each turn page shows the turn's hidden draws too. All text
passes through an escaping Jinja environment, so player text (press, names) cannot inject markup.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from adjudicator.engine.vocabulary import Event
from adjudicator.render import environment, markup_environment, render, templates_of, write_atomically
from adjudicator.resources import release


@dataclass
class SiteTurn:
    """What the site shows of one turn; built by the moderator from an archived Turn row."""

    number: int
    seat: str | None
    round: int
    report: str  # the public report (report.txt)
    map_svg: str
    events: list[Event]  # the public ones
    turn_key: str
    orders_hash: str
    dice: list[Any]
    dice_source: str
    hidden_draws: list[tuple[int, str, int, int]] = field(default_factory=list)  # shown once the game has ended


def _sentence(event: Event, language: str, templates: str) -> str:
    """An event as the reports word it (the plain-text macro of the ruleset's events.j2), escaped later by the
    page."""
    return render("_sentence.txt.j2", language, event=event, ruleset_templates=templates).strip()


def battles(turn: SiteTurn, language: str, templates: str) -> list[list[str]]:
    """The turn's battles, each as its report lines (start to end), worded by the sentences of `templates` (the
    ruleset's template folder, whose events.j2 names the event kinds that open a battle and those it holds)."""
    opening, held = _battle_kinds(templates)
    found: list[list[str]] = []
    for event in turn.events:
        if event.kind in opening:
            found.append([])
        if event.kind in held and found:
            found[-1].append(_sentence(event, language, templates))
    return found


@cache
def _battle_kinds(templates: str) -> tuple[frozenset[str], frozenset[str]]:
    """`battle_opening` and `battle_kinds` of the ruleset's events.j2 (none: the site shows no battles)."""
    module = environment().get_template(f"{templates}/events.j2").module
    return frozenset(getattr(module, "battle_opening", ())), frozenset(getattr(module, "battle_kinds", ()))


def write_site(out: Path, files: dict[str, str], progress: Callable[[str], None] | None = None) -> list[Path]:
    """Write the site's files (site_files) into `out`; returns the files written, telling `progress` of each turn's
    page."""
    written = []
    for name, text in files.items():
        write_atomically(out / name, text, public=True)  # the site is for a web server
        written.append(out / name)
        if progress is not None and name.startswith("turn-") and name.endswith(".html"):
            progress(f"turn {int(name[5:9])}")
    return written


def site_files(
    game: dict[str, Any], turns: list[SiteTurn], language: str = "en", standings: list[dict[str, Any]] | None = None
) -> dict[str, str]:
    """The site's files by name: index.html, one page and one map per turn, and style.css, in `language`. `game`
    names its ruleset (`ruleset`); `standings` (the ruleset's, engine/protocol.py report_context) are who holds
    what after the latest turn, shown on the index with that turn's map."""
    env = markup_environment(language)
    templates = templates_of(game) or ""
    files = {"style.css": env.get_template("site/style.css").render()}
    fights = [battles(turn, language, templates) for turn in turns]
    for i, turn in enumerate(turns):
        previous = turns[i - 1].number if i else None
        following = turns[i + 1].number if i + 1 < len(turns) else None
        files[f"turn-{turn.number:04d}.svg"] = turn.map_svg
        files[f"turn-{turn.number:04d}.html"] = env.get_template("site/turn.html.j2").render(
            game=game,
            turn=turn,
            battles=fights[i],
            previous=previous,
            following=following,
            previous_key=turns[i - 1].turn_key if i and turns[i - 1].number > 0 else game["commitment"],
            release=release(),  # a player's check compares the page with what the game's record makes only then
        )
    files["index.html"] = env.get_template("site/index.html.j2").render(
        game=game,
        turns=[
            {"number": t.number, "seat": t.seat, "round": t.round, "battles": len(fight), "key": t.turn_key}
            for t, fight in zip(turns, fights, strict=True)
        ],
        standings=standings or [],
        figures=[label for label, _ in (standings or [{}])[0].get("figures", [])],
        latest_map=turns[-1].map_svg if turns else "",
        release=release(),
    )
    return files
