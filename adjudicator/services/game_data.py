"""The moderator's game data: the printed facts of a game (map, cards, tracks) that the moderator supplies in a
data folder (Conqueror: Empire Rises, ER-13). Writing a ruleset's template and checking a folder, reached
through the registry and the ruleset's member `game_data` (adjudicator/engine/protocol.py)."""

from __future__ import annotations

import json
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adjudicator.engine.datafile import FILE_MOST_BYTES, DataFileRefused, check_nesting, check_size, read_data_file
from adjudicator.errors import PbemError
from adjudicator.render.i18n import gettext
from adjudicator.rulesets import Ruleset, load_ruleset

HEADER_FILE = "game-data.toml"  # names the folder's ruleset (`ruleset = "..."`)
# The archive's copy of a game's data: each file within the data file limit, JSON-escaped (at most 6 bytes a byte
# for control characters), of a handful of files (six for Conqueror), with room to spare.
STORED_MOST_BYTES = 64 * FILE_MOST_BYTES


@dataclass
class DataCheck:
    """What `pbem data check` found: problems (each file, key, rule ID and problem), and notes (usable
    defaults still to confirm), as text in the reader's language."""

    folder: Path
    ruleset: str
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not self.problems


def data_format(ruleset_name: str) -> Any:
    """The ruleset's `game_data` member; a PbemError when its data is not the moderator's to supply."""
    ruleset = load_ruleset(ruleset_name)
    found = ruleset.game_data
    if found is None:
        raise PbemError(
            gettext(
                "en", "ruleset %(ruleset)s has no game data to fill in: its data ships with it", ruleset=ruleset.name
            )
        )
    return found


def write_template(ruleset_name: str, folder: Path) -> list[Path]:
    """Write the ruleset's skeleton data folder; the files written."""
    return list(data_format(ruleset_name).template(folder))


def check_data(
    folder: Path, private: Path | None = None, ruleset_name: str | None = None, language: str = "en"
) -> DataCheck:
    """Check a data folder (and the moderator's private texts): its ruleset is `ruleset_name`, else the one its
    game-data.toml names."""
    if not folder.is_dir():
        raise PbemError(gettext("en", "%(folder)s is no folder", folder=folder))
    name = ruleset_name or _named_ruleset(folder)
    report = data_format(name).check(folder, private)
    return DataCheck(
        folder,
        load_ruleset(name).name,
        [problem.text(language) for problem in report.problems],
        [note.text(language) for note in report.notes],
    )


def _named_ruleset(folder: Path) -> str:
    """The ruleset that the folder's game-data.toml names."""
    try:
        name = tomllib.loads(read_data_file(folder / HEADER_FILE)).get("ruleset")
    except DataFileRefused as refused:  # before parsing: a deep file exhausts the parser's recursion
        raise PbemError(f"{folder / HEADER_FILE}: {gettext('en', refused.msgid, **refused.values)}") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        name = None
    if not isinstance(name, str) or not name:
        raise PbemError(
            gettext(
                "en",
                '%(file)s does not name its ruleset (ruleset = "..."): give --ruleset, or write the folder with '
                "`pbem data template RULESET DIR`",
                file=folder / HEADER_FILE,
            )
        )
    return name


@dataclass
class RulesetSeats:
    """The seats of a ruleset for `pbem rulesets`: (id, name) each, the seats in play by player count when the
    data says, and the data folder they were read from (None: they ship with the ruleset; `example`: the
    ruleset's own example data, not a moderator's)."""

    seats: list[tuple[str, str]]
    by_players: dict[int, tuple[str, ...]] = field(default_factory=dict)
    folder: Path | None = None
    example: bool = False


