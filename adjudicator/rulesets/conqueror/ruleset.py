"""Conqueror: Empire Rises as a Ruleset (adjudicator/engine/protocol.py). The member `game_data` writes
the template and checks a data folder (ER-13). A game is played with its own data: `with_game_data` binds the
ruleset to the data files `pbem new --game-data DIR` checked and the archive stores with the game (game.py);
without data, every member of play raises one clear PbemError (engine/ruleset_base.py NeedsGameData)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.engine.ruleset_base import RulesetBase
from adjudicator.engine.ruleset_source import RulesetInfo, RulesetSource

# The data modules are imported when used: `pbem rulesets` and every registry look-up load this module.
if TYPE_CHECKING:
    from adjudicator.rulesets.conqueror.data import GameData, Options
    from adjudicator.rulesets.conqueror.game import ConquerorGame
    from adjudicator.rulesets.conqueror.reader import Report


class ConquerorGameData:
    """The `game_data` member: the moderator's data folder of ER-13 (template, check, load)."""

    def template(self, folder: Path) -> list[Path]:
        """Write a skeleton data folder (refusing to overwrite); the files written."""
        from adjudicator.rulesets.conqueror.template import write_template

        return write_template(folder)

    def check(self, folder: Path, private: Path | None = None) -> Report:
        """Every problem (and every default to confirm) of the data folder and its private texts."""
        from adjudicator.rulesets.conqueror.loader import check_folder

        return check_folder(folder, private)

    def load(self, folder: Path, private: Path | None = None) -> GameData:
        """The checked data; a PbemError listing every problem otherwise."""
        from adjudicator.rulesets.conqueror.loader import load_folder

        return load_folder(folder, private)

    def files(self, folder: Path) -> dict[str, str]:
        """The data files a game stores in the archive (file name -> text; the private wording of ER-13.7 is
        never stored)."""
        from adjudicator.rulesets.conqueror.loader import read_files

        return read_files(folder)

    def load_files(self, files: Mapping[str, str]) -> GameData:
        """The data of stored files (what `files` returned), read with the loader's checks; once per user for the
        same files and reading code (datacache.py)."""
        from adjudicator.rulesets.conqueror.datacache import kept_data

        return kept_data(files, lambda: self.read_files(files))

    def read_files(self, files: Mapping[str, str]) -> GameData:
        """The data of stored files, read and checked now."""
        import tempfile

        from adjudicator.rulesets.conqueror.loader import load_folder

        with tempfile.TemporaryDirectory(prefix="pbem-er-") as name:
            for file, text in files.items():
                (Path(name) / Path(file).name).write_text(text, encoding="utf-8")
            return load_folder(Path(name))


class ConquerorRuleset(RulesetBase):
    """The ruleset `conqueror-er` as the registry holds it: its play needs a game's data (`with_game_data`), and
    until then the engine's base refuses every member of play with one message naming the data (ER-13)."""

    game_data = ConquerorGameData()
    hidden_information = True  # hands, face-down heroes and deck orders are secret
    # ER-4: a player orders twice a round (plans, campaign); his report mails come then, not after every step
    grouped_reports = True
    shared_steps = True  # ER-4.3: the simultaneous phases are resolved from sealed order sets, one step
    # what describes the unbound ruleset: no seats or order language before the data names them (ER-13)
    seat_names: tuple[str, ...] = ()
    grammar_files: tuple[Path, ...] = ()

    def __init__(self, info: RulesetInfo, example_data: Path | None = None) -> None:
        self.info = info
        self.example_data = example_data  # our own invented data set, not the printed game

    @property
    def templates(self) -> Path:
        """Its report templates (also found by the ruleset's name, as the site and maps look them up)."""
        return _templates()

    @property
    def odds(self) -> Any:
        """Exact battle odds on the example data, or on a bound game's data (odds.py ConquerorOdds)."""
        from adjudicator.rulesets.conqueror.odds import ConquerorOdds

        return ConquerorOdds()

    def with_data(self, data: GameData, options: Options | None = None, data_digest: str = "") -> ConquerorGame:
        """The ruleset bound to one game's data (the archive's stored copy, or a folder checked by `pbem new`), whose
        files have `data_digest` (engine/envelope.py)."""
        from adjudicator.rulesets.conqueror.game import ConquerorGame

        return ConquerorGame(self.info, data, options or data.options, data_digest)

    def with_game_data(
        self, files: Mapping[str, str], mode: str | None = None, options: Mapping[str, str] | None = None
    ) -> ConquerorGame:
        """The ruleset bound to stored data files, with the mode (ER-3.1) and game options (ER-13.5) applied."""
        from adjudicator.engine.envelope import data_digest
        from adjudicator.rulesets.conqueror.setup import game_options

        data = self.game_data.load_files(files)
        return self.with_data(data, game_options(data, mode, dict(options or {})), data_digest(files))


@cache  # asked by every render of a report: the folder is looked for on the disk once
def _templates() -> Path:
    from adjudicator.resources import resource_dir

    return resource_dir("templates") / "conqueror"


def load(source: RulesetSource) -> ConquerorRuleset:
    return ConquerorRuleset(RulesetInfo.read(source), source.folder / source.text("example_data"))