def ruleset_seats(name: str, game_data: Path | None = None) -> RulesetSeats:
    """The seats of ruleset `name`; for a ruleset played with the moderator's data, those of `game_data` when the
    folder is that ruleset's, else of its example data."""
    ruleset = load_ruleset(name)
    member = ruleset.game_data
    if member is None:
        return RulesetSeats([(seat, seat) for seat in ruleset.seat_names])
    mine = game_data is not None and _is_for(game_data, ruleset)
    folder = game_data if mine else ruleset.example_data
    member.load(folder)  # a PbemError naming every problem of the folder
    bound = ruleset.with_game_data(member.files(folder))
    return RulesetSeats(
        [(seat, bound.seat_title(seat)) for seat in bound.seat_names],
        dict(bound.seats_by_players),
        folder,
        not mine,
    )


def _is_for(folder: Path, ruleset: Ruleset) -> bool:
    """Whether a data folder is the ruleset's: the one its game-data.toml names (a folder that names none, or an
    unknown one, is tried as every ruleset's, so that each says what it lacks)."""
    try:
        return load_ruleset(_named_ruleset(folder)).name == ruleset.name
    except PbemError:
        return True


def stored_game_ruleset(ruleset_name: str, stored: str) -> Ruleset:
    """The ruleset bound to the data stored with a game (its archive row's `game_data`: JSON {"files": {file:
    text}, "mode", "options": {key: text}}); a PbemError naming the stored field and what is wrong when the row
    was damaged, so that every command that reads the game says so instead of failing."""

    def damaged(name: str, what: str) -> PbemError:
        return PbemError(f"its stored game data (game_data{name}) {what}")

    try:
        check_size(len(stored.encode("utf-8")), STORED_MOST_BYTES)
        check_nesting(stored)  # before parsing: a deep text exhausts the parser's recursion
        data = json.loads(stored)
    except DataFileRefused as refused:
        raise damaged("", f"is refused: {refused}") from None
    except json.JSONDecodeError as wrong:
        raise damaged("", f"is not readable JSON ({wrong})") from None
    if not isinstance(data, dict):
        raise damaged("", f"is a JSON {type(data).__name__}, not an object with files, mode and options")
    files, mode, options = data.get("files"), data.get("mode"), data.get("options") or {}
    if not isinstance(files, dict) or not files:
        raise damaged(".files", "is missing or not an object of file names and texts")
    for file, text in files.items():
        if not isinstance(text, str):
            raise damaged(f".files[{file!r}]", f"is a JSON {type(text).__name__}, not the file's text")
    if mode is not None and not isinstance(mode, str):
        raise damaged(".mode", f"is {mode!r}, not a mode's name")
    if not isinstance(options, dict):
        raise damaged(".options", f"is a JSON {type(options).__name__}, not an object of option texts")
    for key, value in options.items():
        if not isinstance(value, str):  # stored as `pbem new --option key=value` gave them
            raise damaged(f".options[{key!r}]", f"is {value!r}, not a text as --option gives it")
    ruleset = load_ruleset(ruleset_name)
    if not ruleset.takes_game_data:
        raise damaged("", f"is stored for ruleset {ruleset.name}, which takes no game data")
    try:
        return ruleset.with_game_data(files, mode, options)
    except PbemError as refused:  # the ruleset's own checks of the data (ER-13), mode and options
        raise damaged(_refused_field(ruleset, files, mode), f"is refused: {_without_folder(str(refused))}") from None


def _refused_field(ruleset: Ruleset, files: dict[str, str], mode: str | None) -> str:
    """Which stored field the ruleset refused: the files, else the mode, else the options (bound again without
    the later fields; only when binding failed)."""
    for name, given in ((".files", (files,)), (".mode", (files, mode))):
        try:
            ruleset.with_game_data(*given)
        except PbemError:
            return name
    return ".options"


def _without_folder(message: str) -> str:
    """A data problem without the temporary folder the stored files were checked in (it names nothing real)."""
    first, _, rest = message.partition(": the game data has ")
    return f"the game data has {rest}" if rest and first.startswith(tempfile.gettempdir()) else message
